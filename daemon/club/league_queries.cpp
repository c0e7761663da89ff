#include "daemon/club/league_queries.hpp"

#include <algorithm>

#include <pqxx/pqxx>

#include "daemon/club/club_connection.hpp"

namespace vivaref::club {

namespace {

constexpr const char* kGameColumns =
    "g.uid, t.name, g.local_id, to_char(g.started_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"'), "
    "COALESCE(to_char(g.ended_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"'), ''), g.edition, "
    "g.complete, "
    "g.abandoned, COALESCE(g.verdict, '')";

GameSummary gameFrom(const pqxx::row& row) {
    return GameSummary{row[0].as<std::string>(), row[1].as<std::string>(), row[2].as<std::int64_t>(),
                       row[3].as<std::string>(), row[4].as<std::string>(), row[5].as<std::string>(),
                       row[6].as<bool>(),        row[7].as<bool>(),        row[8].as<std::string>()};
}

void sortStandings(std::vector<StandingRow>& rows) {
    std::sort(rows.begin(), rows.end(), [](const StandingRow& a, const StandingRow& b) {
        if (a.edition != b.edition) return a.edition < b.edition;
        if (a.rating != b.rating) return a.rating > b.rating;
        return a.name < b.name;
    });
}

std::vector<StandingRow> countedFromGames(pqxx::transaction_base& tx, const StandingsFilter& f,
                                          std::int64_t tableId) {
    // Sums of the counters count_game kept for each member of each counted
    // game (club.member_results, migration 3): the same rules as rating.cpp,
    // summed in the server (a year of a big club is 60,000 rows).
    std::vector<StandingRow> out;
    for (const auto& row : tx.exec_params(
             "SELECT r.edition, r.member_id, m.name, count(*), sum(r.won), sum(r.points), "
             "sum(r.pairwise_wins), "
             "sum(r.pairwise_losses), sum(r.pairwise_draws) "
             "FROM club.member_results r JOIN club.members m ON m.id = r.member_id "
             "WHERE ($1 = '' OR r.edition = $1) AND ($2 = 0 OR r.table_id = $2) "
             "AND ($3 = '' OR r.ended_at >= $3::timestamptz) AND ($4 = '' OR r.ended_at < $4::timestamptz) "
             "GROUP BY r.edition, r.member_id, m.name",
             f.edition.value_or(""), tableId, f.since.value_or(""), f.until.value_or(""))) {
        StandingRow r;
        r.edition = row[0].as<std::string>();
        r.member = row[1].as<std::int64_t>();
        r.name = row[2].as<std::string>();
        r.counts =
            MemberCounts{row[3].as<std::int64_t>(), row[4].as<std::int64_t>(), row[5].as<std::int64_t>(),
                         row[6].as<std::int64_t>(), row[7].as<std::int64_t>(), row[8].as<std::int64_t>()};
        r.rating = rating(r.counts);
        out.push_back(std::move(r));
    }
    return out;
}

}  // namespace

std::vector<StandingRow> leagueStandings(pqxx::connection_base& conn, const StandingsFilter& filter) {
    try {
        pqxx::read_transaction tx(conn);
        std::vector<StandingRow> out;
        if (filter.needsGames()) {
            std::int64_t tableId = 0;
            if (filter.table) {
                const auto found =
                    tx.exec_params("SELECT id FROM club.club_tables WHERE name = $1", *filter.table);
                if (found.empty())
                    throw ClubError("the club has no table named '" + *filter.table + "'", false);
                tableId = found[0][0].as<std::int64_t>();
            }
            out = countedFromGames(tx, filter, tableId);
        } else {
            for (const auto& row : tx.exec_params(
                     "SELECT edition, member_id, name, games, wins, points, pairwise_wins, pairwise_losses, "
                     "pairwise_draws, rating FROM club.standings_rated WHERE $1 = '' OR edition = $1",
                     filter.edition.value_or(""))) {
                StandingRow r;
                r.edition = row[0].as<std::string>();
                r.member = row[1].as<std::int64_t>();
                r.name = row[2].as<std::string>();
                r.counts = MemberCounts{row[3].as<std::int64_t>(), row[4].as<std::int64_t>(),
                                        row[5].as<std::int64_t>(), row[6].as<std::int64_t>(),
                                        row[7].as<std::int64_t>(), row[8].as<std::int64_t>()};
                r.rating = row[9].as<double>();
                out.push_back(std::move(r));
            }
        }
        sortStandings(out);
        return out;
    } catch (...) {
        rethrowAsClubError("reading the standings");
    }
}

std::vector<GameSummary> leagueGames(pqxx::connection_base& conn, int limit) {
    try {
        pqxx::read_transaction tx(conn);
        std::vector<GameSummary> out;
        for (const auto& row :
             tx.exec_params(std::string("SELECT ") + kGameColumns +
                                " FROM club.games g JOIN club.club_tables t ON t.id = g.table_id "
                                "ORDER BY g.pushed_seq DESC LIMIT $1",
                            limit))
            out.push_back(gameFrom(row));
        return out;
    } catch (...) {
        rethrowAsClubError("reading the games");
    }
}

std::vector<HistoryEntry> memberHistory(pqxx::connection_base& conn, const std::string& member) {
    try {
        pqxx::read_transaction tx(conn);
        const auto found =
            tx.exec_params("SELECT id FROM club.members WHERE lower(name) = lower($1)", member);
        if (found.empty()) throw ClubError("the club has no member named '" + member + "'", false);
        std::vector<HistoryEntry> out;
        for (const auto& row :
             tx.exec_params(std::string("SELECT ") + kGameColumns +
                                ", p.seat, p.score, p.winner FROM club.game_players p JOIN club.games g ON "
                                "g.uid = p.game_uid "
                                "JOIN club.club_tables t ON t.id = g.table_id WHERE p.member_id = $1 "
                                "ORDER BY g.ended_at DESC NULLS LAST, g.pushed_seq DESC",
                            found[0][0].as<std::int64_t>())) {
            HistoryEntry e{gameFrom(row), row[9].as<int>(), std::nullopt, row[11].as<bool>()};
            if (!row[10].is_null()) e.score = row[10].as<int>();
            out.push_back(std::move(e));
        }
        return out;
    } catch (...) {
        rethrowAsClubError("reading " + member + "'s games");
    }
}

std::optional<std::string> gameRecord(pqxx::connection_base& conn, const std::string& uid) {
    try {
        pqxx::read_transaction tx(conn);
        const auto r = tx.exec_params("SELECT record FROM club.games WHERE uid = $1", uid);
        if (r.empty()) return std::nullopt;
        return r[0][0].as<std::string>();
    } catch (...) {
        rethrowAsClubError("reading game " + uid);
    }
}

}  // namespace vivaref::club
