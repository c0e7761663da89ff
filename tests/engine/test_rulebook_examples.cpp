// The worked examples of the rulebooks, replayed move by move: the classic
// rulebook's table of Rachel, Simon, Theresa and Umberto, and the 2024
// rulebook's WC, coronation, scoring and Jester examples.
#include "scenario.hpp"

using namespace vivaref::test;

namespace {

constexpr int kRachel = 0, kSimon = 1, kTheresa = 2, kUmberto = 3;

// The classic table after placement: floor 4 is full (alighiero clemente
// fiorello beatrice), and so is floor 3 (odessa dario ernesto gavino).
Table classicTable() {
    Table t(classicSpec(4, kRachel));
    t.deal({{"fiorello", "alighiero", "beatrice", "dario", "leonardo", "piero"},
            {"clemente", "odessa", "ernesto", "merlino", "natale", "piero"},
            {"clemente", "gavino", "irina", "leonardo", "merlino", "natale"},
            {"fiorello", "clemente", "alighiero", "odessa", "gavino", "natale"}});
    t.placeAll({{"alighiero", 4},
                {"clemente", 4},
                {"fiorello", 4},
                {"beatrice", 4},
                {"odessa", 3},
                {"dario", 3},
                {"ernesto", 3},
                {"gavino", 3},
                {"irina", 2},
                {"leonardo", 2},
                {"merlino", 2},
                {"natale", 1}});
    return t;
}

// 2024, 4 seats: Charles is seat 1.
constexpr int kCharles = 1;

}  // namespace

TEST_CASE("Classic example: Rachel moves Alighiero up; Odessa cannot join the full Dignitaries") {
    Table t = classicTable();
    REQUIRE(t.toAct() == seat(kRachel));
    CHECK_REFUSED(t.state, Action::move(seat(kRachel), t.id("odessa"), Place::Floor4),
                  RefusalCode::FloorFull);
    t.move("alighiero", Place::Floor5);
    CHECK(t.at("alighiero") == Place::Floor5);
    CHECK(t.toAct() == seat(kSimon));
}

TEST_CASE("Classic example: two No votes eliminate Clemente; Yes cards go back, No cards are discarded") {
    Table t = classicTable();
    t.move("alighiero", Place::Floor5);  // Rachel
    t.move("clemente", Place::Floor5);   // Simon
    t.move("clemente", Place::Throne);   // Theresa takes the crown
    CHECK(t.state.crownHolder() == seat(kTheresa));
    t.vote({kYes, kNo, kNo, kYes});
    CHECK(t.at("clemente") == Place::Box);
    CHECK(t.state.hand(seat(kRachel)) == Hand{1, 3, 0});
    CHECK(t.state.hand(seat(kSimon)) == Hand{1, 2, 0});
    CHECK(t.state.hand(seat(kTheresa)) == Hand{1, 2, 0});
    CHECK(t.state.hand(seat(kUmberto)) == Hand{1, 3, 0});
    CHECK(t.toAct() == seat(kUmberto));  // to the left of the crown
}

TEST_CASE("Classic example: even one No would have eliminated Clemente") {
    Table t = classicTable();
    t.move("alighiero", Place::Floor5);
    t.move("clemente", Place::Floor5);
    t.move("clemente", Place::Throne);
    t.vote({kYes, kNo, kYes, kYes});
    CHECK(t.at("clemente") == Place::Box);
}

TEST_CASE("Classic example: Umberto brings Fiorello to the throne, all vote Yes, Fiorello is King") {
    Table t = classicTable();
    t.move("alighiero", Place::Floor5);  // Rachel
    t.move("clemente", Place::Floor5);   // Simon
    t.move("clemente", Place::Throne);   // Theresa
    t.vote({kYes, kNo, kNo, kYes});
    t.move("fiorello", Place::Floor5);  // Umberto
    t.move("odessa", Place::Floor4);    // Rachel: the Dignitaries have room now
    t.move("irina", Place::Floor3);     // Simon
    t.move("natale", Place::Floor2);    // Theresa
    REQUIRE(t.toAct() == seat(kUmberto));
    t.move("fiorello", Place::Throne);
    t.vote({kYes, kYes, kYes, kYes});
    CHECK(t.happened(EventKind::RoundEnded));
    const RoundResult& r = t.state.finishedRounds().back();
    CHECK(r.kings == std::vector<CharacterId>{t.id("fiorello")});
    CHECK(r.crown == seat(kUmberto));
    // Fiorello 10, Alighiero 5, Beatrice Odessa 4, Dario Ernesto Gavino Irina 3,
    // Leonardo Merlino Natale 2, Piero 0, Clemente eliminated 0.
    CHECK(show(r.scores) == "[24, 11, 12, 24]");
    t.deal();
    CHECK(t.state.firstPlayer() == seat(kRachel));  // left of Umberto
}

