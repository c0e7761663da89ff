// The sensing pipeline against scripted scans: every reader of the small
// castle is scanned every 40 ms, in layout order, unless a case says otherwise.
#include <doctest/doctest.h>

#include "tests/drivers/sensing_script.hpp"

using namespace vivaref::drivers;
using namespace vivaref::drivers::testing;
using namespace std::chrono_literals;

namespace {

constexpr Timestamp kTick = 40ms;

// Scans every reader at every tick in [from, to): `floor` sees `slugs`, the others nothing.
void holdOn(Script& s, const std::string& floor, std::initializer_list<const char*> slugs, Timestamp from,
            Timestamp to) {
    for (Timestamp t = from; t < to; t += kTick) {
        for (const char* reader : {"floor2", "floor3", "floor4", "floor5a", "floor5b"}) {
            if (reader == floor) {
                s.scan(reader, slugs, t);
            } else {
                s.scan(reader, {}, t);
            }
        }
    }
}

}  // namespace

TEST_CASE("Sensing: a tag put on a floor becomes stable at the read that spans the window, carrying when") {
    Script s;
    holdOn(s, "floor3", {"odessa"}, 0ms, 159ms);
    // odessa is first seen at 0 (one scan held, one hit: a majority); read
    // again at 40, 80 and 120, still within the 150 ms window.
    s.update(159ms);
    CHECK(s.changes.empty());
    holdOn(s, "floor3", {"odessa"}, 160ms, 400ms);
    const BoardObservation observation = s.update(400ms);
    REQUIRE(s.changes.size() == 1);
    CHECK(s.changes[0].character.name == "odessa");
    CHECK(s.changes[0].uid == uidOf("odessa"));
    CHECK(s.changes[0].from == TagLocation::absent());
    CHECK(s.changes[0].to == TagLocation::onPlace({"3"}));
    CHECK(s.changes[0].seenAt == 0ms);
    CHECK(s.changes[0].stableAt == 160ms);  // the first read 150 ms or more after the first
    CHECK(placeIn(observation, "odessa") == "3");
    CHECK_FALSE(observation.onBoard.at({"odessa"}).uncertain);
    CHECK(observation.inHand.empty());
    CHECK(observation.at == 400ms);
}

TEST_CASE("Sensing: a move between floors is stable once the new floor's reads span the window") {
    Script s;
    holdOn(s, "floor2", {"odessa"}, 0ms, 440ms);
    holdOn(s, "floor4", {"odessa"}, 440ms, 600ms);
    // floor4 has two reads of three at 480, but floor 2 keeps the tag while
    // its reader still has it in one of its last three scans: until 520.
    // floor4's reads from 440 span the window at its read at 600.
    s.update(599ms);
    REQUIRE(s.changes.size() == 1);
    holdOn(s, "floor4", {"odessa"}, 600ms, 640ms);
    s.update(600ms);
    REQUIRE(s.changes.size() == 2);
    holdOn(s, "floor4", {"odessa"}, 640ms, 1000ms);
    s.update(1000ms);
    REQUIRE(s.changes.size() == 2);
    CAPTURE(describe(s.changes[1]));
    CHECK(s.changes[1].from == TagLocation::onPlace({"2"}));
    CHECK(s.changes[1].to == TagLocation::onPlace({"4"}));
    CHECK(s.changes[1].seenAt == 520ms);
    CHECK(s.changes[1].stableAt == 600ms);
}

