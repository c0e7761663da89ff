// The sensing pipeline's knobs. Defaults suit a castle scanned round robin
// with one antenna on at a time (a reader every ~10 ms).
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>

#include "drivers/sensing/sensing_types.hpp"

namespace vivaref::drivers {

struct SensingConfig {
    // A reader sees a tag when it was in more than half of its last
    // `majorityScans` successful scans: one missed or one phantom read
    // changes nothing.
    std::size_t majorityScans = 3;
    // ...and, once seen, until it is missing from all of them (see
    // ReaderWindow). Without it, a tag just put down that is missed twice
    // before it is stable starts its window again.
    bool stickyPresence = true;
    // A new position must hold this long before it becomes part of the
    // stable observation. Well under the 300 ms a player notices as lag.
    Timestamp stabilityWindow{150};
    // A tag that vanishes from its place is "in hand" (being moved) for this
    // long, counted from when it vanished, before it is reported gone.
    Timestamp inHandGrace{3000};
    // A reader is faulty after this many failed scans in a row.
    std::uint32_t faultyAfterFailures = 3;

    // Throws std::invalid_argument when the knobs contradict each other.
    void validate() const;
};

}  // namespace vivaref::drivers
