// The league at scale (issue 16, item 6): a scratch PostgreSQL, one club of
// many tables and members, games pushed through the real push path
// (PgClubLink, each table its own role and connection, several tables at
// once), and at each checkpoint the push rate, the database's size and the
// times of the league pages' queries through the read-only league role.
// Not a CI test: tests/club/scale-bench.sh runs it at full size; ctest runs
// a few hundred games with --check, which fails on figures that make no
// sense. The records come from a pool played by the engine's random player
// (edition and seats as the setup line says); each push varies the uid,
// table, members, guests, bots and dates, as playing 200,000 games would
// cost more than pushing them.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <map>
#include <mutex>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <pqxx/pqxx>

#include "daemon/club/club_admin.hpp"
#include "daemon/club/club_connection.hpp"
#include "daemon/club/game_judge.hpp"
#include "daemon/club/league_queries.hpp"
#include "daemon/club/league_reader.hpp"
#include "engine/rules.hpp"
#include "tests/club/league_fixture.hpp"
#include "tests/support/scratch_postgres.hpp"

using namespace vivaref;
using Clock = std::chrono::steady_clock;

namespace {

struct Options {
    std::vector<long> checkpoints = {20'000, 50'000, 100'000, 200'000};
    int tables = 100;
    int members = 2'000;
    int threads = 8;  // tables pushing at once
    int pool = 300;   // records played by the engine, reused with new uids
    int reps = 30;    // times each query is timed
    std::uint64_t seed = 16;
    std::string sharedBuffers = "128MB";
    bool fsync = false;
    bool check = false;
};

// One record of the pool: its text, result and each seat's total and win.
struct PlayedGame {
    std::string edition;
    std::string record;
    std::string result;
    std::vector<int> totals;
    std::vector<bool> winners;
};

PlayedGame play(std::uint64_t seed, engine::Edition edition, int seats) {
    engine::RulesSpec spec;
    spec.edition = edition;
    spec.seats = seats;
    const auto [record, result] = clubtest::randomRecord(seed, spec);
    PlayedGame g{std::string(engine::editionName(edition)), record, result.dump(), {}, {}};
    const auto& winners = result["winners"];
    for (int seat = 0; seat < seats; ++seat) {
        g.totals.push_back(result["totals"][static_cast<std::size_t>(seat)].get<int>());
        g.winners.push_back(std::find(winners.begin(), winners.end(), seat) != winners.end());
    }
    return g;
}

// Ten years of games, from 2016-11-28.
constexpr std::int64_t kFirstMs = 1'480'291'200'000;
constexpr std::int64_t kTenYearsMs = 3'652LL * 24 * 3'600'000;

club::GameUpload upload(const PlayedGame& played, std::uint64_t n, const std::string& table,
                        std::int64_t localId, const Options& o, std::mt19937_64& rng) {
    club::GameUpload g;
    char uid[33];
    std::snprintf(uid, sizeof uid, "%016llx%016llx", static_cast<unsigned long long>(o.seed),
                  static_cast<unsigned long long>(n));
    g.uid = uid;
    g.table = table;
    g.localId = localId;
    g.startedMs = kFirstMs + static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(kTenYearsMs));
    g.endedMs = g.startedMs + 1'800'000 + static_cast<std::int64_t>(rng() % 3'600'000);
    g.edition = played.edition;
    g.abandoned = rng() % 50 == 0;
    g.complete = !g.abandoned;
    g.record = played.record;
    if (!g.abandoned) g.result = played.result;
    std::vector<std::int64_t> seated;
    for (std::size_t seat = 0; seat < played.totals.size(); ++seat) {
        club::SeatUpload s;
        s.seat = static_cast<int>(seat);
        s.player = s.seat;
        const auto draw = rng() % 10;
        if (draw < 8) {  // a member, never twice in a game
            std::int64_t m;
            do m = 1 + static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(o.members));
            while (std::find(seated.begin(), seated.end(), m) != seated.end());
            seated.push_back(m);
            s.member = m;
            s.name = "member " + std::to_string(m);
        } else {
            s.bot = draw == 9;
            s.name = s.bot ? "bot" : "guest";
        }
        if (!g.abandoned) {
            s.score = played.totals[seat];
            s.winner = played.winners[seat];
        }
        g.seats.push_back(s);
    }
    return g;
}

