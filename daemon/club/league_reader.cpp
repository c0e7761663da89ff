#include "daemon/club/league_reader.hpp"

#include <pqxx/pqxx>

#include "daemon/club/club_schema.hpp"
#include "daemon/club/rating.hpp"
#include "daemon/words/message_json.hpp"
#include "daemon/words/words.hpp"

namespace vivaref::club {

using nlohmann::json;

LeagueReader::LeagueReader(LeagueReaderOptions options, Post post)
    : options_(std::move(options)), post_(std::move(post)) {
    thread_ = std::thread([this] { run(); });
}

LeagueReader::~LeagueReader() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
        jobs_.clear();
    }
    wake_.notify_all();
    thread_.join();
}

void LeagueReader::ask(Query query, Done done) {
    {
        std::lock_guard lock(mutex_);
        if (jobs_.size() < options_.maxWaiting) {
            jobs_.push_back(Job{std::move(query), std::move(done)});
            wake_.notify_one();
            return;
        }
    }
    // Answered by the caller's own thread, as every answer is.
    post_([done = std::move(done)] {
        done(
            LeagueAnswer::failed(LeagueAnswer::Outcome::Busy, "league-busy", engine::Message("league.busy")));
    });
}

void LeagueReader::run() {
    for (;;) {
        Job job;
        {
            std::unique_lock lock(mutex_);
            wake_.wait(lock, [this] { return stopping_ || !jobs_.empty(); });
            if (stopping_) break;
            job = std::move(jobs_.front());
            jobs_.pop_front();
        }
        auto answered = answer(job.query);
        post_([done = std::move(job.done), answered = std::move(answered)]() mutable {
            done(std::move(answered));
        });
    }
    connection_.reset();
}

namespace {

// The pages' queries are this vivaref's schema's (the games per edition of
// migration 4, the members' results of 3): a club another version made says
// so in a sentence rather than with a missing relation's name.
void checkSchema(pqxx::connection& conn) {
    const int installed = installedClubSchemaVersion(conn);
    if (installed == clubSchemaVersion()) return;
    throw ClubError("the club's schema is version " + std::to_string(installed) + " and this vivaref reads " +
                        std::to_string(clubSchemaVersion()) +
                        (installed < clubSchemaVersion() ? ": run 'vivaref club migrate' on the club's server"
                                                         : ": upgrade this vivaref"),
                    false);
}

}  // namespace

LeagueAnswer LeagueAnswer::failed(Outcome outcome, const std::string& code, const engine::Message& says) {
    return {outcome,
            {{"error", code}, {"message", words::english().say(says)}, {"says", words::messageJson(says)}},
            std::nullopt};
}

LeagueAnswer LeagueReader::answer(const Query& query) {
    const auto now = std::chrono::steady_clock::now();
    if (!connection_ && lastFailure_ && now - failedAt_ < options_.retryAfter)
        return LeagueAnswer::failed(LeagueAnswer::Outcome::Unreachable, "club-unreachable", *lastFailure_);
    try {
        if (connection_ && !connection_->is_open()) connection_.reset();
        if (!connection_) {
            connection_ = openClubConnection(options_.conninfo, options_.timeouts);
            checkSchema(*connection_);
        }
        auto out = query(*connection_);
        lastFailure_.reset();
        return out;
    } catch (const LeagueRefusal& refusal) {
        return LeagueAnswer::failed(refusal.outcome, refusal.code, refusal.what());
    } catch (const ClubError& e) {
        // Any failure of the club: the next query starts on a new connection.
        connection_.reset();
        // The queries do not know the server: a lost connection names it here.
        std::string why = e.what();
        const std::string anonymous = "the club's server does not answer";
        if (const auto at = why.find(anonymous); at != std::string::npos)
            why.replace(at, anonymous.size(),
                        "the club's server " + clubServerName(options_.conninfo) + " does not answer");
        lastFailure_ = engine::Message("league.unreachable", {{"why", engine::say::text(why)}});
        failedAt_ = std::chrono::steady_clock::now();
        return LeagueAnswer::failed(LeagueAnswer::Outcome::Unreachable, "club-unreachable", *lastFailure_);
    } catch (const std::exception& e) {
        connection_.reset();
        return LeagueAnswer::failed(
            LeagueAnswer::Outcome::Unreachable, "club-unreachable",
            engine::Message("league.unreachable", {{"why", engine::say::text(e.what())}}));
    }
}

