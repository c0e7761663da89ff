// Not a test: what `vivaref serve --hardware=real` costs on the full example
// castle (daemon/config/examples/castle-2024.ini: 28 readers, 8 stations),
// its readers emulated MFRC522 chips and its lines in memory. Plays a random
// 2024 game for SEATS (default 5) on it in virtual time and prints: raw scans
// against the scan lines recorded, the trace's size, and the wall time the
// loop's work took per second of virtual time (the share of one core the
// table would take, emulation included; run it from a Release build).
//
//   real_table_bench [SEATS [SEED]]
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <iterator>

#include "daemon/simulation/simulate.hpp"
#include "daemon/trace/table_script.hpp"
#include "tests/real/emulated_castle.hpp"

using namespace vivaref;

int main(int argc, char** argv) {
    const int seats = argc > 1 ? std::atoi(argv[1]) : 5;
    const std::uint64_t seed = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 1;
    std::ifstream in(std::string(VIVAREF_SOURCE_DIR) + "/daemon/config/examples/castle-2024.ini");
    std::string ini((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    realtest::EmulatedCastle castle(ini);

    engine::RulesSpec spec;
    spec.edition = engine::Edition::Vive2024;
    spec.seats = seats;
    const std::string record = simtest::randomRecord(spec, seed);
    // A 28-reader cycle is 280 ms: a put needs up to ~1 s to be seen and stable.
    trace::TableScriptOptions options;
    options.start = 1000;
    options.timing.settle = 1500;
    const auto script = trace::tableScriptFromRecord(record, options).lines;

    const auto start = std::chrono::steady_clock::now();
    castle.play(script);
    castle.runUntil(drivers::Timestamp(script.back().t + 6000));
    const auto wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

    const auto summary = simulation::summaryJson(castle.table().table());
    const auto& c = castle.real().counters();
    const std::string trace = castle.traceText(1);
    const double virtualS = static_cast<double>(castle.clock().now().count()) / 1000.0;
    std::cout << "castle-2024.ini, " << castle.real().readerCount() << " emulated readers, 2024 game for "
              << seats << " (seed " << seed << "): finished " << summary["games_finished"] << ", refusals "
              << summary["refusals"].dump() << "\n"
              << "  virtual time " << virtualS << " s, raw scans " << c.rawScans << " ("
              << static_cast<double>(c.rawScans) / virtualS << "/s, " << c.failedScans << " failed), "
              << summary["trace_lines"] << " trace lines, button lines " << c.presses << "\n"
              << "  trace: " << trace.size() << " bytes; " << script.size() << " table-script lines\n"
              << "  wall time " << wall * 1000.0 << " ms: " << 100.0 * wall / virtualS
              << " % of one core (the loop's steps, the emulated chips included), "
              << castle.loop().counters().steps << " steps\n";
    return summary["games_finished"] == 1 ? 0 : 1;
}
