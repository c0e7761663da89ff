// RULES §3.5-3.6: scoring a coronation (the points table, the Jester's
// inversion, the classic 33 rule, the 2024 floor at 0, compensation points)
// and the next round's first player.
#include "scenario.hpp"

using namespace vivaref::test;

namespace {

// Classic, 4 seats: alighiero crowned by seat 2 with beatrice on floor 5.
void crownAlighiero(Table& t) {
    placeClassicLadder(t);
    t.move("alighiero", Place::Floor5);
    t.move("beatrice", Place::Floor5);
    t.move("alighiero", Place::Throne);
    t.vote(std::vector<VoteCard>(t.seats(), kYes));
}

// Classic, 5 seats: natale, odessa and piero are left on floor 0; alighiero,
// beatrice and clemente are eliminated; dario is crowned. A card of those
// six scores exactly 0.
const std::vector<std::string> kZeroCard{"natale", "odessa", "piero", "alighiero", "beatrice", "clemente"};
void playZeroRound(Table& t) {
    t.deal({kZeroCard});
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
    int noVoter = 0;
    for (const char* c : {"alighiero", "beatrice", "clemente"}) {
        t.climb(c, Place::Throne);
        t.voteAllYesBut({{noVoter++, kNo}});
    }
    t.climb("dario", Place::Throne);
    t.vote({kYes, kYes, kYes, kYes, kYes});
}

// 2024, 4 seats: a card whose points cancel out to exactly 0 (eloise
// Dungeon3 -3, jeanne floor 3 +3, ouaf Dungeon2 -2, leonardo floor 2 +2,
// caius Dungeon1 -1, gontran floor 1 +1).
const std::vector<std::string> kZeroCard2024{"eloise", "jeanne", "ouaf", "leonardo", "caius", "gontran"};
void playZeroRound2024(Table& t) {
    t.deal({kZeroCard2024});
    t.placeAll({{"eloise", 4},
                {"ouaf", 4},
                {"caius", 4},
                {"foidvo", 4},
                {"jeanne", 3},
                {"merlin", 3},
                {"victoria", 2},
                {"leonardo", 2},
                {"romeo", 2},
                {"bridget", 1},
                {"agathe", 1},
                {"gontran", 1}});
    for (const char* c : {"eloise", "ouaf", "caius"}) {
        t.climb(c, Place::Throne);
        t.voteAllYesBut({{t.state.crownHolder().index, kNo}});
    }
    t.climb("foidvo", Place::Throne);
    t.vote({kYes, kYes, kYes, kYes});
}

}  // namespace

TEST_CASE("RULES 3.5: the points table: King 10, floor f scores f") {
    Table t(classicSpec(4));
    t.deal({{"alighiero", "beatrice", "clemente", "ernesto", "leonardo", "odessa"},
            {"piero", "dario", "fiorello", "merlino", "natale", "odessa"}});
    crownAlighiero(t);
    CHECK(t.happened(EventKind::CoronationScored));
    const auto scores = t.roundScores();
    CHECK(scores[0] == 10 + 5 + 4 + 3 + 2 + 1);
    CHECK(scores[1] == 0 + 4 + 3 + 2 + 2 + 1);
    CHECK(t.state.totals()[0] == 25);
    CHECK(t.state.totals()[1] == 12);
}

TEST_CASE("RULES 3.5: an eliminated favourite scores 0") {
    Table t(classicSpec(4));
    t.deal({{"alighiero", "beatrice", "clemente", "dario", "ernesto", "fiorello"}});
    placeClassicLadder(t);
    t.climb("alighiero", Place::Throne);
    t.voteAllYesBut({{3, kNo}});
    t.climb("beatrice", Place::Throne);
    t.vote({kYes, kYes, kYes, kYes});
    // alighiero in the box 0, beatrice King 10, clemente and dario 4, ernesto and fiorello 3.
    CHECK(t.roundScores()[0] == 0 + 10 + 4 + 4 + 3 + 3);
}

TEST_CASE("RULES 3.5 (2024): WCs and the box score 0, Dungeon3/2/1 score -3/-2/-1") {
    Table t(spec2024(4));
    t.deal(richFavourites());
    playRichRound(t);
    CHECK(show(t.roundScores()) == "[15, -6, 9, 9]");
    CHECK(show(t.state.totals()) == "[35, 14, 29, 29]");
}

