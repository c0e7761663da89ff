// End to end, driven only by traces: random complete games of every edition
// and variant family become table scripts (puts, lifts, key presses, host
// deals), run on the simulated castle through the sensing pipeline and the
// referee into a game log; the game exported from the log must be the record
// we started from, line for line, and replay to the same result; its stored
// trace must replay to the same log. Seeds are fixed and shown on failure
// (VIVAREF_SIM_SEED=S changes the seed, VIVAREF_SIM_SEEDS=N plays N of them).
#include <algorithm>
#include <cstdlib>

#include <doctest/doctest.h>

#include "daemon/store/game_store.hpp"
#include "daemon/trace/table_script.hpp"
#include "daemon/trace/trace_writer.hpp"
#include "drivers/sim/simulated_board.hpp"
#include "engine/players/random_player.hpp"
#include "engine/record/line_reader.hpp"
#include "engine/record/line_writer.hpp"
#include "engine/record/replay.hpp"
#include "engine/record/result_json.hpp"
#include "tests/simulation/sim_helpers.hpp"

namespace vivaref::simtest {
namespace {

// Seed 11, or VIVAREF_SIM_SEED; VIVAREF_SIM_SEEDS=N plays N seeds from it.
std::vector<std::uint64_t> seeds() {
    std::uint64_t first = 11;
    if (const char* s = std::getenv("VIVAREF_SIM_SEED")) first = std::strtoull(s, nullptr, 10);
    int count = 1;
    if (const char* n = std::getenv("VIVAREF_SIM_SEEDS")) count = std::max(1, std::atoi(n));
    std::vector<std::uint64_t> out;
    for (int i = 0; i < count; ++i) out.push_back(first + static_cast<std::uint64_t>(i));
    return out;
}

std::string replayText(const std::string& record) { return record::resultText(record::replayRecord(record)); }

TEST_CASE(
    "end to end: record -> table script -> simulate -> export gives the record back, for every family") {
    for (const auto& family : gameFamilies()) {
        for (auto seed : seeds()) {
            CAPTURE(family.name);
            CAPTURE(seed);
            const std::string record = randomRecord(family.spec, seed);
            trace::TableScript script = trace::tableScriptFromRecord(record);
            REQUIRE_FALSE(script.error);
            const std::string traceText = trace::writeTrace(script.lines);

            TempDir dir;
            auto summary = simulateInto(traceText, dir / "a.sqlite");
            CAPTURE(summary.dump());
            CHECK(summary["games_started"] == 1);
            CHECK(summary["games_finished"] == 1);
            CHECK(summary["refusals"].empty());
            CHECK(summary["host_refusals"].empty());
            CHECK(summary["own_chance"] == 0);
            CHECK_FALSE(summary.contains("in_progress"));

            store::GameStore log(dir / "a.sqlite", store::GameStore::Access::MustExist);
            const std::string exported = log.exportRecord(store::GameId{1});
            CHECK(exported == record);
            CHECK(replayText(exported) == replayText(record));
            REQUIRE(summary["results"].size() == 1);
            CHECK(summary["results"][0].dump() == replayText(record));

            // The stored trace is the script, and replays to the same log.
            const std::string stored = joined(log.traceLines(store::GameId{1}));
            CHECK(stored == traceText);
            auto again = simulateInto(stored, dir / "b.sqlite");
            store::GameStore second(dir / "b.sqlite", store::GameStore::Access::MustExist);
            CHECK(second.exportRecord(store::GameId{1}) == record);
            CHECK(joined(second.traceLines(store::GameId{1})) == stored);
            CHECK(again == summary);
        }
    }
}

TEST_CASE("end to end: the same trace twice gives the same database, apart from wall-clock times") {
    for (const char* name : {"2024-4-emissary", "classic-4"}) {
        CAPTURE(name);
        engine::RulesSpec spec;
        for (const auto& f : gameFamilies())
            if (f.name == name) spec = f.spec;
        const std::string record = randomRecord(spec, 5);
        const std::string traceText = trace::writeTrace(trace::tableScriptFromRecord(record).lines);
        TempDir dir;
        simulateInto(traceText, dir / "one.sqlite", 1'700'000'000'000);
        simulateInto(traceText, dir / "two.sqlite", 1'700'000'000'000);
        simulateInto(traceText, dir / "three.sqlite", 1'800'000'000'000);
        const std::string one = dumpDatabase(dir / "one.sqlite", false);
        CHECK(one.find("[trace]") != std::string::npos);
        CHECK(one == dumpDatabase(dir / "two.sqlite", false));  // the same epoch: every byte
        CHECK(one != dumpDatabase(dir / "three.sqlite", false));
        CHECK(dumpDatabase(dir / "one.sqlite", true) == dumpDatabase(dir / "three.sqlite", true));
    }
}

// What a real castle records: only scans (and the host's and the stations'
// lines). The table script is played on a board of our own and every scan it
// makes is written as a scan line; the rig's board then scans nothing of its
// own (the trace speaks for every reader), and the same game comes out.
TEST_CASE("end to end: a trace of raw scans, as a real castle records it, plays the same game") {
    const auto family = gameFamilies()[0];  // classic-3
    const std::string record = randomRecord(family.spec, 21);
    INFO(family.name, ", seed 21");
    const auto script = trace::tableScriptFromRecord(record).lines;
    drivers::SimulatedBoard board;
    std::vector<trace::TraceLine> scans;
    auto scanUntil = [&](std::int64_t end) {  // every scan strictly before `end`
        for (const auto& scan : board.advanceTo(drivers::Timestamp(end - 1))) {
            trace::ScanLine line{board.layout().reader(scan.reader), {}};
            for (const auto& uid : scan.result.tags()) line.tags.push_back(uid);
            scans.push_back({scan.at.count(), std::move(line)});
        }
    };
    for (const auto& line : script) {
        scanUntil(line.t);
        if (const auto* put = std::get_if<trace::PutLine>(&line.input))
            REQUIRE(board.put(drivers::simulatedTagUid(put->tag.text), put->place));
        else if (const auto* lift = std::get_if<trace::LiftLine>(&line.input))
            board.lift(drivers::simulatedTagUid(lift->tag.text));
        else
            scans.push_back(line);
    }
    scanUntil(script.back().t + 6000);
    auto outcome = simulation::simulateTrace(trace::writeTrace(scans), {}, nullptr);
    REQUIRE_FALSE(outcome.error);
    CAPTURE(outcome.summary.dump());
    CHECK(outcome.summary["games_finished"] == 1);
    CHECK(outcome.summary["refusals"].empty());
    REQUIRE(outcome.summary["results"].size() == 1);
    CHECK(outcome.summary["results"][0].dump() == replayText(record));
}

// The referee deals round 1 itself when the trace has no host deal: the
// stored trace holds that deal as a host line, so it replays without the seed.
TEST_CASE("end to end: the referee's own deal is written into the trace and replays without the seed") {
    const auto spec = gameFamilies()[1].spec;  // classic-4
    TempDir dir;
    const std::string newGame = trace::writeTrace(
        std::vector<trace::TraceLine>{trace::tableScriptFromRecord(randomRecord(spec, 1)).lines[0]});
    auto first = simulateInto(newGame, dir / "deal.sqlite", 0, 77);
    CHECK(first["own_chance"] == 1);
    std::string dealt;
    {
        store::GameStore log(dir / "deal.sqlite", store::GameStore::Access::MustExist);
        dealt = log.exportRecord(store::GameId{1});  // setup and the referee's deal
    }
    REQUIRE(std::count(dealt.begin(), dealt.end(), '\n') == 2);

    // A whole game that starts with that deal, played by the table without
    // entering the first deal: the referee deals it again from the same seed.
    auto rules = std::make_shared<const engine::Rules>(spec);
    engine::State state(rules);
    std::string record = dealt;
    {
        const auto deal = record.substr(record.find('\n') + 1);
        auto read = record::readLine(deal.substr(0, deal.size() - 1), rules.get());
        REQUIRE(read.line);
        REQUIRE_FALSE(state.apply(std::get<engine::Deal>(*read.line)));
    }
    engine::Rng rng(3);
    struct Append {
        const engine::Rules& rules;
        std::string& text;
        bool drawn(const engine::State&, const engine::Decision& d) {
            return add(record::writeDecision(d, rules));
        }
        bool add(const std::string& l) {
            text += l + "\n";
            return true;
        }
    } append{*rules, record};
    REQUIRE_FALSE(engine::players::playRandomly(state, rng, append));

    auto script = trace::tableScriptFromRecord(record);
    REQUIRE_FALSE(script.error);
    REQUIRE(std::get<trace::HostLine>(script.lines[1].input).kind == trace::HostKind::Deal);
    script.lines.erase(script.lines.begin() + 1);
    // The table waits for the referee's deal (after its chance grace) before placing.
    for (std::size_t i = 1; i < script.lines.size(); ++i) script.lines[i].t += 1500;
    auto played = simulateInto(trace::writeTrace(script.lines), dir / "game.sqlite", 0, 77);
    CAPTURE(played.dump());
    CHECK(played["own_chance"] == 1);
    CHECK(played["games_finished"] == 1);
    store::GameStore log(dir / "game.sqlite", store::GameStore::Access::MustExist);
    CHECK(log.exportRecord(store::GameId{1}) == record);

    // Its exported trace, run with another seed, plays the same game.
    const std::string exportedTrace = joined(log.traceLines(store::GameId{1}));
    CHECK(exportedTrace.find("\"deal\"") != std::string::npos);
    auto replayed = simulateInto(exportedTrace, dir / "again.sqlite", 0, 12345);
    CHECK(replayed["own_chance"] == 0);
    store::GameStore again(dir / "again.sqlite", store::GameStore::Access::MustExist);
    CHECK(again.exportRecord(store::GameId{1}) == record);
    CHECK(joined(again.traceLines(store::GameId{1})) == exportedTrace);
}

}  // namespace
}  // namespace vivaref::simtest
