// Not a test: prints how fast the game log takes durable appends (WAL with
// synchronous FULL and NORMAL), and how long verifying every game takes.
// Usage: store_bench [GAMES (10000)] [APPENDS (3000)] [DIR (the temp dir)]
#include <chrono>
#include <cstdlib>
#include <iostream>

#include "daemon/store/game_verifier.hpp"
#include "tests/store/random_game_writer.hpp"

using namespace vivaref::store;
using namespace vivaref::store::testing;

namespace {

using Clock = std::chrono::steady_clock;

double seconds(Clock::time_point since) {
    return std::chrono::duration<double>(Clock::now() - since).count();
}

// Appends random games' lines, each its own commit, until `appends` are in.
double appendsPerSecond(const std::filesystem::path& file, Durability durability, std::int64_t appends) {
    GameStore log(file, GameStore::Access::CreateIfMissing, durability);
    std::int64_t done = 0;
    const auto start = Clock::now();
    for (std::uint64_t seed = 1; done < appends; ++seed)
        writeRandomGame(log, randomSpec(seed), seed,
                        [&](const WriteStatus&, GameId, std::int64_t) { return ++done < appends; });
    return static_cast<double>(done) / seconds(start);
}

}  // namespace

int main(int argc, char** argv) {
    const long games = argc > 1 ? std::atol(argv[1]) : 10'000;
    const long appends = argc > 2 ? std::atol(argv[2]) : 3'000;
    ScratchDir scratch;
    const std::filesystem::path dir = argc > 3 ? std::filesystem::path(argv[3]) : scratch.path();

    std::cout << "{\"durable_appends_per_s\": {\"full\": "
              << appendsPerSecond(dir / "full.sqlite", Durability::Full, appends)
              << ", \"normal\": " << appendsPerSecond(dir / "normal.sqlite", Durability::Normal, appends)
              << "}";
    std::cout.flush();

    const auto file = dir / "verify.sqlite";
    std::filesystem::remove(file);
    std::int64_t lines = 0;
    auto start = Clock::now();
    {
        GameStore log(file, GameStore::Access::CreateIfMissing, Durability::Normal);
        for (long g = 1; g <= games; ++g)
            lines += static_cast<std::int64_t>(
                writeRandomGame(log, randomSpec(static_cast<std::uint64_t>(g)), static_cast<std::uint64_t>(g))
                    .record.size());
    }
    const double fill = seconds(start);
    GameStore log(file, GameStore::Access::MustExist);
    start = Clock::now();
    long agree = 0;
    for (const auto& game : log.games()) agree += verifyGame(log, game.id).agrees;
    const double verify = seconds(start);
    std::cout << ", \"games\": " << games << ", \"lines\": " << lines << ", \"fill_s\": " << fill
              << ", \"verify_all_s\": " << verify << ", \"verified_equal\": " << agree
              << ", \"db_bytes\": " << std::filesystem::file_size(file) << "}\n";
    return agree == games ? 0 : 1;
}
