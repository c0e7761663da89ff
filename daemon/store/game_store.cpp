// Opening the game log and writing into it.
#include "daemon/store/game_store.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <random>
#include <stdexcept>
#include <utility>

#include <sys/stat.h>

#include "daemon/store/schema.hpp"
#include "daemon/store/stored_time.hpp"
#include "daemon/words/words.hpp"
#include "engine/record/line_reader.hpp"
#include "engine/record/line_writer.hpp"
#include "engine/record/result_json.hpp"

namespace vivaref::store {

namespace {

std::string describe(const SqliteError& e) { return std::string(e.what()); }

// The one sentence a user needs for each way opening can fail.
[[noreturn]] void throwOpenError(const std::filesystem::path& file, const SqliteError& e) {
    if (e.isCorrupt())
        throw StoreError(file, "is damaged or is not a vivaref database (" + describe(e) +
                                   "); restore it from a backup, or move it aside and a new one is made");
    if (e.isTransient())
        throw StoreError(file, "cannot be opened for writing (" + describe(e) +
                                   "); check that it and its directory are writable by this user (the "
                                   "log needs its -wal and -shm files beside it), or pass --db with "
                                   "another file");
    throw StoreError(file, "cannot be used (" + describe(e) + ")");
}

void checkWritable(const std::filesystem::path& file) {
    std::error_code ec;
    auto dir = file.parent_path();
    if (dir.empty()) dir = ".";
    if (!std::filesystem::is_directory(dir, ec))
        throw StoreError(file, "cannot be made: its directory '" + dir.string() +
                                   "' does not exist; create it, or pass --db with another file");
    if (::access(dir.c_str(), W_OK) != 0)
        throw StoreError(file, "cannot be written: its directory '" + dir.string() +
                                   "' is read-only for this user (the log needs its -wal and -shm "
                                   "files beside it); make it writable, or pass --db with another file");
    if (std::filesystem::exists(file, ec) && ::access(file.c_str(), W_OK) != 0)
        throw StoreError(file,
                         "is read-only for this user; make it writable, or pass --db with another file");
}

// The log holds every hand, seed and vote: readable by its owner only,
// whatever the umask of whoever started serve. A new file is made 0600
// before SQLite opens it (SQLite gives its -wal and -shm files the mode of
// the database file); an existing one others could read, and its -wal and
// -shm, are made 0600 again.
void keepPrivate(const std::filesystem::path& file) {
    const int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd >= 0) {
        ::close(fd);
        return;
    }
    for (const auto& path : {file, std::filesystem::path(file.string() + "-wal"),
                             std::filesystem::path(file.string() + "-shm")}) {
        struct stat st {};
        if (::stat(path.c_str(), &st) == 0 && (st.st_mode & 077) != 0 && st.st_uid == ::geteuid() &&
            ::chmod(path.c_str(), st.st_mode & 0700) != 0)
            throw StoreError(path, "can be read by other users and cannot be made private (" +
                                       std::string(std::strerror(errno)) + "); chmod 600 it");
    }
}

Database openDatabase(const std::filesystem::path& file, GameStore::Access access) {
    std::error_code ec;
    if (access == GameStore::Access::MustExist && !std::filesystem::exists(file, ec))
        throw StoreError(file, "does not exist; pass --db with the daemon's database");
    if (std::filesystem::is_directory(file, ec))
        throw StoreError(file, "is a directory; pass --db with a database file");
    checkWritable(file);
    if (access == GameStore::Access::CreateIfMissing) keepPrivate(file);
    try {
        return Database(file, access == GameStore::Access::MustExist ? Database::Mode::ReadWrite
                                                                     : Database::Mode::ReadWriteCreate);
    } catch (const SqliteError& e) {
        throwOpenError(file, e);
    }
}

// 128 bits from the system's entropy, as 32 lowercase hex digits: a game's
// name in every club, whatever table it was played at.
std::string newGameUid() {
    std::random_device entropy;
    std::string uid;
    for (int i = 0; i < 4; ++i) {
        std::array<char, 9> word{};
        std::snprintf(word.data(), word.size(), "%08x", static_cast<unsigned>(entropy()));
        uid += word.data();
    }
    return uid;
}

}  // namespace

