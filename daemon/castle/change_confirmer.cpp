#include "daemon/castle/change_confirmer.hpp"

#include <algorithm>

namespace vivaref::castle {

void ChangeConfirmer::scanned(drivers::ReaderIndex reader, const drivers::ScanResult& result,
                              drivers::Microseconds now, drivers::FieldScheduler& fields) {
    if (!result.ok()) return;
    const auto& before = last_[reader];
    if (before) {
        const auto& tags = result.tags();
        const bool lost =
            std::any_of(before->begin(), before->end(), [&](const auto& t) { return !tags.contains(t); });
        const bool found =
            std::any_of(tags.begin(), tags.end(), [&](const auto& t) { return !before->contains(t); });
        if (lost)
            fields.scanSoon(reader, now);
        else if (found)
            fields.scanSoon(reader, now + confirmNewTagAfter_);
    }
    last_[reader] = result.tags();
}

}  // namespace vivaref::castle
