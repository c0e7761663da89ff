#include "drivers/sensing/sensing_config.hpp"

#include <stdexcept>
#include <string>

namespace vivaref::drivers {

void SensingConfig::validate() const {
    if (majorityScans == 0) throw std::invalid_argument("sensing: majorityScans must be at least 1");
    if (lostAfterMisses == 0) throw std::invalid_argument("sensing: lostAfterMisses must be at least 1");
    if (faultyAfterFailures == 0)
        throw std::invalid_argument("sensing: faultyAfterFailures must be at least 1");
    if (stabilityWindow.count() < 0)
        throw std::invalid_argument("sensing: stabilityWindow cannot be negative");
    // The grace counts from the vanishing, so it must outlast the window that
    // turns a vanishing into "in hand" in the first place.
    if (inHandGrace <= stabilityWindow) {
        throw std::invalid_argument("sensing: inHandGrace (" + std::to_string(inHandGrace.count()) +
                                    " ms) must be longer than stabilityWindow (" +
                                    std::to_string(stabilityWindow.count()) + " ms)");
    }
}

}  // namespace vivaref::drivers
