// What the referee's LEDs show, decided from a few facts about the game and
// the time: decide, then drive (a LedSink applies the difference). Pure.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "drivers/leds/led_sink.hpp"
#include "drivers/sensing/sensing_types.hpp"

namespace vivaref::referee {

struct LedFacts {
    std::set<std::string> blinkPlaces;      // board places to put something back on or take from
    std::set<std::string> litPlaces;        // a bot's move to make: its destination
    std::optional<std::string> flashPlace;  // an accepted action's destination...
    drivers::Timestamp flashUntil{0};       // ...lit until then
    std::set<std::string> blindPlaces;      // served by a faulty reader
    std::vector<int> turnSeats;             // seats to act (placement, ascent, Ambition)
    std::vector<int> votingSeats;           // seats that must still vote
    std::map<int, drivers::Timestamp> stationBlinkUntil;  // private refusals
    bool paused = false;
};

// Place LEDs "place-P": blink to restore or guide (or the place a bot's
// piece is to leave), else on while flashing or as a bot's destination,
// else pulse while blind. "turn-S": on for a seat to act (pulse while
// paused). "station-S": blink after a private refusal, else on while the
// seat must vote. Every other LED is off (absent).
drivers::LedStates decideLeds(const LedFacts& facts, drivers::Timestamp now);

}  // namespace vivaref::referee
