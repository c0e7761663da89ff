// RULES §7: the public view shows nothing secret (favourites before they are
// revealed, hands, Ambition cards, votes before the reveal); a player's view
// adds that player's own secrets and nobody else's.
#include "scenario.hpp"

using namespace vivaref::test;

namespace {

Table electionUnderWay() {
    Table t(spec2024(4, Variant::None, Options{true, false}));
    t.start();
    place2024Ladder(t);
    t.climb("eloise", Place::Throne);
    REQUIRE_ACCEPTED(t.apply(Action::vote(seat(0), kNo)));
    REQUIRE_ACCEPTED(t.apply(Action::vote(seat(2), kStomachache)));
    return t;
}

}  // namespace

TEST_CASE("RULES 7: the public view shows no favourites card before the coronation reveals them") {
    Table t(classicSpec(4));
    t.deal();
    CHECK(publicView(t.state).revealedFavourites.empty());
    placeClassicLadder(t);
    t.climb("alighiero", Place::Throne);
    CHECK(publicView(t.state).revealedFavourites.empty());
    t.vote({kYes, kYes, kYes, kYes});
    const PublicView v = publicView(t.state);
    REQUIRE(v.revealedFavourites.size() == 4);
    for (int p = 0; p < 4; ++p) CHECK(v.revealedFavourites[p] == t.state.favourites(player(p)));
    t.deal();
    CHECK(publicView(t.state).revealedFavourites.empty());  // a new round, new secret cards
}

TEST_CASE("RULES 7: the public view shows who has voted, never what, until the reveal") {
    Table t = electionUnderWay();
    const PublicView v = publicView(t.state);
    CHECK(v.phase == Phase::Election);
    CHECK(v.candidate == std::optional<CharacterId>(t.id("eloise")));
    CHECK(v.crownHolder == std::optional<Seat>(seat(1)));
    REQUIRE(v.voted.size() == 4);
    CHECK(v.voted == std::vector<bool>{true, false, true, false});
    CHECK_FALSE(v.lastReveal.has_value());
    CHECK(v.toAct.size() == 2);
    REQUIRE_ACCEPTED(t.apply(Action::vote(seat(1), kYes)));
    REQUIRE_ACCEPTED(t.apply(Action::vote(seat(3), kYes)));
    const PublicView after = publicView(t.state);
    REQUIRE(after.lastReveal.has_value());
    CHECK(after.lastReveal->votes[0] == kNo);
    CHECK(after.lastReveal->votes[2] == kStomachache);
}

TEST_CASE("RULES 7: a player's view holds that player's own card, hand, Ambition card and vote") {
    Table t = electionUnderWay();
    for (int p = 0; p < 4; ++p) {
        CAPTURE(p);
        const PlayerView v = playerView(t.state, player(p));
        CHECK(v.player == player(p));
        CHECK(v.seat == seat(p));
        CHECK(v.favourites == t.state.favourites(player(p)));
        CHECK(v.hand == t.state.hand(seat(p)));
        CHECK(v.ambition == std::optional<AmbitionCard>(t.state.keptAmbition(player(p))));
        for (int q = 0; q < 4; ++q)
            if (q != p) CHECK_FALSE(v.favourites == t.state.favourites(player(q)));
    }
    CHECK(playerView(t.state, player(0)).ownVote == std::optional<VoteCard>(kNo));
    CHECK(playerView(t.state, player(2)).ownVote == std::optional<VoteCard>(kStomachache));
    CHECK_FALSE(playerView(t.state, player(1)).ownVote.has_value());
    CHECK_FALSE(playerView(t.state, player(3)).ownVote.has_value());
}

TEST_CASE("RULES 7: while Ambition cards are kept, each player sees only their own two") {
    Table t(spec2024(4, Variant::None, Options{true, false}));
    t.deal();
    for (int p = 0; p < 4; ++p) {
        const auto pair = t.state.ambitionChoices(player(p));
        const PlayerView v = playerView(t.state, player(p));
        CHECK(v.ambitionChoices == std::vector<AmbitionCard>{pair[0], pair[1]});
        CHECK_FALSE(v.ambition.has_value());
    }
    REQUIRE_ACCEPTED(t.apply(Action::keep(player(1), t.state.ambitionChoices(player(1))[1])));
    CHECK(playerView(t.state, player(1)).ambition ==
          std::optional<AmbitionCard>(t.state.ambitionChoices(player(1))[1]));
    CHECK_FALSE(playerView(t.state, player(0)).ambition.has_value());
}

