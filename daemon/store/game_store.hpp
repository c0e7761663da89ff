// The game log: one SQLite database (WAL) holding every game, every event
// of it in order and its referee trace. The referee writes into it as a
// game goes; the `vivaref games/show/export/verify/stats` commands read it.
// The same file keeps three other things, each a class of its own on this
// connection: the readers' health and raw scans (readers(), reader_log.hpp),
// the analyses of finished games (analyses(), analysis_store.hpp), and the
// club's outbox and member cache (club(), club_outbox.hpp).
//
// Promises: an append of a decision or a referee event returns only once
// its row is committed (synchronous FULL by default), so an acknowledged
// action survives a crash or a power cut; when it cannot be committed
// nothing of it is kept, and its WriteStatus says so (the caller has not
// decided it: REFEREE-NOTES.md, "Never lose a game"). Trace lines are not worth an fsync
// each: appendTrace buffers them, and they are committed in the same
// transaction as the next event (so every event on disk has on disk every
// trace line appended before it: a caller records an input before acting
// on it), or once flushDue() finds the oldest traceFlushEvery old on the
// caller's clock, flush(), or destruction. A crash loses at most the trace
// lines of the last interval that led to no decision. Several events that
// belong together (a round played again on revealed cards) are committed
// in one transaction between beginBatch() and endBatch(), all or none of
// them kept. When the disk is full or the file cannot be written, the
// trace lines (inputs, not decisions) wait in memory and every later write
// tries them first, in order. Nothing is ever deleted but old raw scans;
// an undo is an event of its own.
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "daemon/store/analysis_store.hpp"
#include "daemon/store/club_outbox.hpp"
#include "daemon/store/decision_log.hpp"
#include "daemon/store/reader_log.hpp"
#include "daemon/store/sqlite.hpp"
#include "daemon/store/store_error.hpp"
#include "engine/action.hpp"
#include "engine/rules.hpp"

namespace vivaref::store {

// How hard a commit waits for the disk (PRAGMA synchronous).
enum class Durability {
    Full,    // survives power loss: every commit syncs the WAL
    Normal,  // survives a crash of the process; a power cut may lose the last commits
};

class GameStore final : public DecisionLog {
public:
    enum class Access {
        CreateIfMissing,  // the daemon
        MustExist,        // the reading commands: a wrong --db is an error, not a new file
    };
    // How long a trace line may wait in memory, in the trace's own clock.
    static constexpr std::chrono::milliseconds kTraceFlushEvery{1000};

    // Opens (or makes) the log and brings its schema up to date. Throws
    // StoreError naming the file and what to do: missing, damaged, from a
    // newer vivaref, or not writable.
    GameStore(const std::filesystem::path& file, Access access, Durability durability = Durability::Full);
    GameStore(const GameStore&) = delete;
    GameStore& operator=(const GameStore&) = delete;
    // Writes the buffered trace lines (a last try; failures are dropped).
    ~GameStore();

    const std::filesystem::path& file() const { return db_.file(); }

    // --- writing (the referee) ---------------------------------------------
    // A new game with its setup line as event 0. The spec must be valid.
    // Throws StoreError when it cannot be written: a game starts on disk.
    GameId createGame(const NewGame& game) override;
    WriteStatus appendDeal(GameId game, const engine::Deal& deal, WallTime at) override;
    WriteStatus appendAction(GameId game, const engine::Action& action, WallTime at) override;
    WriteStatus appendReshuffle(GameId game, const engine::Reshuffle& reshuffle, WallTime at) override;
    // Takes back the last decision still in effect (export and verify skip it).
    WriteStatus appendUndo(GameId game, WallTime at) override;
    // A referee event that is not a decision (pause, resume, a refusal, ...):
    // `payload` is a JSON object's text.
    WriteStatus appendRefereeEvent(GameId game, std::string_view kind, std::string_view payload,
                                   WallTime at) override;
    // A referee trace line at `tMs` (the trace's clock): buffered, see above.
    // It is written at once when it finds the oldest buffered line
    // traceFlushEvery older than itself.
    WriteStatus appendTrace(GameId game, std::int64_t tMs, std::string_view line);
    // The game's GAME-RECORD result (record::resultJson).
    WriteStatus finishGame(GameId game, const nlohmann::json& result, WallTime at) override;
    WriteStatus abandonGame(GameId game, WallTime at) override;
    // Writes the trace lines waiting in memory (buffered, or refused by the
    // disk). `committed` in its status: something was written.
    WriteStatus flush() override;
    // What is waiting in memory, by game, in words ("game 3: 2 events (keep,
    // vote) and 14 trace lines"): for the daemon's last line when it cannot
    // save them. Empty when nothing waits.
    std::string describeWaiting() const;
    // The caller's timer, on the clock of appendTrace's `tMs` (the store
    // reads no clock): writes the buffered trace lines once the oldest has
    // waited traceFlushEvery; otherwise does nothing.
    WriteStatus flushDue(std::int64_t nowMs);
    // Events appended from beginBatch() to endBatch() are committed together
    // by endBatch(), or none of them is kept (nor after a crash); the
    // appends in between return a durable status and write nothing.
    // Batches nest.
    void beginBatch() override { ++batchDepth_; }
    WriteStatus endBatch() override;
    // Zero: every trace line is committed on its own (the old behaviour).
    void setTraceFlushEvery(std::chrono::milliseconds every) { traceFlushEvery_ = every; }
    std::size_t waiting() const override { return pending_.size(); }  // trace lines the disk refused
    std::size_t traceBuffered() const { return traceBuffer_.size(); }

