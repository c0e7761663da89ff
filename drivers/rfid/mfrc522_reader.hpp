// A TagReader on an MFRC522: it inventories every ISO/IEC 14443-A tag in its
// field, one at a time (REQA, anticollision and SELECT through the cascade
// levels, then HLTA so that the next REQA finds the others), until no tag
// answers. Every wait is bounded; every failure comes back as a ScanError.
#pragma once

#include <cstdint>

#include "drivers/rfid/mfrc522_chip.hpp"
#include "drivers/rfid/tag_reader.hpp"

namespace vivaref::drivers {

struct Mfrc522ReaderConfig {
    std::string name;
    mfrc522::ChipTiming timing;
    // A floor holds at most a few characters; beyond this the scan reports garbage.
    int maxTagsPerScan = 16;
    // Rounds that may fail (a tag leaving, a garbled frame) before the scan gives up.
    int maxFailedRounds = 4;
};

// What one scan cost, for the benchmark and the logs.
struct ScanCost {
    std::uint64_t spiTransfers = 0;
    std::uint64_t spiBytes = 0;
    int requests = 0;        // REQA frames
    int anticollisions = 0;  // ANTICOLLISION frames, one per cascade level plus one per collision
    int selects = 0;
    int halts = 0;
    int noReplies = 0;  // frames the chip's timer closed
    int collisions = 0;
    int failedRounds = 0;
};

class Mfrc522Reader final : public TagReader {
public:
    Mfrc522Reader(SpiTransport& spi, Mfrc522ReaderConfig config);

    // Soft reset, version check, configuration and a CRC coprocessor check;
    // at start-up, and again after the chip stopped answering.
    mfrc522::Status initialize();
    std::uint8_t version() const { return version_; }

    const std::string& name() const override { return config_.name; }
    std::error_code antennaOn() override;
    std::error_code antennaOff() override;
    ScanResult scan() override;

    const ScanCost& lastScanCost() const { return cost_; }
    const mfrc522::BusCounters& busCounters() const { return chip_.counters(); }

private:
    enum class RoundEnd { FieldEmpty, TagRead, TagLost };
    mfrc522::Status inventoryRound(TagSet& found, RoundEnd& end);
    // One cascade level's ANTICOLLISION loop: the 4 UID bytes and BCC of one tag.
    mfrc522::Status resolveCascadeLevel(std::uint8_t selectCode, std::array<std::uint8_t, 5>& level,
                                        bool& lost);
    mfrc522::Status selectLevel(std::uint8_t selectCode, const std::array<std::uint8_t, 5>& level,
                                std::uint8_t& sak, bool& lost);
    mfrc522::Status halt();
    mfrc522::Status protocolError(const std::string& what) const;

    mfrc522::Mfrc522Chip chip_;
    Mfrc522ReaderConfig config_;
    std::uint8_t version_ = 0;
    std::array<std::uint8_t, 2> hltaCrc_{};
    bool antennaOn_ = false;
    ScanCost cost_;
};

}  // namespace vivaref::drivers
