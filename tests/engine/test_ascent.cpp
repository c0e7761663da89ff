// RULES §3.3: the ascent. One move a turn, clockwise; up exactly one floor
// below the limit; the 2024 WCs; never down; dungeons and the box hold
// their characters; a pass only without a legal move.
#include <algorithm>

#include "scenario.hpp"

using namespace vivaref::test;

namespace {

// The legal-action list and apply() agree: everything listed is accepted,
// every other move or pass is refused.
void checkLegalListMatchesApply(const State& s) {
    ActionList legal;
    s.legalActions(legal);
    for (const Action& a : legal) {
        State copy = s;
        CHECK(outcome(copy.apply(a)) == "accepted");
    }
    const int seats = s.rules().seats();
    for (int st = 0; st < seats; ++st) {
        for (int c = 0; c < s.characterCount(); ++c) {
            for (int p = 0; p < kPlaceCount; ++p) {
                const Action a =
                    Action::move(seat(st), CharacterId{static_cast<std::uint8_t>(c)}, static_cast<Place>(p));
                const bool listed = std::find(legal.begin(), legal.end(), a) != legal.end();
                State copy = s;
                const bool accepted = !copy.apply(a).has_value();
                CAPTURE(st);
                CAPTURE(c);
                CAPTURE(static_cast<Place>(p));
                CHECK(listed == accepted);
            }
        }
        const Action pass = Action::pass(seat(st));
        State copy = s;
        CHECK((std::find(legal.begin(), legal.end(), pass) != legal.end()) == !copy.apply(pass).has_value());
    }
}

}  // namespace

TEST_CASE("RULES 3.3: each seat in turn moves one character up exactly one floor") {
    Table t(classicSpec(4, 1));
    t.start();
    placeClassicLadder(t);
    CHECK(t.toAct() == seat(1));
    t.move("alighiero", Place::Floor5);
    CHECK(t.happened(EventKind::Moved));
    CHECK(t.at("alighiero") == Place::Floor5);
    CHECK(t.toAct() == seat(2));
    t.move("ernesto", Place::Floor4);
    CHECK(t.toAct() == seat(3));
    t.move("piero", Place::Floor1);
    CHECK(t.toAct() == seat(0));
    t.move("odessa", Place::Floor2);
    CHECK(t.toAct() == seat(1));
    // Clockwise around again; the seat that just moved may not move again.
    CHECK_REFUSED(t.state, Action::move(seat(0), t.id("natale"), Place::Floor3), RefusalCode::NotYourTurn);
}

TEST_CASE("RULES 3.3: a character moves up exactly one floor, never two") {
    Table t(classicSpec(4));
    t.start();
    placeClassicLadder(t);
    CHECK_REFUSED(t.state, Action::move(t.toAct(), t.id("alighiero"), Place::Throne),
                  RefusalCode::NotAdjacent);
    CHECK_REFUSED(t.state, Action::move(t.toAct(), t.id("leonardo"), Place::Floor4),
                  RefusalCode::NotAdjacent);
    CHECK_REFUSED(t.state, Action::move(t.toAct(), t.id("piero"), Place::Floor2), RefusalCode::NotAdjacent);
    CHECK_REFUSED(t.state, Action::move(t.toAct(), t.id("odessa"), Place::Floor1), RefusalCode::NotAdjacent);
}

TEST_CASE("RULES 3.3: a character never moves down") {
    Table t(classicSpec(4));
    t.start();
    placeClassicLadder(t);
    t.move("alighiero", Place::Floor5);
    CHECK_REFUSED(t.state, Action::move(t.toAct(), t.id("alighiero"), Place::Floor4),
                  RefusalCode::NotAdjacent);
    CHECK_REFUSED(t.state, Action::move(t.toAct(), t.id("leonardo"), Place::Floor1),
                  RefusalCode::NotAdjacent);
    CHECK_REFUSED(t.state, Action::move(t.toAct(), t.id("odessa"), Place::Floor0), RefusalCode::NotAdjacent);
}

TEST_CASE("RULES 1, 3.3: a move onto a floor at its limit is refused") {
    Table t(classicSpec(4));
    t.start();
    placeClassicLadder(t);
    CHECK_REFUSED(t.state, Action::move(t.toAct(), t.id("ernesto"), Place::Floor4), RefusalCode::FloorFull);
    CHECK_REFUSED(t.state, Action::move(t.toAct(), t.id("natale"), Place::Floor3), RefusalCode::FloorFull);
    t.move("alighiero", Place::Floor5);
    t.move("ernesto", Place::Floor4);  // room again
    CHECK(t.state.countAt(Place::Floor4) == 4);
}

