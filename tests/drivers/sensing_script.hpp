// Scripted scans for the sensing pipeline's tests: a small castle of named
// readers, a few enrolled characters, and scans written as "at t, floor3 saw
// odessa and a garbage UID".
#pragma once

#include <initializer_list>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "drivers/sensing/sensing_pipeline.hpp"

namespace vivaref::drivers::testing {

inline TagUid uidOf(const std::string& slug) {
    // Enrolled test tags are 7-byte UIDs whose last bytes spell the slug's first letters.
    std::uint8_t bytes[7] = {0x04, 0, 0, 0, 0, 0, 0};
    for (std::size_t i = 0; i < slug.size() && i < 6; ++i) bytes[i + 1] = static_cast<std::uint8_t>(slug[i]);
    return TagUid(bytes);
}

inline const TagUid kGarbage = TagUid::fromHex("DEADBEEF");

// Floors 2, 3 and 4 with one reader each ("floor2".."floor4"), and floor 5
// with two ("floor5a", "floor5b").
inline BoardLayout smallCastle() {
    BoardLayout layout;
    for (int floor = 2; floor <= 4; ++floor) {
        layout.addReader({"floor" + std::to_string(floor)}, {std::to_string(floor)});
    }
    layout.addReader({"floor5a"}, {"5"});
    layout.addReader({"floor5b"}, {"5"});
    return layout;
}

inline TagRegistry someCharacters() {
    TagRegistry registry;
    for (const char* slug : {"odessa", "alighiero", "beatrice", "cecco"}) registry.enrol(uidOf(slug), {slug});
    return registry;
}

// The knobs these scripted cases were written for (a 150 ms window, a tag
// lost after three scans in a row without it, in hand only after the
// window): their times follow from them. The defaults have their own cases.
inline SensingConfig patientKnobs() {
    SensingConfig config;
    config.stabilityWindow = std::chrono::milliseconds(150);
    config.lostAfterMisses = 3;
    config.inHandAtOnce = false;
    return config;
}

struct Script {
    SensingPipeline pipeline;
    std::vector<ObservationChange> changes;  // everything update() returned so far

    explicit Script(SensingConfig config = patientKnobs())
        : pipeline(smallCastle(), someCharacters(), config) {}

    void scan(const std::string& reader, std::initializer_list<const char*> slugs, Timestamp at,
              std::vector<TagUid> extra = {}) {
        TagSet tags(extra.begin(), extra.end());
        for (const char* slug : slugs) tags.insert(uidOf(slug));
        REQUIRE(pipeline.addScan(ReaderId{reader}, ScanResult(std::move(tags)), at));
    }
    void fail(const std::string& reader, Timestamp at) {
        REQUIRE(pipeline.addScan(ReaderId{reader},
                                 ScanResult(ScanError{ScanErrorKind::NoAnswer, reader + ": gone"}), at));
    }
    BoardObservation update(Timestamp now) {
        SensingUpdate result = pipeline.update(now);
        changes.insert(changes.end(), result.changes.begin(), result.changes.end());
        return result.observation;
    }
    std::vector<std::string> described() const {
        std::vector<std::string> text;
        for (const auto& change : changes) text.push_back(describe(change));
        return text;
    }
    // Every change so far, one a line: for failure messages.
    std::string log() const {
        std::string text;
        for (const auto& line : described()) text += "\n  " + line;
        return text;
    }
};

inline std::optional<std::string> placeIn(const BoardObservation& observation, const std::string& slug) {
    auto it = observation.onBoard.find(CharacterSlug{slug});
    if (it == observation.onBoard.end()) return std::nullopt;
    return it->second.place.name;
}

}  // namespace vivaref::drivers::testing
