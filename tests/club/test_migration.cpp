// The club's schema from an older vivaref: schema 1 (no standings) with
// games in it, migrated to the newest, keeps them and fills the standings;
// schema 2 with games, migrated to 3, fills the members' results so the
// standings of a table or a period come out as before; schema 3 with games,
// migrated to 4, fills the games per edition the league's page reads; a
// schema from a newer vivaref is refused and left alone.
#include <doctest/doctest.h>

#include "daemon/club/club_admin.hpp"
#include "daemon/club/club_connection.hpp"
#include "daemon/club/club_schema.hpp"
#include "daemon/club/game_judge.hpp"
#include "daemon/club/league_queries.hpp"
#include "daemon/club/league_reader.hpp"
#include "tests/club/league_fixture.hpp"

using namespace vivaref;
using namespace vivaref::clubtest;

TEST_CASE("a club on schema 1 with games, migrated, keeps them and fills the standings") {
    const auto admin = freshDatabase("club_migrate");
    pqxx::connection conn(admin);
    const auto first = club::createClub(conn, 1);
    CHECK(first.versionBefore == 0);
    CHECK(first.versionAfter == 1);
    const auto members = club::addMembers(conn, {"Ann", "Bob", "Cleo"});
    // addTable wants the newest schema: on schema 1 the table is made by hand
    // as the schema-1 vivaref did.
    {
        pqxx::work tx(conn);
        tx.exec0("CREATE ROLE club_migrate_table_hall LOGIN PASSWORD 'pw' IN ROLE club_migrate_tables");
        tx.exec0("INSERT INTO club.club_tables (name, role) VALUES ('hall', 'club_migrate_table_hall')");
        tx.commit();
    }
    club::PgClubLink link(server().conninfo("club_migrate", "club_migrate_table_hall", "pw"), "hall");
    std::vector<club::GameUpload> games;
    for (std::uint64_t seed = 10; seed < 16; ++seed) {
        games.push_back(randomGame(seed, 4, "hall", {members[seed % 3].id, members[(seed + 1) % 3].id}));
        CHECK(link.push(games.back()) == club::PushOutcome::Inserted);
    }
    CHECK(countOf(conn,
                  "SELECT count(*) FROM pg_tables WHERE schemaname = 'club' AND tablename = 'standings'") ==
          0);

    const auto second = club::createClub(conn);
    CHECK(second.versionBefore == 1);
    CHECK(second.versionAfter == club::clubSchemaVersion());
    CHECK(countOf(conn, "SELECT count(*) FROM club.games") == 6);
    // Counted once the engine has checked them (migration 5).
    CHECK(club::leagueStandings(conn, {}).empty());
    CHECK(club::judgeWaitingGames(conn).size() == 6);
    const auto standings = club::leagueStandings(conn, {});
    const auto expected = recompute(games);
    REQUIRE(standings.size() == expected.rows().size());
    for (const auto& row : standings) CHECK(row.counts == expected.rows().at({row.edition, row.member}));
    // Pushes after the migration keep the standings.
    games.push_back(randomGame(16, 4, "hall", {members[0].id}));
    CHECK(link.push(games.back()) == club::PushOutcome::Inserted);
    CHECK(club::judgeWaitingGames(conn).size() == 1);
    const auto after = recompute(games);
    for (const auto& row : club::leagueStandings(conn, {}))
        CHECK(row.counts == after.rows().at({row.edition, row.member}));
}

namespace {

void checkCounts(const std::vector<club::StandingRow>& rows, const club::Standings& expected) {
    REQUIRE(rows.size() == expected.rows().size());
    for (const auto& row : rows) CHECK(row.counts == expected.rows().at({row.edition, row.member}));
}

}  // namespace

