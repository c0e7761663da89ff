// An Mfrc522Reader wired to an emulated MFRC522, and tags to put in its field.
#pragma once

#include <string_view>

#include "drivers/rfid/mfrc522_reader.hpp"
#include "tests/drivers/emulated_mfrc522.hpp"

namespace vivaref::drivers::emulation {

inline std::vector<std::uint8_t> uidBytes(std::string_view hex) {
    const TagUid uid = TagUid::fromHex(hex);
    return {uid.bytes().begin(), uid.bytes().end()};
}

struct EmulatedReader {
    explicit EmulatedReader(EmulatedBusTiming timing = {},
                            Mfrc522ReaderConfig config = {"floor-test", {}, 16, 4})
        : chip(timing), reader(chip, std::move(config)) {}
    // The reader holds on to the chip: neither may move.
    EmulatedReader(const EmulatedReader&) = delete;
    EmulatedReader& operator=(const EmulatedReader&) = delete;

    void place(std::string_view hex, std::uint8_t sak = 0x00) {
        chip.field().add(EmulatedTag(uidBytes(hex), sak));
    }

    // One cycle as the sensing pipeline runs it: field off and on, then scan.
    ScanResult cycle() {
        reader.antennaOff();
        reader.antennaOn();
        return reader.scan();
    }

    EmulatedMfrc522 chip;
    Mfrc522Reader reader;
};

// The tags really in the reader's field.
inline TagSet inField(EmulatedReader& r) {
    TagSet tags;
    for (const auto& tag : r.chip.field().tags()) tags.insert(TagUid(tag.uid()));
    return tags;
}

inline TagSet tagSet(std::initializer_list<std::string_view> hexes) {
    TagSet set;
    for (auto hex : hexes) set.insert(TagUid::fromHex(hex));
    return set;
}

inline std::string describe(const ScanResult& result) {
    if (!result.ok()) return std::string(errorKindName(result.error().kind)) + ": " + result.error().message;
    std::string text = "tags:";
    for (const TagUid& uid : result.tags()) text += " " + uid.toHex();
    return text;
}

}  // namespace vivaref::drivers::emulation
