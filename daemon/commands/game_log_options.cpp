#include "daemon/commands/game_log_options.hpp"

#include <charconv>
#include <cstdlib>
#include <ctime>

namespace vivaref::daemon {

namespace po = boost::program_options;

std::string defaultDatabasePath() {
    if (const char* db = std::getenv("VIVAREF_DB"); db && *db) return db;
    if (const char* dir = std::getenv("STATE_DIRECTORY"); dir && *dir)
        return std::string(dir) + "/games.sqlite";
    if (const char* dir = std::getenv("XDG_STATE_HOME"); dir && *dir)
        return std::string(dir) + "/vivaref/games.sqlite";
    if (const char* home = std::getenv("HOME"); home && *home)
        return std::string(home) + "/.local/state/vivaref/games.sqlite";
    return "games.sqlite";
}

void addDatabaseOption(po::options_description& options, std::string& path) {
    path = defaultDatabasePath();
    options.add_options()("db", po::value(&path)->default_value(path),
                          "the game log (default: $VIVAREF_DB, else the daemon's state directory)");
}

std::optional<store::GameId> parseGameId(const std::string& text) {
    std::int64_t id = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), id);
    if (ec != std::errc() || end != text.data() + text.size() || id <= 0) return std::nullopt;
    return store::GameId{id};
}


}  // namespace vivaref::daemon
