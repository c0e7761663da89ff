// GpioButtonSource on in-memory lines: edges in, debounced presses out, in
// the order they happened.
#include <stdexcept>

#include <doctest/doctest.h>

#include "drivers/gpio/gpio_button_source.hpp"
#include "memory_gpio_lines.hpp"

using namespace vivaref::drivers;
using namespace std::chrono_literals;
using vivaref::drivers::testing::MemoryGpioLines;

namespace {

const LineAddress kYes0{{"gpiochip0"}, {5}};
const LineAddress kNo0{{"gpiochip0"}, {6}};
const LineAddress kYes1{{"gpiochip1"}, {2}};

ButtonLineSpec spec(int station, VoteKey key, LineAddress line, std::chrono::milliseconds debounce = 20ms) {
    ButtonLineSpec result;
    result.station = {station};
    result.key = key;
    result.line = std::move(line);
    result.debounce = debounce;
    return result;
}

}  // namespace

TEST_CASE("Button lines are requested with the spec's polarity and bias") {
    MemoryGpioLines lines;
    ButtonLineSpec highKey = spec(1, VoteKey::No, kNo0);
    highKey.polarity = Polarity::ActiveHigh;
    highKey.bias = Bias::PullDown;
    GpioButtonSource source({spec(0, VoteKey::Yes, kYes0), highKey}, lines);
    CHECK(lines.input(kYes0).polarity == Polarity::ActiveLow);
    CHECK(lines.input(kYes0).bias == Bias::PullUp);
    CHECK(lines.input(kNo0).polarity == Polarity::ActiveHigh);
    CHECK(lines.input(kNo0).bias == Bias::PullDown);
    CHECK(source.eventDescriptors() == std::vector<int>{lines.input(kYes0).fd, lines.input(kNo0).fd});
}

TEST_CASE("A press read from its descriptor is confirmed by the timer, once") {
    MemoryGpioLines lines;
    GpioButtonSource source({spec(0, VoteKey::Yes, kYes0)}, lines);
    const int fd = source.eventDescriptors().at(0);

    // Bounces on the way down.
    lines.queueEdge(kYes0, true, 1000ms);
    lines.queueEdge(kYes0, false, 1001ms);
    lines.queueEdge(kYes0, true, 1002ms);
    CHECK_FALSE(source.readReady(fd));
    CHECK(source.nextDeadline() == 1022ms);
    CHECK(source.advance(1021ms).empty());
    CHECK(source.takeEvents().empty());
    CHECK(source.advance(1022ms).empty());
    CHECK_FALSE(source.nextDeadline());
    CHECK(source.takeEvents() == std::vector<ButtonEvent>{{{0}, VoteKey::Yes, 1002ms}});

    // Held, then released: nothing more.
    source.advance(5000ms);
    lines.queueEdge(kYes0, false, 5000ms);
    source.readReady(fd);
    source.advance(6000ms);
    CHECK(source.takeEvents().empty());
}

TEST_CASE("readReady is safe to call spuriously and with a descriptor that is not ours") {
    MemoryGpioLines lines;
    GpioButtonSource source({spec(0, VoteKey::Yes, kYes0)}, lines);
    const int fd = source.eventDescriptors().at(0);
    CHECK_FALSE(source.readReady(fd));  // nothing queued
    CHECK_FALSE(source.readReady(fd + 1000));
    CHECK(lines.input(kYes0).reads == 1);
    CHECK_FALSE(source.nextDeadline());
    CHECK(source.takeEvents().empty());
}

TEST_CASE("The timer reads queued edges first: a glitch it has not been told of is no press") {
    MemoryGpioLines lines;
    GpioButtonSource source({spec(0, VoteKey::Yes, kYes0, 50ms)}, lines);
    lines.queueEdge(kYes0, true, 100ms);
    source.readReady(source.eventDescriptors().at(0));
    lines.queueEdge(kYes0, false, 120ms);  // queued, its descriptor not yet read
    CHECK(source.advance(200ms).empty());
    CHECK(source.takeEvents().empty());
}

