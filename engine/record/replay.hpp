// Replaying a GAME-RECORD file through the engine: the whole of
// `vivaref replay`'s logic, without the file and the printing.
#pragma once

#include <string_view>

#include <nlohmann/json.hpp>

namespace vivaref::record {

// Replays a record (the file's whole text) and returns the result object of
// GAME-RECORD ("ok", "rounds", "totals", "winners", "complete", "to_act", or
// "ok": false with "line", "error", "message"). Never throws, never hangs.
nlohmann::json replayRecord(std::string_view text);

}  // namespace vivaref::record
