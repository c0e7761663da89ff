#include "drivers/sensing/interleaved_scans.hpp"

#include <algorithm>

namespace vivaref::drivers {

void InterleavedScans::waitUntil(ReaderIndex reader, Microseconds until) {
    auto it = std::find_if(waits_.begin(), waits_.end(), [&](const Wait& w) { return w.reader == reader; });
    if (it == waits_.end())
        waits_.push_back({reader, until});
    else
        it->until = until;
}

void InterleavedScans::ended(ReaderIndex reader) {
    std::erase_if(waits_, [&](const Wait& w) { return w.reader == reader; });
}

const InterleavedScans::Wait* InterleavedScans::first() const {
    // Ties: the scan begun first (the list keeps the order in which scans began).
    auto it = std::min_element(waits_.begin(), waits_.end(),
                               [](const Wait& a, const Wait& b) { return a.until < b.until; });
    return it == waits_.end() ? nullptr : &*it;
}

std::optional<ReaderIndex> InterleavedScans::due(Microseconds now) const {
    const Wait* w = first();
    if (!w || w->until > now) return std::nullopt;
    return w->reader;
}

std::optional<Microseconds> InterleavedScans::nextDue() const {
    const Wait* w = first();
    if (!w) return std::nullopt;
    return w->until;
}

bool InterleavedScans::underWay(ReaderIndex reader) const {
    return std::any_of(waits_.begin(), waits_.end(), [&](const Wait& w) { return w.reader == reader; });
}

}  // namespace vivaref::drivers
