// The LED decision alone: a pure function of a few facts and the time.
#include <doctest/doctest.h>

#include "daemon/referee/led_decision.hpp"

namespace vivaref::referee {

using drivers::LedId;
using drivers::LedMode;
using namespace std::chrono_literals;

TEST_CASE("LEDs: blink beats a flash beats a blind reader's pulse; everything else is off") {
    LedFacts f;
    f.blindPlaces = {"3", "4"};
    f.flashPlace = "4";
    f.flashUntil = 600ms;
    f.blinkPlaces = {"3"};
    f.turnSeats = {2};
    f.votingSeats = {0, 1};
    f.stationBlinkUntil = {{1, 500ms}};
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

}  // namespace vivaref::referee
