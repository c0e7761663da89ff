// The analyses of finished games in the game log (schema 2, `analyses`):
// JSON texts, read back as they were written; whether they still make sense
// is the reader's question (daemon/analysis/analysis_report.hpp). It shares
// the game log's connection (GameStore::analyses()).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "daemon/store/decision_log.hpp"
#include "daemon/store/sqlite.hpp"

namespace vivaref::store {

struct StoredAnalysis {
    GameId game;
    WallTime madeAt;
    std::string settings;  // a JSON object's text
    std::string result;    // a JSON object's text
};

class AnalysisStore {
public:
    explicit AnalysisStore(Database& db) : db_(db) {}

    // The analysis of `game`, replacing any earlier one. Only a finished
    // game (ended, complete or abandoned) is analysed: for another, nothing
    // is written and the status says why. A full disk is a status too (the
    // analysis can be made again; it is not kept in memory). Throws
    // StoreError for a game the log does not have.
    WriteStatus save(GameId game, std::string_view settings, std::string_view result, WallTime at);
    std::optional<StoredAnalysis> find(GameId game);
    // Finished games (ended, complete or abandoned) with no analysis yet,
    // newest first.
    std::vector<GameId> awaiting();

private:
    Database& db_;
};

}  // namespace vivaref::store
