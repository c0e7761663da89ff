// Random complete games from the engine, written into the log the way the
// referee writes them, must export to the record that was played, replay to
// the result that was logged, and verify equal.
#include <sstream>

#include <doctest/doctest.h>

#include "daemon/store/game_stats.hpp"
#include "daemon/store/game_story.hpp"
#include "daemon/store/game_verifier.hpp"
#include "engine/record/replay.hpp"
#include "engine/record/result_json.hpp"
#include "tests/store/random_game_writer.hpp"

using namespace vivaref;
using namespace vivaref::store;
using namespace vivaref::store::testing;

TEST_CASE("random complete games are stored, exported, replayed and verified equal") {
    ScratchDir dir;
    const auto file = dir.file("games.sqlite");
    std::vector<WrittenGame> written;
    {
        GameStore log(file, GameStore::Access::CreateIfMissing);
        for (std::uint64_t seed = 1; seed <= 60; ++seed) {
            CAPTURE(seed);
            auto game = writeRandomGame(log, randomSpec(seed), seed);
            CHECK(log.waiting() == 0);
            CHECK(log.recordLines(game.id) == game.record);
            const auto replayed = record::replayRecord(log.exportRecord(game.id));
            CHECK(record::resultText(replayed) == record::resultText(game.result));
            CHECK(game.result.value("complete", false));
            written.push_back(std::move(game));
        }
    }
    // Reopened, as the commands do.
    GameStore log(file, GameStore::Access::MustExist);
    REQUIRE(log.games().size() == written.size());
    CHECK(log.integrityCheck() == "ok");
    for (const auto& game : written) {
        CAPTURE(game.id.value);
        const auto check = verifyGame(log, game.id);
        CHECK_MESSAGE(check.agrees, check.what);
        auto summary = log.game(game.id);
        REQUIRE(summary);
        CHECK(summary->complete);
        CHECK_FALSE(summary->abandoned);
        REQUIRE(summary->result);
        CHECK(record::resultText(*summary->result) == record::resultText(game.result));
    }
    CHECK(log.unfinishedGames().empty());
}

TEST_CASE("an undo is an event: the log keeps the undone decision, the export leaves it out") {
    ScratchDir dir;
    GameStore log(dir.file("games.sqlite"), GameStore::Access::CreateIfMissing);
    // Setup, deal and the first placement, then stop.
    auto game = writeRandomGame(log, randomSpec(3), 3,
                                [](const WriteStatus&, GameId, std::int64_t lines) { return lines < 3; });
    REQUIRE(game.record.size() == 3);
    const auto placement = game.record.back();
    CHECK(log.appendUndo(game.id, WallTime{}).durable);
    CHECK(log.recordLines(game.id) == std::vector<std::string>(game.record.begin(), game.record.begin() + 2));
    // The same placement again, after the undo.
    auto resumed = resumeRandomGame(log, game.id, 3);
    const auto events = log.events(game.id);
    REQUIRE(events.size() == resumed.record.size() + 2);  // the undone line and the undo
    CHECK(events[2].kind != "undo");
    CHECK(events[3].kind == "undo");
    CHECK(verifyGame(log, game.id).agrees);
    CHECK(log.unfinishedGames().empty());
}

TEST_CASE("a referee event or an abandon is logged but not exported") {
    ScratchDir dir;
    GameStore log(dir.file("games.sqlite"), GameStore::Access::CreateIfMissing);
    auto game = writeRandomGame(log, randomSpec(5), 5,
                                [](const WriteStatus&, GameId, std::int64_t lines) { return lines < 6; });
    CHECK(log.appendRefereeEvent(game.id, "pause", "{}", WallTime{}).durable);
    CHECK_THROWS_AS(log.appendRefereeEvent(game.id, "move", "{}", WallTime{}), std::invalid_argument);
    CHECK(log.abandonGame(game.id, WallTime{}).durable);
    CHECK(log.recordLines(game.id) == game.record);
    auto summary = log.game(game.id);
    REQUIRE(summary);
    CHECK(summary->abandoned);
    CHECK_FALSE(summary->complete);
    CHECK(verifyGame(log, game.id).agrees);
    CHECK(log.events(game.id).back().kind == "abandon");
}

