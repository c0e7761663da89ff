#include "engine/players/player.hpp"

#include "engine/players/heuristic_player.hpp"
#include "engine/players/random_player.hpp"

namespace vivaref::engine::players {

Seat nextToDecide(const State& state) {
    if (state.phase() == Phase::Placement || state.phase() == Phase::Ascent) return state.seatToAct();
    // The first of state.toAct(), without building the list: playouts ask at every vote.
    const Rules& rules = state.rules();
    for (int i = 0; i < rules.seats(); ++i) {
        const Seat s{static_cast<std::uint8_t>(i)};
        if (state.phase() == Phase::Election && !state.hasVoted(s)) return s;
        if (state.phase() == Phase::KeepAmbition)
            for (int k = 0; k < rules.playersAt(s); ++k)
                if (state.keptAmbition(rules.playerAt(s, k)) == AmbitionCard::Unknown) return s;
    }
    return Seat{};
}

void legalActionsOf(const State& state, Seat seat, ActionList& out) {
    ActionList all;
    state.legalActions(all);
    out.clear();
    for (const auto& a : all) {
        const Seat actor = a.kind() == ActionKind::Keep ? state.rules().seatOf(a.player()) : a.seat();
        if (actor == seat) out.push(a);
    }
}

void resolveChance(State& state, Rng& rng) {
    // The engine's own random chance is always accepted (random play checks
    // it): a deal is started without a second check.
    while (state.awaitsChance()) {
        if (state.phase() == Phase::AwaitDeal)
            playRandomDeal(state, rng);
        else
            state.apply(randomDecision(state, rng));
    }
}

namespace {

// A game played out at random cannot take longer (random play shows every
// round ends in well under a thousand actions).
constexpr int kMaxPlayoutActions = 20'000;

}  // namespace

int playOut(State& state, Rng& rng, bool casualVotes) {
    int played = 0;
    for (; played < kMaxPlayoutActions; ++played) {
        resolveChance(state, rng);
        if (state.isOver()) break;
        // Random votes would make every election a coin toss, which no
        // table plays like.
        bool voted = false;
        if (casualVotes && state.phase() == Phase::Election) {
            const Seat voter = nextToDecide(state);
            voted = !state.apply(Action::vote(voter, casualVote(state, voter)));  // no refusal
        }
        if (!voted) playRandomAction(state, rng);  // drawn legal: applied without a second check
    }
    return played;
}

}  // namespace vivaref::engine::players
