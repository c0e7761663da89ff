// RULES §5 Ambition: each player keeps one of two cards; at scoring a card
// whose condition holds adds its points (always positive). One case per
// card, each with a player for whom it holds and one for whom it fails.
#include <algorithm>
#include <set>

#include "scenario.hpp"

using namespace vivaref::test;

namespace {

constexpr Options kAmbition{true, false};

// Deals the rich round's cards with `card` kept by `holder`; every other
// player keeps a card of its own (never `card`).
Deal ambitionDeal(const Table& t, const std::vector<std::vector<std::string>>& favourites, int holder,
                  AmbitionCard card) {
    Deal d = t.makeDeal(favourites);
    std::vector<AmbitionCard> others;
    for (int c = 0; c < kAmbitionCardCount; ++c)
        if (static_cast<AmbitionCard>(c) != card) others.push_back(static_cast<AmbitionCard>(c));
    d.ambitions.clear();
    std::size_t next = 0;
    for (int p = 0; p < t.players(); ++p) {
        if (p == holder)
            d.ambitions.push_back({others[next++], card});  // the kept card second
        else {
            d.ambitions.push_back({others[next], others[next + 1]});
            next += 2;
        }
    }
    return d;
}

void keep(Table& t, int holder, AmbitionCard card) {
    for (int p = 0; p < t.players(); ++p) {
        const AmbitionCard c = p == holder ? card : t.state.ambitionChoices(player(p))[0];
        REQUIRE_ACCEPTED(t.apply(Action::keep(player(p), c)));
    }
}

// The Ambition points `holder` scored in the rich round keeping `card`.
int richAmbition(int holder, AmbitionCard card) {
    Table t(spec2024(4, Variant::None, kAmbition));
    t.deal(ambitionDeal(t, richFavourites(), holder, card));
    keep(t, holder, card);
    playRichRound(t);
    const int base[] = {15, -6, 9, 9};
    return t.roundScores()[holder] - base[holder];
}

// The Ambition points player 0 scored keeping `card` when `king` is crowned
// from the 2024 ladder (the Jester needs eloise out of his way).
int kingAmbition(const char* king, AmbitionCard card) {
    Table t(spec2024(4, Variant::None, kAmbition));
    const std::vector<std::vector<std::string>> cards{
        {"victoria", "leonardo", "romeo", "bridget", "agathe", "gontran"}};
    t.deal(ambitionDeal(t, cards, 0, card));
    keep(t, 0, card);
    place2024Ladder(t);
    if (std::string(king) == "jester") t.move("eloise", Place::Floor5);
    t.climb(king, Place::Throne);
    t.vote({kYes, kYes, kYes, kYes});
    // Favourites: victoria 3, leonardo romeo bridget 2, agathe gontran 1
    // (11); when the Jester is King, -11.
    const int favourites = std::string(king) == "jester" ? -11 : 11;
    return t.roundScores()[0] - favourites;
}

}  // namespace

TEST_CASE("RULES 5 Ambition: the 16 cards and their points") {
    const int expected[] = {5, 3, 3, 5, 3, 5, 5, 3, 5, 3, 5, 8, 8, 3, 3, 3};
    REQUIRE(kAmbitionCardCount == 16);
    for (int c = 0; c < kAmbitionCardCount; ++c) {
        CAPTURE(c);
        CHECK(ambitionCardPoints(static_cast<AmbitionCard>(c)) == expected[c]);
        CHECK(parseAmbitionCard(ambitionCardName(static_cast<AmbitionCard>(c))) ==
              static_cast<AmbitionCard>(c));
    }
}

TEST_CASE("RULES 5 Ambition: Jester King (5) when the Jester is the King, positive even then") {
    CHECK(kingAmbition("jester", AmbitionCard::JesterKing) == 5);
    CHECK(kingAmbition("eloise", AmbitionCard::JesterKing) == 0);
}

