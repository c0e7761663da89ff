// RULES §6 Royal couple: two coronations a round; the first King waits
// beside the throne without blocking it, the cards stay face up, Ambition
// scores only at the second; and the all-pass round end (Decision).
#include "scenario.hpp"

using namespace vivaref::test;

namespace {

Table royalTable(Options options = {}, int seats = 4) {
    return Table(spec2024(seats, Variant::RoyalCouple, options));
}

const std::vector<std::vector<std::string>> kCards{
    {"eloise", "ouaf", "caius", "foidvo", "jeanne", "merlin"},
    {"victoria", "leonardo", "romeo", "bridget", "agathe", "blanche"}};

}  // namespace

TEST_CASE("RULES 6 Royal couple: the first coronation scores everyone and play goes on with the next seat") {
    Table t = royalTable();
    t.start(kCards);
    place2024Ladder(t);
    t.climb("eloise", Place::Throne);  // seats 0 and 1
    t.vote({kYes, kYes, kYes, kYes});
    CHECK(t.happened(EventKind::Crowned));
    CHECK(t.happened(EventKind::CoronationScored));
    CHECK_FALSE(t.happened(EventKind::RoundEnded));
    CHECK(t.state.phase() == Phase::Ascent);
    CHECK(t.toAct() == seat(2));
    CHECK(t.at("eloise") == Place::BesideThrone);
    CHECK(t.state.countAt(Place::Throne) == 0);
    // eloise King 10, ouaf caius foidvo 4, jeanne merlin 3.
    CHECK(t.state.currentRound().scores[0] == 28);
    CHECK(t.state.totals()[0] == 48);
    CHECK(t.state.favouritesRevealed());
    CHECK(publicView(t.state).revealedFavourites.size() == 4);
}

TEST_CASE(
    "RULES 6 Royal couple: the first King does not block the throne and counts 0 at the second coronation") {
    Table t = royalTable();
    t.start(kCards);
    place2024Ladder(t);
    t.climb("eloise", Place::Throne);
    t.vote({kYes, kYes, kYes, kYes});
    CHECK_REFUSED(t.state, Action::move(t.toAct(), t.id("eloise"), Place::Throne), RefusalCode::CannotMove);
    t.climb("ouaf", Place::Throne);  // seats 2 and 3
    CHECK(t.state.phase() == Phase::Election);
    CHECK(t.state.candidate() == t.id("ouaf"));
    t.vote({kYes, kYes, kYes, kYes});
    CHECK(t.happened(EventKind::RoundEnded));
    const RoundResult& r = t.state.finishedRounds().back();
    CHECK(r.kings == std::vector<CharacterId>{t.id("eloise"), t.id("ouaf")});
    CHECK(r.crown == seat(3));
    // Second coronation: eloise 0, ouaf King 10, caius foidvo 4, jeanne merlin 3.
    CHECK(r.scores[0] == 28 + 24);
    CHECK(t.state.totals()[0] == 20 + 52);
    t.deal();
    CHECK(t.state.firstPlayer() == seat(3));  // triggered the second coronation
}

TEST_CASE("RULES 6 Royal couple: a failed election between the coronations leaves the first King in place") {
    Table t = royalTable();
    t.start(kCards);
    place2024Ladder(t);
    t.climb("eloise", Place::Throne);
    t.vote({kYes, kYes, kYes, kYes});
    t.climb("ouaf", Place::Throne);
    t.voteAllYesBut({{0, kNo}});
    CHECK(t.at("ouaf") == Place::Dungeon3);
    CHECK(t.at("eloise") == Place::BesideThrone);
    CHECK(t.state.phase() == Phase::Ascent);
}

TEST_CASE("RULES 6 Royal couple: the Jester's inversion applies to the coronation that crowns him") {
    Table t = royalTable();
    t.start(kCards);
    playJesterRound(t);  // the Jester crowned first, by seat 2
    REQUIRE(t.at("jester") == Place::BesideThrone);
    // eloise ouaf -5, caius foidvo jeanne -4, merlin -3: -25, the total stops at 0.
    CHECK(t.state.currentRound().scores[0] == -25);
    CHECK(t.state.totals()[0] == 0);
    t.climb("eloise", Place::Throne);  // seat 3
    t.vote({kYes, kYes, kYes, kYes});
    // Normal points: eloise 10, ouaf 5, caius foidvo jeanne 4, merlin 3 = 30,
    // added to the clamped total of the first coronation.
    CHECK(t.roundScores()[0] == -25 + 30);
    CHECK(t.state.totals()[0] == 30);
}

