// The search player: Information Set Monte Carlo Tree Search (Cowling,
// Powley and Whitehouse, 2012: single-observer ISMCTS). Each iteration
//  1. samples a world the seat cannot tell from the real one (sampleWorld:
//     the others' cards, unrevealed votes and the Emissary's pile redrawn);
//  2. walks one tree of actions shared by all worlds, choosing among the
//     children legal in this world by UCB1 with availability counts (a
//     child's exploration term counts the times it could have been chosen);
//  3. adds one untried action, plays the game out at random (chance
//     included) and scores the end for every seat;
//  4. adds each seat's score to the nodes where that seat acted.
// Simultaneous choices (votes, Ambition keeps) are decoupled: every seat
// choosing at the same time picks among its own children of one node, so
// none of them depends on another's; the walk goes on under the searching
// seat's own choice. Votes already cast are part of the sampled world.
// Pure like the rest of the engine: the budget is an iteration count and an
// optional stop callback the caller may tie to its own clock; no clock or
// thread inside.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "engine/players/player.hpp"

namespace vivaref::engine::players {

struct SearchBudget {
    std::int64_t iterations = 2000;  // at most this many
    // Asked every few iterations (and never before the first): true ends
    // the search. Empty: the iterations alone bound it.
    std::function<bool()> stop;
};

struct SearchSettings {
    SearchBudget budget;
    double exploration = 0.7;  // UCB1's constant, for rewards in [0, 1]
    // Playouts vote as the heuristic player does (false: at random).
    bool casualVotes = true;
};

// What one search did: for the bench (iterations, actions simulated) and
// the analysis (each root action's visits and mean reward for the seat).
struct SearchReport {
    std::int64_t iterations = 0;
    std::int64_t simulatedActions = 0;  // in the tree and the playouts
    struct Choice {
        Action action;
        std::int64_t visits = 0;
        double meanReward = 0;  // the seat's, in [0, 1]
    };
    std::vector<Choice> choices;  // by visits, most first
};

// A seat's reward at the end of a game, in [0, 1]: 0.8 for a win (shared
// equally when tied; nothing when the Emissary is ahead of everyone) and
// 0.2 times the share of the other players it finished ahead of (half for
// a tie). A team seat gets its players' mean.
std::vector<double> seatRewards(const State& over);

class SearchPlayer : public Player {
public:
    explicit SearchPlayer(SearchSettings settings = {}) : settings_(std::move(settings)) {}
    Action choose(const State& state, Seat seat, Rng& rng) override;
    std::string name() const override;

    // One search for `seat` from `state` with `budget`; the chosen action is
    // the root's most visited.
    Action search(const State& state, Seat seat, Rng& rng, const SearchBudget& budget,
                  SearchReport* report = nullptr) const;

    const SearchSettings& settings() const { return settings_; }

private:
    SearchSettings settings_;
};

}  // namespace vivaref::engine::players
