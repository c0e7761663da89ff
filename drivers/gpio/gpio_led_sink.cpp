#include "drivers/gpio/gpio_led_sink.hpp"

#include <stdexcept>
#include <utility>

#include "drivers/leds/led_pattern.hpp"

namespace vivaref::drivers {

GpioLedSink::GpioLedSink(const std::vector<LedLineSpec>& specs, GpioLines& lines) {
    for (const LedLineSpec& spec : specs) {
        if (leds_.contains(spec.led)) {
            throw std::invalid_argument("LED '" + spec.led.name + "' is given twice (" +
                                        describeLine(spec.line) + ")");
        }
        leds_.emplace(spec.led, Led{spec.line, lines.requestOutput(spec.line, spec.polarity, false),
                                    LedMode::Off, false});
    }
}

GpioLedSink::GpioLedSink(const std::vector<LedLineSpec>& specs) : GpioLedSink(specs, *kernelGpioLines()) {}

void GpioLedSink::show(const LedStates& desired) {
    for (const LedChange& change : ledChanges(applied_, desired)) {
        if (change.mode == LedMode::Off) {
            applied_.erase(change.led);
        } else {
            applied_[change.led] = change.mode;
        }
        auto it = leds_.find(change.led);
        if (it == leds_.end()) {
            // Said when it is asked to light; going dark again is no news.
            if (change.mode == LedMode::Off) continue;
            faults_.push_back({"LED '" + change.led.name + "' (no line configured)",
                               std::make_error_code(std::errc::no_such_device)});
            continue;
        }
        it->second.mode = change.mode;
        drive(it->first, it->second);
    }
}

std::vector<GpioFault> GpioLedSink::advance(Timestamp now) {
    now_ = now;
    for (auto& [id, led] : leds_) {
        // Steady LEDs are rewritten only when a write failed.
        if (led.mode == LedMode::Blink || led.mode == LedMode::Pulse || led.mode == LedMode::Hint ||
            !led.written)
            drive(id, led);
    }
    return takeFaults();
}

std::optional<Timestamp> GpioLedSink::nextChangeAt() const {
    std::optional<Timestamp> next;
    for (const auto& [id, led] : leds_) {
        std::optional<Timestamp> change = ledPhaseAt(led.mode, now_).nextChange;
        if (change && (!next || *change < *next)) next = change;
    }
    return next;
}

std::vector<GpioFault> GpioLedSink::takeFaults() { return std::exchange(faults_, {}); }

void GpioLedSink::drive(const LedId& id, Led& led) {
    const bool lit = ledPhaseAt(led.mode, now_).lit;
    if (led.written == lit) return;
    if (std::error_code error = led.line->write(lit)) {
        led.written.reset();
        faults_.push_back({describeLine(led.address) + " (LED '" + id.name + "')", error});
        return;
    }
    led.written = lit;
}

}  // namespace vivaref::drivers
