#include "daemon/store/game_verifier.hpp"

#include "engine/record/replay.hpp"
#include "engine/record/result_json.hpp"

namespace vivaref::store {

GameCheck verifyGame(GameStore& log, GameId id) {
    auto summary = log.game(id);
    if (!summary)
        throw StoreError(log.file(),
                         "holds no game " + std::to_string(id.value) + "; 'vivaref games' lists them");
    const auto lines = log.recordLines(id);
    const auto result = record::replayRecord(log.exportRecord(id));
    const auto replayed = record::resultText(result);
    if (!result.value("ok", false))
        return {false, "decision " + std::to_string(result.value("line", 0)) +
                           " of its record is refused: " + result.value("error", std::string()) + " (" +
                           result.value("message", std::string()) + ")"};
    const std::string decisions = std::to_string(lines.size()) + " decisions";
    if (summary->result) {
        const auto logged = record::resultText(*summary->result);
        if (logged != replayed) return {false, "logged result " + logged + ", replay gives " + replayed};
        return {true, decisions + " replay to the logged result"};
    }
    if (summary->abandoned) return {true, decisions + " legal; abandoned, no result logged"};
    if (result.value("complete", false))
        return {true, decisions + " legal; the game is over but its end was not logged"};
    return {true, decisions + " legal; in progress"};
}

}  // namespace vivaref::store