TEST_CASE("RULES 5 Ambition: It's a Queen! (3) when the King is a woman, not the dog nor the Jester") {
    CHECK(kingAmbition("eloise", AmbitionCard::ItsAQueen) == 3);
    CHECK(kingAmbition("caius", AmbitionCard::ItsAQueen) == 0);
    CHECK(kingAmbition("ouaf", AmbitionCard::ItsAQueen) == 0);
    CHECK(kingAmbition("jester", AmbitionCard::ItsAQueen) == 0);
}

TEST_CASE("RULES 5 Ambition: It's a King! (3) when the King is a man, not the dog nor the Jester") {
    CHECK(kingAmbition("caius", AmbitionCard::ItsAKing) == 3);
    CHECK(kingAmbition("eloise", AmbitionCard::ItsAKing) == 0);
    CHECK(kingAmbition("ouaf", AmbitionCard::ItsAKing) == 0);
    CHECK(kingAmbition("jester", AmbitionCard::ItsAKing) == 0);
}

TEST_CASE("RULES 5 Ambition: 0 Favourite in WC (5)") {
    CHECK(richAmbition(0, AmbitionCard::Wc0) == 5);
    CHECK(richAmbition(1, AmbitionCard::Wc0) == 0);
}

TEST_CASE("RULES 5 Ambition: 1 Favourite in WC (3)") {
    CHECK(richAmbition(3, AmbitionCard::Wc1) == 3);
    CHECK(richAmbition(0, AmbitionCard::Wc1) == 0);
    CHECK(richAmbition(1, AmbitionCard::Wc1) == 0);
}

TEST_CASE("RULES 5 Ambition: 2 Favourites in WC (5)") {
    CHECK(richAmbition(1, AmbitionCard::Wc2) == 5);
    CHECK(richAmbition(3, AmbitionCard::Wc2) == 0);
}

TEST_CASE("RULES 5 Ambition: No floors 0 & 1 (5)") {
    CHECK(richAmbition(1, AmbitionCard::NoFloors01) == 5);
    CHECK(richAmbition(0, AmbitionCard::NoFloors01) == 0);
}

TEST_CASE("RULES 5 Ambition: No floors 2 & 3 (3)") {
    CHECK(richAmbition(1, AmbitionCard::NoFloors23) == 3);
    CHECK(richAmbition(0, AmbitionCard::NoFloors23) == 0);
}

TEST_CASE("RULES 5 Ambition: No floors 4 & 5 (5)") {
    CHECK(richAmbition(1, AmbitionCard::NoFloors45) == 5);
    CHECK(richAmbition(0, AmbitionCard::NoFloors45) == 0);
}

TEST_CASE("RULES 5 Ambition: 1 Favourite in the dungeons (3)") {
    CHECK(richAmbition(0, AmbitionCard::Dungeons1) == 3);
    CHECK(richAmbition(1, AmbitionCard::Dungeons1) == 0);
    CHECK(richAmbition(2, AmbitionCard::Dungeons1) == 0);
}

TEST_CASE("RULES 5 Ambition: 2 Favourites in the dungeons (5)") {
    CHECK(richAmbition(3, AmbitionCard::Dungeons2) == 5);
    CHECK(richAmbition(0, AmbitionCard::Dungeons2) == 0);
    CHECK(richAmbition(1, AmbitionCard::Dungeons2) == 0);
}

TEST_CASE("RULES 5 Ambition: 3 Favourites in the dungeons (8) when all three hold yours") {
    CHECK(richAmbition(1, AmbitionCard::Dungeons3) == 8);
    CHECK(richAmbition(3, AmbitionCard::Dungeons3) == 0);
}

TEST_CASE("RULES 5 Ambition: No WC and no dungeon (8)") {
    CHECK(richAmbition(2, AmbitionCard::NoWcNoDungeon) == 8);
    CHECK(richAmbition(0, AmbitionCard::NoWcNoDungeon) == 0);  // merlin in a dungeon
    CHECK(richAmbition(3, AmbitionCard::NoWcNoDungeon) == 0);  // victoria in a WC
}

