// The players on the engine (engine/players): what a seat may know
// (sampleWorld), that no player looks further, that every player plays
// every configuration to its end, and that the search player is stronger
// than chance.
#include <algorithm>
#include <memory>
#include <set>

#include <doctest/doctest.h>

#include "engine/chance.hpp"
#include "engine/players/analysis.hpp"
#include "engine/players/heuristic_player.hpp"
#include "engine/players/random_player.hpp"
#include "engine/players/search_player.hpp"
#include "engine/players/tournament.hpp"
#include "random_play.hpp"
#include "scenario.hpp"

using namespace vivaref::engine;
using namespace vivaref::engine::players;
using vivaref::test::classicSpec;
using vivaref::test::randomPlayConfigs;
using vivaref::test::spec2024;

namespace {

// A game played at random from `seed` until `stop` holds (or the end).
template <class Stop>
State playUntil(const RulesSpec& spec, std::uint64_t seed, Stop stop) {
    State s(std::make_shared<const Rules>(spec));
    Rng rng(seed);
    for (;;) {
        resolveChance(s, rng);
        if (s.isOver() || stop(s)) return s;
        REQUIRE_FALSE(s.apply(randomAction(s, rng)));
    }
}

std::uint32_t maskOf(const FavouritesCard& card) {
    std::uint32_t m = 0;
    for (auto c : card.characters) m |= 1u << c.index;
    return m;
}

}  // namespace

TEST_CASE("sampleWorld keeps what the seat knows and redraws what it does not") {
    const RulesSpec spec = spec2024(5, Variant::None, Options{.ambition = true, .banished = true});
    // In an election with two votes cast (seats 0 and 1), seen from seat 1.
    const State truth = playUntil(spec, 11, [](const State& s) {
        return s.phase() == Phase::Election && s.hasVoted(Seat{0}) && s.hasVoted(Seat{1}) &&
               !s.hasVoted(Seat{2});
    });
    REQUIRE(truth.phase() == Phase::Election);
    const Seat viewer{1};
    const PlayerId me{1};
    std::set<std::uint32_t> othersSeen;
    int votesChanged = 0;
    Rng rng(5);
    for (int i = 0; i < 200; ++i) {
        const State w = sampleWorld(truth, viewer, rng);
        // What the seat knows stays.
        CHECK(w.positions() == truth.positions());
        CHECK(w.totals() == truth.totals());
        CHECK(w.favourites(me) == truth.favourites(me));
        CHECK(w.ambitionChoices(me) == truth.ambitionChoices(me));
        CHECK(w.keptAmbition(me) == truth.keptAmbition(me));
        CHECK(w.voteOf(viewer) == truth.voteOf(viewer));
        for (int s = 0; s < 5; ++s)
            CHECK(w.hand(Seat{static_cast<std::uint8_t>(s)}) ==
                  truth.hand(Seat{static_cast<std::uint8_t>(s)}));
        // The others' cards follow the deal's rules.
        std::set<std::uint32_t> sets;
        std::set<AmbitionCard> ambitions;
        for (int p = 0; p < 5; ++p) {
            const auto& card = w.favourites(PlayerId{static_cast<std::uint8_t>(p)});
            std::set<int> ids;
            for (auto c : card.characters) {
                CHECK_FALSE(truth.rules().roster().isJester(c));
                ids.insert(c.index);
            }
            CHECK(ids.size() == 6);
            REQUIRE(card.banished.has_value());
            CHECK(card.counts(*card.banished) == false);
            sets.insert(maskOf(card));
            for (auto a : w.ambitionChoices(PlayerId{static_cast<std::uint8_t>(p)})) ambitions.insert(a);
            if (p != me.index) othersSeen.insert(maskOf(card));
        }
        CHECK(sets.size() == 5);
        CHECK(ambitions.size() == 10);  // no Ambition card dealt twice
        // Seat 0's vote, cast and unrevealed, is drawn from its hand.
        const auto v = w.voteOf(Seat{0});
        REQUIRE(v.has_value());
        CHECK(truth.hand(Seat{0}).holds(*v));
        votesChanged += *v != *truth.voteOf(Seat{0});
    }
    CHECK(othersSeen.size() > 100);  // not the truth again and again
    CHECK(votesChanged > 0);
}

