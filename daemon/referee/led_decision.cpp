#include "daemon/referee/led_decision.hpp"

#include "daemon/referee/board_places.hpp"

namespace vivaref::referee {

using drivers::LedId;
using drivers::LedMode;

drivers::LedStates decideLeds(const LedFacts& f, drivers::Timestamp now) {
    drivers::LedStates out;
    for (const auto& place : f.blindPlaces) out[LedId{placeLedName(place)}] = LedMode::Pulse;
    if (f.flashPlace && now < f.flashUntil) out[LedId{placeLedName(*f.flashPlace)}] = LedMode::On;
    for (const auto& place : f.litPlaces) out[LedId{placeLedName(place)}] = LedMode::On;
    for (const auto& place : f.blinkPlaces) out[LedId{placeLedName(place)}] = LedMode::Blink;
    for (int seat : f.turnSeats)
        out[LedId{"turn-" + std::to_string(seat)}] = f.paused ? LedMode::Pulse : LedMode::On;
    for (int seat : f.votingSeats) out[LedId{"station-" + std::to_string(seat)}] = LedMode::On;
    for (const auto& [station, until] : f.stationBlinkUntil)
        if (now < until) out[LedId{"station-" + std::to_string(station)}] = LedMode::Blink;
    return out;
}

}  // namespace vivaref::referee
