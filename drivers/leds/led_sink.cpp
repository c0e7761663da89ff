#include "drivers/leds/led_sink.hpp"

namespace vivaref::drivers {

const char* ledModeName(LedMode mode) {
    switch (mode) {
        case LedMode::Off:
            return "off";
        case LedMode::On:
            return "on";
        case LedMode::Blink:
            return "blink";
        case LedMode::Pulse:
            return "pulse";
        case LedMode::Hint:
            return "hint";
    }
    return "?";
}

std::vector<LedChange> ledChanges(const LedStates& applied, const LedStates& desired) {
    auto modeIn = [](const LedStates& states, const LedId& led) {
        auto it = states.find(led);
        return it == states.end() ? LedMode::Off : it->second;
    };
    std::map<LedId, LedMode> changes;
    for (const auto& [led, mode] : desired) {
        if (modeIn(applied, led) != mode) changes[led] = mode;
    }
    for (const auto& [led, mode] : applied) {
        if (mode != LedMode::Off && !desired.contains(led)) changes[led] = LedMode::Off;
    }
    std::vector<LedChange> list;
    for (auto& [led, mode] : changes) list.push_back({led, mode});
    return list;
}

}  // namespace vivaref::drivers