TEST_CASE(
    "a club on schema 2 with games, migrated to 3, counts a table's and a period's standings as before") {
    const auto admin = freshDatabase("club_migrate3");
    pqxx::connection conn(admin);
    const auto first = club::createClub(conn, 2);
    REQUIRE(first.versionAfter == 2);
    REQUIRE(first.leaguePassword);
    const auto members = club::addMembers(conn, {"Ann", "Bob", "Cleo", "Dario"});
    // As the schema-2 vivaref made them (addTable wants the newest schema).
    {
        pqxx::work tx(conn);
        for (const std::string t : {"hall", "attic"}) {
            tx.exec0("CREATE ROLE club_migrate3_table_" + t +
                     " LOGIN PASSWORD 'pw' IN ROLE club_migrate3_tables");
            tx.exec0("INSERT INTO club.club_tables (name, role) VALUES ('" + t + "', 'club_migrate3_table_" +
                     t + "')");
        }
        tx.commit();
    }
    club::PgClubLink hall(server().conninfo("club_migrate3", "club_migrate3_table_hall", "pw"), "hall");
    club::PgClubLink attic(server().conninfo("club_migrate3", "club_migrate3_table_attic", "pw"), "attic");
    std::vector<club::GameUpload> games;
    const auto push = [&](std::uint64_t seed) {
        const auto table = seed % 2 ? "attic" : "hall";
        games.push_back(randomGame(seed, 3 + static_cast<int>(seed % 3), table,
                                   {members[seed % 4].id, std::nullopt, members[(seed + 1) % 4].id}));
        CHECK((seed % 2 ? attic : hall).push(games.back()) == club::PushOutcome::Inserted);
    };
    for (std::uint64_t seed = 20; seed < 30; ++seed) push(seed);

    const auto second = club::createClub(conn, 3);
    CHECK(second.versionBefore == 2);
    CHECK(second.versionAfter == 3);
    // One row for each member of each counted game, and the standings kept
    // before the migration are not counted twice.
    CHECK(countOf(conn, "SELECT count(*) FROM club.member_results") ==
          countOf(conn,
                  "SELECT count(*) FROM club.game_players p JOIN club.games g ON g.uid = p.game_uid "
                  "WHERE g.complete AND NOT g.abandoned AND p.member_id IS NOT NULL AND NOT p.bot"));
    checkCounts(club::leagueStandings(conn, {}), recompute(games));

    // Through the league's read-only role, which the migration's new table is granted to.
    const auto leagueConninfo = server().conninfo("club_migrate3", first.leagueRole, *first.leaguePassword);
    const auto checkFilters = [&] {
        pqxx::connection league(leagueConninfo);
        std::vector<club::GameUpload> hallGames, early;
        for (const auto& g : games) {
            if (g.table == "hall") hallGames.push_back(g);
            if (g.endedMs < 1'790'000'000'000 + 25 * 3'600'000) early.push_back(g);
        }
        club::StandingsFilter onlyHall;
        onlyHall.table = "hall";
        checkCounts(club::leagueStandings(league, onlyHall), recompute(hallGames));
        club::StandingsFilter period;
        pqxx::nontransaction tx(conn);
        period.until = tx.exec1("SELECT to_timestamp(" +
                                std::to_string((1'790'000'000'000 + 25 * 3'600'000) / 1000) + ")::text")[0]
                           .as<std::string>();
        checkCounts(club::leagueStandings(league, period), recompute(early));
        checkCounts(club::leagueStandings(league, {}), recompute(games));
    };
    checkFilters();
    // Pushes after the migration are kept in both.
    for (std::uint64_t seed = 30; seed < 34; ++seed) push(seed);
    checkFilters();
}

TEST_CASE("a club on schema 3 with games, migrated to 4, counts the games of each edition") {
    const auto admin = freshDatabase("club_migrate4");
    pqxx::connection conn(admin);
    const auto first = club::createClub(conn, 3);
    REQUIRE(first.versionAfter == 3);
    REQUIRE(first.leaguePassword);
    const auto members = club::addMembers(conn, {"Ann", "Bob"});
    {
        pqxx::work tx(conn);
        tx.exec0("CREATE ROLE club_migrate4_table_hall LOGIN PASSWORD 'pw' IN ROLE club_migrate4_tables");
        tx.exec0("INSERT INTO club.club_tables (name, role) VALUES ('hall', 'club_migrate4_table_hall')");
        tx.commit();
    }
    club::PgClubLink hall(server().conninfo("club_migrate4", "club_migrate4_table_hall", "pw"), "hall");
    // Games of two editions, one of them abandoned (pushed, not counted).
    const auto push = [&](std::uint64_t seed, bool abandoned) {
        auto g = randomGame(seed, 3 + static_cast<int>(seed % 3), "hall", {members[seed % 2].id});
        g.abandoned = abandoned;
        if (seed % 2) g.edition = "online";
        CHECK(hall.push(g) == club::PushOutcome::Inserted);
    };
    for (std::uint64_t seed = 40; seed < 46; ++seed) push(seed, seed == 43);

    // What the page must show: every game and the counted ones, per edition.
    const auto expected = [&] {
        pqxx::nontransaction tx(conn);
        nlohmann::json out = nlohmann::json::array();
        for (const auto& row : tx.exec("SELECT edition, count(*), count(*) FILTER (WHERE complete AND NOT "
                                       "abandoned) FROM club.games GROUP BY edition ORDER BY edition"))
            out.push_back({{"edition", row[0].as<std::string>()},
                           {"games", row[1].as<std::int64_t>()},
                           {"counted", row[2].as<std::int64_t>()}});
        return out;
    };
    const auto overview = [&] {
        pqxx::connection league(server().conninfo("club_migrate4", first.leagueRole, *first.leaguePassword));
        const auto answer = club::leagueOverview(league, "club_migrate4");
        REQUIRE(answer.outcome == club::LeagueAnswer::Outcome::Ok);
        REQUIRE(answer.text);
        return nlohmann::json::parse(*answer.text).at("editions");
    };

    const auto second = club::createClub(conn, 4);
    CHECK(second.versionBefore == 3);
    CHECK(second.versionAfter == 4);
    const auto before = expected();
    CHECK(before.size() >= 2);
    CHECK(overview() == before);
    // Pushes after the migration are counted by the trigger, a game pushed
    // twice once.
    push(46, false);
    push(47, true);
    CHECK(hall.push(randomGame(46, 4, "hall", {members[0].id})) == club::PushOutcome::AlreadyThere);
    const auto after = expected();
    CHECK(after != before);
    CHECK(overview() == after);
}

