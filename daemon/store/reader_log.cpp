#include "daemon/store/reader_log.hpp"

#include "daemon/store/store_error.hpp"
#include "daemon/store/stored_time.hpp"

namespace vivaref::store {

WriteStatus ReaderLog::recordScan(std::string_view reader, std::string_view tagsJson, WallTime at) {
    try {
        Transaction tx(db_);
        auto h = db_.prepare(
            "INSERT INTO reader_health (reader, scans) VALUES (?, 1) "
            "ON CONFLICT(reader) DO UPDATE SET scans = scans + 1");
        h.bind(1, reader);
        h.run();
        auto s = db_.prepare("INSERT INTO raw_scans (at_ms, reader, tags) VALUES (?, ?, ?)");
        s.bind(1, toMs(at)).bind(2, reader).bind(3, tagsJson);
        s.run();
        if (++scansSinceTrim_ >= kRawScanTrimEvery) {
            auto trim = db_.prepare("DELETE FROM raw_scans WHERE id <= (SELECT MAX(id) FROM raw_scans) - ?");
            trim.bind(1, rawScansKept_);
            trim.run();
            scansSinceTrim_ = 0;
        }
        tx.commit();
        return {};
    } catch (const SqliteError& e) {
        if (!e.isTransient())
            throw StoreError(db_.file(), "failed while writing (" + std::string(e.what()) + ")");
        return {false, "a scan of " + std::string(reader) + " was not logged: " + e.what(), 0, e.what()};
    }
}

WriteStatus ReaderLog::recordFault(std::string_view reader, std::string_view what, WallTime at) {
    try {
        auto h = db_.prepare(
            "INSERT INTO reader_health (reader, faults, last_fault_ms, last_fault) VALUES (?, 1, ?, ?) "
            "ON CONFLICT(reader) DO UPDATE SET faults = faults + 1, last_fault_ms = excluded.last_fault_ms, "
            "last_fault = excluded.last_fault");
        h.bind(1, reader).bind(2, toMs(at)).bind(3, what);
        h.run();
        return {};
    } catch (const SqliteError& e) {
        if (!e.isTransient())
            throw StoreError(db_.file(), "failed while writing (" + std::string(e.what()) + ")");
        return {false, "a fault of " + std::string(reader) + " was not logged: " + e.what(), 0, e.what()};
    }
}

std::vector<ReaderHealth> ReaderLog::health() {
    std::vector<ReaderHealth> out;
    auto s = db_.prepare(
        "SELECT reader, scans, faults, last_fault_ms, last_fault FROM reader_health ORDER BY reader");
    while (s.step()) {
        ReaderHealth h;
        h.reader = s.text(0);
        h.scans = s.integer(1);
        h.faults = s.integer(2);
        if (auto at = s.optionalInteger(3)) h.lastFaultAt = fromMs(*at);
        h.lastFault = s.text(4);
        out.push_back(std::move(h));
    }
    return out;
}

std::int64_t ReaderLog::rawScanCount() { return db_.queryInteger("SELECT COUNT(*) FROM raw_scans"); }

}  // namespace vivaref::store
