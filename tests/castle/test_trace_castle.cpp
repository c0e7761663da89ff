// The trace castle: a trace's puts, lifts, scan and reader-fault lines as a
// castle's scans, at the times daemon/simulation/NOTES.md ("Running a
// trace") gives: the board's scans one reader every scan interval, round
// robin from t = 0, a `once` line's scan at once. In virtual time on a
// ManualClock.
#include <algorithm>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "daemon/castle/hand_offer.hpp"
#include "daemon/castle/simulated_castle.hpp"
#include "daemon/castle/trace_castle.hpp"

using namespace vivaref;
using namespace std::chrono_literals;
using drivers::Timestamp;

namespace {

struct Seen {
    drivers::ReaderIndex reader;
    Timestamp at;
    drivers::ScanResult result;
};

struct ScanSink final : castle::CastleSink {
    explicit ScanSink(const drivers::LoopClock& c) : clock(c) {}
    void scanned(drivers::ReaderIndex reader, const drivers::ScanResult& result) override {
        scans.push_back({reader, clock.now(), result});
    }
    void pressed(drivers::StationId /*station*/, drivers::VoteKey /*key*/) override {}
    void problem(const std::string& /*message*/) override {}

    const drivers::LoopClock& clock;
    std::vector<Seen> scans;
};

// A trace castle on the standard board, stepped as the rig steps it: each
// line acts at its `t` after every scan due strictly before it.
struct Replay {
    Replay() : castle(drivers::standardBoardLayout(), clock), sink(clock) { castle.start(sink); }

    void runUntil(Timestamp end) {
        while (auto due = castle.nextDue()) {
            if (*due >= end) break;
            clock.set(*due);
            CHECK(castle.step() == *due + 10ms);
        }
    }
    void take(trace::TraceLine line) {
        runUntil(Timestamp(line.t));
        clock.set(Timestamp(line.t));
        castle.take(line.input);
    }
    drivers::ReaderIndex reader(const std::string& name) const {
        return *castle.layout().findReader(drivers::ReaderId{name});
    }
    std::vector<Seen> scansOf(const std::string& name) const {
        std::vector<Seen> out;
        for (const auto& s : sink.scans)
            if (s.reader == reader(name)) out.push_back(s);
        return out;
    }

    drivers::ManualClock clock;
    castle::TraceCastle castle;
    ScanSink sink;
};

const drivers::TagUid kOdessa = drivers::simulatedTagUid("odessa");

bool holds(const drivers::ScanResult& result, const drivers::TagUid& tag) {
    return result.ok() && result.tags().contains(tag);
}

}  // namespace

TEST_CASE("trace castle: the board scans one reader every interval, round robin from t = 0") {
    Replay replay;
    replay.take({0, trace::PutLine{{"odessa"}, {"3"}}});
    replay.runUntil(250ms);
    const auto& scans = replay.sink.scans;
    REQUIRE(scans.size() == 25);
    const auto readers = replay.castle.layout().readerCount();
    for (std::size_t k = 0; k < scans.size(); ++k) {
        CAPTURE(k);
        CHECK(scans[k].at == Timestamp(10 * static_cast<std::int64_t>(k)));
        CHECK(scans[k].reader == k % readers);
        CHECK(holds(scans[k].result, kOdessa) == (scans[k].reader == replay.reader("floor3")));
    }
    CHECK(replay.castle.nextDue() == Timestamp(250));
}

TEST_CASE("trace castle: a put at t is first seen by its reader's slot at or after t, after the line") {
    Replay replay;
    // floor3's slots: 30, 150, 270, ...
    replay.take({150, trace::PutLine{{"odessa"}, {"3"}}});
    replay.take({150, trace::LiftLine{{"dead"}}});  // a second line at the same t: the slot still waits
    replay.runUntil(151ms);
    const auto mine = replay.scansOf("floor3");
    REQUIRE(mine.size() == 2);
    CHECK_FALSE(holds(mine[0].result, kOdessa));
    CHECK(mine[1].at == 150ms);
    CHECK(holds(mine[1].result, kOdessa));
}