namespace {

json gameSummaryJson(const GameSummary& g) {
    return {{"uid", g.uid},
            {"table", g.table},
            {"local_id", g.localId},
            {"started_at", g.startedAt},
            {"ended_at", g.endedAt.empty() ? json(nullptr) : json(g.endedAt)},
            {"edition", g.edition},
            {"status", g.abandoned  ? "abandoned"
                       : g.complete ? "complete"
                                    : "incomplete"},
            // Whether the league counts it: its record replayed to what its
            // table pushed ("verified"), or not ("mismatch": left out); null
            // until the league's judge has checked it.
            {"verdict", g.verdict.empty() ? json(nullptr) : json(g.verdict)}};
}

LeagueAnswer okText(const json& body) {
    return {LeagueAnswer::Outcome::Ok, json::object(),
            body.dump(-1, ' ', false, json::error_handler_t::replace)};
}

}  // namespace

LeagueAnswer leagueOverview(pqxx::connection& conn, const std::string& database) {
    json out = {
        {"database", database}, {"reachable", true}, {"tables", json::array()}, {"editions", json::array()}};
    try {
        pqxx::read_transaction tx(conn);
        for (const auto& row : tx.exec("SELECT name FROM club.club_tables ORDER BY name"))
            out["tables"].push_back(row[0].as<std::string>());
        for (const auto& row :
             tx.exec("SELECT edition, games, counted FROM club.edition_counts ORDER BY edition"))
            out["editions"].push_back({{"edition", row[0].as<std::string>()},
                                       {"games", row[1].as<std::int64_t>()},
                                       {"counted", row[2].as<std::int64_t>()}});
        out["members"] = tx.exec1("SELECT count(*) FROM club.members WHERE active")[0].as<std::int64_t>();
    } catch (...) {
        rethrowAsClubError("reading the league");
    }
    return okText(out);
}

LeagueAnswer standingsAnswer(pqxx::connection& conn, const StandingsFilter& filter) {
    if (filter.table) {
        bool known = false;
        try {
            pqxx::read_transaction tx(conn);
            known = !tx.exec_params("SELECT 1 FROM club.club_tables WHERE name = $1", *filter.table).empty();
        } catch (...) {
            rethrowAsClubError("reading the club's tables");
        }
        if (!known)
            throw LeagueRefusal(LeagueAnswer::Outcome::BadRequest, "bad-parameter",
                                "table: the club has no table named '" + *filter.table + "'");
    }
    const auto rows = leagueStandings(conn, filter);
    json out = {{"filter",
                 {{"edition", filter.edition ? json(*filter.edition) : json(nullptr)},
                  {"table", filter.table ? json(*filter.table) : json(nullptr)},
                  {"since", filter.since ? json(*filter.since) : json(nullptr)},
                  {"until", filter.until ? json(*filter.until) : json(nullptr)}}},
                {"standings", json::array()}};
    std::string edition;
    int rank = 0;
    for (const auto& r : rows) {
        if (r.edition != edition) {
            edition = r.edition;
            rank = 0;
        }
        out["standings"].push_back({{"edition", r.edition},
                                    {"rank", ++rank},
                                    {"member", r.member},
                                    {"name", r.name},
                                    {"games", r.counts.games},
                                    {"wins", r.counts.wins},
                                    {"points", r.counts.points},
                                    {"points_per_game", pointsPerGame(r.counts)},
                                    {"pairwise_wins", r.counts.pairwiseWins},
                                    {"pairwise_losses", r.counts.pairwiseLosses},
                                    {"pairwise_draws", r.counts.pairwiseDraws},
                                    {"rating", r.rating}});
    }
    return okText(out);
}

LeagueAnswer gamesAnswer(pqxx::connection& conn, int limit) {
    json out = {{"games", json::array()}};
    for (const auto& g : leagueGames(conn, limit)) out["games"].push_back(gameSummaryJson(g));
    return okText(out);
}