TEST_CASE("Sensing: a flapping tag stays put") {
    Script s;
    holdOn(s, "floor3", {"odessa"}, 0ms, 200ms);
    SUBCASE("missed one scan in three: the majority never loses it") {
        for (Timestamp t = 200ms; t < 2000ms; t += kTick) {
            const bool missed = (t / kTick) % 3 == 0;
            missed ? s.scan("floor3", {}, t) : s.scan("floor3", {"odessa"}, t);
        }
    }
    SUBCASE("missed every other scan: the majority flickers, the window absorbs it") {
        for (Timestamp t = 200ms; t < 2000ms; t += kTick) {
            const bool missed = (t / kTick) % 2 == 0;
            missed ? s.scan("floor3", {}, t) : s.scan("floor3", {"odessa"}, t);
        }
    }
    const BoardObservation observation = s.update(2000ms);
    CAPTURE(s.log());
    CHECK(s.described() == std::vector<std::string>{"odessa: absent -> on 3 (seen 0 ms, stable 160 ms)"});
    CHECK(placeIn(observation, "odessa") == "3");
}

TEST_CASE("Sensing: a tag two floors read goes where it reads most consistently") {
    Script s;
    SUBCASE("floor2 reads it two scans in three, floor3 every scan: floor 3") {
        for (Timestamp t = 0ms; t < 1000ms; t += kTick) {
            s.scan("floor3", {"odessa"}, t);
            (t / kTick) % 3 == 0 ? s.scan("floor2", {}, t) : s.scan("floor2", {"odessa"}, t);
        }
        const BoardObservation observation = s.update(1000ms);
        CHECK(placeIn(observation, "odessa") == "3");
        CHECK(observation.ambiguous.empty());
        for (const auto& change : s.changes) CHECK(change.to.kind != TagLocation::Kind::Ambiguous);
    }
    SUBCASE("both read it every scan: ambiguous, until one stops") {
        for (Timestamp t = 0ms; t < 1000ms; t += kTick) {
            s.scan("floor2", {"odessa"}, t);
            s.scan("floor3", {"odessa"}, t);
        }
        BoardObservation observation = s.update(1000ms);
        CHECK(observation.onBoard.empty());
        CHECK(observation.ambiguous.at({"odessa"}) == std::vector<PlaceName>{{"2"}, {"3"}});
        holdOn(s, "floor3", {"odessa"}, 1000ms, 1400ms);
        observation = s.update(1400ms);
        CHECK(placeIn(observation, "odessa") == "3");
        CAPTURE(s.log());
        CHECK(s.described() ==
              std::vector<std::string>{"odessa: absent -> ambiguous 2|3 (seen 0 ms, stable 150 ms)",
                                       // floor 3 has read it in every scan since 0
                                       "odessa: ambiguous 2|3 -> on 3 (seen 1000 ms, stable 1000 ms)"});
    }
    SUBCASE("two readers of the same floor: one place, not ambiguous") {
        for (Timestamp t = 0ms; t < 400ms; t += kTick) {
            s.scan("floor5a", {"odessa"}, t);
            s.scan("floor5b", {"odessa"}, t);
        }
        CHECK(placeIn(s.update(400ms), "odessa") == "5");
    }
}

TEST_CASE("Sensing: unknown or mangled UIDs are reported, never placed") {
    Script s;
    const TagUid mangled = TagUid::fromHex(
        "04"
        "6F646573736B");  // odessa's UID with its last bit changed
    for (Timestamp t = 0ms; t < 400ms; t += kTick) {
        s.scan("floor3", {"odessa"}, t, {kGarbage});
        s.scan("floor4", {}, t, {mangled});
    }
    const BoardObservation observation = s.update(400ms);
    CHECK(observation.onBoard.size() == 1);
    CHECK(placeIn(observation, "odessa") == "3");
    REQUIRE(observation.unknownTags.size() == 2);
    CHECK(observation.unknownTags[0].uid == kGarbage);
    CHECK(observation.unknownTags[0].reader.name == "floor3");
    CHECK(observation.unknownTags[0].lastSeen == 360ms);
    CHECK(observation.unknownTags[1].uid == mangled);
    CHECK(observation.unknownTags[1].reader.name == "floor4");
    CHECK(s.pipeline.quality(*s.pipeline.layout().findReader({"floor3"})).unknownTagReads == 10);
    // Once out of the last K scans, a stray UID is no longer reported.
    holdOn(s, "floor3", {"odessa"}, 400ms, 600ms);
    CHECK(s.update(600ms).unknownTags.empty());
}

