// The LED decision alone: a pure function of a few facts and the time.
#include <string>

#include <doctest/doctest.h>

#include "daemon/referee/led_decision.hpp"

namespace vivaref::referee {

using drivers::LedId;
using drivers::LedMode;
using engine::Place;
using engine::Seat;
using namespace std::chrono_literals;

TEST_CASE("LEDs: blink beats a flash beats a blind reader's pulse; everything else is off") {
    LedFacts f;
    f.blindPlaces = {Place::Floor3, Place::Floor4};
    f.flashPlace = Place::Floor4;
    f.flashUntil = 600ms;
    f.blinkPlaces = {Place::Floor3};
    f.turnSeats = {Seat{2}};
    f.votingSeats = {Seat{0}, Seat{1}};
    f.stationBlinkUntil = {{Seat{1}, 500ms}};
    auto at = [&](drivers::Timestamp now) { return decideLeds(f, now); };
    auto leds = at(100ms);
    CHECK(leds.at(LedId{"place-3"}) == LedMode::Blink);
    CHECK(leds.at(LedId{"place-4"}) == LedMode::On);
    CHECK(leds.at(LedId{"turn-2"}) == LedMode::On);
    CHECK(leds.at(LedId{"station-0"}) == LedMode::On);
    CHECK(leds.at(LedId{"station-1"}) == LedMode::Blink);
    CHECK(leds.size() == 5);
    leds = at(600ms);
    CHECK(leds.at(LedId{"place-4"}) == LedMode::Pulse);
    CHECK(leds.at(LedId{"station-1"}) == LedMode::On);
    f.paused = true;
    CHECK(at(600ms).at(LedId{"turn-2"}) == LedMode::Pulse);
    CHECK(decideLeds(LedFacts{}, 0ms).empty());
}

TEST_CASE("LEDs: a teaching table's hints give way to every other light of their place") {
    LedFacts f;
    f.hintPlaces = {Place::Floor2, Place::Floor3, Place::Floor4, Place::Wc3};
    f.blindPlaces = {Place::Floor3};
    f.flashPlace = Place::Floor4;
    f.flashUntil = 600ms;
    f.blinkPlaces = {Place::Wc3};
    auto leds = decideLeds(f, 100ms);
    CHECK(leds.at(LedId{"place-2"}) == LedMode::Hint);
    CHECK(leds.at(LedId{"place-3"}) == LedMode::Pulse);
    CHECK(leds.at(LedId{"place-4"}) == LedMode::On);
    CHECK(leds.at(LedId{"place-wc3"}) == LedMode::Blink);
    CHECK(decideLeds(f, 600ms).at(LedId{"place-4"}) == LedMode::Hint);
    CHECK(std::string(drivers::ledModeName(LedMode::Hint)) == "hint");
}

TEST_CASE("LEDs: a place is named as the castle names it, a seat by its station") {
    LedFacts f;
    f.blinkPlaces = {Place::Throne, Place::Wc3, Place::Dungeon2};
    f.turnSeats = {Seat{7}};
    const auto leds = decideLeds(f, 0ms);
    CHECK(leds.at(LedId{"place-6"}) == LedMode::Blink);
    CHECK(leds.at(LedId{"place-wc3"}) == LedMode::Blink);
    CHECK(leds.at(LedId{"place-dungeon2"}) == LedMode::Blink);
    CHECK(leds.at(LedId{"turn-7"}) == LedMode::On);
    CHECK(leds.size() == 4);
}

}  // namespace vivaref::referee
