// A change a reader saw, confirmed out of turn. A reader's turn comes once
// a cycle (about 50 ms on the example castle), and the sensing pipeline
// wants more than one scan before it believes a change: the next is asked of
// the field scheduler at once rather than a cycle later. A tag gone is
// scanned again at once (a lift is then "in hand" a few milliseconds after
// the first miss). A new tag is scanned again so that the scan ends about
// as the sensing pipeline's stability window after its first read is over
// (45 ms by default; the scan begins about its length before, at most 4 ms
// before): a hand brushing another place on its way has left by then, and
// the read that finds the tag still there is the one that places it. A
// read that came before the window was over asks for one more as it ends.
//
// Both castles' readers follow it, so a simulated castle answers as soon as
// a real one would.
#pragma once

#include <optional>
#include <vector>

#include "drivers/rfid/tag_reader.hpp"
#include "drivers/sensing/field_scheduler.hpp"

namespace vivaref::castle {

class ChangeConfirmer {
public:
    // `confirmNewTagAfter`: the sensing pipeline's stability window.
    ChangeConfirmer(std::size_t readers, drivers::Microseconds confirmNewTagAfter)
        : readers_(readers), confirmNewTagAfter_(confirmNewTagAfter) {}

    // `reader`'s scan, just taken at `now`: a change from its last good scan
    // is scanned again soon. Failures have their own backoff.
    void scanned(drivers::ReaderIndex reader, const drivers::ScanResult& result, drivers::Microseconds now,
                 drivers::FieldScheduler& fields);
    // The reader's last good scan, if it had one.
    const std::optional<drivers::TagSet>& last(drivers::ReaderIndex reader) const {
        return readers_[reader].last;
    }

private:
    // How much before the window's end a confirming scan may begin. The
    // pipeline measures the window between the scans' ends; a tag read in
    // a scan begun this early has still stayed the window less this since
    // the first read ended: 41 ms of the default 45, longer than a hand
    // brushing past stays (40 ms, sensing_config.hpp).
    static constexpr drivers::Microseconds kMostEarly{4000};

    struct ReaderState {
        std::optional<drivers::TagSet> last;  // its last good scan
        // The scan that found a tag new to it, while its window is not over.
        std::optional<drivers::Microseconds> newSince;
        // How long its last scan that changed nothing lasted: about what the
        // scan confirming a new tag will (one tag more to check).
        drivers::Microseconds steadyScan{0};
    };
    std::vector<ReaderState> readers_;
    drivers::Microseconds confirmNewTagAfter_;
};

}  // namespace vivaref::castle
