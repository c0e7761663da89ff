// The rule-based player: what a casual player does, the yardstick a search
// player must beat. It reads only its own seat's cards and the board:
//  - keeps the Ambition card with the better points times a rough chance;
//  - places its favourites high and the others low;
//  - sends the others' characters to the throne (spending the table's No
//    cards) and its own only once nobody else can refuse them; else moves
//    a favourite up, or the least useful other character the least far;
//  - votes Yes for its favourites, No (then Stomachache) for the others
//    while it holds one.
#pragma once

#include "engine/players/player.hpp"

namespace vivaref::engine::players {

// The vote the heuristic player casts for `seat` in an election: Yes for a
// favourite of its players, else No, else Stomachache, else Yes. The
// search player's playouts vote this way too.
VoteCard casualVote(const State& state, Seat seat);

class HeuristicPlayer : public Player {
public:
    Action choose(const State& state, Seat seat, Rng& rng) override;
    std::string name() const override { return "heuristic"; }
};

}  // namespace vivaref::engine::players
