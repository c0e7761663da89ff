#include "drivers/leds/led_pattern.hpp"

namespace vivaref::drivers {
namespace {

LedPhase patternPhase(const LedPattern& pattern, Timestamp now) {
    // A floor modulo, so times before 0 follow the same rhythm.
    auto intoPeriod = now % pattern.period;
    if (intoPeriod < Timestamp::zero()) intoPeriod += pattern.period;
    const Timestamp periodStart = now - intoPeriod;
    if (intoPeriod < pattern.lit) return {true, periodStart + pattern.lit};
    return {false, periodStart + pattern.period};
}

}  // namespace

LedPhase ledPhaseAt(LedMode mode, Timestamp now) {
    switch (mode) {
        case LedMode::Off:
            return {false, std::nullopt};
        case LedMode::On:
            return {true, std::nullopt};
        case LedMode::Blink:
            return patternPhase(kBlinkPattern, now);
        case LedMode::Pulse:
            return patternPhase(kPulsePattern, now);
        case LedMode::Hint:
            return patternPhase(kHintPattern, now);
    }
    return {false, std::nullopt};
}

}  // namespace vivaref::drivers
