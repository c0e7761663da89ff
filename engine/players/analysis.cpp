#include "engine/players/analysis.hpp"

#include <algorithm>
#include <cmath>

#include "engine/players/search_player.hpp"

namespace vivaref::engine::players {

OutcomeEstimate estimateOutcome(const State& state, int rollouts, Rng& rng) {
    const int players = state.rules().players();
    OutcomeEstimate out;
    out.expectedScore.assign(static_cast<std::size_t>(players), 0.0);
    out.winChance.assign(static_cast<std::size_t>(players), 0.0);
    const int n = std::max(1, rollouts);
    for (int i = 0; i < n; ++i) {
        State world = state;
        playOut(world, rng);
        const auto totals = world.totals();
        for (int p = 0; p < players; ++p)
            out.expectedScore[static_cast<std::size_t>(p)] += totals[static_cast<std::size_t>(p)];
        const auto winners = world.winners();
        if (winners.empty()) out.emissaryWins += 1;
        for (auto w : winners) out.winChance[w.index] += 1.0 / static_cast<double>(winners.size());
    }
    for (auto& v : out.expectedScore) v /= n;
    for (auto& v : out.winChance) v /= n;
    out.emissaryWins /= n;
    return out;
}

namespace {

// The seat's chance to win: its first player's (teammates win together).
double seatChance(const State& state, const OutcomeEstimate& e, Seat seat) {
    return e.winChance[state.rules().playerAt(seat, 0).index];
}

Seat actorOf(const State& state, const Action& a) {
    return a.kind() == ActionKind::Keep ? state.rules().seatOf(a.player()) : a.seat();
}

}  // namespace

GameAnalysis analyseGame(const State& initial, const std::vector<Decision>& decisions,
                         const AnalysisSettings& settings, Rng& rng) {
    GameAnalysis out;
    State state = initial;
    out.before = estimateOutcome(state, settings.rollouts, rng);
    SearchPlayer search(SearchSettings{SearchBudget{settings.iterations, {}}});
    for (const auto& d : decisions) {
        AnalysedDecision analysed;
        State after = state;
        if (after.apply(d)) break;
        const auto* action = std::get_if<Action>(&d);
        // The same rollout stream for the choice played and the preferred
        // one (common random numbers): their difference is then far less
        // noisy than two independent estimates.
        const std::uint64_t stream = rng.next();
        Rng rollouts(stream);
        analysed.after = estimateOutcome(after, settings.rollouts, rollouts);
        const auto& before = out.decisions.empty() ? out.before : out.decisions.back().after;
        for (std::size_t p = 0; p < analysed.after.winChance.size(); ++p)
            analysed.swing = std::max(analysed.swing, std::abs(analysed.after.winChance[p] - before.winChance[p]));
        if (action && action->kind() != ActionKind::Pass) {
            // What the search player would have chosen from what this seat
            // knew (it sees the game through sampleWorld), and what each
            // choice was worth with every card known.
            const Seat seat = actorOf(state, *action);
            ActionList legal;
            legalActionsOf(state, seat, legal);
            if (legal.size() > 1) {
                DecisionReview review{seat, search.search(state, seat, rng, search.settings().budget), 0, 0};
                review.playedChance = seatChance(state, analysed.after, seat);
                review.preferredChance = review.playedChance;
                if (!(review.preferred == *action)) {
                    State alternative = state;
                    alternative.apply(review.preferred);
                    Rng same(stream);
                    review.preferredChance =
                        seatChance(state, estimateOutcome(alternative, settings.rollouts, same), seat);
                }
                analysed.review = review;
            }
        }
        out.decisions.push_back(std::move(analysed));
        state = std::move(after);
    }
    std::vector<int> order(out.decisions.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
    std::stable_sort(order.begin(), order.end(), [&](int x, int y) {
        return out.decisions[static_cast<std::size_t>(x)].swing > out.decisions[static_cast<std::size_t>(y)].swing;
    });
    order.resize(std::min<std::size_t>(3, order.size()));
    out.swings = std::move(order);
    return out;
}

}  // namespace vivaref::engine::players