struct Timing {
    double median = 0, p95 = 0;
    std::size_t rows = 0;  // what the last call returned
};

template <class Call>
Timing timeQuery(int reps, Call call) {
    std::vector<double> ms;
    Timing t;
    for (int i = 0; i < reps; ++i) {
        const auto start = Clock::now();
        t.rows = call(i);
        ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
    }
    std::sort(ms.begin(), ms.end());
    t.median = ms[ms.size() / 2];
    t.p95 = ms[std::min(ms.size() - 1, static_cast<std::size_t>(static_cast<double>(ms.size()) * 0.95))];
    return t;
}

bool parse(int argc, char** argv, Options& o) {
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        const auto next = [&]() -> std::string {
            if (i + 1 >= argc) throw std::runtime_error(a + " wants a value");
            return argv[++i];
        };
        if (a == "--checkpoints") {
            o.checkpoints.clear();
            std::stringstream in(next());
            for (std::string n; std::getline(in, n, ',');) o.checkpoints.push_back(std::stol(n));
        } else if (a == "--tables")
            o.tables = std::stoi(next());
        else if (a == "--members")
            o.members = std::stoi(next());
        else if (a == "--threads")
            o.threads = std::stoi(next());
        else if (a == "--pool")
            o.pool = std::stoi(next());
        else if (a == "--reps")
            o.reps = std::stoi(next());
        else if (a == "--seed")
            o.seed = std::stoull(next());
        else if (a == "--shared-buffers")
            o.sharedBuffers = next();
        else if (a == "--fsync")
            o.fsync = true;
        else if (a == "--check")
            o.check = true;
        else {
            std::cerr
                << "usage: vivaref_club_scale_bench [--checkpoints N,N,...] [--tables N] [--members N]\n"
                   "  [--threads N] [--pool N] [--reps N] [--seed N] [--shared-buffers SIZE] [--fsync] "
                   "[--check]\n";
            return false;
        }
    }
    std::sort(o.checkpoints.begin(), o.checkpoints.end());
    return !o.checkpoints.empty() && o.tables > 0 && o.members >= 5 && o.threads > 0 && o.pool > 0 &&
           o.reps > 0;
}

// The standings of a period as schema 2 counted them (every player of every
// game the filter keeps, sent to the league and counted with rating.cpp),
// timed beside the schema-3 sums to show what migration 3 buys.
std::size_t recountInClient(pqxx::connection_base& conn, const std::string& edition, const std::string& since,
                            const std::string& until) {
    pqxx::read_transaction tx(conn);
    const auto rows = tx.exec_params(
        "SELECT g.uid, g.edition, g.complete, g.abandoned, p.seat, p.member_id, p.bot, p.score, p.winner, "
        "COALESCE(m.name, '') "
        "FROM club.games g JOIN club.club_tables t ON t.id = g.table_id "
        "JOIN club.game_players p ON p.game_uid = g.uid LEFT JOIN club.members m ON m.id = p.member_id "
        "WHERE g.edition = $1 AND g.ended_at >= $2::timestamptz AND g.ended_at < $3::timestamptz "
        "ORDER BY g.uid",
        edition, since, until);
    club::Standings standings;
    club::RatedGame game;
    std::string uid;
    for (const auto& row : rows) {
        if (row[0].as<std::string>() != uid) {
            if (!uid.empty()) standings.add(game);
            uid = row[0].as<std::string>();
            game = club::RatedGame{row[1].as<std::string>(), row[2].as<bool>(), row[3].as<bool>(), {}};
        }
        club::RatedPlayer p;
        p.seat = row[4].as<int>();
        if (!row[5].is_null()) p.member = row[5].as<std::int64_t>();
        p.bot = row[6].as<bool>();
        if (!row[7].is_null()) p.score = row[7].as<int>();
        p.winner = row[8].as<bool>();
        game.players.push_back(p);
    }
    if (!uid.empty()) standings.add(game);
    return standings.rows().size();
}

