// The castle model (RigOptions::castleModel, `vivaref simulate`'s default
// --board=castle): a board's trace scanned as the simulated castle scans,
// its scans fed as a castle's (repeats left out) but not recorded. On the
// example castle (daemon/config/examples/castle-2024.ini: 28 readers, its
// field rule and sensing knobs), brisk games end with their records, a put
// is accepted far sooner than under round robin, the same trace gives the
// same log, and the stored trace is the one run.
#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "daemon/castle/real_castle.hpp"
#include "daemon/castle/simulated_castle.hpp"
#include "daemon/config/config_check.hpp"
#include "daemon/simulation/simulate.hpp"
#include "daemon/table/trace_recorder.hpp"
#include "daemon/trace/table_script.hpp"
#include "daemon/trace/trace_writer.hpp"
#include "drivers/time/loop_clock.hpp"
#include "engine/record/replay.hpp"
#include "engine/record/result_json.hpp"
#include "tests/simulation/sim_helpers.hpp"

namespace vivaref::simtest {
namespace {

using drivers::Timestamp;

// The example castle as `vivaref simulate --config` replays a board's trace
// on it (every character by its simulated tag); `model`: the castle model.
simulation::RigOptions exampleCastle(bool model) {
    const auto check = config::checkCastleConfigFile(std::string(VIVAREF_SOURCE_DIR) +
                                                     "/daemon/config/examples/castle-2024.ini");
    REQUIRE(check.status == config::ConfigCheck::Status::Valid);
    simulation::RigOptions options;
    options.layout = castle::realBoardLayout(check.config);
    options.sensing = check.config.sensing;
    options.board.scanInterval = check.config.scanInterval;
    options.referee.seed = 3;
    options.referee.wallAtZero = store::WallTime(std::chrono::milliseconds(1'700'000'000'000));
    if (model) {
        options.castleModel = castle::simulatedCastleOptions(check.config, *options.layout);
        options.castleModel->stabilityWindow = options.sensing.stabilityWindow;
    }
    return options;
}

std::vector<trace::TraceLine> briskGame(const std::string& record, std::uint64_t noiseSeed) {
    trace::TableScriptOptions options;
    options.timing = trace::TableTiming::brisk();
    options.noise.seed = noiseSeed;
    auto script = trace::tableScriptFromRecord(record, options);
    REQUIRE_FALSE(script.error);
    return script.lines;
}

struct Played {
    nlohmann::ordered_json summary;
    simulation::RigCounters counters;
    std::vector<std::int64_t>
        landed;  // put line -> its piece judged there in an update that accepted an action
};

// `vivaref simulate` of `lines` (runTrace), measuring each put's landing.
Played play(const std::vector<trace::TraceLine>& lines, simulation::RigOptions options,
            store::GameStore* log) {
    Played played;
    std::map<std::string, std::pair<std::string, Timestamp>> pending;  // tag -> the put's place and t
    const simulation::SimulationRig* running = nullptr;
    options.onJudged = [&](const drivers::SensingUpdate& update, std::chrono::nanoseconds, int accepted) {
        for (const auto& change : update.changes) {
            auto it = pending.find(change.character.name);
            if (it == pending.end() || change.to.kind != drivers::TagLocation::Kind::OnPlace ||
                !change.to.place || change.to.place->name != it->second.first)
                continue;
            if (accepted > 0) played.landed.push_back((running->now() - it->second.second).count());
            pending.erase(it);
        }
    };
    simulation::SimulationRig rig(options, log);
    running = &rig;
    std::optional<table::TraceRecorder> recorder;
    if (log) {
        recorder.emplace(*log, rig.layout(), table::RecorderOptions{options.sensing});
        rig.attach(*recorder);
    }
    for (const auto& line : lines) {
        if (const auto* put = std::get_if<trace::PutLine>(&line.input))
            pending[put->tag.text] = {put->place.name, Timestamp(line.t)};
        else if (const auto* lift = std::get_if<trace::LiftLine>(&line.input))
            pending.erase(lift->tag.text);
        REQUIRE_FALSE(rig.consume(line));
    }
    rig.finish();
    if (log) log->flush();
    played.summary = simulation::summaryJson(rig.table());
    played.counters = rig.counters();
    return played;
}

std::int64_t median(std::vector<std::int64_t> v) {
    REQUIRE_FALSE(v.empty());
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

}  // namespace

TEST_CASE("castle model: brisk games on the example castle end exactly, a put accepted far sooner") {
    engine::RulesSpec spec;
    spec.edition = engine::Edition::Vive2024;
    // Seed 4 clean, seed 5 with the noise of hands (hovers, grazes, double touches, slow hands).
    for (const std::uint64_t seed : {4, 5}) {
        const std::uint64_t noise = seed == 5 ? seed : 0;
        spec.seats = 3 + static_cast<int>(seed % 3);
        INFO("2024, ", spec.seats, " seats, seed ", seed, std::string(noise ? ", hand noise" : ", clean"));
        const std::string record = randomRecord(spec, seed);
        const auto lines = briskGame(record, noise);
        TempDir dir;
        store::GameStore log(dir / "castle.sqlite", store::GameStore::Access::CreateIfMissing,
                             store::Durability::Normal);
        const Played castle = play(lines, exampleCastle(true), &log);
        CHECK(castle.summary["games_finished"] == 1);
        CHECK(castle.summary["host_refusals"].empty());
        CHECK(castle.summary["own_chance"] == 0);
        if (!noise) CHECK(castle.summary["refusals"].empty());  // a slow hand is told its piece left
        CHECK(castle.summary["results"][0].dump() == record::resultText(record::replayRecord(record)));
        CHECK(log.exportRecord(store::GameId{1}) == record);
        // Hundreds of scans a second, most of them only repeating the last.
        CHECK(castle.counters.repeatedScans > 20 * castle.counters.scans);

        const Played roundRobin = play(lines, exampleCastle(false), nullptr);
        CHECK(roundRobin.summary["games_finished"] == 1);
        const auto fast = median(castle.landed), slow = median(roundRobin.landed);
        MESSAGE("landed -> accepted, p50: castle model ", fast, " ms, round robin ", slow, " ms");
        CHECK(fast < 150);
        CHECK(3 * fast < slow);
    }
}

TEST_CASE(
    "castle model: the rig gets the scans a simulated castle with the same puts makes, when it makes them") {
    const std::vector<trace::TraceLine> lines = {{0, trace::PutLine{{"odessa"}, {"3"}}},
                                                 {250, trace::PutLine{{"dead"}, {"wc3"}}},
                                                 {251, trace::LiftLine{{"odessa"}}},
                                                 {700, trace::PutLine{{"odessa"}, {"0"}}},
                                                 {1300, trace::LiftLine{{"dead"}}}};
    simulation::RigOptions options = exampleCastle(true);
    struct Raw {
        drivers::ReaderIndex reader;
        Timestamp at;
        drivers::ScanResult result;
    };
    std::vector<Raw> got;
    options.onRawScan = [&](drivers::ReaderIndex r, const drivers::ScanResult& result, Timestamp at) {
        got.push_back({r, at, result});
    };
    simulation::SimulationRig rig(options, nullptr);
    for (const auto& line : lines) REQUIRE_FALSE(rig.consume(line));
    rig.runUntil(Timestamp(3000));

    // The same castle alone, stepped when it asks, each line at its t after
    // everything due before it; a scan stamped with its millisecond.
    castle::SimulatedCastleOptions alone = *options.castleModel;
    alone.board = options.board;
    drivers::ManualClock clock;
    castle::SimulatedCastle simulated(*options.layout, clock, alone);
    struct Sink final : castle::CastleSink {
        explicit Sink(const drivers::LoopClock& c) : clock(c) {}
        void scanned(drivers::ReaderIndex r, const drivers::ScanResult& result) override {
            scans.push_back({r, clock.now(), result});
        }
        void pressed(drivers::StationId, drivers::VoteKey) override {}
        void problem(const std::string&) override {}
        const drivers::LoopClock& clock;
        std::vector<Raw> scans;
    } sink(clock);
    simulated.start(sink);
    castle::Microseconds due{0};
    auto stepTo = [&](castle::Microseconds end) {
        while (due < end) {
            clock.set(due);
            due = simulated.step();
        }
    };
    for (const auto& line : lines) {
        stepTo(Timestamp(line.t));
        clock.set(Timestamp(line.t));
        if (const auto* put = std::get_if<trace::PutLine>(&line.input))
            REQUIRE(simulated.put(put->tag.uid(), put->place));
        else
            simulated.lift(std::get<trace::LiftLine>(line.input).tag.uid());
    }
    stepTo(Timestamp(3000));

    REQUIRE(got.size() > 1000);  // the example castle: about a thousand scans a second
    REQUIRE(got.size() == sink.scans.size());
    for (std::size_t i = 0; i < got.size(); ++i) {
        CAPTURE(i);
        CHECK(got[i].reader == sink.scans[i].reader);
        CHECK(got[i].at == sink.scans[i].at);
        REQUIRE(got[i].result.ok() == sink.scans[i].result.ok());
        if (got[i].result.ok()) CHECK(got[i].result.tags() == sink.scans[i].result.tags());
    }
    // Most of them only repeat the last: left out before the pipeline.
    CHECK(rig.counters().repeatedScans > 10 * rig.counters().scans);
    CHECK(rig.counters().scans + rig.counters().repeatedScans == static_cast<std::int64_t>(got.size()));
}

TEST_CASE("castle model: the same trace twice gives the same log, byte for byte") {
    const std::string record = randomRecord(gameFamilies().front().spec, 21);
    const std::string text = trace::writeTrace(briskGame(record, 21));
    TempDir dir;
    std::string dumps[2];
    for (int run = 0; run < 2; ++run) {
        const auto db = dir / ("run" + std::to_string(run) + ".sqlite");
        {
            store::GameStore log(db, store::GameStore::Access::CreateIfMissing, store::Durability::Normal);
            const auto outcome = simulation::simulateTrace(text, exampleCastle(true), &log);
            REQUIRE_FALSE(outcome.error);
            CHECK(outcome.summary["games_finished"] == 1);
        }
        dumps[run] = dumpDatabase(db, false);
    }
    CHECK(dumps[0].size() > 1000);
    CHECK(dumps[0] == dumps[1]);
}

TEST_CASE("castle model: its scans are not recorded; the stored trace is the one run and replays alike") {
    engine::RulesSpec spec;
    spec.edition = engine::Edition::Vive2024;
    spec.seats = 4;
    const std::string record = randomRecord(spec, 8);
    const auto lines = briskGame(record, 8);
    const std::string text = trace::writeTrace(lines);
    TempDir dir;
    store::GameStore first(dir / "first.sqlite", store::GameStore::Access::CreateIfMissing,
                           store::Durability::Normal);
    const Played played = play(lines, exampleCastle(true), &first);
    REQUIRE(played.summary["games_finished"] == 1);
    CHECK(played.summary["trace_lines"] == lines.size());  // the castle's scans are no lines
    const std::string stored = storedTrace(first, store::GameId{1});
    CHECK(stored.find("\"once\"") == std::string::npos);
    CHECK(stored == text);

    // `trace export`, then `simulate` again: the same decisions at the same times, the same trace.
    store::GameStore again(dir / "again.sqlite", store::GameStore::Access::CreateIfMissing,
                           store::Durability::Normal);
    simulation::RigOptions options = exampleCastle(true);
    options.referee.seed = 99;  // the trace holds every deal
    const auto outcome = simulation::simulateTrace(stored, options, &again);
    REQUIRE_FALSE(outcome.error);
    CHECK(eventDifference(first, again, store::GameId{1}) == "");
    CHECK(storedTrace(again, store::GameId{1}) == stored);
}

TEST_CASE("simulate --config takes the castle's stations: a seat without one votes by phone, as in serve") {
    auto check = config::checkCastleConfigFile(std::string(VIVAREF_SOURCE_DIR) +
                                               "/daemon/config/examples/castle-2024.ini");
    REQUIRE(check.status == config::ConfigCheck::Status::Valid);
    auto options = simulation::realCastleRig(check.config, {});
    CHECK(options.referee.stationSeats == std::set<int>{0, 1, 2, 3, 4, 5, 6, 7});
    // Stations for seats 0 and 2 only.
    std::erase_if(check.config.stations,
                  [](const auto& station) { return station.seat != 0 && station.seat != 2; });
    options = simulation::realCastleRig(check.config, {});
    CHECK(options.referee.stationSeats == std::set<int>{0, 2});
}

}  // namespace vivaref::simtest
