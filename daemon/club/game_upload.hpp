// An ended game of the table's log as the club takes it (club::GameUpload):
// built from what the game log reads back (its summary, its record, its
// "bots" event), so the log knows nothing of the club's form.
#pragma once

#include <string_view>

#include "daemon/club/club_link.hpp"
#include "daemon/store/game_store.hpp"

namespace vivaref::club {

// Throws store::StoreError for a game the log does not have or one still
// in progress (nothing of a game in progress leaves the table).
GameUpload uploadOf(store::GameStore& log, store::GameId game, std::string_view table);

}  // namespace vivaref::club
