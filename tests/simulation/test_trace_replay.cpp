// A trace replayed by the rig through its trace castle (daemon/castle/
// trace_castle.hpp): the pipeline gets the board's scans at the slots
// daemon/simulation/NOTES.md gives, with what the trace's scan and
// reader-fault lines said, exactly as the rig's own board gave them before
// the trace castle (drivers/sim's SimulatedBoard, scanned up to each line).
#include <algorithm>
#include <vector>

#include <doctest/doctest.h>

#include "daemon/simulation/simulation_rig.hpp"
#include "daemon/trace/table_script.hpp"
#include "tests/simulation/sim_helpers.hpp"

namespace vivaref::simtest {
namespace {

using drivers::Timestamp;

struct Scan {
    drivers::ReaderIndex reader;
    Timestamp at;
    drivers::ScanResult result;
};

bool same(const drivers::ScanResult& a, const drivers::ScanResult& b) {
    if (a.ok() != b.ok()) return false;
    if (a.ok()) return a.tags() == b.tags();
    return a.error().kind == b.error().kind && a.error().message == b.error().message;
}

// A classic game for three as the players play it, with a reader that fails
// for a while and one that is said to hold nothing, and a castle's `once`
// line at the end.
std::vector<trace::TraceLine> gameTrace() {
    auto lines = trace::tableScriptFromRecord(randomRecord(gameFamilies()[0].spec, 8)).lines;
    REQUIRE(lines.size() > 20);
    const std::int64_t end = lines.back().t;
    const std::vector<trace::TraceLine> extra = {
        {end / 4, trace::ReaderFaultLine{{"floor2"}, "no answer"}},
        {end / 4 + 1500, trace::ScanLine{{"floor2"}, {}}},
        {end / 2, trace::ReaderFaultLine{{"wc3"}, "garbage: CRC error"}},
        {end / 2 + 3, trace::ScanLine{{"dungeon1"}, {drivers::simulatedTagUid("dead")}}},
        {end + 105, trace::ScanLine{{"throne"}, {}, true}}};
    for (const auto& line : extra) {
        auto at = std::upper_bound(lines.begin(), lines.end(), line.t,
                                   [](std::int64_t t, const trace::TraceLine& l) { return t < l.t; });
        lines.insert(at, line);
    }
    return lines;
}

// The scans the rig's board gave before: every scan due before a line, the
// readers a line named reading what it said; none from a `once` line on.
std::vector<Scan> boardScans(const std::vector<trace::TraceLine>& lines) {
    drivers::SimulatedBoard board;
    std::vector<std::optional<drivers::ScanResult>> held(board.layout().readerCount());
    std::vector<Scan> out;
    for (const auto& line : lines) {
        if (const auto* scan = std::get_if<trace::ScanLine>(&line.input); scan && scan->once) break;
        for (const auto& s : board.advanceTo(Timestamp(line.t - 1)))
            out.push_back({s.reader, s.at, held[s.reader] ? *held[s.reader] : s.result});
        const auto& layout = board.layout();
        if (const auto* put = std::get_if<trace::PutLine>(&line.input))
            REQUIRE(board.put(put->tag.uid(), put->place));
        else if (const auto* lift = std::get_if<trace::LiftLine>(&line.input))
            board.lift(lift->tag.uid());
        else if (const auto* scan = std::get_if<trace::ScanLine>(&line.input))
            held[*layout.findReader(scan->reader)] = drivers::TagSet(scan->tags.begin(), scan->tags.end());
        else if (const auto* fault = std::get_if<trace::ReaderFaultLine>(&line.input))
            held[*layout.findReader(fault->reader)] =
                drivers::ScanError{fault->what == "no answer" ? drivers::ScanErrorKind::NoAnswer
                                                              : drivers::ScanErrorKind::Protocol,
                                   "reader " + fault->reader.name + ": " + fault->what};
    }
    return out;
}

}  // namespace

TEST_CASE(
    "trace replay: the pipeline gets the board's scans at its slots, as the rig's own board gave them") {
    const auto lines = gameTrace();
    std::vector<Scan> got;
    simulation::RigOptions options;
    options.referee.seed = 3;
    options.onRawScan = [&](drivers::ReaderIndex reader, const drivers::ScanResult& result, Timestamp at) {
        got.push_back({reader, at, result});
    };
    simulation::SimulationRig rig(options, nullptr);
    for (const auto& line : lines) REQUIRE_FALSE(rig.consume(line));
    rig.finish();

    const auto expected = boardScans(lines);
    // The board's, then the `once` line's; nothing after it.
    REQUIRE(got.size() == expected.size() + 1);
    for (std::size_t i = 0; i < expected.size(); ++i) {
        CAPTURE(i);
        CHECK(got[i].reader == expected[i].reader);
        CHECK(got[i].at == expected[i].at);
        CHECK(same(got[i].result, expected[i].result));
    }
    CHECK(got.back().at == Timestamp(lines.back().t));
    CHECK(got.back().reader == *rig.layout().findReader({"throne"}));
    // The game went on over those scans.
    CHECK(rig.referee().counters().actionsAccepted > 10);
}

}  // namespace vivaref::simtest