int failures = 0;
void expect(bool ok, const std::string& what) {
    if (ok) return;
    std::cout << "CHECK FAILED: " << what << "\n";
    ++failures;
}

}  // namespace

int main(int argc, char** argv) try {
    Options o;
    if (!parse(argc, argv, o)) return 2;
    std::cout << "seed " << o.seed << ", " << o.tables << " tables, " << o.members << " members, "
              << o.threads << " pushing threads, fsync " << (o.fsync ? "on" : "off") << ", shared_buffers "
              << o.sharedBuffers << ", " << std::thread::hardware_concurrency() << " cores\n";
    std::string whyNot;
    testsupport::ScratchPostgresSettings settings;
    settings.maxConnections = o.tables + 20;
    settings.fsync = o.fsync;
    settings.sharedBuffers = o.sharedBuffers;
    auto pg = testsupport::ScratchPostgres::start(whyNot, settings);
    if (!pg) {
        std::cout << "skipped: " << whyNot << "\n";
        return 77;
    }
    {
        pqxx::connection super(pg->superConninfo("postgres"));
        pqxx::nontransaction tx(super);
        tx.exec0("CREATE DATABASE scale");
    }
    pqxx::connection admin(pg->superConninfo("scale"));
    const auto created = club::createClub(admin);
    const auto league = pg->conninfo("scale", created.leagueRole, created.leaguePassword.value_or(""));
    std::vector<club::NewTable> tables;
    for (int t = 0; t < o.tables; ++t) tables.push_back(club::addTable(admin, "t" + std::to_string(t)));
    std::vector<std::string> names;
    for (int m = 1; m <= o.members; ++m) names.push_back("Member " + std::to_string(m));
    const auto members = club::addMembers(admin, names);
    expect(members.front().id == 1 && members.back().id == o.members, "member ids run from 1");

    auto start = Clock::now();
    std::vector<PlayedGame> pool;
    const engine::Edition editions[] = {engine::Edition::Classic, engine::Edition::Online,
                                        engine::Edition::Vive2024};
    for (int i = 0; i < o.pool; ++i)
        pool.push_back(
            play(o.seed * 1'000'003 + static_cast<std::uint64_t>(i), editions[i % 3], 3 + (i / 3) % 3));
    const double poolSeconds = std::chrono::duration<double>(Clock::now() - start).count();
    std::size_t recordBytes = 0;
    for (const auto& p : pool) recordBytes += p.record.size();
    std::cout << "pool: " << o.pool << " games played in " << poolSeconds << " s ("
              << static_cast<double>(o.pool) / poolSeconds << " games/s), record "
              << recordBytes / pool.size() << " bytes on average\n\n";

    std::atomic<long> next{0};
    std::mutex uidsMutex;
    std::vector<std::string> someUids;
    std::vector<std::int64_t> localIds(static_cast<std::size_t>(o.tables), 0);
    long pushed = 0;
    for (const long target : o.checkpoints) {
        start = Clock::now();
        std::vector<std::thread> threads;
        std::atomic<bool> failed{false};
        std::string failure;
        for (int w = 0; w < o.threads; ++w)
            threads.emplace_back([&, w] {
                try {
                    // This thread's tables, each with its own role and connection.
                    std::vector<std::size_t> mine;
                    std::vector<std::unique_ptr<club::PgClubLink>> links;
                    for (std::size_t t = static_cast<std::size_t>(w); t < tables.size();
                         t += static_cast<std::size_t>(o.threads)) {
                        mine.push_back(t);
                        links.push_back(std::make_unique<club::PgClubLink>(
                            pg->conninfo("scale", tables[t].role, tables[t].password), tables[t].name));
                    }
                    if (mine.empty()) return;
                    std::mt19937_64 rng(o.seed ^ (static_cast<std::uint64_t>(w) << 32) ^
                                        static_cast<std::uint64_t>(target));
                    for (std::size_t k = 0;; ++k) {
                        const long n = next.fetch_add(1);
                        if (n >= target || failed) break;
                        const auto i = k % mine.size();
                        const auto& played = pool[rng() % pool.size()];
                        const auto g = upload(played, static_cast<std::uint64_t>(n), tables[mine[i]].name,
                                              ++localIds[mine[i]], o, rng);
                        if (links[i]->push(g) != club::PushOutcome::Inserted)
                            throw std::runtime_error("game " + g.uid + " was already there");
                        if (n % 97 == 0) {
                            std::lock_guard lock(uidsMutex);
                            someUids.push_back(g.uid);
                        }
                    }
                } catch (const std::exception& e) {
                    std::lock_guard lock(uidsMutex);
                    failure = e.what();
                    failed = true;
                }
            });
        for (auto& t : threads) t.join();
        if (failed) throw std::runtime_error("a push failed: " + failure);
        next = target;
        const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
        const double rate = static_cast<double>(target - pushed) / seconds;
        pushed = target;

        std::cout << "== " << target << " games\n";
        std::cout << "push: " << rate << " games/s (" << std::min(o.threads, o.tables)
                  << " tables pushing at once)\n";
        {
            // The admin's check of the new games (each record replayed with
            // the engine, then judged and counted): the standings count only
            // checked games.
            const auto judgeStart = Clock::now();
            const auto judged = club::judgeWaitingGames(admin);
            const double judgeSeconds = std::chrono::duration<double>(Clock::now() - judgeStart).count();
            std::cout << "check: " << static_cast<double>(judged.size()) / judgeSeconds << " games/s ("
                      << judged.size() << " games, "
                      << std::count_if(judged.begin(), judged.end(),
                                       [](const auto& j) { return j.mismatch.has_value(); })
                      << " left out)\n";
        }
        {
            pqxx::nontransaction tx(admin);
            // What autovacuum would have done by now (an insert-only table is
            // vacuumed after every 20 % more rows): the statistics, and the
            // all-visible pages an index-only scan needs. The bench does not
            // wait for it.
            tx.exec0("VACUUM (ANALYZE)");
            const auto count = tx.exec1("SELECT count(*) FROM club.games")[0].as<long>();
            expect(count == target,
                   "the league holds " + std::to_string(target) + " games, not " + std::to_string(count));
            std::cout << "database: "
                      << tx.exec1("SELECT pg_size_pretty(pg_database_size('scale'))")[0].as<std::string>()
                      << "; with indexes and TOAST:";
            for (const auto& row : tx.exec("SELECT c.relname, pg_size_pretty(pg_total_relation_size(c.oid)), "
                                           "pg_size_pretty(pg_indexes_size(c.oid)) "
                                           "FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
                                           "WHERE n.nspname = 'club' AND c.relkind = 'r' ORDER BY "
                                           "pg_total_relation_size(c.oid) DESC "
                                           "LIMIT 5"))
                std::cout << " " << row[0].as<std::string>() << " " << row[1].as<std::string>()
                          << " (indexes " << row[2].as<std::string>() << ")";
            std::cout << "\n";
        }

        pqxx::connection reader(league);
        std::mt19937_64 pick(o.seed + static_cast<std::uint64_t>(target));
        const char* editionNames[] = {"classic", "online", "2024"};
        std::map<std::string, Timing> times;
        times["standings per edition (maintained)"] = timeQuery(o.reps, [&](int i) {
            club::StandingsFilter f;
            f.edition = editionNames[i % 3];
            return club::leagueStandings(reader, f).size();
        });
        times["standings of one table (recounted)"] = timeQuery(o.reps, [&](int i) {
            club::StandingsFilter f;
            f.edition = editionNames[i % 3];
            f.table = tables[pick() % tables.size()].name;
            return club::leagueStandings(reader, f).size();
        });
        times["standings of one year (recounted)"] = timeQuery(o.reps, [&](int i) {
            club::StandingsFilter f;
            f.edition = editionNames[i % 3];
            const auto year = 2017 + pick() % 9;
            f.since = std::to_string(year) + "-01-01";
            f.until = std::to_string(year + 1) + "-01-01";
            return club::leagueStandings(reader, f).size();
        });
        times["one year, as schema 2 counted it"] = timeQuery(o.reps, [&](int i) {
            const auto year = 2017 + pick() % 9;
            return recountInClient(reader, editionNames[i % 3], std::to_string(year) + "-01-01",
                                   std::to_string(year + 1) + "-01-01");
        });
        times["standings of one month (recounted)"] = timeQuery(o.reps, [&](int i) {
            club::StandingsFilter f;
            f.edition = editionNames[i % 3];
            const auto month = 1 + pick() % 12;
            const auto year = 2017 + pick() % 9;
            f.since = std::to_string(year) + "-" + std::to_string(month) + "-01";
            f.until = month == 12 ? std::to_string(year + 1) + "-01-01"
                                  : std::to_string(year) + "-" + std::to_string(month + 1) + "-01";
            return club::leagueStandings(reader, f).size();
        });
        times["a member's history"] = timeQuery(
            o.reps, [&](int) { return club::memberHistory(reader, names[pick() % names.size()]).size(); });
        times["the league's overview"] = timeQuery(o.reps, [&](int) {
            const auto answer = club::leagueOverview(reader, "scale");
            if (answer.outcome != club::LeagueAnswer::Outcome::Ok) throw std::runtime_error("no overview");
            return std::size_t{1};
        });
        times["recent games (100)"] =
            timeQuery(o.reps, [&](int) { return club::leagueGames(reader, 100).size(); });
        times["one game's record"] = timeQuery(o.reps, [&](int) {
            std::string uid;
            {
                std::lock_guard lock(uidsMutex);
                uid = someUids[pick() % someUids.size()];
            }
            return club::gameRecord(reader, uid) ? std::size_t{1} : std::size_t{0};
        });
        for (const auto& [what, t] : times) {
            char line[160];
            std::snprintf(line, sizeof line, "  %-38s median %8.2f ms  p95 %8.2f ms  (%zu rows)\n",
                          what.c_str(), t.median, t.p95, t.rows);
            std::cout << line;
            expect(t.median > 0 && t.p95 >= t.median, what + ": times make no sense");
        }
        expect(rate > 0, "a push rate");
        expect(times["standings per edition (maintained)"].rows > 0, "the standings have rows");
        expect(times["a member's history"].rows > 0 || target < 2 * o.members, "a member has games");
        expect(times["recent games (100)"].rows == static_cast<std::size_t>(std::min(100L, target)),
               "the recent games list is full");
        expect(times["one game's record"].rows == 1, "a pushed game's record is found");
        std::cout << std::endl;
    }
    if (o.check) {
        // The maintained standings equal the recount over every game.
        club::StandingsFilter all;
        all.since = "1970-01-01";
        const auto kept = club::leagueStandings(admin, {});
        const auto recounted = club::leagueStandings(admin, all);
        expect(kept.size() == recounted.size(), "maintained and recounted standings have the same rows");
        for (std::size_t i = 0; i < std::min(kept.size(), recounted.size()); ++i)
            expect(kept[i].member == recounted[i].member && kept[i].counts == recounted[i].counts,
                   "maintained and recounted standings agree");
    }
    if (failures) std::cout << failures << " checks failed (seed " << o.seed << ")\n";
    return failures ? 1 : 0;
} catch (const std::exception& e) {
    std::cerr << "vivaref_club_scale_bench: " << e.what() << "\n";
    return 1;
}