TEST_CASE("2024 example: WCs, entered from below a full floor and left onto the same floor") {
    Table t(spec2024(4));
    t.deal();
    t.placeAll({{"eloise", 4},
                {"ouaf", 4},
                {"caius", 4},
                {"romeo", 4},
                {"foidvo", 3},
                {"merlin", 3},
                {"leonardo", 2},
                {"jeanne", 2},
                {"victoria", 2},
                {"bridget", 2},
                {"agathe", 1},
                {"gontran", 1}});
    // Margot (seat 0): floor 4 is full, floor 3 is not.
    CHECK_REFUSED(t.state, Action::move(seat(0), t.id("leonardo"), Place::Wc3), RefusalCode::FloorNotFull);
    t.move("foidvo", Place::Wc4);
    t.move("jeanne", Place::Floor3);
    t.move("victoria", Place::Floor3);  // floor 3 is full
    t.move("leonardo", Place::Wc3);
    // Margot: nothing from floor 3 may join the full floor 4; Romeo goes up.
    CHECK_REFUSED(t.state, Action::move(seat(0), t.id("merlin"), Place::Floor4), RefusalCode::FloorFull);
    t.move("romeo", Place::Floor5);
    // Charles: both WCs are taken; Leonardo cannot leave onto the full floor 3;
    // nobody leaves a WC upwards; Foidvo leaves onto floor 4.
    REQUIRE(t.toAct() == seat(kCharles));
    CHECK_REFUSED(t.state, Action::move(seat(kCharles), t.id("bridget"), Place::Wc3),
                  RefusalCode::WcOccupied);
    CHECK_REFUSED(t.state, Action::move(seat(kCharles), t.id("leonardo"), Place::Floor3),
                  RefusalCode::FloorFull);
    CHECK_REFUSED(t.state, Action::move(seat(kCharles), t.id("leonardo"), Place::Floor4),
                  RefusalCode::NotAdjacent);
    CHECK_REFUSED(t.state, Action::move(seat(kCharles), t.id("foidvo"), Place::Floor5),
                  RefusalCode::NotAdjacent);
    t.move("foidvo", Place::Floor4);
    CHECK(t.at("foidvo") == Place::Floor4);
}

namespace {

// The 2024 coronation examples' table: Charles has just brought Jeanne up to
// the throne room and everyone is about to vote.
Table jeanneOnTheThrone() {
    Table t(spec2024(4));
    t.deal();
    t.placeAll({{"jeanne", 4},
                {"ouaf", 4},
                {"caius", 4},
                {"foidvo", 4},
                {"eloise", 3},
                {"merlin", 3},
                {"victoria", 3},
                {"leonardo", 2},
                {"romeo", 2},
                {"bridget", 2},
                {"agathe", 1},
                {"gontran", 1}});
    t.move("jeanne", Place::Floor5);
    t.move("jeanne", Place::Throne);  // Charles
    return t;
}

}  // namespace

TEST_CASE("2024 example: Jeanne, the round's first rejected, goes to Dungeon3; the No is lost") {
    Table t = jeanneOnTheThrone();
    t.vote({kYes, kYes, kYes, kNo});
    CHECK(t.at("jeanne") == Place::Dungeon3);
    CHECK(t.state.hand(seat(3)) == Hand{1, 2, 1});
    CHECK(t.state.hand(seat(0)) == Hand{1, 3, 1});
}

TEST_CASE("2024 example: a Stomachache cancels Jeanne's coronation; No and Stomachache are lost") {
    Table t = jeanneOnTheThrone();
    t.vote({kStomachache, kYes, kNo, kYes});
    CHECK(t.at("jeanne") == Place::Floor5);
    CHECK(t.state.hand(seat(0)) == Hand{1, 3, 0});
    CHECK(t.state.hand(seat(2)) == Hand{1, 2, 1});
    CHECK(t.state.hand(seat(kCharles)) == Hand{1, 3, 1});
}

namespace {

// Merlin rejected to Dungeon3, Foidvo to Dungeon2, Victoria in WC4, Eloise
// on floor 5, Jeanne on floor 4; then seat 2 crowns `king` (Leonardo or the
// Jester, both on floor 4 by then).
void playScoringExample(Table& t, const char* king) {
    t.placeAll({{"merlin", 4},
                {"foidvo", 4},
                {"eloise", 4},
                {"caius", 4},
                {"victoria", 3},
                {"jeanne", 3},
                {"leonardo", 3},
                {"ouaf", 2},
                {"romeo", 2},
                {"bridget", 2},
                {"agathe", 1},
                {"gontran", 1}});
    t.climb("merlin", Place::Throne);
    t.voteAllYesBut({{0, kNo}});
    t.climb("foidvo", Place::Throne);
    t.voteAllYesBut({{1, kNo}});
    t.move("eloise", Place::Floor5);
    t.move("jeanne", Place::Floor4);
    t.move("leonardo", Place::Floor4);
    t.move("jester", Place::Floor4);
    t.move("victoria", Place::Wc4);
    t.move(king, Place::Floor5);
    REQUIRE(t.toAct() == seat(2));
    t.move(king, Place::Throne);
    t.vote({kYes, kYes, kYes, kYes});
}

}  // namespace

TEST_CASE(
    "2024 example: Leonardo is crowned; Merlin and Foidvo lose 3 and 2 in the dungeons, Victoria in the WC "
    "scores 0") {
    Table t(spec2024(4));
    t.deal({{"leonardo", "merlin", "foidvo", "victoria", "eloise", "ouaf"}});
    playScoringExample(t, "leonardo");
    CHECK(t.roundScores()[0] == 10 - 3 - 2 + 0 + 5 + 2);
    CHECK(t.state.totals()[0] == 32);
}

TEST_CASE("2024 example: the Jester is crowned and Charles's points are reversed") {
    // Charles's card is player 2's here; seat 2 brings the Jester up.
    Table t(spec2024(4));
    t.deal({{}, {}, {"eloise", "foidvo", "jeanne", "merlin", "ouaf", "victoria"}});
    playScoringExample(t, "jester");
    // Eloise -5, Foidvo +2, Jeanne -4, Merlin +3, Ouaf -2, Victoria 0.
    CHECK(t.roundScores()[2] == -6);
    CHECK(t.state.totals()[2] == 14);
}
