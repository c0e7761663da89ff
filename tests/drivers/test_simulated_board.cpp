// The simulated castle in virtual time, alone and feeding the sensing pipeline.
#include <set>

#include <doctest/doctest.h>

#include "drivers/sensing/scan_scheduler.hpp"
#include "drivers/sensing/sensing_pipeline.hpp"
#include "drivers/sim/simulated_board.hpp"

using namespace vivaref::drivers;
using namespace std::chrono_literals;

namespace {

TagRegistry simulatedCharacters(std::initializer_list<const char*> slugs) {
    TagRegistry registry;
    for (const char* slug : slugs) registry.enrol(simulatedTagUid(slug), {slug});
    return registry;
}

// Runs the board and the pipeline together up to `until`, scan by scan.
SensingUpdate runUntil(SimulatedBoard& board, SensingPipeline& pipeline, Timestamp until,
                       std::vector<ObservationChange>& changes) {
    for (const SimulatedScan& scan : board.advanceTo(until))
        pipeline.addScan(scan.reader, scan.result, scan.at);
    SensingUpdate update = pipeline.update(until);
    changes.insert(changes.end(), update.changes.begin(), update.changes.end());
    return update;
}

}  // namespace

TEST_CASE("Simulated board: the referee trace's readers, one per place") {
    const BoardLayout layout = standardBoardLayout();
    REQUIRE(layout.readerCount() == 12);
    CHECK(layout.placeCount() == 12);
    const std::pair<const char*, const char*> expected[] = {
        {"floor0", "0"}, {"floor3", "3"}, {"floor5", "5"},          {"throne", "6"},
        {"wc3", "wc3"},  {"wc4", "wc4"},  {"dungeon1", "dungeon1"}, {"dungeon3", "dungeon3"}};
    // Not a structured binding: clang 14 cannot capture one in CAPTURE's lambda.
    for (const auto& entry : expected) {
        const std::string reader = entry.first;
        CAPTURE(reader);
        const auto index = layout.findReader({reader});
        REQUIRE(index);
        CHECK(layout.place(layout.placeOf(*index)).name == entry.second);
    }
}

TEST_CASE("Simulated board: tag UIDs from slugs are stable, 7 bytes, distinct") {
    CHECK(simulatedTagUid("odessa") == simulatedTagUid("odessa"));
    CHECK(simulatedTagUid("odessa").size() == 7);
    CHECK(simulatedTagUid("odessa").bytes()[0] == 0x04);
    std::set<TagUid> uids;
    for (const char* slug : {"alighiero", "beatrice", "cecco", "dante", "elena", "francesco", "giovanni",
                             "odessa", "ugolino", "lorenzo", "jester", "emissary", "king", "queen"}) {
        uids.insert(simulatedTagUid(slug));
    }
    CHECK(uids.size() == 14);
}

TEST_CASE("Simulated board: put, lift, read back, and scans at the configured rate") {
    SimulatedBoard board;
    const TagUid odessa = simulatedTagUid("odessa");
    CHECK(board.put(odessa, {"3"}));
    CHECK_FALSE(board.put(odessa, {"7"}));
    CHECK(board.placeOf(odessa) == PlaceName{"3"});
    CHECK(board.tagsOn({"3"}) == std::vector<TagUid>{odessa});
    CHECK(board.put(odessa, {"wc4"}));  // a put again is a move
    CHECK(board.tagsOn({"3"}).empty());

    const auto scans = board.advanceTo(115ms);  // 10 ms a scan: readers 0..11 at 0..110
    REQUIRE(scans.size() == 12);
    for (std::size_t i = 0; i < scans.size(); ++i) {
        CHECK(scans[i].reader == i);
        CHECK(scans[i].at == Timestamp(10 * static_cast<int>(i)));
        REQUIRE(scans[i].result.ok());
        const bool underWc4 = board.layout().reader(i).name == "wc4";
        CHECK(scans[i].result.tags() == (underWc4 ? TagSet{odessa} : TagSet{}));
    }
    const auto more = board.advanceTo(125ms);
    REQUIRE(more.size() == 1);
    CHECK(more[0].reader == 0);
    CHECK(more[0].at == 120ms);
    CHECK(board.advanceTo(125ms).empty());

    board.lift(odessa);
    CHECK_FALSE(board.placeOf(odessa));
}

TEST_CASE(
    "Simulated board: pieces put on a floor of several readers stand on its free spots, as players stand "
    "them") {
    BoardLayout layout;
    for (const char* reader : {"floor3-a", "floor3-b", "floor3-c"}) layout.addReader({reader}, {"3"});
    layout.addReader({"floor4"}, {"4"});
    SimulatedBoard board(layout);
    const TagUid a = simulatedTagUid("a"), b = simulatedTagUid("b"), c = simulatedTagUid("c"),
                 d = simulatedTagUid("d");
    auto over = [&](const TagUid& tag) {
        std::vector<std::string> readers;
        for (ReaderIndex r = 0; r < layout.readerCount(); ++r) {
            const ScanResult scan = board.scan(r);
            if (scan.ok() && scan.tags().contains(tag)) readers.push_back(layout.reader(r).name);
        }
        return readers;
    };
    using Names = std::vector<std::string>;
    // Each over the reader holding fewest tags, the first such among equals.
    REQUIRE(board.put(a, {"3"}));
    REQUIRE(board.put(b, {"3"}));
    REQUIRE(board.put(c, {"3"}));
    REQUIRE(board.put(d, {"3"}));
    CHECK(over(a) == Names{"floor3-a"});
    CHECK(over(b) == Names{"floor3-b"});
    CHECK(over(c) == Names{"floor3-c"});
    CHECK(over(d) == Names{"floor3-a"});
    // The spot left free is the next one taken; a piece put again moves, not
    // counted where it stood.
    board.lift(b);
    REQUIRE(board.put(b, {"3"}));
    CHECK(over(b) == Names{"floor3-b"});
    REQUIRE(board.put(c, {"4"}));
    CHECK(over(c) == Names{"floor4"});
    REQUIRE(board.put(c, {"3"}));
    CHECK(over(c) == Names{"floor3-c"});
    REQUIRE(board.put(d, {"3"}));  // where it stands: not counted there, each spot holds one other
    CHECK(over(d) == Names{"floor3-a"});
    CHECK(board.tagsOn({"3"}).size() == 4);
}

