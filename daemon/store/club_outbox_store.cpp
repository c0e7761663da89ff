// The club's side of the game log (schema 3): the outbox of ended games,
// the upload built from a game, and the members cache.
#include <algorithm>
#include <string>

#include "daemon/store/game_store.hpp"
#include "daemon/store/stored_time.hpp"

namespace vivaref::store {

namespace {

// The seats the referee played itself: its "bots" event, {"seats": [{"seat": 1, ...}]}.
std::vector<bool> botSeats(const std::vector<StoredEvent>& events, int seats) {
    std::vector<bool> bot(static_cast<std::size_t>(seats), false);
    for (const auto& e : events) {
        if (e.kind != "bots") continue;
        const auto payload = nlohmann::json::parse(e.payload, nullptr, false);
        if (!payload.is_object() || !payload.contains("seats") || !payload["seats"].is_array()) continue;
        for (const auto& s : payload["seats"]) {
            if (!s.is_object() || !s.contains("seat") || !s["seat"].is_number_integer()) continue;
            const auto seat = s["seat"].get<std::int64_t>();
            if (seat >= 0 && seat < seats) bot[static_cast<std::size_t>(seat)] = true;
        }
    }
    return bot;
}

}  // namespace

std::vector<OutboxEntry> GameStore::outbox() {
    std::vector<OutboxEntry> out;
    auto s = db_.prepare(
        "SELECT o.game_id, g.uid, o.queued_ms, o.attempts, o.last_attempt_ms, o.last_error, o.permanent "
        "FROM club_outbox o JOIN games g ON g.id = o.game_id WHERE o.pushed_ms IS NULL "
        "ORDER BY o.queued_ms, o.game_id");
    while (s.step()) {
        OutboxEntry e;
        e.game.value = s.integer(0);
        e.uid = s.text(1);
        e.queued = fromMs(s.integer(2));
        e.attempts = s.integer(3);
        if (auto at = s.optionalInteger(4)) e.lastAttempt = fromMs(*at);
        e.lastError = s.text(5);
        e.permanent = s.integer(6) != 0;
        out.push_back(std::move(e));
    }
    return out;
}

OutboxSummary GameStore::outboxSummary() {
    OutboxSummary out;
    out.waiting = db_.queryInteger("SELECT COUNT(*) FROM club_outbox WHERE pushed_ms IS NULL");
    out.pushed = db_.queryInteger("SELECT COUNT(*) FROM club_outbox WHERE pushed_ms IS NOT NULL");
    auto last = db_.prepare(
        "SELECT last_attempt_ms, last_error FROM club_outbox WHERE pushed_ms IS NULL AND last_attempt_ms IS "
        "NOT NULL ORDER BY last_attempt_ms DESC LIMIT 1");
    if (last.step()) {
        out.lastAttempt = fromMs(last.integer(0));
        out.lastError = last.text(1);
    }
    auto pushed = db_.prepare("SELECT MAX(pushed_ms) FROM club_outbox");
    if (pushed.step())
        if (auto at = pushed.optionalInteger(0)) out.lastPushed = fromMs(*at);
    return out;
}

void GameStore::markPushed(GameId game, WallTime at) {
    auto s = db_.prepare(
        "UPDATE club_outbox SET pushed_ms = ?, last_error = NULL, permanent = 0 WHERE game_id = ? AND "
        "pushed_ms IS NULL");
    s.bind(1, toMs(at)).bind(2, game.value);
    s.run();
}

void GameStore::recordPushFailure(GameId game, std::string_view error, bool permanent, WallTime at) {
    auto s = db_.prepare(
        "UPDATE club_outbox SET attempts = attempts + 1, last_attempt_ms = ?, last_error = ?, permanent = ? "
        "WHERE game_id = ? AND pushed_ms IS NULL");
    s.bind(1, toMs(at)).bind(2, error).bind(3, std::int64_t{permanent}).bind(4, game.value);
    s.run();
}

club::GameUpload GameStore::clubUpload(GameId id, std::string_view table) {
    const auto summary = game(id);
    if (!summary) unknownGame(id);
    if (!summary->ended)
        throw StoreError(file(), "holds game " + std::to_string(id.value) +
                                     " still in progress: nothing of it leaves the table before it ends");
    club::GameUpload up;
    up.uid = summary->uid;
    up.table = std::string(table);
    up.localId = id.value;
    up.startedMs = toMs(summary->started);
    up.endedMs = toMs(*summary->ended);
    up.edition = summary->edition;
    up.complete = summary->complete;
    up.abandoned = summary->abandoned;
    const auto gameEvents = events(id);  // one read for the record and the bots
    up.record = recordText(gameEvents);
    const nlohmann::json* result = nullptr;
    if (!summary->abandoned && summary->result && summary->result->is_object()) {
        result = &*summary->result;
        up.result = summary->result->dump();
    }
    int seats = 0;
    for (const auto& p : summary->players) seats = std::max(seats, p.seat + 1);
    const auto bots = botSeats(gameEvents, seats);
    for (const auto& p : summary->players) {
        club::SeatUpload seat;
        seat.seat = p.seat;
        seat.player = p.player;
        seat.name = p.name;
        seat.bot = p.seat >= 0 && static_cast<std::size_t>(p.seat) < bots.size() &&
                   bots[static_cast<std::size_t>(p.seat)];
        if (!seat.bot) seat.member = p.member;
        if (result) {
            const auto& totals = result->value("totals", nlohmann::json::array());
            if (totals.is_array() && static_cast<std::size_t>(p.player) < totals.size() &&
                totals[static_cast<std::size_t>(p.player)].is_number_integer())
                seat.score = totals[static_cast<std::size_t>(p.player)].get<int>();
            const auto& winners = result->value("winners", nlohmann::json::array());
            if (winners.is_array())
                for (const auto& w : winners)
                    if (w.is_number_integer() && w.get<int>() == p.player) seat.winner = true;
        }
        up.seats.push_back(std::move(seat));
    }
    return up;
}

std::vector<club::ClubMember> GameStore::cachedMembers() {
    std::vector<club::ClubMember> out;
    auto s = db_.prepare("SELECT id, name FROM club_members ORDER BY name, id");
    while (s.step()) out.push_back({s.integer(0), s.text(1)});
    return out;
}

std::optional<WallTime> GameStore::membersFetchedAt() {
    auto s = db_.prepare("SELECT MAX(fetched_ms) FROM club_members");
    if (s.step())
        if (auto at = s.optionalInteger(0)) return fromMs(*at);
    return std::nullopt;
}

void GameStore::replaceMembers(const std::vector<club::ClubMember>& members, WallTime at) {
    Transaction tx(db_);
    db_.exec("DELETE FROM club_members");
    auto s = db_.prepare("INSERT OR REPLACE INTO club_members (id, name, fetched_ms) VALUES (?, ?, ?)");
    for (const auto& m : members) {
        s.reset();
        s.bind(1, m.id).bind(2, m.name).bind(3, toMs(at));
        s.run();
    }
    tx.commit();
}

}  // namespace vivaref::store
