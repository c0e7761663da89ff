// A logged game told as a story for after the game: setup and players, each
// round's deal, placements and moves, every election with its revealed
// votes and outcome, the scores of each round, and the winners. A finished
// game (complete or abandoned) is told whole. A game still being played is
// told as the table may see it, as the pages do: without the favourites
// and the Ambition cards of a round not yet scored, and without the
// referee's seed; unless `revealInProgress`, which also prints the votes
// cast in an open election.
#pragma once

#include <ostream>
#include <string>

#include "daemon/store/game_store.hpp"
#include "daemon/words/words.hpp"

namespace vivaref::store {

// Local time as "2026-11-21 18:40", as the review commands print it.
std::string localTimeText(WallTime t);

// Told in `words`' language, each sentence a message ("story.*",
// "breakdown.*"). Throws StoreError for an unknown game.
void writeStory(GameStore& log, GameId id, std::ostream& out, const words::Words& words,
                bool revealInProgress = false);
// In English, names plain (as a terminal shows them).
void writeStory(GameStore& log, GameId id, std::ostream& out, bool revealInProgress = false);

// True when the game is still being played (neither over nor abandoned):
// its record holds secrets the table must not see. Throws StoreError for an unknown game.
bool inProgress(GameStore& log, GameId id);

}  // namespace vivaref::store
