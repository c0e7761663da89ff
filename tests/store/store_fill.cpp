// Test tool: fills a game log with random games for the command-line
// tests: GAMES complete ones, then one cut short and one abandoned.
// Usage: store_fill DB GAMES [club]  (club: the table has a club, so the
// ended games are queued for it)
#include <cstdlib>
#include <iostream>
#include <string>

#include "tests/store/random_game_writer.hpp"

using namespace vivaref::store;
using namespace vivaref::store::testing;

int main(int argc, char** argv) {
    if (argc != 3 && !(argc == 4 && std::string(argv[3]) == "club")) {
        std::cerr << "usage: store_fill DB GAMES [club]\n";
        return 2;
    }
    GameStore log(argv[1], GameStore::Access::CreateIfMissing, Durability::Normal);
    log.setClubConfigured(argc == 4);
    const auto games = static_cast<std::uint64_t>(std::atol(argv[2]));
    for (std::uint64_t seed = 1; seed <= games; ++seed) writeRandomGame(log, randomSpec(seed), seed);
    auto cut = [](const WriteStatus&, GameId, std::int64_t lines) { return lines < 20; };
    writeRandomGame(log, randomSpec(games + 1), games + 1, cut);
    auto abandoned = writeRandomGame(log, randomSpec(games + 2), games + 2, cut);
    log.abandonGame(abandoned.id, WallTime{});
    return 0;
}
