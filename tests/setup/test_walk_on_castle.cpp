// The castle walk on the simulated castle (daemon/castle/simulated_castle.hpp):
// its faults (a silenced reader, a tag read by two readers, a tag over the
// wrong reader) found through the castle's own scans and presses, in
// virtual time. The simulated standard castle has no wiring to name: the
// fixes say what to check without lines.
#include <doctest/doctest.h>

#include "daemon/castle/simulated_castle.hpp"
#include "daemon/setup/castle_walk.hpp"
#include "daemon/words/words.hpp"

using namespace vivaref;
using drivers::ReaderIndex;
using drivers::Timestamp;
using setup::WalkAnswer;
using setup::WalkStep;

namespace {

std::string castleWalkText(const engine::Message& m) {
    return words::Words("en", words::NameMarks::Plain).say(m);
}

// The walk fed by a simulated castle: the castle's sink hands it every scan and press.
struct CastleWalkRig final : castle::CastleSink {
    explicit CastleWalkRig(setup::WalkOptions options = {})
        : castle(drivers::standardBoardLayout(), clock),
          walk(
              setup::walkCastleOf(config::CastleConfig{}, castle.layout(), 2), options,
              [this](ReaderIndex r) { return castle.chipOf(r); }, Timestamp{0}) {
        castle.start(*this);
    }
    void scanned(ReaderIndex reader, const drivers::ScanResult& result) override {
        walk.scanned(reader, result, clock.now());
    }
    void pressed(drivers::StationId station, drivers::VoteKey key) override {
        walk.pressed(station, key, clock.now());
    }
    void problem(const std::string&) override {}

    void runFor(Timestamp span) {
        const auto end = clock.nowMicros() + std::chrono::duration_cast<std::chrono::microseconds>(span);
        while (clock.nowMicros() < end) {
            const auto next = castle.step();
            clock.set(std::min(std::max(next, clock.nowMicros() + std::chrono::microseconds(1)), end));
            walk.advance(clock.now());
            castle.show(walk.leds(), clock.now());
        }
    }
    ReaderIndex reader(const std::string& name) const {
        return *castle.layout().findReader(drivers::ReaderId{name});
    }
    std::vector<std::string> texts() const {
        std::vector<std::string> out;
        for (const auto& f : walk.findings())
            out.push_back(castleWalkText(f.finding) + " " + castleWalkText(f.fix));
        return out;
    }

    drivers::ManualClock clock;
    castle::SimulatedCastle castle;
    setup::CastleWalk walk;
};

const drivers::TagUid kWalkTag = drivers::TagUid::fromHex("04C0FFEE000001");

}  // namespace

TEST_CASE(
    "castle walk on the simulated castle: a silenced reader and a cross-read, LEDs shown, keys pressed") {
    CastleWalkRig rig;
    const ReaderIndex silent = rig.reader("floor3");
    rig.castle.board().silence(silent);
    // A tag on floor 1 that floor 2's reader reads too.
    REQUIRE(rig.castle.board().put(kWalkTag, drivers::PlaceName{"1"}));
    rig.castle.board().setCrosstalk(kWalkTag, rig.reader("floor2"), 1.0);
    rig.runFor(Timestamp{2100});
    REQUIRE(rig.walk.step() == WalkStep::Leds);
    const auto texts = rig.texts();
    REQUIRE(texts.size() == 2);
    CHECK(texts[0] == "floor3 (floor 3) does not answer. Check its chip select, its bus and its power.");
    CHECK(texts[1].starts_with("floor1 and floor2 both read the tag 04C0FFEE000001."));
    CHECK(rig.walk.results().readers[rig.reader("floor1")].scans > 50);

    // The LED asked about is the one the castle shows, alone.
    CHECK(rig.castle.leds() == drivers::LedStates{{drivers::LedId{"place-0"}, drivers::LedMode::On}});
    while (rig.walk.step() == WalkStep::Leds) {
        REQUIRE(rig.walk.answer(WalkAnswer::Lit, rig.clock.now()));
        rig.runFor(Timestamp{10});
    }
    // Two simulated stations: each key pressed through the castle's hands.
    REQUIRE(rig.walk.step() == WalkStep::Keys);
    rig.runFor(Timestamp{1600});
    while (rig.walk.step() == WalkStep::Keys) {
        const auto& key = rig.walk.castle().keys[static_cast<std::size_t>(rig.walk.item())];
        rig.castle.press(key.station, key.key);
        rig.runFor(Timestamp{50});
    }
    CHECK(rig.walk.done());
    CHECK(rig.walk.results().keys.size() == 4);
    CHECK(rig.walk.faults() == 2);
    CHECK(rig.castle.leds().empty());
}

