// The LEDs (one per floor, one per vote station key, ...). Decide, then
// drive: the referee computes the whole desired state from the game; a sink
// applies only what differs from what it last applied, so an unchanged LED is
// never rewritten and a blinking one never restarts its rhythm. The libgpiod
// sink is GpioLedSink (drivers/gpio/), the in-memory twin SimulatedLeds; the
// blink and pulse rhythms both follow are in led_pattern.hpp.
#pragma once

#include <compare>
#include <map>
#include <string>
#include <vector>

namespace vivaref::drivers {

// An LED as the configuration names it: "floor3", "station2-yes".
struct LedId {
    std::string name;
    friend auto operator<=>(const LedId&, const LedId&) = default;
};

// Hint: a slow beat, mostly lit (a place a piece in a hand may go, on a
// table that teaches: daemon/referee/led_decision.hpp).
enum class LedMode { Off, On, Blink, Pulse, Hint };

const char* ledModeName(LedMode mode);

// LEDs not named are off.
using LedStates = std::map<LedId, LedMode>;

struct LedChange {
    LedId led;
    LedMode mode;
    friend bool operator==(const LedChange&, const LedChange&) = default;
};

// What to write to go from `applied` to `desired`, in LED order.
std::vector<LedChange> ledChanges(const LedStates& applied, const LedStates& desired);

class LedSink {
public:
    virtual ~LedSink() = default;
    // Make the LEDs show `desired`, writing only the difference.
    virtual void show(const LedStates& desired) = 0;
};

}  // namespace vivaref::drivers
