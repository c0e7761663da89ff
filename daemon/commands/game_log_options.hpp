// What the game log commands (games, show, export, verify, stats, trace
// export) share: where the log is (--db FILE, or the game log of a castle
// configuration, --config FILE, as `serve` finds it), and a game id on the
// command line.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include <boost/program_options.hpp>

#include "daemon/store/game_store.hpp"

namespace vivaref::daemon {

// The words that name the log; empty when not given.
struct GameLogOptions {
    std::string db;
    std::string config;
};

// Adds --db FILE and --config FILE, whose help says how they combine.
void addGameLogOptions(boost::program_options::options_description& options, GameLogOptions& given);

// --db when given; else the configuration's game log ([daemon] state_dir and
// database, the keys `serve` reads), after checking the whole file as
// `vivaref check-config` does; else config::defaultDatabasePath(), `serve`'s
// own default. Nothing when the configuration cannot be read or has a
// problem: each problem is then on stderr as FILE:LINE: KEY: reason, and the
// command exits with kExitUsage.
std::optional<std::filesystem::path> gameLogPath(const GameLogOptions& given, std::string_view command);

// "12" -> game 12; nothing for anything else.
std::optional<store::GameId> parseGameId(const std::string& text);

}  // namespace vivaref::daemon
