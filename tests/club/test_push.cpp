// A table's pushes through PgClubLink against the real server: once by
// uid, the standings kept on push equal a recomputation from the records
// in any arrival order, and a server that goes away mid-push.
#include <algorithm>
#include <chrono>
#include <future>
#include <map>
#include <random>
#include <thread>

#include <doctest/doctest.h>

#include "daemon/club/club_admin.hpp"
#include "daemon/club/club_connection.hpp"
#include "daemon/club/game_judge.hpp"
#include "daemon/club/league_queries.hpp"
#include "tests/club/league_fixture.hpp"

using namespace vivaref;
using namespace vivaref::clubtest;

namespace {

struct Club {
    std::string db;
    std::string admin;
    std::unique_ptr<pqxx::connection> conn;
    std::vector<club::ClubMember> members;

    explicit Club(const std::string& name) : db(name), admin(freshDatabase(name)) {
        conn = std::make_unique<pqxx::connection>(admin);
        club::createClub(*conn);
        members = club::addMembers(*conn, {"Ann", "Bob", "Cleo", "Dario"});
    }
    std::string tableConninfo(const club::NewTable& t) const {
        return server().conninfo(db, t.role, t.password);
    }
};

void checkStandingsMatch(const std::vector<club::StandingRow>& rows, const club::Standings& expected) {
    REQUIRE(rows.size() == expected.rows().size());
    for (const auto& r : rows) {
        const auto it = expected.rows().find({r.edition, r.member});
        REQUIRE(it != expected.rows().end());
        CHECK(r.counts == it->second);
        CHECK(r.rating == doctest::Approx(club::rating(it->second)).epsilon(1e-12));
    }
}

}  // namespace

TEST_CASE("a push lands once: a second push of the same uid is AlreadyThere and changes nothing") {
    Club c("club_once");
    const auto table = club::addTable(*c.conn, "hall");
    club::PgClubLink link(c.tableConninfo(table), "hall");
    const auto game = randomGame(1, 4, "hall", {c.members[0].id, c.members[1].id});
    CHECK(link.push(game) == club::PushOutcome::Inserted);
    // Pushed, not counted until the engine has checked it.
    CHECK(club::leagueStandings(*c.conn, {}).empty());
    CHECK(club::judgeWaitingGames(*c.conn).size() == 1);
    const auto before = club::leagueStandings(*c.conn, {});
    CHECK(before.size() == 2);
    CHECK(link.push(game) == club::PushOutcome::AlreadyThere);
    CHECK(countOf(*c.conn, "SELECT count(*) FROM club.games") == 1);
    CHECK(countOf(*c.conn, "SELECT count(*) FROM club.game_players") == 4);
    CHECK(club::judgeWaitingGames(*c.conn).empty());
    const auto after = club::leagueStandings(*c.conn, {});
    REQUIRE(after.size() == before.size());
    for (std::size_t i = 0; i < after.size(); ++i) CHECK(after[i].counts == before[i].counts);
    CHECK(club::gameRecord(*c.conn, game.uid) == game.record);
    // The members as the table reads them.
    const auto members = link.members();
    REQUIRE(members.size() == 4);
    CHECK(members[0].name == "Ann");
}

