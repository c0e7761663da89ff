// RULES §6 Emissary of the Empire: no seat, it only votes (an automatic Yes
// for its favourites, else the top card of its pile) and scores; a revealed
// Yes is shuffled back, so the record then needs a reshuffle.
#include <algorithm>

#include "scenario.hpp"

using namespace vivaref::test;

namespace {

// 3 seats and the Emissary; its favourites include eloise, not ouaf.
Table emissaryTable(std::vector<VoteCard> pile, Options options = {}) {
    Table t(spec2024(3, Variant::Emissary, options));
    Deal d = t.makeDeal();
    d.emissary->favourites = t.card({"eloise", "jeanne", "leonardo", "agathe", "gontran", "blanche"});
    if (options.banished) d.emissary->favourites.banished = t.id("eloise");
    d.emissary->pile = std::move(pile);
    t.deal(d);
    t.keepFirst();
    place2024Ladder(t);
    return t;
}

const std::vector<VoteCard> kNoFirst{kNo, kYes, kStomachache, kNo, kNo};
const std::vector<VoteCard> kYesFirst{kYes, kNo, kStomachache, kNo, kNo};
const std::vector<VoteCard> kStomachacheFirst{kStomachache, kNo, kYes, kNo, kNo};

}  // namespace

TEST_CASE("RULES 6 Emissary: it votes Yes without drawing when the candidate is one of its favourites") {
    Table t = emissaryTable(kNoFirst);
    t.climb("eloise", Place::Throne);
    CHECK(t.state.toAct().size() == 3);  // seats only
    t.vote({kYes, kYes, kYes});
    REQUIRE(t.state.lastReveal().has_value());
    CHECK(t.state.lastReveal()->emissaryVote == std::optional<VoteCard>(kYes));
    CHECK_FALSE(t.state.lastReveal()->emissaryDrew);
    CHECK(t.state.lastReveal()->outcome == ElectionOutcome::Crowned);
    CHECK(t.state.emissaryPile() == kNoFirst);
}

TEST_CASE("RULES 6 Emissary: otherwise the top card of its pile is its vote, and a No is lost") {
    Table t = emissaryTable(kNoFirst);
    t.climb("ouaf", Place::Throne);
    t.vote({kYes, kYes, kYes});
    CHECK(t.state.lastReveal()->emissaryDrew);
    CHECK(t.state.lastReveal()->emissaryVote == std::optional<VoteCard>(kNo));
    CHECK(t.state.lastReveal()->outcome == ElectionOutcome::Rejected);
    CHECK(t.at("ouaf") == Place::Dungeon3);
    CHECK(t.state.emissaryPile() == std::vector<VoteCard>{kYes, kStomachache, kNo, kNo});
    CHECK(t.state.phase() == Phase::Ascent);  // no Yes revealed: no reshuffle
}

TEST_CASE("RULES 6 Emissary: its Stomachache cancels the election and is lost") {
    Table t = emissaryTable(kStomachacheFirst);
    t.climb("ouaf", Place::Throne);
    t.vote({kYes, kNo, kYes});
    CHECK(t.state.lastReveal()->outcome == ElectionOutcome::Cancelled);
    CHECK(t.at("ouaf") == Place::Floor5);
    CHECK(t.state.emissaryPile() == std::vector<VoteCard>{kNo, kYes, kNo, kNo});
}

