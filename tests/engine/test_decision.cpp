// One entry point for chance and choices: State::apply takes a Decision
// (an action, a deal or a reshuffle), and State::awaits names the kind it
// waits for; a decision of another kind is refused as wrong-phase and
// changes nothing.
#include <doctest/doctest.h>

#include "engine/players/random_player.hpp"
#include "scenario.hpp"

namespace vivaref::test {

namespace {

// One decision of every kind, none of them legal in a phase awaiting another kind.
struct WrongKinds {
    Deal deal;
    Reshuffle reshuffle{{kNo, kYes}};
    Action action = Action::pass(seat(0));
};

void checkOthersRefused(State& s, DecisionKind awaited, const WrongKinds& wrong) {
    const State before = s;
    if (awaited != DecisionKind::Deal) CHECK(outcome(s.apply(wrong.deal)) == "wrong-phase");
    if (awaited != DecisionKind::Reshuffle) CHECK(outcome(s.apply(wrong.reshuffle)) == "wrong-phase");
    if (awaited != DecisionKind::Action) CHECK(outcome(s.apply(wrong.action)) == "wrong-phase");
    CHECK(s == before);
}

}  // namespace

TEST_CASE("Decision: apply takes a deal, an action or a reshuffle, each when the state awaits its kind") {
    // With the Emissary every kind comes up: a revealed Yes is reshuffled.
    const auto rules = std::make_shared<const Rules>(spec2024(3, Variant::Emissary));
    int applied[3] = {0, 0, 0};
    for (std::uint64_t seed = 1; seed <= 10; ++seed) {
        CAPTURE(seed);
        State s(rules);
        Rng rng(seed);
        WrongKinds wrong;
        while (!s.isOver()) {
            const auto awaited = s.awaits();
            REQUIRE(awaited);
            CHECK((*awaited == DecisionKind::Deal) == (s.phase() == Phase::AwaitDeal));
            CHECK((*awaited == DecisionKind::Reshuffle) == (s.phase() == Phase::AwaitReshuffle));
            checkOthersRefused(s, *awaited, wrong);
            const Decision d = players::randomDecision(s, rng);
            REQUIRE(kindOf(d) == *awaited);
            EventList events;
            REQUIRE_ACCEPTED(s.apply(d, &events));
            CHECK_FALSE(events.empty());
            ++applied[d.index()];
            if (const auto* deal = std::get_if<Deal>(&d)) {
                CHECK(events[0].kind == EventKind::RoundDealt);
                wrong.deal = *deal;  // a whole deal, refused by its phase alone
            }
        }
        CHECK_FALSE(s.awaits());
        checkOthersRefused(s, DecisionKind::Action, wrong);
        CHECK(outcome(s.apply(wrong.action)) == "wrong-phase");
    }
    CHECK(applied[0] > 0);  // actions
    CHECK(applied[1] > 0);  // deals
    CHECK(applied[2] > 0);  // reshuffles
}

TEST_CASE("Decision: its kind and name") {
    CHECK(kindOf(Decision{Action::pass(seat(1))}) == DecisionKind::Action);
    CHECK(kindOf(Decision{Deal{}}) == DecisionKind::Deal);
    CHECK(kindOf(Decision{Reshuffle{}}) == DecisionKind::Reshuffle);
    CHECK(decisionKindName(DecisionKind::Reshuffle) == "reshuffle");
}

}  // namespace vivaref::test