TEST_CASE("Sensing: a reader that failed a scan is failing until majorityScans scans in a row succeed") {
    Script s;
    holdOn(s, "floor3", {"odessa"}, 0ms, 200ms);
    CHECK(s.update(200ms).failingReaders.empty());
    s.fail("floor3", 200ms);
    const ReaderIndex floor3 = *s.pipeline.layout().findReader({"floor3"});
    BoardObservation observation = s.update(200ms);
    CHECK(observation.failingReaders == std::vector<ReaderId>{{"floor3"}});
    CHECK(observation.faultyReaders.empty());  // one failure: failing, not faulty
    CHECK(placeIn(observation, "odessa") == "3");
    s.scan("floor3", {"odessa"}, 240ms);
    s.scan("floor3", {"odessa"}, 280ms);
    CHECK(s.update(280ms).failingReaders == std::vector<ReaderId>{{"floor3"}});
    s.fail("floor3", 320ms);  // a new gap starts the count again
    s.scan("floor3", {"odessa"}, 360ms);
    s.scan("floor3", {"odessa"}, 400ms);
    CHECK(s.pipeline.quality(floor3).failing);
    s.scan("floor3", {"odessa"}, 440ms);
    CHECK_FALSE(s.pipeline.quality(floor3).failing);
    CHECK(s.update(440ms).failingReaders.empty());
    CHECK(s.changes.size() == 1);  // the first placement only: a gap changes no place
}

TEST_CASE("Sensing: a reader that drops out holds its tags, uncertain, and is reported faulty") {
    Script s;
    holdOn(s, "floor3", {"odessa"}, 0ms, 200ms);
    s.fail("floor3", 200ms);
    s.fail("floor3", 240ms);
    const ReaderIndex floor3 = *s.pipeline.layout().findReader({"floor3"});
    CHECK_FALSE(s.pipeline.quality(floor3).faulty);  // two failures: not yet
    s.fail("floor3", 280ms);
    for (Timestamp t = 320ms; t < 2000ms; t += kTick) s.fail("floor3", t);
    BoardObservation observation = s.update(2000ms);
    CHECK(placeIn(observation, "odessa") == "3");
    CHECK(observation.onBoard.at({"odessa"}).uncertain);
    CHECK(observation.faultyReaders == std::vector<ReaderId>{{"floor3"}});
    CHECK(observation.failingReaders == std::vector<ReaderId>{{"floor3"}});
    const ReaderQuality& quality = s.pipeline.quality(floor3);
    CHECK(quality.faulty);
    CHECK(quality.scans == 5 + 45);
    CHECK(quality.successes == 5);
    CHECK(quality.consecutiveFailures == 45);
    CHECK(quality.successRate() == doctest::Approx(0.1));
    REQUIRE(quality.lastError);
    CHECK(quality.lastError->kind == ScanErrorKind::NoAnswer);
    CHECK(quality.lastErrorAt == 1960ms);
    CHECK(s.changes.size() == 1);  // only the first placement: nothing dropped

    SUBCASE("it comes back with the tag: certain again, no change") {
        holdOn(s, "floor3", {"odessa"}, 2000ms, 2400ms);
        observation = s.update(2400ms);
        CHECK_FALSE(observation.onBoard.at({"odessa"}).uncertain);
        CHECK(observation.faultyReaders.empty());
        CHECK(s.changes.size() == 1);
    }
    SUBCASE("it comes back without the tag: lifted while it was down, so in hand from then on") {
        holdOn(s, "floor3", {}, 2000ms, 2400ms);
        observation = s.update(2400ms);
        REQUIRE(s.changes.size() == 2);
        CHECK(describe(s.changes[1]) == "odessa: on 3 -> in hand from 3 (seen 2000 ms, stable 2150 ms)");
    }
    SUBCASE("another floor sees the tag meanwhile: it moved, and healthy readers say where") {
        for (Timestamp t = 2000ms; t < 2400ms; t += kTick) {
            s.fail("floor3", t);
            s.scan("floor4", {"odessa"}, t);
        }
        observation = s.update(2400ms);
        CHECK(placeIn(observation, "odessa") == "4");
        CHECK_FALSE(observation.onBoard.at({"odessa"}).uncertain);
    }
}

