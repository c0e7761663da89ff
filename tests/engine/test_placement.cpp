// RULES §3.2: placement, clockwise from the round's first player, on floors
// 1-4 under the floor limit; the leftovers start on floor 0. The online
// preset has no placement phase.
#include <algorithm>

#include "scenario.hpp"

using namespace vivaref::test;

namespace {

// The seats that place, in order, for a whole placement phase.
std::vector<int> placementOrder(Table& t) {
    std::vector<int> order;
    const auto cast = ordinaryCharacters(t.roster());
    std::size_t next = 0;
    while (t.state.phase() == Phase::Placement) {
        order.push_back(t.toAct().index);
        // Fill floors 1-4 from the bottom, skipping full ones.
        bool placed = false;
        for (int floor = 1; floor <= 4 && !placed; ++floor) {
            if (t.state.countAt(floorPlace(floor)) >= t.rules->floorLimit()) continue;
            REQUIRE_ACCEPTED(t.apply(Action::place(t.toAct(), cast[next], floorPlace(floor))));
            placed = true;
        }
        REQUIRE(placed);
        ++next;
    }
    return order;
}

}  // namespace

TEST_CASE("RULES 3.2: seats place one character each in turn, clockwise from the first player") {
    Table t(classicSpec(4, 2));
    t.deal();
    CHECK(t.state.firstPlayer() == seat(2));
    CHECK(show([&] {
              std::vector<int> v;
              for (int s : placementOrder(t)) v.push_back(s);
              return v;
          }()) == "[2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1]");
    CHECK(t.state.phase() == Phase::Ascent);
    CHECK(t.toAct() == seat(2));  // the ascent starts with the first player too
}

TEST_CASE("RULES 2: with 7 seats the last seat in placement order places only one") {
    Table t(spec2024(7, Variant::None, {}, 3));
    t.deal();
    CHECK(show(placementOrder(t)) == "[3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1]");
    CHECK(t.state.countAt(Place::Floor0) == 0);
    CHECK(t.state.countAt(Place::Reserve) == 0);
}

TEST_CASE("RULES 2: with 8 seats the last three seats in placement order place only one") {
    Table t(spec2024(8, Variant::None, {}, 6));
    t.deal();
    CHECK(show(placementOrder(t)) == "[6, 7, 0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2]");
    CHECK(t.state.countAt(Place::Floor0) == 0);
}

TEST_CASE("RULES 3.2: the characters nobody placed start on floor 0") {
    Table t(classicSpec(5));
    t.deal();
    t.placeAll({{"alighiero", 1},
                {"beatrice", 1},
                {"clemente", 2},
                {"dario", 2},
                {"ernesto", 3},
                {"fiorello", 3},
                {"gavino", 4},
                {"irina", 4},
                {"leonardo", 4}});
    CHECK(t.state.phase() == Phase::Placement);
    CHECK(t.state.countAt(Place::Floor0) == 0);
    t.place("merlino", 1);
    CHECK(t.state.phase() == Phase::Ascent);
    CHECK(t.happened(EventKind::PlacementEnded));
    CHECK(std::count_if(t.events.begin(), t.events.end(),
                        [](const Event& e) { return e.kind == EventKind::LeftToFloor0; }) == 3);
    CHECK(t.at("natale") == Place::Floor0);
    CHECK(t.at("odessa") == Place::Floor0);
    CHECK(t.at("piero") == Place::Floor0);
    CHECK(t.state.countAt(Place::Reserve) == 0);
}

TEST_CASE("RULES 3.2: a character is placed only on floors 1-4") {
    Table t(spec2024(4));
    t.deal();
    const Seat s = t.toAct();
    for (Place p : {Place::Floor0, Place::Floor5, Place::Throne, Place::Wc3, Place::Wc4, Place::Dungeon1,
                    Place::Dungeon2, Place::Dungeon3, Place::Box}) {
        CAPTURE(p);
        CHECK_REFUSED(t.state, Action::place(s, t.id("eloise"), p), RefusalCode::FloorNotAllowed);
    }
    for (int floor = 1; floor <= 4; ++floor) {
        Table fresh(spec2024(4));
        fresh.deal();
        REQUIRE_ACCEPTED(fresh.apply(Action::place(fresh.toAct(), fresh.id("eloise"), floorPlace(floor))));
        CHECK(fresh.at("eloise") == floorPlace(floor));
    }
}

TEST_CASE("RULES 1: at most 4 characters on a floor during placement") {
    Table t(classicSpec(4));
    t.deal();
    t.placeAll({{"alighiero", 2}, {"beatrice", 2}, {"clemente", 2}, {"dario", 2}});
    CHECK_REFUSED(t.state, Action::place(t.toAct(), t.id("ernesto"), Place::Floor2), RefusalCode::FloorFull);
}

TEST_CASE("RULES 1: the Jester counts towards floor 3's limit") {
    Table t(spec2024(4));
    t.deal();
    t.placeAll({{"eloise", 3}, {"ouaf", 3}, {"caius", 3}});
    CHECK(t.state.countAt(Place::Floor3) == 4);
    CHECK_REFUSED(t.state, Action::place(t.toAct(), t.id("foidvo"), Place::Floor3), RefusalCode::FloorFull);
}

