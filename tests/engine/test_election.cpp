// RULES §3.4: elections. Everybody votes, the cards are revealed at once;
// classic: one No eliminates; 2024: Stomachache cancels, else No rejects to
// the dungeons in order (the Jester back to floor 2/1/0), else crowned.
#include "scenario.hpp"

using namespace vivaref::test;

namespace {

// Classic, 4 seats: alighiero goes to the throne, moved by seat 1.
Table classicElection() {
    Table t(classicSpec(4));
    t.start();
    placeClassicLadder(t);
    t.climb("alighiero", Place::Throne);
    return t;
}

// 2024, 4 seats: eloise goes to the throne, moved by seat 1.
Table election2024(Options options = {}) {
    Table t(spec2024(4, Variant::None, options));
    t.start();
    place2024Ladder(t);
    t.climb("eloise", Place::Throne);
    return t;
}

}  // namespace

TEST_CASE(
    "RULES 3.4: every seat votes, the crown holder included; the cards are revealed when the last is in") {
    Table t = classicElection();
    REQUIRE(t.state.crownHolder() == seat(1));
    CHECK(t.state.toAct().size() == 4);
    // Any seat order.
    REQUIRE_ACCEPTED(t.apply(Action::vote(seat(2), kYes)));
    CHECK(t.happened(EventKind::VoteCast));
    CHECK_FALSE(t.happened(EventKind::VotesRevealed));
    CHECK(t.state.hasVoted(seat(2)));
    CHECK_FALSE(t.state.hasVoted(seat(0)));
    CHECK(t.state.toAct().size() == 3);
    REQUIRE_ACCEPTED(t.apply(Action::vote(seat(1), kYes)));
    REQUIRE_ACCEPTED(t.apply(Action::vote(seat(3), kYes)));
    CHECK(t.state.phase() == Phase::Election);
    CHECK_FALSE(t.state.lastReveal().has_value());
    REQUIRE_ACCEPTED(t.apply(Action::vote(seat(0), kYes)));
    CHECK(t.happened(EventKind::VotesRevealed));
    REQUIRE(t.state.lastReveal().has_value());
    CHECK(t.state.lastReveal()->candidate == t.id("alighiero"));
    CHECK(t.state.lastReveal()->crown == seat(1));
    for (int s = 0; s < 4; ++s) CHECK(t.state.lastReveal()->votes[s] == kYes);
}

TEST_CASE("RULES 3.4 classic: all Yes crowns the candidate and ends the round") {
    Table t = classicElection();
    t.vote({kYes, kYes, kYes, kYes});
    CHECK(t.happened(EventKind::Crowned));
    CHECK(t.happened(EventKind::RoundEnded));
    CHECK(t.state.lastReveal()->outcome == ElectionOutcome::Crowned);
    CHECK(t.state.phase() == Phase::AwaitDeal);
    CHECK(t.state.round() == 2);
    REQUIRE(t.state.finishedRounds().size() == 1);
    CHECK(t.state.finishedRounds()[0].kings == std::vector<CharacterId>{t.id("alighiero")});
    CHECK(t.state.finishedRounds()[0].crown == seat(1));
}

TEST_CASE("RULES 3.4 classic: a single No eliminates the candidate for the round") {
    Table t = classicElection();
    t.vote({kYes, kYes, kNo, kYes});
    CHECK(t.happened(EventKind::Eliminated));
    CHECK(t.state.lastReveal()->outcome == ElectionOutcome::Eliminated);
    CHECK(t.state.lastReveal()->sentTo == Place::Box);
    CHECK(t.at("alighiero") == Place::Box);
    CHECK(t.state.countAt(Place::Throne) == 0);
    CHECK(t.state.phase() == Phase::Ascent);
}

TEST_CASE("RULES 3.4: No and Stomachache cards played are lost, Yes cards go back") {
    Table t = election2024();
    t.vote({kNo, kStomachache, kYes, kNo});
    CHECK(t.state.hand(seat(0)) == Hand{1, 2, 1});
    CHECK(t.state.hand(seat(1)) == Hand{1, 3, 0});
    CHECK(t.state.hand(seat(2)) == Hand{1, 3, 1});
    CHECK(t.state.hand(seat(3)) == Hand{1, 2, 1});
}

