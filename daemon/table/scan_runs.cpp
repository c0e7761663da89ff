#include "daemon/table/scan_runs.hpp"

#include <algorithm>

namespace vivaref::table {

ScanRuns::ScanRuns(std::size_t readers, const drivers::SensingConfig& sensing)
    : sensing_(sensing), runs_(readers) {}

std::size_t ScanRuns::enough(const drivers::ScanResult& result) const {
    return result.ok() ? sensing_.majorityScans : std::size_t{sensing_.faultyAfterFailures};
}

bool ScanRuns::repeats(drivers::ReaderIndex reader, const drivers::ScanResult& result, Timestamp at) {
    Run& run = runs_[reader];
    const bool same =
        run.last && (result.ok() ? run.last->ok() && run.last->tags() == result.tags() : !run.last->ok());
    if (!same) {
        run.length = 0;
        run.since = at;
        run.spanned = false;
    }
    ++run.length;
    run.last = result;
    const bool repeat = run.length > enough(result) && run.spanned;
    if (at - run.since >= sensing_.stabilityWindow) run.spanned = true;
    return repeat;
}

std::size_t ScanRuns::taken(drivers::ReaderIndex reader) const {
    const Run& run = runs_[reader];
    return run.last ? std::min(run.length, enough(*run.last)) : 0;
}

}  // namespace vivaref::table
