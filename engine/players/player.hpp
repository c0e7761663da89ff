// Players that decide for a seat: the interface the table's bots, the
// tournament and the analysis share, and who decides next. A player is
// given the whole state but may use only what its seat has seen: the
// search player looks at the game only through sampleWorld (chance.hpp),
// and the heuristic player reads its own cards and the public view.
#pragma once

#include <string>

#include "engine/action.hpp"
#include "engine/chance.hpp"
#include "engine/state.hpp"

namespace vivaref::engine::players {

class Player {
public:
    virtual ~Player() = default;
    // A legal action of `seat` (one of the seats the state waits for):
    // a keep for one of its players, a placement, a move or a pass, a vote.
    virtual Action choose(const State& state, Seat seat, Rng& rng) = 0;
    // "random", "heuristic", "search 2000" ...: what the tables and the log call it.
    virtual std::string name() const = 0;
};

// The seat that decides next in a canonical order: the placing or moving
// seat, or the first of the seats still to vote or keep (the state must
// not await chance nor be over). Simultaneous choices (votes, Ambition
// keeps) are taken seat by seat in this order; none sees another's.
Seat nextToDecide(const State& state);

// The legal actions of `seat` alone: its players' keeps, its placement,
// move or pass, its votes.
void legalActionsOf(const State& state, Seat seat, ActionList& out);

// Applies random deals and reshuffles while the state awaits chance.
void resolveChance(State& state, Rng& rng);

// Plays the game to its end from `state`: chance and moves at random, votes
// as a casual player casts them (casualVote, heuristic_player.hpp), or at
// random too with casualVotes false. Returns the actions played. The search
// player's playouts and the analysis's rollouts.
int playOut(State& state, Rng& rng, bool casualVotes = true);

}  // namespace vivaref::engine::players
