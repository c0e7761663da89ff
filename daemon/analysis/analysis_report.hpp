// A finished game's analysis (engine/players/analysis.hpp) as the daemon
// keeps and shows it: the game read from its record, the analysis as one
// JSON object in the table's words (what `vivaref analyse --json` prints,
// the game log keeps and GET /api/games/ID/analysis answers), and the check
// that a stored one still makes sense before anything reads it.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "daemon/store/game_store.hpp"
#include "engine/players/analysis.hpp"

namespace vivaref::analysis {

// The JSON's format: a stored analysis of another format is made again.
constexpr int kAnalysisFormat = 1;

struct AnalysedGame {
    std::shared_ptr<const engine::Rules> rules;
    std::vector<engine::Decision> decisions;
    std::vector<std::string> names;  // by player; empty: "Player N"
    std::vector<int> botSeats;       // the seats a bot of the referee's played (the log's "bots" event)
};

// A record's lines (setup first) as the engine's decisions; nullopt with
// `why` naming the line that cannot be read.
std::optional<AnalysedGame> readGame(const std::vector<std::string>& lines, std::string& why);
// A game of the log, with its players' names. The caller has checked that
// the game exists and is finished.
std::optional<AnalysedGame> readLoggedGame(store::GameStore& log, const store::GameSummary& game,
                                           std::string& why);

bool isFinished(const store::GameSummary& game);

// {"rollouts", "iterations", "seed", "worth_telling"}
nlohmann::json settingsJson(const engine::players::AnalysisSettings& settings, std::uint64_t seed);

// {"format", "game", "players", "players_says", "seats", "bots", "settings",
// "before", "decisions", "swings"}: each decision with its words ("text",
// and "says", the same as a message), the
// estimate after it, its swing and, for a player's choice, the search
// player's "review" ("bot": true when a bot's seat chose); "swings" the
// three decisions (numbered from 1) that swung the game most. `what` names
// the game ("game 12", a file).
nlohmann::json analysisJson(const AnalysedGame& game, const engine::players::GameAnalysis& analysis,
                            const engine::players::AnalysisSettings& settings, std::uint64_t seed,
                            const std::string& what);

// What is wrong with an analysis read back (a JSON text from the log): the
// first problem in a sentence, or nullopt when every part the pages and
// the command read is there, of the right kind and in range.
std::optional<std::string> analysisProblem(const nlohmann::json& analysis);

}  // namespace vivaref::analysis
