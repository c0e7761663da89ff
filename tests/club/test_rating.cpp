// The league's rating (daemon/club/rating.hpp): pairwise results by final
// score, ties, teams, guests and bots, abandoned games, order independence.
#include <algorithm>
#include <cmath>
#include <random>

#include <doctest/doctest.h>

#include "daemon/club/rating.hpp"

using namespace vivaref::club;

namespace {

RatedPlayer member(int seat, std::int64_t id, int score, bool winner = false) {
    return RatedPlayer{seat, id, false, score, winner};
}
RatedPlayer guest(int seat, int score) { return RatedPlayer{seat, std::nullopt, false, score, false}; }
RatedPlayer bot(int seat, int score) { return RatedPlayer{seat, std::nullopt, true, score, false}; }

}  // namespace

TEST_CASE("a member with no pairwise results stands at 1500, and the prior keeps one result finite") {
    CHECK(rating(MemberCounts{}) == doctest::Approx(1500.0));
    // One win: 1500 + 400 log10(2/1).
    CHECK(rating(MemberCounts{1, 1, 40, 1, 0, 0}) == doctest::Approx(1500.0 + 400.0 * std::log10(2.0)));
    CHECK(rating(MemberCounts{1, 0, 10, 0, 1, 0}) == doctest::Approx(1500.0 - 400.0 * std::log10(2.0)));
    // Draws count half each way: the rating stays at the centre.
    CHECK(rating(MemberCounts{3, 0, 30, 0, 0, 6}) == doctest::Approx(1500.0));
}

TEST_CASE("the worked example of NOTES.md: four seats, a tie, a guest and a bot") {
    // Ann 58 (wins), Bob 46, a guest 46, a bot 44.
    RatedGame game{
        "classic", true, false, {member(0, 1, 58, true), member(1, 2, 46), guest(2, 46), bot(3, 44)}};
    Standings s;
    s.add(game);
    REQUIRE(s.rows().size() == 2);  // the guest and the bot are not ranked
    const auto ann = s.rows().at({"classic", 1});
    const auto bob = s.rows().at({"classic", 2});
    CHECK(ann == MemberCounts{1, 1, 58, 3, 0, 0});
    CHECK(bob == MemberCounts{1, 0, 46, 1, 1, 1});
    CHECK(rating(ann) == doctest::Approx(1500.0 + 400.0 * std::log10(4.0)));        // 1740.8
    CHECK(rating(bob) == doctest::Approx(1500.0 + 400.0 * std::log10(2.5 / 2.5)));  // 1500
    CHECK(pointsPerGame(ann) == doctest::Approx(58.0));
}

TEST_CASE("abandoned and unfinished games count for nobody") {
    Standings s;
    s.add(RatedGame{"classic", true, true, {member(0, 1, 10), member(1, 2, 5)}});
    s.add(RatedGame{"classic", false, false, {member(0, 1, 10), member(1, 2, 5)}});
    CHECK(s.rows().empty());
}

TEST_CASE("a team's two players share their seat: one opponent per other seat") {
    // Seats 0 and 1 are teams of two; the member in seat 0 beats one seat.
    RatedGame game{"2024", true, false, {member(0, 7, 30, true), guest(0, 30), guest(1, 20), bot(1, 20)}};
    Standings s;
    s.add(game);
    CHECK(s.rows().at({"2024", 7}) == MemberCounts{1, 1, 30, 1, 0, 0});
}

TEST_CASE("editions are ranked apart, and the order games arrive in changes nothing") {
    std::mt19937 gen(16);
    std::vector<RatedGame> games;
    for (int g = 0; g < 200; ++g) {
        RatedGame game{g % 3 == 0 ? "2024" : "classic", g % 17 != 0, g % 23 == 5, {}};
        const int seats = 3 + static_cast<int>(gen() % 4);
        for (int seat = 0; seat < seats; ++seat) {
            const int score = static_cast<int>(gen() % 8);
            if (gen() % 5 == 0)
                game.players.push_back(guest(seat, score));
            else
                game.players.push_back(member(seat, 1 + seat * 3 + static_cast<int>(gen() % 3), score));
        }
        games.push_back(game);
    }
    Standings inOrder;
    for (const auto& g : games) inOrder.add(g);
    std::shuffle(games.begin(), games.end(), gen);
    Standings shuffled;
    for (const auto& g : games) shuffled.add(g);
    CHECK(inOrder.rows() == shuffled.rows());
    bool both = false;
    for (const auto& [key, c] : inOrder.rows()) both = both || key.first == "2024";
    CHECK(both);
}
