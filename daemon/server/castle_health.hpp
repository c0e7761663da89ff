// The castle's health as the host's Castle page shows it (issue 36): per
// reader of the layout, whether it answers now, what it sees now, how fast
// it reads, how it fails, the unknown UIDs it reads; the cross-reads (one
// tag read by two readers at once); the vote keys' last presses. Between
// games and during one: it watches the table (a table::TableObserver) and
// counts every raw scan as it arrives, repeats too, before sensing, as the
// host's tag enrolment does. It decides nothing of the game.
//
// What it keeps per scan is a few counters, a ring of reads per quarter of
// a second and the reader's last tags: tests/server/castle_health_bench
// prints the cost per scan (daemon/server/NOTES.md, "The Castle page").
//
// A reader's chip (castle::Castle::chipOf), its wiring and the pipeline's
// judgement (drivers::ReaderQuality) are read when the page asks
// (castle_report.hpp), not per scan.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "daemon/table/table.hpp"
#include "daemon/table/table_observer.hpp"
#include "drivers/buttons/button_source.hpp"
#include "drivers/rfid/tag_reader.hpp"

namespace vivaref::server {

using drivers::Timestamp;

struct CastleHealthSettings {
    // A reader with no successful scan for this long does not answer.
    Timestamp answersWithin{2000};
    // Reads per second and recent failures are counted over this span
    // (a multiple of kSlot, at most kSlots of them).
    Timestamp rateOver{3000};
    // A cross-read pair is shown as happening while its last double read is
    // this recent and it happened at least `crossReadsShown` times: a tag
    // moved from one place to the next is read by both for one scan.
    Timestamp crossReadHeld{3000};
    std::int64_t crossReadsShown = 2;
    std::size_t unknownKept = 4;      // a reader's last few unknown UIDs
    std::size_t crossPairsKept = 64;  // the most recent (pair, tag)s
};

class CastleHealth final : public table::TableObserver {
public:
    static constexpr Timestamp kSlot{250};
    static constexpr std::size_t kSlots = 16;

    struct ReaderCounts {
        std::int64_t scans = 0;   // every scan, failed or not
        std::int64_t reads = 0;   // successful scans
        std::int64_t failed = 0;  // failed scans
        std::optional<drivers::ScanError> lastError;
        std::optional<Timestamp> lastScanAt, lastReadAt, lastErrorAt;
        std::int64_t unknownReads = 0;         // reads of a UID nobody enrolled (a read per scan)
        std::vector<drivers::TagUid> unknown;  // the last few distinct ones, newest first
        std::int64_t garbled = 0;              // Protocol failures: frames that break the standard
        std::optional<Timestamp> lastGarbledAt;
        // Its last successful scan's tags; emptied by a failed scan.
        drivers::TagSet tags;
        // Successful and failed scans by slot of kSlot (ring, by slot number).
        std::array<std::uint16_t, kSlots> readSlots{}, failSlots{};
        std::int64_t slot = -1;      // the slot number of the newest entries
        std::size_t unknownNow = 0;  // of `tags`, not enrolled (recounted when they change)
    };

    // A tag read by two readers within one sweep: both readers' last scans
    // hold it. `first` < `second` (layout indices).
    struct CrossRead {
        drivers::ReaderIndex first = 0, second = 0;
        drivers::TagUid tag;
        std::int64_t count = 0;  // scans of either that found it read by the other
        Timestamp firstAt{0}, lastAt{0};
    };

    struct KeyPress {
        std::int64_t count = 0;
        Timestamp lastAt{0};
    };

    // `table`: its layout, its enrolled tags (which UID is whose); it must
    // outlive this, which the caller attaches to it.
    explicit CastleHealth(const table::Table& table, CastleHealthSettings settings = {});

    // --- table::TableObserver
    void rawScan(drivers::ReaderIndex reader, const drivers::ScanResult& result, Timestamp at) override;
    void inputTaken(const trace::TraceLine& line, std::optional<store::GameId> game) override;

    const CastleHealthSettings& settings() const { return settings_; }
    std::size_t readerCount() const { return readers_.size(); }
    const ReaderCounts& reader(drivers::ReaderIndex reader) const { return readers_[reader]; }
    // A successful scan within settings().answersWithin of `now`.
    bool answers(drivers::ReaderIndex reader, Timestamp now) const;
    // Successful scans a second, and failed scans, over settings().rateOver up to `now`.
    double readsPerSecond(drivers::ReaderIndex reader, Timestamp now) const;
    std::int64_t recentFailures(drivers::ReaderIndex reader, Timestamp now) const;
    // Oldest first.
    const std::vector<CrossRead>& crossReads() const { return crossReads_; }
    // Whether a pair is happening at `now` (see CastleHealthSettings::crossReadHeld).
    bool crossReading(const CrossRead& pair, Timestamp now) const;
    // Every key pressed since the start, by station and key.
    const std::map<std::pair<int, drivers::VoteKey>, KeyPress>& presses() const { return presses_; }
    // The character of an enrolled UID, if it is one.
    std::optional<drivers::CharacterSlug> characterOf(const drivers::TagUid& tag) const;

private:
    void moveToSlot(ReaderCounts& counts, Timestamp at);
    std::int64_t slotSum(const ReaderCounts& counts, const std::array<std::uint16_t, kSlots>& slots,
                         Timestamp now) const;
    void newTags(drivers::ReaderIndex reader, const drivers::TagSet& tags);
    void crossRead(drivers::ReaderIndex a, drivers::ReaderIndex b, const drivers::TagUid& tag, Timestamp at);
    void noteUnknown(ReaderCounts& counts, const drivers::TagUid& tag);

    const table::Table& table_;
    CastleHealthSettings settings_;
    std::vector<ReaderCounts> readers_;
    // Which readers' last scans hold each tag (a tag in one reader's field
    // has one; two or more is a cross-read).
    std::map<drivers::TagUid, std::vector<drivers::ReaderIndex>> holders_;
    std::vector<CrossRead> crossReads_;
    std::map<std::pair<int, drivers::VoteKey>, KeyPress> presses_;
};

}  // namespace vivaref::server
