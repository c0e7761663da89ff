// Reading the game log back: the lists and records the commands print.
#include <string>

#include "daemon/store/game_store.hpp"
#include "daemon/store/stored_time.hpp"

namespace vivaref::store {

namespace {

constexpr std::string_view kSummaryColumns =
    "SELECT id, started_ms, ended_ms, edition, setup, seed, result, complete, abandoned, uid FROM games";

GameSummary readSummary(Statement& s) {
    GameSummary g;
    g.id.value = s.integer(0);
    g.started = fromMs(s.integer(1));
    if (auto e = s.optionalInteger(2)) g.ended = fromMs(*e);
    g.edition = s.text(3);
    g.setupLine = s.text(4);
    if (auto seed = s.optionalInteger(5)) g.seed = static_cast<std::uint64_t>(*seed);
    if (!s.isNull(6)) g.result = nlohmann::json::parse(s.text(6), nullptr, false);
    g.complete = s.integer(7) != 0;
    g.abandoned = s.integer(8) != 0;
    g.uid = s.text(9);
    return g;
}

}  // namespace

std::vector<GameSummary> GameStore::games() {
    std::vector<GameSummary> out;
    auto s = db_.prepare(std::string(kSummaryColumns) + " ORDER BY id");
    while (s.step()) out.push_back(readSummary(s));
    auto p = db_.prepare("SELECT game_id, player, seat, name, member FROM players ORDER BY game_id, player");
    std::size_t i = 0;
    while (p.step()) {
        const std::int64_t id = p.integer(0);
        while (i < out.size() && out[i].id.value < id) ++i;
        if (i < out.size() && out[i].id.value == id)
            out[i].players.push_back({static_cast<int>(p.integer(1)), static_cast<int>(p.integer(2)),
                                      p.text(3), p.optionalInteger(4)});
    }
    return out;
}

std::optional<GameSummary> GameStore::game(GameId id) {
    auto s = db_.prepare(std::string(kSummaryColumns) + " WHERE id = ?");
    s.bind(1, id.value);
    if (!s.step()) return std::nullopt;
    GameSummary g = readSummary(s);
    auto p = db_.prepare("SELECT player, seat, name, member FROM players WHERE game_id = ? ORDER BY player");
    p.bind(1, id.value);
    while (p.step())
        g.players.push_back({static_cast<int>(p.integer(0)), static_cast<int>(p.integer(1)), p.text(2),
                             p.optionalInteger(3)});
    return g;
}

std::vector<StoredEvent> GameStore::events(GameId id) {
    if (!game(id)) unknownGame(id);
    std::vector<StoredEvent> out;
    auto s = db_.prepare(
        "SELECT seq, at_ms, round, seat, kind, payload FROM events WHERE game_id = ? ORDER BY seq");
    s.bind(1, id.value);
    while (s.step()) {
        StoredEvent e;
        e.seq = s.integer(0);
        e.at = fromMs(s.integer(1));
        e.round = static_cast<int>(s.integer(2));
        if (auto seat = s.optionalInteger(3)) e.seat = static_cast<int>(*seat);
        e.kind = s.text(4);
        e.payload = s.text(5);
        out.push_back(std::move(e));
    }
    return out;
}

namespace {

// The decision lines still in effect: undos applied, the setup line kept.
std::vector<std::string> linesInEffect(const std::vector<StoredEvent>& events) {
    std::vector<std::string> lines;
    for (const auto& e : events) {
        if (isDecisionKind(e.kind))
            lines.push_back(e.payload);
        else if (e.kind == "undo" && lines.size() > 1)  // the setup line stays
            lines.pop_back();
    }
    return lines;
}

}  // namespace

std::vector<std::string> GameStore::recordLines(GameId id) { return linesInEffect(events(id)); }

std::string GameStore::recordText(const std::vector<StoredEvent>& events) {
    std::string text;
    for (const auto& line : linesInEffect(events)) {
        text += line;
        text += '\n';
    }
    return text;
}

std::string GameStore::exportRecord(GameId id) { return recordText(events(id)); }

std::vector<std::string> GameStore::traceLines(GameId id) {
    if (!game(id)) unknownGame(id);
    std::vector<std::string> out;
    auto s = db_.prepare("SELECT line FROM trace WHERE game_id = ? ORDER BY seq");
    s.bind(1, id.value);
    while (s.step()) out.push_back(s.text(0));
    for (const auto* rows : {&pending_, &traceBuffer_})
        for (const auto& row : *rows)
            if (row.kind == PendingRow::Kind::Trace && row.game == id) out.push_back(row.text);
    return out;
}

std::vector<GameId> GameStore::unfinishedGames() {
    std::vector<GameId> out;
    auto s = db_.prepare("SELECT id FROM games WHERE ended_ms IS NULL ORDER BY id");
    while (s.step()) out.push_back(GameId{s.integer(0)});
    return out;
}

}  // namespace vivaref::store
