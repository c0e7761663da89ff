// An independent reading of RULES §3.5, §4 and §5 for checking the engine:
// what each player scores at a coronation, the compensation at a deal, and
// who wins. Written from the rules, sharing no code with engine/.
#pragma once

#include <array>
#include <optional>
#include <vector>

#include "engine/rules.hpp"
#include "engine/state.hpp"

namespace vivaref::test::reference {

using namespace vivaref::engine;

// A coronation as the table sees it just before the reveal that crowns.
struct Coronation {
    std::array<Place, kMaxCharacters> positions{};  // the candidate on the throne
    CharacterId king{};
    Seat mover{};                          // moved the new King to the throne
    std::optional<CharacterId> firstKing;  // royal couple, second coronation
    std::optional<Seat> firstKingMover;
    bool scoresAmbition = false;  // last coronation of the round, Ambition on
    int round = 1;
};

// The points of one favourites card at a coronation (RULES §3.5 table).
int favouritePoints(const Rules& rules, const FavouritesCard& card, const Coronation& c);
// RULES §5: whether an Ambition card's condition holds, and what it scores.
bool ambitionHolds(const Rules& rules, AmbitionCard card, const FavouritesCard& favourites,
                   const Hand& seatHand, Seat seat, const Coronation& c);
int ambitionPoints(AmbitionCard card);

struct CoronationScores {
    std::vector<int> byPlayer;  // each player's change (single-pawn teams: the team's)
    int emissary = 0;
};
// `before` is the state just before the crowning reveal (hands and cards as
// they were at the coronation).
CoronationScores scoreCoronation(const State& before, const Coronation& c);

// RULES §2: the players' compensation points at a deal.
std::vector<int> compensation(const Rules& rules, Seat firstPlayer);

// RULES §4: winners by player from the final totals and the positions at the
// end of the last round.
std::vector<PlayerId> winners(const State& end, const std::array<Place, kMaxCharacters>& finalPositions);

}  // namespace vivaref::test::reference
