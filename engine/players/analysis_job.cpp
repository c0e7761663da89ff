#include "engine/players/analysis_job.hpp"

#include <algorithm>
#include <cmath>

namespace vivaref::engine::players {

namespace {

// The seat's chance to win: its first player's (teammates win together).
double seatChance(const State& state, const OutcomeEstimate& e, Seat seat) {
    return e.winChance[state.rules().playerAt(seat, 0).index];
}

Seat actorOf(const State& state, const Action& a) {
    return a.kind() == ActionKind::Keep ? state.rules().seatOf(a.player()) : a.seat();
}

}  // namespace

AnalysisJob::AnalysisJob(const State& initial, std::vector<Decision> decisions, AnalysisSettings settings,
                         Rng rng, int rolloutsPerStep)
    : state_(initial),
      decisions_(std::move(decisions)),
      settings_(settings),
      rng_(rng),
      rolloutsPerStep_(std::max(1, rolloutsPerStep)),
      search_(SearchSettings{SearchBudget{settings.iterations, {}}}) {
    startTally(initial.rules().players());
}

double AnalysisJob::progress() const {
    if (done()) return 1.0;
    return static_cast<double>(next_) / static_cast<double>(decisions_.size() + 1);
}

void AnalysisJob::startTally(int players) { tally_ = OutcomeTally(players); }

// estimateOutcome's loop, in pieces: the same draws in the same order, the
// same sums, so the estimate is the same to the last bit.
bool AnalysisJob::rollSome(const State& from, Rng& rng) {
    const int total = std::max(1, settings_.rollouts);
    for (int i = 0; i < rolloutsPerStep_ && tally_.played() < total; ++i) tally_.playOne(from, rng);
    return tally_.played() >= total;
}

bool AnalysisJob::step() {
    switch (phase_) {
        case Phase::Before:
            if (rollSome(state_, rng_)) {
                out_.before = tally_.estimate();
                phase_ = Phase::Apply;
            }
            break;
        case Phase::Apply:
            applyNext();
            break;
        case Phase::After:
            if (rollSome(*after_, rollouts_)) {
                analysed_.after = tally_.estimate();
                const auto& before = out_.decisions.empty() ? out_.before : out_.decisions.back().after;
                for (std::size_t p = 0; p < analysed_.after.winChance.size(); ++p)
                    analysed_.swing = std::max(analysed_.swing,
                                               std::abs(analysed_.after.winChance[p] - before.winChance[p]));
                const auto* action = std::get_if<Action>(&decisions_[next_]);
                phase_ = Phase::Search;
                // A pass, or an Ambition card changed before the first
                // placement (no choice the search player weighs): no review.
                const bool change = action && action->kind() == ActionKind::Keep &&
                                    state_.phase() != engine::Phase::KeepAmbition;
                if (!action || action->kind() == ActionKind::Pass || change) {
                    finishDecision();
                } else {
                    ActionList legal;
                    legalActionsOf(state_, actorOf(state_, *action), legal);
                    if (legal.size() <= 1) finishDecision();
                }
            }
            break;
        case Phase::Search: {
            // What the search player would have chosen from what this seat
            // knew (it sees the game through sampleWorld), and what each
            // choice was worth with every card known.
            const auto& action = std::get<Action>(decisions_[next_]);
            const Seat seat = actorOf(state_, action);
            DecisionReview review{seat, search_.search(state_, seat, rng_, search_.settings().budget), 0, 0};
            review.playedChance = seatChance(state_, analysed_.after, seat);
            review.preferredChance = review.playedChance;
            analysed_.review = review;
            if (review.preferred == action) {
                finishDecision();
            } else {
                alternative_ = state_;
                alternative_->apply(review.preferred);
                rollouts_ = Rng(stream_);  // the same stream as the choice played
                startTally(state_.rules().players());
                phase_ = Phase::Alternative;
            }
            break;
        }
        case Phase::Alternative:
            if (rollSome(*alternative_, rollouts_)) {
                analysed_.review->preferredChance =
                    seatChance(state_, tally_.estimate(), analysed_.review->seat);
                finishDecision();
            }
            break;
        case Phase::Done:
            return false;
    }
    return !done();
}

void AnalysisJob::applyNext() {
    if (next_ >= decisions_.size()) return finish();
    const auto& d = decisions_[next_];
    after_ = state_;
    // A decision the state refuses ends the analysis there.
    if (after_->apply(d)) return finish();
    analysed_ = AnalysedDecision{};
    // The same rollout stream for the choice played and the preferred one
    // (common random numbers): their difference is then far less noisy
    // than two independent estimates.
    stream_ = rng_.next();
    rollouts_ = Rng(stream_);
    startTally(state_.rules().players());
    phase_ = Phase::After;
}

void AnalysisJob::finishDecision() {
    out_.decisions.push_back(std::move(analysed_));
    analysed_ = AnalysedDecision{};
    state_ = std::move(*after_);
    after_.reset();
    alternative_.reset();
    ++next_;
    phase_ = Phase::Apply;
}

void AnalysisJob::finish() {
    std::vector<int> order(out_.decisions.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
    std::stable_sort(order.begin(), order.end(), [&](int x, int y) {
        return out_.decisions[static_cast<std::size_t>(x)].swing >
               out_.decisions[static_cast<std::size_t>(y)].swing;
    });
    order.resize(std::min<std::size_t>(3, order.size()));
    out_.swings = std::move(order);
    after_.reset();
    phase_ = Phase::Done;
}

}  // namespace vivaref::engine::players