TEST_CASE("Sensing: a tag read beside its place while that place's reader is down waits for it") {
    Script s;
    holdOn(s, "floor3", {"odessa"}, 0ms, 200ms);
    // floor 3's reader is down; floor 4's reads odessa every scan meanwhile
    // (a cross-read of a still tag looks just like this).
    for (Timestamp t = 200ms; t < 480ms; t += kTick) {
        s.fail("floor3", t);
        s.scan("floor4", {"odessa"}, t);
    }
    BoardObservation observation = s.update(479ms);
    CHECK(placeIn(observation, "odessa") == "3");
    CHECK(s.changes.size() == 1);
    SUBCASE("its reader comes back with it: it never left") {
        s.scan("floor3", {"odessa"}, 480ms);
        s.scan("floor4", {"odessa"}, 480ms);
        observation = s.update(480ms);
        CHECK(placeIn(observation, "odessa") == "3");
        CHECK(s.changes.size() == 1);
    }
    SUBCASE("its reader comes back without it: it moved, when floor 4's reads spanned the window") {
        holdOn(s, "floor4", {"odessa"}, 480ms, 600ms);
        observation = s.update(600ms);
        CHECK(placeIn(observation, "odessa") == "4");
        REQUIRE(s.changes.size() == 2);
        CHECK(s.changes[1].stableAt == 360ms);  // decided at 480
    }
    SUBCASE("its reader stays down: floor 4 has it blindLeaveWait after floor 3's last answer") {
        const Timestamp due = 160ms + SensingConfig{}.blindLeaveWait;
        for (Timestamp t = 480ms; t < due; t += kTick) {
            s.fail("floor3", t);
            s.scan("floor4", {"odessa"}, t);
        }
        const auto deadline = s.pipeline.nextDeadline();
        REQUIRE(deadline);
        CHECK(*deadline == due);
        observation = s.update(due - 1ms);
        CHECK(placeIn(observation, "odessa") == "3");
        observation = s.update(due);
        CHECK(placeIn(observation, "odessa") == "4");
    }
}

TEST_CASE("Sensing: a reader whose last scan failed confirms no new place with its old reads") {
    Script s;
    holdOn(s, "floor2", {"odessa"}, 0ms, 400ms);
    // floor 3's reader picks odessa up across from floor 2 for a while...
    for (Timestamp t = 400ms; t < 600ms; t += kTick) {
        s.scan("floor2", {"odessa"}, t);
        s.scan("floor3", {"odessa"}, t);
    }
    // ...then fails, as odessa is lifted from floor 2.
    for (Timestamp t = 600ms; t < 800ms; t += kTick) {
        s.scan("floor2", {}, t);
        s.fail("floor3", t);
    }
    BoardObservation observation = s.update(800ms);
    CAPTURE(s.log());
    CHECK(placeIn(observation, "odessa") != "3");
    // Its next scan says what floor 3 really holds.
    s.scan("floor3", {}, 800ms);
    s.scan("floor3", {}, 840ms);
    s.scan("floor3", {}, 880ms);
    observation = s.update(880ms);
    CHECK(placeIn(observation, "odessa") != "3");
    for (const auto& change : s.changes) CHECK(change.to != TagLocation::onPlace({"3"}));
}

