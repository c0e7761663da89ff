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

TEST_CASE("the host's answers and the game's start are messages, in the table's words") {
    HandTable t;
    const auto started = t.host({{"new-game",
                                  {{"setup", {{"edition", "classic"}, {"seats", 4}}},
                                   {"players", {"Ann", "Bea", "Cleo", "Dan"}},
                                   {"favourites", "physical"}}}});
    REQUIRE(started.ok);
    REQUIRE(started.says);
    CHECK(started.message == "Game 1 started.");
    CHECK(words::Words("it").say(*started.says) == "La partita 1 è iniziata.");
    const auto notes = noticesOf(t.take(), "game-started");
    REQUIRE(notes.size() == 1);
    CHECK(notes[0].text == "Game 1 starts: classic, 4 seats, with the table’s own Favourites cards.");
    REQUIRE(notes[0].says);
    CHECK(words::Words("fr").say(*notes[0].says) ==
          "La partie 1 commence : édition classique, 4 sièges, avec les propres objectifs secrets de la "
          "table.");
    const auto paused = t.host({{"pause", json::object()}});
    REQUIRE(paused.says);
    CHECK(words::Words("de").say(*paused.says) == "Pausiert.");
    // A key while paused: that station alone is told, in a message.
    t.press(2, drivers::VoteKey::Yes);
    const auto told = t.take();
    REQUIRE_FALSE(told.empty());
    REQUIRE(told.back().says);
    CHECK(told.back().says->code == "station.paused");
    CHECK(told.back().text == "The game is paused: vote once it goes on.");
    CHECK(t.referee.playerStatus(engine::PlayerId{2})["station_notice"]["says"]["code"] == "station.paused");
}

}  // namespace vivaref::referee::testing
