// The trace recorder on its own, told events as a rig tells them: lines held
// before a game go at the head of the next game's trace (the oldest dropped
// past the limit), a castle's scans the rig took become `once` lines and the
// ones it left out do not, a game's start says what each reader held, the
// referee's own chance goes to disk at once. Then beside a castle-mode rig.
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "daemon/simulation/simulation_rig.hpp"
#include "daemon/table/trace_recorder.hpp"
#include "daemon/trace/trace_writer.hpp"
#include "drivers/sim/simulated_board.hpp"
#include "tests/simulation/sim_helpers.hpp"

namespace vivaref::simtest {
namespace {

using drivers::Timestamp;

struct Fixture {
    TempDir dir;
    store::GameStore log{dir / "log.sqlite", store::GameStore::Access::CreateIfMissing,
                         store::Durability::Normal};

    store::GameId newGame() {
        return log.createGame(store::NewGame{gameFamilies().front().spec, {}, 1, {}, {}});
    }
};

std::string text(const trace::TraceLine& line) { return trace::writeTraceLine(line); }

trace::TraceLine press(std::int64_t t) {
    return {t, trace::ButtonLine{drivers::StationId{0}, drivers::VoteKey::Yes}};
}

drivers::ScanResult tags(std::initializer_list<const char*> slugs) {
    drivers::TagSet set;
    for (const char* slug : slugs) set.insert(drivers::simulatedTagUid(slug));
    return drivers::ScanResult(set);
}

TEST_CASE("recorder: lines before any game go at the head of the next game's trace, then its own") {
    Fixture f;
    table::TraceRecorder recorder(f.log, drivers::standardBoardLayout());
    const trace::TraceLine put{0, trace::PutLine{{"odessa"}, {"3"}}};
    recorder.inputTaken(put, std::nullopt);
    recorder.inputTaken(press(10), std::nullopt);
    CHECK(recorder.heldLines() == 2);

    const auto game = f.newGame();
    recorder.inputTaken(press(20), game);
    CHECK(recorder.heldLines() == 0);
    CHECK(f.log.traceLines(game) == std::vector<std::string>{text(put), text(press(10)), text(press(20))});
    CHECK(recorder.counters().linesWritten == 3);
}

TEST_CASE("recorder: past the held-line limit the oldest lines are dropped") {
    Fixture f;
    table::TraceRecorder recorder(f.log, drivers::standardBoardLayout(), {{}, 2});
    for (std::int64_t t : {0, 10, 20}) recorder.inputTaken(press(t), std::nullopt);
    CHECK(recorder.heldLines() == 2);
    CHECK(recorder.counters().heldLinesDropped == 1);
    const auto game = f.newGame();
    recorder.inputTaken(press(30), game);
    CHECK(f.log.traceLines(game) ==
          std::vector<std::string>{text(press(10)), text(press(20)), text(press(30))});
}

TEST_CASE("recorder: a board's reader holdings begin the next game, unless a held line says them") {
    Fixture f;
    table::TraceRecorder recorder(f.log, drivers::standardBoardLayout());
    const auto first = f.newGame();
    const drivers::TagUid a = drivers::simulatedTagUid("odessa");
    const drivers::TagUid b = drivers::simulatedTagUid("dead");
    recorder.inputTaken({0, trace::ScanLine{{"floor2"}, {std::max(a, b), std::min(a, b)}}}, first);
    recorder.inputTaken({5, trace::ReaderFaultLine{{"floor4"}, "garbage"}}, first);
    CHECK(f.log.traceLines(first).size() == 2);

    // floor4 is said again before the second game: only floor2 is written at its start, tags in order.
    const trace::TraceLine again{50, trace::ReaderFaultLine{{"floor4"}, "no answer"}};
    recorder.inputTaken(again, std::nullopt);
    const auto second = f.newGame();
    recorder.inputTaken(press(60), second);
    CHECK(f.log.traceLines(second) ==
          std::vector<std::string>{text(again),
                                   text({60, trace::ScanLine{{"floor2"}, {std::min(a, b), std::max(a, b)}}}),
                                   text(press(60))});
}

TEST_CASE("recorder: a castle's scans taken become once lines, repeats left out stay out") {
    Fixture f;
    table::TraceRecorder recorder(f.log, drivers::standardBoardLayout());
    const auto game = f.newGame();
    const drivers::ReaderIndex floor3 = *drivers::standardBoardLayout().findReader({"floor3"});
    const auto odessa = tags({"odessa"});
    const drivers::ScanResult fault(
        drivers::ScanError{drivers::ScanErrorKind::NoAnswer, "reader floor3: no answer"});
    recorder.inputTaken(press(0), game);
    for (std::int64_t t : {0, 100, 200, 300})
        recorder.castleScanned(floor3, odessa, Timestamp(t), true, game);
    recorder.castleScanned(floor3, odessa, Timestamp(400), false, game);  // a repeat: left out
    recorder.castleScanned(floor3, fault, Timestamp(500), true, game);    // a change
    const auto lines = f.log.traceLines(game);
    REQUIRE(lines.size() == 6);
    CHECK(lines[4] == text({300, trace::ScanLine{{"floor3"}, {drivers::simulatedTagUid("odessa")}, true}}));
    CHECK(lines[5] == text({500, trace::ReaderFaultLine{{"floor3"}, "no answer", true}}));
    CHECK(recorder.counters().onceLines == 5);

    // The next game starts with the reader's window: its last scan, as many
    // times in a row as the pipeline took it (at most majority_scans).
    for (std::int64_t t : {600, 700, 800, 900})
        recorder.castleScanned(floor3, odessa, Timestamp(t), t < 900, game);
    const auto next = f.newGame();
    recorder.inputTaken(press(1000), next);
    const std::string held =
        text({1000, trace::ScanLine{{"floor3"}, {drivers::simulatedTagUid("odessa")}, true}});
    CHECK(f.log.traceLines(next) == std::vector<std::string>{held, held, held, text(press(1000))});
}

TEST_CASE("recorder: the referee's own chance is written as a host line, at once on disk") {
    Fixture f;
    table::TraceRecorder recorder(f.log, drivers::standardBoardLayout());
    const auto game = f.newGame();
    recorder.inputTaken(press(0), game);
    recorder.inputTaken(press(10), game);  // buffered
    recorder.ownChance(referee::OwnChance{Timestamp(20), {{"undo", nlohmann::json::object()}}}, game);
    store::GameStore reader(f.dir / "log.sqlite", store::GameStore::Access::MustExist);
    const auto onDisk = reader.traceLines(game);
    REQUIRE(onDisk.size() == 3);
    CHECK(onDisk[2] == text({20, trace::HostLine{trace::HostKind::Undo, nlohmann::json::object(), {}, {}}}));
    CHECK(recorder.counters().ownChanceLines == 1);
}

TEST_CASE("recorder beside a castle-mode rig: what the rig leaves out is not recorded") {
    Fixture f;
    simulation::RigOptions options;
    options.castleScans = true;
    simulation::SimulationRig rig(options, &f.log);
    table::TraceRecorder recorder(f.log, rig.layout(), {rig.options().sensing});
    rig.attach(recorder);
    const drivers::ReaderIndex floor3 = *rig.layout().findReader({"floor3"});
    const auto odessa = tags({"odessa"});
    for (std::int64_t t = 0; t < 2000; t += 20) rig.scan(floor3, odessa, Timestamp(t));
    rig.scan(floor3, tags({}), Timestamp(2000));
    const auto& counters = rig.counters();
    CHECK(counters.repeatedScans > 0);
    CHECK(counters.scans + counters.repeatedScans == 101);
    // No game yet: every scan the rig took waits, as a once line, for the next game.
    CHECK(recorder.heldLines() == static_cast<std::size_t>(counters.scans));
    CHECK(recorder.counters().onceLines == counters.linesConsumed);
}

}  // namespace
}  // namespace vivaref::simtest
