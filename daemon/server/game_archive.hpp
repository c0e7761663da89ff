// The game log as the public API shows it (GET /api/games, /api/games/ID).
// A finished game (complete or abandoned) is shown whole, like `vivaref
// show`: its events and record hold the hands, which are no secret once the
// game is over. A game still in progress shows its summary only, and no
// game ever shows the referee's seed (from it and the setup every deal of a
// game in progress could be worked out).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "daemon/server/archive_cache.hpp"
#include "daemon/store/game_store.hpp"

namespace vivaref::server {

// [{"id", "startedAt", "endedAt", "edition", "setup", "players", "status", "result"}, ...]
nlohmann::json gamesJson(store::GameStore& store);
// The summary, and for a finished game "events", "record" and "timeline"
// (after each record line: {"line", "view"}, the engine's public view;
// "timelineError" when a line does not replay); nullopt when the log has no such game.
std::optional<nlohmann::json> gameJson(store::GameStore& store, store::GameId id);
// A finished game's JSON from its GAME-RECORD text (the club's league keeps
// no events): `summary` (shaped as a gamesJson item) with "record",
// "timeline", "score_breakdown" (and "timelineError") added as gameJson adds
// them; `names`: each player's, by player number (for the breakdown).
nlohmann::json archiveFromRecord(nlohmann::json summary, const std::string& recordText,
                                 const std::vector<std::string>& names);
// gameJson as the API's text; a finished game's is built once and then
// found in `cache` (archive_cache.hpp).
std::optional<std::string> gameText(store::GameStore& store, store::GameId id, ArchiveCache& cache);

}  // namespace vivaref::server
