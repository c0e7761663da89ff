// The referee's sentences in the table's words: seats by their players'
// names, characters by display name, places
// as "floor 1"; while Ambition cards are kept the status names who still
// chooses and never which card.
#include <doctest/doctest.h>

#include "daemon/words/words.hpp"
#include "engine/state.hpp"
#include "tests/referee/referee_table.hpp"

namespace vivaref::referee::testing {

TEST_CASE("Ambition: the status names who still keeps a card, never the card; seats speak as their players") {
    HandTable t;
    // Every player has a name (an empty one is refused: engine/record/player_name.hpp).
    REQUIRE(t.host({{"new-game",
                     {{"setup", {{"edition", "2024"}, {"seats", 3}, {"options", {{"ambition", true}}}}},
                      {"players", {"Ann", "Bea", "Cleo"}}}}})
                .ok);
    REQUIRE(t.host({{"deal", dealFor(t.state(), 5)}}).ok);
    t.follow();  // the Jester to floor 3
    auto status = t.referee.publicStatus();
    REQUIRE(status["ambition_waiting"].size() == 3);
    CHECK(status["ambition_waiting"][0]["name"] == "Ann");
    CHECK(status["ambition_waiting"][1]["name"] == "Bea");
    CHECK(status["waiting_for"].get<std::string>().find("own page") != std::string::npos);

    const engine::PlayerId ann{0};
    const auto card = t.state().ambitionChoices(ann)[1];
    const std::string slug{engine::ambitionCardName(card)};
    const auto answer = t.host({{"keep", {{"player", 0}, {"ambition", slug}}}});
    REQUIRE(answer.ok);
    CHECK(answer.message == "\u2068Ann\u2069 kept a card.");
    REQUIRE(answer.says);
    CHECK(answer.says->code == "answer.kept");
    CHECK(words::Words("de").say(*answer.says) == "\u2068Ann\u2069 hat eine Karte behalten.");
    status = t.referee.publicStatus();
    REQUIRE(status["ambition_waiting"].size() == 2);
    CHECK(status["ambition_waiting"][0]["name"] == "Bea");
    CHECK(status.dump().find(slug) == std::string::npos);
    const auto kept = noticesOf(t.notices, "ambition-kept");
    REQUIRE(kept.size() == 1);
    CHECK(kept[0].text == "\u2068Ann\u2069 kept an Ambition card.");

    for (int p = 1; p < 3; ++p) {
        const engine::PlayerId player{static_cast<std::uint8_t>(p)};
        REQUIRE(t.host({{"keep",
                         {{"player", p},
                          {"ambition",
                           std::string(engine::ambitionCardName(t.state().ambitionChoices(player)[0]))}}}})
                    .ok);
    }
    status = t.referee.publicStatus();
    CHECK(status["ambition_waiting"].empty());
    CHECK(status["waiting_for"] == "\u2068Ann\u2069 to place a character.");

    t.put("eloise", "4");
    CHECK(t.referee.publicStatus()["last_action"] == "\u2068Ann\u2069 placed Eloise on floor 4.");
    CHECK(t.referee.publicStatus()["waiting_for"] == "\u2068Bea\u2069 to place a character.");
    t.put("caius", "2");
    CHECK(t.referee.publicStatus()["last_action"] == "\u2068Bea\u2069 placed Caius on floor 2.");
}

}  // namespace vivaref::referee::testing
