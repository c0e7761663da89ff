// RULES §3.1 deals and §5 Banished: what a deal must hold, and the sealed
// character that is no favourite for any purpose.
#include <set>

#include "scenario.hpp"

using namespace vivaref::test;

namespace {

constexpr Options kBanished{false, true};

}  // namespace

TEST_CASE("RULES 5 Banished: the sealed character scores nothing") {
    Table t(spec2024(4, Variant::None, kBanished));
    Deal d = t.makeDeal(richFavourites());
    d.favourites[0].banished = t.id("leonardo");  // the King: 10 points lost
    d.favourites[1].banished = t.id("merlin");    // Dungeon3: -3 avoided
    t.deal(d);
    playRichRound(t);
    const auto scores = t.roundScores();
    CHECK(scores[0] == 15 - 10);
    CHECK(scores[1] == -6 + 3);
}

TEST_CASE("RULES 5 Banished: the sealed character does not count for Ambition conditions") {
    Table t(spec2024(4, Variant::None, Options{true, true}));
    Deal d = t.makeDeal(richFavourites());
    d.favourites[1].banished = t.id("victoria");  // one favourite left in a WC
    d.ambitions = {{AmbitionCard::Wc0, AmbitionCard::Wc2},
                   {AmbitionCard::Wc1, AmbitionCard::Dungeons1},
                   {AmbitionCard::Dungeons2, AmbitionCard::Dungeons3},
                   {AmbitionCard::OnlyYes, AmbitionCard::Under11}};
    t.deal(d);
    REQUIRE_ACCEPTED(t.apply(Action::keep(player(1), AmbitionCard::Wc1)));
    t.keepFirst();
    playRichRound(t);
    // Player 1: eloise in WC3 counts, victoria does not: Wc1 holds.
    CHECK(t.roundScores()[1] == -6 + 3);
}

TEST_CASE("RULES 5 Banished: a deal seals one of the card's own six, for every player") {
    Table t(spec2024(4, Variant::None, kBanished));
    Deal outside = t.makeDeal(richFavourites());
    outside.favourites[0].banished = t.id("gontran");  // not on player 0's card
    CHECK(outcome(t.state.apply(outside)) == "bad-deal");
    Deal unsealed = t.makeDeal(richFavourites());
    unsealed.favourites[2].banished.reset();
    CHECK(outcome(t.state.apply(unsealed)) == "bad-deal");
    Table plain(spec2024(4));
    Deal sealed = plain.makeDeal();
    sealed.favourites[0].banished = sealed.favourites[0].characters[0];
    CHECK(outcome(plain.state.apply(sealed)) == "bad-deal");
}

TEST_CASE("RULES 3.1: a deal gives every player a card of 6 distinct characters, never the Jester") {
    Table t(spec2024(4));
    Deal fewer = t.makeDeal();
    fewer.favourites.pop_back();
    CHECK(outcome(t.state.apply(fewer)) == "bad-deal");
    Deal more = t.makeDeal();
    more.favourites.push_back(more.favourites[0]);
    CHECK(outcome(t.state.apply(more)) == "bad-deal");
    Deal jester = t.makeDeal();
    jester.favourites[1].characters[2] = t.id("jester");
    CHECK(outcome(t.state.apply(jester)) == "bad-deal");
    Deal twice = t.makeDeal();
    twice.favourites[0].characters[1] = twice.favourites[0].characters[0];
    CHECK(outcome(t.state.apply(twice)) == "bad-deal");
    Deal unknown = t.makeDeal();
    unknown.favourites[3].characters[5] = CharacterId{77};
    CHECK(outcome(t.state.apply(unknown)) ==
          "unknown-character");  // an id kept out of range has its own code
    Deal wrongRound = t.makeDeal();
    wrongRound.round = 2;
    CHECK(outcome(t.state.apply(wrongRound)) == "bad-deal");
    Deal placement = t.makeDeal();
    placement.placement.assign(14, Place::Floor1);
    CHECK(outcome(t.state.apply(placement)) == "bad-deal");
    CHECK(t.state.phase() == Phase::AwaitDeal);
    t.deal(t.makeDeal());
    CHECK(outcome(t.state.apply(t.makeDeal())) == "wrong-phase");
}

TEST_CASE(
    "Decision: a random deal gives each player 6 distinct characters, never the Jester, no two cards alike") {
    for (int seats = 3; seats <= 8; ++seats) {
        Table t(spec2024(seats, Variant::None, kBanished));
        Rng rng(1000 + seats);
        for (int round = 0; round < 20; ++round) {
            const Deal d = randomDeal(t.state, rng);
            CHECK(d.round == 1);
            std::set<std::set<int>> cards;
            for (const FavouritesCard& f : d.favourites) {
                std::set<int> card;
                for (CharacterId c : f.characters) {
                    CHECK_FALSE(t.roster().isJester(c));
                    card.insert(c.index);
                }
                CHECK(card.size() == 6);
                REQUIRE(f.banished.has_value());
                CHECK(card.count(f.banished->index) == 1);
                CHECK(cards.insert(card).second);
            }
            CHECK(d.favourites.size() == static_cast<std::size_t>(seats));
        }
        CHECK(outcome(t.state.apply(randomDeal(t.state, rng))) == "accepted");
    }
}

TEST_CASE("Decision: a seed gives the same deal and the same game") {
    Table a(spec2024(5, Variant::None, Options{true, true}));
    Table b(spec2024(5, Variant::None, Options{true, true}));
    Rng ra(77), rb(77);
    CHECK(randomDeal(a.state, ra) == randomDeal(b.state, rb));
    CHECK(ra == rb);
    Rng x(5);
    const auto first = x.next();
    Rng y(5);
    CHECK(y.next() == first);
    for (std::uint32_t bound : {1u, 2u, 7u, 1000u}) {
        Rng r(bound);
        for (int i = 0; i < 200; ++i) CHECK(r.below(bound) < bound);
    }
}
