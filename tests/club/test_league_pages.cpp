// The league's routes (GET /api/league..., daemon/server/league_routes.hpp)
// over a LeagueReader on the read-only <db>_league role, against the real
// server: the answers equal league_queries' through the admin, a game's
// review is built from its record, bad parameters are 400s naming them, a
// query waiting on the club never holds the loop, and a club that is down
// is a 503 with a sentence (the overview: reachable false), then mends.
#include <chrono>
#include <thread>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <doctest/doctest.h>

#include "daemon/club/club_admin.hpp"
#include "daemon/club/club_connection.hpp"
#include "daemon/club/club_schema.hpp"
#include "daemon/club/game_judge.hpp"
#include "daemon/club/league_queries.hpp"
#include "daemon/server/api_router.hpp"
#include "daemon/server/league_routes.hpp"
#include "daemon/server/static_files.hpp"
#include "tests/club/league_fixture.hpp"

using namespace vivaref;
using namespace vivaref::clubtest;
using nlohmann::json;
namespace http = boost::beast::http;

namespace {

struct Answer {
    int status = 0;
    json body;
    std::chrono::milliseconds took{0};
};

struct Pages {
    boost::asio::io_context io;
    // Without work the loop would stop at once and run_one_for not wait.
    boost::asio::executor_work_guard<boost::asio::io_context::executor_type> busy =
        boost::asio::make_work_guard(io);
    std::unique_ptr<club::LeagueReader> reader;
    server::NoTableService noTable;
    server::StaticFiles files{server::defaultWebRoot()};
    std::unique_ptr<server::ApiRouter> router;

    explicit Pages(const std::string& conninfo, const std::string& database) {
        club::LeagueReaderOptions options;
        options.conninfo = conninfo;
        options.database = database;
        options.retryAfter = std::chrono::milliseconds(200);
        options.timeouts.connectSeconds = 2;
        reader = server::makeLeagueReader(io, options);
        server::RouterOptions routing;
        routing.leagueOnly = true;
        routing.league = server::leagueRoutes(*reader);
        router = std::make_unique<server::ApiRouter>(noTable, files, routing);
    }

    // Asks the router and runs the loop until the answer comes (at most 20 s).
    Answer get(const std::string& target) {
        server::Request request{http::verb::get, target, 11};
        const auto start = std::chrono::steady_clock::now();
        auto reply = router->handle(request);
        std::optional<server::Response> response;
        if (reply.later) {
            reply.later([&](server::Response r) { response = std::move(r); });
            io.restart();
            while (!response && std::chrono::steady_clock::now() - start < std::chrono::seconds(20))
                io.run_one_for(std::chrono::milliseconds(50));
        } else {
            response = std::move(reply.response);
        }
        REQUIRE_MESSAGE(response, target << " was never answered");
        Answer a;
        a.status = response->result_int();
        a.body = json::parse(response->body(), nullptr, false);
        a.took =
            std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start);
        return a;
    }
};

}  // namespace

