#include "daemon/commands/game_log_options.hpp"

#include <charconv>
#include <iostream>

#include "daemon/commands/command.hpp"
#include "daemon/config/config_check.hpp"
#include "daemon/config/config_in_force.hpp"
#include "daemon/store/game_story.hpp"

namespace vivaref::daemon {

namespace po = boost::program_options;

void addGameLogOptions(po::options_description& options, GameLogOptions& given) {
    // The default as it resolves here and now, so that --help answers "which file?".
    const std::string defaultHelp =
        "the game log (wins over --config); default: $VIVAREF_DB, else games.sqlite in the state "
        "directory, as 'vivaref serve' without --config (here: " +
        config::defaultDatabasePath().string() + ")";
    options.add_options()("db", po::value(&given.db)->value_name("FILE"), defaultHelp.c_str())(
        "config", po::value(&given.config)->value_name("FILE"),
        "use the game log of this castle configuration ([daemon] state_dir and database), as "
        "'vivaref serve --config FILE' does; the file is checked as 'vivaref check-config' checks "
        "it, and any problem is printed as FILE:LINE: KEY: reason (exit status 2)");
}

std::optional<std::filesystem::path> gameLogPath(const GameLogOptions& given, std::string_view command) {
    if (!given.db.empty()) return std::filesystem::path(given.db);
    if (given.config.empty()) return config::defaultDatabasePath();
    const auto check = config::configInForce(given.config).check;  // castle.ini when the set-up saved one
    if (check.status == config::ConfigCheck::Status::Valid) return check.config.databasePath();
    for (const auto& p : check.problems) std::cerr << p.text() << "\n";
    std::cerr << "vivaref " << command << ": the configuration " << given.config
              << " cannot be used ('vivaref check-config " << given.config
              << "' checks it; --db FILE names the game log instead)\n";
    return std::nullopt;
}

void addRevealOption(po::options_description& options, bool& reveal) {
    options.add_options()("reveal", po::bool_switch(&reveal),
                          "for a game still being played: print its secrets too (the favourites and Ambition "
                          "cards of the round in play, votes not yet revealed), with a warning");
}

void warnSecretsShown(std::string_view command, store::GameId game) {
    std::cerr << "vivaref " << command << ": warning: game " << game.value
              << " is still being played and --reveal prints its players' secrets (favourites, Ambition "
                 "cards, votes not yet revealed, the referee's seed): keep them from the table\n";
}

std::optional<int> refuseSecretRecord(std::string_view command, store::GameStore& log, store::GameId game,
                                      bool reveal) {
    if (!store::inProgress(log, game)) return std::nullopt;
    if (reveal) {
        warnSecretsShown(command, game);
        return std::nullopt;
    }
    std::cerr << "vivaref " << command << ": game " << game.value
              << " is still being played, and what it would write holds the players' secrets (favourites, "
                 "Ambition cards, votes not yet revealed): write it once the game is over, or now with "
                 "--reveal\n";
    return kExitRefused;
}

std::optional<store::GameId> parseGameId(const std::string& text) {
    std::int64_t id = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), id);
    if (ec != std::errc() || end != text.data() + text.size() || id <= 0) return std::nullopt;
    return store::GameId{id};
}

}  // namespace vivaref::daemon