TEST_CASE("Simulated board: the pipeline follows a game's moves in virtual time") {
    SimulatedBoard board;
    SensingPipeline pipeline(board.layout(), simulatedCharacters({"odessa", "alighiero"}));
    std::vector<ObservationChange> changes;
    const TagUid odessa = simulatedTagUid("odessa"), alighiero = simulatedTagUid("alighiero");
    REQUIRE(board.put(odessa, {"3"}));
    REQUIRE(board.put(alighiero, {"wc3"}));
    SensingUpdate update = runUntil(board, pipeline, 1000ms, changes);
    CHECK(update.observation.onBoard.at({"odessa"}).place.name == "3");
    CHECK(update.observation.onBoard.at({"alighiero"}).place.name == "wc3");

    board.lift(odessa);
    update = runUntil(board, pipeline, 1500ms, changes);
    CHECK(update.observation.inHand.at({"odessa"}).liftedFrom == PlaceName{"3"});
    REQUIRE(board.put(odessa, {"4"}));
    update = runUntil(board, pipeline, 2500ms, changes);
    CHECK(update.observation.onBoard.at({"odessa"}).place.name == "4");
    REQUIRE(changes.size() == 4);
    CHECK(changes[3].from == TagLocation::inHand(PlaceName{"3"}));
    CHECK(changes[3].to == TagLocation::onPlace({"4"}));
    // Put at 1500; floor4 is scanned every 120 ms and needs two reads of
    // three, and reads across the window: its second read does both.
    CHECK(changes[3].seenAt > 1500ms);
    CHECK(changes[3].seenAt <= 1500ms + 2 * 120ms);
    CHECK(changes[3].stableAt == changes[3].seenAt);

    SUBCASE("a reader that stops answering: faulty, its tag held and uncertain; back, and certain") {
        const ReaderIndex floor4 = *board.layout().findReader({"floor4"});
        board.silence(floor4);
        update = runUntil(board, pipeline, 3000ms, changes);
        CHECK(update.observation.faultyReaders == std::vector<ReaderId>{{"floor4"}});
        CHECK(update.observation.onBoard.at({"odessa"}).uncertain);
        CHECK(pipeline.quality(floor4).lastError->kind == ScanErrorKind::NoAnswer);
        board.restore(floor4);
        update = runUntil(board, pipeline, 3500ms, changes);
        CHECK(update.observation.faultyReaders.empty());
        CHECK_FALSE(update.observation.onBoard.at({"odessa"}).uncertain);
        CHECK(changes.size() == 4);
    }
    SUBCASE("garbage UIDs on one reader: reported, the board unchanged") {
        board.setGarbageRate(*board.layout().findReader({"floor4"}), 1.0);
        update = runUntil(board, pipeline, 3000ms, changes);
        CHECK_FALSE(update.observation.unknownTags.empty());
        for (const auto& unknown : update.observation.unknownTags) CHECK(unknown.reader.name == "floor4");
        CHECK(update.observation.onBoard.size() == 2);
        CHECK(changes.size() == 4);
    }
}

TEST_CASE("Simulated board driven by the scan scheduler: a silent reader is backed off, then found again") {
    SimulatedBoard board;
    const BoardLayout& layout = board.layout();
    SensingPipeline pipeline(layout, simulatedCharacters({"odessa"}));
    ScanScheduler scheduler(layout.readerCount(),
                            {.failuresBeforeBackoff = 2, .firstBackoff = 200ms, .maxBackoff = 2000ms});
    REQUIRE(board.put(simulatedTagUid("odessa"), {"3"}));
    const ReaderIndex floor3 = *layout.findReader({"floor3"});
    std::size_t floor3Scans = 0;
    // One scan every 10 ms, the reader the scheduler names; nothing when all back off.
    auto run = [&](Timestamp from, Timestamp to) {
        for (Timestamp t = from; t < to; t += 10ms) {
            const auto reader = scheduler.next(t);
            if (!reader) continue;
            if (*reader == floor3) ++floor3Scans;
            const ScanResult result = board.scan(*reader);
            result.ok() ? scheduler.reportSuccess(*reader) : scheduler.reportFailure(*reader, t);
            pipeline.addScan(*reader, result, t);
        }
        return pipeline.update(to);
    };
    run(0ms, 1000ms);
    board.silence(floor3);
    floor3Scans = 0;
    SensingUpdate update = run(1000ms, 11000ms);
    // Every turn would be 10 s / 120 ms = 83 scans; backing off to 2 s, a handful.
    CHECK(floor3Scans <= 12);
    CHECK(floor3Scans >= 5);
    CHECK(update.observation.onBoard.at({"odessa"}).uncertain);
    board.restore(floor3);
    update = run(11000ms, 14000ms);  // within one capped back-off it is tried again
    CHECK(update.observation.faultyReaders.empty());
    CHECK_FALSE(update.observation.onBoard.at({"odessa"}).uncertain);
    CHECK(scheduler.failuresInARow(floor3) == 0);
}
