// A pushed game checked against its own record: the record replayed with
// the engine must give the scores and winners the table sent. The pusher
// checks before it sends (a table never pushes a game that does not replay
// to its own scores) and the league's admin side before it counts
// (`vivaref club`, judgeWaitingGames): a table's role can call push_game
// with anything, so the league trusts only what the engine replays.
#pragma once

#include <optional>
#include <string>

#include "daemon/club/club_link.hpp"

namespace vivaref::club {

// What differs between the game as pushed and its record replayed, in
// words ("seat 2's score is 999, the record gives 41"); nullopt when they
// agree. An abandoned game must replay as far as it went and carry no
// score and no winner; a complete one must replay to its end, with the
// same edition, players, seats, scores and winners.
std::optional<std::string> gameMismatch(const GameUpload& game);

}  // namespace vivaref::club