TEST_CASE("show tells a classic game round by round; stats count it") {
    ScratchDir dir;
    GameStore log(dir.file("games.sqlite"), GameStore::Access::CreateIfMissing);
    engine::RulesSpec spec;  // classic, 4 seats, 3 rounds
    for (std::uint64_t seed = 1; seed <= 3; ++seed) writeRandomGame(log, spec, seed);
    std::ostringstream story;
    writeStory(log, GameId{1}, story);
    const auto text = story.str();
    CAPTURE(text);
    CHECK(text.find("Edition classic, 4 seats, 3 rounds") != std::string::npos);
    CHECK(text.find("Round 3") != std::string::npos);
    CHECK(text.find("Votes:") != std::string::npos);
    CHECK(text.find("is crowned King") != std::string::npos);
    CHECK(text.find("Scores of round 3") != std::string::npos);
    CHECK(text.find("The game is over.") != std::string::npos);
    // Each round's breakdown: a line per player whose points add up to its total.
    std::size_t whys = 0;
    for (auto at = text.find("Why, favourite by favourite:"); at != std::string::npos;
         at = text.find("Why, favourite by favourite:", at + 1))
        ++whys;
    CHECK(whys == 3);
    int sheets = 0;
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);) {
        // "    Ann 24: Fiorello (the throne) +10, Piero (floor 0) 0, ...": a player's
        // total, then items each ending in its points.
        if (line.size() < 5 || line.compare(0, 4, "    ") != 0) continue;
        const auto colon = line.find(": ");
        if (colon == std::string::npos) continue;
        const auto space = line.rfind(' ', colon);
        if (space == std::string::npos || space < 5) continue;
        const std::string total = line.substr(space + 1, colon - space - 1);
        if (total.empty() || total.find_first_not_of("-0123456789") != std::string::npos) continue;
        const std::string items = line.substr(colon + 2);
        bool placed = false;
        for (const char* where : {"(floor", "(the ", "(dungeon", "(WC"})
            placed = placed || items.find(where) != std::string::npos;
        if (!placed) continue;
        ++sheets;
        int sum = 0;
        std::istringstream pieces(items);
        for (std::string piece; std::getline(pieces, piece, ',');) {
            // The points: the digits that end the item, with their sign.
            auto start = piece.find_last_not_of("0123456789");
            start = start == std::string::npos ? 0 : start + 1;
            if (start == piece.size()) continue;
            if (start > 0 && (piece[start - 1] == '+' || piece[start - 1] == '-')) --start;
            sum += std::stoi(piece.substr(start));
        }
        CAPTURE(line);
        CHECK(sum == std::stoi(total));
    }
    CHECK(sheets == 3 * 4);  // a sheet per player per round

    const auto stats = gatherStats(log);
    REQUIRE(stats.editions.count("classic") == 1);
    const auto& classic = stats.editions.at("classic");
    CHECK(classic.games == 3);
    CHECK(classic.complete == 3);
    int crowned = 0, wins = 0, rounds = 0;
    for (const auto& [name, c] : classic.characters) crowned += c.crowned;
    for (const auto& [name, p] : classic.players) wins += p.wins, rounds += p.rounds;
    CHECK(crowned == 9);  // one King a round
    CHECK(wins >= 3);
    CHECK(rounds == 3 * 3 * 4);
    CHECK(statsJson(stats)["editions"]["classic"]["games"] == 3);
}

TEST_CASE("verify checks each logged decision's round and seat against the engine") {
    ScratchDir dir;
    const auto file = dir.file("games.sqlite");
    GameId id;
    {
        GameStore log(file, GameStore::Access::CreateIfMissing);
        id = writeRandomGame(log, randomSpec(7), 7).id;
        REQUIRE(verifyGame(log, id).agrees);
    }
    // Tamper with the columns only: the decisions themselves still replay.
    auto tamper = [&](const char* sql) {
        Database db(file, Database::Mode::ReadWrite);
        db.exec(sql);
    };
    const char* seated = "(SELECT MIN(seq) FROM events WHERE seat IS NOT NULL)";
    tamper((std::string("UPDATE events SET seat = seat + 1 WHERE seq = ") + seated).c_str());
    {
        GameStore log(file, GameStore::Access::MustExist);
        const auto check = verifyGame(log, id);
        CHECK_FALSE(check.agrees);
        CHECK_MESSAGE(check.what.find("for seat") != std::string::npos, check.what);
        CHECK_MESSAGE(check.what.find("the engine says") != std::string::npos, check.what);
    }
    tamper((std::string("UPDATE events SET seat = seat - 1 WHERE seq = ") + seated).c_str());
    tamper(
        "UPDATE events SET round = round + 1 WHERE seq = (SELECT MAX(seq) FROM events WHERE kind = 'place')");
    {
        GameStore log(file, GameStore::Access::MustExist);
        const auto check = verifyGame(log, id);
        CHECK_FALSE(check.agrees);
        CHECK_MESSAGE(check.what.find("(place) is logged in round") != std::string::npos, check.what);
    }
    tamper(
        "UPDATE events SET round = round - 1 WHERE seq = (SELECT MAX(seq) FROM events WHERE kind = 'place')");
    GameStore log(file, GameStore::Access::MustExist);
    CHECK(verifyGame(log, id).agrees);
}
