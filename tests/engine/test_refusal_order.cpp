// GAME-RECORD: where an action breaks several rules the first in this order
// is reported: format, phase, seat, turn, character, where the character
// stands, adjacency, capacity. And a refused action changes nothing.
#include "scenario.hpp"

using namespace vivaref::test;

namespace {

// 2024, 4 seats, in the ascent: eloise in Dungeon3, floor 4 full again
// with jeanne; seat 3 to move.
Table ascentWithDungeon() {
    Table t(spec2024(4));
    t.start();
    place2024Ladder(t);
    t.climb("eloise", Place::Throne);
    t.voteAllYesBut({{0, kNo}});  // eloise to Dungeon3; seat 2 next
    t.move("jeanne", Place::Floor4);
    return t;
}

const CharacterId kNobody{99};

}  // namespace

TEST_CASE("GAME-RECORD order: phase before seat") {
    Table t(classicSpec(4));
    t.deal();
    CHECK_REFUSED(t.state, Action::move(seat(9), kNobody, Place::Floor5), RefusalCode::WrongPhase);
    CHECK_REFUSED(t.state, Action::vote(seat(9), kStomachache), RefusalCode::WrongPhase);
    CHECK_REFUSED(t.state, Action::pass(seat(9)), RefusalCode::WrongPhase);
    placeClassicLadder(t);
    t.climb("alighiero", Place::Throne);
    CHECK_REFUSED(t.state, Action::move(seat(9), kNobody, Place::Floor5), RefusalCode::WrongPhase);
    CHECK_REFUSED(t.state, Action::place(seat(9), kNobody, Place::Floor5), RefusalCode::WrongPhase);
    CHECK_REFUSED(t.state, Action::keep(player(9), AmbitionCard::Wc0), RefusalCode::WrongPhase);
}

TEST_CASE("GAME-RECORD order: seat before turn") {
    Table t(classicSpec(4));
    t.deal();
    CHECK_REFUSED(t.state, Action::place(seat(4), t.id("odessa"), Place::Floor1), RefusalCode::UnknownSeat);
    placeClassicLadder(t);
    CHECK_REFUSED(t.state, Action::move(seat(4), t.id("alighiero"), Place::Floor5), RefusalCode::UnknownSeat);
    CHECK_REFUSED(t.state, Action::pass(seat(200)), RefusalCode::UnknownSeat);
    CHECK_REFUSED(t.state, Action(), RefusalCode::UnknownSeat);  // a pass by no seat
}

TEST_CASE("GAME-RECORD order: turn before character") {
    Table t(classicSpec(4));
    t.deal();
    CHECK_REFUSED(t.state, Action::place(seat(1), kNobody, Place::Floor1), RefusalCode::NotYourTurn);
    CHECK_REFUSED(t.state, Action::place(seat(1), t.id("odessa"), Place::Floor5), RefusalCode::NotYourTurn);
    placeClassicLadder(t);
    CHECK_REFUSED(t.state, Action::move(seat(2), kNobody, Place::Floor5), RefusalCode::NotYourTurn);
    CHECK_REFUSED(t.state, Action::move(seat(2), t.id("ernesto"), Place::Floor4), RefusalCode::NotYourTurn);
    // A pass out of turn, though moves exist, is out of turn first.
    CHECK_REFUSED(t.state, Action::pass(seat(3)), RefusalCode::NotYourTurn);
}

TEST_CASE("GAME-RECORD order: character before where it stands") {
    Table t = ascentWithDungeon();
    CHECK_REFUSED(t.state, Action::move(t.toAct(), kNobody, Place::Floor5), RefusalCode::UnknownCharacter);
    Table p(classicSpec(4));
    p.deal();
    CHECK_REFUSED(p.state, Action::place(p.toAct(), kNobody, Place::Floor5), RefusalCode::UnknownCharacter);
}

TEST_CASE("GAME-RECORD order: where the character stands before adjacency") {
    Table t = ascentWithDungeon();
    REQUIRE(t.at("eloise") == Place::Dungeon3);
    CHECK_REFUSED(t.state, Action::move(t.toAct(), t.id("eloise"), Place::Floor5), RefusalCode::CannotMove);
    CHECK_REFUSED(t.state, Action::move(t.toAct(), t.id("eloise"), Place::Wc4), RefusalCode::CannotMove);
    Table c(classicSpec(4));
    c.start();
    placeClassicLadder(c);
    c.climb("alighiero", Place::Throne);
    c.voteAllYesBut({{0, kNo}});
    CHECK_REFUSED(c.state, Action::move(c.toAct(), c.id("alighiero"), Place::Floor2),
                  RefusalCode::CharacterNotInCastle);
    // Placement: a character already in the castle, on a floor never allowed.
    Table p(spec2024(4));
    p.deal();
    p.place("eloise", 2);
    CHECK_REFUSED(p.state, Action::place(p.toAct(), p.id("eloise"), Place::Floor5),
                  RefusalCode::AlreadyPlaced);
    CHECK_REFUSED(p.state, Action::place(p.toAct(), p.id("jester"), Place::Dungeon1),
                  RefusalCode::AlreadyPlaced);
}

