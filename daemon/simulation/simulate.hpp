// `vivaref simulate`'s work without the command line: a whole trace checked,
// then run through a SimulationRig, and its summary.
#pragma once

#include <optional>
#include <string_view>

#include <nlohmann/json.hpp>

#include "daemon/config/castle_config.hpp"
#include "daemon/simulation/simulation_rig.hpp"
#include "daemon/trace/trace_reader.hpp"

namespace vivaref::simulation {

// The rig that replays a real castle's trace: its layout, its tags (the
// enrolled registry of the castle's edition), its sensing knobs and its scan
// interval, as `vivaref serve` on that castle takes them.
RigOptions realCastleRig(const config::CastleConfig& castle, drivers::TagRegistry tags);

struct SimulateOutcome {
    // A malformed line (form, or a reader or place the board lacks): then
    // nothing ran and nothing was written.
    std::optional<trace::TraceError> error;
    nlohmann::ordered_json summary;
};

// A whole trace read and checked (its form, and its readers and places on
// the simulated board, or on a real castle's `layout`) without running it.
trace::TraceRead checkTrace(std::string_view text);
trace::TraceRead checkTrace(std::string_view text, const drivers::BoardLayout& layout);

// Runs lines checkTrace() accepted. Never prints; store errors (StoreError) propagate.
nlohmann::ordered_json runTrace(const std::vector<trace::NumberedLine>& lines, const RigOptions& options,
                                store::GameStore* store);

// Both: checkTrace, then runTrace when the trace is well formed.
SimulateOutcome simulateTrace(std::string_view text, const RigOptions& options, store::GameStore* store);

// The summary of what a table did (a rig's, or serve's): lines consumed, virtual time, the referee's
// counters (games, accepted actions, refusals by code, results), refused host
// requests, the game in progress if any. Nothing secret.
nlohmann::ordered_json summaryJson(const table::Table& table);

}  // namespace vivaref::simulation
