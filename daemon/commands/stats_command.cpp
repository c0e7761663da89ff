// `vivaref stats`: figures over every logged game, by edition.
#include <algorithm>
#include <iomanip>
#include <iostream>
#include <vector>

#include "daemon/commands/command.hpp"
#include "daemon/commands/command_line.hpp"
#include "daemon/commands/game_log_options.hpp"
#include "daemon/commands/terminal_text.hpp"
#include "daemon/store/game_stats.hpp"

namespace vivaref::daemon {

namespace po = boost::program_options;

namespace {

void printEdition(const std::string& name, const store::EditionStats& e) {
    std::cout << "Edition " << name << ": " << e.games << " games, " << e.complete << " complete";
    if (e.emissaryWins) std::cout << ", " << e.emissaryWins << " won by the Emissary";
    std::cout << "\n  Players (games, wins, average round score):\n";
    std::vector<std::pair<std::string, store::PlayerStats>> players(e.players.begin(), e.players.end());
    std::stable_sort(players.begin(), players.end(),
                     [](const auto& a, const auto& b) { return a.second.wins > b.second.wins; });
    for (const auto& [player, p] : players)
        std::cout << "    " << paddedName(player, 16) << std::right << std::setw(5) << p.games << std::setw(5)
                  << p.wins << std::setw(8) << std::fixed << std::setprecision(1) << p.averageRoundScore()
                  << "\n";
    std::cout << "  Characters (elections, crowned, rejected), most crowned first:\n";
    std::vector<std::pair<std::string, store::CharacterStats>> characters(e.characters.begin(),
                                                                          e.characters.end());
    std::stable_sort(characters.begin(), characters.end(),
                     [](const auto& a, const auto& b) { return a.second.crowned > b.second.crowned; });
    for (const auto& [character, c] : characters)
        std::cout << "    " << std::left << std::setw(16) << character << std::right << std::setw(5)
                  << c.elections << std::setw(5) << c.crowned << std::setw(5) << c.rejected << "\n";
}

}  // namespace

int runStats(const std::vector<std::string>& args) {
    GameLogOptions where;
    bool asJson = false;
    CommandLine line(
        "stats", "vivaref stats [options]",
        "Prints figures over every game in the game log, by edition: wins and the average round\n"
        "score per player name, and how often each character was elected, crowned and rejected.\n"
        "Abandoned games are left out; incomplete ones count for their rounds, not for wins.");
    addGameLogOptions(line.visible, where);
    line.visible.add_options()("json", po::bool_switch(&asJson), "print one JSON object");
    po::variables_map vm;
    if (auto stop = parseCommandLine(line, args, vm)) return *stop;

    const auto db = gameLogPath(where, "stats");
    if (!db) return kExitUsage;
    store::GameStore log(*db, store::GameStore::Access::MustExist);
    const auto stats = store::gatherStats(log);
    if (asJson) {
        std::cout << store::statsJson(stats).dump() << "\n";
        return kExitOk;
    }
    if (stats.editions.empty()) std::cout << "No games in the log yet.\n";
    for (const auto& [name, e] : stats.editions) printEdition(name, e);
    if (stats.unreadable)
        std::cout << stats.unreadable << " games could not be replayed; 'vivaref verify --all' says why.\n";
    return kExitOk;
}

}  // namespace vivaref::daemon