LeagueAnswer historyAnswer(pqxx::connection& conn, const std::string& member) {
    std::optional<std::string> name;
    try {
        pqxx::read_transaction tx(conn);
        const auto found =
            tx.exec_params("SELECT name FROM club.members WHERE lower(name) = lower($1)", member);
        if (!found.empty()) name = found[0][0].as<std::string>();
    } catch (...) {
        rethrowAsClubError("reading the club's members");
    }
    if (!name)
        throw LeagueRefusal(LeagueAnswer::Outcome::NotFound, "no-such-member",
                            "the club has no member named '" + member + "'");
    json out = {{"member", *name}, {"games", json::array()}};
    for (const auto& e : memberHistory(conn, *name)) {
        json g = gameSummaryJson(e.game);
        g["seat"] = e.seat;
        g["score"] = e.score ? json(*e.score) : json(nullptr);
        g["winner"] = e.winner;
        out["games"].push_back(std::move(g));
    }
    return okText(out);
}

std::optional<LeagueGame> leagueGame(pqxx::connection& conn, const std::string& uid) {
    try {
        pqxx::read_transaction tx(conn);
        const auto found = tx.exec_params(
            "SELECT g.uid, t.name, g.local_id, (extract(epoch FROM g.started_at) * 1000)::bigint, "
            "(extract(epoch FROM g.ended_at) * 1000)::bigint, g.edition, g.complete, g.abandoned, "
            "g.result::text, "
            "g.record, g.verdict FROM club.games g JOIN club.club_tables t ON t.id = g.table_id WHERE g.uid "
            "= $1",
            uid);
        if (found.empty()) return std::nullopt;
        const auto& row = found[0];
        LeagueGame g;
        g.uid = row[0].as<std::string>();
        g.table = row[1].as<std::string>();
        g.localId = row[2].as<std::int64_t>();
        g.startedMs = row[3].as<std::int64_t>();
        if (!row[4].is_null()) g.endedMs = row[4].as<std::int64_t>();
        g.edition = row[5].as<std::string>();
        g.complete = row[6].as<bool>();
        g.abandoned = row[7].as<bool>();
        if (!row[8].is_null()) g.result = row[8].as<std::string>();
        g.record = row[9].as<std::string>();
        if (!row[10].is_null()) g.verdict = row[10].as<std::string>();
        for (const auto& p : tx.exec_params("SELECT player, seat, name, member_id, bot FROM "
                                            "club.game_players WHERE game_uid = $1 ORDER BY "
                                            "player",
                                            uid)) {
            LeagueGame::Player player{p[0].as<int>(), p[1].as<int>(), p[2].as<std::string>(), std::nullopt,
                                      p[4].as<bool>()};
            if (!p[3].is_null()) player.member = p[3].as<std::int64_t>();
            g.players.push_back(std::move(player));
        }
        return g;
    } catch (...) {
        rethrowAsClubError("reading game " + uid);
    }
}

bool isLeagueDate(const std::string& text) {
    // YYYY-MM-DD, or YYYY-MM-DDTHH:MM[:SS]Z.
    auto digits = [&](std::size_t from, std::size_t n) {
        if (text.size() < from + n) return false;
        for (std::size_t i = from; i < from + n; ++i)
            if (text[i] < '0' || text[i] > '9') return false;
        return true;
    };
    if (!(digits(0, 4) && text.size() >= 10 && text[4] == '-' && digits(5, 2) && text[7] == '-' &&
          digits(8, 2)))
        return false;
    const int month = std::stoi(text.substr(5, 2));
    const int day = std::stoi(text.substr(8, 2));
    const int year = std::stoi(text.substr(0, 4));
    const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    if (year < 1 || month < 1 || month > 12 || day < 1 ||
        day > kDays[month - 1] + (month == 2 && leap ? 1 : 0))
        return false;
    if (text.size() == 10) return true;
    if (text[10] != 'T' || text.back() != 'Z' || !digits(11, 2) || text[13] != ':' || !digits(14, 2))
        return false;
    if (text.size() == 17) return std::stoi(text.substr(11, 2)) < 24 && std::stoi(text.substr(14, 2)) < 60;
    return text.size() == 20 && text[16] == ':' && digits(17, 2) && std::stoi(text.substr(11, 2)) < 24 &&
           std::stoi(text.substr(14, 2)) < 60 && std::stoi(text.substr(17, 2)) < 60;
}

bool isGameUid(const std::string& text) {
    if (text.size() != 32) return false;
    for (char c : text)
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
    return true;
}

}  // namespace vivaref::club
