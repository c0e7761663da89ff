#include "engine/views.hpp"

namespace vivaref::engine {

PublicView publicView(const State& s) {
    const Rules& rules = s.rules();
    PublicView v;
    v.phase = s.phase();
    v.round = s.round();
    v.rounds = rules.rounds();
    v.firstPlayer = s.firstPlayer();
    v.toAct = s.toAct();
    v.positions = s.positions();
    v.characters = s.characterCount();
    if (s.phase() == Phase::Election) {
        v.candidate = s.candidate();
        v.crownHolder = s.crownHolder();
        for (int i = 0; i < rules.seats(); ++i)
            v.voted.push_back(s.hasVoted(Seat{static_cast<std::uint8_t>(i)}));
    }
    v.lastReveal = s.lastReveal();
    v.totals = s.totals();
    if (rules.hasEmissary()) {
        v.emissaryTotal = s.emissaryTotal();
        if (s.phase() != Phase::AwaitDeal || s.round() > 1) v.emissaryFavourites = s.emissaryFavourites();
    }
    // Favourites cards are shown at scoring: face up after a royal couple's
    // first coronation, and at the end of each round until the next deal.
    bool roundScored = (s.phase() == Phase::AwaitDeal && s.round() > 1) || s.phase() == Phase::GameOver;
    if (s.favouritesRevealed() || roundScored)
        for (int p = 0; p < rules.players(); ++p)
            v.revealedFavourites.push_back(s.favourites(PlayerId{static_cast<std::uint8_t>(p)}));
    v.finishedRounds = s.finishedRounds();
    v.winners = s.winners();
    return v;
}

PlayerView playerView(const State& s, PlayerId p) {
    PlayerView v;
    v.player = p;
    v.seat = s.rules().seatOf(p);
    if (s.phase() == Phase::AwaitDeal && s.round() == 1) return v;  // nothing dealt yet
    v.favourites = s.favourites(p);
    v.hand = s.hand(v.seat);
    if (s.rules().options().ambition) {
        if (s.keptAmbition(p) == AmbitionCard::Unknown) {
            for (auto c : s.ambitionChoices(p)) v.ambitionChoices.push_back(c);
        } else {
            v.ambition = s.keptAmbition(p);
        }
    }
    v.ownVote = s.voteOf(v.seat);
    return v;
}

}  // namespace vivaref::engine