TEST_CASE("the standings kept on push equal a recomputation from the records, whatever the order") {
    Club c("club_order");
    const auto hall = club::addTable(*c.conn, "hall");
    const auto attic = club::addTable(*c.conn, "attic");
    std::vector<club::GameUpload> games;
    std::mt19937 gen(16);
    for (std::uint64_t seed = 1; seed <= 24; ++seed) {
        const int seats = 3 + static_cast<int>(seed % 3);
        std::vector<std::optional<std::int64_t>> who;
        std::vector<std::int64_t> ids = {c.members[0].id, c.members[1].id, c.members[2].id, c.members[3].id};
        std::shuffle(ids.begin(), ids.end(), gen);
        for (int s = 0; s < seats; ++s)
            who.push_back(s < 3 ? std::optional<std::int64_t>(ids[static_cast<std::size_t>(s)])
                                : std::nullopt);
        games.push_back(randomGame(seed, seats, seed % 2 ? "hall" : "attic", who));
    }
    games[5].abandoned = true;  // listed, not counted
    games[5].complete = false;
    games[5].result.clear();
    for (auto& s : games[5].seats) s.score.reset(), s.winner = false;

    auto shuffled = games;
    std::shuffle(shuffled.begin(), shuffled.end(), gen);
    club::PgClubLink hallLink(c.tableConninfo(hall), "hall");
    club::PgClubLink atticLink(c.tableConninfo(attic), "attic");
    for (const auto& g : shuffled)
        CHECK((g.table == "hall" ? hallLink : atticLink).push(g) == club::PushOutcome::Inserted);

    CHECK(club::judgeWaitingGames(*c.conn).size() == games.size());
    checkStandingsMatch(club::leagueStandings(*c.conn, {}), recompute(games));
    // A table's standings are counted again from its games.
    std::vector<club::GameUpload> hallGames;
    std::copy_if(games.begin(), games.end(), std::back_inserter(hallGames),
                 [](const club::GameUpload& g) { return g.table == "hall"; });
    club::StandingsFilter onlyHall;
    onlyHall.table = "hall";
    checkStandingsMatch(club::leagueStandings(*c.conn, onlyHall), recompute(hallGames));
    // A period: the first twelve seeds ended before seed 13 started.
    club::StandingsFilter early;
    std::vector<club::GameUpload> earlyGames;
    for (const auto& g : games)
        if (g.endedMs < 1'790'000'000'000 + 13 * 3'600'000) earlyGames.push_back(g);
    REQUIRE(!earlyGames.empty());
    REQUIRE(earlyGames.size() < games.size());
    early.until = std::to_string(earlyGames.back().endedMs / 1000 + 1);
    {
        pqxx::nontransaction tx(*c.conn);
        early.until = tx.exec1("SELECT to_timestamp(" + *early.until + ")::text")[0].as<std::string>();
    }
    checkStandingsMatch(club::leagueStandings(*c.conn, early), recompute(earlyGames));

    // The abandoned game is in its players' history.
    const auto history = club::memberHistory(*c.conn, "ann");
    CHECK(std::any_of(history.begin(), history.end(), [&](const club::HistoryEntry& e) {
              return e.game.uid == games[5].uid && e.game.abandoned && !e.score;
          }) == std::any_of(games[5].seats.begin(), games[5].seats.end(), [&](const club::SeatUpload& s) {
              return s.member == c.members[0].id;
          }));
    CHECK(club::leagueGames(*c.conn).size() == games.size());
}

TEST_CASE("a server that goes away: a transient ClubError, and the retry lands exactly once") {
    Club c("club_outage");
    const auto table = club::addTable(*c.conn, "hall");
    club::ClubTimeouts quick{3, 3000};
    club::PgClubLink link(c.tableConninfo(table), "hall", quick);
    const auto first = randomGame(2, 4, "hall", {c.members[0].id});
    const auto second = randomGame(3, 4, "hall", {c.members[0].id});
    CHECK(link.push(first) == club::PushOutcome::Inserted);

    SUBCASE("stopped between pushes") {
        c.conn.reset();
        REQUIRE(server().stop("fast"));
        const auto t0 = std::chrono::steady_clock::now();
        try {
            link.push(second);
            FAIL("the push succeeded with the server stopped");
        } catch (const club::ClubError& e) {
            CHECK(e.transient());
            // The outage in words, naming the server; not libpqxx's "Could
            // not obtain client encoding".
            const std::string said = e.what();
            INFO(said);
            CHECK(said.find("client encoding") == std::string::npos);
            CHECK(said.find("the club's server " + club::clubServerName(c.tableConninfo(table)) +
                            " does not answer") != std::string::npos);
        }
        CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(5));
        REQUIRE(server().startAgain());
        c.conn = std::make_unique<pqxx::connection>(c.admin);
    }
    SUBCASE("its connection killed inside the push's transaction") {
        // The admin holds the games' lock, so the push waits inside push_game;
        // then its backend is terminated.
        pqxx::connection locker(c.admin);
        pqxx::work lock(locker);
        lock.exec0("LOCK TABLE club.games IN EXCLUSIVE MODE");
        auto pushing = std::async(std::launch::async, [&] {
            try {
                link.push(second);
                return std::string("landed");
            } catch (const club::ClubError& e) {
                return std::string(e.transient() ? "transient: " : "refused: ") + e.what();
            }
        });
        int killed = 0;
        for (int i = 0; i < 100 && killed == 0; ++i) {
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
            killed = static_cast<int>(countOf(
                *c.conn, "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE usename = '" +
                             table.role + "' AND wait_event_type = 'Lock'"));
        }
        CHECK(killed == 1);
        const auto said = pushing.get();
        INFO(said);
        CHECK(said.rfind("transient: ", 0) == 0);
        lock.abort();
        CHECK(countOf(*c.conn, "SELECT count(*) FROM club.games WHERE uid = '" + second.uid + "'") == 0);
    }
    SUBCASE("the statement timeout while the games are locked") {
        pqxx::connection locker(c.admin);
        pqxx::work lock(locker);
        lock.exec0("LOCK TABLE club.games IN EXCLUSIVE MODE");
        const auto t0 = std::chrono::steady_clock::now();
        try {
            link.push(second);
            FAIL("the push went through a lock");
        } catch (const club::ClubError& e) {
            CHECK(e.transient());
        }
        CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(6));
        lock.abort();
    }
    CHECK(link.push(second) == club::PushOutcome::Inserted);
    CHECK(link.push(second) == club::PushOutcome::AlreadyThere);
    CHECK(countOf(*c.conn, "SELECT count(*) FROM club.games") == 2);
    CHECK(club::judgeWaitingGames(*c.conn).size() == 2);
    CHECK(countOf(*c.conn, "SELECT games FROM club.standings WHERE member_id = " +
                               std::to_string(c.members[0].id)) == 2);
}