    // --- the club (schema 3) ------------------------------------------------
    // A table with a club: from now on every game that ends (finishGame,
    // abandonGame) is queued in the club's outbox in the transaction that
    // ends it. Without it nothing is queued. A game in progress is never queued.
    void setClubConfigured(bool configured) { clubConfigured_ = configured; }
    bool clubConfigured() const { return clubConfigured_; }

    // --- the other jobs of the same file --------------------------------------
    ReaderLog& readers() { return readers_; }
    AnalysisStore& analyses() { return analyses_; }
    ClubOutbox& club() { return club_; }

    // --- reading (the commands) --------------------------------------------
    std::vector<GameSummary> games();
    std::optional<GameSummary> game(GameId id) override;
    std::vector<StoredEvent> events(GameId id) override;
    // The decision lines still in effect (undos applied), setup first: the
    // game's GAME-RECORD.
    std::vector<std::string> recordLines(GameId id);
    std::string exportRecord(GameId id);  // recordLines joined, one a line
    // The same from events already read (one read of the log for both).
    static std::string recordText(const std::vector<StoredEvent>& events);
    // On disk, then those still in memory.
    std::vector<std::string> traceLines(GameId id);
    std::vector<GameId> unfinishedGames();

    // For tests: cap the file at `pages` pages (PRAGMA max_page_count), the
    // way a full disk behaves.
    void limitPagesForTesting(std::int64_t pages);
    // PRAGMA integrity_check's answer ("ok" when sound).
    std::string integrityCheck();
    // What SQLite finds wrong with the file, at most `limit` lines; empty
    // when sound. Quick: PRAGMA quick_check (no index checked against its
    // table: what serve runs at start); else PRAGMA integrity_check (what
    // verify runs first). A file too damaged to be checked gives SQLite's
    // error as the one line.
    enum class Check { Quick, Full };
    std::vector<std::string> damage(Check check, int limit = 10);

private:
    struct OpenGame {
        std::shared_ptr<const engine::Rules> rules;
        std::int64_t nextSeq = 0;
        std::int64_t nextTraceSeq = 0;
        int round = 0;
    };
    struct PendingRow {
        enum class Kind { Event, Trace, Finish } kind = Kind::Event;
        GameId game;
        int roundBefore = 0;    // an event: the game's round before it (taken back if it is not kept)
        std::int64_t seq = 0;   // event or trace
        std::int64_t atMs = 0;  // event time, trace t, or end time
        int round = 0;
        std::optional<std::int64_t> seat;
        std::string what;  // event kind; unused for trace
        std::string text;  // payload, trace line, or result
        bool complete = false;
        bool abandoned = false;
        bool queueForClub = false;  // a Finish row: queue the game in club_outbox with it
    };

    OpenGame& openGame(GameId id);
    WriteStatus appendEvent(GameId game, std::string kind, std::optional<int> seat, std::string payload,
                            WallTime at, std::optional<int> newRound = std::nullopt);
    WriteStatus enqueue(PendingRow row);
    // The events of `events_` with the waiting trace lines, in one
    // transaction; the events are dropped (their numbers free again) when
    // it fails.
    WriteStatus commitEvents();
    void writeRow(const PendingRow& row);
    [[noreturn]] void unknownGame(GameId id) const;

    Database db_;
    ReaderLog readers_{db_};
    AnalysisStore analyses_{db_};
    ClubOutbox club_{db_};
    std::map<GameId, OpenGame> open_;
    std::deque<PendingRow> events_;       // the append or batch being committed
    std::deque<PendingRow> pending_;      // trace lines refused by the disk, oldest first
    std::deque<PendingRow> traceBuffer_;  // trace lines not yet due
    std::chrono::milliseconds traceFlushEvery_ = kTraceFlushEvery;
    int batchDepth_ = 0;
    bool clubConfigured_ = false;
};

// The sentence for a damaged log: which file, what SQLite says, and what
// to do (keep a copy; recover it with sqlite3's .recover, or start a new log).
std::string damagedLogAdvice(const std::filesystem::path& file, const std::vector<std::string>& damage);

}  // namespace vivaref::store
