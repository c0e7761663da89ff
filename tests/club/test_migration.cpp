// The club's schema from an older vivaref: schema 1 (no standings) with
// games in it, migrated to the newest, keeps them and fills the standings;
// a schema from a newer vivaref is refused and left alone.
#include <doctest/doctest.h>

#include "daemon/club/club_admin.hpp"
#include "daemon/club/club_connection.hpp"
#include "daemon/club/club_schema.hpp"
#include "daemon/club/league_queries.hpp"
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
    const auto standings = club::leagueStandings(conn, {});
    const auto expected = recompute(games);
    REQUIRE(standings.size() == expected.rows().size());
    for (const auto& row : standings) CHECK(row.counts == expected.rows().at({row.edition, row.member}));
    // Pushes after the migration keep the standings.
    games.push_back(randomGame(16, 4, "hall", {members[0].id}));
    CHECK(link.push(games.back()) == club::PushOutcome::Inserted);
    const auto after = recompute(games);
    for (const auto& row : club::leagueStandings(conn, {}))
        CHECK(row.counts == after.rows().at({row.edition, row.member}));
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