// One club for every step (making it costs seconds on a loaded machine).
TEST_CASE("the league's routes through the read-only role") {
    const std::string db = "club_pages";
    const std::string admin = freshDatabase(db);
    pqxx::connection conn(admin);
    const auto created = club::createClub(conn);
    REQUIRE(created.leaguePassword);
    const auto members = club::addMembers(conn, {"Ann", "Bob", "Cleo", "Dario"});
    const auto north = club::addTable(conn, "north");
    const auto south = club::addTable(conn, "south");
    club::PgClubLink northLink(clubtest::server().conninfo(db, north.role, north.password), "north");
    club::PgClubLink southLink(clubtest::server().conninfo(db, south.role, south.password), "south");
    std::vector<club::GameUpload> games;
    for (std::uint64_t seed = 1; seed <= 6; ++seed) {
        const int seats = 3 + static_cast<int>(seed % 3);
        const bool atNorth = seed % 2 == 1;
        std::vector<std::optional<std::int64_t>> seated = {members[seed % 4].id, members[(seed + 1) % 4].id};
        games.push_back(randomGame(seed, seats, atNorth ? "north" : "south", seated));
        REQUIRE((atNorth ? northLink : southLink).push(games.back()) == club::PushOutcome::Inserted);
    }
    REQUIRE(club::judgeWaitingGames(conn).size() == games.size());

    Pages pages(clubtest::server().conninfo(db, created.leagueRole, *created.leaguePassword), db);

    {
        INFO("the overview");
        const auto a = pages.get("/api/league");
        REQUIRE(a.status == 200);
        CHECK(a.body["database"] == db);
        CHECK(a.body["reachable"] == true);
        CHECK(a.body["tables"] == json::array({"north", "south"}));
        REQUIRE(a.body["editions"].size() == 1);
        CHECK(a.body["editions"][0]["edition"] == "classic");
        CHECK(a.body["editions"][0]["games"] == 6);
        CHECK(a.body["members"] == 4);
    }

    {
        INFO("the standings equal leagueStandings, whole and filtered");
        for (const auto& [target, filter] : std::vector<std::pair<std::string, club::StandingsFilter>>{
                 {"/api/league/standings", {}},
                 {"/api/league/standings?edition=classic&table=north", {"classic", "north", {}, {}}},
                 {"/api/league/standings?since=2026-09-21T18:00:00Z&until=2030-01-01",
                  {{}, {}, "2026-09-21T18:00:00Z", "2030-01-01"}}}) {
            CAPTURE(target);
            const auto expected = club::leagueStandings(conn, filter);
            const auto a = pages.get(target);
            REQUIRE(a.status == 200);
            const auto& rows = a.body["standings"];
            REQUIRE(rows.size() == expected.size());
            for (std::size_t i = 0; i < expected.size(); ++i) {
                CHECK(rows[i]["name"] == expected[i].name);
                CHECK(rows[i]["games"] == expected[i].counts.games);
                CHECK(rows[i]["wins"] == expected[i].counts.wins);
                CHECK(rows[i]["points"] == expected[i].counts.points);
                CHECK(rows[i]["pairwise_wins"] == expected[i].counts.pairwiseWins);
                CHECK(rows[i]["rating"].get<double>() == doctest::Approx(expected[i].rating));
            }
        }
        // North's games are the odd seeds: its standings are not the league's.
        CHECK(pages.get("/api/league/standings?table=north").body["standings"] !=
              pages.get("/api/league/standings").body["standings"]);
    }

    {
        INFO("a member's history and the recent games");
        const auto history = club::memberHistory(conn, "Ann");
        const auto a = pages.get("/api/league/members/ann");
        REQUIRE(a.status == 200);
        CHECK(a.body["member"] == "Ann");
        REQUIRE(a.body["games"].size() == history.size());
        CHECK(a.body["games"][0]["uid"] == history[0].game.uid);
        CHECK(pages.get("/api/league/members/Nobody%20Here").status == 404);
        const auto recent = pages.get("/api/league/games?limit=4");
        REQUIRE(recent.status == 200);
        REQUIRE(recent.body["games"].size() == 4);
        CHECK(recent.body["games"][0]["uid"] == games.back().uid);  // last pushed first
        // Whether each counts, as the league's judge found (issue 35).
        const auto listed = club::leagueGames(conn, 4);
        REQUIRE(listed.size() == 4);
        for (std::size_t i = 0; i < listed.size(); ++i) {
            CHECK(!listed[i].verdict.empty());
            CHECK(recent.body["games"][i]["verdict"] == listed[i].verdict);
        }
    }

    {
        INFO("a game's review from its record, shaped as /api/games/ID");
        const auto& game = games[2];
        const auto a = pages.get("/api/league/games/" + game.uid);
        REQUIRE(a.status == 200);
        for (const char* key : {"id", "startedAt", "endedAt", "edition", "setup", "players", "status",
                                "result", "record", "timeline", "score_breakdown"})
            CHECK_MESSAGE(a.body.contains(key), key);
        CHECK(!a.body.contains("timelineError"));
        CHECK(a.body["status"] == "complete");
        CHECK(a.body["table"] == "north");  // seed 3: an odd seed
        CHECK(a.body["verdict"] == "verified");
        std::size_t lines = 0;
        for (char ch : game.record) lines += ch == '\n';
        CHECK(a.body["record"].size() == lines);
        CHECK(a.body["timeline"].size() == lines);
        CHECK(a.body["players"].size() == game.seats.size());
        CHECK(!a.body["score_breakdown"].empty());
        CHECK(a.body["setup"].is_object());
        CHECK(pages.get("/api/league/games/" + std::string(32, 'f')).status == 404);
    }

    {
        INFO("bad parameters are 400s naming the parameter");
        const std::vector<std::pair<std::string, std::string>> cases = {
            {"/api/league/standings?table=east", "table"},
            {"/api/league/standings?edition=chess", "edition"},
            {"/api/league/standings?since=2026-02-30", "since"},
            {"/api/league/standings?until=yesterday", "until"},
            {"/api/league/standings?since=2026-05-01&until=2026-04-01", "until"},
            {"/api/league/standings?colour=red", "colour"},
            {"/api/league/games?limit=0", "limit"},
            {"/api/league/games?limit=abc", "limit"},
            {"/api/league/games/XYZ", "uid"},
        };
        for (const auto& [target, parameter] : cases) {
            CAPTURE(target);
            const auto a = pages.get(target);
            CHECK(a.status == 400);
            CHECK(a.body["message"].get<std::string>().find(parameter) != std::string::npos);
        }
        CHECK(pages.get("/api/status").status == 404);  // a league-only server has no table
    }

    {
        INFO("a query that waits on the club does not hold the loop");
        // The admin locks the members: the reader's query waits in the server.
        pqxx::work locker(conn);
        locker.exec0("LOCK TABLE club.members IN ACCESS EXCLUSIVE MODE");
        server::Request request{http::verb::get, "/api/league/members/Ann", 11};
        auto reply = pages.router->handle(request);
        REQUIRE(reply.later);
        std::optional<server::Response> response;
        reply.later([&](server::Response r) { response = std::move(r); });
        bool ticked = false;
        boost::asio::steady_timer timer(pages.io, std::chrono::milliseconds(300));
        timer.async_wait([&](auto) { ticked = true; });
        pages.io.restart();
        const auto start = std::chrono::steady_clock::now();
        while (!ticked && std::chrono::steady_clock::now() - start < std::chrono::seconds(5))
            pages.io.run_one_for(std::chrono::milliseconds(50));
        CHECK(ticked);
        CHECK(!response);  // still waiting on the lock
        locker.abort();
        while (!response && std::chrono::steady_clock::now() - start < std::chrono::seconds(20))
            pages.io.run_one_for(std::chrono::milliseconds(50));
        REQUIRE(response);
        CHECK(response->result_int() == 200);
    }

    {
        INFO("a club that is down: 503 with a sentence, then it mends");
        REQUIRE(pages.get("/api/league/games").status == 200);  // the connection is open
        REQUIRE(clubtest::server().stop("fast"));
        const auto down = pages.get("/api/league/standings");
        CHECK(down.status == 503);
        CHECK(down.body["error"] == "club-unreachable");
        CHECK(down.body["message"].get<std::string>().find("The club’s league cannot be read now: ") == 0);
        CHECK(down.body["says"]["code"] == "league.unreachable");
        // The outage named, not libpqxx's "Could not obtain client encoding".
        INFO(down.body["message"].get<std::string>());
        CHECK(down.body["message"].get<std::string>().find("client encoding") == std::string::npos);
        CHECK(down.took < std::chrono::seconds(8));
        const auto overview = pages.get("/api/league");
        CHECK(overview.status == 200);
        CHECK(overview.body["reachable"] == false);
        CHECK(!overview.body["message"].get<std::string>().empty());
        REQUIRE(clubtest::server().startAgain());
        std::this_thread::sleep_for(std::chrono::milliseconds(300));  // past retryAfter
        const auto back = pages.get("/api/league/standings");
        CHECK(back.status == 200);
    }
}

TEST_CASE("the league of a club on an older schema says to migrate it, then reads it once migrated") {
    const std::string db = "club_pages_old";
    const std::string admin = freshDatabase(db);
    pqxx::connection conn(admin);
    const auto created = club::createClub(conn, club::clubSchemaVersion() - 1);
    REQUIRE(created.leaguePassword);
    Pages pages(clubtest::server().conninfo(db, created.leagueRole, *created.leaguePassword), db);
    const auto old = pages.get("/api/league/standings");
    CHECK(old.status == 503);
    CHECK(old.body["error"] == "club-unreachable");
    const auto message = old.body["message"].get<std::string>();
    CHECK_MESSAGE(
        message.find("the club's schema is version " + std::to_string(club::clubSchemaVersion() - 1) +
                     " and this vivaref reads " + std::to_string(club::clubSchemaVersion()) +
                     ": run 'vivaref club migrate'") != std::string::npos,
        message);
    club::createClub(conn);
    std::this_thread::sleep_for(std::chrono::milliseconds(300));  // past retryAfter
    const auto migrated = pages.get("/api/league/standings");
    CHECK(migrated.status == 200);
    CHECK(migrated.body["standings"].empty());
}