TEST_CASE(
    "sampleWorld depends only on what the seat has seen: two truths it cannot tell apart give one world") {
    for (const auto& spec : {classicSpec(4), spec2024(4, Variant::Emissary, Options{.ambition = true})}) {
        const State a =
            playUntil(spec, 3, [](const State& s) { return s.phase() == Phase::Ascent && s.round() == 2; });
        REQUIRE(a.phase() == Phase::Ascent);
        Rng other(99);
        const State b = sampleWorld(a, Seat{2}, other);  // another truth seat 2 cannot tell from a
        CHECK_FALSE(b == a);
        Rng r1(7), r2(7);
        CHECK(sampleWorld(a, Seat{2}, r1) == sampleWorld(b, Seat{2}, r2));
        // So no player looks further than its seat: the same choice in both.
        HeuristicPlayer heuristic;
        SearchPlayer search(SearchSettings{SearchBudget{200, {}}});
        Rng h1(1), h2(1), s1(2), s2(2);
        CHECK(heuristic.choose(a, Seat{2}, h1) == heuristic.choose(b, Seat{2}, h2));
        SearchReport ra, rb;
        CHECK(search.search(a, Seat{2}, s1, SearchBudget{200, {}}, &ra) ==
              search.search(b, Seat{2}, s2, SearchBudget{200, {}}, &rb));
        CHECK(ra.iterations == 200);
        CHECK(ra.simulatedActions == rb.simulatedActions);
    }
}

TEST_CASE("every player plays every edition, option and variant to the end with legal actions only") {
    RandomPlayer random;
    HeuristicPlayer heuristic;
    SearchPlayer search(SearchSettings{SearchBudget{6, {}}});
    int games = 0;
    for (const auto& config : randomPlayConfigs()) {
        const int seats = config.spec.seats;
        std::vector<Player*> entrants(static_cast<std::size_t>(seats), &heuristic);
        entrants[0] = &search;
        if (seats > 2) entrants[1] = &random;
        const auto result = playTournament(config.spec, entrants, 1, 20261125);
        INFO(config.name);
        CHECK_FALSE(result.error);
        CHECK(result.games == 1);
        games += static_cast<int>(result.games);
    }
    CHECK(games > 100);
}

TEST_CASE("a tournament rotates the seats, is the same for the same seed, and counts every win once") {
    RandomPlayer a, b, c, d;
    const std::vector<Player*> entrants = {&a, &b, &c, &d};
    const auto one = playTournament(classicSpec(4), entrants, 200, 42);
    const auto two = playTournament(classicSpec(4), entrants, 200, 42);
    REQUIRE_FALSE(one.error);
    double wins = 0;
    for (std::size_t i = 0; i < 4; ++i) {
        CHECK(one.entrants[i].games == 200);
        CHECK(one.entrants[i].wins == two.entrants[i].wins);
        CHECK(one.entrants[i].scoreSum == two.entrants[i].scoreSum);
        wins += one.entrants[i].wins;
    }
    CHECK(wins == doctest::Approx(200.0));
    const auto p = one.entrants[0].winRate();
    CHECK(p.low < p.rate);
    CHECK(p.rate < p.high);
    const auto other = playTournament(classicSpec(4), entrants, 200, 43);
    CHECK(other.entrants[0].scoreSum != one.entrants[0].scoreSum);
    CHECK(wilson(0, 10).low == 0.0);
    CHECK(wilson(50, 100).low == doctest::Approx(0.404).epsilon(0.01));
}

TEST_CASE("the search player beats random players and the heuristic player beats random ones") {
    RandomPlayer r1, r2, r3;
    SearchPlayer search(SearchSettings{SearchBudget{150, {}}});
    HeuristicPlayer heuristic;
    const auto bySearch = playTournament(classicSpec(4), {&search, &r1, &r2, &r3}, 24, 7);
    const auto byRule = playTournament(classicSpec(4), {&heuristic, &r1, &r2, &r3}, 60, 7);
    REQUIRE_FALSE(bySearch.error);
    REQUIRE_FALSE(byRule.error);
    MESSAGE("search 150 vs 3 random: " << bySearch.entrants[0].wins << " of 24; heuristic vs 3 random: "
                                       << byRule.entrants[0].wins << " of 60");
    // A fair share is a quarter.
    CHECK(bySearch.entrants[0].winRate().low > 0.25);
    CHECK(byRule.entrants[0].winRate().low > 0.25);
}