TEST_CASE("RULES 3.4: after a failed election the seat after the crown holder plays") {
    SUBCASE("classic elimination") {
        Table t = classicElection();
        t.vote({kNo, kYes, kYes, kYes});
        CHECK(t.toAct() == seat(2));
    }
    SUBCASE("2024 rejection") {
        Table t = election2024();
        t.vote({kYes, kYes, kYes, kNo});
        CHECK(t.toAct() == seat(2));
    }
    SUBCASE("2024 cancellation") {
        Table t = election2024();
        t.vote({kYes, kYes, kStomachache, kYes});
        CHECK(t.toAct() == seat(2));
    }
    SUBCASE("the crown holder is the last seat") {
        Table t(classicSpec(4, 2));
        t.start();
        placeClassicLadder(t);
        t.climb("alighiero", Place::Throne);  // seats 2 and 3
        REQUIRE(t.state.crownHolder() == seat(3));
        t.vote({kYes, kNo, kYes, kYes});
        CHECK(t.toAct() == seat(0));
    }
}

TEST_CASE(
    "RULES 3.4 (2024): a Stomachache cancels the election, over any No; the candidate goes back to floor 5") {
    Table t = election2024();
    t.vote({kNo, kStomachache, kNo, kYes});
    CHECK(t.happened(EventKind::Cancelled));
    CHECK(t.state.lastReveal()->outcome == ElectionOutcome::Cancelled);
    CHECK(t.state.lastReveal()->sentTo == Place::Floor5);
    CHECK(t.at("eloise") == Place::Floor5);
    CHECK(t.state.countAt(Place::Dungeon3) == 0);
    // Both No cards were lost all the same.
    CHECK(int{t.state.hand(seat(0)).no} == 2);
    CHECK(int{t.state.hand(seat(2)).no} == 2);
    // A cancellation uses no dungeon: the next rejected is the first.
    t.climb("ouaf", Place::Floor5);    // seat 2
    t.climb("eloise", Place::Throne);  // seat 3
    t.voteAllYesBut({{3, kNo}});
    CHECK(t.at("eloise") == Place::Dungeon3);
}

TEST_CASE("RULES 3.4 (2024): rejected characters go to Dungeon3, Dungeon2, Dungeon1, then the box") {
    Table t = election2024();
    t.voteAllYesBut({{0, kNo}});
    CHECK(t.happened(EventKind::Rejected));
    CHECK(t.state.lastReveal()->outcome == ElectionOutcome::Rejected);
    CHECK(t.state.lastReveal()->sentTo == Place::Dungeon3);
    CHECK(t.at("eloise") == Place::Dungeon3);
    t.climb("ouaf", Place::Throne);
    t.voteAllYesBut({{1, kNo}});
    CHECK(t.at("ouaf") == Place::Dungeon2);
    t.climb("caius", Place::Throne);
    t.voteAllYesBut({{2, kNo}});
    CHECK(t.at("caius") == Place::Dungeon1);
    t.climb("foidvo", Place::Throne);
    t.voteAllYesBut({{3, kNo}});
    CHECK(t.at("foidvo") == Place::Box);
    CHECK(t.state.lastReveal()->sentTo == Place::Box);
    // A dungeon holds one character.
    CHECK(t.state.countAt(Place::Dungeon3) == 1);
    CHECK(t.state.countAt(Place::Dungeon2) == 1);
    CHECK(t.state.countAt(Place::Dungeon1) == 1);
}