TEST_CASE("Sensing: a tag lifted is in hand for the grace, then gone") {
    Script s;
    holdOn(s, "floor3", {"odessa"}, 0ms, 400ms);
    holdOn(s, "floor3", {}, 400ms, 1000ms);
    // floor3 loses it at 480, the first time none of its last three scans has it.
    BoardObservation observation = s.update(1000ms);
    CHECK(observation.onBoard.empty());
    REQUIRE(observation.inHand.contains({"odessa"}));
    CHECK(observation.inHand.at({"odessa"}).liftedFrom == PlaceName{"3"});
    CHECK(observation.inHand.at({"odessa"}).since == 480ms);

    SUBCASE("put back within the grace: back on its place") {
        holdOn(s, "floor3", {"odessa"}, 1000ms, 1400ms);
        observation = s.update(5000ms);
        CHECK(placeIn(observation, "odessa") == "3");
        CHECK(observation.inHand.empty());
        CAPTURE(s.log());
        CHECK(s.described() ==
              std::vector<std::string>{"odessa: absent -> on 3 (seen 0 ms, stable 160 ms)",
                                       "odessa: on 3 -> in hand from 3 (seen 480 ms, stable 630 ms)",
                                       // read from 1000: its read at 1160 spans the window
                                       "odessa: in hand from 3 -> on 3 (seen 1040 ms, stable 1160 ms)"});
    }
    SUBCASE("never put back: gone when the grace ends") {
        s.update(3479ms);
        CHECK(s.changes.size() == 2);
        observation = s.update(3480ms);
        CHECK(observation.inHand.empty());
        CHECK(observation.onBoard.empty());
        REQUIRE(s.changes.size() == 3);
        CHECK(describe(s.changes[2]) == "odessa: in hand from 3 -> absent (seen 480 ms, stable 3480 ms)");
    }
}

TEST_CASE("Sensing: changes come out in the order they became stable") {
    Script s;
    for (Timestamp t = 0ms; t < 400ms; t += kTick) {
        s.scan("floor2",
               t >= 80ms ? std::initializer_list<const char*>{"cecco"} : std::initializer_list<const char*>{},
               t);
        s.scan("floor4", {"beatrice"}, t);
    }
    s.update(400ms);
    REQUIRE(s.changes.size() == 2);
    CHECK(s.changes[0].character.name == "beatrice");
    CHECK(s.changes[1].character.name == "cecco");
    CHECK(s.changes[1].stableAt == 240ms);  // floor2's first read of cecco 150 ms after its first, at 80
}

TEST_CASE("Sensing: bad configuration and unknown readers") {
    SensingConfig config;
    config.inHandGrace = config.stabilityWindow;
    CHECK_THROWS_AS(SensingPipeline(smallCastle(), someCharacters(), config), std::invalid_argument);
    config = {};
    config.majorityScans = 0;
    CHECK_THROWS_AS(SensingPipeline(smallCastle(), someCharacters(), config), std::invalid_argument);
    CHECK_THROWS_AS(SensingPipeline(BoardLayout{}, someCharacters()), std::invalid_argument);

    TagRegistry registry = someCharacters();
    CHECK_THROWS_AS(registry.enrol(uidOf("odessa"), {"someone"}), std::invalid_argument);
    CHECK_THROWS_AS(registry.enrol(kGarbage, {"odessa"}), std::invalid_argument);
    BoardLayout layout = smallCastle();
    CHECK_THROWS_AS(layout.addReader({"floor2"}, {"3"}), std::invalid_argument);

    SensingPipeline pipeline(smallCastle(), someCharacters());
    CHECK_FALSE(pipeline.addScan(ReaderId{"floor9"}, ScanResult(TagSet{}), 0ms));
}

