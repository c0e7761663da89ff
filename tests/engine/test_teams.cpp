// RULES §6 Teams: a team is one seat with one shared hand; each teammate
// has a card, a score and an Ambition card; the team's result is the lower
// score. Single-pawn teams: one score, advanced by the lower coronation score.
#include "scenario.hpp"

using namespace vivaref::test;

namespace {

// 3 seats: players 0 and 1 are seat 0; player 2 is seat 1; player 3 seat 2.
// The ladder with eloise crowned by seat 1 scores these cards 28, 8, 20, 15.
const std::vector<std::vector<std::string>> kTeamCards{
    {"eloise", "ouaf", "caius", "foidvo", "jeanne", "merlin"},
    {"leonardo", "romeo", "bridget", "agathe", "gontran", "blanche"},
    {"eloise", "jeanne", "merlin", "victoria", "agathe", "blanche"},
    {"ouaf", "caius", "victoria", "leonardo", "agathe", "gontran"}};

RulesSpec oneRound(RulesSpec spec) {
    spec.rounds = 1;
    return spec;
}

void crownEloise(Table& t) {
    place2024Ladder(t);
    t.climb("eloise", Place::Throne);
    t.vote(std::vector<VoteCard>(t.seats(), kYes));
}

}  // namespace

TEST_CASE("RULES 6 Teams: a team places, moves and votes as one seat with one shared hand") {
    Table t(teamsSpec(3, 1));
    REQUIRE(t.players() == 4);
    t.start(kTeamCards);
    CHECK(t.toAct() == seat(0));
    t.place("eloise", 4);
    CHECK(t.toAct() == seat(1));
    CHECK_REFUSED(t.state, Action::place(seat(3), t.id("ouaf"), Place::Floor4), RefusalCode::UnknownSeat);
    Table u(teamsSpec(3, 1));
    u.start(kTeamCards);
    place2024Ladder(u);
    u.climb("eloise", Place::Throne);
    CHECK(u.state.toAct().size() == 3);
    u.vote({kNo, kYes, kYes});
    CHECK(u.state.hand(seat(0)) == Hand{1, 3, 1});
    // Both teammates see the one hand.
    CHECK(playerView(u.state, player(0)).hand == u.state.hand(seat(0)));
    CHECK(playerView(u.state, player(1)).hand == u.state.hand(seat(0)));
    CHECK(playerView(u.state, player(1)).seat == seat(0));
}

TEST_CASE("RULES 6 Teams: each teammate scores their own card on their own score") {
    Table t(teamsSpec(3, 1));
    t.start(kTeamCards);
    crownEloise(t);
    CHECK(show(t.roundScores()) == "[28, 8, 20, 15]");
    CHECK(show(t.state.totals()) == "[48, 28, 40, 35]");
}

TEST_CASE("RULES 6 Teams: a team's result is the lower of its two scores") {
    Table t(oneRound(teamsSpec(3, 1)));
    t.start(kTeamCards);
    crownEloise(t);
    REQUIRE(t.state.isOver());
    // Team 48/28 counts 28; the lone player 2 with 40 wins.
    CHECK(show(t.state.winners()) == "[2]");
}

TEST_CASE("RULES 6 single-pawn teams: one score, advanced by the lower of the two coronation scores") {
    Table t(oneRound(teamsSpec(3, 1, Variant::TeamPawn)));
    t.start(kTeamCards);
    crownEloise(t);
    CHECK(show(t.roundScores()) == "[8, 8, 20, 15]");
    CHECK(show(t.state.totals()) == "[28, 28, 40, 35]");
    CHECK(show(t.state.winners()) == "[2]");
}

TEST_CASE("RULES 6 Teams: the winning team's two players both win") {
    Table t(oneRound(teamsSpec(3, 1)));
    // Team cards 28 and 28 beat the lone players.
    t.start({{"eloise", "ouaf", "caius", "foidvo", "jeanne", "merlin"},
             {"eloise", "ouaf", "caius", "foidvo", "jeanne", "victoria"},
             {"leonardo", "romeo", "bridget", "agathe", "gontran", "blanche"},
             {"ouaf", "caius", "victoria", "leonardo", "agathe", "gontran"}});
    crownEloise(t);
    CHECK(show(t.state.winners()) == "[0, 1]");
}