TEST_CASE("games whose records do not replay to the pushed scores are named and left out of the standings") {
    // What a table's role can send through push_game: the league counts
    // only what the engine replays.
    Club c("club_judge");
    const auto table = club::addTable(*c.conn, "hall");
    club::PgClubLink link(c.tableConninfo(table), "hall");
    const std::vector<std::optional<std::int64_t>> seated = {c.members[0].id, c.members[1].id,
                                                             c.members[2].id};
    std::vector<club::GameUpload> good;
    good.push_back(randomGame(61, 3, "hall", seated));
    good.push_back(randomGame(62, 4, "hall", seated));
    // A "game" whose record is not a game record.
    auto notARecord = randomGame(63, 3, "hall", seated);
    notARecord.record = "this is not a record\n";
    // A winner with the lowest score.
    auto lowWinner = randomGame(64, 3, "hall", seated);
    auto lowest = std::min_element(lowWinner.seats.begin(), lowWinner.seats.end(),
                                   [](const auto& a, const auto& b) { return *a.score < *b.score; });
    for (auto& s : lowWinner.seats) s.winner = &s == &*lowest;
    // 999 points.
    auto bigScore = randomGame(65, 3, "hall", seated);
    bigScore.seats[1].score = 999;
    for (const auto* g : {&good[0], &notARecord, &lowWinner, &bigScore, &good[1]})
        CHECK(link.push(*g) == club::PushOutcome::Inserted);
    CHECK(club::leagueStandings(*c.conn, {}).empty());

    const auto judged = club::judgeWaitingGames(*c.conn);
    REQUIRE(judged.size() == 5);
    std::map<std::string, std::string> said;
    for (const auto& j : judged) {
        CHECK(j.table == "hall");
        if (j.mismatch) said[j.uid] = club::mismatchSentence(j);
    }
    REQUIRE(said.size() == 3);
    INFO(said[notARecord.uid]);
    INFO(said[lowWinner.uid]);
    INFO(said[bigScore.uid]);
    CHECK(said[notARecord.uid].find("game " + notARecord.uid + " (table hall, its game ") == 0);
    CHECK(said[notARecord.uid].find("is left out of the standings: its record does not replay") !=
          std::string::npos);
    CHECK(said[lowWinner.uid].find("is pushed as a winner") != std::string::npos);
    CHECK(said[bigScore.uid].find("score is 999, the record gives ") != std::string::npos);
    // The standings are the good games' alone, and a second judging changes nothing.
    checkStandingsMatch(club::leagueStandings(*c.conn, {}), recompute(good));
    CHECK(club::judgeWaitingGames(*c.conn).empty());
    checkStandingsMatch(club::leagueStandings(*c.conn, {}), recompute(good));
    const auto left = club::mismatchedGames(*c.conn);
    REQUIRE(left.size() == 3);
    CHECK(left[0].uid == notARecord.uid);
    CHECK(left[1].uid == lowWinner.uid);
    CHECK(left[2].uid == bigScore.uid);
    CHECK(countOf(*c.conn, "SELECT counted FROM club.edition_counts WHERE edition = 'classic'") == 2);
    CHECK(countOf(*c.conn, "SELECT games FROM club.edition_counts WHERE edition = 'classic'") == 5);
    // A table cannot judge its own games.
    pqxx::connection asTable(c.tableConninfo(table));
    CHECK_FALSE(club::mayJudge(asTable));
}