GameStore::GameStore(const std::filesystem::path& file, Access access, Durability durability)
    : db_(openDatabase(file, access)) {
    try {
        if (db_.queryText("PRAGMA journal_mode = WAL") != "wal")
            throw StoreError(file,
                             "cannot be switched to write-ahead logging; check that its directory "
                             "is writable, or pass --db with another file");
        db_.exec(durability == Durability::Full ? "PRAGMA synchronous = FULL"
                                                : "PRAGMA synchronous = NORMAL");
        db_.exec("PRAGMA foreign_keys = ON");
        migrate(db_);
    } catch (const SqliteError& e) {
        throwOpenError(file, e);
    }
}

GameStore::~GameStore() {
    try {
        (void)flush();
    } catch (...) {
        // A destructor cannot report; the callers that care call flush() first.
    }
}

void GameStore::unknownGame(GameId id) const {
    throw StoreError(file(), "holds no game " + std::to_string(id.value) + "; 'vivaref games' lists them");
}

GameStore::OpenGame& GameStore::openGame(GameId id) {
    if (auto it = open_.find(id); it != open_.end()) return it->second;
    auto s = db_.prepare("SELECT setup FROM games WHERE id = ?");
    s.bind(1, id.value);
    if (!s.step()) unknownGame(id);
    auto read = record::readLine(s.text(0), nullptr);
    if (!read.line || !std::holds_alternative<engine::RulesSpec>(*read.line))
        throw StoreError(file(), "holds game " + std::to_string(id.value) + " with an unreadable setup line");
    const auto& spec = std::get<engine::RulesSpec>(*read.line);
    if (engine::Rules::validate(spec))
        throw StoreError(file(),
                         "holds game " + std::to_string(id.value) + " with setup rules that are not valid");
    OpenGame game;
    game.rules = std::make_shared<const engine::Rules>(spec);
    auto e = db_.prepare(
        "SELECT COALESCE(MAX(seq) + 1, 0), COALESCE(MAX(round), 0) FROM events WHERE game_id = ?");
    e.bind(1, id.value);
    e.step();
    game.nextSeq = e.integer(0);
    game.round = static_cast<int>(e.integer(1));
    auto t = db_.prepare("SELECT COALESCE(MAX(seq) + 1, 0) FROM trace WHERE game_id = ?");
    t.bind(1, id.value);
    t.step();
    game.nextTraceSeq = t.integer(0);
    return open_.emplace(id, std::move(game)).first->second;
}

GameId GameStore::createGame(const NewGame& game) {
    if (auto refusal = engine::Rules::validate(game.spec))
        throw std::invalid_argument("a game with rules that are not valid: " +
                                    words::inEnglish(refusal->message));
    auto rules = std::make_shared<const engine::Rules>(game.spec);
    if (!game.players.empty() && static_cast<int>(game.players.size()) != rules->players())
        throw std::invalid_argument("a game of " + std::to_string(rules->players()) + " players given " +
                                    std::to_string(game.players.size()) + " names");
    flush();  // what waits goes first; if it cannot, neither can the new game
    const std::string setup = record::writeSetup(game.spec);
    GameId id;
    try {
        Transaction tx(db_);
        auto g =
            db_.prepare("INSERT INTO games (started_ms, edition, setup, seed, uid) VALUES (?, ?, ?, ?, ?)");
        g.bind(1, toMs(game.at)).bind(2, engine::editionName(game.spec.edition)).bind(3, setup);
        g.bind(5, newGameUid());
        if (game.seed)
            g.bind(4, static_cast<std::int64_t>(*game.seed));
        else
            g.bindNull(4);
        g.run();
        id.value = db_.lastInsertRowid();
        auto p =
            db_.prepare("INSERT INTO players (game_id, player, seat, name, member) VALUES (?, ?, ?, ?, ?)");
        for (int i = 0; i < rules->players(); ++i) {
            const auto name = game.players.empty() ? "Player " + std::to_string(i + 1)
                                                   : game.players[static_cast<std::size_t>(i)];
            p.reset();
            p.bind(1, id.value)
                .bind(2, std::int64_t{i})
                .bind(3, std::int64_t{rules->seatOf(engine::PlayerId{static_cast<std::uint8_t>(i)}).index})
                .bind(4, name);
            const auto member = static_cast<std::size_t>(i) < game.members.size()
                                    ? game.members[static_cast<std::size_t>(i)]
                                    : std::nullopt;
            p.bind(5, member);
            p.run();
        }
        auto e = db_.prepare(
            "INSERT INTO events (game_id, seq, at_ms, round, seat, kind, payload) VALUES (?, 0, ?, 0, NULL, "
            "'setup', ?)");
        e.bind(1, id.value).bind(2, toMs(game.at)).bind(3, setup);
        e.run();
        tx.commit();
    } catch (const SqliteError& e) {
        throw StoreError(file(), "cannot record a new game (" + describe(e) +
                                     "); free some space or fix the file's permissions, then start again");
    }
    open_[id] = OpenGame{rules, 1, 0, 0};
    return id;
}

