// What the simulation tests and benchmarks share: random complete games as
// records, a temporary folder, a database dumped as text, and a trace run
// through the rig into a database.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "daemon/simulation/simulate.hpp"
#include "daemon/store/game_store.hpp"
#include "engine/rules.hpp"

namespace vivaref::simtest {

// A family of games the end-to-end tests cover, and its rules.
struct GameFamily {
    std::string name;
    engine::RulesSpec spec;
};
// classic (3 to 6 seats), online, 2024 plain and with Ambition and the
// Banished, 2024 with 7 and 8 seats, emissary, royal couple, teams, team pawn.
std::vector<GameFamily> gameFamilies();

// A random complete game (random deals, uniformly random legal actions) as
// GAME-RECORD text; the same spec and seed give the same text.
std::string randomRecord(const engine::RulesSpec& spec, std::uint64_t seed);

// Lines as one text, each ended by '\n' (a record's or a trace's).
inline std::string joined(const std::vector<std::string>& lines) {
    std::string text;
    for (const auto& l : lines) text += l + "\n";
    return text;
}

// A fresh folder, removed with everything in it at the end of the scope.
class TempDir {
public:
    // Under `parent`, or the system's temporary folder when empty.
    explicit TempDir(const std::filesystem::path& parent = {});
    ~TempDir();
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    const std::filesystem::path& path() const { return path_; }
    std::filesystem::path operator/(const std::string& name) const { return path_ / name; }

private:
    std::filesystem::path path_;
};

// Every row of every table, one line each, tables by name. With
// `blankWallTimes` the wall-clock columns (started_ms, ended_ms, at_ms,
// last_fault_ms) are left out; a trace's t_ms stays.
std::string dumpDatabase(const std::filesystem::path& file, bool blankWallTimes);

// A game's decisions in two logs (a live game and its replay): empty when
// they are the same, with the same times; else the first difference.
std::string eventDifference(store::GameStore& a, store::GameStore& b, store::GameId game);
// Every trace line a log holds for a game, one a line.
std::string storedTrace(store::GameStore& log, store::GameId game);

// `simulate --db file --epoch epochMs --seed seed` of a trace's text; the
// summary, or a failing check with the trace's error.
nlohmann::ordered_json simulateInto(const std::string& traceText, const std::filesystem::path& db,
                                    std::int64_t epochMs = 0, std::uint64_t seed = 1);

}  // namespace vivaref::simtest