TEST_CASE(
    "in an election the search weighs only its own seat's votes, and the casual vote follows the "
    "favourites") {
    const State s = playUntil(classicSpec(4), 5, [](const State& st) {
        return st.phase() == Phase::Election && st.toAct().size() == 4;
    });
    REQUIRE(s.phase() == Phase::Election);
    SearchPlayer search;
    for (std::uint8_t i = 0; i < 4; ++i) {
        const Seat seat{i};
        Rng rng(11);
        SearchReport report;
        const Action chosen = search.search(s, seat, rng, SearchBudget{300, {}}, &report);
        INFO("seat " << int{i});
        CHECK(chosen.kind() == ActionKind::Vote);
        CHECK(chosen.seat() == seat);
        // The other seats vote in the same node of the tree, but their votes
        // are not the root's choices.
        REQUIRE_FALSE(report.choices.empty());
        std::int64_t visits = 0;
        for (const auto& c : report.choices) {
            CHECK(c.action.seat() == seat);
            visits += c.visits;
        }
        CHECK(visits == report.iterations);
        // A favourite gets Yes; another candidate No while the seat has one.
        const bool favourite = s.favourites(s.rules().playerAt(seat, 0)).counts(s.candidate());
        const VoteCard vote = casualVote(s, seat);
        if (favourite) CHECK(vote == VoteCard::Yes);
        if (!favourite && s.hand(seat).no > 0) CHECK(vote == VoteCard::No);
    }
}

TEST_CASE(
    "the analysis of a game: chances that add up, the swings largest first, reviews of the players' "
    "choices") {
    // A random classic game as decisions.
    const auto rules = std::make_shared<const Rules>(classicSpec(4));
    State s(rules);
    Rng rng(21);
    std::vector<Decision> decisions;
    while (!s.isOver()) {
        if (s.phase() == Phase::AwaitDeal) {
            const auto d = randomDeal(s, rng);
            decisions.emplace_back(d);
            REQUIRE_FALSE(s.apply(d));
        } else if (s.phase() == Phase::AwaitReshuffle) {
            const auto r = randomReshuffle(s, rng);
            decisions.emplace_back(r);
            REQUIRE_FALSE(s.apply(r));
        } else {
            const auto a = randomAction(s, rng);
            decisions.emplace_back(a);
            REQUIRE_FALSE(s.apply(a));
        }
    }
    AnalysisSettings settings;
    settings.rollouts = 30;
    settings.iterations = 60;
    Rng r1(5), r2(5);
    const State initial(rules);
    const auto analysis = analyseGame(initial, decisions, settings, r1);
    REQUIRE(analysis.decisions.size() == decisions.size());
    int reviews = 0;
    for (std::size_t i = 0; i < decisions.size(); ++i) {
        const auto& d = analysis.decisions[i];
        double chances = d.after.emissaryWins;
        for (double c : d.after.winChance) chances += c;
        CHECK(chances == doctest::Approx(1.0));
        const auto* a = std::get_if<Action>(&decisions[i]);
        // Chance and passes are not reviewed; a player's choice among several is.
        if (!a || a->kind() == ActionKind::Pass) CHECK_FALSE(d.review);
        if (d.review) {
            ++reviews;
            CHECK(d.review->seat == (a->kind() == ActionKind::Keep ? rules->seatOf(a->player()) : a->seat()));
            if (d.review->preferred == *a) CHECK(d.review->gain() == 0.0);
        }
    }
    CHECK(reviews > 20);
    // The game is over after the last decision: the winners' chance is 1.
    const auto& last = analysis.decisions.back().after;
    for (auto w : s.winners()) CHECK(last.winChance[w.index] == doctest::Approx(1.0 / s.winners().size()));
    REQUIRE(analysis.swings.size() == 3);
    CHECK(analysis.decisions[static_cast<std::size_t>(analysis.swings[0])].swing >=
          analysis.decisions[static_cast<std::size_t>(analysis.swings[1])].swing);
    // No decision outside the three swung the game more than the third.
    const double third = analysis.decisions[static_cast<std::size_t>(analysis.swings[2])].swing;
    for (std::size_t i = 0; i < analysis.decisions.size(); ++i) {
        const bool listed = std::find(analysis.swings.begin(), analysis.swings.end(), static_cast<int>(i)) !=
                            analysis.swings.end();
        if (!listed) CHECK(analysis.decisions[i].swing <= third);
    }
    // The same seed, the same analysis.
    const auto again = analyseGame(initial, decisions, settings, r2);
    CHECK(again.swings == analysis.swings);
    CHECK(again.decisions.back().after.expectedScore == analysis.decisions.back().after.expectedScore);
}
