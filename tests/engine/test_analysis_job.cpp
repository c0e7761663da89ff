// The analysis in bounded pieces (engine/players/analysis_job.hpp): the same
// analysis as analyseGame's, to the last bit, whatever the piece size; each
// piece bounded; progress that only grows.
#include <memory>

#include <doctest/doctest.h>

#include "engine/chance.hpp"
#include "engine/players/analysis_job.hpp"
#include "engine/players/random_player.hpp"
#include "random_play.hpp"
#include "scenario.hpp"

using namespace vivaref::engine;
using namespace vivaref::engine::players;
using vivaref::test::classicSpec;

namespace {

std::vector<Decision> randomGame(const std::shared_ptr<const Rules>& rules, std::uint64_t seed) {
    State s(rules);
    Rng rng(seed);
    std::vector<Decision> decisions;
    while (!s.isOver()) {
        const Decision d = randomDecision(s, rng);
        decisions.push_back(d);
        REQUIRE_FALSE(s.apply(d));
    }
    return decisions;
}

void checkSame(const OutcomeEstimate& a, const OutcomeEstimate& b) {
    CHECK(a.expectedScore == b.expectedScore);
    CHECK(a.winChance == b.winChance);
    CHECK(a.emissaryWins == b.emissaryWins);
}

}  // namespace

TEST_CASE("the analysis in pieces is analyseGame's analysis, whatever the piece size") {
    const auto rules = std::make_shared<const Rules>(classicSpec(4));
    const auto decisions = randomGame(rules, 21);
    AnalysisSettings settings;
    settings.rollouts = 25;
    settings.iterations = 50;
    const State initial(rules);
    Rng whole(7);
    const auto expected = analyseGame(initial, decisions, settings, whole);
    for (int piece : {1, 7, 25, 1000}) {
        CAPTURE(piece);
        AnalysisJob job(initial, decisions, settings, Rng(7), piece);
        double progress = 0;
        int steps = 0;
        while (job.step()) {
            CHECK(job.progress() >= progress);
            progress = job.progress();
            ++steps;
        }
        CHECK(job.done());
        CHECK(job.progress() == 1.0);
        CHECK_FALSE(job.step());
        // At least a step a decision, and more when a piece holds fewer rollouts than an estimate.
        CHECK(steps >= static_cast<int>(decisions.size()));
        const auto& got = job.result();
        REQUIRE(got.decisions.size() == expected.decisions.size());
        checkSame(got.before, expected.before);
        for (std::size_t i = 0; i < got.decisions.size(); ++i) {
            CAPTURE(i);
            checkSame(got.decisions[i].after, expected.decisions[i].after);
            CHECK(got.decisions[i].swing == expected.decisions[i].swing);
            REQUIRE(got.decisions[i].review.has_value() == expected.decisions[i].review.has_value());
            if (got.decisions[i].review) {
                CHECK(got.decisions[i].review->preferred == expected.decisions[i].review->preferred);
                CHECK(got.decisions[i].review->preferredChance ==
                      expected.decisions[i].review->preferredChance);
                CHECK(got.decisions[i].review->playedChance == expected.decisions[i].review->playedChance);
            }
        }
        CHECK(got.swings == expected.swings);
        CHECK(job.rng() == whole);  // and the generator left where analyseGame leaves it
    }
}

TEST_CASE("an analysis in pieces stops at a decision the rules refuse, like analyseGame") {
    const auto rules = std::make_shared<const Rules>(classicSpec(4));
    auto decisions = randomGame(rules, 3);
    decisions.resize(40);
    const Decision firstDeal = decisions[0];
    REQUIRE(std::holds_alternative<Deal>(firstDeal));
    decisions.insert(decisions.begin() + 20, firstDeal);  // round 1 dealt again in its placement: refused
    AnalysisSettings settings;
    settings.rollouts = 5;
    settings.iterations = 20;
    const State initial(rules);
    Rng whole(1);
    const auto expected = analyseGame(initial, decisions, settings, whole);
    AnalysisJob job(initial, decisions, settings, Rng(1), 3);
    while (job.step()) {
    }
    CHECK(job.result().decisions.size() == expected.decisions.size());
    CHECK(job.result().decisions.size() < decisions.size());
    CHECK(job.result().swings == expected.swings);
}

TEST_CASE("an Ambition card changed before the first placement is analysed without a review") {
    const auto rules =
        std::make_shared<const Rules>(vivaref::test::spec2024(4, Variant::None, Options{true, false}));
    auto decisions = randomGame(rules, 5);
    // The moment every card is kept and nothing is placed yet: player 0 changes their mind.
    State s(rules);
    std::size_t at = 0;
    for (; at < decisions.size(); ++at) {
        REQUIRE_FALSE(s.apply(decisions[at]));
        if (s.phase() == Phase::Placement) break;
    }
    REQUIRE(s.ambitionChangeable(PlayerId{0}));
    const auto dealt = s.ambitionChoices(PlayerId{0});
    const auto other = dealt[0] == s.keptAmbition(PlayerId{0}) ? dealt[1] : dealt[0];
    // The game with the change after decision `at` (built anew rather than
    // inserted: GCC 12 sees a moved Reshuffle as maybe uninitialized).
    auto changed =
        decltype(decisions)(decisions.begin(), decisions.begin() + static_cast<std::ptrdiff_t>(at + 1));
    changed.emplace_back(Action::keep(PlayerId{0}, other));
    for (std::size_t i = at + 1; i < decisions.size(); ++i) changed.push_back(decisions[i]);
    decisions = std::move(changed);
    AnalysisSettings settings;
    settings.rollouts = 5;
    settings.iterations = 20;
    Rng rng(2);
    const auto analysis = analyseGame(State(rules), decisions, settings, rng);
    REQUIRE(analysis.decisions.size() == decisions.size());  // the change replays, and all after it
    CHECK_FALSE(analysis.decisions[at + 1].review.has_value());
}
