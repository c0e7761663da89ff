// The state's life cycle: construction, the deal, Ambition choices, the
// dispatch of actions by phase, and what the referee asks of it.
#include "engine/state.hpp"

#include <algorithm>
#include <tuple>

namespace vivaref::engine {
std::string_view phaseName(Phase p) {
    switch (p) {
        case Phase::AwaitDeal:
            return "deal";
        case Phase::KeepAmbition:
            return "ambition";
        case Phase::Placement:
            return "placement";
        case Phase::Ascent:
            return "ascent";
        case Phase::Election:
            return "election";
        case Phase::AwaitReshuffle:
            return "reshuffle";
        case Phase::GameOver:
            return "game-over";
    }
    return "deal";
}

std::string_view electionOutcomeName(ElectionOutcome o) {
    switch (o) {
        case ElectionOutcome::Crowned:
            return "crowned";
        case ElectionOutcome::Eliminated:
            return "eliminated";
        case ElectionOutcome::Rejected:
            return "rejected";
        case ElectionOutcome::Cancelled:
            return "cancelled";
    }
    return "crowned";
}

State::State(std::shared_ptr<const Rules> rules) : rules_(std::move(rules)) {
    characters_ = rules_->roster().size();
    place_.fill(Place::Reserve);
    count_[static_cast<int>(Place::Reserve)] = static_cast<std::uint8_t>(characters_);
    at_[static_cast<int>(Place::Reserve)] = static_cast<std::uint16_t>((1u << characters_) - 1);
    first_ = rules_->firstSeat();
    toAct_ = first_;
    votes_.fill(VoteCard::Unknown);
    ambitionKept_.fill(AmbitionCard::Unknown);
    for (auto& pair : ambitionDealt_) pair.fill(AmbitionCard::Unknown);
    for (int s = 0; s < rules_->seats(); ++s) hands_[s] = rules_->startingHand();
    for (int p = 0; p < rules_->players(); ++p) totals_[p] = rules_->startingScore();
    if (rules_->hasEmissary()) emissaryTotal_ = rules_->emissaryStartingScore();
    current_.round = 1;
    current_.scores.assign(rules_->players(), 0);
    current_.compensation.assign(rules_->players(), 0);
    history_.reserve(static_cast<std::size_t>(rules_->rounds()));
}

// ---- the deal (RULES §3.1) -------------------------------------------------

std::optional<Refusal> State::checkFavouritesCard(const FavouritesCard& card, int player) const {
    // Whose card: player 1, 2, ... or the Emissary (player < 0); only made on
    // a refusal, since deals are hot in random play.
    auto refuseCard = [player](RefusalCode code, const char* what) {
        return refuse(code, Message(what, {{"owner", say::number(player < 0 ? 0 : player + 1)}}));
    };
    unsigned onCard = 0;  // the characters seen so far, as a bit mask
    for (CharacterId c : card.characters) {
        if (c.index >= characters_)
            return refuseCard(RefusalCode::UnknownCharacter, "refusal.card-unknown-character");
        if (rules_->roster().isJester(c)) return refuseCard(RefusalCode::BadDeal, "refusal.card-jester");
        if (onCard & (1u << c.index)) return refuseCard(RefusalCode::BadDeal, "refusal.card-twice");
        onCard |= 1u << c.index;
    }
    if (rules_->options().banished != card.banished.has_value())
        return rules_->options().banished
                   ? refuseCard(RefusalCode::BadDeal, "refusal.card-needs-banished")
                   : refuse(RefusalCode::BadDeal, Message("refusal.no-banished-option"));
    if (card.banished) {
        if (card.banished->index >= characters_)
            return refuseCard(RefusalCode::UnknownCharacter, "refusal.banished-unknown");
        if (!(onCard & (1u << card.banished->index)))
            return refuseCard(RefusalCode::BadDeal, "refusal.banished-not-on-card");
    }
    return std::nullopt;
}

std::optional<Refusal> State::checkPile(const std::vector<VoteCard>& pile, const Hand& expected) const {
    Hand got{0, 0, 0};
    for (auto c : pile) {
        switch (c) {
            case VoteCard::Yes:
                ++got.yes;
                break;
            case VoteCard::No:
                ++got.no;
                break;
            case VoteCard::Stomachache:
                ++got.stomachache;
                break;
            case VoteCard::Unknown:
                return refuse(RefusalCode::BadPile, Message("refusal.pile-cards"));
        }
    }
    if (got != expected)
        return refuse(RefusalCode::BadPile,
                      Message("refusal.pile-size", {{"yes", say::number(expected.yes)},
                                                    {"no", say::number(expected.no)},
                                                    {"stomachache", say::number(expected.stomachache)}}));
    return std::nullopt;
}

std::optional<Refusal> State::checkDeal(const Deal& d) const {
    if (phase_ != Phase::AwaitDeal)
        return refuse(
            RefusalCode::WrongPhase,
            Message(phase_ == Phase::GameOver ? "refusal.game-over" : "refusal.deal-between-rounds"));
    if (d.round != round_)
        return refuse(RefusalCode::BadDeal, Message("refusal.deal-round", {{"round", say::number(d.round)},
                                                                           {"next", say::number(round_)}}));
    const int players = rules_->players();
    if (static_cast<int>(d.favourites.size()) != players)
        return refuse(RefusalCode::BadDeal,
                      Message("refusal.deal-favourites", {{"players", say::number(players)}}));
    for (int p = 0; p < players; ++p)
        if (auto r = checkFavouritesCard(d.favourites[p], p)) return r;

    if (rules_->options().ambition) {
        if (static_cast<int>(d.ambitions.size()) != players)
            return refuse(RefusalCode::BadDeal, Message("refusal.deal-ambition-two"));
        std::array<bool, kAmbitionCardCount> dealt{};
        for (const auto& pair : d.ambitions)
            for (auto c : pair) {
                if (c >= AmbitionCard::Unknown)
                    return refuse(RefusalCode::UnknownCard, Message("refusal.deal-ambition-unknown"));
                if (dealt[static_cast<int>(c)])
                    return refuse(RefusalCode::BadDeal,
                                  Message("refusal.deal-ambition-twice", {{"card", say::ambition(c)}}));
                dealt[static_cast<int>(c)] = true;
            }
    } else if (!d.ambitions.empty()) {
        return refuse(RefusalCode::BadDeal, Message("refusal.no-ambition-option"));
    }

    if (rules_->hasEmissary() != d.emissary.has_value())
        return refuse(RefusalCode::BadDeal,
                      Message(rules_->hasEmissary() ? "refusal.deal-needs-emissary" : "refusal.no-emissary"));
    if (d.emissary) {
        if (auto r = checkFavouritesCard(d.emissary->favourites, -1)) return r;
        if (auto r = checkPile(d.emissary->pile, rules_->startingHand())) return r;
    }

    if (rules_->hasPlacementPhase()) {
        if (!d.placement.empty())
            return refuse(RefusalCode::BadDeal, Message("refusal.deal-places-online-only"));
    } else {
        if (static_cast<int>(d.placement.size()) != characters_)
            return refuse(RefusalCode::BadDeal, Message("refusal.deal-places-all"));
        std::array<int, kFloors> onFloor{};
        for (auto p : d.placement) {
            if (p == Place::Unknown)
                return refuse(RefusalCode::UnknownPlace, Message("refusal.deal-no-such-place"));
            if (p == Place::Reserve) return refuse(RefusalCode::BadDeal, Message("refusal.deal-places-all"));
            if (p > Place::Floor3) return refuse(RefusalCode::BadDeal, Message("refusal.deal-floors-0-3"));
            if (++onFloor[floorOf(p)] > 4)
                return refuse(RefusalCode::BadDeal, Message("refusal.deal-four-a-floor"));
        }
    }
    return std::nullopt;
}

std::optional<Refusal> State::applyDeal(const Deal& d, EventList* ev) {
    if (auto r = checkDeal(d)) return r;
    startRound(d, ev);
    return std::nullopt;
}

void State::startRound(const Deal& d, EventList* ev) {
    clearForRound();
    takeCards(d);
    if (ev) ev->push(Event{.kind = EventKind::RoundDealt, .round = round_});
    // RULES §3.1: the 2024 Jester stands on floor 3 before anything else.
    const CharacterId jester = rules_->roster().jester();
    if (rules_->is2024() && jester.index < characters_) setUpJester(jester, ev);
    // RULES §2: with 7-8 seats, a seat that places only one character gains 3
    // points at the deal, every round.
    if (rules_->seats() >= 7) compensateSinglePlacements(ev);
    if (!rules_->hasPlacementPhase()) placeAtRandom(d, ev);
    if (rules_->options().ambition) {
        phase_ = Phase::KeepAmbition;
    } else {
        startPlay();
    }
}

// Every character back beside the board, the hands full, no election, and
// the round's result empty.
void State::clearForRound() {
    place_.fill(Place::Reserve);
    count_.fill(0);
    at_.fill(0);
    count_[static_cast<int>(Place::Reserve)] = static_cast<std::uint8_t>(characters_);
    at_[static_cast<int>(Place::Reserve)] = static_cast<std::uint16_t>((1u << characters_) - 1);
    for (int s = 0; s < rules_->seats(); ++s) hands_[s] = rules_->startingHand();
    votes_.fill(VoteCard::Unknown);
    votesIn_ = 0;
    candidate_ = CharacterId{};
    crown_ = Seat{};
    rejections_ = 0;
    firstKing_ = CharacterId{};
    firstKingMover_ = Seat{};
    favouritesRevealed_ = false;
    passesInRow_ = 0;
    placed_ = 0;
    lastReveal_.reset();
    // Reset in place: the round's buffers are reused from round to round.
    const int players = rules_->players();
    current_.round = round_;
    current_.kings.clear();
    current_.crown = Seat{};
    current_.scores.assign(players, 0);
    current_.emissaryScore = 0;
    current_.compensation.assign(players, 0);
    current_.coronations.clear();
}

// The deal's Favourites and Ambition cards, and the Emissary's card and pile.
void State::takeCards(const Deal& d) {
    const int players = rules_->players();
    for (int p = 0; p < players; ++p) favourites_[p] = d.favourites[p];
    for (int p = 0; p < players; ++p) {
        ambitionKept_[p] = AmbitionCard::Unknown;
        ambitionDealt_[p] = rules_->options().ambition
                                ? d.ambitions[p]
                                : std::array{AmbitionCard::Unknown, AmbitionCard::Unknown};
    }
    if (d.emissary) {
        emissaryFavourites_ = d.emissary->favourites;
        emissaryPileSize_ = static_cast<std::uint8_t>(d.emissary->pile.size());
        std::copy(d.emissary->pile.begin(), d.emissary->pile.end(), emissaryPile_.begin());
    }
}

void State::setUpJester(CharacterId jester, EventList* ev) {
    putCharacter(jester, Place::Floor3);
    if (ev)
        ev->push(Event{.kind = EventKind::JesterSetUp,
                       .character = jester,
                       .from = Place::Reserve,
                       .to = Place::Floor3,
                       .round = round_});
}

void State::compensateSinglePlacements(EventList* ev) {
    for (int order = 0; order < rules_->seats(); ++order) {
        if (rules_->placementsFor(order) != 1) continue;
        Seat s{static_cast<std::uint8_t>((first_.index + order) % rules_->seats())};
        if (rules_->isTeamPawn()) {
            for (int i = 0; i < rules_->playersAt(s); ++i) {
                PlayerId p = rules_->playerAt(s, i);
                totals_[p.index] += 3;
                current_.scores[p.index] += 3;
                current_.compensation[p.index] += 3;
            }
        } else {
            for (int i = 0; i < rules_->playersAt(s); ++i) {
                addToTotal(rules_->playerAt(s, i), 3);
                current_.compensation[rules_->playerAt(s, i).index] += 3;
            }
        }
        if (ev) ev->push(Event{.kind = EventKind::Compensated, .seat = s, .round = round_});
    }
}

// The online preset (no placement phase): the deal put every character on a floor.
void State::placeAtRandom(const Deal& d, EventList* ev) {
    for (int c = 0; c < characters_; ++c) {
        CharacterId id{static_cast<std::uint8_t>(c)};
        putCharacter(id, d.placement[c]);
        if (ev)
            ev->push(Event{.kind = EventKind::PlacedAtRandom,
                           .character = id,
                           .from = Place::Reserve,
                           .to = d.placement[c],
                           .round = round_});
    }
}

void State::addToTotal(PlayerId p, int change) {
    current_.scores[p.index] += change;
    int total = totals_[p.index] + change;
    totals_[p.index] = rules_->is2024() ? std::max(0, total) : total;  // RULES §3.5: clamp at 0
}

void State::startPlay() {
    phase_ = rules_->hasPlacementPhase() ? Phase::Placement : Phase::Ascent;
    toAct_ = first_;
}

// ---- Ambition (RULES §5) -----------------------------------------------------

// Decision (RULES-NOTES): a kept card may be changed for the other one
// dealt until the round's first placement; the round has begun then.
bool State::ambitionChangeable(PlayerId p) const {
    if (p.index >= rules_->players() || ambitionKept_[p.index] == AmbitionCard::Unknown) return false;
    return phase_ == Phase::KeepAmbition || (phase_ == Phase::Placement && placed_ == 0);
}

std::optional<Refusal> State::checkKeep(const Action& a) const {
    const bool changeWindow = rules_->options().ambition && phase_ == Phase::Placement && placed_ == 0;
    if (phase_ != Phase::KeepAmbition && !changeWindow) {
        const bool begun =
            rules_->options().ambition &&
            (phase_ == Phase::Placement || phase_ == Phase::Ascent || phase_ == Phase::Election);
        return refuse(RefusalCode::WrongPhase,
                      Message(begun ? "refusal.keep-round-begun" : "refusal.keep-after-deal"));
    }
    PlayerId p = a.player();
    if (p.index >= rules_->players())
        return refuse(RefusalCode::UnknownPlayer, Message("refusal.no-such-player"));
    if (const auto kept = ambitionKept_[p.index]; kept != AmbitionCard::Unknown) {
        // A change of mind: the other card dealt, nothing else.
        const auto& dealt = ambitionDealt_[p.index];
        const auto other = dealt[0] == kept ? dealt[1] : dealt[0];
        if (a.ambition() != other) return refuse(RefusalCode::AlreadyKept, Message("refusal.already-kept"));
        return std::nullopt;
    }
    if (a.ambition() >= AmbitionCard::Unknown)
        return refuse(RefusalCode::UnknownCard, Message("refusal.no-such-ambition"));
    const auto& pair = ambitionDealt_[p.index];
    if (pair[0] != a.ambition() && pair[1] != a.ambition())
        return refuse(RefusalCode::CardNotHeld, Message("refusal.keep-one-of-two"));
    return std::nullopt;
}

// ---- acting --------------------------------------------------------------------

std::optional<Refusal> State::applyAction(const Action& a, EventList* ev) {
    switch (a.kind()) {
        case ActionKind::Keep:
            if (auto r = checkKeep(a)) return r;
            ambitionKept_[a.player().index] = a.ambition();
            if (ev) ev->push(Event{.kind = EventKind::AmbitionKept, .player = a.player(), .round = round_});
            if (phase_ != Phase::KeepAmbition) return std::nullopt;  // a change before the first placement
            for (int p = 0; p < rules_->players(); ++p)
                if (ambitionKept_[p] == AmbitionCard::Unknown) return std::nullopt;
            startPlay();
            return std::nullopt;
        // A legal placement, move or vote is recognised in a few comparisons;
        // anything else goes through the checks that say what is wrong.
        case ActionKind::Place:
            if (!isLegalPlacement(a))
                if (auto r = checkPlace(a)) return r;
            doPlace(a, ev);
            return std::nullopt;
        case ActionKind::Move:
            if (!isLegalMove(a))
                if (auto r = checkMove(a)) return r;
            doMove(a, ev);
            return std::nullopt;
        case ActionKind::Pass:
            if (auto r = checkPass(a)) return r;
            doPass(a, ev);
            return std::nullopt;
        case ActionKind::Vote:
            if (!isLegalVote(a))
                if (auto r = checkVote(a)) return r;
            doVote(a, ev);
            return std::nullopt;
    }
    return refuse(RefusalCode::BadRecord, Message("refusal.unknown-action"));
}

std::optional<Refusal> State::applyReshuffle(const Reshuffle& r, EventList* ev) {
    if (phase_ != Phase::AwaitReshuffle)
        return refuse(RefusalCode::WrongPhase, Message("refusal.reshuffle-after-yes"));
    Hand now{0, 0, 0};
    for (int i = 0; i < emissaryPileSize_; ++i) {
        if (emissaryPile_[i] == VoteCard::Yes) ++now.yes;
        if (emissaryPile_[i] == VoteCard::No) ++now.no;
        if (emissaryPile_[i] == VoteCard::Stomachache) ++now.stomachache;
    }
    if (auto bad = checkPile(r.pile, now)) return bad;
    std::copy(r.pile.begin(), r.pile.end(), emissaryPile_.begin());
    if (ev) ev->push(Event{.kind = EventKind::PileReshuffled, .round = round_});
    phase_ = Phase::Ascent;
    toAct_ = rules_->nextSeat(crown_);
    return std::nullopt;
}

void State::legalActions(ActionList& out) const {
    out.clear();
    switch (phase_) {
        case Phase::KeepAmbition:
            for (int p = 0; p < rules_->players(); ++p) {
                if (ambitionKept_[p] != AmbitionCard::Unknown) continue;
                for (auto c : ambitionDealt_[p])
                    out.push(Action::keep(PlayerId{static_cast<std::uint8_t>(p)}, c));
            }
            break;
        case Phase::Placement:
            addLegalPlacements(out);
            break;
        case Phase::Ascent:
            addLegalMoves(out);
            if (out.empty()) out.push(Action::pass(toAct_));
            break;
        case Phase::Election:
            for (int s = 0; s < rules_->seats(); ++s) {
                if (votes_[s] != VoteCard::Unknown) continue;
                for (auto c : {VoteCard::Yes, VoteCard::No, VoteCard::Stomachache})
                    if (hands_[s].holds(c)) out.push(Action::vote(Seat{static_cast<std::uint8_t>(s)}, c));
            }
            break;
        case Phase::AwaitDeal:
        case Phase::AwaitReshuffle:
        case Phase::GameOver:
            break;
    }
}

std::vector<Seat> State::toAct() const {
    std::vector<Seat> seats;
    switch (phase_) {
        case Phase::Placement:
        case Phase::Ascent:
            seats.push_back(toAct_);
            break;
        case Phase::Election:
            for (int s = 0; s < rules_->seats(); ++s)
                if (votes_[s] == VoteCard::Unknown) seats.push_back(Seat{static_cast<std::uint8_t>(s)});
            break;
        case Phase::KeepAmbition:
            for (int s = 0; s < rules_->seats(); ++s) {
                Seat seat{static_cast<std::uint8_t>(s)};
                for (int i = 0; i < rules_->playersAt(seat); ++i)
                    if (ambitionKept_[rules_->playerAt(seat, i).index] == AmbitionCard::Unknown) {
                        seats.push_back(seat);
                        break;
                    }
            }
            break;
        case Phase::AwaitDeal:
        case Phase::AwaitReshuffle:
        case Phase::GameOver:
            break;
    }
    return seats;
}

std::optional<VoteCard> State::voteOf(Seat s) const {
    if (s.index >= rules_->seats() || votes_[s.index] == VoteCard::Unknown) return std::nullopt;
    return votes_[s.index];
}

std::vector<VoteCard> State::emissaryPile() const {
    return {emissaryPile_.begin(), emissaryPile_.begin() + emissaryPileSize_};
}

std::vector<int> State::totals() const { return {totals_.begin(), totals_.begin() + rules_->players()}; }

bool operator==(const State& a, const State& b) {
    auto fields = [](const State& s) {
        return std::tie(s.characters_, s.phase_, s.round_, s.first_, s.toAct_, s.placed_, s.passesInRow_,
                        s.place_, s.count_, s.favourites_, s.ambitionDealt_, s.ambitionKept_, s.hands_,
                        s.totals_, s.favouritesRevealed_, s.emissaryFavourites_, s.emissaryPile_,
                        s.emissaryPileSize_, s.emissaryTotal_, s.candidate_, s.crown_, s.votes_, s.votesIn_,
                        s.rejections_, s.firstKing_, s.firstKingMover_, s.lastReveal_, s.current_,
                        s.history_);
    };
    bool sameRules = a.rules_ == b.rules_ || a.rules_->spec() == b.rules_->spec();
    return sameRules && fields(a) == fields(b);
}

}  // namespace vivaref::engine
