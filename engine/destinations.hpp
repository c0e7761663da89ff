// Where a character may legally go now: the places a piece in a hand may be
// put down on, for a table that teaches (the referee lights them). Pure: the
// same checks as State::apply's placement and move, read from the state.
#pragma once

#include <vector>

#include "engine/state.hpp"

namespace vivaref::engine {

// The places the seat to act may put character `c` on with its action now:
// during placement, a character not yet placed this round may go on floors
// 1-4 below their limit; during the ascent, a character in the castle has
// at most one move (up one floor, into the WC of a full floor above, or out
// of a WC onto its floor). Empty in any other phase, for a character with
// no legal action, or an index outside the roster. In place order.
std::vector<Place> legalDestinations(const State& state, CharacterId c);

}  // namespace vivaref::engine
