#include "daemon/simulation/simulate.hpp"

#include "daemon/castle/real_castle.hpp"
#include "daemon/table/trace_recorder.hpp"
#include "daemon/trace/trace_check.hpp"
#include "engine/record/result_json.hpp"

namespace vivaref::simulation {

using nlohmann::ordered_json;

RigOptions realCastleRig(const config::CastleConfig& castle, drivers::TagRegistry tags) {
    RigOptions options;
    options.layout = castle::realBoardLayout(castle);
    options.registry = std::move(tags);
    options.sensing = castle.sensing;
    options.board.scanInterval = castle.scanInterval;
    // A seat votes with its station where the castle has one, else by phone,
    // as `serve` on that castle decides (issue 35): its phones' votes replay.
    options.referee.stationSeats = castle::stationSeats(castle);
    return options;
}

trace::TraceRead checkTrace(std::string_view text) {
    return checkTrace(text, drivers::standardBoardLayout());
}

trace::TraceRead checkTrace(std::string_view text, const drivers::BoardLayout& layout) {
    trace::TraceRead read = trace::readTrace(text);
    if (read.error) return read;
    // Every line is checked against the board before the first one acts, so a
    // bad trace runs nothing and writes nothing.
    for (const auto& [number, line] : read.lines)
        if (auto problem = trace::lineProblem(layout, line)) {
            read.error = trace::TraceError{number, *problem};
            read.lines.clear();
            break;
        }
    return read;
}

ordered_json runTrace(const std::vector<trace::NumberedLine>& lines, const RigOptions& options,
                      store::GameStore* store) {
    SimulationRig rig(options, store);
    std::optional<table::TraceRecorder> recorder;
    if (store) {
        recorder.emplace(*store, rig.layout(), table::RecorderOptions{options.sensing});
        rig.attach(*recorder);
    }
    for (const auto& numbered : lines) (void)rig.consume(numbered.line);
    rig.finish();
    return summaryJson(rig.table());
}

SimulateOutcome simulateTrace(std::string_view text, const RigOptions& options, store::GameStore* store) {
    SimulateOutcome outcome;
    trace::TraceRead read = checkTrace(text);
    if (read.error)
        outcome.error = read.error;
    else
        outcome.summary = runTrace(read.lines, options, store);
    return outcome;
}

ordered_json summaryJson(const table::Table& table) {
    const auto& referee = table.referee();
    const auto& c = referee.counters();
    ordered_json out;
    out["ok"] = true;
    out["trace_lines"] = table.counters().linesConsumed;
    out["virtual_ms"] = table.now().count();
    out["games"] = table.counters().games;
    out["games_started"] = c.gamesStarted;
    out["games_finished"] = c.gamesFinished;
    out["games_abandoned"] = c.gamesAbandoned;
    out["actions_accepted"] = c.actionsAccepted;
    out["automatic_passes"] = c.automaticPasses;
    out["undos"] = c.undos;
    out["refusals"] = c.refusals;
    out["private_refusals"] = c.privateRefusals;
    out["host_refusals"] = table.counters().hostRefusals;
    out["own_chance"] = table.counters().ownChance;
    ordered_json results = ordered_json::array();
    for (const auto& r : c.results) results.push_back(ordered_json::parse(record::resultText(r)));
    out["results"] = std::move(results);
    // The game still on the table when the trace ended (playing or paused), if any.
    const auto status = referee.publicStatus().value("state", std::string());
    if (const auto* state = referee.state(); state && (status == "playing" || status == "paused")) {
        out["in_progress"] = ordered_json::parse(record::resultText(record::resultJson(*state)));
        out["in_progress"]["state"] = status;
    }
    const auto& log = referee.logHealth();
    if (!log.durable) out["log_problem"] = log.problem;
    return out;
}

}  // namespace vivaref::simulation
