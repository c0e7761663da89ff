#include "engine/players/heuristic_player.hpp"

namespace vivaref::engine::players {
namespace {

// A rough chance that an Ambition card holds at the coronation, as a casual
// player would guess it (not measured): the kept card is the one with the
// better points times this.
double ambitionOdds(AmbitionCard c) {
    switch (c) {
        case AmbitionCard::JesterKing:
            return 0.08;
        case AmbitionCard::ItsAQueen:
        case AmbitionCard::ItsAKing:
            return 0.45;
        case AmbitionCard::Wc0:
            return 0.5;
        case AmbitionCard::Wc1:
            return 0.35;
        case AmbitionCard::Wc2:
            return 0.12;
        case AmbitionCard::NoFloors01:
            return 0.25;
        case AmbitionCard::NoFloors23:
            return 0.15;
        case AmbitionCard::NoFloors45:
            return 0.25;
        case AmbitionCard::Dungeons1:
            return 0.4;
        case AmbitionCard::Dungeons2:
            return 0.2;
        case AmbitionCard::Dungeons3:
            return 0.05;
        case AmbitionCard::NoWcNoDungeon:
            return 0.2;
        case AmbitionCard::OnlyYes:
            return 0.3;
        case AmbitionCard::FriendOfTheKing:
            return 0.2;
        case AmbitionCard::Under11:
            return 0.4;
        case AmbitionCard::Unknown:
            break;
    }
    return 0.0;
}

// What a favourite standing at `p` scores (RULES §3.5, no Jester King).
int favouritePoints(Place p) {
    if (isFloor(p)) return static_cast<int>(p);
    switch (p) {
        case Place::Throne:
            return 10;
        case Place::Dungeon3:
            return -3;
        case Place::Dungeon2:
            return -2;
        case Place::Dungeon1:
            return -1;
        default:
            return 0;
    }
}

class SeatCards {
public:
    SeatCards(const State& s, Seat seat) : state_(s) {
        for (int i = 0; i < s.rules().playersAt(seat); ++i) players_[count_++] = s.rules().playerAt(seat, i);
    }
    bool favourite(CharacterId c) const {
        for (int i = 0; i < count_; ++i)
            if (state_.favourites(players_[i]).counts(c)) return true;
        return false;
    }

private:
    const State& state_;
    std::array<PlayerId, 2> players_{};
    int count_ = 0;
};

double placementScore(const SeatCards& cards, const Action& a) {
    const int floor = static_cast<int>(a.to());
    return cards.favourite(a.character()) ? floor : -0.6 * floor;
}

// Whether a seat other than `seat` still holds a card that can refuse a
// candidate (No, or Stomachache in 2024). Hands are public knowledge: every
// card played was revealed.
bool othersCanRefuse(const State& s, Seat seat) {
    for (int i = 0; i < s.rules().seats(); ++i) {
        const Hand& hand = s.hand(Seat{static_cast<std::uint8_t>(i)});
        if (i != seat.index && (hand.no > 0 || hand.stomachache > 0)) return true;
    }
    return false;
}

// Measured against random players (`vivaref bench --players heuristic,random,...`):
// sending a favourite to the throne while others can refuse it mostly
// loses it (wins 28 % of classic 4-seat games); sending the others'
// characters instead spends the table's No cards (59 %, with its own sent once nobody can refuse them).
double moveScore(const State& s, const SeatCards& cards, const Action& a) {
    const Place from = s.placeOf(a.character());
    const bool mine = cards.favourite(a.character());
    if (a.to() == Place::Throne) {
        if (mine) return othersCanRefuse(s, a.seat()) ? -2.0 : 8.0;
        return 2.0;
    }
    const int gain = favouritePoints(a.to()) - favouritePoints(from);
    if (mine) return gain + (a.to() == Place::Floor5 ? 0.5 : 0.0);
    return -0.8 * gain - (a.to() == Place::Floor5 ? 1.0 : 0.0);
}

VoteCard voteFor(const State& s, const SeatCards& cards, Seat seat) {
    const Hand& hand = s.hand(seat);
    if (cards.favourite(s.candidate())) return VoteCard::Yes;
    if (hand.no > 0) return VoteCard::No;
    if (hand.stomachache > 0) return VoteCard::Stomachache;
    return VoteCard::Yes;
}

}  // namespace

VoteCard casualVote(const State& state, Seat seat) { return voteFor(state, SeatCards(state, seat), seat); }

Action HeuristicPlayer::choose(const State& state, Seat seat, Rng& rng) {
    ActionList legal;
    legalActionsOf(state, seat, legal);
    const SeatCards cards(state, seat);
    if (state.phase() == Phase::Election) {
        const VoteCard card = voteFor(state, cards, seat);
        for (const auto& a : legal)
            if (a.card() == card) return a;
    }
    // The best by score; ties drawn at random (reservoir of the best).
    double best = -1e9;
    int chosen = 0;
    int ties = 0;
    for (int i = 0; i < legal.size(); ++i) {
        const Action& a = legal[i];
        double score = 0;
        switch (a.kind()) {
            case ActionKind::Keep:
                score = ambitionCardPoints(a.ambition()) * ambitionOdds(a.ambition());
                break;
            case ActionKind::Place:
                score = placementScore(cards, a);
                break;
            case ActionKind::Move:
                score = moveScore(state, cards, a);
                break;
            case ActionKind::Vote:
            case ActionKind::Pass:
                break;
        }
        if (score > best + 1e-9) {
            best = score;
            chosen = i;
            ties = 1;
        } else if (score > best - 1e-9 && rng.below(static_cast<std::uint32_t>(++ties)) == 0) {
            chosen = i;
        }
    }
    return legal[chosen];
}

}  // namespace vivaref::engine::players
