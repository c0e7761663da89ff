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

// --reveal, for the commands that print a game's secrets (show, export,
// trace export): a game still being played keeps them unless it is given.
void addRevealOption(boost::program_options::options_description& options, bool& reveal);

// The warning --reveal prints on stderr when `game` is still being played.
void warnSecretsShown(std::string_view command, store::GameId game);

// Before writing a whole record or trace (export, trace export): for a game
// still being played, without --reveal, says on stderr why not and gives the
// exit status; with it, prints the warning and gives nothing.
std::optional<int> refuseSecretRecord(std::string_view command, store::GameStore& log, store::GameId game,
                                      bool reveal);

// "12" -> game 12; nothing for anything else.
std::optional<store::GameId> parseGameId(const std::string& text);

}  // namespace vivaref::daemon