TEST_CASE("a club schema from a newer vivaref is refused with a sentence and left alone") {
    const auto admin = freshDatabase("club_newer");
    pqxx::connection conn(admin);
    club::createClub(conn);
    {
        pqxx::work tx(conn);
        tx.exec0("UPDATE club.schema_version SET version = 99");
        tx.commit();
    }
    try {
        club::createClub(conn);
        FAIL("migrated a newer schema");
    } catch (const club::ClubError& e) {
        CHECK(!e.transient());
        CHECK(std::string(e.what()).find("newer vivaref (schema 99") != std::string::npos);
    }
    CHECK(club::installedClubSchemaVersion(conn) == 99);
}

TEST_CASE("a club on schema 4 with a forged game, migrated to 5, counts again only the games that replay") {
    const auto admin = freshDatabase("club_migrate5");
    pqxx::connection conn(admin);
    const auto first = club::createClub(conn, 4);
    REQUIRE(first.versionAfter == 4);
    const auto members = club::addMembers(conn, {"Ann", "Bob"});
    {
        pqxx::work tx(conn);
        tx.exec0("CREATE ROLE club_migrate5_table_hall LOGIN PASSWORD 'pw' IN ROLE club_migrate5_tables");
        tx.exec0("INSERT INTO club.club_tables (name, role) VALUES ('hall', 'club_migrate5_table_hall')");
        tx.commit();
    }
    club::PgClubLink hall(server().conninfo("club_migrate5", "club_migrate5_table_hall", "pw"), "hall");
    std::vector<club::GameUpload> good;
    for (std::uint64_t seed = 50; seed < 54; ++seed) {
        good.push_back(randomGame(seed, 3, "hall", {members[0].id, members[1].id}));
        CHECK(hall.push(good.back()) == club::PushOutcome::Inserted);
    }
    auto forged = randomGame(54, 3, "hall", {members[0].id, members[1].id});
    forged.seats[0].score = 999;
    CHECK(hall.push(forged) == club::PushOutcome::Inserted);
    // Schema 4 counted the forgery on push: Ann's 999 points are in her total.
    CHECK(countOf(conn, "SELECT points FROM club.standings WHERE member_id = " +
                            std::to_string(members[0].id)) >= 999);

    const auto second = club::createClub(conn);
    CHECK(second.versionBefore == 4);
    CHECK(second.versionAfter == 5);
    // Until judged, nothing counts (rather than the forgery).
    CHECK(club::leagueStandings(conn, {}).empty());
    CHECK(countOf(conn, "SELECT count(*) FROM club.member_results") == 0);
    CHECK(countOf(conn, "SELECT counted FROM club.edition_counts WHERE edition = 'classic'") == 0);
    const auto judged = club::judgeWaitingGames(conn);
    CHECK(judged.size() == 5);
    const auto left = club::mismatchedGames(conn);
    REQUIRE(left.size() == 1);
    CHECK(left[0].uid == forged.uid);
    checkCounts(club::leagueStandings(conn, {}), recompute(good));
    CHECK(countOf(conn, "SELECT counted FROM club.edition_counts WHERE edition = 'classic'") == 4);
    CHECK(countOf(conn, "SELECT games FROM club.edition_counts WHERE edition = 'classic'") == 5);
    // The tables' push still works after the migration, and counts once judged.
    good.push_back(randomGame(55, 3, "hall", {members[0].id}));
    CHECK(hall.push(good.back()) == club::PushOutcome::Inserted);
    CHECK(club::judgeWaitingGames(conn).size() == 1);
    checkCounts(club::leagueStandings(conn, {}), recompute(good));
}