TEST_CASE("RULES 3.5 (2024): when the Jester is crowned every favourite's points are inverted") {
    Table t(spec2024(4));
    t.deal({{"eloise", "ouaf", "caius", "foidvo", "jeanne", "merlin"},
            {"victoria", "leonardo", "romeo", "bridget", "agathe", "blanche"},
            {"gontran", "blanche", "agathe", "merlin", "eloise", "victoria"}});
    playJesterRound(t);
    REQUIRE(t.state.finishedRounds().back().kings == std::vector<CharacterId>{t.id("jester")});
    const auto scores = t.roundScores();
    CHECK(scores[0] == -5 - 5 - 4 - 4 - 4 - 3);
    CHECK(scores[1] == -2 - 2 - 2 - 2 - 1 - 0);
    CHECK(scores[2] == -1 - 0 - 1 - 3 - 5 - 2);
}

TEST_CASE("RULES 3.5 (2024): a total never goes below 0") {
    Table t(spec2024(4));
    t.deal({{"eloise", "ouaf", "caius", "foidvo", "jeanne", "merlin"}});
    playJesterRound(t);
    CHECK(t.roundScores()[0] == -25);  // the round's score is kept before clamping
    CHECK(t.state.totals()[0] == 0);
    // The next round counts from 0, not from -5.
    t.deal(richFavourites());
    playRichRound(t);
    CHECK(t.roundScores()[0] == 15);
    CHECK(t.state.totals()[0] == 15);
}

TEST_CASE("RULES 3.5 classic: in the third round a round score of exactly 0 becomes 33") {
    Table t(classicSpec(5));
    playZeroRound(t);
    CHECK(t.roundScores()[0] == 0);
    playZeroRound(t);
    CHECK(t.roundScores()[0] == 0);
    CHECK(t.state.totals()[0] == 0);
    playZeroRound(t);
    CHECK(t.state.isOver());
    CHECK(t.roundScores()[0] == 33);
    CHECK(t.state.totals()[0] == 33);
    CHECK(t.state.finishedRounds().size() == 3);
}

TEST_CASE("RULES 3.5 classic: the 33 rule is the third round's only, in a longer game too") {
    RulesSpec spec = classicSpec(5);
    spec.rounds = 4;
    Table t(spec);
    for (int round = 1; round <= 4; ++round) {
        CAPTURE(round);
        playZeroRound(t);
        CHECK(t.roundScores()[0] == (round == 3 ? 33 : 0));
    }
    CHECK(t.state.isOver());
}

TEST_CASE("Decision: the online preset set to 3 rounds has the 33 rule too") {
    RulesSpec spec = onlineSpec(4);
    spec.rounds = 3;
    Table t(spec);
    CHECK(t.rules->hasRule33());
    // The deal puts character c on floor c mod 4; a card of the four on
    // floor 0 and two eliminated characters scores 0.
    const auto& r = t.roster();
    std::vector<std::string> zero;
    for (int c = 0; c < 13; c += 4) zero.push_back(r.characters()[c].id);  // floor 0
    zero.push_back(r.characters()[3].id);                                  // floor 3
    zero.push_back(r.characters()[7].id);                                  // floor 3
    for (int round = 1; round <= 3; ++round) {
        CAPTURE(round);
        t.deal({zero});
        // Eliminate characters 3 and 7 (floor 3), then crown character 11.
        for (int c : {3, 7}) {
            t.climb(r.characters()[c].id, Place::Throne);
            t.voteAllYesBut({{t.state.crownHolder().index, kNo}});
        }
        t.climb(r.characters()[11].id, Place::Throne);
        t.vote({kYes, kYes, kYes, kYes});
        CHECK(t.roundScores()[0] == (round == 3 ? 33 : 0));
    }
}

TEST_CASE("Decision: the 2024 edition has no 33 rule") {
    Table t(spec2024(4));
    for (int round = 1; round <= 3; ++round) {
        CAPTURE(round);
        playZeroRound2024(t);
        CHECK(t.roundScores()[0] == 0);
    }
    CHECK(t.state.isOver());
    CHECK(t.state.totals()[0] == 20);
}

TEST_CASE("RULES 3.6: classic, the next round starts left of the crown holder") {
    Table t(classicSpec(4, 1));
    t.deal();
    crownAlighiero(t);  // moved to the throne by seat 3
    REQUIRE(t.state.finishedRounds().back().crown == seat(3));
    t.deal();
    CHECK(t.state.firstPlayer() == seat(0));
    CHECK(t.toAct() == seat(0));
}

