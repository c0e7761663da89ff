// RULES §4: the highest total wins; ties broken (classic) by the most
// favourites left in the castle, (2024) by the best-placed favourite on the
// floors or the throne; then a shared win. The Emissary must be strictly ahead.
#include "scenario.hpp"

using namespace vivaref::test;

namespace {

RulesSpec oneRound(RulesSpec spec) {
    spec.rounds = 1;
    return spec;
}

// Classic, 4 seats: alighiero eliminated, beatrice crowned by seat 3. The
// end: beatrice King; clemente dario 4; ernesto fiorello gavino irina 3;
// leonardo merlino natale 2; odessa 1; piero 0; alighiero in the box.
void playClassicTieRound(Table& t) {
    placeClassicLadder(t);
    t.climb("alighiero", Place::Throne);
    t.voteAllYesBut({{1, kNo}});
    t.climb("beatrice", Place::Throne);
    t.vote({kYes, kYes, kYes, kYes});
    REQUIRE(t.state.isOver());
}

}  // namespace

TEST_CASE("RULES 4: the highest total wins") {
    Table t(oneRound(classicSpec(4)));
    t.start({{"beatrice", "clemente", "dario", "ernesto", "fiorello", "gavino"},
             {"irina", "leonardo", "merlino", "natale", "odessa", "piero"}});
    playClassicTieRound(t);
    CHECK(t.state.totals()[0] == 10 + 4 + 4 + 3 + 3 + 3);
    CHECK(show(t.state.winners()) == "[0]");
    CHECK(show(publicView(t.state).winners) == "[0]");
}

TEST_CASE("RULES 4 classic: a tie goes to the most favourites still in the castle") {
    Table t(oneRound(classicSpec(4)));
    t.start({{"alighiero", "beatrice", "clemente", "piero", "odessa", "leonardo"},  // 17, five in the castle
             {"clemente", "dario", "ernesto", "fiorello", "gavino", "piero"},       // 17, six
             {"irina", "leonardo", "merlino", "natale", "odessa", "piero"},         // 10
             {"alighiero", "ernesto", "irina", "merlino", "natale", "odessa"}});    // 11
    playClassicTieRound(t);
    CHECK(show(t.state.totals()) == "[17, 17, 10, 11]");
    CHECK(show(t.state.winners()) == "[1]");
}

TEST_CASE("RULES 4: a tie after the tie-break is a shared win") {
    Table t(oneRound(classicSpec(4)));
    t.start({{"beatrice", "leonardo", "merlino", "odessa", "natale", "piero"},
             {"clemente", "dario", "ernesto", "fiorello", "gavino", "piero"},
             {"irina", "leonardo", "merlino", "natale", "odessa", "piero"},
             {"alighiero", "ernesto", "irina", "merlino", "natale", "odessa"}});
    playClassicTieRound(t);
    CHECK(show(t.state.totals()) == "[17, 17, 10, 11]");
    CHECK(show(t.state.winners()) == "[0, 1]");
}

TEST_CASE("RULES 4 (2024): a tie goes to the player whose best-placed favourite stands highest") {
    Table t(oneRound(spec2024(4)));
    // The rich round's end: leonardo King, jeanne on 5, ...
    t.deal({{"leonardo", "agathe", "blanche", "romeo", "eloise", "victoria"},  // 11, best: the throne
            {"jeanne", "bridget", "ouaf", "gontran", "agathe", "blanche"},     // 11, best: floor 5
            {"merlin", "foidvo", "caius", "romeo", "eloise", "victoria"},
            {"merlin", "foidvo", "caius", "blanche", "romeo", "eloise"}});
    playRichRound(t);
    REQUIRE(t.state.isOver());
    CHECK(show(t.state.totals()) == "[31, 31, 14, 14]");
    CHECK(show(t.state.winners()) == "[0]");
}

TEST_CASE("Decision: for the 2024 tie-break WCs, dungeons and the box are not on the floors") {
    Table t(oneRound(spec2024(4)));
    t.deal({{"victoria", "eloise", "agathe", "gontran", "blanche", "romeo"},  // 2: WCs, best floor 1
            {"ouaf", "bridget", "caius", "agathe", "merlin", "gontran"},      // 2: best floor 2
            {"merlin", "foidvo", "caius", "romeo", "eloise", "victoria"},
            {"merlin", "foidvo", "caius", "blanche", "romeo", "eloise"}});
    playRichRound(t);
    CHECK(show(t.state.totals()) == "[22, 22, 14, 14]");
    CHECK(show(t.state.winners()) == "[1]");
}

TEST_CASE("RULES 6 Emissary: an Emissary tied with the best player has not won") {
    Table t(oneRound(spec2024(3, Variant::Emissary)));
    Deal d = t.makeDeal({{"eloise", "ouaf", "caius", "foidvo", "jeanne", "merlin"}});                   // 28
    d.emissary->favourites = t.card({"blanche", "agathe", "gontran", "leonardo", "romeo", "bridget"});  // 8
    d.emissary->pile = {kYes, kNo, kNo, kNo, kStomachache};
    t.deal(d);
    place2024Ladder(t);
    t.climb("eloise", Place::Throne);
    t.vote({kYes, kYes, kYes});
    REQUIRE(t.state.isOver());
    CHECK(t.state.emissaryTotal() == 48);
    CHECK(t.state.totals()[0] == 48);
    CHECK(show(t.state.winners()) == "[0]");
}

TEST_CASE("RULES 6 Emissary: an Emissary strictly ahead of every player means everybody loses") {
    Table t(oneRound(spec2024(3, Variant::Emissary)));
    Deal d = t.makeDeal({{"eloise", "ouaf", "caius", "foidvo", "jeanne", "leonardo"},  // 27
                         {"victoria", "agathe", "gontran", "blanche", "romeo", "bridget"},
                         {"merlin", "victoria", "leonardo", "agathe", "gontran", "blanche"}});
    d.emissary->favourites = t.card({"blanche", "agathe", "gontran", "leonardo", "romeo", "bridget"});
    d.emissary->pile = {kYes, kNo, kNo, kNo, kStomachache};
    t.deal(d);
    place2024Ladder(t);
    t.climb("eloise", Place::Throne);
    t.vote({kYes, kYes, kYes});
    REQUIRE(t.state.isOver());
    CHECK(t.state.totals()[0] == 47);
    CHECK(t.state.emissaryTotal() == 48);
    CHECK(t.state.winners().empty());
    CHECK(publicView(t.state).emissaryTotal == std::optional<int>(48));
}
