// The simulated vote stations: a test, the web UI or `vivaref simulate`
// presses keys; the referee takes the presses as from real buttons.
#pragma once

#include <utility>
#include <vector>

#include "drivers/buttons/button_source.hpp"

namespace vivaref::drivers {

class SimulatedButtons final : public ButtonSource {
public:
    void press(StationId station, VoteKey key, Timestamp at) { pending_.push_back({station, key, at}); }

    std::vector<ButtonEvent> takeEvents() override { return std::exchange(pending_, {}); }

private:
    std::vector<ButtonEvent> pending_;
};

}  // namespace vivaref::drivers
