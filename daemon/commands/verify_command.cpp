// `vivaref verify GAME | --all`: each logged game replayed through the
// engine: each decision's logged round and seat, and its result, compared
// with what the engine says.
#include <iostream>

#include <nlohmann/json.hpp>

#include "daemon/commands/command.hpp"
#include "daemon/commands/command_line.hpp"
#include "daemon/commands/game_log_options.hpp"
#include "daemon/store/game_verifier.hpp"

namespace vivaref::daemon {

namespace po = boost::program_options;

int runVerify(const std::vector<std::string>& args) {
    GameLogOptions where;
    bool all = false;
    bool asJson = false;
    CommandLine line(
        "verify", "vivaref verify [options] GAME | --all",
        "Replays game GAME (or every game) of the game log through the rules engine and reports\n"
        "any difference from what was logged: a decision the engine refuses, a decision logged\n"
        "with a round or seat other than the engine's, or a result other than the logged one.\n"
        "The file's integrity is checked first (SQLite's integrity_check): a damaged file is\n"
        "reported with what to do, and no game is replayed.\n"
        "Exit status 0 when every game agrees, 1 when one differs or the file is damaged.");
    addGameLogOptions(line.visible, where);
    line.visible.add_options()("all", po::bool_switch(&all), "verify every game")(
        "json", po::bool_switch(&asJson), "print one JSON object per game");
    line.hidden.add_options()("game", po::value<std::string>(), "the game's id");
    line.positional.add("game", 1);
    po::variables_map vm;
    if (auto stop = parseCommandLine(line, args, vm)) return *stop;
    if (all == static_cast<bool>(vm.count("game"))) return usageError("verify", "name one GAME, or --all");
    std::optional<store::GameId> id;
    if (!all && !(id = parseGameId(vm["game"].as<std::string>())))
        return usageError("verify", "GAME is a game's id, a number 'vivaref games' lists");

    const auto db = gameLogPath(where, "verify");
    if (!db) return kExitUsage;
    store::GameStore log(*db, store::GameStore::Access::MustExist);
    // A damaged file first: its games' replays would say little (or throw).
    if (const auto damage = log.damage(store::GameStore::Check::Full); !damage.empty()) {
        if (asJson)
            std::cout
                << nlohmann::ordered_json{{"file", db->string()}, {"ok", false}, {"damage", damage}}.dump()
                << "\n";
        std::cerr << "vivaref verify: " << store::damagedLogAdvice(*db, damage) << "\n";
        return kExitRefused;
    }
    std::vector<store::GameId> ids;
    if (all)
        for (const auto& g : log.games()) ids.push_back(g.id);
    else
        ids.push_back(*id);

    int differ = 0;
    for (auto gameId : ids) {
        const auto check = store::verifyGame(log, gameId);
        if (!check.agrees) ++differ;
        if (asJson)
            std::cout << nlohmann::ordered_json{{"game", gameId.value},
                                                {"ok", check.agrees},
                                                {"what", check.what}}
                             .dump()
                      << "\n";
        else
            std::cout << "game " << gameId.value << ": " << (check.agrees ? "ok" : "DIFFERS") << ", "
                      << check.what << "\n";
    }
    if (!asJson)
        std::cout << ids.size() << (ids.size() == 1 ? " game" : " games") << " verified, " << differ
                  << " with differences\n";
    return differ == 0 ? kExitOk : kExitRefused;
}

}  // namespace vivaref::daemon
