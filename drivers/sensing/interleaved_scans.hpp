// Scans under way together on one SPI bus: which one the bus serves next.
//
// A reader's scan (Mfrc522Reader::beginScan) stops at every radio wait, when
// the chip's own timer and FIFO do the work and the bus is free; the bus
// then serves another reader whose field is on (FieldScheduler's Scan steps,
// which may be several at once) until a wait is over. The scan whose wait
// ended first goes first, so none waits longer than it must.
//
// Decide, then drive: the caller says when a scan stopped and until when it
// waits, on its own clock, and asks which scan is due at `now`. No clock,
// no sleep, no thread.
#pragma once

#include <optional>
#include <vector>

#include "drivers/sensing/field_scheduler.hpp"

namespace vivaref::drivers {

class InterleavedScans {
public:
    // `reader`'s scan waits for the radio until `until` (a scan just begun: its start).
    void waitUntil(ReaderIndex reader, Microseconds until);
    // Its scan is over (or abandoned).
    void ended(ReaderIndex reader);

    // The scan to continue at `now`: the one whose wait ended first, if any has.
    std::optional<ReaderIndex> due(Microseconds now) const;
    // When the first wait ends; none without a scan under way.
    std::optional<Microseconds> nextDue() const;
    bool underWay(ReaderIndex reader) const;
    std::size_t count() const { return waits_.size(); }

private:
    struct Wait {
        ReaderIndex reader;
        Microseconds until;
    };
    const Wait* first() const;

    std::vector<Wait> waits_;  // one per scan under way; a few at most, so a plain list
};

}  // namespace vivaref::drivers
