// Engine values written as GAME-RECORD lines: the inverse of line_reader, so
// readLine(writeX(v)) gives v back. Lines are compact JSON without a newline,
// keys in the order GAME-RECORD shows them.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "engine/action.hpp"
#include "engine/decision.hpp"
#include "engine/rules.hpp"

namespace vivaref::record {

std::string writeSetup(const engine::RulesSpec& spec);
// Deals and actions name characters by the game's roster.
std::string writeDeal(const engine::Deal& deal, const engine::Rules& rules);
std::string writeAction(const engine::Action& action, const engine::Rules& rules);
std::string writeReshuffle(const engine::Reshuffle& reshuffle);
// Whichever of the three lines above the decision is.
std::string writeDecision(const engine::Decision& decision, const engine::Rules& rules);

// The payloads alone, for callers that embed them (a log, an API answer).
nlohmann::ordered_json setupJson(const engine::RulesSpec& spec);
nlohmann::ordered_json dealJson(const engine::Deal& deal, const engine::Rules& rules);
nlohmann::ordered_json actionJson(const engine::Action& action, const engine::Rules& rules);

}  // namespace vivaref::record
