// Random play, the yardstick at the bottom: chance drawn by randomDeal and
// randomReshuffle, each choice a uniformly random legal action
// (engine/chance.hpp). With an observer every decision is drawn, shown and
// applied through State::apply with all its checks; without one (vivaref
// bench) the same draws go through the one-call steps playRandomAction and
// playRandomDeal, which the engine's tests hold equal to the checked path
// step by step. The random player for one seat; randomDecision for whatever
// the state awaits; and playRandomly, the one loop that plays a game out at
// random for `vivaref bench`, `vivaref random-record`, the tests' random
// games and their random play with invariants. The search player's
// playouts vote as a casual player instead (playOut, player.hpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>

#include "engine/players/player.hpp"

namespace vivaref::engine::players {

class RandomPlayer : public Player {
public:
    Action choose(const State& state, Seat seat, Rng& rng) override;
    std::string name() const override { return "random"; }
};

// The decision the state awaits, at random: a deal, a reshuffle, or any
// seat's legal action (randomAction). The game must not be over.
Decision randomDecision(const State& state, Rng& rng);

// A game longer than this has stalled: every round ends (RULES §3), and
// does so in well under a thousand actions.
inline constexpr std::int64_t kMaxRandomActions = 100'000;

// Why random play went wrong: the engine refused its own random decision.
std::string randomDecisionRefused(const State& state, const Refusal& refusal);
std::string randomPlayStalled();

// playRandomly's step: applies `d` (an Action or a Decision) and shows the
// observer the events when it has a member `applied`.
template <class D, class Observer>
std::optional<Refusal> applyObserved(State& state, const D& d, Observer& observer) {
    if constexpr (requires(const EventList& events) { observer.applied(std::as_const(state), events); }) {
        EventList events;
        auto refusal = state.apply(d, &events);
        if (!refusal) observer.applied(std::as_const(state), events);
        return refusal;
    } else {
        return state.apply(d);
    }
}

// Plays `state` to its end at random. The observer is called as
// `observer.drawn(state, decision)` before each decision is applied and
// returns false to stop there; with a member `applied(state, events)` it
// also sees the state after each decision and the events it caused.
// Returns what went wrong with the engine's own random decisions (a
// refusal of one, or a stall), or nothing.
template <class Observer>
std::optional<std::string> playRandomly(State& state, Rng& rng, Observer& observer) {
    std::int64_t actions = 0;
    while (!state.isOver()) {
        std::optional<Refusal> refusal;
        if (state.awaits() == DecisionKind::Action) {
            // A player's action, the common case, is drawn and applied as an
            // Action: the same draw as randomDecision's, without a Decision
            // variant to build and destroy (an observer that takes only a
            // Decision still gets one).
            const Action action = randomAction(state, rng);
            if (!observer.drawn(std::as_const(state), action)) return std::nullopt;
            refusal = applyObserved(state, action, observer);
            if (++actions > kMaxRandomActions) return randomPlayStalled();
        } else {
            const Decision decision = randomDecision(state, rng);
            if (!observer.drawn(std::as_const(state), decision)) return std::nullopt;
            refusal = applyObserved(state, decision, observer);
        }
        if (refusal) return randomDecisionRefused(state, *refusal);
    }
    return std::nullopt;
}

// Plays `state` to its end at random, seeing nothing of it: the same game
// as with an observer, each player's action drawn and applied in one call
// (playRandomAction) instead of drawn, shown and then checked. Adds the
// players' actions to `actions` when given (vivaref bench).
std::optional<std::string> playRandomly(State& state, Rng& rng, std::int64_t* actions = nullptr);

}  // namespace vivaref::engine::players
