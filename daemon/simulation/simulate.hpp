// `vivaref simulate`'s work without the command line: a whole trace checked,
// then run through a SimulationRig, and its summary.
#pragma once

#include <optional>
#include <string_view>

#include <nlohmann/json.hpp>

#include "daemon/simulation/simulation_rig.hpp"
#include "daemon/trace/trace_reader.hpp"

namespace vivaref::simulation {

struct SimulateOutcome {
    // A malformed line (form, or a reader or place the board lacks): then
    // nothing ran and nothing was written.
    std::optional<trace::TraceError> error;
    nlohmann::ordered_json summary;
};

// Never prints. Store errors (StoreError) propagate.
SimulateOutcome simulateTrace(std::string_view text, const RigOptions& options, store::GameStore* store);

// The summary of what a rig did: lines consumed, virtual time, the referee's
// counters (games, accepted actions, refusals by code, results), refused host
// requests, the game in progress if any. Nothing secret.
nlohmann::ordered_json summaryJson(const SimulationRig& rig);

}  // namespace vivaref::simulation
