// Plays a game to its end at random: chance from randomDeal and
// randomReshuffle, each decision a uniformly random legal action
// (engine/chance.hpp). The observer sees every step, so the benchmark and
// random-record share one loop.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "engine/chance.hpp"
#include "engine/state.hpp"

namespace vivaref::daemon {

// A game longer than this has stalled: every round ends (RULES §3), and
// does so in well under a thousand actions.
inline constexpr std::int64_t kMaxActionsPerGame = 100'000;

// Observer: bool deal(const Deal&), bool reshuffle(const Reshuffle&),
// bool action(const Action&), each called before the step is applied and
// returning false to stop there. Returns what went wrong with the engine's
// own random choices (a refusal of them, or a stall), or nothing.
template <class Observer>
std::optional<std::string> playRandomly(engine::State& state, engine::Rng& rng, Observer& observer) {
    std::int64_t actions = 0;
    while (!state.isOver()) {
        std::optional<engine::Refusal> refusal;
        if (state.phase() == engine::Phase::AwaitDeal) {
            engine::Deal deal = engine::randomDeal(state, rng);
            if (!observer.deal(deal)) return std::nullopt;
            refusal = state.apply(deal);
        } else if (state.phase() == engine::Phase::AwaitReshuffle) {
            engine::Reshuffle reshuffle = engine::randomReshuffle(state, rng);
            if (!observer.reshuffle(reshuffle)) return std::nullopt;
            refusal = state.apply(reshuffle);
        } else {
            engine::Action action = engine::randomAction(state, rng);
            if (!observer.action(action)) return std::nullopt;
            refusal = state.apply(action);
            if (++actions > kMaxActionsPerGame)
                return "the game did not end after " + std::to_string(kMaxActionsPerGame) + " actions";
        }
        if (refusal)
            return "the engine refused its own random choice in round " + std::to_string(state.round()) +
                   ": " + std::string(engine::refusalCodeName(refusal->code)) + " (" + refusal->message + ")";
    }
    return std::nullopt;
}

}  // namespace vivaref::daemon
