// Fuzz-style: deterministic mutations (tests/fuzz/record_mutator: byte
// noise, JSON tokens, dropped, repeated and swapped lines) of a few traces
// through the reader. Whatever the text, the reader answers: either every
// line, each of which writes and reads back the same, in time order; or the
// first malformed line's number and a sentence. Fixed seed, printed on
// failure; VIVAREF_TRACE_MUTATION_SEED changes it.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "daemon/trace/trace_reader.hpp"
#include "daemon/trace/trace_writer.hpp"
#include "tests/fuzz/record_mutator.hpp"

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