TEST_CASE("RULES 3.4 (2024): a rejected Jester goes back to floor 2") {
    Table t(spec2024(4));
    t.start();
    place2024Ladder(t);
    t.move("eloise", Place::Floor5);  // room on floor 4
    t.climb("jester", Place::Throne);
    t.voteAllYesBut({{0, kNo}});
    CHECK(t.state.lastReveal()->outcome == ElectionOutcome::Rejected);
    CHECK(t.state.lastReveal()->sentTo == Place::Floor2);
    CHECK(t.at("jester") == Place::Floor2);
    CHECK(int{t.state.hand(seat(0)).no} == 2);
}

TEST_CASE("Decision: a rejected Jester uses up no dungeon place") {
    Table t(spec2024(4));
    t.start();
    place2024Ladder(t);
    t.move("eloise", Place::Floor5);
    t.climb("jester", Place::Throne);
    t.voteAllYesBut({{0, kNo}});
    REQUIRE(t.at("jester") == Place::Floor2);
    t.climb("eloise", Place::Throne);
    t.voteAllYesBut({{1, kNo}});
    CHECK(t.at("eloise") == Place::Dungeon3);
}

TEST_CASE("RULES 3.4 (2024): a rejected Jester goes to floor 1 when floor 2 is full") {
    Table t(spec2024(4));
    t.start();
    t.placeAll({{"eloise", 4},
                {"ouaf", 4},
                {"caius", 4},
                {"foidvo", 4},
                {"jeanne", 3},
                {"merlin", 3},
                {"victoria", 2},
                {"leonardo", 2},
                {"romeo", 2},
                {"bridget", 2},
                {"agathe", 1},
                {"gontran", 1}});
    t.move("eloise", Place::Floor5);
    t.climb("jester", Place::Throne);
    t.voteAllYesBut({{0, kNo}});
    CHECK(t.at("jester") == Place::Floor1);
    CHECK(t.state.lastReveal()->sentTo == Place::Floor1);
}

TEST_CASE("RULES 3.4 (2024): a rejected Jester goes to floor 0 when floors 2 and 1 are full") {
    Table t(spec2024(4));
    t.start();
    t.placeAll({{"eloise", 4},
                {"ouaf", 4},
                {"caius", 4},
                {"jeanne", 3},
                {"foidvo", 2},
                {"merlin", 2},
                {"victoria", 2},
                {"leonardo", 2},
                {"romeo", 1},
                {"bridget", 1},
                {"agathe", 1},
                {"gontran", 1}});
    t.climb("jester", Place::Throne);
    t.voteAllYesBut({{2, kNo}});
    CHECK(t.at("jester") == Place::Floor0);
    CHECK(t.state.countAt(Place::Floor0) == 2);
}

TEST_CASE("Decision: floor 0 has no limit (a rejected Jester joins three leftovers with 2 seats)") {
    Table t(spec2024(2, Variant::Emissary));
    t.start();
    t.placeAll({{"eloise", 1},
                {"ouaf", 1},
                {"caius", 1},
                {"foidvo", 2},
                {"jeanne", 2},
                {"merlin", 2},
                {"victoria", 3},
                {"leonardo", 4},
                {"romeo", 4},
                {"bridget", 4}});
    REQUIRE(t.state.countAt(Place::Floor0) == 3);
    t.move("leonardo", Place::Floor5);
    t.climb("jester", Place::Throne);
    // The Jester is no favourite of the Emissary, whose pile starts with a No.
    t.vote({kNo, kYes});
    CHECK(t.at("jester") == Place::Floor0);
    CHECK(t.state.countAt(Place::Floor0) == 4);
    CHECK(t.rules->floorLimit() == 3);
}

TEST_CASE("RULES 3.4 (2024): a Jester whose election is cancelled goes back to floor 5") {
    Table t(spec2024(4));
    t.start();
    place2024Ladder(t);
    t.move("eloise", Place::Floor5);
    t.climb("jester", Place::Throne);
    t.vote({kNo, kStomachache, kYes, kYes});
    CHECK(t.at("jester") == Place::Floor5);
    CHECK(t.state.lastReveal()->outcome == ElectionOutcome::Cancelled);
}

