// What each audience may see of a state. The public view is for the table's
// screens; a player's view adds only that player's own secrets (RULES §7):
// no hand, favourites card, Ambition card or unrevealed vote of anyone else.
#pragma once

#include <optional>
#include <vector>

#include "engine/state.hpp"

namespace vivaref::engine {

struct PublicView {
    Phase phase = Phase::AwaitDeal;
    int round = 1;
    int rounds = 3;
    Seat firstPlayer{};
    std::vector<Seat> toAct;
    std::array<Place, kMaxCharacters> positions{};
    int characters = 0;
    std::optional<CharacterId> candidate;  // during an election
    std::optional<Seat> crownHolder;
    std::vector<bool> voted;           // by seat: who has voted, never what
    std::optional<Reveal> lastReveal;  // once revealed
    std::vector<int> totals;           // the score track, by player
    std::optional<int> emissaryTotal;
    std::optional<FavouritesCard> emissaryFavourites;  // face up on the table
    std::vector<FavouritesCard> revealedFavourites;    // only once revealed
    std::vector<RoundResult> finishedRounds;           // finished rounds
    std::vector<PlayerId> winners;                     // once the game is over
};

struct PlayerView {
    PlayerId player{};
    Seat seat{};
    FavouritesCard favourites{};
    Hand hand{};                                // the seat's (a team's shared) hand
    std::vector<AmbitionCard> ambitionChoices;  // while choosing
    std::optional<AmbitionCard> ambition;       // the card kept
    std::optional<VoteCard> ownVote;            // this seat's vote before the reveal
};

PublicView publicView(const State& s);
PlayerView playerView(const State& s, PlayerId p);

}  // namespace vivaref::engine
