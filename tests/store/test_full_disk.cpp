// A full disk during a game: appends report it and keep their rows in
// memory, in order; once the disk takes them again nothing is lost.
#include <doctest/doctest.h>

#include "daemon/store/game_verifier.hpp"
#include "tests/store/random_game_writer.hpp"

using namespace vivaref;
using namespace vivaref::store;
using namespace vivaref::store::testing;

TEST_CASE("a full disk mid-game loses nothing accepted") {
    ScratchDir dir;
    GameStore log(dir.file("games.sqlite"), GameStore::Access::CreateIfMissing);
    writeRandomGame(log, randomSpec(11), 11);  // something already there
    int refused = 0;
    std::string problem;
    // The file may not grow from the 10th line on (max_page_count).
    auto game =
        writeRandomGame(log, randomSpec(12), 12, [&](const WriteStatus& status, GameId, std::int64_t lines) {
            if (lines == 10) log.limitPagesForTesting(1);
            if (!status.durable) {
                ++refused;
                problem = status.problem;
                CHECK(status.waiting == log.waiting());
            }
            return true;
        });
    CAPTURE(problem);
    REQUIRE(refused > 0);
    CHECK(problem.find("games.sqlite") != std::string::npos);
    CHECK(problem.find("wait in memory") != std::string::npos);
    CHECK(log.waiting() > 0);
    // What serve's last line names when it stops with rows unsaved.
    const auto waiting = log.describeWaiting();
    CHECK(waiting.rfind("game " + std::to_string(game.id.value) + ": ", 0) == 0);
    CHECK(waiting.find(" event") != std::string::npos);
    // Starting another game now is refused outright.
    CHECK_THROWS_AS(writeRandomGame(log, randomSpec(13), 13), StoreError);

    log.limitPagesForTesting(1'000'000);
    const auto status = log.flush();
    CHECK(status.durable);
    CHECK(log.waiting() == 0);
    CHECK(log.recordLines(game.id) == game.record);
    CHECK(verifyGame(log, game.id).agrees);
    CHECK(log.game(game.id)->complete);
    CHECK(log.integrityCheck() == "ok");
    CHECK(log.damage(GameStore::Check::Full).empty());
    CHECK(log.damage(GameStore::Check::Quick).empty());
    CHECK(log.describeWaiting().empty());
}
