// Test support: random complete games from the engine written into a game
// log the way the referee will (create, each deal and action, finish), and
// a scratch directory removed when done.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "daemon/store/game_store.hpp"

namespace vivaref::store::testing {

// A fresh directory under the system's temporary one, removed with its
// contents on destruction.
class ScratchDir {
public:
    ScratchDir();
    ~ScratchDir();
    ScratchDir(const ScratchDir&) = delete;
    ScratchDir& operator=(const ScratchDir&) = delete;
    const std::filesystem::path& path() const { return path_; }
    std::filesystem::path file(const std::string& name) const { return path_ / name; }

private:
    std::filesystem::path path_;
};

// A valid random setup for `seed`: every edition, seat count, option and
// variant comes up.
engine::RulesSpec randomSpec(std::uint64_t seed);

struct WrittenGame {
    GameId id;
    std::vector<std::string> record;  // the lines written, setup first
    nlohmann::json result;            // record::resultJson at the end
};

// Plays one random game into `log`. `afterWrite` sees each append's status
// and the number of lines written so far (the setup line counts), and may
// stop the game early by returning false; the result is then not written.
WrittenGame writeRandomGame(
    GameStore& log, const engine::RulesSpec& spec, std::uint64_t seed,
    const std::function<bool(const WriteStatus&, GameId, std::int64_t lines)>& afterWrite = {});

// A GAME-RECORD's lines (setup first, e.g. tests/records/*.jsonl) written
// into `log` as the referee would have logged that game, with `names` (one
// per player; fewer: the rest unnamed), and finished. Throws if the record
// does not replay.
GameId writeRecordedGame(GameStore& log, const std::vector<std::string>& lines,
                         const std::vector<std::string>& names);

// A full disk behind the writer's back: caps the file (max_page_count) and
// appends referee events to `game`, smaller and smaller, until the disk
// refuses even one of a few bytes. Whatever is written next meets it.
void fillTheLog(GameStore& log, GameId game);

// Plays a logged game that was cut short on to its end at random, writing
// into the log as it goes, and finishes it.
WrittenGame resumeRandomGame(GameStore& log, GameId id, std::uint64_t seed);

}  // namespace vivaref::store::testing