TEST_CASE("RULES 5 Ambition: Only Yes (3) when every No and the Stomachache are played") {
    CHECK(richAmbition(3, AmbitionCard::OnlyYes) == 3);
    CHECK(richAmbition(0, AmbitionCard::OnlyYes) == 0);  // played one No of three
}

TEST_CASE("RULES 5 Ambition: Friend of the King (3) for the player who moved the King to the throne") {
    CHECK(richAmbition(3, AmbitionCard::FriendOfTheKing) == 3);
    CHECK(richAmbition(1, AmbitionCard::FriendOfTheKing) ==
          0);  // moved jeanne up, whose election was cancelled
}

TEST_CASE("RULES 5 Ambition: Under 11 points (3) on the favourites' points alone") {
    CHECK(richAmbition(2, AmbitionCard::Under11) == 3);         // 9
    CHECK(richAmbition(1, AmbitionCard::Under11) == 3);         // -6
    CHECK(richAmbition(0, AmbitionCard::Under11) == 0);         // 15
    CHECK(kingAmbition("eloise", AmbitionCard::Under11) == 0);  // exactly 11 is not under 11
}

TEST_CASE("RULES 5 Ambition: the points stay positive when the Jester is crowned") {
    // Wc0 holds for player 0 (no favourite in a WC) while favourites score -11.
    CHECK(kingAmbition("jester", AmbitionCard::Wc0) == 5);
    CHECK(kingAmbition("jester", AmbitionCard::Under11) == 3);
}

TEST_CASE("RULES 5 Ambition: after the deal each player keeps one of two cards, in any order") {
    Table t(spec2024(4, Variant::None, kAmbition, 2));
    t.deal();
    CHECK(t.state.phase() == Phase::KeepAmbition);
    CHECK(t.state.toAct().size() == 4);
    const auto pair = t.state.ambitionChoices(player(3));
    CHECK(playerView(t.state, player(3)).ambitionChoices.size() == 2);
    CHECK(playerView(t.state, player(2)).ambitionChoices != playerView(t.state, player(3)).ambitionChoices);
    CHECK_REFUSED(t.state, Action::place(seat(2), t.id("eloise"), Place::Floor1), RefusalCode::WrongPhase);
    REQUIRE_ACCEPTED(t.apply(Action::keep(player(3), pair[1])));
    CHECK(t.happened(EventKind::AmbitionKept));
    CHECK(t.state.keptAmbition(player(3)) == pair[1]);
    CHECK(t.state.toAct().size() == 3);
    CHECK_REFUSED(t.state, Action::keep(player(3), pair[1]), RefusalCode::AlreadyKept);
    CHECK_REFUSED(t.state, Action::keep(player(4), pair[0]), RefusalCode::UnknownPlayer);
    CHECK_REFUSED(t.state, Action::keep(player(0), AmbitionCard::Unknown), RefusalCode::UnknownCard);
    // A card not dealt to the player.
    const auto p = probe(t.state, Action::keep(player(0), pair[0]));
    CHECK(p.code != "accepted");
    CHECK(p.unchanged);
    t.keepFirst();
    CHECK(t.state.phase() == Phase::Placement);
    CHECK(t.toAct() == seat(2));
    // Another player's card, or the card already kept: no change of mind.
    CHECK_REFUSED(t.state, Action::keep(player(1), pair[0]), RefusalCode::AlreadyKept);
    CHECK_REFUSED(t.state, Action::keep(player(1), t.state.keptAmbition(player(1))),
                  RefusalCode::AlreadyKept);
    // The kept card is nobody else's business.
    CHECK(playerView(t.state, player(0)).ambition ==
          std::optional<AmbitionCard>(t.state.keptAmbition(player(0))));
}

