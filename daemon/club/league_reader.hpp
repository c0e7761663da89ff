// The league pages' reader: one connection to the club's PostgreSQL (the
// read-only `<db>_league` role), kept by a thread of its own, which runs
// the queries one at a time and hands each answer to `post` (serve posts it
// back to its event loop, where the table's game runs: a query never holds
// the loop). A lost connection is opened again for the next query; while
// the club cannot be reached, queries are answered at once with the last
// failure for a short while (`retryAfter`) instead of each waiting for its
// own connect timeout. Also the JSON of the league's answers (web-ui/API.md,
// GET /api/league...) built from league_queries.hpp.
#pragma once

#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>
#include <pqxx/connection>

#include "daemon/club/club_connection.hpp"
#include "daemon/club/league_queries.hpp"
#include "engine/message.hpp"

namespace vivaref::club {

struct LeagueAnswer {
    enum class Outcome {
        Ok,           // 200: `body`, or `text` when set
        BadRequest,   // 400: a parameter the league cannot read (an unknown table, a bad date)
        NotFound,     // 404: no such member or game
        Unreachable,  // 503: the club's server cannot be reached, or refused the league's login
        Busy,         // 503: too many queries waiting
    };
    Outcome outcome = Outcome::Ok;
    nlohmann::json body = nlohmann::json::object();  // not Ok: {"error": CODE, "message": SENTENCE}
    std::optional<std::string> text;                 // Ok: the answer as JSON text already

    static LeagueAnswer failed(Outcome outcome, const std::string& code, const std::string& message) {
        return {outcome, {{"error", code}, {"message", message}}, std::nullopt};
    }
    // A failure a person reads on the league's pages: its message as
    // `says` (web-ui/API.md), its English as `message`.
    static LeagueAnswer failed(Outcome outcome, const std::string& code, const engine::Message& says);
};

// What a query throws for a request the league cannot answer (not a
// failure of the club): an unknown table, member or game, a bad date.
struct LeagueRefusal : std::runtime_error {
    LeagueRefusal(LeagueAnswer::Outcome o, std::string c, const std::string& message)
        : std::runtime_error(message), outcome(o), code(std::move(c)) {}
    LeagueAnswer::Outcome outcome;
    std::string code;
};

struct LeagueReaderOptions {
    std::string conninfo;  // the league role's (config::leagueConninfo, or --server)
    std::string database;  // for the answers while the club cannot be reached
    ClubTimeouts timeouts;
    // After a failed connection, queries fail at once for this long.
    std::chrono::milliseconds retryAfter{3000};
    // More queries waiting than this: Busy at once.
    std::size_t maxWaiting = 64;
};

class LeagueReader {
public:
    // Runs on the reader's thread with its connection; throws ClubError
    // (the club failed) or LeagueRefusal (the request is bad).
    using Query = std::function<LeagueAnswer(pqxx::connection& conn)>;
    using Done = std::function<void(LeagueAnswer)>;
    // Hands `done` and its answer to the thread that asked (serve: its event loop).
    using Post = std::function<void(std::function<void()>)>;

    LeagueReader(LeagueReaderOptions options, Post post);
    // Stops the thread: the query running ends with its statement; the
    // waiting ones are dropped unanswered.
    ~LeagueReader();
    LeagueReader(const LeagueReader&) = delete;
    LeagueReader& operator=(const LeagueReader&) = delete;

    void ask(Query query, Done done);
    const std::string& database() const { return options_.database; }

private:
    struct Job {
        Query query;
        Done done;
    };
    void run();
    LeagueAnswer answer(const Query& query);

    LeagueReaderOptions options_;
    Post post_;
    std::unique_ptr<pqxx::connection> connection_;  // the thread's only
    std::optional<engine::Message> lastFailure_;
    std::chrono::steady_clock::time_point failedAt_{};
    std::mutex mutex_;
    std::condition_variable wake_;
    std::deque<Job> jobs_;
    bool stopping_ = false;
    std::thread thread_;
};

// The queries of the league's routes (web-ui/API.md), each answering JSON.
// GET /api/league: {"database", "reachable": true, "tables": [NAME...],
// "editions": [{"edition", "games", "counted"}], "members": N}.
LeagueAnswer leagueOverview(pqxx::connection& conn, const std::string& database);
// GET /api/league/standings: {"filter": {...}, "standings": [{"edition", "rank",
// "member", "name", "games", "wins", "points", "points_per_game",
// "pairwise_wins", "pairwise_losses", "pairwise_draws", "rating"}]}.
// An unknown table is a LeagueRefusal (BadRequest).
LeagueAnswer standingsAnswer(pqxx::connection& conn, const StandingsFilter& filter);
// GET /api/league/games: {"games": [summary...]} last pushed first.
LeagueAnswer gamesAnswer(pqxx::connection& conn, int limit);
// GET /api/league/members/NAME: {"member", "games": [...]}; an unknown member: NotFound.
LeagueAnswer historyAnswer(pqxx::connection& conn, const std::string& member);

// One game as the league keeps it, for GET /api/league/games/UID.
struct LeagueGame {
    std::string uid;
    std::string table;
    std::int64_t localId = 0;
    std::int64_t startedMs = 0;
    std::optional<std::int64_t> endedMs;
    std::string edition;
    bool complete = false;
    bool abandoned = false;
    std::optional<std::string> result;   // the record's result, JSON text
    std::string record;                  // the GAME-RECORD text
    std::optional<std::string> verdict;  // "verified", "mismatch"; none: not checked yet
    struct Player {
        int player = 0;
        int seat = 0;
        std::string name;
        std::optional<std::int64_t> member;
        bool bot = false;
    };
    std::vector<Player> players;
};
// Nothing when the club has no game `uid`.
std::optional<LeagueGame> leagueGame(pqxx::connection& conn, const std::string& uid);

// "2026-11-01" or "2026-11-01T18:00:00Z" (a date, or a UTC time): true when
// `text` is one, so a bad one is refused before PostgreSQL sees it.
bool isLeagueDate(const std::string& text);
// 32 lowercase hex digits.
bool isGameUid(const std::string& text);

}  // namespace vivaref::club
