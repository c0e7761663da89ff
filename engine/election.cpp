// Elections (RULES §3.4) and the Emissary's vote (RULES §6): votes are
// secret until the last one is in, then revealed together and resolved.
#include "engine/state.hpp"

namespace vivaref::engine {

std::optional<Refusal> State::checkVote(const Action& a) const {
    if (phase_ != Phase::Election)
        return refuse(RefusalCode::WrongPhase,
                      Message(phase_ == Phase::GameOver ? "refusal.game-over" : "refusal.no-election"));
    Seat s = a.seat();
    if (s.index >= rules_->seats()) return refuse(RefusalCode::UnknownSeat, Message("refusal.no-such-seat"));
    if (votes_[s.index] != VoteCard::Unknown)
        return refuse(RefusalCode::AlreadyVoted, Message("refusal.already-voted", {{"seat", say::seat(s)}}));
    if (a.card() >= VoteCard::Unknown)
        return refuse(RefusalCode::UnknownCard, Message("refusal.no-such-vote"));
    if (!hands_[s.index].holds(a.card()))
        return refuse(RefusalCode::CardNotHeld,
                      Message("refusal.vote-not-held", {{"card", say::vote(a.card())}}));
    return std::nullopt;
}

bool State::isLegalVote(const Action& a) const {
    const Seat s = a.seat();
    return phase_ == Phase::Election && s.index < rules_->seats() && votes_[s.index] == VoteCard::Unknown &&
           a.card() < VoteCard::Unknown && hands_[s.index].holds(a.card());
}

void State::doVote(const Action& a, EventList* ev) {
    votes_[a.seat().index] = a.card();
    ++votesIn_;
    if (ev) ev->push(Event{.kind = EventKind::VoteCast, .seat = a.seat(), .round = round_});
    if (votesIn_ == rules_->seats()) resolveElection(ev);
}

void State::resolveElection(EventList* ev) {
    Reveal& reveal = lastReveal_.emplace();  // filled in place: it is the state's last reveal
    reveal.candidate = candidate_;
    reveal.crown = crown_;
    reveal.votes = votes_;
    ElectionCards cards = spendVotes();
    if (rules_->hasEmissary()) revealEmissaryVote(reveal, cards);
    const CharacterId c = candidate_;
    decideOutcome(c, reveal, cards);
    if (ev)
        ev->push(Event{.kind = EventKind::VotesRevealed, .seat = crown_, .character = c, .round = round_});
    votes_.fill(VoteCard::Unknown);
    votesIn_ = 0;
    if (reveal.outcome != ElectionOutcome::Crowned)
        sendCandidateAway(c, reveal, cards.emissaryRevealedYes, ev);
    else
        crownCandidate(c, cards.emissaryRevealedYes, ev);
}

State::ElectionCards State::spendVotes() {
    ElectionCards cards;
    for (int s = 0; s < rules_->seats(); ++s) {
        // Every No and Stomachache played is lost; a Yes goes back to its
        // player. Counted without branches: the votes are the players' secret.
        const bool no = votes_[s] == VoteCard::No;
        const bool stomachache = votes_[s] == VoteCard::Stomachache;
        hands_[s].no = static_cast<std::uint8_t>(hands_[s].no - no);
        hands_[s].stomachache = static_cast<std::uint8_t>(hands_[s].stomachache - stomachache);
        cards.anyNo |= no;
        cards.anyStomachache |= stomachache;
    }
    return cards;
}

void State::revealEmissaryVote(Reveal& reveal, ElectionCards& cards) {
    // RULES §6: a favourite of the Emissary gets its Yes without a draw;
    // otherwise its pile's top card is revealed and counts.
    if (emissaryFavourites_.counts(candidate_)) {
        reveal.emissaryVote = VoteCard::Yes;
        return;
    }
    VoteCard top = emissaryPile_[0];
    reveal.emissaryVote = top;
    reveal.emissaryDrew = true;
    if (top == VoteCard::Yes) {
        cards.emissaryRevealedYes = true;  // back into the pile, to be reshuffled
        return;
    }
    for (int i = 1; i < emissaryPileSize_; ++i) emissaryPile_[i - 1] = emissaryPile_[i];
    emissaryPile_[--emissaryPileSize_] = VoteCard::Unknown;
    cards.anyNo |= top == VoteCard::No;
    cards.anyStomachache |= top == VoteCard::Stomachache;
}

void State::decideOutcome(CharacterId c, Reveal& reveal, const ElectionCards& cards) {
    if (rules_->is2024() && cards.anyStomachache) {
        reveal.outcome = ElectionOutcome::Cancelled;
        reveal.sentTo = Place::Floor5;
    } else if (cards.anyNo && !rules_->is2024()) {
        reveal.outcome = ElectionOutcome::Eliminated;
        reveal.sentTo = Place::Box;
    } else if (cards.anyNo) {
        reveal.outcome = ElectionOutcome::Rejected;
        if (rules_->roster().isJester(c)) {
            // The Jester goes to no dungeon: back to floor 2, else 1, else 0.
            const int limit = rules_->floorLimit();
            reveal.sentTo = count_[2] < limit   ? Place::Floor2
                            : count_[1] < limit ? Place::Floor1
                                                : Place::Floor0;
        } else {
            static constexpr Place kDungeonOrder[] = {Place::Dungeon3, Place::Dungeon2, Place::Dungeon1};
            reveal.sentTo = rejections_ < 3 ? kDungeonOrder[rejections_] : Place::Box;
            ++rejections_;
        }
    } else {
        reveal.outcome = ElectionOutcome::Crowned;
        reveal.sentTo = Place::Throne;
    }
}

void State::sendCandidateAway(CharacterId c, const Reveal& reveal, bool emissaryRevealedYes, EventList* ev) {
    static constexpr EventKind kKinds[] = {EventKind::Crowned, EventKind::Eliminated, EventKind::Rejected,
                                           EventKind::Cancelled};
    putCharacter(c, reveal.sentTo);
    if (ev)
        ev->push(Event{.kind = kKinds[static_cast<int>(reveal.outcome)],
                       .seat = crown_,
                       .character = c,
                       .from = Place::Throne,
                       .to = reveal.sentTo,
                       .round = round_});
    continueAfterElection(emissaryRevealedYes);
}

void State::crownCandidate(CharacterId c, bool emissaryRevealedYes, EventList* ev) {
    if (ev)
        ev->push(Event{.kind = EventKind::Crowned,
                       .seat = crown_,
                       .character = c,
                       .from = Place::Throne,
                       .to = Place::Throne,
                       .round = round_});
    const bool firstOfCouple = rules_->isRoyalCouple() && current_.kings.empty();
    scoreCoronation(ev);
    if (!firstOfCouple) {
        endRound(crown_, ev);
        return;
    }
    // RULES §6 royal couple: the first King waits beside the throne, the
    // cards stay face up, and play goes on with the next seat.
    firstKing_ = c;
    firstKingMover_ = crown_;
    favouritesRevealed_ = true;
    putCharacter(c, Place::BesideThrone);
    continueAfterElection(emissaryRevealedYes);
}

void State::continueAfterElection(bool emissaryRevealedYes) {
    candidate_ = CharacterId{};
    passesInRow_ = 0;
    // Play goes on with the seat after the crown holder; after a revealed Yes
    // the Emissary's pile is reshuffled first.
    phase_ = emissaryRevealedYes ? Phase::AwaitReshuffle : Phase::Ascent;
    toAct_ = rules_->nextSeat(crown_);
}

}  // namespace vivaref::engine
