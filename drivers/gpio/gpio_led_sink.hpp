// The LEDs on GPIO lines: an LedSink that applies only the difference.
//
// Decide, then drive: show() takes the whole desired state and changes the
// mode of the LEDs that differ from what it last applied; a line is written
// only when its level must change. Blink and pulse (led_pattern.hpp) move on
// the daemon's timer: the loop calls advance(now) at nextChangeAt(), and the
// sink sets each blinking or pulsing line to its phase at `now`. An LED that
// show() starts blinking takes the phase of the last advance() time.
//
// show() cannot return failures (LedSink's interface): they wait in
// takeFaults(). A line that failed to be written is written again at the
// next show() or advance() that needs it.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <vector>

#include "drivers/gpio/gpio_chip.hpp"
#include "drivers/leds/led_sink.hpp"

namespace vivaref::drivers {

struct LedLineSpec {
    LedId led;
    LineAddress line;
    Polarity polarity = Polarity::ActiveHigh;  // the line drives the LED's anode
};

class GpioLedSink final : public LedSink {
public:
    // Requests every line as an output, dark. Throws std::system_error naming
    // the line the kernel refuses, std::invalid_argument for an LED given twice.
    GpioLedSink(const std::vector<LedLineSpec>& specs, GpioLines& lines);
    // The same on the kernel's lines.
    explicit GpioLedSink(const std::vector<LedLineSpec>& specs);

    GpioLedSink(GpioLedSink&&) noexcept = default;
    GpioLedSink& operator=(GpioLedSink&&) noexcept = default;

    // An LED with no line is reported in takeFaults() each time it is asked
    // to light, and otherwise ignored.
    void show(const LedStates& desired) override;

    // Sets every blinking or pulsing line to its phase at `now`.
    std::vector<GpioFault> advance(Timestamp now);

    // When a blinking or pulsing LED next changes; none when none does.
    std::optional<Timestamp> nextChangeAt() const;

    std::vector<GpioFault> takeFaults();
    const LedStates& applied() const { return applied_; }

private:
    struct Led {
        LineAddress address;
        std::unique_ptr<OutputLine> line;
        LedMode mode = LedMode::Off;
        std::optional<bool> written;  // none: unknown after a failed write
    };

    void drive(const LedId& id, Led& led);

    std::map<LedId, Led> leds_;
    LedStates applied_;
    Timestamp now_{};  // the last advance() time
    std::vector<GpioFault> faults_;
};

}  // namespace vivaref::drivers
