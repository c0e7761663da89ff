// `vivaref bench`: random complete games on one core, to measure the
// engine (the target: 200,000 classic 4-seat games a second); with
// --players, a tournament between players (engine/players), the search
// players on the clock (daemon/bots).
#include <chrono>
#include <ctime>
#include <iostream>
#include <memory>
#include <sstream>

#include <nlohmann/json.hpp>

#include "daemon/bots/timed_player.hpp"
#include "daemon/commands/command.hpp"
#include "daemon/commands/command_line.hpp"
#include "daemon/commands/game_options.hpp"
#include "engine/players/heuristic_player.hpp"
#include "engine/players/random_player.hpp"
#include "engine/players/tournament.hpp"

namespace vivaref::daemon {

namespace po = boost::program_options;

namespace {

struct TournamentOptions {
    std::string players;
    std::int64_t thinkMs = 100;
    std::int64_t iterations = 0;  // 0: 1,000,000 on the clock, else 2,000
};

// "search,heuristic,random,..." -> the players, one a seat; a search player
// on the clock (`thinkMs`) or by iterations alone.
std::optional<std::string> makePlayers(const TournamentOptions& options,
                                       std::vector<std::unique_ptr<engine::players::Player>>& out) {
    std::istringstream list(options.players);
    std::string word;
    const auto think = std::chrono::milliseconds(options.thinkMs);
    const std::int64_t iterations = options.iterations > 0 ? options.iterations
                                    : options.thinkMs > 0  ? 1'000'000
                                                           : 2'000;
    while (std::getline(list, word, ',')) {
        if (word == "random")
            out.push_back(std::make_unique<engine::players::RandomPlayer>());
        else if (word == "heuristic")
            out.push_back(std::make_unique<engine::players::HeuristicPlayer>());
        else if (word == "search")
            out.push_back(std::make_unique<bots::TimedSearchPlayer>(think, iterations, true));
        else
            return "--players: \"" + word + "\" is none of random, heuristic, search";
    }
    return std::nullopt;
}

// A search player's figures over the tournament: decisions and iterations,
// their rates, and its instructions when the machine counts them.
nlohmann::ordered_json searchFigures(const bots::TimedSearchPlayer& timed) {
    const auto& t = timed.totals();
    nlohmann::ordered_json search;
    search["decisions"] = t.decisions;
    search["searched_decisions"] = t.searched;
    search["iterations"] = t.iterations;
    search["iterations_per_second"] = t.seconds > 0 ? static_cast<double>(t.iterations) / t.seconds : 0.0;
    search["decisions_per_second"] = t.seconds > 0 ? static_cast<double>(t.decisions) / t.seconds : 0.0;
    search["iterations_per_searched_decision"] =
        t.searched ? static_cast<double>(t.iterations) / static_cast<double>(t.searched) : 0.0;
    search["simulated_actions_per_iteration"] =
        t.iterations ? static_cast<double>(t.simulatedActions) / static_cast<double>(t.iterations) : 0.0;
    if (t.instructions && t.iterations) {
        search["instructions_per_iteration"] =
            static_cast<double>(*t.instructions) / static_cast<double>(t.iterations);
        search["instructions_per_searched_decision"] =
            static_cast<double>(*t.instructions) / static_cast<double>(t.searched);
    } else {
        search["instructions_per_iteration"] = nullptr;
        search["instructions_note"] = timed.counterProblem();
    }
    return search;
}

// One entrant's row: its games, wins with their 95 % interval, mean score,
// and a search player's figures.
nlohmann::ordered_json entrantRow(const engine::players::TournamentResult::Entrant& e, std::size_t firstSeat,
                                  const engine::players::Player& player) {
    const auto rate = e.winRate();
    nlohmann::ordered_json row;
    row["player"] = e.name;
    row["first_seat"] = firstSeat;
    row["games"] = e.games;
    row["wins"] = e.wins;
    row["win_rate"] = rate.rate;
    row["win_rate_95"] = {rate.low, rate.high};
    row["mean_score"] = e.meanScore();
    if (const auto* timed = dynamic_cast<const bots::TimedSearchPlayer*>(&player))
        row["search"] = searchFigures(*timed);
    return row;
}

int runTournament(const engine::RulesSpec& spec, const GameOptions& game, const TournamentOptions& options,
                  std::int64_t games) {
    std::vector<std::unique_ptr<engine::players::Player>> owned;
    if (auto bad = makePlayers(options, owned)) return usageError("bench", *bad);
    if (static_cast<int>(owned.size()) != spec.seats)
        return usageError("bench", "--players names " + std::to_string(owned.size()) + " players for " +
                                       std::to_string(spec.seats) + " seats: one a seat");
    std::vector<engine::players::Player*> entrants;
    for (auto& p : owned) entrants.push_back(p.get());

    const auto start = std::chrono::steady_clock::now();
    // One line on stderr every tenth of the games: a long run shows it is alive.
    const std::int64_t every = std::max<std::int64_t>(1, games / 10);
    const auto result =
        engine::players::playTournament(spec, entrants, games, game.seed, [&](const auto& sofar) {
            if (sofar.games % every == 0)
                std::cerr << "vivaref bench: " << sofar.games << " of " << games << " games\n";
        });
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (result.error) {
        std::cerr << "vivaref bench: " << *result.error << " (seed " << game.seed << ")\n";
        return kExitRefused;
    }

    nlohmann::ordered_json out;
    out["mode"] = "tournament";
    out["edition"] = game.edition;
    out["seats"] = game.seats;
    out["options"] = {{"ambition", game.ambition}, {"banished", game.banished}};
    out["variant"] = game.variant;
    out["games"] = result.games;
    out["seed"] = game.seed;
    out["seconds"] = seconds;
    out["fair_share"] = 1.0 / spec.seats;
    nlohmann::ordered_json players = nlohmann::ordered_json::array();
    for (std::size_t i = 0; i < result.entrants.size(); ++i)
        players.push_back(entrantRow(result.entrants[i], i, *owned[i]));
    out["players"] = std::move(players);
    nlohmann::ordered_json seats = nlohmann::ordered_json::array();
    for (double w : result.seatWins)
        seats.push_back(result.games ? w / static_cast<double>(result.games) : 0.0);
    out["seat_win_rates"] = std::move(seats);
    if (spec.variant == engine::Variant::Emissary) out["emissary_wins"] = result.emissaryWins;
    std::cout << out.dump() << "\n";
    return kExitOk;
}

}  // namespace

int runBench(const std::vector<std::string>& args) {
    GameOptions game;
    TournamentOptions tournament;
    std::int64_t games = 100'000;
    CommandLine line(
        "bench", "vivaref bench [options]",
        "Plays random complete games on one core (random deals, uniformly random legal actions)\n"
        "and prints one JSON object: the game's description, the time taken, games and actions\n"
        "per second, and the mean number of actions in a game. With teams, every seat is a team\n"
        "of two.\n"
        "With --players, a tournament instead: one player a seat, the seats rotated from game to\n"
        "game, and per player its win rate with a 95 % interval and its mean score; a search\n"
        "player's iterations and decisions a second, and its instructions when the machine\n"
        "counts them. Example: --players search,heuristic,heuristic,heuristic --games 400.");
    addGameOptions(line.visible, game);
    line.visible.add_options()("games", po::value(&games)->default_value(games),
                               "number of games to play (a tournament: 400 unless given)")(
        "players", po::value(&tournament.players),
        "a tournament: the players, one a seat, comma-separated: random, heuristic, search")(
        "think-ms", po::value(&tournament.thinkMs)->default_value(tournament.thinkMs),
        "a search player's time a decision, in milliseconds (0: --iterations alone)")(
        "iterations", po::value(&tournament.iterations),
        "a search player's most iterations a decision (default: 2000 with --think-ms 0)");
    po::variables_map vm;
    if (auto stop = parseCommandLine(line, args, vm)) return *stop;
    if (games < 1) return usageError("bench", "--games must be at least 1");

    std::string error;
    auto spec = rulesSpecFor(game, error);
    if (!spec) return usageError("bench", error);
    if (vm.count("players")) {
        if (tournament.thinkMs < 0) return usageError("bench", "--think-ms must be 0 or more");
        if (tournament.thinkMs == 0 && tournament.iterations <= 0 && vm.count("iterations"))
            return usageError("bench", "--iterations must be at least 1");
        return runTournament(*spec, game, tournament, vm["games"].defaulted() ? 400 : games);
    }

    // One fresh state, copied for each game: its buffers are reused, so the
    // loop allocates only what the engine does (deals, round results).
    const engine::State fresh(std::make_shared<const engine::Rules>(*spec));
    engine::State state = fresh;
    engine::Rng rng(game.seed);
    std::int64_t actions = 0;

    // CPU time too: on a loaded machine it is the steadier figure.
    const std::clock_t cpuStart = std::clock();
    const auto start = std::chrono::steady_clock::now();
    for (std::int64_t g = 0; g < games; ++g) {
        state = fresh;
        if (auto problem = engine::players::playRandomly(state, rng, &actions)) {
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
    out["actions_per_second"] = seconds > 0 ? static_cast<double>(actions) / seconds : 0.0;
    out["mean_actions_per_game"] = static_cast<double>(actions) / static_cast<double>(games);
    std::cout << out.dump() << "\n";
    return kExitOk;
}

}  // namespace vivaref::daemon