WriteStatus GameStore::appendEvent(GameId game, std::string kind, std::optional<int> seat,
                                   std::string payload, WallTime at, std::optional<int> newRound) {
    auto& g = openGame(game);
    PendingRow row;
    row.kind = PendingRow::Kind::Event;
    row.game = game;
    row.roundBefore = g.round;
    if (newRound) g.round = *newRound;
    row.seq = g.nextSeq++;
    row.atMs = toMs(at);
    row.round = g.round;
    if (seat) row.seat = *seat;
    row.what = std::move(kind);
    row.text = std::move(payload);
    return enqueue(std::move(row));
}

WriteStatus GameStore::appendDeal(GameId game, const engine::Deal& deal, WallTime at) {
    auto& g = openGame(game);
    return appendEvent(game, "deal", std::nullopt, record::writeDeal(deal, *g.rules), at, deal.round);
}

WriteStatus GameStore::appendAction(GameId game, const engine::Action& action, WallTime at) {
    auto& g = openGame(game);
    std::string kind;
    std::optional<int> seat = action.seat().index;
    switch (action.kind()) {
        case engine::ActionKind::Keep:
            kind = "keep";
            seat = std::nullopt;
            if (action.player().index < g.rules->players()) seat = g.rules->seatOf(action.player()).index;
            break;
        case engine::ActionKind::Place:
            kind = "place";
            break;
        case engine::ActionKind::Move:
            kind = "move";
            break;
        case engine::ActionKind::Vote:
            kind = "vote";
            break;
        case engine::ActionKind::Pass:
            kind = "pass";
            break;
    }
    return appendEvent(game, std::move(kind), seat, record::writeAction(action, *g.rules), at);
}

WriteStatus GameStore::appendReshuffle(GameId game, const engine::Reshuffle& reshuffle, WallTime at) {
    return appendEvent(game, "reshuffle", std::nullopt, record::writeReshuffle(reshuffle), at);
}

WriteStatus GameStore::appendUndo(GameId game, WallTime at) {
    return appendEvent(game, "undo", std::nullopt, "{}", at);
}

WriteStatus GameStore::appendRefereeEvent(GameId game, std::string_view kind, std::string_view payload,
                                          WallTime at) {
    if (isDecisionKind(kind) || kind == "undo")
        throw std::invalid_argument("a referee event named like a decision: " + std::string(kind));
    return appendEvent(game, std::string(kind), std::nullopt, std::string(payload), at);
}

WriteStatus GameStore::appendTrace(GameId game, std::int64_t tMs, std::string_view line) {
    auto& g = openGame(game);
    PendingRow row;
    row.kind = PendingRow::Kind::Trace;
    row.game = game;
    row.seq = g.nextTraceSeq++;
    row.atMs = tMs;
    row.text = std::string(line);
    traceBuffer_.push_back(std::move(row));
    if (batchDepth_ == 0 && tMs - traceBuffer_.front().atMs >= traceFlushEvery_.count()) return flush();
    return {pending_.empty(), {}, pending_.size(), {}};
}

