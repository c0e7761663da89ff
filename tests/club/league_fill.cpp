// A club with games for the tests written in Node.js (tests/web/league_test.mjs):
//   vivaref_league_fill SUPER_CONNINFO DATABASE
// makes DATABASE on the server SUPER_CONNINFO names (dropped first), the
// club in it (vivaref club create), tables north and south, members Ann,
// Bob, Cleo, Dario and Elena, and pushes 10 games of the engine's random
// player (seeds 1 to 10, 3 to 5 seats, two or three members each, the rest
// guests and bots) through each table's own role. Prints one JSON line:
// {"admin", "league": conninfo, "uids": [last pushed first], "members"}.
#include <iostream>

#include <nlohmann/json.hpp>
#include <pqxx/pqxx>

#include "daemon/club/club_admin.hpp"
#include "daemon/club/club_connection.hpp"
#include "daemon/club/game_judge.hpp"
#include "tests/club/league_fixture.hpp"

using namespace vivaref;

int main(int argc, char** argv) {
    if (argc != 3) {
        std::cerr << "usage: vivaref_league_fill SUPER_CONNINFO DATABASE\n";
        return 2;
    }
    const std::string super = argv[1];
    const std::string db = argv[2];
    try {
        {
            pqxx::connection conn(super);
            pqxx::nontransaction tx(conn);
            tx.exec0("DROP DATABASE IF EXISTS " + tx.quote_name(db) + " WITH (FORCE)");
            for (const auto& row :
                 tx.exec("SELECT rolname FROM pg_roles WHERE rolname LIKE " + tx.quote(db + "\\_%")))
                tx.exec0("DROP ROLE " + tx.quote_name(row[0].as<std::string>()));
            tx.exec0("CREATE DATABASE " + tx.quote_name(db));
        }
        // A keyword given again wins (libpq): the same server as another database or user.
        const std::string admin = super + " dbname=" + db;
        pqxx::connection conn(admin);
        const auto created = club::createClub(conn);
        const auto members = club::addMembers(conn, {"Ann", "Bob", "Cleo", "Dario", "Elena"});
        const auto north = club::addTable(conn, "north");
        const auto south = club::addTable(conn, "south");
        club::PgClubLink northLink(admin + " user=" + north.role + " password=" + north.password, "north");
        club::PgClubLink southLink(admin + " user=" + south.role + " password=" + south.password, "south");
        nlohmann::json uids = nlohmann::json::array();
        for (std::uint64_t seed = 1; seed <= 10; ++seed) {
            const int seats = 3 + static_cast<int>(seed % 3);
            std::vector<std::optional<std::int64_t>> seated = {members[seed % 5].id,
                                                               members[(seed + 2) % 5].id};
            if (seats > 3) seated.push_back(members[(seed + 4) % 5].id);
            const bool atNorth = seed % 3 != 0;
            const auto game = clubtest::randomGame(seed, seats, atNorth ? "north" : "south", seated);
            (atNorth ? northLink : southLink).push(game);
            uids.insert(uids.begin(), game.uid);
        }
        // Counted once the engine has checked them, as `vivaref club` does.
        (void)club::judgeWaitingGames(conn);
        nlohmann::json names = nlohmann::json::array();
        for (const auto& m : members) names.push_back(m.name);
        std::cout << nlohmann::json{{"admin", admin},
                                    {"league", admin + " user=" + created.leagueRole +
                                                   " password=" + created.leaguePassword.value_or("")},
                                    {"uids", uids},
                                    {"members", names}}
                         .dump()
                  << std::endl;
        return 0;
    } catch (const std::exception& e) {
        std::cerr << "vivaref_league_fill: " << e.what() << "\n";
        return 1;
    }
}
