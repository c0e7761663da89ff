// What a blinking or pulsing LED shows at a given time: the one definition the
// libgpiod sink (GpioLedSink) and the simulated twin (SimulatedLeds) share.
//
// Decisions:
// - Blink is 2 Hz at half duty: lit 250 ms, dark 250 ms ("look here").
// - Pulse is a short flash once a second: lit 100 ms, dark 900 ms ("waiting
//   for you", quieter than a blink).
// - Hint is a slow beat, mostly lit: lit 700 ms, dark 300 ms ("it may go
//   here", on a table that teaches). Unlike a steady light it cannot be
//   taken for an accepted move's flash or a bot's destination, and unlike
//   a blink it does not say "put something back".
// - Phases count from time 0 of the caller's clock, not from when an LED was
//   switched to its mode. So every blinking LED blinks in step with the others,
//   a show() that keeps an LED blinking cannot restart its rhythm, and what an
//   LED shows depends only on its mode and the time: the daemon's timer, a test
//   in virtual time and `vivaref simulate` all agree.
#pragma once

#include <chrono>
#include <optional>

#include "drivers/leds/led_sink.hpp"
#include "drivers/time/timestamp.hpp"

namespace vivaref::drivers {

// A repeating pattern: lit for `lit` at the start of each `period`.
struct LedPattern {
    std::chrono::milliseconds period;
    std::chrono::milliseconds lit;
};

inline constexpr LedPattern kBlinkPattern{std::chrono::milliseconds(500), std::chrono::milliseconds(250)};
inline constexpr LedPattern kPulsePattern{std::chrono::milliseconds(1000), std::chrono::milliseconds(100)};
inline constexpr LedPattern kHintPattern{std::chrono::milliseconds(1000), std::chrono::milliseconds(700)};

struct LedPhase {
    bool lit = false;
    // When the LED next turns on or off; none for a steady LED (on or off).
    std::optional<Timestamp> nextChange;
};

// What an LED in `mode` shows at `now`.
LedPhase ledPhaseAt(LedMode mode, Timestamp now);

}  // namespace vivaref::drivers
