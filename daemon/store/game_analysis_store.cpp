// The analyses of finished games in the game log (schema 2, `analyses`).
#include <string>

#include "daemon/store/game_store.hpp"
#include "daemon/store/stored_time.hpp"

namespace vivaref::store {

namespace {

bool finished(const GameSummary& g) { return g.ended.has_value() || g.complete || g.abandoned; }

}  // namespace

WriteStatus GameStore::saveAnalysis(GameId game, std::string_view settings, std::string_view result,
                                    WallTime at) {
    const auto summary = this->game(game);
    if (!summary) unknownGame(game);
    // The analysis knows every card: a game in progress is never analysed.
    if (!finished(*summary))
        return {false,
                "game " + std::to_string(game.value) + " is still being played: its analysis is not kept",
                pending_.size(), "game in progress"};
    try {
        Transaction tx(db_);
        auto s = db_.prepare(
            "INSERT INTO analyses (game_id, made_ms, settings, result) VALUES (?, ?, ?, ?) "
            "ON CONFLICT(game_id) DO UPDATE SET made_ms = excluded.made_ms, settings = excluded.settings, "
            "result = excluded.result");
        s.bind(1, game.value).bind(2, toMs(at)).bind(3, settings).bind(4, result);
        s.run();
        tx.commit();
        return {true, {}, pending_.size(), {}};
    } catch (const SqliteError& e) {
        if (!e.isTransient())
            throw StoreError(file(), "failed while writing an analysis (" + std::string(e.what()) + ")");
        return {false, "the analysis of game " + std::to_string(game.value) + " was not saved: " + e.what(),
                pending_.size(), e.what()};
    }
}

std::optional<StoredAnalysis> GameStore::analysis(GameId id) {
    auto s = db_.prepare("SELECT made_ms, settings, result FROM analyses WHERE game_id = ?");
    s.bind(1, id.value);
    if (!s.step()) return std::nullopt;
    return StoredAnalysis{id, WallTime(std::chrono::milliseconds(s.integer(0))), s.text(1), s.text(2)};
}

std::vector<GameId> GameStore::gamesAwaitingAnalysis() {
    std::vector<GameId> out;
    auto s = db_.prepare(
        "SELECT id FROM games WHERE (ended_ms IS NOT NULL OR complete != 0 OR abandoned != 0) "
        "AND id NOT IN (SELECT game_id FROM analyses) ORDER BY id DESC");
    while (s.step()) out.push_back(GameId{s.integer(0)});
    return out;
}

}  // namespace vivaref::store
