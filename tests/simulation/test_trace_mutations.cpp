// Fuzz-style: deterministic mutations (tests/fuzz/record_mutator: byte
// noise, JSON tokens, dropped, repeated and swapped lines) of a few traces
// through the reader. Whatever the text, the reader answers: either every
// line, each of which writes and reads back the same, in time order; or the
// first malformed line's number and a sentence. Fixed seed, printed on
// failure; VIVAREF_TRACE_MUTATION_SEED changes it.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <random>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "daemon/simulation/simulate.hpp"
#include "daemon/trace/table_script.hpp"
#include "daemon/trace/trace_reader.hpp"
#include "daemon/trace/trace_writer.hpp"
#include "tests/fuzz/record_mutator.hpp"
#include "tests/simulation/sim_helpers.hpp"

namespace vivaref::trace {
namespace {

constexpr std::uint64_t kDefaultSeed = 20250105;
constexpr int kMutationsPerTrace = 1500;

std::uint64_t seed() {
    if (const char* s = std::getenv("VIVAREF_TRACE_MUTATION_SEED")) return std::strtoull(s, nullptr, 10);
    return kDefaultSeed;
}

const std::vector<std::string>& seedTraces() {
    static const std::vector<std::string> traces = {
        R"({"t": 0,    "host": {"new-game": {"setup": {"edition": "classic", "seats": 4}, "players": ["Ann", "Bob", "Cy", "Di"]}}}
{"t": 10,   "host": {"deal": {"round": 1, "favourites": [["alighiero", "beatrice"], ["clemente"], ["dario"], ["ernesto"]]}}}
{"t": 500,  "scan": {"reader": "floor3", "tags": ["04A1B2C3D4E5F6", "0459AC12"]}}
{"t": 520,  "reader-fault": {"reader": "floor3", "what": "no answer"}}
{"t": 900,  "put": {"tag": "odessa", "place": "3"}}
{"t": 2400, "lift": {"tag": "odessa"}}
{"t": 5000, "button": {"station": 2, "key": "no"}}
{"t": 9000, "host": {"undo": {}}}
)",
        R"({"t":0,"host":{"new-game":{"setup":{"edition":"2024","seats":5,"options":{"ambition":true}},"players":[]}}}
{"t":100,"host":{"keep":{"player":0,"ambition":"wc-0"}}}
{"t":200,"put":{"tag":"jester","place":"3"}}

{"t":700,"put":{"tag":"0459AC12","place":"wc3"}}
{"t":900,"button":{"station":4,"key":"stomachache"}}
{"t":900,"host":{"reshuffle":{"pile":["yes","no"]}}}
{"t":1000,"host":{"pause":{}}}
{"t":1100,"host":{"resume":{}}}
{"t":1200,"scan":{"reader":"dungeon1","tags":[]}}
{"t":1300,"host":{"abandon":{}}}
)",
    };
    return traces;
}

// What the reader must promise for any text; empty when it does.
std::string broken(const std::string& text) {
    TraceRead read = readTrace(text);
    const int physicalLines = static_cast<int>(std::count(text.begin(), text.end(), '\n')) + 1;
    if (read.error) {
        if (read.error->line < 1 || read.error->line > physicalLines)
            return "error at line " + std::to_string(read.error->line) + " of " +
                   std::to_string(physicalLines);
        if (read.error->what.empty()) return "an error without a sentence";
        if (!read.lines.empty()) return "lines returned with an error";
        return {};
    }
    std::int64_t lastT = 0;
    int lastNumber = 0;
    for (const auto& [number, line] : read.lines) {
        if (number <= lastNumber || number > physicalLines) return "line numbers out of order";
        if (line.t < lastT) return "t goes back at line " + std::to_string(number);
        LineParse again = parseTraceLine(writeTraceLine(line));
        if (!again.line) return "line " + std::to_string(number) + " writes as unreadable: " + again.error;
        if (!(*again.line == line)) return "line " + std::to_string(number) + " does not read back the same";
        lastT = line.t;
        lastNumber = number;
    }
    return {};
}

TEST_CASE("trace mutations: the reader answers every mutant, and what it reads writes back the same") {
    const std::uint64_t base = seed();
    int failures = 0;
    int malformed = 0;
    int total = 0;
    for (std::size_t i = 0; i < seedTraces().size(); ++i) {
        fuzz::RecordMutator mutator(base + i);
        for (int m = 0; m < kMutationsPerTrace; ++m) {
            std::string what;
            const std::string mutant = mutator.mutate(seedTraces()[i], &what);
            const std::string problem = broken(mutant);
            ++total;
            if (readTrace(mutant).error) ++malformed;
            if (!problem.empty() && ++failures <= 5)
                FAIL_CHECK("seed ", base, " trace ", i, " mutant ", m, " (", what, "): ", problem, "\n",
                           mutant);
        }
    }
    MESSAGE("seed ", base, ": ", total, " mutants, ", malformed, " malformed");
    CHECK(failures == 0);
    CHECK(malformed > total / 4);         // the mutations do reach the checks...
    CHECK(malformed < total * 99 / 100);  // ...and some mutants stay readable
}

}  // namespace
}  // namespace vivaref::trace

