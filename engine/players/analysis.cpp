#include "engine/players/analysis.hpp"

#include <algorithm>

#include "engine/players/analysis_job.hpp"
#include "engine/players/search_player.hpp"

namespace vivaref::engine::players {

OutcomeTally::OutcomeTally(int players) {
    sums_.expectedScore.assign(static_cast<std::size_t>(players), 0.0);
    sums_.winChance.assign(static_cast<std::size_t>(players), 0.0);
}

void OutcomeTally::playOne(const State& from, Rng& rng) {
    State world = from;
    playOut(world, rng);
    const auto totals = world.totals();
    for (std::size_t p = 0; p < sums_.expectedScore.size(); ++p) sums_.expectedScore[p] += totals[p];
    const auto winners = world.winners();
    if (winners.empty()) sums_.emissaryWins += 1;
    for (auto w : winners) sums_.winChance[w.index] += 1.0 / static_cast<double>(winners.size());
    ++played_;
}

OutcomeEstimate OutcomeTally::estimate() const {
    OutcomeEstimate out = sums_;
    const double n = std::max(1, played_);
    for (auto& v : out.expectedScore) v /= n;
    for (auto& v : out.winChance) v /= n;
    out.emissaryWins /= n;
    return out;
}

OutcomeEstimate estimateOutcome(const State& state, int rollouts, Rng& rng) {
    OutcomeTally tally(state.rules().players());
    for (int i = 0; i < std::max(1, rollouts); ++i) tally.playOne(state, rng);
    return tally.estimate();
}

GameAnalysis analyseGame(const State& initial, const std::vector<Decision>& decisions,
                         const AnalysisSettings& settings, Rng& rng) {
    AnalysisJob job(initial, decisions, settings, rng, std::max(1, settings.rollouts));
    while (job.step()) {
    }
    rng = job.rng();
    return job.result();
}

}  // namespace vivaref::engine::players
