// What the club-league cases share: the binary's one scratch PostgreSQL
// (main.cpp starts it), a fresh club database per case, and random games
// played by the engine's random player as uploads (the scale bench and
// league_fill play theirs here too).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <pqxx/pqxx>

#include "daemon/club/club_link.hpp"
#include "daemon/club/rating.hpp"
#include "engine/rules.hpp"
#include "tests/support/scratch_postgres.hpp"

namespace vivaref::clubtest {

testsupport::ScratchPostgres& server();
void setServer(testsupport::ScratchPostgres* pg);

// A new, empty database named `name` (dropped first if a run left it).
// Returns the superuser's conninfo on it.
std::string freshDatabase(const std::string& name);

// A game played by the engine's random player from `seed` under `spec`:
// its record's text and what replaying it gives (totals, winners).
struct RandomRecord {
    std::string text;
    nlohmann::json result;
};
RandomRecord randomRecord(std::uint64_t seed, const engine::RulesSpec& spec);

// A random complete game of `seats` seats played from `seed`; seat i is
// member members[i] when given (else a guest, or a bot every third seat).
club::GameUpload randomGame(std::uint64_t seed, int seats, const std::string& table,
                            const std::vector<std::optional<std::int64_t>>& members);

// The standings computed in C++ from the uploads' records (each replayed
// through the engine for its totals and winners).
club::Standings recompute(const std::vector<club::GameUpload>& games);

std::int64_t countOf(pqxx::connection_base& conn, const std::string& sql);

}  // namespace vivaref::clubtest
