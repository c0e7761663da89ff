#include "daemon/castle/change_confirmer.hpp"

#include <algorithm>

namespace vivaref::castle {

void ChangeConfirmer::scanned(drivers::ReaderIndex reader, const drivers::ScanResult& result,
                              drivers::Microseconds now, drivers::FieldScheduler& fields) {
    if (!result.ok()) return;
    ReaderState& s = readers_[reader];
    if (s.last) {
        const auto& tags = result.tags();
        const auto& before = *s.last;
        const bool lost =
            std::any_of(before.begin(), before.end(), [&](const auto& t) { return !tags.contains(t); });
        const bool found =
            std::any_of(tags.begin(), tags.end(), [&](const auto& t) { return !before.contains(t); });
        if (found) s.newSince = now;
        if (lost) {
            fields.scanSoon(reader, now);
        } else if (found) {
            // The confirming scan ends about as the window does (it begins
            // when asked for), but begins at most kMostEarly before: the tag
            // it reads has then stayed at least the window less that.
            const auto early = std::min({s.steadyScan, kMostEarly, confirmNewTagAfter_});
            fields.scanSoon(reader, now + confirmNewTagAfter_ - early);
        } else {
            s.steadyScan = fields.lastScanLength(reader);
            if (s.newSince && now - *s.newSince < confirmNewTagAfter_) {
                // Read again before the window was over: once more as it ends.
                if (!fields.extraPending(reader)) fields.scanSoon(reader, *s.newSince + confirmNewTagAfter_);
            } else {
                s.newSince.reset();
            }
        }
    }
    s.last = result.tags();
}

}  // namespace vivaref::castle