TEST_CASE("Presses of two stations come out in the order they happened, whatever their windows") {
    MemoryGpioLines lines;
    GpioButtonSource source({spec(0, VoteKey::Yes, kYes0, 50ms), spec(1, VoteKey::Yes, kYes1, 10ms)}, lines);
    lines.queueEdge(kYes0, true, 100ms);
    lines.queueEdge(kYes1, true, 110ms);
    for (int fd : source.eventDescriptors()) source.readReady(fd);
    CHECK(source.nextDeadline() == 120ms);
    source.advance(120ms);  // station 1's press is confirmed first
    CHECK(source.nextDeadline() == 150ms);
    source.advance(150ms);
    CHECK(source.takeEvents() ==
          std::vector<ButtonEvent>{{{0}, VoteKey::Yes, 100ms}, {{1}, VoteKey::Yes, 110ms}});
}

TEST_CASE("A key held while the source starts is no press") {
    MemoryGpioLines lines;
    lines.setLevel(kYes0, true);
    GpioButtonSource source({spec(0, VoteKey::Yes, kYes0)}, lines);
    source.advance(10s);
    CHECK(source.takeEvents().empty());
    lines.queueEdge(kYes0, false, 10s);
    lines.queueEdge(kYes0, true, 11s);
    source.advance(12s);
    CHECK(source.takeEvents() == std::vector<ButtonEvent>{{{0}, VoteKey::Yes, 11s}});
}

TEST_CASE("keysDown: a key held (stuck since start-up, or pressed) reads down until let go") {
    MemoryGpioLines lines;
    lines.setLevel(kYes0, true);  // stuck
    GpioButtonSource source({spec(0, VoteKey::Yes, kYes0), spec(0, VoteKey::No, kNo0)}, lines);
    using Down = std::vector<std::pair<StationId, VoteKey>>;
    CHECK(source.keysDown() == Down{{{0}, VoteKey::Yes}});
    source.advance(10s);
    CHECK(source.keysDown() == Down{{{0}, VoteKey::Yes}});
    lines.queueEdge(kNo0, true, 10s);
    source.advance(10s + 10ms);
    CHECK(source.keysDown() == Down{{{0}, VoteKey::Yes}});  // not yet debounced
    source.advance(10s + 20ms);
    CHECK(source.keysDown() == Down{{{0}, VoteKey::Yes}, {{0}, VoteKey::No}});
    lines.queueEdge(kYes0, false, 11s);
    lines.queueEdge(kNo0, false, 11s);
    source.advance(12s);
    CHECK(source.keysDown().empty());
}

TEST_CASE("A failed read is a fault naming the line; the edges read before it still count") {
    MemoryGpioLines lines;
    GpioButtonSource source({spec(3, VoteKey::Stomachache, kYes1)}, lines);
    lines.queueEdge(kYes1, true, 100ms);
    lines.input(kYes1).readFailure = std::make_error_code(std::errc::io_error);
    std::optional<GpioFault> fault = source.readReady(source.eventDescriptors().at(0));
    REQUIRE(fault);
    CHECK(fault->line == "gpiochip1 line 2");
    CHECK(fault->error == std::errc::io_error);
    CHECK(source.advance(200ms).empty());
    CHECK(source.takeEvents() == std::vector<ButtonEvent>{{{3}, VoteKey::Stomachache, 100ms}});
}

TEST_CASE("Bad button specs are refused, naming the key") {
    MemoryGpioLines lines;
    CHECK_THROWS_WITH_AS(GpioButtonSource({spec(0, VoteKey::Yes, kYes0), spec(0, VoteKey::Yes, kNo0)}, lines),
                         "station 0 key yes is given twice (gpiochip0 line 6)", std::invalid_argument);
    CHECK_THROWS_WITH_AS(GpioButtonSource({spec(2, VoteKey::No, kNo0, -1ms)}, lines),
                         "station 2 key no: negative debounce window", std::invalid_argument);
}
