#include "daemon/commands/game_log_options.hpp"

#include <charconv>
#include <iostream>

#include "daemon/config/config_check.hpp"

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
    const auto check = config::checkCastleConfigFile(given.config);
    if (check.status == config::ConfigCheck::Status::Valid) return check.config.databasePath();
    for (const auto& p : check.problems) std::cerr << p.text() << "\n";
    std::cerr << "vivaref " << command << ": the configuration " << given.config
              << " cannot be used ('vivaref check-config " << given.config
              << "' checks it; --db FILE names the game log instead)\n";
    return std::nullopt;
}

std::optional<store::GameId> parseGameId(const std::string& text) {
    std::int64_t id = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), id);
    if (ec != std::errc() || end != text.data() + text.size() || id <= 0) return std::nullopt;
    return store::GameId{id};
}

}  // namespace vivaref::daemon
