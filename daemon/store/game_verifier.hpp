// Checking a logged game against the engine: its decisions replayed must be
// legal, and give the result logged when the game ended.
#pragma once

#include <string>

#include "daemon/store/game_store.hpp"

namespace vivaref::store {

struct GameCheck {
    bool agrees = true;
    std::string what;  // a sentence: what was checked, or the difference
};

// Throws StoreError for an unknown game.
GameCheck verifyGame(GameStore& log, GameId id);

}  // namespace vivaref::store