namespace vivaref::trace {
namespace {

// The same mutations of the start of a real table script, run through the
// whole rig (castle, pipeline, referee) when they still read: whatever a
// well-formed trace asks (a put on the throne, a key of a station that does
// not vote, a deal for the wrong round, a lift of a tag never put), the rig
// ends with a summary, never a crash or a hang.
TEST_CASE("trace mutations: mutated table scripts run through the rig to a summary") {
    const std::uint64_t base = seed();
    const std::string record = simtest::randomRecord(simtest::gameFamilies()[4].spec, 7);  // 2024-5
    auto lines = tableScriptFromRecord(record).lines;
    lines.resize(std::min<std::size_t>(lines.size(), 60));
    const std::string script = writeTrace(lines);
    fuzz::RecordMutator mutator(base);
    int ran = 0;
    for (int m = 0; m < 120; ++m) {
        std::string what;
        const std::string mutant = mutator.mutate(script, &what);
        CAPTURE(base);
        CAPTURE(m);
        CAPTURE(what);
        simulation::RigOptions options;
        options.finishLimit = std::chrono::milliseconds(5000);
        auto outcome = simulation::simulateTrace(mutant, options, nullptr);
        if (outcome.error) continue;
        ++ran;
        CHECK(outcome.summary["ok"] == true);
        CHECK(outcome.summary["trace_lines"].get<int>() > 0);
    }
    MESSAGE("seed ", base, ": ", ran, " of 120 mutated scripts ran through the rig");
    CHECK(ran > 10);
}

// Mutations that keep every line well formed, so that all of them reach the
// referee: a put elsewhere, a line dropped or repeated, a key changed, a
// stray tag, a reader failing, a host request out of place, times moved.
std::vector<TraceLine> mutateLines(std::vector<TraceLine> lines, std::mt19937_64& rng, std::string& what) {
    static const char* kPlaces[] = {"0", "1",   "2",   "3",        "4",        "5",
                                    "6", "wc3", "wc4", "dungeon1", "dungeon2", "dungeon3"};
    static const char* kReaders[] = {"floor0", "floor3", "throne", "wc4", "dungeon2"};
    auto below = [&](std::size_t n) { return n == 0 ? 0 : static_cast<std::size_t>(rng() % n); };
    const int count = 1 + static_cast<int>(below(4));
    for (int k = 0; k < count && !lines.empty(); ++k) {
        const std::size_t i = below(lines.size());
        const TraceLine line = lines[i];  // a copy: inserting moves the lines
        switch (below(8)) {
            case 0:
                if (auto* put = std::get_if<PutLine>(&lines[i].input)) put->place.name = kPlaces[below(12)];
                what += " put-elsewhere@" + std::to_string(i);
                break;
            case 1:
                lines.erase(lines.begin() + static_cast<std::ptrdiff_t>(i));
                what += " drop@" + std::to_string(i);
                break;
            case 2:
                lines.insert(lines.begin() + static_cast<std::ptrdiff_t>(i), line);
                what += " repeat@" + std::to_string(i);
                break;
            case 3:
                lines.insert(lines.begin() + static_cast<std::ptrdiff_t>(i),
                             TraceLine{line.t, ButtonLine{{static_cast<int>(below(9))},
                                                          static_cast<drivers::VoteKey>(below(3))}});
                what += " key@" + std::to_string(i);
                break;
            case 4:
                lines.insert(lines.begin() + static_cast<std::ptrdiff_t>(i),
                             TraceLine{line.t, PutLine{{"0459AC12"}, {kPlaces[below(12)]}}});
                what += " stray-tag@" + std::to_string(i);
                break;
            case 5:
                for (int f = 0; f < 4; ++f)
                    lines.insert(lines.begin() + static_cast<std::ptrdiff_t>(i),
                                 TraceLine{line.t, ReaderFaultLine{{kReaders[below(5)]}, "no answer"}});
                what += " faults@" + std::to_string(i);
                break;
            case 6: {
                static const HostKind kKinds[] = {HostKind::Undo, HostKind::Pause, HostKind::Resume,
                                                  HostKind::Abandon, HostKind::NewGame};
                HostLine host{kKinds[below(5)], nlohmann::json::object(), {}};
                if (host.kind == HostKind::NewGame) host.payload = {{"edition", "2024"}, {"seats", 3}};
                lines.insert(lines.begin() + static_cast<std::ptrdiff_t>(i), TraceLine{line.t, host});
                what += " host@" + std::to_string(i);
                break;
            }
            default:
                lines[i].t += static_cast<std::int64_t>(below(3000));
                what += " later@" + std::to_string(i);
                break;
        }
    }
    std::stable_sort(lines.begin(), lines.end(),
                     [](const TraceLine& a, const TraceLine& b) { return a.t < b.t; });
    return lines;
}

TEST_CASE("trace mutations: well-formed but wrong table scripts run through the rig to a summary") {
    const std::uint64_t base = seed();
    const std::string record = simtest::randomRecord(simtest::gameFamilies()[1].spec, 9);  // classic-4
    auto script = tableScriptFromRecord(record).lines;
    script.resize(std::min<std::size_t>(script.size(), 80));
    std::mt19937_64 rng(base);
    std::map<std::string, int> codes;
    for (int m = 0; m < 50; ++m) {
        std::string what;
        const auto mutant = mutateLines(script, rng, what);
        CAPTURE(base);
        CAPTURE(m);
        CAPTURE(what);
        simulation::RigOptions options;
        options.finishLimit = std::chrono::milliseconds(5000);
        auto outcome = simulation::simulateTrace(writeTrace(mutant), options, nullptr);
        REQUIRE_FALSE(outcome.error);
        CHECK(outcome.summary["trace_lines"] == static_cast<int>(mutant.size()));
        for (const auto& [code, n] : outcome.summary["refusals"].items()) codes[code] += n.get<int>();
    }
    std::string seen;
    for (const auto& [code, n] : codes) seen += " " + code + "=" + std::to_string(n);
    MESSAGE("seed ", base, ": refusals over 50 mutants:", seen);
    CHECK(codes.size() >= 2);  // the mutants do reach the referee's judgement
}

}  // namespace
}  // namespace vivaref::trace
