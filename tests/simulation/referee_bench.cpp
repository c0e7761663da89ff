// The referee's latency for a completed move: from the sensing update that
// holds the change entering the referee to its LED decision, including the
// durable write of the action to the game log (synchronous=FULL), over
// random games' table scripts on the simulated castle until MOVES
// placements and moves were accepted. Prints p50, p99 and the worst; not a
// test. Target: p99 <= 5 ms.
//
// Usage: referee_bench [MOVES [SEED [DIR [TRACE_MS]]]]   (the log is written
// in DIR, default $TMPDIR; /dev/shm shows the referee's own cost without the
// disk; TRACE_MS: how long trace lines may wait in memory, default the
// store's, 0 commits each on its own as before they were buffered). The
// machine's load average is printed beside the figures.
// A baseline first: the same log's durable appends alone, so the figures
// can be split into the disk's share and the referee's.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "daemon/table/trace_recorder.hpp"
#include "daemon/trace/table_script.hpp"
#include "daemon/trace/trace_writer.hpp"
#include "tests/simulation/load_average.hpp"
#include "tests/simulation/sim_helpers.hpp"

using namespace vivaref;
using vivaref::test::loadAverage;

namespace {

double percentile(std::vector<double> v, double p) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    return v[std::min(v.size() - 1, static_cast<std::size_t>(p * static_cast<double>(v.size())))];
}

void print(const char* what, const std::vector<double>& us) {
    std::printf("  %-52s p50 %6.0f us  p99 %6.0f us  max %7.0f us\n", what, percentile(us, 0.50),
                percentile(us, 0.99), percentile(us, 1.0));
}

}  // namespace

int main(int argc, char** argv) {
    const int wanted = argc > 1 ? std::max(1, std::atoi(argv[1])) : 10'000;
    const std::uint64_t seed = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 1;
    simtest::TempDir dir(argc > 3 ? argv[3] : "");
    const auto traceMs =
        argc > 4 ? std::chrono::milliseconds(std::atoll(argv[4])) : store::GameStore::kTraceFlushEvery;
    store::GameStore log(dir / "bench.sqlite", store::GameStore::Access::CreateIfMissing,
                         store::Durability::Full);
    log.setTraceFlushEvery(traceMs);
    const std::string loadBefore = loadAverage();

    // The disk alone: durable appends to the same log.
    std::vector<double> appendUs;
    {
        store::NewGame game;
        game.spec = simtest::gameFamilies()[1].spec;
        const auto id = log.createGame(game);
        for (int i = 0; i < 500; ++i) {
            const auto start = std::chrono::steady_clock::now();
            (void)log.appendRefereeEvent(id, "bench", "{}", store::WallTime{});
            appendUs.push_back(
                std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count());
        }
    }

    std::vector<double> acceptedUs;  // updates that completed a placement or a move
    std::vector<double> otherUs;     // updates with a change that accepted nothing (a lift, guided moves)
    std::vector<double> inputUs;     // a table-script line consumed: what serve does per web request
    simulation::RigOptions options;
    options.onJudged = [&](const drivers::SensingUpdate&, std::chrono::nanoseconds took, int accepted) {
        (accepted > 0 ? acceptedUs : otherUs)
            .push_back(std::chrono::duration<double, std::micro>(took).count());
    };
    const auto families = simtest::gameFamilies();
    int games = 0;
    const auto start = std::chrono::steady_clock::now();
    while (static_cast<int>(acceptedUs.size()) < wanted) {
        const auto& family = families[static_cast<std::size_t>(games) % families.size()];
        const std::string record =
            simtest::randomRecord(family.spec, seed + static_cast<std::uint64_t>(games));
        auto read = simulation::checkTrace(trace::writeTrace(trace::tableScriptFromRecord(record).lines));
        simulation::SimulationRig rig(options, &log);
        table::TraceRecorder recorder(log, rig.layout(), {options.sensing});
        rig.attach(recorder);
        for (const auto& line : read.lines) {
            // The scans before it and the log's timer, as serve's timer runs them.
            rig.runUntil(simulation::Timestamp(line.line.t));
            if (traceMs.count() > 0) (void)log.flushDue(line.line.t);  // "before": no timer
            const auto before = std::chrono::steady_clock::now();
            (void)rig.consume(line.line);
            inputUs.push_back(
                std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - before).count());
        }
        rig.finish();
        ++games;
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf(
        "referee_bench: %zu accepted placements and moves in %d games (%.1f s), log %s, synchronous=FULL, "
        "trace lines %s; load average %s before, %s after\n",
        acceptedUs.size(), games, seconds, (dir / "bench.sqlite").c_str(),
        traceMs.count() > 0 ? ("buffered up to " + std::to_string(traceMs.count()) + " ms").c_str()
                            : "committed one by one",
        loadBefore.c_str(), loadAverage().c_str());
    print("update -> judged, logged durably, LEDs decided:", acceptedUs);
    print("other updates with a change (no action):", otherUs);
    print("an input line through the rig, its trace line logged:", inputUs);
    print("baseline, one durable append to this log alone:", appendUs);
    return 0;
}
