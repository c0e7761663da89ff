#include "engine/players/random_player.hpp"

namespace vivaref::engine::players {

Action RandomPlayer::choose(const State& state, Seat seat, Rng& rng) {
    ActionList legal;
    legalActionsOf(state, seat, legal);
    return legal[static_cast<int>(rng.below(static_cast<std::uint32_t>(legal.size())))];
}

Decision randomDecision(const State& state, Rng& rng) {
    switch (state.awaits().value_or(DecisionKind::Action)) {
        case DecisionKind::Deal:
            return randomDeal(state, rng);
        case DecisionKind::Reshuffle:
            return randomReshuffle(state, rng);
        case DecisionKind::Action:
            break;
    }
    return randomAction(state, rng);
}

std::string randomDecisionRefused(const State& state, const Refusal& refusal) {
    return "the engine refused its own random choice in round " + std::to_string(state.round()) + ": " +
           std::string(refusalCodeName(refusal.code)) + " (" + describe(refusal.message) + ")";
}

std::string randomPlayStalled() {
    return "the game did not end after " + std::to_string(kMaxRandomActions) + " actions";
}

std::optional<std::string> playRandomly(State& state, Rng& rng, std::int64_t* actions) {
    std::int64_t played = 0;
    while (!state.isOver()) {
        if (state.phase() == Phase::AwaitDeal) {
            playRandomDeal(state, rng);
            continue;
        }
        if (state.phase() == Phase::AwaitReshuffle) {
            if (auto refusal = state.apply(randomReshuffle(state, rng)))
                return randomDecisionRefused(state, *refusal);
            continue;
        }
        playRandomAction(state, rng);
        if (++played > kMaxRandomActions) return randomPlayStalled();
    }
    if (actions) *actions += played;
    return std::nullopt;
}

}  // namespace vivaref::engine::players
