// `vivaref export GAME`: a logged game as the GAME-RECORD that
// `vivaref replay` reads (undone decisions left out).
#include <iostream>

#include "daemon/commands/command.hpp"
#include "daemon/commands/command_line.hpp"
#include "daemon/commands/game_log_options.hpp"

namespace vivaref::daemon {

namespace po = boost::program_options;

int runExport(const std::vector<std::string>& args) {
    GameLogOptions where;
    bool reveal = false;
    CommandLine line("export", "vivaref export [options] GAME",
                     "Writes game GAME of the game log to standard output as a game record (JSON Lines):\n"
                     "its setup line and every decision still in effect, undone ones left out.\n"
                     "'vivaref replay' reads it and gives the game's result. A game still being played\n"
                     "is not exported (its record holds the players' secrets) unless --reveal is given\n"
                     "(a warning on stderr then).");
    addGameLogOptions(line.visible, where);
    addRevealOption(line.visible, reveal);
    line.hidden.add_options()("game", po::value<std::string>(), "the game's id");
    line.positional.add("game", 1);
    po::variables_map vm;
    if (auto stop = parseCommandLine(line, args, vm)) return *stop;
    if (!vm.count("game"))
        return usageError("export", "name the GAME to export ('vivaref games' lists them)");
    auto id = parseGameId(vm["game"].as<std::string>());
    if (!id) return usageError("export", "GAME is a game's id, a number 'vivaref games' lists");

    const auto db = gameLogPath(where, "export");
    if (!db) return kExitUsage;
    store::GameStore log(*db, store::GameStore::Access::MustExist);
    if (auto refused = refuseSecretRecord("export", log, *id, reveal)) return *refused;
    std::cout << log.exportRecord(*id);
    return kExitOk;
}

}  // namespace vivaref::daemon
