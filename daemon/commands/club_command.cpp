// `vivaref club`: the club's admin on the club's PostgreSQL (daemon/club):
// make or migrate the schema and roles, add tables and members, and read
// the league (standings, a member's history, the games). Every failure is
// one sentence on stderr and a non-zero exit.
#include <algorithm>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <iomanip>
#include <iostream>
#include <map>
#include <sstream>
#include <thread>

#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>
#include <libpq-fe.h>
#include <nlohmann/json.hpp>
#include <pqxx/pqxx>

#include "daemon/club/club_admin.hpp"
#include "daemon/club/club_connection.hpp"
#include "daemon/club/club_schema.hpp"
#include "daemon/club/game_judge.hpp"
#include "daemon/club/league_queries.hpp"
#include "daemon/club/league_reader.hpp"
#include "daemon/commands/command.hpp"
#include "daemon/commands/command_line.hpp"
#include "daemon/commands/terminal_text.hpp"
#include "daemon/server/http_server.hpp"
#include "daemon/server/league_routes.hpp"
#include "daemon/server/web_server.hpp"

namespace vivaref::daemon {

namespace po = boost::program_options;

namespace {

constexpr int kExitClub = 1;  // the server refused, or could not be reached

constexpr const char* kServerHelp =
    "the club's PostgreSQL as a libpq connection string ('host=... dbname=... user=...') or a "
    "postgresql:// URI; default: libpq's, from the PG* variables (PGHOST, PGDATABASE, PGUSER, ...)";

int clubError(std::string_view sub, const club::ClubError& e) {
    std::cerr << "vivaref club " << sub << ": " << e.what() << "\n";
    return kExitClub;
}

// Parses a subcommand's options (with --server), connects, runs `body`.
template <class Body>
int withServer(std::string_view sub, CommandLine& line, std::string& server,
               const std::vector<std::string>& args, Body&& body) {
    line.visible.add_options()("server", po::value(&server), kServerHelp);
    po::variables_map vm;
    if (auto stop = parseCommandLine(line, args, vm)) return *stop;
    try {
        auto conn = club::openClubConnection(server);
        return body(*conn);
    } catch (const club::ClubError& e) {
        return clubError(sub, e);
    } catch (const std::exception& e) {
        std::cerr << "vivaref club " << sub << ": " << e.what() << "\n";
        return kExitClub;
    }
}

// Judges the games pushed since the last judging (the engine replays each
// record: game_judge.hpp) when this role may (the admin; not the league's
// read-only role), and names on stderr each one left out. Returns them.
std::vector<club::Judgement> judgeNewGames(std::string_view sub, pqxx::connection& conn) {
    if (!club::mayJudge(conn)) return {};
    std::vector<club::Judgement> judged = club::judgeWaitingGames(conn);
    for (const auto& j : judged)
        if (j.mismatch) std::cerr << "vivaref club " << sub << ": " << club::mismatchSentence(j) << "\n";
    return judged;
}

std::string fixed(double v, int digits) {
    std::ostringstream out;
    out << std::fixed << std::setprecision(digits) << v;
    return out.str();
}

int runCreate(const std::vector<std::string>& args) {
    std::string server;
    CommandLine line(
        "club create", "vivaref club create [--server CONNINFO]",
        "Makes the club's schema in the database (or migrates it to this vivaref's), the read-only\n"
        "league role <db>_league (its password is printed once, when it is made) and the tables'\n"
        "group <db>_tables. Run it as the database's owner with CREATEROLE; running it again\n"
        "changes nothing. A schema from a newer vivaref is refused.");
    return withServer("create", line, server, args, [](pqxx::connection& conn) {
        const auto r = club::createClub(conn);
        if (r.versionBefore == r.versionAfter)
            std::cout << "The club's schema is up to date (version " << r.versionAfter << ").\n";
        else
            std::cout << "The club's schema is at version " << r.versionAfter << " (was " << r.versionBefore
                      << ").\n";
        if (r.leaguePassword)
            std::cout << "League role (read only): " << r.leagueRole
                      << ", password (shown once): " << *r.leaguePassword << "\n";
        (void)judgeNewGames("create", conn);
        return kExitOk;
    });
}

int runAddTable(const std::vector<std::string>& args) {
    std::string server, name, tablesHost;
    CommandLine line(
        "club add-table", "vivaref club add-table [--server CONNINFO] [--tables-host HOST] NAME",
        "Adds a table NAME (lowercase letters, digits, '-', '_') to the club: a login role that may\n"
        "only push its own games and read the members, with a generated password. Prints the\n"
        "[club] lines the table's configuration needs: the password is shown only this once.");
    line.visible.add_options()(
        "tables-host", po::value(&tablesHost),
        "the server's name as the tables reach it, for the printed lines (default: the "
        "host this command connected to, which is a socket directory when it is local)");
    line.hidden.add_options()("name", po::value(&name)->required(), "");
    line.positional.add("name", 1);
    return withServer("add-table", line, server, args, [&](pqxx::connection& conn) {
        const auto t = club::addTable(conn, name);
        if (tablesHost.empty()) tablesHost = conn.hostname() ? conn.hostname() : "localhost";
        std::cout
            << "Table '" << t.name << "' added; its role is " << t.role
            << ". Put these lines in the table's configuration (the password is not shown again):\n\n"
            << "[club]\n"
            << "server = " << tablesHost << ":" << (conn.port() ? conn.port() : "5432") << "\n"
            << "database = " << conn.dbname() << "\n"
            << "table = " << t.name << "\n"
            << "user = " << t.role << "\n"
            << "password = " << t.password << "\n\n"
            << "(Better: put the password alone in a file only the referee's user can read, and name it\n"
            << "with password_file = /etc/vivaref/club-password instead of the password line.)\n";
        return kExitOk;
    });
}

int runAddMember(const std::vector<std::string>& args) {
    std::string server;
    std::vector<std::string> names;
    CommandLine line("club add-member", "vivaref club add-member [--server CONNINFO] NAME...",
                     "Adds members to the club, by name (1 to 40 characters, unique ignoring case): all of\n"
                     "them or none.");
    line.hidden.add_options()("names", po::value(&names)->required()->multitoken(), "");
    line.positional.add("names", -1);
    return withServer("add-member", line, server, args, [&](pqxx::connection& conn) {
        // "ID<tab>NAME" lines for scripts: names as kept (the filter still
        // writes out what could turn the line around).
        for (const auto& m : club::addMembers(conn, names)) std::cout << m.id << "\t" << m.name << "\n";
        return kExitOk;
    });
}

int runMembers(const std::vector<std::string>& args) {
    std::string server;
    CommandLine line("club members", "vivaref club members [--server CONNINFO]",
                     "Lists the club's active members: id and name.");
    return withServer("members", line, server, args, [&](pqxx::connection& conn) {
        try {
            pqxx::read_transaction tx(conn);
            for (const auto& row :
                 tx.exec("SELECT id, name FROM club.members WHERE active ORDER BY lower(name)"))
                std::cout << row[0].as<std::int64_t>() << "\t" << row[1].as<std::string>() << "\n";
        } catch (...) {
            club::rethrowAsClubError("reading the club's members");
        }
        return kExitOk;
    });
}

int runStandings(const std::vector<std::string>& args) {
    std::string server, edition, table, since, until;
    bool json = false;
    CommandLine line("club standings",
                     "vivaref club standings [--server CONNINFO] [--edition E] [--table T] [--since DATE] "
                     "[--until DATE] [--json]",
                     "The league's standings per edition, best rating first: games, wins, points per game,\n"
                     "pairwise wins-losses-draws and the rating (daemon/club/NOTES.md). Guests and bots are\n"
                     "not ranked; abandoned games do not count. With --table, --since or --until they are\n"
                     "counted again from those games only (DATE as PostgreSQL reads it: 2026-11-01).");
    line.visible.add_options()("edition", po::value(&edition), "only this edition (classic, online, 2024)")(
        "table", po::value(&table), "only the games of this table")("since", po::value(&since),
                                                                    "only games ended at or after DATE")(
        "until", po::value(&until), "only games ended before DATE")("json", po::bool_switch(&json),
                                                                    "print JSON");
    return withServer("standings", line, server, args, [&](pqxx::connection& conn) {
        (void)judgeNewGames("standings", conn);
        club::StandingsFilter f;
        if (!edition.empty()) f.edition = edition;
        if (!table.empty()) f.table = table;
        if (!since.empty()) f.since = since;
        if (!until.empty()) f.until = until;
        const auto rows = club::leagueStandings(conn, f);
        if (json) {
            auto out = nlohmann::json::array();
            for (const auto& r : rows)
                out.push_back({{"edition", r.edition},
                               {"member", r.member},
                               {"name", r.name},
                               {"games", r.counts.games},
                               {"wins", r.counts.wins},
                               {"points", r.counts.points},
                               {"pairwise_wins", r.counts.pairwiseWins},
                               {"pairwise_losses", r.counts.pairwiseLosses},
                               {"pairwise_draws", r.counts.pairwiseDraws},
                               {"rating", r.rating}});
            std::cout << out.dump() << "\n";
            return kExitOk;
        }
        std::string shown;
        int rank = 0;
        for (const auto& r : rows) {
            if (r.edition != shown) {
                shown = r.edition;
                rank = 0;
                std::cout << (shown.empty() ? "" : "\n") << "Edition " << r.edition << "\n"
                          << "rank  name                  games  wins  pts/game  W-L-D         rating\n";
            }
            std::string wld = std::to_string(r.counts.pairwiseWins) + "-" +
                              std::to_string(r.counts.pairwiseLosses) + "-" +
                              std::to_string(r.counts.pairwiseDraws);
            // Through std::cout (printf would pass by the terminal's filter), the name isolated.
            char numbers[96];
            std::snprintf(numbers, sizeof numbers, "  %5lld  %4lld  %8s  %-12s  %6s\n",
                          static_cast<long long>(r.counts.games), static_cast<long long>(r.counts.wins),
                          fixed(club::pointsPerGame(r.counts), 1).c_str(), wld.c_str(),
                          fixed(r.rating, 0).c_str());
            std::cout << std::setw(4) << ++rank << "  " << paddedName(r.name, 20) << numbers;
        }
        if (rows.empty()) std::cout << "No counted games yet.\n";
        return kExitOk;
    });
}

int runHistory(const std::vector<std::string>& args) {
    std::string server, member;
    bool json = false;
    CommandLine line(
        "club history", "vivaref club history [--server CONNINFO] [--json] MEMBER",
        "Every game a member played, abandoned ones too, last first: when, where, the game's uid,\n"
        "the seat, the score and whether they won.");
    line.visible.add_options()("json", po::bool_switch(&json), "print JSON");
    line.hidden.add_options()("member", po::value(&member)->required(), "");
    line.positional.add("member", 1);
    return withServer("history", line, server, args, [&](pqxx::connection& conn) {
        (void)judgeNewGames("history", conn);
        const auto games = club::memberHistory(conn, member);
        auto out = nlohmann::json::array();
        for (const auto& e : games) {
            if (json) {
                out.push_back({{"uid", e.game.uid},
                               {"table", e.game.table},
                               {"started_at", e.game.startedAt},
                               {"ended_at", e.game.endedAt},
                               {"edition", e.game.edition},
                               {"complete", e.game.complete},
                               {"abandoned", e.game.abandoned},
                               {"seat", e.seat},
                               {"score", e.score ? nlohmann::json(*e.score) : nlohmann::json(nullptr)},
                               {"winner", e.winner}});
            } else {
                std::cout << (e.game.endedAt.empty() ? e.game.startedAt : e.game.endedAt) << "  "
                          << e.game.table << "  " << e.game.uid << "  " << e.game.edition << "  seat "
                          << e.seat << "  "
                          << (e.game.abandoned
                                  ? std::string("abandoned")
                                  : (e.score ? std::to_string(*e.score) : "-") + (e.winner ? " won" : ""))
                          << "\n";
            }
        }
        if (json) std::cout << out.dump() << "\n";
        return kExitOk;
    });
}

int runGamesList(const std::vector<std::string>& args) {
    std::string server;
    int limit = 100;
    CommandLine line("club games", "vivaref club games [--server CONNINFO] [--limit N]",
                     "The games the tables pushed, last pushed first: uid, table, the table's own id, end,\n"
                     "edition, status, and whether the engine found the scores pushed (verified) or not\n"
                     "(left out of the standings).");
    line.visible.add_options()("limit", po::value(&limit), "at most N games (100)");
    return withServer("games", line, server, args, [&](pqxx::connection& conn) {
        (void)judgeNewGames("games", conn);
        for (const auto& g : club::leagueGames(conn, std::max(limit, 0)))
            std::cout << g.uid << "  " << g.table << "  #" << g.localId << "  "
                      << (g.endedAt.empty() ? g.startedAt : g.endedAt) << "  " << g.edition << "  "
                      << (g.abandoned  ? "abandoned"
                          : g.complete ? "complete"
                                       : "incomplete")
                      << "  "
                      << (g.verdict == "verified"   ? "verified"
                          : g.verdict == "mismatch" ? "left out (vivaref club verify says why)"
                                                    : "not checked")
                      << "\n";
        return kExitOk;
    });
}

// One round of `club verify`: the new games judged, and what it says of them.
// `all`: every game left out so far is named too (a single check).
int verifyOnce(pqxx::connection& conn, bool all) {
    if (!club::mayJudge(conn))
        throw club::ClubError("this role may not judge the pushed games: run it as the club's admin", false);
    const auto judged = club::judgeWaitingGames(conn);
    const auto bad =
        std::count_if(judged.begin(), judged.end(), [](const auto& j) { return j.mismatch.has_value(); });
    if (!all) {
        if (judged.empty()) return kExitOk;
        std::cout << judged.size() << " new games checked: " << judged.size() - static_cast<std::size_t>(bad)
                  << " verified, " << bad << " left out." << std::endl;
        for (const auto& j : judged)
            if (j.mismatch) std::cout << club::mismatchSentence(j) << std::endl;
        return bad ? kExitClub : kExitOk;
    }
    std::cout << judged.size() << " new games checked: " << judged.size() - static_cast<std::size_t>(bad)
              << " verified, " << bad << " left out.\n";
    const auto left = club::mismatchedGames(conn);
    for (const auto& j : left) std::cout << club::mismatchSentence(j) << "\n";
    return left.empty() ? kExitOk : kExitClub;
}

// Set by SIGTERM or SIGINT while `club verify --every` waits.
volatile std::sig_atomic_t verifyStop = 0;
extern "C" void stopVerifying(int) { verifyStop = 1; }

// `club verify --every SECONDS`: the league's own judge, as a service
// (README, "A club's league"): the games the tables push count in
// the standings within SECONDS, with no admin at a terminal. A server that
// does not answer is tried again the next round (said once until it answers).
int verifyEvery(const std::string& server, int seconds) {
    std::signal(SIGTERM, stopVerifying);
    std::signal(SIGINT, stopVerifying);
    std::cout << "vivaref club verify: checking the pushed games every " << seconds << " s" << std::endl;
    std::string lastProblem;
    while (!verifyStop) {
        try {
            auto conn = club::openClubConnection(server);
            // The role itself may not judge: no later round could.
            if (!club::mayJudge(*conn))
                return clubError(
                    "verify",
                    club::ClubError("this role may not judge the pushed games: run it as the club's admin",
                                    false));
            verifyOnce(*conn, false);
            if (!lastProblem.empty())
                std::cout << "vivaref club verify: the club's server answers again" << std::endl;
            lastProblem.clear();
        } catch (const std::exception& e) {
            if (e.what() != lastProblem) std::cerr << "vivaref club verify: " << e.what() << std::endl;
            lastProblem = e.what();
        }
        for (int tenth = 0; tenth < seconds * 10 && !verifyStop; ++tenth)
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return kExitOk;
}

int runVerify(const std::vector<std::string>& args) {
    std::string server;
    int every = 0;
    CommandLine line("club verify", "vivaref club verify [--server CONNINFO] [--every SECONDS]",
                     "Replays with the engine each game pushed since the last check and compares it with\n"
                     "the scores and winners its table pushed: a game that agrees counts in the standings,\n"
                     "one that does not is left out. Prints how many were checked, then every game left\n"
                     "out (which game, which table, what differs); exit 1 when there is one. Run it as the\n"
                     "club's admin; standings, history, games and migrate check the new games too.\n"
                     "With --every it keeps checking, every SECONDS, until SIGTERM or SIGINT (exit 0):\n"
                     "the league's judge as a service (README, \"A club's league\"); it prints\n"
                     "only what each round judged.");
    line.visible.add_options()("every", po::value(&every),
                               "keep checking every SECONDS (1 to 86400), as a service");
    if (std::find(args.begin(), args.end(), "--every") != args.end() ||
        std::any_of(args.begin(), args.end(),
                    [](const std::string& a) { return a.starts_with("--every="); })) {
        line.visible.add_options()("server", po::value(&server), kServerHelp);
        po::variables_map vm;
        if (auto stop = parseCommandLine(line, args, vm)) return *stop;
        if (every < 1 || every > 86400)
            return usageError("club verify", "--every is from 1 to 86400 seconds");
        return verifyEvery(server, every);
    }
    return withServer("verify", line, server, args,
                      [&](pqxx::connection& conn) { return verifyOnce(conn, true); });
}

int runServe(const std::vector<std::string>& args) {
    std::string conninfo, listen = "127.0.0.1:8090", webRoot;
    CommandLine line(
        "club serve", "vivaref club serve [--server CONNINFO] [--listen ADDR:PORT] [--web-root DIR]",
        "Serves the club's league on the web: its page (/, league.html), a game's review\n"
        "(games.html?league=UID) and the league's read-only API (GET /api/league..., web-ui/API.md),\n"
        "nothing of a table. Give --server the read-only role vivaref club create made\n"
        "(user=<db>_league). Prints 'listening on URL' once it listens; while the club's server\n"
        "cannot be reached the pages say so. SIGTERM or SIGINT stops it.");
    line.visible.add_options()("server", po::value(&conninfo), kServerHelp)(
        "listen", po::value(&listen),
        "the address and port to listen on (127.0.0.1:8090; [::]:8090 for all)")(
        "web-root", po::value(&webRoot), "the web page's files (default: the installed web-ui)");
    po::variables_map vm;
    if (auto stop = parseCommandLine(line, args, vm)) return *stop;
    boost::asio::ip::tcp::endpoint endpoint;
    try {
        endpoint = server::parseListenAddress(listen);
        // A bad conninfo is said now, not at the first page.
        (void)club::withTimeouts(conninfo, {});
    } catch (const club::ClubError& e) {
        return clubError("serve", e);
    } catch (const std::exception& e) {
        return usageError("club serve", e.what());
    }
    boost::asio::io_context io;
    club::LeagueReaderOptions reading;
    reading.conninfo = conninfo;
    {
        // The database's name for the page while the server cannot be reached.
        char* error = nullptr;
        if (PQconninfoOption* options = PQconninfoParse(conninfo.c_str(), &error)) {
            for (auto* o = options; o->keyword; ++o)
                if (std::string_view(o->keyword) == "dbname" && o->val) reading.database = o->val;
            PQconninfoFree(options);
        }
        if (error) PQfreemem(error);
        if (reading.database.empty())
            if (const char* db = std::getenv("PGDATABASE")) reading.database = db;
    }
    auto league = server::makeLeagueReader(io, std::move(reading));
    server::NoTableService noTable;
    server::WebServerOptions options;
    options.router.leagueOnly = true;
    options.router.league = server::leagueRoutes(*league);
    if (!webRoot.empty()) options.webRoot = webRoot;
    server::WebServer web(io, noTable, options);
    try {
        web.listen(endpoint);
    } catch (const std::exception& e) {
        std::cerr << "vivaref club serve: " << e.what() << "\n";
        return kExitClub;
    }
    const auto bound = web.localEndpoint();
    const std::string host =
        bound.address().is_v6() ? "[" + bound.address().to_string() + "]" : bound.address().to_string();
    std::cout << "listening on http://" << host << ":" << bound.port() << "/" << std::endl;
    boost::asio::signal_set signals(io, SIGTERM, SIGINT);
    signals.async_wait([&](const boost::system::error_code& error, int) {
        if (error) return;
        web.stop();
        io.stop();
    });
    io.run();
    return kExitOk;
}

struct Subcommand {
    const char* name;
    const char* summary;
    int (*run)(const std::vector<std::string>&);
};

constexpr Subcommand kSubcommands[] = {
    {"create", "make or migrate the club's schema and its league role (also: migrate)", runCreate},
    {"migrate", "the same as create", runCreate},
    {"add-table", "add a table: its role and password, and the [club] lines for its configuration",
     runAddTable},
    {"add-member", "add members by name", runAddMember},
    {"members", "list the members", runMembers},
    {"standings", "the standings per edition, filtered by table or period", runStandings},
    {"history", "a member's games", runHistory},
    {"games", "the pushed games", runGamesList},
    {"verify", "check the pushed games against their records; name those left out", runVerify},
    {"serve", "serve the league's web page and read-only API", runServe},
};

}  // namespace

int runClub(const std::vector<std::string>& args) {
    if (args.empty() || args[0] == "--help" || args[0] == "-h") {
        std::cout << "Usage: vivaref club SUBCOMMAND [options]\n\n"
                     "The club's league on its PostgreSQL server: every table's games in one place.\n"
                     "Each subcommand takes --server CONNINFO and answers --help.\n\nSubcommands:\n";
        for (const auto& s : kSubcommands) std::printf("  %-11s %s\n", s.name, s.summary);
        return args.empty() ? kExitUsage : kExitOk;
    }
    for (const auto& s : kSubcommands)
        if (args[0] == s.name) return s.run(std::vector<std::string>(args.begin() + 1, args.end()));
    return usageError("club", "no subcommand '" + args[0] + "'");
}

}  // namespace vivaref::daemon
