// Which reader to scan next. Only one antenna is on at a time (neighbouring
// floors' fields overlap and would jam each other), so readers take turns,
// round robin. A reader that keeps failing is backed off exponentially, up to
// a cap, and retried when its time comes: a dead reader costs a scan slot now
// and then, not every turn. Decide, then drive: the scheduler only answers
// "who next" from the caller's clock; the caller scans and reports back.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "drivers/sensing/board_layout.hpp"
#include "drivers/sensing/sensing_types.hpp"

namespace vivaref::drivers {

struct BackoffPolicy {
    // Failures in a row that are still retried on the reader's normal turn.
    std::uint32_t failuresBeforeBackoff = 2;
    Timestamp firstBackoff{200};
    Timestamp maxBackoff{10000};

    // Throws std::invalid_argument when the delays are not positive or the cap is below the first.
    void validate() const;
    // How long a reader waits after `failuresInARow` failures: zero while it
    // keeps its normal turn, then firstBackoff doubling up to maxBackoff.
    Timestamp delayAfter(std::uint32_t failuresInARow) const;
};

class ScanScheduler {
public:
    explicit ScanScheduler(std::size_t readerCount, BackoffPolicy policy = {});

    // The next reader whose turn it is at `now`, in round robin order,
    // skipping readers still backing off. nullopt when every reader is backing
    // off: nothing to scan before nextReadyAt().
    std::optional<ReaderIndex> next(Timestamp now);

    void reportSuccess(ReaderIndex reader);
    void reportFailure(ReaderIndex reader, Timestamp now);

    // The earliest time at which next() will name a reader.
    Timestamp nextReadyAt() const;
    Timestamp retryAt(ReaderIndex reader) const { return readers_[reader].retryAt; }
    std::uint32_t failuresInARow(ReaderIndex reader) const { return readers_[reader].failures; }

private:
    struct ReaderTurn {
        std::uint32_t failures = 0;
        Timestamp retryAt{0};
    };
    BackoffPolicy policy_;
    std::vector<ReaderTurn> readers_;
    ReaderIndex cursor_ = 0;  // the reader asked first on the next call
};

}  // namespace vivaref::drivers
