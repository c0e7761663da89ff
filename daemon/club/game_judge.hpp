// The league's side of checking a pushed game (game_check.hpp): every
// game the tables pushed and nobody judged yet is read back, replayed with
// the engine, and judged in the club (club.judge_game): verified, it counts
// in the standings; a mismatch is kept, named, and never counted. Runs as
// the club's admin (the schema's owner), by `vivaref club`.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <pqxx/connection>

namespace vivaref::club {

struct Judgement {
    std::string uid;
    std::string table;
    std::int64_t localId = 0;
    std::optional<std::string> mismatch;  // what differs; none: verified
};

// Judges the unjudged games, oldest push first, each in a transaction of
// its own (a game judged stays judged if a later one fails); returns the
// judgements made now. Throws ClubError.
std::vector<Judgement> judgeWaitingGames(pqxx::connection& conn);

// Every game judged a mismatch, oldest push first. Throws ClubError.
std::vector<Judgement> mismatchedGames(pqxx::connection& conn);

// Whether this connection's role may judge (the schema's owner may; the
// league's read-only role may not). Throws ClubError.
bool mayJudge(pqxx::connection& conn);

// "game UID (table T, its game N) is left out of the standings: WHAT".
std::string mismatchSentence(const Judgement& j);

}  // namespace vivaref::club
