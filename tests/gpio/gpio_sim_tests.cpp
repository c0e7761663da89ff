// The libgpiod backend against the kernel's gpio-sim: run inside the qemu VM
// that gpio_sim_vm.sh boots (the kernel here has no GPIO support). Keys are
// pressed through a line's `pull`, LEDs and chip-selects read through its
// `value`. Debouncing still runs in virtual time: the kernel stamps the
// edges, and the test hands advance() the times it wants, so nothing sleeps;
// the only waits are poll() on an event descriptor until the kernel queues
// an edge.
#include <poll.h>

#include <chrono>
#include <stdexcept>
#include <string>

#include <doctest/doctest.h>

#include "drivers/gpio/gpio_button_source.hpp"
#include "drivers/gpio/gpio_chip_select.hpp"
#include "drivers/gpio/gpio_led_sink.hpp"
#include "gpio_sim_chip.hpp"

using namespace vivaref::drivers;
using namespace std::chrono_literals;
using vivaref::drivers::testing::GpioSimChip;

namespace {

// Long windows cost nothing in virtual time, and make the test immune to a
// slow emulated CPU: edges a few milliseconds apart are surely bounces.
constexpr std::chrono::milliseconds kWindow = 1000ms;

ButtonLineSpec keySpec(const GpioSimChip& chip, unsigned offset, Polarity polarity, Bias bias) {
    ButtonLineSpec spec;
    spec.station = {0};
    spec.key = VoteKey::Yes;
    spec.line = {{chip.chipName()}, {offset}};
    spec.polarity = polarity;
    spec.bias = bias;
    spec.debounce = kWindow;
    return spec;
}

Timestamp steadyNow() {
    return std::chrono::duration_cast<Timestamp>(std::chrono::steady_clock::now().time_since_epoch());
}

// Waits for the kernel to queue an edge on the source's only line and reads it.
void readEdge(GpioButtonSource& source) {
    const int fd = source.eventDescriptors().at(0);
    pollfd watched{fd, POLLIN, 0};
    REQUIRE_MESSAGE(::poll(&watched, 1, 5000) == 1, "no edge event within 5 s");
    REQUIRE_FALSE(source.readReady(fd));
}

// The same, for an edge that leaves the key unsettled: returns the edge's
// kernel time (the pending decision's deadline minus the window).
Timestamp readUnsettlingEdge(GpioButtonSource& source) {
    readEdge(source);
    REQUIRE(source.nextDeadline());
    return *source.nextDeadline() - kWindow;
}

bool anythingQueued(const GpioButtonSource& source) {
    pollfd watched{source.eventDescriptors().at(0), POLLIN, 0};
    return ::poll(&watched, 1, 0) == 1;
}

std::string refusal(auto&& request) {
    try {
        request();
    } catch (const std::system_error& error) {
        return error.what();
    }
    return "(no exception)";
}

}  // namespace

TEST_CASE("gpio-sim: a key to ground with pull-up, active low: press, debounced, release") {
    GpioSimChip chip(8);
    GpioButtonSource source({keySpec(chip, 0, Polarity::ActiveLow, Bias::PullUp)});
    // The request's bias reached the line (a fresh gpio-sim line is pulled down).
    CHECK(chip.pullOf(0) == "pull-up");
    CHECK(chip.value(0));
    CHECK_FALSE(anythingQueued(source));
    CHECK_FALSE(source.readReady(source.eventDescriptors().at(0)));  // spurious: nothing, no block
    CHECK_FALSE(source.nextDeadline());

    chip.pull(0, false);  // pressed: the line goes low
    const Timestamp pressed = readUnsettlingEdge(source);
    // Kernel timestamps are on the loop's clock, steady_clock.
    CHECK(pressed <= steadyNow());
    CHECK(pressed > steadyNow() - 10s);
    CHECK(source.advance(pressed + kWindow - 1ms).empty());
    CHECK(source.takeEvents().empty());
    CHECK(source.advance(pressed + kWindow).empty());
    CHECK(source.takeEvents() == std::vector<ButtonEvent>{{{0}, VoteKey::Yes, pressed}});

    chip.pull(0, true);  // released: no event
    const Timestamp released = readUnsettlingEdge(source);
    CHECK(released >= pressed);
    source.advance(released + kWindow);
    CHECK_FALSE(source.nextDeadline());
    CHECK(source.takeEvents().empty());
}

TEST_CASE("gpio-sim: bounces and a glitch are filtered") {
    GpioSimChip chip(8);
    GpioButtonSource source({keySpec(chip, 1, Polarity::ActiveLow, Bias::PullUp)});

    // Down, up, down within the window: one press, from the last edge.
    chip.pull(1, false);
    readEdge(source);
    chip.pull(1, true);
    readEdge(source);
    chip.pull(1, false);
    const Timestamp settled = readUnsettlingEdge(source);
    source.advance(settled + kWindow);
    CHECK(source.takeEvents() == std::vector<ButtonEvent>{{{0}, VoteKey::Yes, settled}});

    chip.pull(1, true);
    source.advance(readUnsettlingEdge(source) + kWindow);
    // A glitch: down and straight back up.
    chip.pull(1, false);
    readEdge(source);
    chip.pull(1, true);
    readEdge(source);
    CHECK_FALSE(source.nextDeadline());  // back where it settled: nothing pending
    source.advance(steadyNow() + 10 * kWindow);
    CHECK(source.takeEvents().empty());
}