TEST_CASE("RULES 1: with 2 seats (2024) a floor holds at most 3") {
    Table t(spec2024(2, Variant::Emissary));
    t.deal();
    t.placeAll({{"eloise", 4}, {"ouaf", 4}, {"caius", 4}});
    CHECK_REFUSED(t.state, Action::place(t.toAct(), t.id("foidvo"), Place::Floor4), RefusalCode::FloorFull);
    t.place("foidvo", 3);
    t.place("jeanne", 3);  // with the Jester: 3
    CHECK_REFUSED(t.state, Action::place(t.toAct(), t.id("merlin"), Place::Floor3), RefusalCode::FloorFull);
}

TEST_CASE("RULES 3.2: a character already in the castle cannot be placed again") {
    Table t(spec2024(4));
    t.deal();
    t.place("eloise", 1);
    CHECK_REFUSED(t.state, Action::place(t.toAct(), t.id("eloise"), Place::Floor2),
                  RefusalCode::AlreadyPlaced);
    CHECK_REFUSED(t.state, Action::place(t.toAct(), t.id("jester"), Place::Floor2),
                  RefusalCode::AlreadyPlaced);
}

TEST_CASE("RULES 3.2: only the seat to act places") {
    Table t(classicSpec(4, 1));
    t.deal();
    CHECK_REFUSED(t.state, Action::place(seat(0), t.id("odessa"), Place::Floor1), RefusalCode::NotYourTurn);
    CHECK_REFUSED(t.state, Action::place(seat(2), t.id("odessa"), Place::Floor1), RefusalCode::NotYourTurn);
    CHECK_REFUSED(t.state, Action::place(seat(7), t.id("odessa"), Place::Floor1), RefusalCode::UnknownSeat);
    CHECK_REFUSED(t.state, Action::place(seat(1), CharacterId{40}, Place::Floor1),
                  RefusalCode::UnknownCharacter);
}

TEST_CASE("RULES 3.2: moves, votes and passes wait for the ascent") {
    Table t(classicSpec(4));
    t.deal();
    t.place("odessa", 3);
    CHECK_REFUSED(t.state, Action::move(t.toAct(), t.id("odessa"), Place::Floor4), RefusalCode::WrongPhase);
    CHECK_REFUSED(t.state, Action::vote(t.toAct(), kYes), RefusalCode::WrongPhase);
    CHECK_REFUSED(t.state, Action::pass(t.toAct()), RefusalCode::WrongPhase);
    CHECK_REFUSED(t.state, Action::keep(player(0), AmbitionCard::OnlyYes), RefusalCode::WrongPhase);
}

TEST_CASE("RULES 3.2: the legal placements are every unplaced character on every floor 1-4 below its limit") {
    Table t(spec2024(4));
    t.deal();
    t.placeAll({{"eloise", 3}, {"ouaf", 3}, {"caius", 3}});  // floor 3 is full with the Jester
    ActionList legal;
    t.state.legalActions(legal);
    CHECK(legal.size() == 10 * 3);  // 10 characters left, floors 1, 2, 4
    for (const Action& a : legal) {
        CHECK(a.kind() == ActionKind::Place);
        CHECK(a.seat() == t.toAct());
        CHECK(t.state.placeOf(a.character()) == Place::Reserve);
        CHECK((a.to() == Place::Floor1 || a.to() == Place::Floor2 || a.to() == Place::Floor4));
    }
}

TEST_CASE("RULES 3.2 online preset: no placement phase, the deal places every character on floors 0-3") {
    Table t(onlineSpec(4));
    Deal d = t.makeDeal();
    t.deal(d);
    CHECK(t.state.phase() == Phase::Ascent);
    for (int c = 0; c < 13; ++c)
        CHECK(t.state.placeOf(CharacterId{static_cast<std::uint8_t>(c)}) == d.placement[c]);
    CHECK(t.toAct() == seat(0));
    CHECK_REFUSED(t.state, Action::place(seat(0), t.id("odessa"), Place::Floor1), RefusalCode::WrongPhase);
}

TEST_CASE("RULES 3.2 online preset: a deal's placement outside floors 0-3 or above 4 a floor is bad-deal") {
    // Chance placed these characters, no seat: a wrong placement is a bad deal.
    Table t(onlineSpec(4));
    Deal onFloor4 = t.makeDeal();
    onFloor4.placement[0] = Place::Floor4;
    CHECK(outcome(t.state.apply(onFloor4)) == "bad-deal");
    Deal crowded = t.makeDeal();
    for (int c = 0; c < 5; ++c) crowded.placement[c] = Place::Floor2;
    for (int c = 5; c < 13; ++c) crowded.placement[c] = floorPlace(c % 2 == 0 ? 0 : 1);
    CHECK(outcome(t.state.apply(crowded)) == "bad-deal");
    Deal missing = t.makeDeal();
    missing.placement.pop_back();
    CHECK(outcome(t.state.apply(missing)) == "bad-deal");
    Deal none = t.makeDeal();
    none.placement.clear();
    CHECK(outcome(t.state.apply(none)) == "bad-deal");
    CHECK(t.state.phase() == Phase::AwaitDeal);
}