TEST_CASE(
    "castle walk on the simulated castle: the tag walk sees a tag over each reader, and the coupled pair") {
    setup::WalkOptions options;
    options.full = true;
    CastleWalkRig rig(options);
    rig.runFor(Timestamp{2100});
    while (rig.walk.step() == WalkStep::Leds) REQUIRE(rig.walk.answer(WalkAnswer::Lit, rig.clock.now()));
    rig.runFor(Timestamp{1600});
    while (rig.walk.step() == WalkStep::Keys) {
        const auto& key = rig.walk.castle().keys[static_cast<std::size_t>(rig.walk.item())];
        rig.castle.press(key.station, key.key);
        rig.runFor(Timestamp{50});
    }
    REQUIRE(rig.walk.step() == WalkStep::Tags);
    // Floor 4's reader also reads whatever is over floor 5's.
    rig.castle.board().setCrosstalk(kWalkTag, rig.reader("floor4"), 0.0);
    int guard = 0;
    while (rig.walk.step() == WalkStep::Tags && guard++ < 100) {
        if (castleWalkText(rig.walk.prompt()) == "Take every tag off the castle.") {
            rig.castle.lift(kWalkTag);
            rig.runFor(Timestamp{100});
            continue;
        }
        const auto& over = rig.walk.castle().readers[static_cast<std::size_t>(rig.walk.item())];
        rig.castle.board().setCrosstalk(kWalkTag, rig.reader("floor4"), over.name == "floor5" ? 1.0 : 0.0);
        REQUIRE(rig.castle.board().putOver(kWalkTag, drivers::ReaderId{over.name}));
        rig.runFor(Timestamp{800});
    }
    REQUIRE(rig.walk.done());
    REQUIRE(rig.texts().size() == 1);
    CHECK(rig.texts()[0].starts_with("floor4 and floor5 both see a tag put on floor 5."));
    for (const auto& check : rig.walk.results().tags) CHECK(check.seenBy.contains(check.over));
}

TEST_CASE(
    "castle walk on the simulated castle: a reader whose scans often fail as garbage garbles; a rare one is "
    "let be") {
    CastleWalkRig rig;
    rig.castle.board().setFailureRate(rig.reader("floor2"),
                                      0.5);  // the simulated board fails as Protocol errors
    rig.castle.board().setFailureRate(rig.reader("floor4"),
                                      0.001);  // about once in the two seconds, if at all
    rig.runFor(Timestamp{2100});
    REQUIRE(rig.walk.step() == WalkStep::Leds);
    const auto texts = rig.texts();
    REQUIRE(texts.size() == 1);
    CHECK(texts[0].starts_with("floor2 garbles its reads ("));
    CHECK(texts[0].ends_with(
        "Two chips may share its chip select, or a wire is loose: check its chip select, bus and power."));
}

TEST_CASE("castle walk: tags left on the castle before the tag walk are looked past once the host goes on") {
    setup::WalkOptions options;
    options.full = true;
    CastleWalkRig rig(options);
    const drivers::TagUid left = drivers::TagUid::fromHex("04DEAD00BEEF01");
    REQUIRE(rig.castle.board().put(left, drivers::PlaceName{"6"}));
    rig.runFor(Timestamp{2100});
    while (rig.walk.step() == WalkStep::Leds) REQUIRE(rig.walk.answer(WalkAnswer::Skip, rig.clock.now()));
    rig.runFor(Timestamp{1600});
    while (rig.walk.step() == WalkStep::Keys) REQUIRE(rig.walk.answer(WalkAnswer::Skip, rig.clock.now()));
    REQUIRE(rig.walk.step() == WalkStep::Tags);
    rig.runFor(Timestamp{500});
    // The throne's tag stays: the walk waits for an empty castle until the host goes on.
    CHECK(castleWalkText(rig.walk.prompt()) == "Take every tag off the castle.");
    CHECK(rig.walk.answers() == std::vector<std::string>{"done", "skip"});
    REQUIRE(rig.walk.answer(WalkAnswer::Done, rig.clock.now()));
    CHECK(castleWalkText(rig.walk.prompt()) == "Put one tag on floor 0 (reader floor0).");
    // The tag over floor 0 is seen by floor0 alone: the throne's is looked past.
    REQUIRE(rig.castle.board().putOver(kWalkTag, drivers::ReaderId{"floor0"}));
    rig.runFor(Timestamp{800});
    REQUIRE(rig.walk.results().tags.size() == 1);
    CHECK(rig.walk.results().tags[0].seenBy == std::set<ReaderIndex>{rig.reader("floor0")});
    // Skip while clearing ends the tag walk.
    CHECK(castleWalkText(rig.walk.prompt()) == "Take every tag off the castle.");
    REQUIRE(rig.walk.answer(WalkAnswer::Skip, rig.clock.now()));
    CHECK(rig.walk.done());
    CHECK(rig.walk.findings().empty());
}
