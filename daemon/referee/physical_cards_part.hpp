// Physical cards: a table that plays with its own Favourites (and Ambition)
// cards keeps them hidden until a coronation turns them face up. Until then
// the referee plays the round on placeholder cards from its own generator,
// which nobody is shown (no rule before scoring reads a player's card); when
// a coronation has scored, it accepts nothing more until the host enters the
// cards as revealed; the timeline then plays the round again on the real
// cards (TimelinePart::replayRound). REFEREE-NOTES.md, "Physical cards".
// Not part of the API.
#pragma once

#include <cstddef>
#include <optional>
#include <set>
#include <variant>
#include <vector>

#include "daemon/referee/referee_context.hpp"

namespace vivaref::referee {

// Physical cards whose real values the host must enter: the coronation of
// `round` has revealed them (REFEREE-NOTES.md, "Physical cards").
struct RevealNeed {
    int round = 0;
    bool favourites = false;  // each player's Favourites card (and seal)
    bool ambitions = false;   // each player's kept Ambition card
};

// A `reveal` request read: the round's deal in effect (at `dealIndex` in the
// timeline) with the cards entered in place of its own.
struct CardsEntered {
    int round = 0;
    std::size_t dealIndex = 0;
    engine::Deal deal;
    std::optional<std::vector<engine::AmbitionCard>> kept;
    bool favourites = false;
    bool ambitions = false;
};

class PhysicalCardsPart {
public:
    explicit PhysicalCardsPart(Context& ctx) : ctx_(ctx) {}

    FavouritesMode mode() const { return mode_; }
    bool physical() const { return mode_ == FavouritesMode::Physical; }
    bool favouritesEntered(int round) const { return favouritesEntered_.contains(round); }
    bool ambitionsEntered(int round) const { return ambitionsEntered_.contains(round); }

    void startGame(FavouritesMode mode);
    void resumeGame(FavouritesMode mode, std::set<int> favouritesEntered, std::set<int> ambitionsEntered);
    // A new deal of `round`: its cards are placeholders again.
    void forgetRound(int round);
    // The cards entered for `round`, now in effect.
    void entered(int round, bool favourites, bool ambitions);

    // The round whose physical cards a coronation has turned face up, while
    // they may still be entered or corrected (until the next deal).
    std::optional<int> revealRound() const;
    std::optional<RevealNeed> revealNeeded() const;
    // The round whose cards a `reveal` may enter or correct now: the one
    // face up, else the last finished one whose cards were entered.
    std::optional<int> correctableRound() const;

    // Every player keeps a placeholder Ambition card at once. Whether one was.
    bool autoKeep(Decider& decider);
    // A `reveal` request checked against what is face up and read with the
    // round's deal in `timeline`; the refusal otherwise.
    std::variant<CardsEntered, HostAnswer> read(const RevealRequest& r,
                                                const std::vector<Decision>& timeline) const;

private:
    Context& ctx_;
    FavouritesMode mode_ = FavouritesMode::Dealt;
    // The rounds whose favourites / kept Ambition cards the host has entered
    // (the deal in effect holds them).
    std::set<int> favouritesEntered_;
    std::set<int> ambitionsEntered_;
};

}  // namespace vivaref::referee
