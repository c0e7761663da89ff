#include "engine/players/player.hpp"

namespace vivaref::engine::players {

Seat nextToDecide(const State& state) {
    if (state.phase() == Phase::Placement || state.phase() == Phase::Ascent) return state.seatToAct();
    const auto waiting = state.toAct();
    return waiting.empty() ? Seat{} : waiting.front();
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
    while (state.awaitsChance()) {
        // The engine's own random chance is always accepted (random play checks it).
        if (state.phase() == Phase::AwaitDeal)
            state.applyDeal(randomDeal(state, rng));
        else
            state.applyReshuffle(randomReshuffle(state, rng));
    }
}

}  // namespace vivaref::engine::players
