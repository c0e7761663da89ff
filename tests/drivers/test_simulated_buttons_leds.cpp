#include <doctest/doctest.h>

#include "drivers/sim/simulated_buttons.hpp"
#include "drivers/sim/simulated_leds.hpp"

using namespace vivaref::drivers;
using namespace std::chrono_literals;

TEST_CASE("Simulated buttons: presses come out once, oldest first, with their time") {
    SimulatedButtons buttons;
    CHECK(buttons.takeEvents().empty());
    buttons.press({2}, VoteKey::No, 5000ms);
    buttons.press({1}, VoteKey::Stomachache, 5010ms);
    CHECK(buttons.takeEvents() ==
          std::vector<ButtonEvent>{{{2}, VoteKey::No, 5000ms}, {{1}, VoteKey::Stomachache, 5010ms}});
    CHECK(buttons.takeEvents().empty());
}

TEST_CASE("Vote keys are named as in a referee trace") {
    for (VoteKey key : {VoteKey::Yes, VoteKey::No, VoteKey::Stomachache}) {
        CHECK(voteKeyFromName(voteKeyName(key)) == key);
    }
    CHECK(std::string(voteKeyName(VoteKey::Stomachache)) == "stomachache");
    CHECK_FALSE(voteKeyFromName("maybe"));
}

TEST_CASE("LEDs: decide, then drive; only the difference is written") {
    SimulatedLeds leds;
    leds.show({{{"floor3"}, LedMode::Blink}, {{"station1-yes"}, LedMode::On}, {{"floor4"}, LedMode::Off}});
    CHECK(leds.writes() ==
          std::vector<LedChange>{{{"floor3"}, LedMode::Blink}, {{"station1-yes"}, LedMode::On}});
    CHECK(leds.mode({"floor3"}) == LedMode::Blink);
    CHECK(leds.mode({"floor4"}) == LedMode::Off);

    // The same state again writes nothing: a blinking LED keeps its rhythm.
    leds.show({{{"floor3"}, LedMode::Blink}, {{"station1-yes"}, LedMode::On}});
    CHECK(leds.writes().size() == 2);

    // An LED left out is switched off; a changed one is rewritten.
    leds.show({{{"floor3"}, LedMode::Pulse}});
    CHECK(leds.writes().size() == 4);
    CHECK(leds.writes()[2] == LedChange{{"floor3"}, LedMode::Pulse});
    CHECK(leds.writes()[3] == LedChange{{"station1-yes"}, LedMode::Off});
    CHECK(leds.lit() == LedStates{{{"floor3"}, LedMode::Pulse}});
    CHECK(std::string(ledModeName(LedMode::Pulse)) == "pulse");
}
