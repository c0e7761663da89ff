// What the league shows, read through any connection that may SELECT the
// club's schema (the admin's, or the read-only `<db>_league` role the
// league pages will use). Every function throws ClubError.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <pqxx/connection>

#include "daemon/club/rating.hpp"

namespace vivaref::club {

struct StandingsFilter {
    std::optional<std::string> edition;
    std::optional<std::string> table;  // a table's name
    std::optional<std::string>
        since;  // games ended at or after (a timestamp PostgreSQL reads, e.g. 2026-11-01)
    std::optional<std::string> until;  // games ended before
    bool needsGames() const { return table || since || until; }
};

struct StandingRow {
    std::string edition;
    std::int64_t member = 0;
    std::string name;
    MemberCounts counts;
    double rating = 0;
};

// Best rating first, then name. Without a table or period the maintained
// club.standings; with one, counted again from the games (rating.cpp).
std::vector<StandingRow> leagueStandings(pqxx::connection_base& conn, const StandingsFilter& filter);

struct GameSummary {
    std::string uid;
    std::string table;
    std::int64_t localId = 0;
    std::string startedAt;  // ISO 8601, UTC
    std::string endedAt;    // empty when not ended
    std::string edition;
    bool complete = false;
    bool abandoned = false;
    std::string verdict;  // "verified", "mismatch" (left out of the standings), "" not checked yet
};

// The games, last pushed first.
std::vector<GameSummary> leagueGames(pqxx::connection_base& conn, int limit = 100);

struct HistoryEntry {
    GameSummary game;
    int seat = 0;
    std::optional<int> score;
    bool winner = false;
};

// Every game a member played (abandoned ones too), last ended first. The
// member by name, case-insensitive; throws ClubError for an unknown one.
std::vector<HistoryEntry> memberHistory(pqxx::connection_base& conn, const std::string& member);

// One game's GAME-RECORD text, or nothing.
std::optional<std::string> gameRecord(pqxx::connection_base& conn, const std::string& uid);

}  // namespace vivaref::club
