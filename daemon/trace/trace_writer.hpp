// Trace lines written as REFEREE-TRACE text: compact JSON, one object a
// line, `t` first and then the input, keys in the order the spec shows them
// (host payloads in GAME-RECORD's order). readTrace(writeTraceLine(x))
// gives x back.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "daemon/trace/trace_line.hpp"

namespace vivaref::trace {

nlohmann::ordered_json traceLineJson(const TraceLine& line);
// One line, without its newline.
std::string writeTraceLine(const TraceLine& line);
// Every line, each followed by a newline.
std::string writeTrace(const std::vector<TraceLine>& lines);

// A GAME-RECORD payload (setup, deal, keep, reshuffle) with its keys in the
// order GAME-RECORD shows them, any others after them, sorted.
nlohmann::ordered_json recordOrdered(const nlohmann::json& payload);

}  // namespace vivaref::trace
