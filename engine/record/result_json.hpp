// GAME-RECORD's result object: built from a state (or a refusal at a line),
// and printed with its keys in the order GAME-RECORD shows them, so that the
// text is the same on every run and can be compared byte for byte.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "engine/refusal.hpp"
#include "engine/state.hpp"

namespace vivaref::record {

// "ok": true with the finished rounds, totals, winners, "complete", and
// "to_act" while the game is incomplete ("emissary_total" with the Emissary).
nlohmann::json resultJson(const engine::State& state);
// "ok": false at line `line` (1-based, blank lines counted); "message" is
// the refusal in `words`.
nlohmann::json failureJson(int line, const engine::Refusal& refusal, const engine::MessageText& words);

// One line of compact JSON, without a newline; known keys come first in
// GAME-RECORD's order, any others after them in sorted order.
std::string resultText(const nlohmann::json& result);

}  // namespace vivaref::record
