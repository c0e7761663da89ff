// What replayRecord must do with any text at all, valid record or noise
// (GAME-RECORD, "Result"): answer, never throw, answer the same twice, and
// answer with a result object. The fuzzer and the mutation test check this.
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace vivaref::fuzz {

// Empty when `result` has the shape of a GAME-RECORD result: an object with
// a boolean "ok"; with "ok": false an integer "line", a documented "error"
// code and a "message"; with "ok": true a boolean "complete" and "to_act"
// exactly when the game is incomplete. Otherwise, what is wrong.
std::string resultProblem(const nlohmann::json& result);

// Replays `text` twice and returns what is wrong with the answers (see
// resultProblem; also: an exception, two different answers, an answer that
// cannot be printed as UTF-8 JSON), or an empty string.
std::string replayProblem(std::string_view text);

}  // namespace vivaref::fuzz
