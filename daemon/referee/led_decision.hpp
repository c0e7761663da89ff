// What the referee's LEDs show, decided from a few facts about the game and
// the time: decide, then drive (a LedSink applies the difference). Pure.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <vector>

#include "drivers/leds/led_sink.hpp"
#include "drivers/sensing/sensing_types.hpp"
#include "engine/ids.hpp"

namespace vivaref::referee {

struct LedFacts {
    std::set<engine::Place> blinkPlaces;      // board places to put something back on or take from
    std::set<engine::Place> litPlaces;        // a bot's move to make: its destination
    std::optional<engine::Place> flashPlace;  // an accepted action's destination...
    drivers::Timestamp flashUntil{0};         // ...lit until then
    std::set<engine::Place> blindPlaces;      // served by a faulty reader
    std::set<engine::Place> hintPlaces;       // a teaching table: where the piece in hand may go
    std::vector<engine::Seat> turnSeats;      // seats to act (placement, ascent, Ambition)
    std::vector<engine::Seat> votingSeats;    // seats that must still vote
    std::map<engine::Seat, drivers::Timestamp> stationBlinkUntil;  // private refusals
    bool paused = false;
};

// The LEDs as drivers/leds/led_names.hpp names them (a place by its
// GAME-RECORD name, a seat by its station). Place LEDs "place-P": blink to restore or guide (or the place a
// bot's piece is to leave), else on while flashing or as a bot's destination, else pulse while blind, else
// hint (a slow beat) where a piece in hand may legally go on a table that teaches: every other light keeps
// its priority over the teaching one.
// "turn-S": on for a seat to act (pulse while paused). "station-S": blink after a private refusal, else on
// while the seat must vote. Every other LED is off (absent).
drivers::LedStates decideLeds(const LedFacts& facts, drivers::Timestamp now);

}  // namespace vivaref::referee
