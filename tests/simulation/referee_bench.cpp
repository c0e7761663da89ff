// The referee's latency for a completed move: from the sensing update that
// holds the change entering the referee to its LED decision, including the
// durable write of the action to the game log (synchronous=FULL), over
// random games' table scripts on the simulated castle until MOVES
// placements and moves were accepted. Prints p50, p99 and the worst; not a
// test. Target: p99 <= 5 ms.
//
// Usage: referee_bench [MOVES [SEED]]   (the log is written in $TMPDIR)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "daemon/trace/table_script.hpp"
#include "daemon/trace/trace_writer.hpp"
#include "tests/simulation/sim_helpers.hpp"

using namespace vivaref;

int main(int argc, char** argv) {
    const int wanted = argc > 1 ? std::max(1, std::atoi(argv[1])) : 10'000;
    const std::uint64_t seed = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 1;
    simtest::TempDir dir;
    store::GameStore log(dir / "bench.sqlite", store::GameStore::Access::CreateIfMissing,
                         store::Durability::Full);

    std::vector<double> acceptedUs;  // updates that completed a placement or a move
    std::vector<double> otherUs;     // updates with a change that accepted nothing (a lift, guided moves)
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
        for (const auto& line : read.lines) (void)rig.consume(line.line);
        rig.finish();
        ++games;
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    auto pct = [](std::vector<double> v, double p) {
        std::sort(v.begin(), v.end());
        return v.empty()
                   ? 0.0
                   : v[std::min(v.size() - 1, static_cast<std::size_t>(p * static_cast<double>(v.size())))];
    };
    std::printf(
        "referee_bench: %zu accepted placements and moves in %d games (%.1f s), log %s, synchronous=FULL\n",
        acceptedUs.size(), games, seconds, (dir / "bench.sqlite").c_str());
    std::printf("  update -> judged, logged durably, LEDs decided:  p50 %.0f us  p99 %.0f us  max %.0f us\n",
                pct(acceptedUs, 0.50), pct(acceptedUs, 0.99), pct(acceptedUs, 1.0));
    std::printf("  other updates with a change (%zu):               p50 %.0f us  p99 %.0f us  max %.0f us\n",
                otherUs.size(), pct(otherUs, 0.50), pct(otherUs, 0.99), pct(otherUs, 1.0));
    return 0;
}
