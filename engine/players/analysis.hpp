// The analysis of a finished game (`vivaref analyse`): after every decision,
// each player's expected final score and chance to win, estimated by
// rollouts from the true position with every card known (the search
// player's playouts: moves and chance at random, votes as a casual player
// casts them); the decisions that swung the game most; and for each
// player's decision the search player's preference, from what that player
// knew then, and what it would have been worth. Pure, like the rest of the
// engine: the budgets are inputs.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "engine/players/player.hpp"

namespace vivaref::engine::players {

struct AnalysisSettings {
    int rollouts = 200;              // games played out for each estimate
    std::int64_t iterations = 2000;  // the search player's, for each preference
    // How much a choice must be worth more than the one played for the
    // preference to be reported as a better choice (chance to win, 0..1).
    double worthTelling = 0.03;
};

struct OutcomeEstimate {
    std::vector<double> expectedScore;  // by player: the mean final total
    std::vector<double> winChance;      // by player: 1 a win, shared on a tie
    double emissaryWins = 0;            // the share of games the Emissary won
};

// The sums of games played out from one position, one game at a time.
class OutcomeTally {
public:
    explicit OutcomeTally(int players = 0);
    // Plays one game out from `from` (every card as it is) and adds its result.
    void playOne(const State& from, Rng& rng);
    int played() const { return played_; }
    // The means over `played()` games.
    OutcomeEstimate estimate() const;

private:
    OutcomeEstimate sums_;
    int played_ = 0;
};

// `rollouts` games played out from `state` (every card as it is).
OutcomeEstimate estimateOutcome(const State& state, int rollouts, Rng& rng);

struct DecisionReview {
    Seat seat;
    Action preferred;            // the search player's choice from that position
    double playedChance = 0;     // the seat's chance to win after the decision played...
    double preferredChance = 0;  // ...and after the preferred one (every card known)
    double gain() const { return preferredChance - playedChance; }
};

struct AnalysedDecision {
    OutcomeEstimate after;
    // A player's choice (not chance, not a pass the seat was forced to):
    std::optional<DecisionReview> review;
    // The largest change of any player's chance to win since the estimate before.
    double swing = 0;
};

struct GameAnalysis {
    OutcomeEstimate before;                   // after the setup, before the first decision
    std::vector<AnalysedDecision> decisions;  // one per decision, in order
    std::vector<int> swings;                  // the three decisions that swung the game most, largest first
};

// Plays `decisions` from `initial`. A decision the state refuses stops the
// analysis there (the decisions analysed so far are returned). The whole
// analysis at once: AnalysisJob (analysis_job.hpp) run to its end.
GameAnalysis analyseGame(const State& initial, const std::vector<Decision>& decisions,
                         const AnalysisSettings& settings, Rng& rng);

}  // namespace vivaref::engine::players
