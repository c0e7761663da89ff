// How fast `vivaref simulate` runs a complete 3-round game's table script:
// the trace read and checked, the board scanned through the sensing
// pipeline into the referee under each board model (round robin: one
// reader every 10 ms of virtual time, each scan into the pipeline; the
// castle model, `simulate`'s default since issue 32: as the simulated castle
// scans the standard board, ~700 scans a second, the repeats left out before
// the pipeline), with and without a game log (synchronous=NORMAL, as simulate opens it; and, for
// comparison, with every trace line committed on its own as before). Prints
// figures; not a test. Target: a 3-round game in under 100 ms.
//
// Usage: simulate_bench [RUNS [SEED]]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include <sys/resource.h>

#include "daemon/castle/simulated_castle.hpp"
#include "daemon/trace/table_script.hpp"
#include "daemon/trace/trace_writer.hpp"
#include "tests/simulation/load_average.hpp"
#include "tests/simulation/sim_helpers.hpp"

using namespace vivaref;
using vivaref::test::loadAverage;

namespace {

struct Figures {
    double median = 0, best = 0, cpuMedian = 0;
};

// This process's CPU time (user + system) in ms: on a busy machine the
// wall-clock figures grow, the CPU ones much less.
double cpuMs() {
    rusage usage{};
    ::getrusage(RUSAGE_SELF, &usage);
    auto ms = [](const timeval& tv) {
        return static_cast<double>(tv.tv_sec) * 1000 + static_cast<double>(tv.tv_usec) / 1000;
    };
    return ms(usage.ru_utime) + ms(usage.ru_stime);
}

template <class Run>
Figures measure(int runs, Run&& run) {
    std::vector<double> wall, cpu;
    for (int i = 0; i < runs; ++i) {
        const double cpuStart = cpuMs();
        const auto start = std::chrono::steady_clock::now();
        run(i);
        wall.push_back(
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
        cpu.push_back(cpuMs() - cpuStart);
    }
    std::sort(wall.begin(), wall.end());
    std::sort(cpu.begin(), cpu.end());
    return {wall[wall.size() / 2], wall.front(), cpu[cpu.size() / 2]};
}

}  // namespace

int main(int argc, char** argv) {
    const int runs = argc > 1 ? std::max(1, std::atoi(argv[1])) : 20;
    const std::uint64_t seed = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 3;
    std::printf("simulate_bench: %d runs of each game's table script (seed %llu), load average %s\n", runs,
                static_cast<unsigned long long>(seed), loadAverage().c_str());
    std::printf("%-30s %5s %9s %7s %7s | %9s %7s %7s | %9s %7s %7s | %9s\n", "game", "lines", "virtual s",
                "scans", "actions", "wall p50", "best", "cpu p50", "+db wall", "best", "cpu", "1-by-1");
    for (const auto& family : simtest::gameFamilies()) {
        if (family.name != "classic-4" && family.name != "2024-5" && family.name != "2024-4-emissary" &&
            family.name != "classic-6")
            continue;
        const std::string record = simtest::randomRecord(family.spec, seed);
        const std::string traceText = trace::writeTrace(trace::tableScriptFromRecord(record).lines);
        for (const bool model : {false, true}) {
            simulation::RigOptions options;
            if (model)
                options.castleModel = castle::SimulatedCastleOptions{};  // as `simulate` without --config
            // The board's scans, counted once outside the measured runs.
            simulation::RigOptions counting = options;
            std::int64_t scans = 0;
            counting.onRawScan = [&](drivers::ReaderIndex, const drivers::ScanResult&, drivers::Timestamp) {
                ++scans;
            };
            nlohmann::ordered_json summary = simulation::simulateTrace(traceText, counting, nullptr).summary;
            const Figures bare = measure(
                runs, [&](int) { summary = simulation::simulateTrace(traceText, options, nullptr).summary; });
            simtest::TempDir dir;
            const Figures logged = measure(runs, [&](int i) {
                store::GameStore log(dir / ("run" + std::to_string(i) + ".sqlite"),
                                     store::GameStore::Access::CreateIfMissing, store::Durability::Normal);
                (void)simulation::simulateTrace(traceText, options, &log);
            });
            // As before trace lines were buffered: each committed on its own.
            const Figures oneByOne = measure(runs, [&](int i) {
                store::GameStore log(dir / ("one" + std::to_string(i) + ".sqlite"),
                                     store::GameStore::Access::CreateIfMissing, store::Durability::Normal);
                log.setTraceFlushEvery(std::chrono::milliseconds(0));
                (void)simulation::simulateTrace(traceText, options, &log);
            });
            const double virtualS = summary["virtual_ms"].get<double>() / 1000;
            const std::string name = family.name + (model ? " castle model" : " round robin");
            std::printf(
                "%-30s %5lld %9.1f %7lld %7d | %6.1f ms %4.1f ms %4.1f ms | %6.1f ms %4.1f ms %4.1f ms | "
                "%6.1f "
                "ms\n",
                name.c_str(), static_cast<long long>(summary["trace_lines"].get<std::int64_t>()), virtualS,
                static_cast<long long>(scans), summary["actions_accepted"].get<int>(), bare.median, bare.best,
                bare.cpuMedian, logged.median, logged.best, logged.cpuMedian, oneByOne.median);
            if (summary["games_finished"] != 1)
                std::printf("  (the game did not finish: %s)\n", summary.dump().c_str());
        }
    }
    std::printf("load average at the end: %s\n", loadAverage().c_str());
    return 0;
}