TEST_CASE("RULES 5 Ambition (decision): a kept card may be changed for the other until the first placement") {
    Table t(spec2024(4, Variant::None, kAmbition, 2));
    t.deal();
    const auto pair = t.state.ambitionChoices(player(0));
    REQUIRE_ACCEPTED(t.apply(Action::keep(player(0), pair[0])));
    CHECK(t.state.ambitionChangeable(player(0)));
    CHECK_FALSE(t.state.ambitionChangeable(player(1)));  // nothing kept yet: a keep, not a change
    // While the others choose: changed, and changed back.
    REQUIRE_ACCEPTED(t.apply(Action::keep(player(0), pair[1])));
    CHECK(t.happened(EventKind::AmbitionKept));
    CHECK(t.state.keptAmbition(player(0)) == pair[1]);
    CHECK(t.state.phase() == Phase::KeepAmbition);
    CHECK(t.state.toAct().size() == 3);  // a change keeps nobody else's turn
    REQUIRE_ACCEPTED(t.apply(Action::keep(player(0), pair[0])));
    t.keepFirst();
    CHECK(t.state.phase() == Phase::Placement);
    const Seat first = t.toAct();
    // Everyone has kept, nothing is placed: the round has not begun.
    CHECK(t.state.ambitionChangeable(player(0)));
    REQUIRE_ACCEPTED(t.apply(Action::keep(player(0), pair[1])));
    CHECK(t.state.keptAmbition(player(0)) == pair[1]);
    CHECK(t.state.phase() == Phase::Placement);
    CHECK(t.toAct() == first);  // the turn stays where it was
    CHECK(playerView(t.state, player(0)).ambition == std::optional<AmbitionCard>(pair[1]));
    // The first placement: the card stands.
    const auto place = Action::place(first, t.id("eloise"), Place::Floor1);
    REQUIRE_ACCEPTED(t.apply(place));
    CHECK_FALSE(t.state.ambitionChangeable(player(0)));
    CHECK_REFUSED(t.state, Action::keep(player(0), pair[0]), RefusalCode::WrongPhase);
    CHECK(t.state.keptAmbition(player(0)) == pair[1]);
}

TEST_CASE("RULES 5 Ambition (decision): without Ambition no keep, and no change after the deal") {
    Table t(spec2024(4, Variant::None, Options{}, 2));
    t.deal();
    CHECK(t.state.phase() == Phase::Placement);
    CHECK_REFUSED(t.state, Action::keep(player(0), AmbitionCard::Wc0), RefusalCode::WrongPhase);
    CHECK_FALSE(t.state.ambitionChangeable(player(0)));
}

TEST_CASE("RULES 5 Ambition: a deal must give two cards to each player, no card twice") {
    Table t(spec2024(4, Variant::None, kAmbition));
    Deal missing = t.makeDeal();
    missing.ambitions.pop_back();
    CHECK(outcome(t.state.apply(missing)) == "bad-deal");
    Deal twice = t.makeDeal();
    twice.ambitions[1][0] = twice.ambitions[0][0];
    CHECK(outcome(t.state.apply(twice)) == "bad-deal");
    Deal samePair = t.makeDeal();
    samePair.ambitions[0][1] = samePair.ambitions[0][0];
    CHECK(outcome(t.state.apply(samePair)) == "bad-deal");
    Deal unknown = t.makeDeal();
    unknown.ambitions[2][1] = AmbitionCard::Unknown;
    CHECK(outcome(t.state.apply(unknown)) == "unknown-card");  // an id kept out of range has its own code
    Table plain(spec2024(4));
    Deal extra = plain.makeDeal();
    extra.ambitions = t.makeDeal().ambitions;
    CHECK(outcome(plain.state.apply(extra)) == "bad-deal");
}

TEST_CASE("RULES 5 Ambition: a random deal gives 2 distinct cards each, none twice in the round") {
    for (int seats : {3, 8}) {
        Table t(spec2024(seats, Variant::None, kAmbition));
        Rng rng(seats);
        const Deal d = randomDeal(t.state, rng);
        REQUIRE(d.ambitions.size() == static_cast<std::size_t>(seats));
        std::set<int> seen;
        for (const auto& pair : d.ambitions)
            for (AmbitionCard c : pair) {
                CHECK(c != AmbitionCard::Unknown);
                CHECK(seen.insert(static_cast<int>(c)).second);
            }
    }
}
