// A change a reader saw, confirmed out of turn. A reader's turn comes once
// a cycle (about 50 ms on the example castle), and the sensing pipeline
// wants more than one scan before it believes a change: the next is asked of
// the field scheduler at once rather than a cycle later. A tag gone is
// scanned again at once (a lift is then "in hand" a few milliseconds after
// the first miss). A new tag is scanned again when the sensing pipeline's
// stability window after its first read is over (45 ms by default): a hand
// brushing another place on its way has left by then, and the read that
// finds the tag still there is the one that places it.
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
        : last_(readers), confirmNewTagAfter_(confirmNewTagAfter) {}

    // `reader`'s scan, just taken at `now`: a change from its last good scan
    // is scanned again soon. Failures have their own backoff.
    void scanned(drivers::ReaderIndex reader, const drivers::ScanResult& result, drivers::Microseconds now,
                 drivers::FieldScheduler& fields);
    // The reader's last good scan, if it had one.
    const std::optional<drivers::TagSet>& last(drivers::ReaderIndex reader) const { return last_[reader]; }

private:
    std::vector<std::optional<drivers::TagSet>> last_;  // each reader's last good scan
    drivers::Microseconds confirmNewTagAfter_;
};

}  // namespace vivaref::castle
