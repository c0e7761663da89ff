// `vivaref show GAME`: a logged game as a story, for after the game.
#include <iostream>

#include "daemon/commands/command.hpp"
#include "daemon/commands/command_language.hpp"
#include "daemon/commands/command_line.hpp"
#include "daemon/commands/game_log_options.hpp"
#include "daemon/store/game_story.hpp"

namespace vivaref::daemon {

namespace po = boost::program_options;

int runShow(const std::vector<std::string>& args) {
    GameLogOptions where;
    bool reveal = false;
    std::string language;
    CommandLine line(
        "show", "vivaref show [options] GAME",
        "Tells game GAME of the game log as a story: setup and seats, each round's favourites,\n"
        "placements and moves, every election with its revealed votes and outcome, the scores\n"
        "of each round and the winners. A game still being played is told as the table may see\n"
        "it: the favourites and Ambition cards of the round in play and the referee's seed are\n"
        "left out, unless --reveal is given (a warning on stderr then). It is told in --lang's\n"
        "language, else the locale's (LC_ALL, LC_MESSAGES, LANG: fr_FR.UTF-8 tells it in French),\n"
        "else in English.");
    addGameLogOptions(line.visible, where);
    addRevealOption(line.visible, reveal);
    addLanguageOption(line.visible, language);
    line.hidden.add_options()("game", po::value<std::string>(), "the game's id");
    line.positional.add("game", 1);
    po::variables_map vm;
    if (auto stop = parseCommandLine(line, args, vm)) return *stop;
    if (!vm.count("game")) return usageError("show", "name the GAME to show ('vivaref games' lists them)");
    auto id = parseGameId(vm["game"].as<std::string>());
    if (!id) return usageError("show", "GAME is a game's id, a number 'vivaref games' lists");
    std::string why;
    const auto told = commandLanguage(language, why);
    if (!told) return usageError("show", why);

    const auto db = gameLogPath(where, "show");
    if (!db) return kExitUsage;
    store::GameStore log(*db, store::GameStore::Access::MustExist);
    if (reveal && store::inProgress(log, *id)) warnSecretsShown("show", *id);
    // Names plain: the terminal reorders nothing, and a pager would show isolates (words.hpp).
    store::writeStory(log, *id, std::cout, words::Words(*told, words::NameMarks::Plain), reveal);
    return kExitOk;
}

}  // namespace vivaref::daemon
