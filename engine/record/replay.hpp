// Replaying a GAME-RECORD file through the engine: the whole of
// `vivaref replay`'s logic, without the file and the printing.
#pragma once

#include <string_view>

#include <nlohmann/json.hpp>

#include "engine/message.hpp"

namespace vivaref::record {

// Replays a record (the file's whole text) and returns the result object of
// GAME-RECORD ("ok", "rounds", "totals", "winners", "complete", "to_act", or
// "ok": false with "line", "error", "message": the refusal in `words`).
// Never throws, never hangs. The default words are engine::describe's, for
// tests and fuzzers: what people read passes a language's (daemon/words).
nlohmann::json replayRecord(std::string_view text, const engine::MessageText& words = engine::describe);

}  // namespace vivaref::record
