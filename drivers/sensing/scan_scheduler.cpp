#include "drivers/sensing/scan_scheduler.hpp"

#include <algorithm>
#include <stdexcept>

namespace vivaref::drivers {

void BackoffPolicy::validate() const {
    if (firstBackoff.count() <= 0)
        throw std::invalid_argument("scan scheduler: firstBackoff must be positive");
    if (maxBackoff < firstBackoff)
        throw std::invalid_argument("scan scheduler: maxBackoff is below firstBackoff");
}

Timestamp BackoffPolicy::delayAfter(std::uint32_t failuresInARow) const {
    if (failuresInARow < failuresBeforeBackoff) return Timestamp{0};
    Timestamp delay = firstBackoff;
    for (std::uint32_t i = failuresBeforeBackoff; i < failuresInARow && delay < maxBackoff; ++i) delay *= 2;
    return std::min(delay, maxBackoff);
}

ScanScheduler::ScanScheduler(std::size_t readerCount, BackoffPolicy policy)
    : policy_(policy), readers_(readerCount) {
    policy_.validate();
    if (readerCount == 0) throw std::invalid_argument("scan scheduler: no reader to schedule");
}

std::optional<ReaderIndex> ScanScheduler::next(Timestamp now) {
    for (std::size_t step = 0; step < readers_.size(); ++step) {
        const ReaderIndex candidate = (cursor_ + step) % readers_.size();
        if (readers_[candidate].retryAt <= now) {
            cursor_ = (candidate + 1) % readers_.size();
            return candidate;
        }
    }
    return std::nullopt;
}

void ScanScheduler::reportSuccess(ReaderIndex reader) { readers_[reader] = {}; }

void ScanScheduler::reportFailure(ReaderIndex reader, Timestamp now) {
    ReaderTurn& turn = readers_[reader];
    ++turn.failures;
    if (turn.failures < policy_.failuresBeforeBackoff) return;
    turn.retryAt = now + policy_.delayAfter(turn.failures);
}

Timestamp ScanScheduler::nextReadyAt() const {
    return std::min_element(readers_.begin(), readers_.end(),
                            [](const ReaderTurn& a, const ReaderTurn& b) { return a.retryAt < b.retryAt; })
        ->retryAt;
}

}  // namespace vivaref::drivers
