// The analysis of a finished game (analysis.hpp) in bounded pieces, so that
// a daemon can run it in the gaps of a game in progress: each step() does at
// most `rolloutsPerStep` rollouts, or one search of the search player, and
// returns. The job holds no clock: how many steps to take, and when, is the
// caller's. Run to the end, it gives exactly analyseGame's result for the
// same generator (analyseGame is this job run at once).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "engine/players/analysis.hpp"
#include "engine/players/search_player.hpp"

namespace vivaref::engine::players {

class AnalysisJob {
public:
    // The job draws from its own copy of `rng`; rng() hands it back.
    AnalysisJob(const State& initial, std::vector<Decision> decisions, AnalysisSettings settings, Rng rng,
                int rolloutsPerStep = 10);

    // One bounded piece of the work. False once the analysis is complete
    // (then, and only then, result() is whole).
    bool step();
    bool done() const { return phase_ == Phase::Done; }
    // The share of the work done, 0..1, by decisions analysed.
    double progress() const;
    const GameAnalysis& result() const { return out_; }
    const Rng& rng() const { return rng_; }
    std::size_t decisionCount() const { return decisions_.size(); }

private:
    enum class Phase { Before, Apply, After, Search, Alternative, Done };
    void startTally(int players);
    // Up to rolloutsPerStep more rollouts from `from`; true once the estimate is whole.
    bool rollSome(const State& from, Rng& rng);
    void applyNext();
    void finishDecision();
    void finish();

    State state_;  // the position before decision `next_`
    std::vector<Decision> decisions_;
    AnalysisSettings settings_;
    Rng rng_;
    int rolloutsPerStep_;
    SearchPlayer search_;
    GameAnalysis out_;
    Phase phase_ = Phase::Before;
    std::size_t next_ = 0;
    // The decision under way.
    std::optional<State> after_;
    std::optional<State> alternative_;
    AnalysedDecision analysed_;
    Rng rollouts_{0};
    std::uint64_t stream_ = 0;
    OutcomeTally tally_;  // the rollouts of the estimate under way
};

}  // namespace vivaref::engine::players
