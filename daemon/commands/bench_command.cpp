// `vivaref bench`: random complete games on one core, to measure the
// engine (the target: 200,000 classic 4-seat games a second).
#include <chrono>
#include <ctime>
#include <iostream>
#include <memory>

#include <nlohmann/json.hpp>

#include "daemon/commands/command.hpp"
#include "daemon/commands/command_line.hpp"
#include "daemon/commands/game_options.hpp"
#include "daemon/commands/random_play.hpp"

namespace vivaref::daemon {

namespace po = boost::program_options;

namespace {

// Counts player actions; chance steps are part of the game but not counted.
struct ActionCounter {
    std::int64_t actions = 0;
    bool deal(const engine::Deal&) { return true; }
    bool reshuffle(const engine::Reshuffle&) { return true; }
    bool action(const engine::Action&) {
        ++actions;
        return true;
    }
};

}  // namespace

int runBench(const std::vector<std::string>& args) {
    GameOptions game;
    std::int64_t games = 100'000;
    CommandLine line(
        "bench", "vivaref bench [options]",
        "Plays random complete games on one core (random deals, uniformly random legal actions)\n"
        "and prints one JSON object: the game's description, the time taken, games and actions\n"
        "per second, and the mean number of actions in a game. With teams, every seat is a team\n"
        "of two.");
    addGameOptions(line.visible, game);
    line.visible.add_options()("games", po::value(&games)->default_value(games), "number of games to play");
    po::variables_map vm;
    if (auto stop = parseCommandLine(line, args, vm)) return *stop;
    if (games < 1) return usageError("bench", "--games must be at least 1");

    std::string error;
    auto spec = rulesSpecFor(game, error);
    if (!spec) return usageError("bench", error);

    // One fresh state, copied for each game: its buffers are reused, so the
    // loop allocates only what the engine does (deals, round results).
    const engine::State fresh(std::make_shared<const engine::Rules>(*spec));
    engine::State state = fresh;
    engine::Rng rng(game.seed);
    ActionCounter counter;

    // CPU time too: on a loaded machine it is the steadier figure.
    const std::clock_t cpuStart = std::clock();
    const auto start = std::chrono::steady_clock::now();
    for (std::int64_t g = 0; g < games; ++g) {
        state = fresh;
        if (auto problem = playRandomly(state, rng, counter)) {
            std::cerr << "vivaref bench: game " << g + 1 << " (seed " << game.seed << "): " << *problem
                      << "\n";
            return kExitRefused;
        }
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const double cpuSeconds = static_cast<double>(std::clock() - cpuStart) / CLOCKS_PER_SEC;

    nlohmann::ordered_json out;
    out["edition"] = game.edition;
    out["seats"] = game.seats;
    out["options"] = {{"ambition", game.ambition}, {"banished", game.banished}};
    out["variant"] = game.variant;
    out["games"] = games;
    out["seed"] = game.seed;
    out["seconds"] = seconds;
    out["cpu_seconds"] = cpuSeconds;
    out["games_per_second"] = seconds > 0 ? static_cast<double>(games) / seconds : 0.0;
    out["actions_per_second"] = seconds > 0 ? static_cast<double>(counter.actions) / seconds : 0.0;
    out["mean_actions_per_game"] = static_cast<double>(counter.actions) / static_cast<double>(games);
    std::cout << out.dump() << "\n";
    return kExitOk;
}

}  // namespace vivaref::daemon
