// What the game log commands (games, show, export, verify, stats) share:
// the --db option and its default, and a game id on the command line.
#pragma once

#include <optional>
#include <string>

#include <boost/program_options.hpp>

#include "daemon/store/game_store.hpp"

namespace vivaref::daemon {

// $VIVAREF_DB; else the daemon's state directory ($STATE_DIRECTORY, set by
// systemd); else $XDG_STATE_HOME/vivaref or ~/.local/state/vivaref; the file
// is games.sqlite there.
std::string defaultDatabasePath();

// Adds --db FILE.
void addDatabaseOption(boost::program_options::options_description& options, std::string& path);

// "12" -> game 12; nothing for anything else.
std::optional<store::GameId> parseGameId(const std::string& text);

}  // namespace vivaref::daemon
