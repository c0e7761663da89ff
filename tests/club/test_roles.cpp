// Item 4 of issue 16, for real: a table's role pushes only its own games
// and reads members, nothing else; the league's role only reads.
#include <doctest/doctest.h>

#include "daemon/club/club_admin.hpp"
#include "daemon/club/club_connection.hpp"
#include "daemon/club/game_judge.hpp"
#include "daemon/club/league_queries.hpp"
#include "tests/club/league_fixture.hpp"

using namespace vivaref;
using namespace vivaref::clubtest;

namespace {

// The SQLSTATE a statement fails with, or "ok".
std::string outcome(pqxx::connection& conn, const std::string& sql) {
    try {
        pqxx::work tx(conn);
        tx.exec(sql);
        tx.commit();
        return "ok";
    } catch (const pqxx::insufficient_privilege&) {
        return "42501";  // libpqxx 6.4 leaves its sqlstate() empty
    } catch (const pqxx::sql_error& e) {
        return e.sqlstate().empty() ? std::string("no state: ") + e.what() : e.sqlstate();
    }
}

}  // namespace

TEST_CASE("a table's role may push only its own games and read the members") {
    const auto admin = freshDatabase("club_roles");
    pqxx::connection conn(admin);
    const auto report = club::createClub(conn);
    REQUIRE(report.leaguePassword);
    const auto again = club::createClub(conn);
    CHECK(!again.leaguePassword);  // made once
    CHECK(again.versionBefore == again.versionAfter);
    const auto members = club::addMembers(conn, {"Ann", "Bob"});
    CHECK_THROWS_AS(club::addMembers(conn, {"ANN"}), club::ClubError);
    const auto hall = club::addTable(conn, "hall");
    const auto attic = club::addTable(conn, "attic");
    CHECK_THROWS_AS(club::addTable(conn, "hall"), club::ClubError);
    CHECK_THROWS_AS(club::addTable(conn, "Bad Name"), club::ClubError);

    club::PgClubLink hallLink(server().conninfo("club_roles", hall.role, hall.password), "hall");
    const auto game = randomGame(4, 3, "attic", {members[0].id});
    SUBCASE("not as another table, nor an unknown one, nor a bad game") {
        try {
            hallLink.push(game);
            FAIL("hall pushed attic's game");
        } catch (const club::ClubError& e) {
            CHECK(!e.transient());
            CHECK(std::string(e.what()).find("may not push the games of table \"attic\"") !=
                  std::string::npos);
        }
        auto unknown = game;
        unknown.table = "cellar";
        try {
            hallLink.push(unknown);
            FAIL("pushed to an unknown table");
        } catch (const club::ClubError& e) {
            CHECK(!e.transient());
            CHECK(std::string(e.what()).find("no table named \"cellar\"") != std::string::npos);
        }
        auto bad = game;
        bad.table = "hall";
        bad.uid = "not-a-uid";
        try {
            hallLink.push(bad);
            FAIL("pushed a bad uid");
        } catch (const club::ClubError& e) {
            CHECK(!e.transient());
        }
        auto ghost = game;
        ghost.table = "hall";
        ghost.seats[0].member = 999999;  // no such member
        CHECK_THROWS_AS(hallLink.push(ghost), club::ClubError);
        club::PgClubLink atticLink(server().conninfo("club_roles", attic.role, attic.password), "attic");
        CHECK(atticLink.push(game) == club::PushOutcome::Inserted);
        // The same uid from the other table is refused, not "already there".
        auto stolen = game;
        stolen.table = "hall";
        CHECK_THROWS_AS(hallLink.push(stolen), club::ClubError);
    }
    SUBCASE("no UPDATE, DELETE, SELECT on games, no tables of its own") {
        club::PgClubLink atticLink(server().conninfo("club_roles", attic.role, attic.password), "attic");
        REQUIRE(atticLink.push(game) == club::PushOutcome::Inserted);
        pqxx::connection table(server().conninfo("club_roles", hall.role, hall.password));
        CHECK(outcome(table, "UPDATE club.games SET edition = 'x'") == "42501");
        CHECK(outcome(table, "DELETE FROM club.games") == "42501");
        CHECK(outcome(table, "SELECT * FROM club.games") == "42501");
        CHECK(outcome(table, "SELECT * FROM club.game_players") == "42501");
        CHECK(outcome(table, "SELECT * FROM club.standings") == "42501");
        CHECK(outcome(table, "INSERT INTO club.members (name) VALUES ('Eve')") == "42501");
        CHECK(outcome(table, "INSERT INTO club.club_tables (name, role) VALUES ('x', 'x')") == "42501");
        CHECK(outcome(table, "SELECT club.count_game('" + game.uid + "')") == "42501");
        CHECK(outcome(table, "CREATE TABLE public.mine (a int)") == "42501");
        CHECK(outcome(table, "CREATE TEMP TABLE mine (a int)") == "42501");
        CHECK(outcome(table, "CREATE TABLE club.mine (a int)") == "42501");
        CHECK(outcome(table, "SELECT id, name FROM club.members") == "ok");
        CHECK(countOf(conn, "SELECT count(*) FROM club.games WHERE edition = 'classic'") == 1);
    }
    SUBCASE("the league's role reads everything and writes nothing") {
        pqxx::connection league(server().conninfo("club_roles", report.leagueRole, *report.leaguePassword));
        CHECK(outcome(league, "SELECT * FROM club.games") == "ok");
        CHECK(outcome(league, "SELECT * FROM club.standings_rated") == "ok");
        CHECK(club::leagueStandings(league, {}).empty());
        CHECK(outcome(league, "INSERT INTO club.members (name) VALUES ('Eve')") == "42501");
        CHECK(outcome(league, "UPDATE club.members SET active = false") == "42501");
        CHECK(outcome(league, "DELETE FROM club.games") == "42501");
        CHECK(outcome(league, "CREATE TABLE public.mine (a int)") == "42501");
        CHECK(outcome(league, "SELECT club.push_game('" + game.uid +
                                  "', 'hall', 1, 0, 0, 'classic', true, false, '', null, '[]')") == "42501");
    }
    SUBCASE("a wrong password is refused for good, a missing server is transient") {
        try {
            club::openClubConnection(server().conninfo("club_roles", hall.role, "wrong"));
            FAIL("connected with a wrong password");
        } catch (const club::ClubError& e) {
            CHECK(!e.transient());
        }
        try {
            club::openClubConnection("host=" + server().directory().string() + "/nowhere dbname=x");
            FAIL("connected to nothing");
        } catch (const club::ClubError& e) {
            CHECK(e.transient());
        }
        try {
            club::openClubConnection("this is not a conninfo");
            FAIL("parsed nonsense");
        } catch (const club::ClubError& e) {
            CHECK(!e.transient());
            CHECK(std::string(e.what()).find("bad connection string") != std::string::npos);
        }
    }
}