TEST_CASE("trace castle: puts and lifts give the scans the simulated board gives, faults and noise alike") {
    drivers::SimulatedBoardConfig config;
    config.seed = 262;
    Replay replay;
    castle::TraceCastle noisy(drivers::standardBoardLayout(), replay.clock, config);
    ScanSink sink(replay.clock);
    noisy.start(sink);
    drivers::SimulatedBoard board(drivers::standardBoardLayout(), config);
    const auto floor2 = replay.reader("floor2");
    for (auto* b : {&noisy.board(), &board}) {
        b->setFailureRate(floor2, 0.3);
        b->setMissRate(kOdessa, 0.2);
        b->setNeighbourCrosstalk(0.1);
    }
    const std::vector<trace::TraceLine> lines = {{0, trace::PutLine{{"odessa"}, {"2"}}},
                                                 {95, trace::PutLine{{"dead"}, {"4"}}},
                                                 {400, trace::LiftLine{{"odessa"}}},
                                                 {400, trace::PutLine{{"0459AC12"}, {"wc3"}}},
                                                 {777, trace::PutLine{{"odessa"}, {"dungeon1"}}}};
    std::vector<drivers::SimulatedScan> expected;
    for (const auto& line : lines) {
        // The board as the rig drove it before: every scan due before the line, then the line.
        for (auto& scan : board.advanceTo(Timestamp(line.t) - 1ms)) expected.push_back(std::move(scan));
        if (const auto* put = std::get_if<trace::PutLine>(&line.input))
            REQUIRE(board.put(put->tag.uid(), put->place));
        else
            board.lift(std::get<trace::LiftLine>(line.input).tag.uid());

        while (auto due = noisy.nextDue()) {
            if (*due >= Timestamp(line.t)) break;
            replay.clock.set(*due);
            (void)noisy.step();
        }
        replay.clock.set(Timestamp(line.t));
        noisy.take(line.input);
    }
    REQUIRE(sink.scans.size() == expected.size());
    REQUIRE(expected.size() == 78);
    for (std::size_t i = 0; i < expected.size(); ++i) {
        CAPTURE(i);
        CHECK(sink.scans[i].reader == expected[i].reader);
        CHECK(sink.scans[i].at == expected[i].at);
        const auto& got = sink.scans[i].result;
        const auto& want = expected[i].result;
        REQUIRE(got.ok() == want.ok());
        if (got.ok()) CHECK(got.tags() == want.tags());
    }
}

TEST_CASE("trace castle: a scan or reader-fault line says what its reader reads until another names it") {
    Replay replay;
    const auto throne = replay.reader("throne");  // slots 60, 180, 300, 420, ...
    replay.take({0, trace::PutLine{{"odessa"}, {"6"}}});
    replay.take({100, trace::ScanLine{{"throne"}, {drivers::simulatedTagUid("dead")}}});
    replay.take({250, trace::ReaderFaultLine{{"throne"}, "no answer"}});
    replay.take({350, trace::ScanLine{{"throne"}, {}}});
    replay.take({350, trace::LiftLine{{"odessa"}}});  // the reader still reads what the line said
    replay.runUntil(500ms);
    const auto mine = replay.scansOf("throne");
    REQUIRE(mine.size() == 4);
    CHECK(holds(mine[0].result, kOdessa));
    CHECK(mine[1].result.ok());
    CHECK(mine[1].result.tags() == drivers::TagSet{drivers::simulatedTagUid("dead")});
    REQUIRE_FALSE(mine[2].result.ok());
    CHECK(mine[2].result.error().kind == drivers::ScanErrorKind::NoAnswer);
    CHECK(mine[2].result.error().message == "reader throne: no answer");
    CHECK(mine[3].result.ok());
    CHECK(mine[3].result.tags().empty());
    REQUIRE(replay.castle.held(throne));
    CHECK(replay.castle.held(throne)->ok());
}

