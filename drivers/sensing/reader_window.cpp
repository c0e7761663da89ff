#include "drivers/sensing/reader_window.hpp"

#include <algorithm>

namespace vivaref::drivers {

ReaderWindow::ReaderWindow(std::size_t majorityScans, bool sticky, std::size_t lostAfter, Timestamp span,
                           std::size_t tagCount)
    : ring_(majorityScans),
      hits_(tagCount, 0),
      seen_(tagCount, 0),
      missesInARow_(tagCount, 0),
      inRun_(tagCount, 0),
      runStart_(tagCount, Timestamp(0)),
      spannedAt_(tagCount),
      sticky_(sticky),
      span_(span),
      lostAfter_(std::min(std::max<std::size_t>(lostAfter, 1), majorityScans)) {}

void ReaderWindow::add(const std::vector<TagIndex>& tags, std::vector<TagUid> unknown, Timestamp at) {
    Scan& slot = ring_[next_];
    if (filled_ == ring_.size()) {
        for (TagIndex old : slot.tags) --hits_[old];
    } else {
        ++filled_;
    }
    slot.tags.assign(tags.begin(), tags.end());  // reuses the slot's capacity: no allocation once warm
    slot.unknown = std::move(unknown);
    slot.at = at;
    for (std::uint32_t& misses : missesInARow_) ++misses;
    for (TagIndex tag : tags) {
        ++hits_[tag];
        if (!inRun_[tag]) {  // the scan before did not read it: a new run begins
            inRun_[tag] = 1;
            runStart_[tag] = at;
            spannedAt_[tag].reset();
        }
        missesInARow_[tag] = 0;
        if (!spannedAt_[tag] && at - runStart_[tag] >= span_) spannedAt_[tag] = at;
    }
    for (std::size_t tag = 0; tag < inRun_.size(); ++tag)
        if (missesInARow_[tag] != 0) inRun_[tag] = 0;
    next_ = (next_ + 1) % ring_.size();
    for (std::size_t tag = 0; tag < hits_.size(); ++tag) {
        const bool majority = 2 * hits_[tag] > filled_;
        seen_[tag] = majority || (sticky_ && seen_[tag] && missesInARow_[tag] < lostAfter_);
    }
}

void ReaderWindow::clear() {
    for (Scan& scan : ring_) {
        scan.tags.clear();
        scan.unknown.clear();
    }
    std::fill(hits_.begin(), hits_.end(), 0);
    std::fill(seen_.begin(), seen_.end(), 0);
    std::fill(missesInARow_.begin(), missesInARow_.end(), 0);
    std::fill(inRun_.begin(), inRun_.end(), 0);
    std::fill(spannedAt_.begin(), spannedAt_.end(), std::nullopt);
    next_ = 0;
    filled_ = 0;
}

std::vector<ReaderWindow::Unknown> ReaderWindow::unknownTags() const {
    std::vector<Unknown> found;
    for (std::size_t i = 0; i < filled_; ++i) {
        const Scan& scan = ring_[i];
        for (const TagUid& uid : scan.unknown) {
            auto it =
                std::find_if(found.begin(), found.end(), [&](const Unknown& u) { return u.uid == uid; });
            if (it == found.end()) {
                found.push_back({uid, scan.at});
            } else {
                it->at = std::max(it->at, scan.at);
            }
        }
    }
    std::sort(found.begin(), found.end(), [](const Unknown& a, const Unknown& b) { return a.uid < b.uid; });
    return found;
}

}  // namespace vivaref::drivers