TEST_CASE("RULES 1: with 2 seats (2024) floors 1-5 hold 3 in the ascent too") {
    Table t(spec2024(2, Variant::Emissary));
    t.start();
    t.placeAll({{"eloise", 4},
                {"ouaf", 4},
                {"caius", 4},
                {"foidvo", 3},
                {"jeanne", 3},
                {"merlin", 2},
                {"victoria", 2},
                {"leonardo", 2},
                {"romeo", 1},
                {"bridget", 1}});
    CHECK_REFUSED(t.state, Action::move(t.toAct(), t.id("foidvo"), Place::Floor4), RefusalCode::FloorFull);
    t.move("eloise", Place::Floor5);
    t.move("ouaf", Place::Floor5);
    t.move("caius", Place::Floor5);
    t.move("foidvo", Place::Floor4);
    CHECK_REFUSED(t.state, Action::move(t.toAct(), t.id("foidvo"), Place::Floor5), RefusalCode::FloorFull);
}

TEST_CASE("RULES 3.3: moving a character from floor 5 to the throne opens an election") {
    Table t(classicSpec(4, 3));
    t.start();
    placeClassicLadder(t);
    t.move("alighiero", Place::Floor5);  // seat 3
    t.move("alighiero", Place::Throne);  // seat 0
    CHECK(t.happened(EventKind::ElectionOpened));
    CHECK(t.state.phase() == Phase::Election);
    CHECK(t.state.candidate() == t.id("alighiero"));
    CHECK(t.state.crownHolder() == seat(0));
    CHECK(t.at("alighiero") == Place::Throne);
    CHECK(t.state.toAct().size() == 4);
    CHECK_REFUSED(t.state, Action::move(seat(1), t.id("beatrice"), Place::Floor5), RefusalCode::WrongPhase);
}

TEST_CASE("RULES 3.3 (2024): into the WC of the floor above only when that floor is full and the WC free") {
    Table t(spec2024(4));
    t.start();
    place2024Ladder(t);  // floors 4 and 3 are full
    t.move("jeanne", Place::Wc4);
    CHECK(t.at("jeanne") == Place::Wc4);
    CHECK(t.state.countAt(Place::Floor3) == 3);
    // Floor 3 is no longer full: nobody may enter its WC.
    CHECK_REFUSED(t.state, Action::move(t.toAct(), t.id("leonardo"), Place::Wc3), RefusalCode::FloorNotFull);
    // WC4 is taken.
    CHECK_REFUSED(t.state, Action::move(t.toAct(), t.id("merlin"), Place::Wc4), RefusalCode::WcOccupied);
    // A WC is entered from the floor below only.
    CHECK_REFUSED(t.state, Action::move(t.toAct(), t.id("leonardo"), Place::Wc4), RefusalCode::NotAdjacent);
    CHECK_REFUSED(t.state, Action::move(t.toAct(), t.id("eloise"), Place::Wc4), RefusalCode::NotAdjacent);
    t.move("leonardo", Place::Floor3);  // floor 3 full again
    t.move("romeo", Place::Wc3);
    CHECK(t.at("romeo") == Place::Wc3);
    CHECK(t.state.countAt(Place::Floor3) == 4);
    CHECK(t.state.countAt(Place::Wc3) == 1);
}

TEST_CASE("RULES 3.3 (2024): a character leaves a WC onto the same floor, when it is below its limit") {
    Table t(spec2024(4));
    t.start();
    place2024Ladder(t);
    t.move("jeanne", Place::Wc4);       // seat 0
    t.move("leonardo", Place::Floor3);  // seat 1
    t.move("romeo", Place::Wc3);        // seat 2: both WCs taken, floors 3 and 4 full
    CHECK_REFUSED(t.state, Action::move(t.toAct(), t.id("jeanne"), Place::Floor4), RefusalCode::FloorFull);
    CHECK_REFUSED(t.state, Action::move(t.toAct(), t.id("romeo"), Place::Floor3), RefusalCode::FloorFull);
    CHECK_REFUSED(t.state, Action::move(t.toAct(), t.id("jeanne"), Place::Floor5), RefusalCode::NotAdjacent);
    CHECK_REFUSED(t.state, Action::move(t.toAct(), t.id("romeo"), Place::Floor4), RefusalCode::NotAdjacent);
    CHECK_REFUSED(t.state, Action::move(t.toAct(), t.id("romeo"), Place::Floor2), RefusalCode::NotAdjacent);
    t.move("eloise", Place::Floor5);  // seat 3: floor 4 has room
    t.move("jeanne", Place::Floor4);  // seat 0
    CHECK(t.at("jeanne") == Place::Floor4);
    CHECK(t.state.countAt(Place::Wc4) == 0);
}