TEST_CASE("an admin who is not a superuser (CREATEROLE, owner of the database) sets the club up") {
    {
        pqxx::connection super(server().superConninfo("postgres"));
        pqxx::nontransaction tx(super);
        tx.exec0("DROP DATABASE IF EXISTS club_owned WITH (FORCE)");
        for (const auto& row : tx.exec("SELECT rolname FROM pg_roles WHERE rolname LIKE 'club\\_owned\\_%'"))
            tx.exec0("DROP ROLE " + tx.quote_name(row[0].as<std::string>()));
        tx.exec0("DROP ROLE IF EXISTS clubadmin");
        tx.exec0("CREATE ROLE clubadmin LOGIN CREATEROLE PASSWORD 'adminpw'");
        tx.exec0("CREATE DATABASE club_owned OWNER clubadmin");
    }
    pqxx::connection admin(server().conninfo("club_owned", "clubadmin", "adminpw"));
    const auto report = club::createClub(admin);
    CHECK(report.leagueRole == "club_owned_league");
    const auto members = club::addMembers(admin, {"Ann"});
    const auto hall = club::addTable(admin, "hall");
    club::PgClubLink link(server().conninfo("club_owned", hall.role, hall.password), "hall");
    CHECK(link.push(randomGame(21, 3, "hall", {members[0].id})) == club::PushOutcome::Inserted);
    // The schema's owner judges the games (a superuser is not needed).
    CHECK(club::mayJudge(admin));
    CHECK(club::judgeWaitingGames(admin).size() == 1);
    CHECK(club::leagueStandings(admin, {}).size() == 1);
}