TEST_CASE("RULES 3.4: a voter may only play a card they hold (card-not-held)") {
    SUBCASE("no Stomachache in the classic edition") {
        Table t = classicElection();
        CHECK_REFUSED(t.state, Action::vote(seat(0), kStomachache), RefusalCode::CardNotHeld);
    }
    SUBCASE("a lost Stomachache") {
        Table t = election2024();
        t.vote({kStomachache, kYes, kYes, kYes});
        t.climb("eloise", Place::Throne);
        CHECK_REFUSED(t.state, Action::vote(seat(0), kStomachache), RefusalCode::CardNotHeld);
    }
    SUBCASE("every No played") {
        Table t(classicSpec(5));  // 2 No each
        t.start();
        t.placeAll({{"alighiero", 4},
                    {"beatrice", 4},
                    {"clemente", 4},
                    {"dario", 4},
                    {"ernesto", 3},
                    {"fiorello", 3},
                    {"gavino", 3},
                    {"irina", 3},
                    {"leonardo", 2},
                    {"merlino", 2}});
        t.climb("alighiero", Place::Throne);
        t.voteAllYesBut({{4, kNo}});
        t.climb("beatrice", Place::Throne);
        t.voteAllYesBut({{4, kNo}});
        CHECK(t.state.hand(seat(4)) == Hand{1, 0, 0});
        t.climb("clemente", Place::Throne);
        CHECK_REFUSED(t.state, Action::vote(seat(4), kNo), RefusalCode::CardNotHeld);
        REQUIRE_ACCEPTED(t.apply(Action::vote(seat(4), kYes)));
    }
    SUBCASE("an unknown card") {
        Table t = classicElection();
        CHECK_REFUSED(t.state, Action::vote(seat(0), VoteCard::Unknown), RefusalCode::UnknownCard);
    }
}

TEST_CASE("RULES 3.4: each seat votes once an election (already-voted)") {
    Table t = classicElection();
    REQUIRE_ACCEPTED(t.apply(Action::vote(seat(3), kNo)));
    CHECK_REFUSED(t.state, Action::vote(seat(3), kYes), RefusalCode::AlreadyVoted);
    CHECK_REFUSED(t.state, Action::vote(seat(3), kNo), RefusalCode::AlreadyVoted);
    CHECK_REFUSED(t.state, Action::vote(seat(4), kYes), RefusalCode::UnknownSeat);
}

TEST_CASE("RULES 3.4: no move, placement or pass during an election; no vote outside one") {
    Table t = classicElection();
    CHECK_REFUSED(t.state, Action::move(seat(2), t.id("beatrice"), Place::Floor5), RefusalCode::WrongPhase);
    CHECK_REFUSED(t.state, Action::pass(seat(2)), RefusalCode::WrongPhase);
    CHECK_REFUSED(t.state, Action::place(seat(2), t.id("beatrice"), Place::Floor1), RefusalCode::WrongPhase);
    t.vote({kNo, kYes, kYes, kYes});
    CHECK_REFUSED(t.state, Action::vote(seat(2), kYes), RefusalCode::WrongPhase);
}

TEST_CASE("RULES 3.4 classic: with every No played, the next candidate is crowned") {
    // The termination argument: 12 No cards for 13 characters.
    Table t(classicSpec(3));  // 4 No each
    t.start();
    placeClassicLadder(t);
    int rejected = 0;
    const char* order[] = {"alighiero", "beatrice", "clemente", "dario",   "ernesto", "fiorello",
                           "gavino",    "irina",    "leonardo", "merlino", "natale",  "odessa"};
    for (const char* c : order) {
        t.climb(c, Place::Throne);
        t.voteAllYesBut({{rejected % 3, kNo}});
        ++rejected;
        CHECK(t.at(c) == Place::Box);
    }
    for (int s = 0; s < 3; ++s) CHECK(t.state.hand(seat(s)) == Hand{1, 0, 0});
    t.climb("piero", Place::Throne);
    t.vote({kYes, kYes, kYes});
    CHECK(t.state.finishedRounds().back().kings == std::vector<CharacterId>{t.id("piero")});
}
