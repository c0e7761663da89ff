// RULES §2 and §6: the setup tables, computed placement counts, and the
// setups the referee must refuse.
#include <algorithm>

#include "scenario.hpp"

using namespace vivaref::test;

namespace {

struct SetupRow {
    int seats;
    int no;
    int stomachache;
    std::vector<int> placedBySeat;  // in placement order
    int leftOnFloor0;
};

void checkRow(const RulesSpec& spec, const SetupRow& row) {
    CAPTURE(row.seats);
    const Rules rules(spec);
    CHECK(rules.seats() == row.seats);
    CHECK(int{rules.startingHand().yes} == 1);
    CHECK(int{rules.startingHand().no} == row.no);
    CHECK(int{rules.startingHand().stomachache} == row.stomachache);
    int total = 0;
    for (int order = 0; order < row.seats; ++order) {
        CAPTURE(order);
        CHECK(rules.placementsFor(order) == row.placedBySeat[order]);
        total += row.placedBySeat[order];
    }
    CHECK(rules.totalPlacements() == total);
    const int ordinary = 13;
    CHECK(ordinary - total == row.leftOnFloor0);
}

// RULES §2 "computed, not looked up", written out independently.
int expectedPlacements(bool is2024, int seats, int order) {
    const int limit = (is2024 && seats == 2) ? 3 : 4;
    const int room = 4 * limit - (is2024 ? 1 : 0);
    if (seats <= 6) return std::min(13 / seats, room / seats);
    return 13 / seats + (order < 13 % seats ? 1 : 0);
}

bool refused(const RulesSpec& spec) {
    const auto r = Rules::validate(spec);
    return r.has_value() && r->code == RefusalCode::BadSetup && !r->message.code.empty();
}

RulesSpec withRoster(RulesSpec spec, std::vector<Character> characters) {
    spec.roster = Roster(std::move(characters));
    return spec;
}

}  // namespace

TEST_CASE("RULES 2: the classic setup table (3-6 players)") {
    checkRow(classicSpec(3), {3, 4, 0, {4, 4, 4}, 1});
    checkRow(classicSpec(4), {4, 3, 0, {3, 3, 3, 3}, 1});
    checkRow(classicSpec(5), {5, 2, 0, {2, 2, 2, 2, 2}, 3});
    checkRow(classicSpec(6), {6, 2, 0, {2, 2, 2, 2, 2, 2}, 1});
    for (int seats = 3; seats <= 6; ++seats) {
        const Rules rules(classicSpec(seats));
        CHECK(rules.floorLimit() == 4);
        CHECK(rules.startingScore() == 0);
        CHECK(rules.rounds() == 3);
        CHECK(rules.roster().size() == 13);
        CHECK(rules.roster().jester().index == kInvalidIndex);
        CHECK(rules.hasRule33());
        CHECK(rules.hasPlacementPhase());
    }
}

TEST_CASE("RULES 2: the 2024 setup table (3-8 seats)") {
    checkRow(spec2024(3), {3, 4, 1, {4, 4, 4}, 1});
    checkRow(spec2024(4), {4, 3, 1, {3, 3, 3, 3}, 1});
    checkRow(spec2024(5), {5, 2, 1, {2, 2, 2, 2, 2}, 3});
    checkRow(spec2024(6), {6, 2, 1, {2, 2, 2, 2, 2, 2}, 1});
    checkRow(spec2024(7), {7, 2, 1, {2, 2, 2, 2, 2, 2, 1}, 0});
    checkRow(spec2024(8), {8, 2, 1, {2, 2, 2, 2, 2, 1, 1, 1}, 0});
    for (int seats = 3; seats <= 8; ++seats) {
        const Rules rules(spec2024(seats));
        CHECK(rules.floorLimit() == 4);
        CHECK(rules.startingScore() == 20);
        CHECK(rules.rounds() == 3);
        CHECK(rules.roster().size() == 14);
        CHECK(rules.roster().isJester(rules.roster().find("jester")));
        CHECK_FALSE(rules.hasRule33());
    }
}