TEST_CASE("RULES 3.6: 2024, the crown holder starts the next round") {
    Table t(spec2024(4, Variant::None, {}, 1));
    t.deal(richFavourites());
    playRichRound(t);  // crowned by the fourth seat from seat 1: seat 0
    REQUIRE(t.state.finishedRounds().back().crown == seat(0));
    t.deal();
    CHECK(t.state.firstPlayer() == seat(0));
    CHECK(t.toAct() == seat(0));
}

TEST_CASE("RULES 3.6: every round starts from an empty castle and full hands") {
    Table t(spec2024(4));
    t.deal(richFavourites());
    playRichRound(t);
    t.deal();
    CHECK(t.state.round() == 2);
    CHECK(t.state.countAt(Place::Reserve) == 13);
    CHECK(t.at("jester") == Place::Floor3);
    for (int s = 0; s < 4; ++s) CHECK(t.state.hand(seat(s)) == Hand{1, 3, 1});
    // The dungeons fill from Dungeon3 again.
    place2024Ladder(t);
    t.climb("eloise", Place::Throne);
    t.voteAllYesBut({{0, kNo}});
    CHECK(t.at("eloise") == Place::Dungeon3);
}

TEST_CASE("RULES 4: after the last round the game is over and totals are the sum of the rounds") {
    Table t(classicSpec(4));
    int expected[4] = {0, 0, 0, 0};
    for (int round = 1; round <= 3; ++round) {
        t.deal();
        crownAlighiero(t);
        for (int p = 0; p < 4; ++p) expected[p] += t.roundScores()[p];
    }
    CHECK(t.state.isOver());
    CHECK(t.happened(EventKind::GameOver));
    CHECK(t.state.phase() == Phase::GameOver);
    for (int p = 0; p < 4; ++p) CHECK(t.state.totals()[p] == expected[p]);
    ActionList legal;
    t.state.legalActions(legal);
    CHECK(legal.empty());
    CHECK(t.state.toAct().empty());
    CHECK(outcome(t.state.apply(t.makeDeal())) == "wrong-phase");
    CHECK_REFUSED(t.state, Action::pass(seat(0)), RefusalCode::WrongPhase);
}

TEST_CASE("RULES 2: with 7 seats the last seat in placement order scores 3 at the deal, every round") {
    Table t(spec2024(7));
    t.deal({{"caius", "foidvo", "merlin", "victoria", "romeo", "bridget"},
            {},
            {},
            {},
            {},
            {},
            {"eloise", "ouaf", "jeanne", "leonardo", "gontran", "blanche"}});
    CHECK(t.happened(EventKind::Compensated));
    CHECK(show(t.state.totals()) == "[20, 20, 20, 20, 20, 20, 23]");
    CHECK(show(t.state.currentRound().scores) == "[0, 0, 0, 0, 0, 0, 3]");
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
    t.climb("eloise", Place::Throne);  // seats 0 and 1
    t.vote(std::vector<VoteCard>(7, kYes));
    // The round's score includes the compensation: 10+4+3+2+1+1 and 3.
    CHECK(t.roundScores()[6] == 21 + 3);
    CHECK(t.roundScores()[0] == 4 + 4 + 3 + 3 + 2 + 2);
    CHECK(t.state.totals()[6] == 44);
    // Round 2 starts with the crown holder, seat 1: seat 0 places last.
    t.deal();
    CHECK(t.state.firstPlayer() == seat(1));
    CHECK(t.state.totals()[0] == 20 + 18 + 3);
    CHECK(t.state.totals()[6] == 44);
    CHECK(show(t.state.currentRound().scores) == "[3, 0, 0, 0, 0, 0, 0]");
}

TEST_CASE("RULES 2: with 8 seats the last three seats in placement order score 3 at the deal") {
    Table t(spec2024(8, Variant::None, {}, 2));
    t.deal();
    // Placement order 2..7, 0, 1: seats 7, 0 and 1 place one.
    CHECK(show(t.state.totals()) == "[23, 23, 20, 20, 20, 20, 20, 23]");
}

TEST_CASE("RULES 2: no compensation with 6 seats or fewer") {
    Table t(spec2024(6));
    t.deal();
    CHECK_FALSE(t.happened(EventKind::Compensated));
    CHECK(show(t.state.totals()) == "[20, 20, 20, 20, 20, 20]");
}