TEST_CASE("RULES 1: WCs do not count towards a floor's limit") {
    Table t(spec2024(4));
    t.start();
    place2024Ladder(t);
    t.move("jeanne", Place::Wc4);
    t.move("leonardo", Place::Floor3);
    CHECK(t.state.countAt(Place::Floor4) == 4);
    CHECK(t.state.countAt(Place::Floor3) == 4);
    CHECK_REFUSED(t.state, Action::move(t.toAct(), t.id("merlin"), Place::Floor4), RefusalCode::FloorFull);
}

TEST_CASE("RULES 3.3: the classic edition has no WCs") {
    Table t(classicSpec(4));
    t.start();
    placeClassicLadder(t);  // floor 4 is full
    const auto p = probe(t.state, Action::move(t.toAct(), t.id("ernesto"), Place::Wc4));
    CHECK(p.code != "accepted");
    CHECK(p.unchanged);
}

TEST_CASE("RULES 3.3 (2024): a character in a dungeon never moves") {
    Table t(spec2024(4));
    t.start();
    place2024Ladder(t);
    t.climb("eloise", Place::Throne);
    t.voteAllYesBut({{0, kNo}});
    REQUIRE(t.at("eloise") == Place::Dungeon3);
    CHECK_REFUSED(t.state, Action::move(t.toAct(), t.id("eloise"), Place::Floor4), RefusalCode::CannotMove);
    CHECK_REFUSED(t.state, Action::move(t.toAct(), t.id("eloise"), Place::Floor3), RefusalCode::CannotMove);
    CHECK_REFUSED(t.state, Action::move(t.toAct(), t.id("eloise"), Place::Floor5), RefusalCode::CannotMove);
}

TEST_CASE("RULES 3.3: a character in the box (out of the round) never moves") {
    Table t(classicSpec(4));
    t.start();
    placeClassicLadder(t);
    t.climb("alighiero", Place::Throne);
    t.voteAllYesBut({{2, kNo}});
    REQUIRE(t.at("alighiero") == Place::Box);
    // The box is outside the castle.
    CHECK_REFUSED(t.state, Action::move(t.toAct(), t.id("alighiero"), Place::Floor5),
                  RefusalCode::CharacterNotInCastle);
    CHECK_REFUSED(t.state, Action::move(t.toAct(), t.id("alighiero"), Place::Throne),
                  RefusalCode::CharacterNotInCastle);
}

TEST_CASE("Decision: a pass is legal only without a legal move (must-move)") {
    Table t(classicSpec(4));
    t.start();
    placeClassicLadder(t);
    CHECK_REFUSED(t.state, Action::pass(t.toAct()), RefusalCode::MustMove);
    CHECK_REFUSED(t.state, Action::pass(t.rules->nextSeat(t.toAct())), RefusalCode::NotYourTurn);
    ActionList legal;
    t.state.legalActions(legal);
    CHECK(std::none_of(legal.begin(), legal.end(),
                       [](const Action& a) { return a.kind() == ActionKind::Pass; }));
}

TEST_CASE("RULES 3.3: the legal moves are exactly the moves apply() accepts") {
    SUBCASE("classic, after placement") {
        Table t(classicSpec(4));
        t.start();
        placeClassicLadder(t);
        checkLegalListMatchesApply(t.state);
        t.move("alighiero", Place::Floor5);
        checkLegalListMatchesApply(t.state);
    }
    SUBCASE("2024 with WCs and a dungeon") {
        Table t(spec2024(4));
        t.start();
        place2024Ladder(t);
        checkLegalListMatchesApply(t.state);
        t.move("jeanne", Place::Wc4);
        checkLegalListMatchesApply(t.state);
        t.climb("eloise", Place::Throne);
        t.voteAllYesBut({{1, kNo}});
        checkLegalListMatchesApply(t.state);
    }
}

TEST_CASE("RULES 3.3 (2024): with 2 seats a floor of 3 is full, so its WC opens") {
    Table t(spec2024(2, Variant::Emissary));
    t.start();
    t.placeAll({{"eloise", 4},
                {"ouaf", 4},
                {"caius", 4},
                {"foidvo", 3},
                {"jeanne", 2},
                {"merlin", 2},
                {"victoria", 2},
                {"leonardo", 1},
                {"romeo", 1},
                {"bridget", 1}});
    t.move("foidvo", Place::Wc4);  // floor 4 holds its limit of 3
    CHECK(t.at("foidvo") == Place::Wc4);
    CHECK_REFUSED(t.state, Action::move(t.toAct(), t.id("foidvo"), Place::Floor4), RefusalCode::FloorFull);
    t.move("jeanne", Place::Floor3);  // floor 3: the Jester and jeanne
    CHECK_REFUSED(t.state, Action::move(t.toAct(), t.id("merlin"), Place::Wc3), RefusalCode::FloorNotFull);
    t.move("eloise", Place::Floor5);
    t.move("foidvo", Place::Floor4);
    CHECK(t.at("foidvo") == Place::Floor4);
}
