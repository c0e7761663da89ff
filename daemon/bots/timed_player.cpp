#include "daemon/bots/timed_player.hpp"

namespace vivaref::daemon::bots {

using Clock = std::chrono::steady_clock;

TimedSearchPlayer::TimedSearchPlayer(std::chrono::milliseconds think, std::int64_t maxIterations,
                                     bool counter)
    : think_(think), maxIterations_(maxIterations) {
    if (counter) {
        counter_ = InstructionCounter::open(counterProblem_);
        if (counter_) totals_.instructions = 0;
    }
}

std::string TimedSearchPlayer::name() const {
    return think_.count() > 0 ? "search " + std::to_string(think_.count()) + " ms"
                              : "search " + std::to_string(maxIterations_);
}

engine::Action TimedSearchPlayer::choose(const engine::State& state, engine::Seat seat, engine::Rng& rng) {
    const auto start = Clock::now();
    const auto deadline = start + think_;
    engine::players::SearchBudget budget;
    budget.iterations = maxIterations_;
    if (think_.count() > 0) budget.stop = [deadline] { return Clock::now() >= deadline; };
    const std::uint64_t before = counter_ ? counter_->read() : 0;
    engine::players::SearchReport report;
    const engine::Action chosen = search_.search(state, seat, rng, budget, &report);
    if (counter_) *totals_.instructions += counter_->read() - before;
    totals_.seconds += std::chrono::duration<double>(Clock::now() - start).count();
    ++totals_.decisions;
    totals_.searched += report.iterations > 0;
    totals_.iterations += report.iterations;
    totals_.simulatedActions += report.simulatedActions;
    return chosen;
}

}  // namespace vivaref::daemon::bots
