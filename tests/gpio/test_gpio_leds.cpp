// The blink and pulse rhythms, and GpioLedSink on in-memory lines: only the
// difference is written, blinking lines follow the timer, the simulated twin
// shows the same phases.
#include <stdexcept>

#include <doctest/doctest.h>

#include "drivers/gpio/gpio_led_sink.hpp"
#include "drivers/leds/led_pattern.hpp"
#include "drivers/sim/simulated_leds.hpp"
#include "memory_gpio_lines.hpp"

using namespace vivaref::drivers;
using namespace std::chrono_literals;
using vivaref::drivers::testing::MemoryGpioLines;

namespace {

const LineAddress kFloor3{{"gpiochip0"}, {20}};
const LineAddress kYesLed{{"gpiochip0"}, {21}};

std::vector<LedLineSpec> specs() {
    return {{{"floor3"}, kFloor3, Polarity::ActiveHigh}, {{"station0-yes"}, kYesLed, Polarity::ActiveLow}};
}

}  // namespace

TEST_CASE("Blink is 2 Hz half on; pulse is a 100 ms flash each second; both from time 0") {
    CHECK(ledPhaseAt(LedMode::Blink, 0ms).lit);
    CHECK(ledPhaseAt(LedMode::Blink, 0ms).nextChange == 250ms);
    CHECK(ledPhaseAt(LedMode::Blink, 249ms).lit);
    CHECK_FALSE(ledPhaseAt(LedMode::Blink, 250ms).lit);
    CHECK(ledPhaseAt(LedMode::Blink, 250ms).nextChange == 500ms);
    CHECK(ledPhaseAt(LedMode::Blink, 10'600ms).lit);

    CHECK(ledPhaseAt(LedMode::Pulse, 3000ms).lit);
    CHECK(ledPhaseAt(LedMode::Pulse, 3099ms).nextChange == 3100ms);
    CHECK_FALSE(ledPhaseAt(LedMode::Pulse, 3100ms).lit);
    CHECK(ledPhaseAt(LedMode::Pulse, 3100ms).nextChange == 4000ms);

    // A hint (a place a lifted piece may go): mostly lit, a short dark beat.
    CHECK(ledPhaseAt(LedMode::Hint, 2000ms).lit);
    CHECK(ledPhaseAt(LedMode::Hint, 2699ms).nextChange == 2700ms);
    CHECK_FALSE(ledPhaseAt(LedMode::Hint, 2700ms).lit);
    CHECK(ledPhaseAt(LedMode::Hint, 2700ms).nextChange == 3000ms);

    // Before time 0 the rhythm goes on the same way.
    CHECK_FALSE(ledPhaseAt(LedMode::Blink, -1ms).lit);
    CHECK(ledPhaseAt(LedMode::Blink, -1ms).nextChange == 0ms);
    CHECK(ledPhaseAt(LedMode::Blink, -300ms).lit);

    CHECK(ledPhaseAt(LedMode::On, 123ms).lit);
    CHECK_FALSE(ledPhaseAt(LedMode::On, 123ms).nextChange);
    CHECK_FALSE(ledPhaseAt(LedMode::Off, 123ms).lit);
    CHECK_FALSE(ledPhaseAt(LedMode::Off, 123ms).nextChange);
}

TEST_CASE("LED lines start dark and only changes are written") {
    MemoryGpioLines lines;
    GpioLedSink sink(specs(), lines);
    CHECK_FALSE(lines.output(kFloor3).level);
    CHECK(lines.output(kYesLed).polarity == Polarity::ActiveLow);
    CHECK(lines.output(kFloor3).writes.empty());

    sink.show({{{"floor3"}, LedMode::On}});
    CHECK(lines.output(kFloor3).writes == std::vector<bool>{true});
    sink.show({{{"floor3"}, LedMode::On}, {{"station0-yes"}, LedMode::Off}});
    CHECK(lines.output(kFloor3).writes.size() == 1);
    CHECK(lines.output(kYesLed).writes.empty());
    CHECK(sink.advance(1000ms).empty());  // a steady LED is not rewritten by the timer
    CHECK(lines.output(kFloor3).writes.size() == 1);

    sink.show({});
    CHECK(lines.output(kFloor3).writes == std::vector<bool>{true, false});
    CHECK(sink.applied().empty());
}

TEST_CASE("A blinking LED follows the timer, writing only when its phase turns") {
    MemoryGpioLines lines;
    GpioLedSink sink(specs(), lines);
    CHECK_FALSE(sink.nextChangeAt());
    sink.advance(1000ms);
    sink.show({{{"station0-yes"}, LedMode::Blink}});  // lit at 1000 ms
    CHECK(lines.output(kYesLed).writes == std::vector<bool>{true});
    CHECK(sink.nextChangeAt() == 1250ms);
    sink.advance(1100ms);
    CHECK(lines.output(kYesLed).writes.size() == 1);
    sink.advance(1250ms);
    CHECK(lines.output(kYesLed).writes == std::vector<bool>{true, false});
    CHECK(sink.nextChangeAt() == 1500ms);

    // Blink becomes pulse: the line is rewritten only if its level changes.
    sink.show({{{"station0-yes"}, LedMode::Pulse}});  // pulse at 1250 ms: dark, as it is
    CHECK(lines.output(kYesLed).writes.size() == 2);
    CHECK(sink.nextChangeAt() == 2000ms);
    sink.advance(2000ms);
    sink.advance(2050ms);
    sink.advance(2100ms);
    CHECK(lines.output(kYesLed).writes == std::vector<bool>{true, false, true, false});
}

TEST_CASE("The simulated twin shows the same phases as the GPIO sink") {
    MemoryGpioLines lines;
    GpioLedSink sink(specs(), lines);
    SimulatedLeds twin;
    const LedStates desired{{{"floor3"}, LedMode::Blink}, {{"station0-yes"}, LedMode::Pulse}};
    sink.show(desired);
    twin.show(desired);
    for (Timestamp now = 0ms; now <= 3000ms; now += 10ms) {
        sink.advance(now);
        CAPTURE(now.count());
        CHECK(lines.output(kFloor3).level == twin.litAt({"floor3"}, now));
        CHECK(lines.output(kYesLed).level == twin.litAt({"station0-yes"}, now));
    }
}

TEST_CASE("An LED with no line and a failed write are faults; the write is retried") {
    MemoryGpioLines lines;
    GpioLedSink sink(specs(), lines);
    sink.show({{{"floor9"}, LedMode::On}});
    std::vector<GpioFault> faults = sink.takeFaults();
    REQUIRE(faults.size() == 1);
    CHECK(faults[0].message() == "LED 'floor9' (no line configured): No such device");
    sink.show({{{"floor9"}, LedMode::On}});
    CHECK(sink.takeFaults().empty());  // said once

    lines.output(kFloor3).writeFailure = std::make_error_code(std::errc::io_error);
    sink.show({{{"floor3"}, LedMode::On}});
    faults = sink.takeFaults();
    REQUIRE(faults.size() == 1);
    CHECK(faults[0].line == "gpiochip0 line 20 (LED 'floor3')");
    lines.output(kFloor3).writeFailure = {};
    CHECK(sink.advance(10ms).empty());
    CHECK(lines.output(kFloor3).level);
    CHECK(lines.output(kFloor3).writes == std::vector<bool>{true, true});
}

TEST_CASE("An LED given twice is refused") {
    MemoryGpioLines lines;
    std::vector<LedLineSpec> twice = specs();
    twice.push_back({{"floor3"}, {{"gpiochip0"}, {22}}});
    CHECK_THROWS_WITH_AS(GpioLedSink(twice, lines), "LED 'floor3' is given twice (gpiochip0 line 22)",
                         std::invalid_argument);
}