TEST_CASE("RULES 7: the Emissary's card is face up, its pile is not shown") {
    Table t(spec2024(3, Variant::Emissary));
    t.deal();
    const PublicView v = publicView(t.state);
    CHECK(v.emissaryFavourites == std::optional<FavouritesCard>(t.state.emissaryFavourites()));
    CHECK(v.emissaryTotal == std::optional<int>(40));
    Table plain(spec2024(3));
    plain.deal();
    CHECK_FALSE(publicView(plain.state).emissaryFavourites.has_value());
    CHECK_FALSE(publicView(plain.state).emissaryTotal.has_value());
}

TEST_CASE("RULES 7: the public view shows the board, the turn and the score track") {
    Table t(classicSpec(4, 2));
    t.deal();
    placeClassicLadder(t);
    const PublicView v = publicView(t.state);
    CHECK(v.phase == Phase::Ascent);
    CHECK(v.round == 1);
    CHECK(v.rounds == 3);
    CHECK(v.firstPlayer == seat(2));
    CHECK(v.toAct == std::vector<Seat>{seat(2)});
    CHECK(v.characters == 13);
    for (int c = 0; c < 13; ++c) CHECK(v.positions[c] == t.state.positions()[c]);
    CHECK(v.totals == t.state.totals());
    CHECK(v.finishedRounds.empty());
    CHECK(v.winners.empty());
}

TEST_CASE("GAME-RECORD to_act: while Ambition cards are kept, the seats whose players have not kept") {
    Table t(teamsSpec(3, 1, Variant::Teams, Options{true, false}));
    t.deal();
    CHECK(t.state.toAct().size() == 3);
    REQUIRE_ACCEPTED(t.apply(Action::keep(player(0), t.state.ambitionChoices(player(0))[0])));
    // Player 1, seat 0's other player, has not kept yet.
    CHECK(t.state.toAct() == std::vector<Seat>{seat(0), seat(1), seat(2)});
    REQUIRE_ACCEPTED(t.apply(Action::keep(player(1), t.state.ambitionChoices(player(1))[0])));
    CHECK(t.state.toAct() == std::vector<Seat>{seat(1), seat(2)});
    REQUIRE_ACCEPTED(t.apply(Action::keep(player(3), t.state.ambitionChoices(player(3))[0])));
    CHECK(t.state.toAct() == std::vector<Seat>{seat(1)});
}

TEST_CASE("GAME-RECORD to_act: nobody while a deal or a reshuffle is awaited, or the game is over") {
    Table t(classicSpec(4));
    CHECK(t.state.awaitsChance());
    CHECK(t.state.toAct().empty());
    ActionList legal;
    t.state.legalActions(legal);
    CHECK(legal.empty());
}

TEST_CASE("State: a snapshot's text restores an equal state; damaged text is refused") {
    Table t(spec2024(4, Variant::None, Options{true, true}));
    t.start();
    place2024Ladder(t);
    t.climb("eloise", Place::Throne);
    REQUIRE_ACCEPTED(t.apply(Action::vote(seat(2), kNo)));
    const std::string text = t.state.serialize();
    const auto back = State::deserialize(t.rules, text);
    REQUIRE(back.has_value());
    CHECK(*back == t.state);
    CHECK(back->serialize() == text);
    CHECK(back->voteOf(seat(2)) == std::optional<VoteCard>(kNo));  // a cast vote survives
    CHECK_FALSE(State::deserialize(t.rules, "").has_value());
    CHECK_FALSE(State::deserialize(t.rules, "not a state").has_value());
    CHECK_FALSE(State::deserialize(t.rules, text.substr(0, text.size() / 2)).has_value());
    // No crash on any prefix (the sanitizer build watches).
    for (std::size_t n = 0; n < text.size(); n += 7) (void)State::deserialize(t.rules, text.substr(0, n));
}
