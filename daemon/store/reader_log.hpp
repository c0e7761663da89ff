// The readers' side of the game log: each reader's health (scans, faults,
// the last fault) and the raw scans host enrolment and diagnosis read back.
// Counters, not history: a row the disk refuses is reported and dropped
// (nothing waits in memory), and raw scans are trimmed to the newest
// `rawScansKept`. It shares the game log's connection (GameStore::readers()).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "daemon/store/decision_log.hpp"
#include "daemon/store/sqlite.hpp"

namespace vivaref::store {

struct ReaderHealth {
    std::string reader;
    std::int64_t scans = 0;
    std::int64_t faults = 0;
    std::optional<WallTime> lastFaultAt;
    std::string lastFault;
};

class ReaderLog {
public:
    static constexpr std::int64_t kRawScansKept = 100'000;
    // Old raw scans are trimmed every this many new ones.
    static constexpr std::int64_t kRawScanTrimEvery = 1'000;

    explicit ReaderLog(Database& db) : db_(db) {}

    // One scan of `reader` (its tags as a JSON array's text), counted in its health.
    WriteStatus recordScan(std::string_view reader, std::string_view tagsJson, WallTime at);
    WriteStatus recordFault(std::string_view reader, std::string_view what, WallTime at);
    // How many raw scans to keep (kRawScansKept unless configured).
    void setRawScansKept(std::int64_t kept) { rawScansKept_ = kept; }

    std::vector<ReaderHealth> health();  // by reader name
    std::int64_t rawScanCount();

private:
    Database& db_;
    std::int64_t scansSinceTrim_ = 0;
    std::int64_t rawScansKept_ = kRawScansKept;
};

}  // namespace vivaref::store