TEST_CASE("Decision: after the Emissary reveals a Yes and the round goes on, its pile must be reshuffled") {
    Table t = emissaryTable(kYesFirst);
    t.climb("ouaf", Place::Throne);  // seats 0 and 1
    t.vote({kNo, kYes, kYes});
    CHECK(t.state.lastReveal()->emissaryVote == std::optional<VoteCard>(kYes));
    CHECK(t.state.lastReveal()->outcome == ElectionOutcome::Rejected);
    CHECK(t.state.phase() == Phase::AwaitReshuffle);
    CHECK(t.state.awaitsChance());
    CHECK(t.state.toAct().empty());
    ActionList legal;
    t.state.legalActions(legal);
    CHECK(legal.empty());
    // The Yes went back: the pile is the five cards less nothing lost.
    auto pile = t.state.emissaryPile();
    CHECK(pile.size() == 5);
    CHECK(std::count(pile.begin(), pile.end(), kYes) == 1);
    CHECK_REFUSED(t.state, Action::move(seat(2), t.id("caius"), Place::Floor5), RefusalCode::WrongPhase);

    const State before = t.state;
    CHECK(outcome(t.state.apply(Reshuffle{{kNo, kNo, kNo, kStomachache}})) == "bad-pile");
    CHECK(outcome(t.state.apply(Reshuffle{{kNo, kNo, kNo, kStomachache, kYes, kYes}})) == "bad-pile");
    CHECK(outcome(t.state.apply(Reshuffle{{kNo, kNo, kNo, kNo, kYes}})) == "bad-pile");
    CHECK(outcome(t.state.apply(Reshuffle{{kNo, kNo, kNo, kStomachache, VoteCard::Unknown}})) == "bad-pile");
    CHECK(t.state == before);
    CHECK(outcome(t.state.apply(t.makeDeal())) == "wrong-phase");

    const std::vector<VoteCard> next{kNo, kStomachache, kYes, kNo, kNo};
    REQUIRE_ACCEPTED(t.state.apply(Reshuffle{next}));
    CHECK(t.state.phase() == Phase::Ascent);
    CHECK(t.state.emissaryPile() == next);
    CHECK(t.toAct() == seat(2));  // after the crown holder, seat 1
}

TEST_CASE("Decision: a reshuffle is refused when none is awaited") {
    Table t = emissaryTable(kNoFirst);
    CHECK(outcome(t.state.apply(Reshuffle{kNoFirst})) == "wrong-phase");
    t.climb("eloise", Place::Throne);
    CHECK(outcome(t.state.apply(Reshuffle{kNoFirst})) == "wrong-phase");
}

TEST_CASE("RULES 6 Emissary: a revealed Yes that crowns the candidate needs no reshuffle") {
    Table t = emissaryTable(kYesFirst);
    t.climb("ouaf", Place::Throne);
    t.vote({kYes, kYes, kYes});
    CHECK(t.state.lastReveal()->outcome == ElectionOutcome::Crowned);
    CHECK(t.state.phase() == Phase::AwaitDeal);
}

TEST_CASE("RULES 5 Banished: the Emissary's sealed character gets no automatic Yes") {
    Table t = emissaryTable(kNoFirst, Options{false, true});
    t.climb("eloise", Place::Throne);
    t.vote({kYes, kYes, kYes});
    CHECK(t.state.lastReveal()->emissaryDrew);
    CHECK(t.state.lastReveal()->outcome == ElectionOutcome::Rejected);
}

TEST_CASE("RULES 6 Emissary: it scores its favourites like a player, from 40") {
    Table t = emissaryTable(kNoFirst);
    // Favourites: eloise jeanne leonardo agathe gontran blanche.
    t.climb("eloise", Place::Throne);
    t.vote({kYes, kYes, kYes});
    // eloise King 10, jeanne 3, leonardo 2, agathe 1, gontran 1, blanche 0.
    CHECK(t.state.finishedRounds().back().emissaryScore == 17);
    CHECK(t.state.emissaryTotal() == 57);
}

TEST_CASE("RULES 6 Emissary: the deal must give it a card and a pile of the setup table") {
    Table t(spec2024(3, Variant::Emissary));
    Deal none = t.makeDeal();
    none.emissary.reset();
    CHECK(outcome(t.state.apply(none)) == "bad-deal");
    Deal shortPile = t.makeDeal();
    shortPile.emissary->pile.pop_back();
    // A pile not of the setup table has the pile's own code.
    CHECK(outcome(t.state.apply(shortPile)) == "bad-pile");
    Deal twoYes = t.makeDeal();
    twoYes.emissary->pile[0] = kYes;
    CHECK(outcome(t.state.apply(twoYes)) == "bad-pile");
    Deal jester = t.makeDeal();
    jester.emissary->favourites.characters[0] = t.id("jester");
    CHECK(outcome(t.state.apply(jester)) == "bad-deal");
    CHECK(t.state.phase() == Phase::AwaitDeal);

    Table plain(spec2024(3));
    Deal extra = plain.makeDeal();
    extra.emissary = t.makeDeal().emissary;
    CHECK(outcome(plain.state.apply(extra)) == "bad-deal");
}
