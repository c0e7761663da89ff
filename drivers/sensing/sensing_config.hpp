// The sensing pipeline's knobs. The defaults answer a brisk table: a put is
// stable once read across a short window after it lands, a lift is "in hand"
// after two scans in a row without the tag (drivers/sensing/NOTES.md).
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
    // ...and, once seen, until it is missing from `lostAfterMisses` of its
    // scans in a row (see ReaderWindow). Without it, a tag just put down that
    // is missed twice before it is stable starts its window again.
    bool stickyPresence = true;
    // Scans in a row without a seen tag before the reader no longer sees it:
    // a lift shows after this many scans of its reader, a single missed read
    // changes nothing. At most majorityScans (more is the same as that).
    std::size_t lostAfterMisses = 2;
    // A new place is believed once one of its readers has read the tag in
    // every scan across this window (the read that spans it decides); any
    // other change once nothing contradicted it this long. A piece lifted is
    // "in hand" at once, without it. A hand brushing a place on its way is
    // there 40 ms at most: 45 ms keeps it from counting, and the castles scan
    // a new tag again as the window ends (castle::ChangeConfirmer).
    Timestamp stabilityWindow{45};
    // A piece its readers have lost is "in hand" at once (true), or only once
    // the loss has held for the stability window (false: a castle whose
    // readers miss still tags often, at the price of a slower lift).
    bool inHandAtOnce = true;
    // A tag that vanishes from its place is "in hand" (being moved) for this
    // long, counted from when it vanished, before it is reported gone. It
    // never holds up a move: a tag seen on a place again is there at once.
    Timestamp inHandGrace{3000};
    // A reader is faulty after this many failed scans in a row.
    std::uint32_t faultyAfterFailures = 3;
    // A tag read on a new place while the reader of the place it stands on
    // does not answer: that reader's next scan may still find it at home,
    // the new place's reads being a neighbour's cross-reads. The new place
    // waits for that scan, but no longer than this from the reader's last
    // answer: a reader dead for good holds up no move for longer.
    Timestamp blindLeaveWait{2000};

    // Throws std::invalid_argument when the knobs contradict each other.
    void validate() const;
};

}  // namespace vivaref::drivers
