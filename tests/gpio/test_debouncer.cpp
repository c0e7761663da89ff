// Debouncing in virtual time: what a press is (drivers/gpio/debouncer.hpp).
#include <utility>
#include <vector>

#include <doctest/doctest.h>

#include "drivers/gpio/debouncer.hpp"

using namespace vivaref::drivers;
using namespace std::chrono_literals;

namespace {

// Every press the debouncer reports while time runs from `from` to `to` in
// 1 ms steps.
std::vector<Timestamp> pressesWhileRunning(Debouncer& debouncer, Timestamp from, Timestamp to) {
    std::vector<Timestamp> presses;
    for (Timestamp now = from; now <= to; now += 1ms) {
        if (auto press = debouncer.advance(now)) presses.push_back(*press);
    }
    return presses;
}

}  // namespace

TEST_CASE("A clean press is confirmed once the window has passed, stamped with its edge") {
    Debouncer key(20ms);
    CHECK_FALSE(key.deadline());
    CHECK_FALSE(key.edge(100ms, true));
    CHECK(key.deadline() == 120ms);
    CHECK_FALSE(key.advance(119ms));
    CHECK_FALSE(key.pressed());
    CHECK(key.advance(120ms) == 100ms);
    CHECK(key.pressed());
    CHECK_FALSE(key.deadline());
    CHECK_FALSE(key.advance(5000ms));  // reported once

    // The release is not an event; it settles after the window too.
    CHECK_FALSE(key.edge(300ms, false));
    CHECK(key.deadline() == 320ms);
    CHECK_FALSE(key.advance(320ms));
    CHECK_FALSE(key.pressed());
}

TEST_CASE("Contact bounce: one press, from the edge after which the line stayed active") {
    Debouncer key(20ms);
    key.edge(100ms, true);
    key.edge(101ms, false);
    key.edge(102ms, true);
    key.edge(104ms, false);
    key.edge(105ms, true);
    CHECK(pressesWhileRunning(key, 100ms, 400ms) == std::vector<Timestamp>{105ms});
}

TEST_CASE("A glitch shorter than the window is never a press") {
    Debouncer key(20ms);
    key.edge(100ms, true);
    key.edge(119ms, false);
    CHECK(pressesWhileRunning(key, 100ms, 1000ms).empty());
    CHECK_FALSE(key.pressed());
    CHECK_FALSE(key.deadline());
}

TEST_CASE("A long press is one press, even with a short drop in the middle") {
    Debouncer key(20ms);
    key.edge(100ms, true);
    CHECK(pressesWhileRunning(key, 100ms, 3000ms) == std::vector<Timestamp>{100ms});
    key.edge(3000ms, false);  // the contact opens for 5 ms
    key.edge(3005ms, true);
    CHECK(pressesWhileRunning(key, 3000ms, 10000ms).empty());
    CHECK(key.pressed());
}

TEST_CASE("A new press needs a settled release first") {
    Debouncer key(20ms);
    key.edge(100ms, true);
    CHECK(key.advance(200ms) == 100ms);
    // Released for 10 ms only, then pressed again: still the first press.
    key.edge(300ms, false);
    key.edge(310ms, true);
    CHECK(pressesWhileRunning(key, 300ms, 500ms).empty());
    // Released for good, then pressed: a second press.
    key.edge(600ms, false);
    key.edge(650ms, true);
    CHECK(pressesWhileRunning(key, 600ms, 800ms) == std::vector<Timestamp>{650ms});
}

TEST_CASE("The next edge proves a press the timer has not looked at yet") {
    Debouncer key(20ms);
    CHECK_FALSE(key.edge(100ms, true));
    CHECK(key.edge(150ms, false) == 100ms);  // active for 50 ms: a press
    CHECK(key.edge(200ms, true) == std::nullopt);
    CHECK(key.edge(205ms, false) == std::nullopt);  // 5 ms: a glitch
    CHECK_FALSE(key.pressed());
}

TEST_CASE("A key held at start-up is not a press until released and pressed again") {
    Debouncer key(20ms, true);
    CHECK(key.pressed());
    CHECK(pressesWhileRunning(key, 0ms, 500ms).empty());
    key.edge(500ms, false);
    key.edge(600ms, true);
    CHECK(pressesWhileRunning(key, 500ms, 700ms) == std::vector<Timestamp>{600ms});
}

TEST_CASE("A lost edge (the same level twice) restarts the window") {
    Debouncer key(20ms);
    key.edge(100ms, true);
    key.edge(110ms, true);  // the drop between was lost
    CHECK_FALSE(key.advance(129ms));
    CHECK(key.advance(130ms) == 110ms);
}

TEST_CASE("An edge stamped before the previous one counts as at the previous one's time") {
    Debouncer key(20ms);
    key.edge(100ms, true);
    key.edge(90ms, false);
    CHECK(pressesWhileRunning(key, 100ms, 500ms).empty());
    CHECK_FALSE(key.pressed());
}

TEST_CASE("Two keys debounce independently") {
    Debouncer yes(20ms);
    Debouncer no(50ms);
    yes.edge(100ms, true);
    no.edge(101ms, true);
    yes.edge(102ms, false);  // yes bounces and settles at 103
    yes.edge(103ms, true);
    std::vector<std::pair<char, Timestamp>> presses;
    for (Timestamp now = 100ms; now <= 300ms; now += 1ms) {
        if (auto press = yes.advance(now)) presses.push_back({'y', *press});
        if (auto press = no.advance(now)) presses.push_back({'n', *press});
    }
    CHECK(presses == std::vector<std::pair<char, Timestamp>>{{'y', 103ms}, {'n', 101ms}});
}

TEST_CASE("A zero window confirms a press as soon as time reaches its edge") {
    Debouncer key(0ms);
    key.edge(100ms, true);
    CHECK(key.advance(100ms) == 100ms);
}
