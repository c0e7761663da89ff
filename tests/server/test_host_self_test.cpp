// The self-test's service (HostSelfTest) without a daemon: its requests'
// answers and refusals, the LEDs it takes over while it runs, and a new
// game stopping it; fed by hand on a ManualClock.
#include <doctest/doctest.h>

#include "daemon/server/host_self_test.hpp"
#include "drivers/leds/led_names.hpp"

using namespace vivaref;
using namespace vivaref::server;
using drivers::Timestamp;
using nlohmann::json;

namespace {

HostSelfTestSettings twoReaderCastle() {
    setup::WalkCastle castle;
    castle.readers = {{"floor0", "0", std::nullopt}, {"floor1", "1", std::nullopt}};
    castle.leds = {{drivers::placeLed(drivers::PlaceName{"0"}), config::GpioLine{"gpiochip0", 17}}};
    castle.keys = {{drivers::StationId{0}, drivers::VoteKey::Yes, std::nullopt}};
    return {castle, {}, {}, {}};
}

void scanBoth(HostSelfTest& test, drivers::ManualClock& clock, Timestamp span) {
    const auto end = clock.now() + span;
    while (clock.now() < end) {
        clock.advance(std::chrono::milliseconds(20));
        test.rawScan(0, drivers::TagSet{}, clock.now());
        test.rawScan(1, drivers::TagSet{}, clock.now());
    }
}

}  // namespace

TEST_CASE("self-test service: start, answer, LEDs taken over, refusals, stopped by a new game") {
    drivers::ManualClock clock;
    HostSelfTest test(twoReaderCastle(), clock);
    CHECK(test.request("state", json::object(), false).body == json{{"running", false}, {"started", false}});
    CHECK(test.request("answer", {{"answer", "lit"}}, false).body["error"] == "not-running");
    CHECK_FALSE(test.leds());

    const auto refused = test.request("start", json::object(), true);
    CHECK(refused.outcome == ServiceAnswer::Outcome::Refused);
    CHECK(refused.body["says"]["code"] == "castle.walk.refused-game");
    CHECK(test.request("start", {{"full", "yes"}}, false).outcome == ServiceAnswer::Outcome::BadRequest);

    auto started = test.request("start", {{"full", false}}, false);
    REQUIRE(started.outcome == ServiceAnswer::Outcome::Ok);
    CHECK(started.body["step"] == "readers");
    CHECK(started.body["prompt"]["says"]["code"] == "castle.walk.readers");
    REQUIRE(test.leds());
    CHECK(test.leds()->empty());  // every LED off while the readers are asked
    scanBoth(test, clock, Timestamp{2100});
    auto state = test.request("state", json::object(), false).body;
    CHECK(state["step"] == "leds");
    CHECK(state["answers"] == json::array({"lit", "not-lit", "skip"}));
    CHECK(*test.leds() == drivers::LedStates{{drivers::LedId{"place-0"}, drivers::LedMode::On}});
    CHECK(test.request("answer", {{"answer", "done"}}, false).body["error"] == "not-asked");
    CHECK(test.request("answer", {{"answer", "lit"}, {"more", 1}}, false).outcome ==
          ServiceAnswer::Outcome::BadRequest);
    state = test.request("answer", {{"answer", "not-lit"}}, false).body;
    CHECK(state["step"] == "keys");
    CHECK(state["findings"][0]["fix"]["text"] == "Check the LED, its resistor and GPIO 17, header pin 11.");

    // A game begins: the walk stops, the LEDs go back to the referee.
    test.inputTaken({0, trace::HostLine{trace::HostKind::NewGame, json::object(), {}}}, std::nullopt);
    CHECK_FALSE(test.running());
    CHECK_FALSE(test.leds());
    state = test.request("state", json::object(), false).body;
    CHECK(state["stopped"] == true);
    CHECK(state["prompt"]["says"]["code"] == "castle.walk.stopped-game");
    CHECK(test.request("stop", json::object(), false).body["error"] == "not-running");
}

TEST_CASE("self-test service: a key press reaches the walk; the host stops it") {
    drivers::ManualClock clock;
    HostSelfTest test(twoReaderCastle(), clock);
    REQUIRE(test.request("start", json::object(), false).outcome == ServiceAnswer::Outcome::Ok);
    scanBoth(test, clock, Timestamp{2100});
    REQUIRE(test.request("answer", {{"answer", "lit"}}, false).outcome == ServiceAnswer::Outcome::Ok);
    scanBoth(test, clock, Timestamp{1600});
    auto state = test.request("state", json::object(), false).body;
    CHECK(state["prompt"]["text"] == "Press the Yes key of seat 1.");
    test.inputTaken({0, trace::ButtonLine{drivers::StationId{0}, drivers::VoteKey::Yes}}, std::nullopt);
    state = test.request("state", json::object(), false).body;
    CHECK(state["step"] == "done");
    CHECK(state["faults"] == 0);
    CHECK(state["prompt"]["text"] == "The check is over: nothing to fix.");

    REQUIRE(test.request("start", json::object(), false).outcome == ServiceAnswer::Outcome::Ok);
    state = test.request("stop", json::object(), false).body;
    CHECK(state["stopped"] == true);
    CHECK(state["prompt"]["says"]["code"] == "castle.walk.stopped");
    CHECK_FALSE(test.leds());

    // A castle rebuilt on another configuration: the last walk is forgotten, the next walks the new castle.
    auto rebuilt = twoReaderCastle();
    rebuilt.castle.readers.push_back({"floor2", "2", std::nullopt});
    test.reset(rebuilt);
    CHECK(test.request("state", json::object(), false).body == json{{"running", false}, {"started", false}});
    REQUIRE(test.request("start", json::object(), false).outcome == ServiceAnswer::Outcome::Ok);
    REQUIRE(test.walk());
    CHECK(test.walk()->castle().readers.size() == 3);
}
