// A castle that scans on its own (castle mode): every scan goes straight
// into the pipeline and the referee, only the scans that say something new
// are recorded (as `once` lines), and the recorded trace, replayed, makes
// the same decisions at the same milliseconds.
#include <random>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "daemon/simulation/simulate.hpp"
#include "daemon/table/trace_recorder.hpp"
#include "daemon/trace/table_script.hpp"
#include "daemon/trace/trace_writer.hpp"
#include "drivers/sim/simulated_board.hpp"
#include "tests/simulation/sim_helpers.hpp"

namespace vivaref::simtest {
namespace {

using drivers::Timestamp;

simulation::RigOptions castleOptions() {
    simulation::RigOptions options;
    options.referee.seed = 5;
    options.referee.wallAtZero = store::WallTime(std::chrono::milliseconds(1'700'000'000'000));
    options.castleScans = true;
    return options;
}

// Plays `script` on a castle whose readers scan back to back, every 3 to 5 ms
// each (the board's own noise: seeded), into a castle-mode rig.
void playOnCastle(simulation::SimulationRig& rig, const std::vector<trace::TraceLine>& script,
                  std::uint64_t seed) {
    drivers::SimulatedBoard board(drivers::standardBoardLayout(), {Timestamp(1), seed});
    for (drivers::ReaderIndex r = 0; r < board.layout().readerCount(); ++r) {
        board.setFailureRate(r, 0.01);
        board.setGarbageRate(r, 0.01);
    }
    std::mt19937_64 jitter(seed);
    std::int64_t nextScanAt = 0;
    drivers::ReaderIndex next = 0;
    auto scanUntil = [&](std::int64_t end) {
        while (nextScanAt < end) {
            rig.scan(next, board.scan(next), Timestamp(nextScanAt));
            next = (next + 1) % board.layout().readerCount();
            nextScanAt += 3 + static_cast<std::int64_t>(jitter() % 3);
        }
    };
    for (const auto& line : script) {
        scanUntil(line.t);
        if (const auto* put = std::get_if<trace::PutLine>(&line.input)) {
            (void)board.put(put->tag.uid(), put->place);
        } else if (const auto* lift = std::get_if<trace::LiftLine>(&line.input)) {
            board.lift(lift->tag.uid());
        } else {
            REQUIRE_FALSE(rig.consume(line));
        }
    }
    scanUntil(script.back().t + 6000);
}

TEST_CASE(
    "castle mode: scans straight in, only news recorded, and the replay decides the same at the same times") {
    for (const auto& family : gameFamilies()) {
        if (family.name != "classic-4" && family.name != "2024-4-ambition-banished") continue;
        const std::uint64_t seed = 11;
        INFO(family.name, " seed ", seed);
        const std::string record = randomRecord(family.spec, seed);
        trace::TableScriptOptions scriptOptions;
        scriptOptions.timing = trace::TableTiming::brisk();
        scriptOptions.noise.seed = seed;
        scriptOptions.start = 500;
        const auto script = trace::tableScriptFromRecord(record, scriptOptions);
        REQUIRE_FALSE(script.error);

        TempDir dir;
        store::GameStore live(dir / "live.sqlite", store::GameStore::Access::CreateIfMissing,
                              store::Durability::Normal);
        simulation::SimulationRig rig(castleOptions(), &live);
        table::TraceRecorder recorder(live, rig.layout(), {rig.options().sensing});
        rig.attach(recorder);
        playOnCastle(rig, script.lines, seed);
        live.flush();
        CHECK(rig.referee().counters().gamesFinished == 1);
        CHECK(live.exportRecord(store::GameId{1}) == record);

        // Most scans only repeat what the reader already said.
        const auto& counters = rig.counters();
        MESSAGE(family.name, ": ", counters.scans, " scans taken, ", counters.repeatedScans, " left out");
        CHECK(counters.repeatedScans > 5 * counters.scans);
        // A castle's trace has no put or lift, and every scan line says once.
        const std::string stored = storedTrace(live, store::GameId{1});
        CHECK(stored.find("\"put\"") == std::string::npos);
        CHECK(stored.find("\"once\":true") != std::string::npos);

        // The replay: `simulate` of the stored trace, from a rig not told it is a castle.
        simulation::RigOptions replayOptions = castleOptions();
        replayOptions.castleScans = false;
        replayOptions.referee.seed = 99;  // the trace holds every deal
        store::GameStore replayLog(dir / "replay.sqlite", store::GameStore::Access::CreateIfMissing,
                                   store::Durability::Normal);
        const auto outcome = simulation::simulateTrace(stored, replayOptions, &replayLog);
        REQUIRE_FALSE(outcome.error);
        CHECK(outcome.summary["games_finished"] == 1);
        CHECK(replayLog.exportRecord(store::GameId{1}) == record);
        CHECK(eventDifference(live, replayLog, store::GameId{1}) == "");
        CHECK(storedTrace(replayLog, store::GameId{1}) == stored);
    }
}

TEST_CASE("castle mode: a put, a lift or a plain scan after a castle's line is refused, saying why") {
    simulation::SimulationRig rig(simulation::RigOptions{}, nullptr);
    REQUIRE_FALSE(rig.consume({0, trace::PutLine{{"odessa"}, {"3"}}}));  // the simulated board, before
    REQUIRE_FALSE(rig.consume({100, trace::ScanLine{{"floor3"}, {}, true}}));
    for (const trace::TraceInput& input : {trace::TraceInput{trace::PutLine{{"odessa"}, {"4"}}},
                                           trace::TraceInput{trace::LiftLine{{"odessa"}}},
                                           trace::TraceInput{trace::ScanLine{{"floor3"}, {}}}}) {
        const auto problem = rig.consume({200, input});
        REQUIRE(problem);
        CHECK(problem->find("once") != std::string::npos);
    }
    // The castle's own lines go on.
    CHECK_FALSE(rig.consume({300, trace::ReaderFaultLine{{"floor3"}, "no answer", true}}));
}

}  // namespace
}  // namespace vivaref::simtest