TEST_CASE("trace castle: a once line is one scan at its t; from then on the board scans nothing") {
    Replay replay;
    replay.take({0, trace::PutLine{{"odessa"}, {"3"}}});
    replay.take({42, trace::ScanLine{{"floor5"}, {kOdessa}, true}});
    const std::size_t board = 5;  // slots 0 to 40, then the line's scan
    CHECK(replay.sink.scans.size() == board + 1);
    CHECK_FALSE(replay.castle.nextDue());
    CHECK(replay.castle.scansGiven());
    replay.take({42, trace::ReaderFaultLine{{"wc3"}, "garbage: CRC error", true}});
    replay.clock.set(Timestamp(1000));
    CHECK(replay.castle.step() == castle::Microseconds::max());
    const auto& scans = replay.sink.scans;
    REQUIRE(scans.size() == board + 2);
    CHECK(scans[board].reader == replay.reader("floor5"));
    CHECK(scans[board].at == 42ms);
    CHECK(holds(scans[board].result, kOdessa));
    CHECK(scans[board + 1].reader == replay.reader("wc3"));
    REQUIRE_FALSE(scans[board + 1].result.ok());
    CHECK(scans[board + 1].result.error().kind == drivers::ScanErrorKind::Protocol);
    CHECK_FALSE(replay.castle.held(replay.reader("floor5")));  // a once line holds nothing
}

TEST_CASE("trace castle: it takes the lines of the board, not the host's or the keys'") {
    CHECK(castle::TraceCastle::takes(trace::PutLine{{"odessa"}, {"3"}}));
    CHECK(castle::TraceCastle::takes(trace::LiftLine{{"odessa"}}));
    CHECK(castle::TraceCastle::takes(trace::ScanLine{{"floor3"}, {}}));
    CHECK(castle::TraceCastle::takes(trace::ReaderFaultLine{{"floor3"}, "no answer", true}));
    CHECK_FALSE(castle::TraceCastle::takes(trace::HostLine{}));
    CHECK_FALSE(castle::TraceCastle::takes(trace::ButtonLine{drivers::StationId{0}, drivers::VoteKey::Yes}));
}

TEST_CASE("trace castle: it offers no hands, nor anything else") {
    Replay replay;
    castle::Castle& any = replay.castle;
    CHECK(any.offer("hands") == nullptr);
    CHECK(castle::offerOf<castle::HandOffer>(any) == nullptr);
    CHECK(any.offer("feet") == nullptr);
}

namespace {

struct SeenMicros {
    drivers::ReaderIndex reader;
    castle::Microseconds at;
    drivers::ScanResult result;
};

struct MicrosSink final : castle::CastleSink {
    explicit MicrosSink(const drivers::LoopClock& c) : clock(c) {}
    void scanned(drivers::ReaderIndex reader, const drivers::ScanResult& result) override {
        scans.push_back({reader, clock.nowMicros(), result});
    }
    void pressed(drivers::StationId /*station*/, drivers::VoteKey /*key*/) override {}
    void problem(const std::string& /*message*/) override {}

    const drivers::LoopClock& clock;
    std::vector<SeenMicros> scans;
};

// The castle model's options: the example castle's rule (adjacent levels), a seed for the noise.
castle::SimulatedCastleOptions modelOptions() {
    castle::SimulatedCastleOptions options;
    options.board.seed = 262;
    options.stabilityWindow = Timestamp(45);
    return options;
}

// A castle stepped as the rig steps the trace castle: at each time it is
// due strictly before `end`; its next due time.
template <class C>
castle::Microseconds stepUntil(C& c, drivers::ManualClock& clock, castle::Microseconds due,
                               castle::Microseconds end) {
    while (due < end) {
        clock.set(due);
        due = c.step();
        REQUIRE(due >= clock.nowMicros());
    }
    return due;
}

void sameScans(const std::vector<SeenMicros>& got, const std::vector<SeenMicros>& want) {
    REQUIRE(got.size() == want.size());
    for (std::size_t i = 0; i < got.size(); ++i) {
        CAPTURE(i);
        CHECK(got[i].reader == want[i].reader);
        CHECK(got[i].at == want[i].at);
        REQUIRE(got[i].result.ok() == want[i].result.ok());
        if (got[i].result.ok()) CHECK(got[i].result.tags() == want[i].result.tags());
    }
}

}  // namespace

