// A tournament: games between given players, one a seat, the seats rotated
// from game to game so that each player sits everywhere (the first seat
// starts the first round). The figures `vivaref bench --players` prints:
// each player's win rate with its 95 % interval, mean final score, and the
// win rate of each seat position.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "engine/players/player.hpp"
#include "engine/rules.hpp"

namespace vivaref::engine::players {

// A proportion with its 95 % interval (Wilson's score interval).
struct Proportion {
    double rate = 0;
    double low = 0;
    double high = 0;
};
Proportion wilson(double successes, double trials);

struct TournamentResult {
    struct Entrant {
        std::string name;
        std::int64_t games = 0;
        double wins = 0;      // a shared win counts 1 / the winning seats
        double scoreSum = 0;  // final totals (a team seat: its players' mean)
        Proportion winRate() const { return wilson(wins, static_cast<double>(games)); }
        double meanScore() const { return games ? scoreSum / static_cast<double>(games) : 0.0; }
    };
    std::vector<Entrant> entrants;  // in the order given
    std::vector<double> seatWins;   // by seat position, over all games
    std::int64_t games = 0;
    std::int64_t emissaryWins = 0;     // games the Emissary won (no player did)
    std::int64_t decisions = 0;        // player decisions asked for
    std::optional<std::string> error;  // a player's illegal action: the game, the seat, the refusal
};

// `entrants[i]` sits at seat (i + game) mod seats; as many entrants as the
// rules have seats. Game g's chance comes from its own generator (seed,
// g), the players' choices from another, so a seed gives the same games.
// `afterGame`, if given, hears each game's end (a progress line).
TournamentResult playTournament(const RulesSpec& spec, const std::vector<Player*>& entrants,
                                std::int64_t games, std::uint64_t seed,
                                const std::function<void(const TournamentResult&)>& afterGame = {});

}  // namespace vivaref::engine::players
