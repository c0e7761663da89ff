// The simulated LEDs: remembers what is lit, and every write it was asked to
// make, so a test can check that only differences reach the hardware. A
// blinking or pulsing LED's phase at a time is the libgpiod sink's
// (drivers/leds/led_pattern.hpp).
#pragma once

#include <vector>

#include "drivers/leds/led_pattern.hpp"
#include "drivers/leds/led_sink.hpp"

namespace vivaref::drivers {

class SimulatedLeds final : public LedSink {
public:
    void show(const LedStates& desired) override {
        for (LedChange& change : ledChanges(lit_, desired)) {
            if (change.mode == LedMode::Off) {
                lit_.erase(change.led);
            } else {
                lit_[change.led] = change.mode;
            }
            writes_.push_back(std::move(change));
        }
    }

    LedMode mode(const LedId& led) const {
        auto it = lit_.find(led);
        return it == lit_.end() ? LedMode::Off : it->second;
    }
    // Whether the LED is lit at `now`, as GpioLedSink would drive it.
    bool litAt(const LedId& led, Timestamp now) const { return ledPhaseAt(mode(led), now).lit; }
    const LedStates& lit() const { return lit_; }
    const std::vector<LedChange>& writes() const { return writes_; }

private:
    LedStates lit_;  // only LEDs that are not off
    std::vector<LedChange> writes_;
};

}  // namespace vivaref::drivers