TEST_CASE("trace castle: the castle model scans as a simulated castle with the same puts, seed and options") {
    const std::vector<trace::TraceLine> lines = {{0, trace::PutLine{{"odessa"}, {"2"}}},
                                                 {95, trace::PutLine{{"dead"}, {"4"}}},
                                                 {400, trace::LiftLine{{"odessa"}}},
                                                 {400, trace::PutLine{{"0459AC12"}, {"wc3"}}},
                                                 {777, trace::PutLine{{"odessa"}, {"dungeon1"}}},
                                                 {1500, trace::LiftLine{{"dead"}}}};
    drivers::ManualClock traceClock, simClock;
    castle::TraceCastle model(drivers::standardBoardLayout(), traceClock, castle::BoardModel::SimulatedCastle,
                              modelOptions());
    castle::SimulatedCastle simulated(drivers::standardBoardLayout(), simClock, modelOptions());
    CHECK(model.model() == castle::BoardModel::SimulatedCastle);
    MicrosSink modelSink(traceClock), simSink(simClock);
    model.start(modelSink);
    simulated.start(simSink);
    const auto floor2 = *model.layout().findReader(drivers::ReaderId{"floor2"});
    for (auto* board : {&model.board(), &simulated.board()}) {
        board->setFailureRate(floor2, 0.3);
        board->setMissRate(kOdessa, 0.2);
        board->setNeighbourCrosstalk(0.1);
    }
    castle::Microseconds modelDue{0}, simDue{0};
    for (const auto& line : lines) {
        const castle::Microseconds t = Timestamp(line.t);
        modelDue = stepUntil(model, traceClock, modelDue, t);
        simDue = stepUntil(simulated, simClock, simDue, t);
        CHECK(model.nextDue() == modelDue);
        traceClock.set(t);
        simClock.set(t);
        model.take(line.input);
        if (const auto* put = std::get_if<trace::PutLine>(&line.input))
            (void)simulated.put(put->tag.uid(), put->place);
        else
            simulated.lift(std::get<trace::LiftLine>(line.input).tag.uid());
    }
    (void)stepUntil(model, traceClock, modelDue, castle::Microseconds(3'000'000));
    (void)stepUntil(simulated, simClock, simDue, castle::Microseconds(3'000'000));
    // Hundreds of scans a second, at microseconds a millisecond clock has not.
    REQUIRE(modelSink.scans.size() > 1000);
    CHECK(std::any_of(modelSink.scans.begin(), modelSink.scans.end(),
                      [](const SeenMicros& s) { return s.at.count() % 1000 != 0; }));
    sameScans(modelSink.scans, simSink.scans);
}