TEST_CASE("RULES 2: compensation with teams: each teammate gains 3, a single-pawn team once") {
    // 7 seats from seat 1: seat 0 places last. Seat 0 is players 0 and 1.
    RulesSpec teams = teamsSpec(7, 2);
    teams.first = 1;
    Table t(teams);
    t.deal();
    CHECK(show(t.state.totals()) == "[23, 23, 20, 20, 20, 20, 20, 20, 20]");
    RulesSpec pawn = teamsSpec(7, 2, Variant::TeamPawn);
    pawn.first = 1;
    Table u(pawn);
    u.deal();
    CHECK(show(u.state.totals()) == "[23, 23, 20, 20, 20, 20, 20, 20, 20]");
    CHECK(show(u.state.currentRound().scores) == "[3, 3, 0, 0, 0, 0, 0, 0, 0]");
}

TEST_CASE("Decision: with teams, Friend of the King and Only Yes are judged for the seat") {
    Table t(teamsSpec(3, 1, Variant::Teams, Options{true, false}));
    Deal d = t.makeDeal(kTeamCards);
    d.ambitions = {{AmbitionCard::FriendOfTheKing, AmbitionCard::Wc0},
                   {AmbitionCard::OnlyYes, AmbitionCard::Wc1},
                   {AmbitionCard::Wc2, AmbitionCard::Dungeons1},
                   {AmbitionCard::Dungeons2, AmbitionCard::Dungeons3}};
    t.deal(d);
    // Each teammate keeps their own card.
    REQUIRE_ACCEPTED(t.apply(Action::keep(player(0), AmbitionCard::Wc0)));
    REQUIRE_ACCEPTED(t.apply(Action::keep(player(1), AmbitionCard::OnlyYes)));
    REQUIRE_ACCEPTED(t.apply(Action::keep(player(2), AmbitionCard::Wc2)));
    REQUIRE_ACCEPTED(t.apply(Action::keep(player(3), AmbitionCard::Dungeons2)));
    CHECK(t.state.keptAmbition(player(0)) == AmbitionCard::Wc0);
    CHECK(t.state.keptAmbition(player(1)) == AmbitionCard::OnlyYes);
    place2024Ladder(t);
    t.climb("eloise", Place::Throne);
    t.vote({kYes, kYes, kYes});
    // Player 0: Wc0 holds (+5); player 1: the shared hand still has its No
    // and Stomachache, so Only Yes fails; player 2: Wc2 fails.
    CHECK(show(t.roundScores()) == "[33, 8, 20, 15]");

    Table u(teamsSpec(3, 1, Variant::Teams, Options{true, false}));
    Deal e = u.makeDeal(kTeamCards);
    e.ambitions = {{AmbitionCard::Wc0, AmbitionCard::Wc1},
                   {AmbitionCard::FriendOfTheKing, AmbitionCard::Wc2},
                   {AmbitionCard::Dungeons1, AmbitionCard::Dungeons2},
                   {AmbitionCard::Dungeons3, AmbitionCard::OnlyYes}};
    u.deal(e);
    for (int p = 0; p < 4; ++p)
        REQUIRE_ACCEPTED(
            u.apply(Action::keep(player(p), u.state.ambitionChoices(player(p))[p == 1 ? 0 : 1])));
    // Seat 1 (player 2) moves eloise up last: seat 0 moves her to floor 5 first.
    place2024Ladder(u);
    u.move("eloise", Place::Floor5);  // seat 0
    u.move("ouaf", Place::Floor5);    // seat 1
    u.move("caius", Place::Floor5);   // seat 2
    u.move("eloise", Place::Throne);  // seat 0: player 1's teammate moved the King
    u.vote({kYes, kYes, kYes});
    // Player 1 keeps Friend of the King: its seat moved eloise (+3).
    // Favourites: player 1 scores leonardo romeo bridget 2, agathe gontran 1, blanche 0.
    CHECK(u.roundScores()[1] == 8 + 3);
}