TEST_CASE("Sensing: a placed tag stays while its own reader still reads it, however well a neighbour does") {
    Script s;
    holdOn(s, "floor3", {"odessa"}, 0ms, 400ms);
    // Its own reader now gets it one scan in three; floor 2's reader every scan.
    for (Timestamp t = 400ms; t < 2000ms; t += kTick) {
        (t / kTick) % 3 == 0 ? s.scan("floor3", {"odessa"}, t) : s.scan("floor3", {}, t);
        s.scan("floor2", {"odessa"}, t);
    }
    BoardObservation observation = s.update(2000ms);
    CAPTURE(s.log());
    CHECK(placeIn(observation, "odessa") == "3");
    CHECK(s.changes.size() == 1);
    // Once floor 3 has not read it for three scans, floor 2 has it.
    holdOn(s, "floor2", {"odessa"}, 2000ms, 2400ms);
    observation = s.update(2400ms);
    CHECK(placeIn(observation, "odessa") == "2");
}

TEST_CASE("Sensing: a scan stamped earlier than the last one counts as now") {
    Script s;
    holdOn(s, "floor3", {"odessa"}, 0ms, 400ms);
    s.scan("floor4", {"beatrice"}, 100ms);  // late: taken at 360, the latest time seen
    CHECK(s.pipeline.quality(*s.pipeline.layout().findReader({"floor4"})).lastSuccessAt == 360ms);
    s.scan("floor4", {"beatrice"}, 400ms);
    const ReaderIndex floor4 = *s.pipeline.layout().findReader({"floor4"});
    CHECK(s.pipeline.quality(floor4).lastSuccessAt == 400ms);
    s.update(100ms);  // an update in the past is an update now
    REQUIRE(s.changes.size() == 1);
    CHECK(s.changes[0].stableAt == 160ms);
}

// The default knobs, for a brisk table: a put is stable at the first read
// 45 ms or more after its first, a lift is in hand as soon as the reader has
// missed the tag twice in a row, and a tag seen on a new place is there once
// its reads span the window, whatever the in-hand grace.
TEST_CASE("Sensing, default knobs: a put is stable at its first read 45 ms after the first") {
    Script s(SensingConfig{});
    holdOn(s, "floor3", {}, 0ms, 200ms);            // the readers were scanning an empty castle
    holdOn(s, "floor3", {"odessa"}, 200ms, 280ms);  // reads at 200 and 240
    s.update(279ms);
    CHECK(s.changes.empty());                // seen at 240 (two reads of three), but only 40 ms apart
    CHECK_FALSE(s.pipeline.nextDeadline());  // no time decides it: the next read does
    s.update(400ms);
    CHECK(s.changes.empty());
    s.scan("floor3", {"odessa"}, 400ms);  // a read 200 ms after the first
    s.update(400ms);
    REQUIRE(s.changes.size() == 1);
    CHECK(s.changes[0].to == TagLocation::onPlace({"3"}));
    CHECK(s.changes[0].seenAt == 240ms);
    CHECK(s.changes[0].stableAt == 400ms);
}

TEST_CASE("Sensing, default knobs: a hand brushing past, read twice within the window, places nothing") {
    Script s(SensingConfig{});
    holdOn(s, "floor3", {"odessa"}, 0ms, 200ms);
    REQUIRE(s.changes.empty());
    s.update(200ms);
    REQUIRE(s.changes.size() == 1);
    // Lifted (two misses), then it brushes floor 4, read at 300 and 330, gone at 345.
    s.scan("floor3", {}, 200ms);
    s.scan("floor3", {}, 240ms);
    s.scan("floor4", {"odessa"}, 300ms);
    s.scan("floor4", {"odessa"}, 330ms);
    s.scan("floor4", {}, 350ms);
    s.scan("floor4", {}, 390ms);
    s.update(1000ms);
    CAPTURE(s.log());
    for (const auto& change : s.changes) CHECK(change.to != TagLocation::onPlace({"4"}));
    // And a read in the window's last scan does not count without one past it.
    s.scan("floor4", {"odessa"}, 1000ms);
    s.scan("floor4", {"odessa"}, 1044ms);
    s.update(1044ms);
    for (const auto& change : s.changes) CHECK(change.to != TagLocation::onPlace({"4"}));
    s.scan("floor4", {"odessa"}, 1045ms);
    s.update(1045ms);
    REQUIRE_FALSE(s.changes.empty());
    CHECK(s.changes.back().to == TagLocation::onPlace({"4"}));
    CHECK(s.changes.back().stableAt == 1045ms);
}