TEST_CASE(
    "Decision: in a royal couple Ambition is judged once, at the second coronation, either member being the "
    "King") {
    Table t = royalTable(Options{true, false});
    Deal d = t.makeDeal({{"eloise", "ouaf", "caius", "foidvo", "jeanne", "merlin"},
                         {"victoria", "leonardo", "romeo", "bridget", "agathe", "blanche"},
                         {"gontran", "agathe", "blanche", "leonardo", "romeo", "victoria"},
                         {"jeanne", "merlin", "victoria", "gontran", "bridget", "blanche"}});
    d.ambitions = {{AmbitionCard::ItsAQueen, AmbitionCard::Wc0},
                   {AmbitionCard::FriendOfTheKing, AmbitionCard::Wc1},
                   {AmbitionCard::ItsAKing, AmbitionCard::Wc2},
                   {AmbitionCard::JesterKing, AmbitionCard::OnlyYes}};
    t.deal(d);
    REQUIRE_ACCEPTED(t.apply(Action::keep(player(0), AmbitionCard::ItsAQueen)));
    REQUIRE_ACCEPTED(t.apply(Action::keep(player(1), AmbitionCard::FriendOfTheKing)));
    REQUIRE_ACCEPTED(t.apply(Action::keep(player(2), AmbitionCard::ItsAKing)));
    REQUIRE_ACCEPTED(t.apply(Action::keep(player(3), AmbitionCard::JesterKing)));
    place2024Ladder(t);
    t.climb("eloise", Place::Throne);  // a woman, moved by seat 1
    t.vote({kYes, kYes, kYes, kYes});
    CHECK(show(t.state.currentRound().scores) == "[28, 10, 9, 12]");  // no Ambition points yet
    t.climb("ouaf", Place::Throne);                                   // the dog, moved by seat 3
    t.vote({kYes, kYes, kYes, kYes});
    // Second coronation: favourites 24, 10, 9, 12; It's a Queen holds (eloise
    // is in the couple), Friend of the King holds for seat 1 (it moved
    // eloise), It's a King fails (a woman and the dog), Jester King fails.
    CHECK(show(t.roundScores()) == "[55, 23, 18, 24]");
}

TEST_CASE(
    "Decision: a royal-couple round in which every seat passes ends with the first coronation's scores") {
    // 7 seats: 14 No cards can reject all 13 others after the Jester is crowned.
    Table t = royalTable(Options{true, false}, 7);
    t.start();
    t.placeAll({{"eloise", 4},
                {"ouaf", 4},
                {"caius", 4},
                {"foidvo", 4},
                {"jeanne", 3},
                {"merlin", 3},
                {"victoria", 3},
                {"leonardo", 2},
                {"romeo", 2},
                {"bridget", 2},
                {"agathe", 2},
                {"gontran", 1},
                {"blanche", 1}});
    t.move("eloise", Place::Floor5);   // seat 0
    t.climb("jester", Place::Throne);  // seats 1, 2, 3
    t.vote(std::vector<VoteCard>(7, kYes));
    REQUIRE(t.at("jester") == Place::BesideThrone);
    const std::vector<int> firstScores = t.state.currentRound().scores;
    int noVoter = 0;
    for (const char* c : {"eloise", "ouaf", "caius", "foidvo", "jeanne", "merlin", "victoria", "leonardo",
                          "romeo", "bridget", "agathe", "gontran", "blanche"}) {
        t.climb(c, Place::Throne);
        t.voteAllYesBut({{noVoter++ % 7, kNo}});
        CHECK(t.state.lastReveal()->outcome == ElectionOutcome::Rejected);
    }
    CHECK(t.state.countAt(Place::Box) == 10);
    // Nothing is left to move: each seat in turn may only pass.
    for (int pass = 0; pass < 7; ++pass) {
        CAPTURE(pass);
        ActionList legal;
        t.state.legalActions(legal);
        REQUIRE(legal.size() == 1);
        CHECK(legal[0] == Action::pass(t.toAct()));
        CHECK_REFUSED(t.state, Action::pass(t.rules->nextSeat(t.toAct())), RefusalCode::NotYourTurn);
        REQUIRE_ACCEPTED(t.apply(legal[0]));
        CHECK(t.happened(EventKind::Passed));
        CHECK(t.happened(EventKind::RoundEnded) == (pass == 6));
    }
    const RoundResult& r = t.state.finishedRounds().back();
    CHECK(r.kings == std::vector<CharacterId>{t.id("jester")});
    CHECK(r.crown == seat(3));
    CHECK(show(r.scores) == show(firstScores));  // no Ambition points
    t.deal();
    CHECK(t.state.firstPlayer() == seat(3));
}