TEST_CASE("Decision: with 2 seats (2024) each seat places 5 and 3 characters start on floor 0") {
    const RulesSpec spec = spec2024(2, Variant::Emissary);
    const Rules rules(spec);
    CHECK(rules.floorLimit() == 3);
    checkRow(spec, {2, 4, 1, {5, 5}, 3});

    Table t(spec);
    t.start();
    // Ten placements: floors 1-4 hold 3 each, the Jester already on floor 3.
    t.placeAll({{"eloise", 1},
                {"ouaf", 1},
                {"caius", 1},
                {"foidvo", 2},
                {"jeanne", 2},
                {"merlin", 2},
                {"victoria", 3},
                {"leonardo", 3},
                {"romeo", 4},
                {"bridget", 4}});
    CHECK(t.state.phase() == Phase::Ascent);
    CHECK(t.state.countAt(Place::Floor0) == 3);
    CHECK(t.at("agathe") == Place::Floor0);
    CHECK(t.at("gontran") == Place::Floor0);
    CHECK(t.at("blanche") == Place::Floor0);
    CHECK(t.state.countAt(Place::Reserve) == 0);
}

TEST_CASE("RULES 2: placement counts are computed for every edition and seat count") {
    for (int seats = 3; seats <= 6; ++seats) {
        const Rules rules(classicSpec(seats));
        for (int order = 0; order < seats; ++order) {
            CAPTURE(seats);
            CAPTURE(order);
            CHECK(rules.placementsFor(order) == expectedPlacements(false, seats, order));
        }
    }
    for (int seats = 2; seats <= 8; ++seats) {
        const Rules rules(spec2024(seats, seats <= 5 ? Variant::Emissary : Variant::None));
        for (int order = 0; order < seats; ++order) {
            CAPTURE(seats);
            CAPTURE(order);
            CHECK(rules.placementsFor(order) == expectedPlacements(true, seats, order));
        }
    }
}

TEST_CASE("RULES 6 Emissary: No cards are 4, 3, 2, 2 for 2-5 seats and its score starts at 40") {
    const int expectedNo[] = {0, 0, 4, 3, 2, 2};
    for (int seats = 2; seats <= 5; ++seats) {
        CAPTURE(seats);
        const Rules rules(spec2024(seats, Variant::Emissary));
        CHECK(int{rules.startingHand().no} == expectedNo[seats]);
        CHECK(int{rules.startingHand().yes} == 1);
        CHECK(int{rules.startingHand().stomachache} == 1);
        CHECK(rules.emissaryStartingScore() == 40);
        CHECK(rules.hasEmissary());
        // The Emissary is no seat: it changes neither seats nor placements.
        CHECK(rules.seats() == seats);
        CHECK(rules.players() == seats);
        for (int order = 0; order < seats; ++order)
            CHECK(rules.placementsFor(order) == expectedPlacements(true, seats, order));
    }
}

TEST_CASE("RULES 6 Teams: the setup tables count seats (teams and lone players), not players") {
    // 7 players: 3 teams of 2 and a lone player are 4 seats.
    const Rules rules(teamsSpec(4, 3));
    CHECK(rules.seats() == 4);
    CHECK(rules.players() == 7);
    CHECK(int{rules.startingHand().no} == 3);
    CHECK(rules.floorLimit() == 4);
    for (int order = 0; order < 4; ++order) CHECK(rules.placementsFor(order) == 3);
    CHECK(rules.playersAt(seat(0)) == 2);
    CHECK(rules.playersAt(seat(3)) == 1);
    CHECK(rules.playerAt(seat(1), 0) == player(2));
    CHECK(rules.playerAt(seat(1), 1) == player(3));
    CHECK(rules.seatOf(player(5)) == seat(2));
    CHECK(rules.seatOf(player(6)) == seat(3));

    // 6 players in 3 teams play like 3 players: 4 No each (the rulebook's example).
    const Rules three(teamsSpec(3, 3, Variant::TeamPawn));
    CHECK(int{three.startingHand().no} == 4);
    CHECK(three.players() == 6);
    CHECK(three.isTeamPawn());
}

