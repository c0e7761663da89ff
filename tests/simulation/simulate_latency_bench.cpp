// Not a test: what `vivaref simulate --config daemon/config/examples/castle-2024.ini`
// predicts of the example castle's timing (28 readers, its layout, field
// rule and sensing knobs; every character by its simulated tag), under each
// board model (daemon/castle/trace_castle.hpp): round robin (one reader
// every 10 ms, simulate's only model before issue 32) and the castle model
// (scanned as the simulated castle scans, as `serve --hardware=sim` does).
// Random complete 2024 games (3 to 5 seats) are played as table scripts,
// at the comfortable pace of `vivaref trace from-record` by default, or
// brisk with hand noise (as tests/real's table_latency_bench, whose real
// driver on emulated chips gives serve's figures). Prints, p50 / p90 / p99
// / worst, in virtual time:
//
//   - landed -> accepted: a put line's t -> the referee judges the piece on
//     that place in an update where it accepted an action;
//   - lifted -> in hand: a lift line's t -> the piece is in hand;
//
// and the wall and CPU time the replays took.
//
//   simulate_latency_bench [PUTS [SEED [brisk]]]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <map>
#include <string>
#include <vector>

#include "daemon/castle/real_castle.hpp"
#include "daemon/castle/simulated_castle.hpp"
#include "daemon/config/config_check.hpp"
#include "daemon/trace/table_script.hpp"
#include "tests/simulation/sim_helpers.hpp"
#include "tests/support/percentile.hpp"

using namespace vivaref;
using drivers::Timestamp;

namespace {

using test::percentile;

struct Pending {
    std::string place;  // the put's; empty for a lift
    Timestamp at{0};
};

void print(const char* what, const std::vector<double>& v) {
    std::printf("  %s: %zu measured, p50 %.0f ms, p90 %.0f ms, p99 %.0f ms, worst %.0f ms\n", what, v.size(),
                percentile(v, 0.5), percentile(v, 0.9), percentile(v, 0.99),
                v.empty() ? 0.0 : *std::max_element(v.begin(), v.end()));
}

double cpuSeconds() { return static_cast<double>(std::clock()) / CLOCKS_PER_SEC; }

}  // namespace

int main(int argc, char** argv) {
    const int wanted = argc > 1 ? std::atoi(argv[1]) : 1000;
    const std::uint64_t firstSeed = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 1;
    const bool brisk = argc > 3 && std::string(argv[3]) == "brisk";
    const auto check = config::checkCastleConfigFile(std::string(VIVAREF_SOURCE_DIR) +
                                                     "/daemon/config/examples/castle-2024.ini");
    if (check.status != config::ConfigCheck::Status::Valid) {
        std::fprintf(stderr, "the example castle's configuration has problems\n");
        return 1;
    }
    const auto& castle = check.config;
    simulation::RigOptions base;
    base.layout = castle::realBoardLayout(castle);
    base.sensing = castle.sensing;
    base.board.scanInterval = castle.scanInterval;

    for (const bool model : {false, true}) {
        simulation::RigOptions options = base;
        if (model) {
            // As `vivaref simulate --board=castle --config` sets it.
            options.castleModel = castle::simulatedCastleOptions(castle, *base.layout);
            options.castleModel->stabilityWindow = base.sensing.stabilityWindow;
        }
        std::vector<double> landed, lifted;
        int puts = 0, games = 0, finished = 0;
        std::int64_t scans = 0, repeats = 0;
        double virtualMs = 0;
        const auto wallStart = std::chrono::steady_clock::now();
        const double cpuStart = cpuSeconds();
        for (std::uint64_t seed = firstSeed; puts < wanted; ++seed) {
            engine::RulesSpec spec;
            spec.edition = engine::Edition::Vive2024;
            spec.seats = 3 + static_cast<int>(seed % 3);
            trace::TableScriptOptions script;
            if (brisk) {
                script.timing = trace::TableTiming::brisk();
                script.noise.seed = seed;
            }
            const auto lines = trace::tableScriptFromRecord(simtest::randomRecord(spec, seed), script).lines;

            // The put or lift each character's tag waits to be judged for.
            std::map<std::string, Pending> pending;
            simulation::SimulationRig* running = nullptr;
            options.onJudged = [&](const drivers::SensingUpdate& update, std::chrono::nanoseconds,
                                   int accepted) {
                const Timestamp at = running->now();
                for (const auto& change : update.changes) {
                    auto it = pending.find(change.character.name);
                    if (it == pending.end()) continue;
                    const Pending& p = it->second;
                    if (!p.place.empty() && change.to.kind == drivers::TagLocation::Kind::OnPlace &&
                        change.to.place && change.to.place->name == p.place) {
                        if (accepted > 0) landed.push_back(static_cast<double>((at - p.at).count()));
                        pending.erase(it);
                    } else if (p.place.empty() && change.to.kind == drivers::TagLocation::Kind::InHand) {
                        lifted.push_back(static_cast<double>((at - p.at).count()));
                        pending.erase(it);
                    }
                }
            };
            simulation::SimulationRig rig(options, nullptr);
            running = &rig;
            for (const auto& line : lines) {
                // A put or lift still waiting is a touch too short to be seen: not a landing.
                if (const auto* put = std::get_if<trace::PutLine>(&line.input)) {
                    pending[put->tag.text] = {put->place.name, Timestamp(line.t)};
                    ++puts;
                } else if (const auto* lift = std::get_if<trace::LiftLine>(&line.input)) {
                    pending[lift->tag.text] = {"", Timestamp(line.t)};
                }
                (void)rig.consume(line);
            }
            virtualMs += static_cast<double>(rig.finish().count());
            ++games;
            finished += rig.referee().counters().gamesFinished;
            scans += rig.counters().scans;
            repeats += rig.counters().repeatedScans;
        }
        const double wall =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - wallStart).count();
        std::printf(
            "castle-2024.ini, %s: %d %s 2024 games (%d finished), %d puts, %.0f s of virtual time; "
            "%lld scans to the pipeline, %lld repeats left out; %.2f s wall, %.2f s CPU\n",
            model ? "castle model" : "round robin", games, brisk ? "brisk, hand noise," : "comfortable",
            finished, puts, virtualMs / 1000, static_cast<long long>(scans), static_cast<long long>(repeats),
            wall, cpuSeconds() - cpuStart);
        print("landed -> accepted", landed);
        print("lifted -> in hand", lifted);
    }
    return 0;
}
