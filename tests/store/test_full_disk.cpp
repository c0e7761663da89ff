// A full disk during a game: an append the disk refuses is reported and
// not kept (the caller has not decided it), what was committed before stays,
// and once the disk takes writes again the same decision is appended anew.
#include <doctest/doctest.h>

#include "daemon/store/game_verifier.hpp"
#include "tests/store/random_game_writer.hpp"

using namespace vivaref;
using namespace vivaref::store;
using namespace vivaref::store::testing;

TEST_CASE("a full disk mid-game keeps what was committed and nothing it refused") {
    ScratchDir dir;
    GameStore log(dir.file("games.sqlite"), GameStore::Access::CreateIfMissing);
    writeRandomGame(log, randomSpec(11), 11);  // something already there
    std::string problem;
    std::int64_t committedLines = 0;
    // The file may not grow from the 10th line on (max_page_count): the game
    // stops at the first append the disk refuses, as the referee does.
    auto game =
        writeRandomGame(log, randomSpec(12), 12, [&](const WriteStatus& status, GameId, std::int64_t lines) {
            if (!status.durable) {
                problem = status.problem;
                return false;
            }
            committedLines = lines;
            if (lines == 10) log.limitPagesForTesting(1);
            return true;
        });
    CAPTURE(problem);
    REQUIRE_FALSE(problem.empty());
    CHECK(problem.find("games.sqlite") != std::string::npos);
    CHECK(problem.find("nothing new is saved") != std::string::npos);
    CHECK(log.waiting() == 0);
    CHECK(log.describeWaiting().empty());
    // On disk: every line committed, not the refused one.
    REQUIRE(static_cast<std::int64_t>(game.record.size()) == committedLines + 1);
    const std::vector<std::string> committed(game.record.begin(), game.record.end() - 1);
    CHECK(log.recordLines(game.id) == committed);
    // Starting another game now is refused outright.
    CHECK_THROWS_AS(writeRandomGame(log, randomSpec(13), 13), StoreError);

    // Room again: the game goes on from what is on disk (the refused line
    // decided again), to its end.
    log.limitPagesForTesting(1'000'000);
    CHECK(log.flush().durable);
    const auto finished = resumeRandomGame(log, game.id, 99);
    CHECK(std::equal(committed.begin(), committed.end(), finished.record.begin()));
    CHECK(log.recordLines(game.id) == finished.record);
    CHECK(verifyGame(log, game.id).agrees);
    CHECK(log.game(game.id)->complete);
    CHECK(log.integrityCheck() == "ok");
    CHECK(log.damage(GameStore::Check::Full).empty());
    CHECK(log.damage(GameStore::Check::Quick).empty());
}

TEST_CASE("a batch the disk refuses is kept whole or not at all, and its numbers are free again") {
    ScratchDir dir;
    GameStore log(dir.file("games.sqlite"), GameStore::Access::CreateIfMissing);
    auto game = writeRandomGame(log, randomSpec(21), 21,
                                [](const WriteStatus&, GameId, std::int64_t lines) { return lines < 12; });
    const auto before = log.events(game.id);
    log.limitPagesForTesting(1);
    const std::string filler(4000, 'x');
    log.beginBatch();
    for (int i = 0; i < 50; ++i)
        CHECK(log.appendRefereeEvent(game.id, "note", "{\"x\":\"" + filler + "\"}", WallTime{}).durable);
    CHECK_FALSE(log.endBatch().durable);
    CHECK(log.events(game.id).size() == before.size());
    log.limitPagesForTesting(1'000'000);
    CHECK(log.appendRefereeEvent(game.id, "pause", "{}", WallTime{}).durable);
    const auto after = log.events(game.id);
    REQUIRE(after.size() == before.size() + 1);
    CHECK(after.back().seq == before.back().seq + 1);  // no gap where the batch was
    CHECK(after.back().round == before.back().round);
}
