// A logged game told as a story for after the game: setup and players, each
// round's deal, placements and moves, every election with its revealed
// votes and outcome, the scores of each round, and the winners. It shows
// the favourites cards, so it is not for a game still being played.
#pragma once

#include <ostream>
#include <string>

#include "daemon/store/game_store.hpp"

namespace vivaref::store {

// Local time as "2026-11-21 18:40", as the review commands print it.
std::string localTimeText(WallTime t);

// Throws StoreError for an unknown game.
void writeStory(GameStore& log, GameId id, std::ostream& out);

}  // namespace vivaref::store