WriteStatus GameStore::flushDue(std::int64_t nowMs) {
    if (batchDepth_ > 0 || traceBuffer_.empty() ||
        nowMs - traceBuffer_.front().atMs < traceFlushEvery_.count())
        return {};
    return flush();
}

WriteStatus GameStore::finishGame(GameId game, const nlohmann::json& result, WallTime at) {
    PendingRow row;
    row.kind = PendingRow::Kind::Finish;
    row.game = game;
    row.roundBefore = openGame(game).round;
    row.atMs = toMs(at);
    row.text = record::resultText(result);
    row.complete = result.value("complete", false);
    row.queueForClub = clubConfigured_;
    return enqueue(std::move(row));
}

WriteStatus GameStore::abandonGame(GameId game, WallTime at) {
    // The event and the game's end: both kept, or neither.
    beginBatch();
    appendEvent(game, "abandon", std::nullopt, "{}", at);
    PendingRow row;
    row.kind = PendingRow::Kind::Finish;
    row.game = game;
    row.roundBefore = openGame(game).round;
    row.atMs = toMs(at);
    row.abandoned = true;
    row.queueForClub = clubConfigured_;
    enqueue(std::move(row));
    return endBatch();
}

WriteStatus GameStore::enqueue(PendingRow row) {
    events_.push_back(std::move(row));
    if (batchDepth_ > 0) return {};
    return commitEvents();
}

WriteStatus GameStore::endBatch() {
    if (batchDepth_ > 0) --batchDepth_;
    if (batchDepth_ > 0) return {};
    return commitEvents();
}

WriteStatus GameStore::commitEvents() {
    // Not kept: the caller has not decided them. The sequence numbers and
    // the round go back to what they were before the first dropped event.
    auto drop = [&] {
        for (auto it = events_.rbegin(); it != events_.rend(); ++it) {
            auto& g = open_.at(it->game);
            if (it->kind != PendingRow::Kind::Finish) g.nextSeq = it->seq;
            g.round = it->roundBefore;
        }
        events_.clear();
    };
    try {
        auto status = flush();
        if (!status.durable) drop();
        return status;
    } catch (...) {
        drop();
        throw;
    }
}

void GameStore::writeRow(const PendingRow& row) {
    switch (row.kind) {
        case PendingRow::Kind::Event: {
            auto s = db_.prepare(
                "INSERT INTO events (game_id, seq, at_ms, round, seat, kind, payload) VALUES (?, ?, ?, ?, ?, "
                "?, ?)");
            s.bind(1, row.game.value).bind(2, row.seq).bind(3, row.atMs).bind(4, std::int64_t{row.round});
            s.bind(5, row.seat).bind(6, row.what).bind(7, row.text);
            s.run();
            break;
        }
        case PendingRow::Kind::Trace: {
            auto s = db_.prepare("INSERT INTO trace (game_id, seq, t_ms, line) VALUES (?, ?, ?, ?)");
            s.bind(1, row.game.value).bind(2, row.seq).bind(3, row.atMs).bind(4, row.text);
            s.run();
            break;
        }
        case PendingRow::Kind::Finish: {
            auto s = db_.prepare(
                "UPDATE games SET ended_ms = ?, result = ?, complete = ?, abandoned = ? WHERE id = ?");
            s.bind(1, row.atMs);
            if (row.abandoned)
                s.bindNull(2);
            else
                s.bind(2, row.text);
            s.bind(3, std::int64_t{row.complete})
                .bind(4, std::int64_t{row.abandoned})
                .bind(5, row.game.value);
            s.run();
            // In the transaction that ends the game: it is queued for the
            // club if and only if it ended (NOTES.md, "The club's outbox").
            if (row.queueForClub) {
                auto q = db_.prepare("INSERT OR IGNORE INTO club_outbox (game_id, queued_ms) VALUES (?, ?)");
                q.bind(1, row.game.value).bind(2, row.atMs);
                q.run();
            }
            break;
        }
    }
}