TEST_CASE("trace castle: in the castle model a scan or reader-fault line holds its reader's reads") {
    drivers::ManualClock clock, simClock;
    castle::TraceCastle model(drivers::standardBoardLayout(), clock, castle::BoardModel::SimulatedCastle,
                              modelOptions());
    castle::SimulatedCastle simulated(drivers::standardBoardLayout(), simClock, modelOptions());
    MicrosSink sink(clock), simSink(simClock);
    model.start(sink);
    simulated.start(simSink);
    const auto throne = *model.layout().findReader(drivers::ReaderId{"throne"});
    const drivers::TagSet dead{drivers::simulatedTagUid("dead")};
    castle::Microseconds due{0}, simDue{0};
    auto at = [&](std::int64_t ms, const trace::TraceInput& input) {
        due = stepUntil(model, clock, due, Timestamp(ms));
        simDue = stepUntil(simulated, simClock, simDue, Timestamp(ms));
        clock.set(Timestamp(ms));
        simClock.set(Timestamp(ms));
        model.take(input);
    };
    at(0, trace::PutLine{{"odessa"}, {"6"}});
    REQUIRE(simulated.put(kOdessa, {"6"}));
    at(100, trace::ScanLine{{"throne"}, {drivers::simulatedTagUid("dead")}});
    simulated.hold(throne, drivers::ScanResult(dead));
    REQUIRE(model.held(throne));
    at(300, trace::ReaderFaultLine{{"throne"}, "no answer"});
    simulated.hold(throne, drivers::ScanResult(drivers::ScanError{drivers::ScanErrorKind::NoAnswer, "held"}));
    at(2000, trace::ScanLine{{"throne"}, {}});
    simulated.hold(throne, drivers::ScanResult(drivers::TagSet{}));
    (void)stepUntil(model, clock, due, castle::Microseconds(12'000'000));
    (void)stepUntil(simulated, simClock, simDue, castle::Microseconds(12'000'000));

    std::vector<SeenMicros> mine;
    for (const auto& s : sink.scans)
        if (s.reader == throne) mine.push_back(s);
    auto between = [&](std::int64_t from, std::int64_t to) {
        std::vector<SeenMicros> out;
        for (const auto& s : mine)
            if (s.at >= Timestamp(from) && s.at < Timestamp(to)) out.push_back(s);
        return out;
    };
    REQUIRE_FALSE(between(0, 100).empty());
    CHECK(holds(between(0, 100).back().result, kOdessa));
    REQUIRE(between(110, 300).size() > 5);
    for (const auto& s : between(110, 300)) CHECK((s.result.ok() && s.result.tags() == dead));
    REQUIRE_FALSE(between(310, 2000).empty());
    for (const auto& s : between(310, 2000)) {
        REQUIRE_FALSE(s.result.ok());
        CHECK(s.result.error().kind == drivers::ScanErrorKind::NoAnswer);
        CHECK(s.result.error().message == "reader throne: no answer");
    }
    REQUIRE_FALSE(between(11'000, 12'000).empty());
    for (const auto& s : between(11'000, 12'000)) CHECK((s.result.ok() && s.result.tags().empty()));
    // The same scans, at the same times, as the simulated castle held alike
    // (the fault's own message aside): holding costs and backs off the same.
    REQUIRE(sink.scans.size() == simSink.scans.size());
    for (std::size_t i = 0; i < sink.scans.size(); ++i) {
        CAPTURE(i);
        CHECK(sink.scans[i].reader == simSink.scans[i].reader);
        CHECK(sink.scans[i].at == simSink.scans[i].at);
        CHECK(sink.scans[i].result.ok() == simSink.scans[i].result.ok());
    }
}

TEST_CASE("trace castle: in the castle model a once line is one scan, and the board scans nothing more") {
    drivers::ManualClock clock;
    castle::TraceCastle model(drivers::standardBoardLayout(), clock, castle::BoardModel::SimulatedCastle,
                              modelOptions());
    MicrosSink sink(clock);
    model.start(sink);
    clock.set(castle::Microseconds(0));
    model.take(trace::PutLine{{"odessa"}, {"3"}});
    const auto due = stepUntil(model, clock, castle::Microseconds(0), castle::Microseconds(42'000));
    const std::size_t before = sink.scans.size();
    REQUIRE(before > 5);
    CHECK(due >= castle::Microseconds(42'000));
    clock.set(castle::Microseconds(42'000));
    model.take(trace::ScanLine{{"floor5"}, {kOdessa}, true});
    CHECK(model.scansGiven());
    CHECK_FALSE(model.nextDue());
    REQUIRE(sink.scans.size() == before + 1);
    CHECK(sink.scans.back().at == castle::Microseconds(42'000));
    CHECK(holds(sink.scans.back().result, kOdessa));
    clock.set(castle::Microseconds(1'000'000));
    CHECK(model.step() == castle::Microseconds::max());
    CHECK(sink.scans.size() == before + 1);
}
