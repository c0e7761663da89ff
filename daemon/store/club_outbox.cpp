#include "daemon/store/club_outbox.hpp"

#include "daemon/store/stored_time.hpp"

namespace vivaref::store {

std::vector<OutboxEntry> ClubOutbox::waiting() {
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

OutboxSummary ClubOutbox::summary() {
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

void ClubOutbox::markPushed(GameId game, WallTime at) {
    auto s = db_.prepare(
        "UPDATE club_outbox SET pushed_ms = ?, last_error = NULL, permanent = 0 WHERE game_id = ? AND "
        "pushed_ms IS NULL");
    s.bind(1, toMs(at)).bind(2, game.value);
    s.run();
}

void ClubOutbox::recordFailure(GameId game, std::string_view error, bool permanent, WallTime at) {
    auto s = db_.prepare(
        "UPDATE club_outbox SET attempts = attempts + 1, last_attempt_ms = ?, last_error = ?, permanent = ? "
        "WHERE game_id = ? AND pushed_ms IS NULL");
    s.bind(1, toMs(at)).bind(2, error).bind(3, std::int64_t{permanent}).bind(4, game.value);
    s.run();
}

std::vector<ClubMember> ClubOutbox::members() {
    std::vector<ClubMember> out;
    auto s = db_.prepare("SELECT id, name FROM club_members ORDER BY name, id");
    while (s.step()) out.push_back({s.integer(0), s.text(1)});
    return out;
}

std::optional<WallTime> ClubOutbox::membersFetchedAt() {
    auto s = db_.prepare("SELECT MAX(fetched_ms) FROM club_members");
    if (s.step())
        if (auto at = s.optionalInteger(0)) return fromMs(*at);
    return std::nullopt;
}

void ClubOutbox::replaceMembers(const std::vector<ClubMember>& members, WallTime at) {
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
