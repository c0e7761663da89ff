// The search player on a clock, for the bench and the table's bots. The
// engine's SearchPlayer is pure (an iteration budget and a stop callback):
// here the callback reads the steady clock, so each decision thinks for
// `think` (or stops at `maxIterations`), and the player adds up what its
// searches did: iterations, actions simulated, time, and instructions when
// the machine can count them.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

#include "daemon/bots/instruction_counter.hpp"
#include "engine/players/search_player.hpp"

namespace vivaref::daemon::bots {

struct SearchTotals {
    std::int64_t decisions = 0;  // asked for
    std::int64_t searched = 0;   // of those, with more than one legal action
    std::int64_t iterations = 0;
    std::int64_t simulatedActions = 0;
    double seconds = 0;                         // thinking, wall clock
    std::optional<std::uint64_t> instructions;  // thinking, user space, when counted
};

class TimedSearchPlayer : public engine::players::Player {
public:
    // `counter`: count instructions too (when the machine allows).
    TimedSearchPlayer(std::chrono::milliseconds think, std::int64_t maxIterations, bool counter = false);
    engine::Action choose(const engine::State& state, engine::Seat seat, engine::Rng& rng) override;
    std::string name() const override;

    const SearchTotals& totals() const { return totals_; }
    // Why instructions are not counted (empty when they are or were not asked for).
    const std::string& counterProblem() const { return counterProblem_; }

private:
    engine::players::SearchPlayer search_;
    std::chrono::milliseconds think_;
    std::int64_t maxIterations_;
    std::optional<InstructionCounter> counter_;
    std::string counterProblem_;
    SearchTotals totals_;
};

}  // namespace vivaref::daemon::bots
