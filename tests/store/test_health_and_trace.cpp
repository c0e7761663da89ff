// The referee trace of a game, the readers' health counters, and the raw
// scans' bounded retention.
#include <doctest/doctest.h>

#include "tests/store/random_game_writer.hpp"

using namespace vivaref;
using namespace vivaref::store;
using namespace vivaref::store::testing;

TEST_CASE("a game's trace lines come back in order") {
    ScratchDir dir;
    GameStore log(dir.file("games.sqlite"), GameStore::Access::CreateIfMissing);
    auto game = writeRandomGame(log, randomSpec(2), 2);
    const std::vector<std::string> lines = {
        R"({"t":0,"host":{"undo":{}}})",
        R"({"t":500,"scan":{"reader":"floor3","tags":["0459AC12"]}})",
        R"({"t":900,"button":{"station":2,"key":"no"}})",
    };
    std::int64_t t = 0;
    for (const auto& line : lines) CHECK(log.appendTrace(game.id, t += 10, line).durable);
    CHECK(log.traceLines(game.id) == lines);
    CHECK(log.traceLines(GameId{game.id.value}).size() == 3);
    CHECK_THROWS_AS(log.traceLines(GameId{77}), StoreError);
}

TEST_CASE("reader health counts scans and faults; raw scans keep only the newest") {
    ScratchDir dir;
    GameStore log(dir.file("games.sqlite"), GameStore::Access::CreateIfMissing, Durability::Normal);
    const WallTime at(std::chrono::milliseconds(1'700'000'000'000));
    const std::int64_t kept = 500;
    log.readers().setRawScansKept(kept);
    const std::int64_t scans = kept + 3 * ReaderLog::kRawScanTrimEvery;
    for (std::int64_t i = 0; i < 3; ++i)
        CHECK(log.readers().recordScan("floor3", R"(["0459AC12"])", at).durable);
    CHECK(log.readers().recordFault("floor3", "no answer", at + std::chrono::seconds(1)).durable);
    CHECK(log.readers().recordFault("throne", "garbage", at).durable);
    auto health = log.readers().health();
    REQUIRE(health.size() == 2);
    CHECK(health[0].reader == "floor3");
    CHECK(health[0].scans == 3);
    CHECK(health[0].faults == 1);
    CHECK(health[0].lastFault == "no answer");
    REQUIRE(health[0].lastFaultAt);
    CHECK(*health[0].lastFaultAt == at + std::chrono::seconds(1));
    CHECK(health[1].scans == 0);

    for (std::int64_t i = 3; i < scans; ++i) log.readers().recordScan("floor0", "[]", at);
    CHECK(log.readers().rawScanCount() <= kept + ReaderLog::kRawScanTrimEvery);
    CHECK(log.readers().rawScanCount() >= kept);
    CHECK(log.readers().health()[0].scans == scans - 3);  // counters are never trimmed
}