// The trace lines the disk refused, the buffered ones, then the events
// being committed, in one transaction: an event is never on disk without
// the trace lines before it (a caller records an input before acting on it).
WriteStatus GameStore::flush() {
    if (pending_.empty() && traceBuffer_.empty() && events_.empty()) return {};
    try {
        Transaction tx(db_);
        for (const auto& row : pending_) writeRow(row);
        for (const auto& row : traceBuffer_) writeRow(row);
        for (const auto& row : events_) writeRow(row);
        tx.commit();
        pending_.clear();
        traceBuffer_.clear();
        events_.clear();
        WriteStatus written;
        written.committed = true;
        return written;
    } catch (const SqliteError& e) {
        if (!e.isTransient()) throw StoreError(file(), "failed while writing (" + describe(e) + ")");
        // From now on they wait like any refused line, and are counted.
        for (auto& row : traceBuffer_) pending_.push_back(std::move(row));
        traceBuffer_.clear();
        return {
            false,
            "the game log '" + file().string() + "' cannot be written (" + describe(e) +
                "): free some disk space; nothing new is saved until it can" +
                (pending_.empty() ? std::string()
                                  : " (" + std::to_string(pending_.size()) + " trace lines wait in memory)"),
            pending_.size(), e.isFull() ? std::string(kDiskFullReason) : describe(e)};
    }
}

std::string GameStore::describeWaiting() const {
    struct Counts {
        std::vector<std::string> events;
        std::int64_t trace = 0;
        bool end = false;
    };
    std::map<GameId, Counts> byGame;
    for (const auto* rows : {&pending_, &traceBuffer_})
        for (const auto& row : *rows) {
            auto& c = byGame[row.game];
            if (row.kind == PendingRow::Kind::Event)
                c.events.push_back(row.what);
            else if (row.kind == PendingRow::Kind::Trace)
                ++c.trace;
            else
                c.end = true;
        }
    std::string out;
    for (const auto& [game, c] : byGame) {
        std::string parts;
        auto add = [&](const std::string& part) {
            if (!parts.empty()) parts += ", ";
            parts += part;
        };
        if (!c.events.empty()) {
            std::string kinds;
            for (const auto& k : c.events) {
                if (!kinds.empty()) kinds += ", ";
                kinds += k;
            }
            add(std::to_string(c.events.size()) + (c.events.size() == 1 ? " event (" : " events (") + kinds +
                ")");
        }
        if (c.trace > 0) add(std::to_string(c.trace) + (c.trace == 1 ? " trace line" : " trace lines"));
        if (c.end) add("its end");
        if (!out.empty()) out += "; ";
        out += "game ";
        out += std::to_string(game.value);
        out += ": ";
        out += parts;
    }
    return out;
}

void GameStore::limitPagesForTesting(std::int64_t pages) {
    db_.queryInteger("PRAGMA max_page_count = " + std::to_string(pages));
}

std::string GameStore::integrityCheck() { return db_.queryText("PRAGMA integrity_check"); }

std::vector<std::string> GameStore::damage(Check check, int limit) {
    std::vector<std::string> lines;
    try {
        auto s = db_.prepare(
            std::string(check == Check::Quick ? "PRAGMA quick_check(" : "PRAGMA integrity_check(") +
            std::to_string(std::max(limit, 1)) + ")");
        while (s.step()) lines.push_back(s.text(0));
    } catch (const SqliteError& e) {
        return {describe(e)};
    }
    if (lines.size() == 1 && lines.front() == "ok") lines.clear();
    return lines;
}

std::string damagedLogAdvice(const std::filesystem::path& file, const std::vector<std::string>& damage) {
    std::string said;
    for (const auto& line : damage) said += (said.empty() ? "" : "; ") + line;
    const std::string name = file.string();
    return "the game log " + name + " is damaged (SQLite's check says: " + said +
           "). Stop the daemon and keep a copy of the file first; then either recover what can be read "
           "into a new file (sqlite3 '" +
           name + "' .recover | sqlite3 '" + name +
           ".recovered', check it with 'vivaref verify --all --db' on that file, and put it in the log's "
           "place), or move the file aside: serve then starts a new, empty log";
}

}  // namespace vivaref::store