TEST_CASE("Sensing, default knobs: a lift is in hand once its reader has missed the tag twice") {
    Script s(SensingConfig{});
    holdOn(s, "floor3", {"odessa"}, 0ms, 200ms);
    s.update(200ms);
    REQUIRE(s.changes.size() == 1);
    holdOn(s, "floor3", {}, 200ms, 240ms);  // one miss: nothing
    s.update(239ms);
    CHECK(s.changes.size() == 1);
    holdOn(s, "floor3", {}, 240ms, 280ms);  // the second: in hand, at that scan
    const auto observation = s.update(240ms);
    REQUIRE(s.changes.size() == 2);
    CHECK(s.changes[1].to == TagLocation::inHand(PlaceName{"3"}));
    CHECK(s.changes[1].stableAt == 240ms);
    CHECK(observation.inHand.contains({"odessa"}));
}

TEST_CASE("Sensing, default knobs: a piece held past the grace is on its new place a window after it lands") {
    Script s(SensingConfig{});
    holdOn(s, "floor3", {"odessa"}, 0ms, 200ms);
    holdOn(s, "floor3", {}, 200ms, 4000ms);  // gone at 240 + 3000
    s.update(4000ms);
    REQUIRE(s.changes.size() == 3);
    CHECK(s.changes[2].to == TagLocation::absent());
    holdOn(s, "floor4", {"odessa"}, 4000ms, 4200ms);
    s.update(4080ms);
    REQUIRE(s.changes.size() == 4);
    CHECK(s.changes[3].to == TagLocation::onPlace({"4"}));
    CHECK(s.changes[3].stableAt == 4080ms);  // read at 4000, 4040 and 4080: spanned
}

// A castle whose scans come rarely (only those that say something new) still
// sees each change when it is due: the pipeline says when that is.
TEST_CASE("Sensing: nextDeadline says when a window or a grace ends, and updating then commits it") {
    Script s(SensingConfig{});
    holdOn(s, "floor3", {}, 0ms, 200ms);  // an empty castle
    s.update(200ms);
    CHECK_FALSE(s.pipeline.nextDeadline());
    s.scan("floor3", {"odessa"}, 200ms);
    s.scan("floor3", {"odessa"}, 240ms);  // seen (two reads of three), but not across the window
    CHECK_FALSE(s.pipeline.nextDeadline());
    s.scan("floor3", {"odessa"}, 250ms);  // across it: this very read places it
    CHECK_FALSE(s.pipeline.nextDeadline());
    s.update(250ms);
    REQUIRE(s.changes.size() == 1);
    CHECK(s.changes[0].stableAt == 250ms);
    CHECK(s.changes[0].to == TagLocation::onPlace({"3"}));
    CHECK_FALSE(s.pipeline.nextDeadline());  // nothing pending

    // Lifted: in hand at once (due at the second miss), then gone after the grace.
    s.scan("floor3", {}, 300ms);
    s.scan("floor3", {}, 340ms);
    REQUIRE(s.pipeline.nextDeadline());
    CHECK(*s.pipeline.nextDeadline() == 340ms);
    s.update(340ms);
    REQUIRE(s.changes.size() == 2);
    CHECK(s.changes[1].to == TagLocation::inHand(PlaceName{"3"}));
    REQUIRE(s.pipeline.nextDeadline());
    CHECK(*s.pipeline.nextDeadline() == 340ms + SensingConfig{}.inHandGrace);
    s.update(*s.pipeline.nextDeadline());
    REQUIRE(s.changes.size() == 3);
    CHECK(s.changes[2].to == TagLocation::absent());
    CHECK_FALSE(s.pipeline.nextDeadline());
}
