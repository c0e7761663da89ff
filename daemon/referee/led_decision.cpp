#include "daemon/referee/led_decision.hpp"

#include <string>

#include "drivers/leds/led_names.hpp"

namespace vivaref::referee {

using drivers::LedMode;

namespace {

// A board place's LED is named by the place as the castle names it (its
// GAME-RECORD name); a seat's by its station: station s is seat s.
drivers::LedId ledOfPlace(engine::Place p) {
    return drivers::placeLed(drivers::PlaceName{std::string(engine::placeName(p))});
}
drivers::StationId stationOfSeat(engine::Seat s) { return drivers::StationId{s.index}; }

}  // namespace

drivers::LedStates decideLeds(const LedFacts& f, drivers::Timestamp now) {
    drivers::LedStates out;
    for (const auto place : f.hintPlaces) out[ledOfPlace(place)] = LedMode::Hint;
    for (const auto place : f.blindPlaces) out[ledOfPlace(place)] = LedMode::Pulse;
    if (f.flashPlace && now < f.flashUntil) out[ledOfPlace(*f.flashPlace)] = LedMode::On;
    for (const auto place : f.litPlaces) out[ledOfPlace(place)] = LedMode::On;
    for (const auto place : f.blinkPlaces) out[ledOfPlace(place)] = LedMode::Blink;
    for (const auto seat : f.turnSeats)
        out[drivers::turnLed(stationOfSeat(seat))] = f.paused ? LedMode::Pulse : LedMode::On;
    for (const auto seat : f.votingSeats) out[drivers::stationLed(stationOfSeat(seat))] = LedMode::On;
    for (const auto& [seat, until] : f.stationBlinkUntil)
        if (now < until) out[drivers::stationLed(stationOfSeat(seat))] = LedMode::Blink;
    return out;
}

}  // namespace vivaref::referee