TEST_CASE("RULES 3: a game is 3 rounds, the online preset 1; a spec may set the number") {
    CHECK(Rules(classicSpec(4)).rounds() == 3);
    CHECK(Rules(spec2024(4)).rounds() == 3);
    const Rules online(onlineSpec(4));
    CHECK(online.rounds() == 1);
    CHECK_FALSE(online.hasPlacementPhase());
    RulesSpec five = classicSpec(4);
    five.rounds = 5;
    CHECK(Rules(five).rounds() == 5);
    RulesSpec first = classicSpec(4, 2);
    CHECK(Rules(first).firstSeat() == seat(2));
}

TEST_CASE("RULES 3.1: after the deal every seat holds the setup hand and the scores start at 0 / 20") {
    SUBCASE("classic") {
        Table t(classicSpec(4));
        t.deal();
        CHECK(t.state.phase() == Phase::Placement);
        for (int s = 0; s < 4; ++s) CHECK(t.state.hand(seat(s)) == Hand{1, 3, 0});
        CHECK(show(t.state.totals()) == "[0, 0, 0, 0]");
        CHECK(t.state.countAt(Place::Reserve) == 13);
        CHECK(t.toAct() == seat(0));
    }
    SUBCASE("2024: the Jester stands on floor 3 before anything else") {
        Table t(spec2024(5, Variant::None, {}, 3));
        t.deal();
        CHECK(t.happened(EventKind::JesterSetUp));
        CHECK(t.at("jester") == Place::Floor3);
        CHECK(t.state.countAt(Place::Reserve) == 13);
        for (int s = 0; s < 5; ++s) CHECK(t.state.hand(seat(s)) == Hand{1, 2, 1});
        CHECK(show(t.state.totals()) == "[20, 20, 20, 20, 20]");
        CHECK(t.toAct() == seat(3));
    }
    SUBCASE("the Emissary's pile and score") {
        Table t(spec2024(3, Variant::Emissary));
        t.deal();
        CHECK(t.state.emissaryTotal() == 40);
        auto pile = t.state.emissaryPile();
        CHECK(pile.size() == 5);
        CHECK(std::count(pile.begin(), pile.end(), kNo) == 3);
        CHECK(std::count(pile.begin(), pile.end(), kYes) == 1);
        CHECK(std::count(pile.begin(), pile.end(), kStomachache) == 1);
    }
}

