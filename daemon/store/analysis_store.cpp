// The analyses of finished games in the game log (schema 2, `analyses`).
#include "daemon/store/analysis_store.hpp"

#include <string>

#include "daemon/store/store_error.hpp"
#include "daemon/store/stored_time.hpp"

namespace vivaref::store {

WriteStatus AnalysisStore::save(GameId game, std::string_view settings, std::string_view result,
                                WallTime at) {
    auto finished =
        db_.prepare("SELECT ended_ms IS NOT NULL OR complete != 0 OR abandoned != 0 FROM games WHERE id = ?");
    finished.bind(1, game.value);
    if (!finished.step())
        throw StoreError(db_.file(),
                         "holds no game " + std::to_string(game.value) + "; 'vivaref games' lists them");
    // The analysis knows every card: a game in progress is never analysed.
    if (finished.integer(0) == 0)
        return {false,
                "game " + std::to_string(game.value) + " is still being played: its analysis is not kept", 0,
                "game in progress"};
    try {
        Transaction tx(db_);
        auto s = db_.prepare(
            "INSERT INTO analyses (game_id, made_ms, settings, result) VALUES (?, ?, ?, ?) "
            "ON CONFLICT(game_id) DO UPDATE SET made_ms = excluded.made_ms, settings = excluded.settings, "
            "result = excluded.result");
        s.bind(1, game.value).bind(2, toMs(at)).bind(3, settings).bind(4, result);
        s.run();
        tx.commit();
        return {true, {}, 0, {}};
    } catch (const SqliteError& e) {
        if (!e.isTransient())
            throw StoreError(db_.file(), "failed while writing an analysis (" + std::string(e.what()) + ")");
        return {false, "the analysis of game " + std::to_string(game.value) + " was not saved: " + e.what(),
                0, e.what()};
    }
}

std::optional<StoredAnalysis> AnalysisStore::find(GameId id) {
    auto s = db_.prepare("SELECT made_ms, settings, result FROM analyses WHERE game_id = ?");
    s.bind(1, id.value);
    if (!s.step()) return std::nullopt;
    return StoredAnalysis{id, WallTime(std::chrono::milliseconds(s.integer(0))), s.text(1), s.text(2)};
}

std::vector<GameId> AnalysisStore::awaiting() {
    std::vector<GameId> out;
    auto s = db_.prepare(
        "SELECT id FROM games WHERE (ended_ms IS NOT NULL OR complete != 0 OR abandoned != 0) "
        "AND id NOT IN (SELECT game_id FROM analyses) ORDER BY id DESC");
    while (s.step()) out.push_back(GameId{s.integer(0)});
    return out;
}

}  // namespace vivaref::store
