// A player's own page leads its player (issue 34): its `moment` says this
// player's turn and what to do, the refusal of their seat's move with what
// to put back, their vote, their Ambition choice (changeable until the
// first placement), and for everyone else who plays now; a moment of one
// player never shows on another's page, and no card enters the public
// status.
#include <doctest/doctest.h>

#include "daemon/words/words.hpp"
#include "engine/state.hpp"
#include "tests/referee/referee_table.hpp"

namespace vivaref::referee::testing {

namespace {

json momentOf(const HandTable& t, int player) {
    return t.referee.playerStatus(engine::PlayerId{static_cast<std::uint8_t>(player)})["moment"];
}

std::string cardName(engine::AmbitionCard c) { return std::string(engine::ambitionCardName(c)); }

}  // namespace

TEST_CASE("player moment: the seat to move has its turn and what to do; the others see who plays") {
    HandTable t;
    toClassicAscent(t);
    const auto mine = momentOf(t, 0);
    CHECK(mine["kind"] == "turn");
    CHECK(mine["action"] == "move");
    CHECK(mine["refusal"].is_null());
    for (int p = 1; p < 4; ++p) {
        const auto other = momentOf(t, p);
        INFO("player " << p << ": " << other.dump());
        CHECK(other["kind"] == "wait");
        CHECK(other["to_act"]["seat"] == 0);
        CHECK(other["to_act"]["bot"] == false);
        // The seat's players as a message parameter, as the public status names them.
        CHECK(other["to_act"]["who"] == json{{"player", t.referee.publicStatus()["players"][0]["name"]}});
    }
    // Paused: nobody's turn; over: nothing to do.
    REQUIRE(t.host({{"pause", json::object()}}).ok);
    CHECK(momentOf(t, 0)["kind"] == "paused");
    REQUIRE(t.host({{"resume", json::object()}}).ok);
    CHECK(momentOf(t, 0)["kind"] == "turn");
    REQUIRE(t.host({{"abandon", json::object()}}).ok);
    for (int p = 0; p < 4; ++p) CHECK(momentOf(t, p)["kind"] == "over");
}

TEST_CASE("player moment: a refused move is the moving seat's, with the reason and what to put back") {
    HandTable t;
    toClassicAscent(t);
    const auto& roster = t.state().rules().roster();
    const std::string first = roster[engine::CharacterId{0}].id;  // on floor 1
    t.put(first, "3");                                            // two floors up
    REQUIRE_FALSE(refusalCode(t).empty());
    const auto mine = momentOf(t, 0);
    CHECK(mine["kind"] == "refused");
    CHECK(mine["refusal"]["seat"] == 0);
    CHECK(mine["refusal"]["code"] == refusalCode(t));
    CHECK(mine["refusal"]["says"]["code"].is_string());
    REQUIRE(mine["refusal"]["restore"].size() == 1);
    CHECK(mine["refusal"]["restore"][0]["character"] == first);
    CHECK(mine["refusal"]["restore"][0]["to"] == "1");
    CHECK(mine["refusal"]["restore"][0]["do_says"]["code"].is_string());
    for (int p = 1; p < 4; ++p) {
        const auto other = momentOf(t, p);
        CHECK(other["kind"] == "wait");
        CHECK(other["refusal"].is_null());
    }
    t.put(first, "1");
    CHECK(refusalCode(t).empty());
    CHECK(momentOf(t, 0)["kind"] == "turn");
}

TEST_CASE("player moment: an election asks each seat for its vote until it is in, with the candidate") {
    HandTable t;
    toClassicAscent(t);
    t.put("natale", "5");
    t.put("natale", "6");
    REQUIRE(t.state().phase() == engine::Phase::Election);
    for (int p = 0; p < 4; ++p) {
        const auto m = momentOf(t, p);
        CHECK(m["kind"] == "vote");
        CHECK(m["election"]["candidate"]["character"] == "natale");
        CHECK(m["election"]["voted"] == false);
        // The classic edition has no Stomachache card.
        CHECK(m["election"]["keys"] == json::array({"yes", "no"}));
    }
    t.press(2, drivers::VoteKey::Yes);
    CHECK(momentOf(t, 2)["kind"] == "voted");
    CHECK(momentOf(t, 2)["election"]["voted"] == true);
    CHECK(momentOf(t, 1)["kind"] == "vote");
    // What the seat voted is on its own page's view only, never in the moment.
    CHECK(momentOf(t, 2).dump().find("\"vote\"") == std::string::npos);
}

TEST_CASE("player moment: the Ambition choice, changeable until the first placement, then it stands") {
    HandTable t;
    REQUIRE(t.host({{"new-game",
                     {{"setup", {{"edition", "2024"}, {"seats", 3}, {"options", {{"ambition", true}}}}},
                      {"players", {"Ann", "Bea", "Cleo"}}}}})
                .ok);
    REQUIRE(t.host({{"deal", dealFor(t.state(), 5)}}).ok);
    t.follow();  // the Jester to floor 3
    const engine::PlayerId ann{0};
    const auto pair = t.state().ambitionChoices(ann);
    auto m = momentOf(t, 0);
    CHECK(m["kind"] == "ambition");
    CHECK(m["ambition"]["kept"].is_null());
    CHECK(m["ambition"]["choices"] == json::array({cardName(pair[0]), cardName(pair[1])}));
    CHECK(m["ambition"]["changeable"] == false);
    // Another player's page shows only that player's own two cards.
    CHECK(momentOf(t, 1)["ambition"]["choices"] ==
          json::array({cardName(t.state().ambitionChoices(engine::PlayerId{1})[0]),
                       cardName(t.state().ambitionChoices(engine::PlayerId{1})[1])}));

    REQUIRE(t.host({{"keep", {{"player", 0}, {"ambition", cardName(pair[0])}}}}).ok);
    m = momentOf(t, 0);
    CHECK(m["kind"] == "wait");
    CHECK(m["ambition"]["kept"] == cardName(pair[0]));
    CHECK(m["ambition"]["changeable"] == true);
    CHECK(momentOf(t, 1)["kind"] == "ambition");
    for (int p = 1; p < 3; ++p)
        REQUIRE(t.host({{"keep",
                         {{"player", p},
                          {"ambition", cardName(t.state().ambitionChoices(
                                           engine::PlayerId{static_cast<std::uint8_t>(p)})[0])}}}})
                    .ok);
    REQUIRE(t.state().phase() == engine::Phase::Placement);
    // Ann places first; before she does, she may still change her card.
    m = momentOf(t, 0);
    CHECK(m["kind"] == "turn");
    CHECK(m["action"] == "place");
    CHECK(m["ambition"]["changeable"] == true);
    const auto changed = t.host({{"keep", {{"player", 0}, {"ambition", cardName(pair[1])}}}});
    REQUIRE_MESSAGE(changed.ok, changed.message);
    CHECK(t.state().keptAmbition(ann) == pair[1]);
    CHECK(momentOf(t, 0)["ambition"]["kept"] == cardName(pair[1]));
    checkNoSecrets(t.referee.publicStatus(), t.state());

    t.put("eloise", "4");
    CHECK(momentOf(t, 0)["ambition"].is_null());
    CHECK(momentOf(t, 0)["kind"] == "wait");
    CHECK(momentOf(t, 1)["kind"] == "turn");
    const auto late = t.host({{"keep", {{"player", 0}, {"ambition", cardName(pair[0])}}}});
    CHECK_FALSE(late.ok);
    REQUIRE(late.says);
    CHECK(late.says->code == "refusal.keep-round-begun");
    CHECK(t.state().keptAmbition(ann) == pair[1]);
}

}  // namespace vivaref::referee::testing