TEST_CASE("gpio-sim: active high with pull-down; a key held at start-up; bias left as is") {
    GpioSimChip chip(8);
    chip.pull(2, true);
    chip.pull(3, false);  // held down at start-up on an active-low key
    GpioButtonSource high({keySpec(chip, 2, Polarity::ActiveHigh, Bias::PullDown)});
    GpioButtonSource held({keySpec(chip, 3, Polarity::ActiveLow, Bias::AsIs)});
    CHECK(chip.pullOf(2) == "pull-down");
    CHECK(chip.pullOf(3) == "pull-down");  // as is: untouched

    chip.pull(2, true);  // pressed: the line goes high
    const Timestamp pressed = readUnsettlingEdge(high);
    high.advance(pressed + kWindow);
    CHECK(high.takeEvents() == std::vector<ButtonEvent>{{{0}, VoteKey::Yes, pressed}});

    held.advance(steadyNow() + kWindow);
    CHECK(held.takeEvents().empty());
    chip.pull(3, true);
    held.advance(readUnsettlingEdge(held) + kWindow);
    chip.pull(3, false);
    const Timestamp pressedAgain = readUnsettlingEdge(held);
    held.advance(pressedAgain + kWindow);
    CHECK(held.takeEvents() == std::vector<ButtonEvent>{{{0}, VoteKey::Yes, pressedAgain}});
}

// Issue 36's stuck key: the line shorted active before the daemon starts and
// never let go. The debouncer takes the level at start-up as settled, so no
// press ever comes (the self-test sees a key that does not answer).
TEST_CASE("gpio-sim: a stuck key (held before start, never let go) gives no press, however long") {
    GpioSimChip chip(8);
    chip.pull(6, false);  // shorted to ground
    GpioButtonSource stuck({keySpec(chip, 6, Polarity::ActiveLow, Bias::AsIs)});
    CHECK_FALSE(chip.value(6));
    CHECK_FALSE(stuck.nextDeadline());
    CHECK(stuck.advance(steadyNow() + 100 * kWindow).empty());
    CHECK(stuck.takeEvents().empty());
    CHECK_FALSE(anythingQueued(stuck));
    CHECK_FALSE(stuck.nextDeadline());
}

TEST_CASE("gpio-sim: a line with bias disabled can be requested") {
    GpioSimChip chip(8);
    chip.pull(4, true);
    GpioButtonSource source({keySpec(chip, 4, Polarity::ActiveLow, Bias::Disabled)});
    CHECK(chip.pullOf(4) == "pull-up");  // gpio-sim has no bias to disable
}

TEST_CASE("gpio-sim: LEDs on, off and blinking, read back through value") {
    GpioSimChip chip(8);
    GpioLedSink leds({{{"floor0"}, {{chip.chipName()}, {5}}, Polarity::ActiveHigh},
                      {{"station0-yes"}, {{chip.chipName()}, {6}}, Polarity::ActiveLow}});
    CHECK_FALSE(chip.value(5));  // dark
    CHECK(chip.value(6));        // dark, active low

    leds.show({{{"floor0"}, LedMode::On}});
    CHECK(chip.value(5));
    leds.show({{{"floor0"}, LedMode::On}, {{"station0-yes"}, LedMode::Blink}});
    CHECK(leds.advance(10'000ms).empty());
    CHECK_FALSE(chip.value(6));  // lit at the start of a blink period
    CHECK(leds.nextChangeAt() == 10'250ms);
    leds.advance(10'250ms);
    CHECK(chip.value(6));  // dark
    leds.advance(10'500ms);
    CHECK_FALSE(chip.value(6));
    CHECK(chip.value(5));

    leds.show({});
    CHECK_FALSE(chip.value(5));
    CHECK(chip.value(6));
    CHECK(leds.takeFaults().empty());
}

TEST_CASE("gpio-sim: a chip-select is driven low when selected") {
    GpioSimChip chip(8);
    GpioChipSelect cs({{chip.chipName()}, {7}});
    CHECK(chip.value(7));
    CHECK_FALSE(cs.select());
    CHECK_FALSE(chip.value(7));
    CHECK_FALSE(cs.deselect());
    CHECK(chip.value(7));
}

TEST_CASE("gpio-sim: refusals name the chip and line; a line is free again once its object goes") {
    GpioSimChip chip(8, "vivaref-refusals");
    const LineAddress line{{chip.chipName()}, {0}};
    {
        GpioChipSelect cs(line);
        CHECK(refusal([&] { GpioChipSelect again(line); }) ==
              chip.chipName() +
                  " line 0: cannot request it as an output: already in use by vivaref: "
                  "Device or resource busy");
    }
    GpioChipSelect again(line);  // released with the first one

    // By label, too.
    GpioChipSelect byLabel({{"vivaref-refusals"}, {1}});
    CHECK(chip.value(1));  // deselected: high

    CHECK(refusal([&] {
              GpioChipSelect cs({{chip.chipName()}, {8}});
          }) == chip.chipName() + " line 8: no such line (the chip has 8): Invalid argument");
    CHECK(refusal([&] {
              GpioChipSelect cs({{"no-such-chip"}, {0}});
          }).starts_with("GPIO chip 'no-such-chip': cannot open it"));
}
