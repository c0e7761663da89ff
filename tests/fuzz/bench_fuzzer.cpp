// libFuzzer target: any byte string is a simulated castle's bench file
// (daemon/config/sim_bench.hpp). Reading it must give statements and
// problems, never a crash, an exception or a hang: each problem names the
// file, a line inside the text (0 only for a text too large, alone) and a
// reason, in line order; each statement kept names its line and what it needs.
// Run by `.ci/dev test`; by hand: build/fuzz/tests/fuzz/bench_fuzzer CORPUS_DIR.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "daemon/config/sim_bench.hpp"
#include "tests/fuzz/fuzz_check.hpp"

namespace {

using namespace vivaref;

constexpr const char* kBenchFileName = "fuzz-bench.txt";

void checkBenchLine(int line, int lines, const std::string& what) {
    if (line < 1 || line > lines)
        vivaref::fuzz::broken("a statement at line " + std::to_string(line) + " outside the text (" +
                              std::to_string(lines) + " lines): " + what);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const int lines = static_cast<int>(std::count(text.begin(), text.end(), '\n')) + 1;

    config::ConfigProblems problems;
    config::SimBench bench;
    try {
        bench = config::parseSimBench(text, kBenchFileName, problems);
    } catch (const std::exception& e) {
        fuzz::broken(std::string("parseSimBench threw: ") + e.what());
    }
    int lastLine = 0;
    for (const auto& problem : problems) {
        const std::string said = problem.text();
        if (problem.file != kBenchFileName) fuzz::broken("a problem naming another file: " + said);
        if (problem.reason.empty()) fuzz::broken("a problem without a reason: " + said);
        if (problem.line == 0) {
            if (problems.size() != 1 || size <= config::kMaxSimBenchBytes)
                fuzz::broken("a problem of the whole bench for a text it reads: " + said);
            continue;
        }
        if (problem.line > lines) fuzz::broken("a problem at a line outside the text: " + said);
        if (problem.line < lastLine) fuzz::broken("problems out of line order: " + said);
        lastLine = problem.line;
    }
    for (const auto& c : bench.chips) {
        checkBenchLine(c.line, lines, "chip");
        if (c.wire.empty() || c.under.empty()) fuzz::broken("a chip without its wire or its place");
    }
    for (const auto& n : bench.noChips) checkBenchLine(n.line, lines, "no-chip " + n.name);
    for (const auto& c : bench.couples) {
        checkBenchLine(c.line, lines, "couple");
        if (c.a == c.b) fuzz::broken("a chip coupled with itself: " + c.a);
    }
    for (const auto& v : bench.versions) checkBenchLine(v.line, lines, "version " + v.wire);
    for (const auto& s : bench.stuckKeys) {
        checkBenchLine(s.line, lines, "stuck " + s.name);
        if (!config::isBenchKeyName(s.name)) fuzz::broken("a stuck key that is not a key: " + s.name);
    }
    for (const auto& d : bench.deadLeds) {
        checkBenchLine(d.line, lines, "dead-led " + d.name);
        if (!config::isBenchLedName(d.name)) fuzz::broken("a dead LED that is not an LED: " + d.name);
    }
    return 0;
}
