// What the club-league cases share: the binary's one scratch PostgreSQL
// (main.cpp starts it), a fresh club database per case, and random games
// played by the engine's random player as uploads.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <pqxx/pqxx>

#include "daemon/club/club_link.hpp"
#include "daemon/club/rating.hpp"
#include "tests/support/scratch_postgres.hpp"

namespace vivaref::clubtest {

testsupport::ScratchPostgres& server();
void setServer(testsupport::ScratchPostgres* pg);

// A new, empty database named `name` (dropped first if a run left it).
// Returns the superuser's conninfo on it.
std::string freshDatabase(const std::string& name);

// A random complete game of `seats` seats played from `seed`; seat i is
// member members[i] when given (else a guest, or a bot every third seat).
club::GameUpload randomGame(std::uint64_t seed, int seats, const std::string& table,
                            const std::vector<std::optional<std::int64_t>>& members);

// The standings computed in C++ from the uploads' records (each replayed
// through the engine for its totals and winners).
club::Standings recompute(const std::vector<club::GameUpload>& games);

std::int64_t countOf(pqxx::connection_base& conn, const std::string& sql);

}  // namespace vivaref::clubtest