TEST_CASE("RULES 2: setups outside the tables are refused with bad-setup") {
    SUBCASE("seats out of range") {
        CHECK(refused(classicSpec(2)));
        CHECK(refused(classicSpec(7)));
        CHECK(refused(onlineSpec(2)));
        CHECK(refused(onlineSpec(7)));
        CHECK(refused(spec2024(1)));
        CHECK(refused(spec2024(9)));
        CHECK(refused(spec2024(0)));
        CHECK(refused(spec2024(-3)));
    }
    SUBCASE("options and variants belong to the 2024 edition") {
        RulesSpec s = classicSpec(4);
        s.options.ambition = true;
        CHECK(refused(s));
        s = classicSpec(4);
        s.options.banished = true;
        CHECK(refused(s));
        s = onlineSpec(4);
        s.options.ambition = true;
        CHECK(refused(s));
        for (Variant v : {Variant::Emissary, Variant::RoyalCouple, Variant::Teams, Variant::TeamPawn}) {
            s = classicSpec(4);
            s.variant = v;
            if (v == Variant::Teams || v == Variant::TeamPawn) s.teams = {{0, 1}, {2}, {3}, {4}};
            CHECK(refused(s));
            s.edition = Edition::Online;
            CHECK(refused(s));
        }
    }
    SUBCASE("2 seats need the Emissary") {
        CHECK(refused(spec2024(2)));
        CHECK(refused(spec2024(2, Variant::RoyalCouple)));
        CHECK_FALSE(Rules::validate(spec2024(2, Variant::Emissary)).has_value());
    }
    SUBCASE("the Emissary plays with 2-5 seats") {
        for (int seats = 2; seats <= 5; ++seats)
            CHECK_FALSE(Rules::validate(spec2024(seats, Variant::Emissary)).has_value());
        CHECK(refused(spec2024(6, Variant::Emissary)));
        CHECK(refused(spec2024(8, Variant::Emissary)));
    }
    SUBCASE("teams need at least 3 seats") {
        CHECK(refused(teamsSpec(2, 2)));
        CHECK(refused(teamsSpec(2, 1, Variant::TeamPawn)));
        CHECK_FALSE(Rules::validate(teamsSpec(3, 1)).has_value());
        CHECK_FALSE(Rules::validate(teamsSpec(8, 8, Variant::TeamPawn)).has_value());
    }
    SUBCASE("one variant at a time: a teams list with another variant") {
        RulesSpec s = teamsSpec(4, 1);
        s.variant = Variant::Emissary;
        CHECK(refused(s));
        s.variant = Variant::RoyalCouple;
        CHECK(refused(s));
        s.variant = Variant::None;
        CHECK(refused(s));
    }
    SUBCASE("Ambition deals 2 of 16 cards each: at most 8 players") {
        Options ambition{true, false};
        CHECK_FALSE(Rules::validate(teamsSpec(4, 4, Variant::Teams, ambition)).has_value());
        CHECK(refused(teamsSpec(5, 4, Variant::Teams, ambition)));
        CHECK(refused(teamsSpec(8, 8, Variant::TeamPawn, ambition)));
        CHECK_FALSE(Rules::validate(spec2024(8, Variant::None, ambition)).has_value());
    }
    SUBCASE("bad teams lists") {
        RulesSpec s = spec2024(4, Variant::Teams);
        CHECK(refused(s));  // no list at all
        s.teams = {{0, 1}, {2}, {3}};
        CHECK(refused(s));  // 3 seats listed for 4
        s.teams = {{0, 1}, {1, 2}, {3}, {4}};
        CHECK(refused(s));  // a player in two seats
        s.teams = {{0, 1, 2}, {3}, {4}, {5}};
        CHECK(refused(s));  // a team of three
        s.teams = {{0, 1}, {}, {2}, {3}};
        CHECK(refused(s));  // an empty seat
        s.teams = {{0, 1}, {2}, {3}, {5}};
        CHECK(refused(s));  // player 4 missing
        s.teams = {{0, 1}, {2}, {3}, {-1}};
        CHECK(refused(s));
    }
    SUBCASE("the first player and the number of rounds") {
        CHECK(refused(classicSpec(4, 4)));
        CHECK(refused(classicSpec(4, -1)));
        RulesSpec s = classicSpec(4);
        s.rounds = 0;
        CHECK(refused(s));
        s.rounds = kMaxRounds + 1;
        CHECK(refused(s));
        s.rounds = 1;
        CHECK_FALSE(Rules::validate(s).has_value());
    }
    SUBCASE("a custom roster keeps the edition's size and one Jester in 2024") {
        std::vector<Character> classic = classicRoster().characters();
        CHECK_FALSE(Rules::validate(withRoster(classicSpec(4), classic)).has_value());
        auto shorter = classic;
        shorter.pop_back();
        CHECK(refused(withRoster(classicSpec(4), shorter)));
        auto withJester = classic;
        withJester.push_back({"pulcinella", "Pulcinella", CharacterKind::Jester});
        CHECK(refused(withRoster(classicSpec(4), withJester)));

        std::vector<Character> modern = roster2024().characters();
        CHECK_FALSE(Rules::validate(withRoster(spec2024(4), modern)).has_value());
        auto noJester = modern;
        for (auto& c : noJester)
            if (c.kind == CharacterKind::Jester) c.kind = CharacterKind::Man;
        CHECK(refused(withRoster(spec2024(4), noJester)));
        auto twoJesters = modern;
        twoJesters[0].kind = CharacterKind::Jester;
        CHECK(refused(withRoster(spec2024(4), twoJesters)));
        auto sameId = classic;
        sameId[1].id = sameId[0].id;
        CHECK(refused(withRoster(classicSpec(4), sameId)));
    }
}

TEST_CASE("RULES 1: a renamed roster plays under its own ids, the Jester recognised by its kind") {
    std::vector<Character> modern = roster2024().characters();
    for (auto& c : modern)
        if (c.kind == CharacterKind::Jester) c.id = "fool";
    RulesSpec spec = spec2024(4);
    spec.roster = Roster(modern);
    Table t(spec);
    t.deal();
    CHECK(t.at("fool") == Place::Floor3);
    CHECK(t.roster().isJester(t.id("fool")));
}