TEST_CASE("GAME-RECORD order: where the character stands before capacity") {
    Table p(classicSpec(4));
    p.deal();
    p.placeAll({{"alighiero", 2}, {"beatrice", 2}, {"clemente", 2}, {"dario", 2}});
    CHECK_REFUSED(p.state, Action::place(p.toAct(), p.id("dario"), Place::Floor2),
                  RefusalCode::AlreadyPlaced);
}

TEST_CASE("GAME-RECORD order: adjacency before capacity") {
    Table t = ascentWithDungeon();
    REQUIRE(t.state.countAt(Place::Floor4) == 4);
    // Two floors up onto a full floor; into a WC from two floors below.
    CHECK_REFUSED(t.state, Action::move(t.toAct(), t.id("romeo"), Place::Floor4), RefusalCode::NotAdjacent);
    CHECK_REFUSED(t.state, Action::move(t.toAct(), t.id("agathe"), Place::Wc3), RefusalCode::NotAdjacent);
    CHECK_REFUSED(t.state, Action::move(t.toAct(), t.id("blanche"), Place::Floor4), RefusalCode::NotAdjacent);
}

TEST_CASE("GAME-RECORD order: votes: phase, seat, then the seat's own vote, then the card") {
    Table t(classicSpec(4));
    t.start();
    placeClassicLadder(t);
    CHECK_REFUSED(t.state, Action::vote(seat(0), kStomachache), RefusalCode::WrongPhase);
    t.climb("alighiero", Place::Throne);
    CHECK_REFUSED(t.state, Action::vote(seat(6), kStomachache), RefusalCode::UnknownSeat);
    REQUIRE_ACCEPTED(t.apply(Action::vote(seat(2), kYes)));
    // Voting again with a card never held: the seat has voted (its turn is over).
    CHECK_REFUSED(t.state, Action::vote(seat(2), kStomachache), RefusalCode::AlreadyVoted);
}

TEST_CASE("GAME-RECORD order: keeps: phase, player, then an already kept card") {
    Table t(spec2024(4, Variant::None, Options{true, false}));
    t.deal();
    CHECK_REFUSED(t.state, Action::keep(player(4), AmbitionCard::Unknown), RefusalCode::UnknownPlayer);
    REQUIRE_ACCEPTED(t.apply(Action::keep(player(0), t.state.ambitionChoices(player(0))[0])));
    // Already kept, and this card was never dealt to player 0.
    CHECK_REFUSED(t.state, Action::keep(player(0), t.state.ambitionChoices(player(1))[0]),
                  RefusalCode::AlreadyKept);
}

TEST_CASE("GAME-RECORD: every refused action leaves the state unchanged") {
    // Every action of every kind from states of every phase with actors.
    auto sweep = [](Table& t) {
        const State reference = t.state;
        const std::string text = t.state.serialize();
        int refused = 0;
        const auto tryOne = [&](const Action& a) {
            State copy = reference;
            if (copy.apply(a)) {
                ++refused;
                CHECK(copy == reference);
                CHECK(copy.serialize() == text);
            }
        };
        for (int s = 0; s <= t.seats(); ++s) {
            for (int c = 0; c <= t.state.characterCount(); ++c)
                for (int p = 0; p <= kPlaceCount; ++p) {
                    tryOne(Action::move(seat(s), CharacterId{static_cast<std::uint8_t>(c)},
                                        static_cast<Place>(p)));
                    tryOne(Action::place(seat(s), CharacterId{static_cast<std::uint8_t>(c)},
                                         static_cast<Place>(p)));
                }
            for (int v = 0; v <= 3; ++v) tryOne(Action::vote(seat(s), static_cast<VoteCard>(v)));
            tryOne(Action::pass(seat(s)));
        }
        for (int p = 0; p <= t.players(); ++p)
            for (int c = 0; c <= kAmbitionCardCount; ++c)
                tryOne(Action::keep(player(p), static_cast<AmbitionCard>(c)));
        CHECK(refused > 0);
    };
    Table t(spec2024(4, Variant::None, Options{true, false}));
    t.deal();
    sweep(t);  // keeping Ambition cards
    t.keepFirst();
    sweep(t);  // placement
    place2024Ladder(t);
    t.move("jeanne", Place::Wc4);
    sweep(t);  // ascent with a WC taken
    t.climb("eloise", Place::Throne);
    REQUIRE_ACCEPTED(t.apply(Action::vote(seat(3), kNo)));
    sweep(t);  // election under way
}
