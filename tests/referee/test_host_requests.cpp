// Host requests: their form, starting a game, pause, resume, abandon, and
// the referee's own deal after its grace.
#include <doctest/doctest.h>

#include "daemon/referee/player_names.hpp"
#include "daemon/words/words.hpp"
#include "tests/referee/referee_table.hpp"

namespace vivaref::referee::testing {

TEST_CASE("host requests read strictly and write back the same") {
    for (const char* text :
         {R"({"new-game":{"setup":{"edition":"classic","seats":4},"players":["Ann","Bob","Cy","Di"]}})",
          R"({"deal":{"round":1}})", R"({"keep":{"player":0,"ambition":"wc-0"}})",
          R"({"reshuffle":{"pile":["yes"]}})", R"({"undo":{}})", R"({"pause":{}})", R"({"resume":{}})",
          R"({"abandon":{}})"}) {
        CAPTURE(text);
        auto parsed = parseHostRequest(json::parse(text));
        REQUIRE(parsed.ok());
        CHECK(hostRequestJson(std::get<HostRequest>(parsed.value)) == json::parse(text));
    }
    for (const char* text :
         {R"([])", R"({})", R"({"deal":{},"undo":{}})", R"({"shuffle":{}})", R"({"undo":{"x":1}})",
          R"({"undo":[]})", R"({"new-game":{"players":[]}})", R"({"new-game":{"setup":{},"players":[1]}})",
          R"({"new-game":{"setup":{},"x":0}})", R"({"deal":[]})"}) {
        CAPTURE(text);
        auto parsed = parseHostRequest(json::parse(text));
        CHECK_FALSE(parsed.ok());
        if (!parsed.ok()) CHECK_FALSE(std::get<std::string>(parsed.value).empty());
    }
}

TEST_CASE("a new game: bad setups and player lists are refused, a game in progress blocks another") {
    HandTable t;
    auto answer = t.host({{"new-game", {{"setup", {{"edition", "classic"}, {"seats", 9}}}}}});
    CHECK_FALSE(answer.ok);
    CHECK(answer.code == "bad-setup");
    answer = t.host({{"new-game", {{"setup", kClassic4}, {"players", {"Ann", "Bob"}}}}});
    CHECK(answer.code == "bad-players");
    CHECK(t.referee.state() == nullptr);
    CHECK(t.referee.publicStatus()["state"] == "no-game");

    answer = t.host({{"new-game", {{"setup", kClassic4}, {"players", {"Ann", "Bob", "Cy", "Di"}}}}});
    REQUIRE(answer.ok);
    CHECK(t.referee.game().has_value());
    CHECK(t.referee.publicStatus()["players"][2]["name"] == "Cy");
    answer = t.host({{"new-game", {{"setup", kClassic4}}}});
    CHECK(answer.code == "game-in-progress");
    CHECK(t.referee.counters().gamesStarted == 1);
}

TEST_CASE("without a host deal the referee deals from its seed after the grace, and says what it dealt") {
    HandTable t(nullptr, seeded(42));
    REQUIRE(t.host({{"new-game", {{"setup", kClassic4}}}}).ok);
    CHECK(t.referee.nextDeadline() == t.now + 1000ms);
    t.wait(999ms);
    CHECK(t.state().phase() == engine::Phase::AwaitDeal);
    t.wait(1ms);
    CHECK(t.state().phase() == engine::Phase::Placement);
    auto own = t.referee.takeOwnChance();
    REQUIRE(own.size() == 1);
    CHECK(own[0].at == t.now);
    REQUIRE(own[0].host.contains("deal"));
    CHECK(noticesOf(t.notices, "dealt").at(0).detail["by"] == "referee");
    // The same deal entered by the host gives the same game.
    HandTable u;
    REQUIRE(u.host({{"new-game", {{"setup", kClassic4}}}}).ok);
    REQUIRE(u.host(own[0].host).ok);
    CHECK(u.state() == t.state());
    // A host deal after the referee dealt is out of phase.
    auto late = t.host(own[0].host);
    CHECK(late.code == "wrong-phase");
}

TEST_CASE("a host deal at the very moment the referee would deal wins") {
    HandTable t(nullptr, seeded(42));
    REQUIRE(t.host({{"new-game", {{"setup", kClassic4}}}}).ok);
    const json deal = dealFor(t.state(), 5);
    t.now += 1000ms;
    REQUIRE(t.host({{"deal", deal}}).ok);
    CHECK(t.referee.takeOwnChance().empty());
    CHECK(noticesOf(t.notices, "dealt").at(0).detail["by"] == "host");
}

TEST_CASE("a bad deal from the host is refused with the engine's code") {
    HandTable t;
    REQUIRE(t.host({{"new-game", {{"setup", kClassic4}}}}).ok);
    auto answer = t.host({{"deal", {{"round", 1}, {"favourites", json::array()}}}});
    CHECK_FALSE(answer.ok);
    CHECK(answer.code == "bad-deal");
    CHECK(t.state().phase() == engine::Phase::AwaitDeal);
}

TEST_CASE("pause: nothing is accepted; resume: the board is judged again") {
    HandTable t;
    t.start(kClassic4);
    REQUIRE(t.host({{"pause", json::object()}}).ok);
    CHECK(t.referee.paused());
    CHECK(t.host({{"pause", json::object()}}).code == "paused");
    t.put("alighiero", "1");
    CHECK(t.state().placeOf(engine::CharacterId{0}) == engine::Place::Reserve);
    CHECK(t.referee.publicStatus()["state"] == "paused");
    CHECK(t.led("turn-0") == drivers::LedMode::Pulse);
    t.press(0, drivers::VoteKey::Yes);
    CHECK(t.notices.back().audience == Notice::Audience::Station);
    REQUIRE(t.host({{"resume", json::object()}}).ok);
    CHECK(t.state().placeOf(engine::CharacterId{0}) == engine::Place::Floor1);
    CHECK(t.host({{"resume", json::object()}}).code == "not-paused");
}

TEST_CASE("abandon ends the game; a new one may start") {
    HandTable t;
    t.start(kClassic4);
    REQUIRE(t.host({{"abandon", json::object()}}).ok);
    CHECK(t.referee.publicStatus()["state"] == "abandoned");
    CHECK(t.referee.counters().gamesAbandoned == 1);
    t.put("alighiero", "1");
    CHECK(t.state().placeOf(engine::CharacterId{0}) == engine::Place::Reserve);
    CHECK(t.host({{"undo", json::object()}}).code == "no-game");
    CHECK(t.host({{"new-game", {{"setup", kClassic4}}}}).ok);
    CHECK(t.referee.counters().gamesStarted == 2);
}

TEST_CASE("undo: the last placement is taken back and the board guided back") {
    HandTable t;
    t.start(kClassic4);
    CHECK(t.host({{"undo", json::object()}}).ok);  // the host's deal itself
    CHECK(t.state().phase() == engine::Phase::AwaitDeal);
    CHECK(t.host({{"undo", json::object()}}).code == "nothing-to-undo");
    REQUIRE(t.host({{"deal", dealFor(t.state(), 7)}}).ok);
    t.put("alighiero", "1");
    t.put("beatrice", "2");
    REQUIRE(t.state().seatToAct() == engine::Seat{2});
    const auto before = t.state();
    REQUIRE(t.host({{"undo", json::object()}}).ok);
    CHECK(t.state().placeOf(engine::CharacterId{1}) == engine::Place::Reserve);
    CHECK(t.state().seatToAct() == engine::Seat{1});
    // beatrice is still on 2: guidance, not a refusal, and nothing accepted.
    auto status = t.referee.publicStatus();
    CHECK(status["refusal"].is_null());
    REQUIRE(status["guidance"].is_object());
    CHECK(status["guidance"]["moves"][0]["character"] == "beatrice");
    CHECK(t.led("place-2") == drivers::LedMode::Blink);
    t.put("clemente", "3");
    CHECK(t.state().placeOf(engine::CharacterId{2}) == engine::Place::Reserve);
    t.remove("clemente");
    t.remove("beatrice");
    CHECK(noticesOf(t.notices, "guided").size() >= 1);
    CHECK(t.led("place-2") == drivers::LedMode::Off);
    t.put("beatrice", "2");
    CHECK(t.state() == before);
    CHECK(t.referee.counters().undos == 2);
}

namespace {

// English, names without their isolates, for comparing whole sentences.
std::string undoEnglish(const engine::Message& m) {
    static const words::Words plain("en", words::NameMarks::Plain);
    return plain.say(m);
}

}  // namespace

TEST_CASE("undo says what it took back: the person's decision, named from before it") {
    HandTable t;
    t.start(kClassic4);
    t.put("alighiero", "1");
    auto preview = t.referee.undoPreview();
    REQUIRE(preview);
    CHECK(preview->unscoresRound == 0);
    CHECK(preview->undone.code == "undo.placed");
    const auto answer = t.host({{"undo", json::object()}});
    REQUIRE(answer.ok);
    REQUIRE(answer.says);
    CHECK(*answer.says == preview->undone);
    CHECK(undoEnglish(*answer.says) == "Undone: Player 1 placed Alighiero lo Scudiero on floor 1.");
    CHECK(answer.message.find("placed Alighiero lo Scudiero on floor 1.") != std::string::npos);
    // The deal before it is the host's own: named too; then nothing is left.
    t.follow();
    preview = t.referee.undoPreview();
    REQUIRE(preview);
    CHECK(undoEnglish(preview->undone) == "Undone: the deal of round 1.");
    REQUIRE(t.host({{"undo", json::object()}}).ok);
    CHECK_FALSE(t.referee.undoPreview());
}

TEST_CASE("undo past a coronation the table has seen scored: the preview names the round and the vote") {
    HandTable t(nullptr, seeded(3));
    toClassicAscent(t);
    t.put("natale", "5");
    // A move: named with where it came from.
    auto preview = t.referee.undoPreview();
    REQUIRE(preview);
    CHECK(undoEnglish(preview->undone) ==
          "Undone: Player 1 moved Natale Oste Gioviale from floor 4 to floor 5.");
    t.put("natale", "6");
    REQUIRE(t.state().phase() == engine::Phase::Election);
    for (int s = 0; s < 3; ++s) t.press(s, drivers::VoteKey::Yes);
    preview = t.referee.undoPreview();
    REQUIRE(preview);
    CHECK(preview->unscoresRound == 0);  // nothing scored yet: no question
    t.press(3, drivers::VoteKey::Yes);
    REQUIRE(t.state().finishedRounds().size() == 1);
    t.wait(std::chrono::milliseconds(1000));  // the referee deals round 2
    REQUIRE(t.state().phase() == engine::Phase::Placement);
    preview = t.referee.undoPreview();
    REQUIRE(preview);
    // The referee's deal goes with the last vote, and round 1's scoring with them.
    CHECK(preview->unscoresRound == 1);
    CHECK(undoEnglish(preview->undone) == "Undone: Player 4’s vote on Natale Oste Gioviale, round 1.");
    CHECK(undoEnglish(preview->confirmation()) ==
          "This undo goes back before round 1’s scoring, which the table has already seen: the Favourites "
          "cards "
          "revealed, and the points. Undo all the same?");
    // Undone (the host confirmed on the API's side): the election is open again, seat 4 to vote.
    REQUIRE(t.host({{"undo", json::object()}}).ok);
    CHECK(t.state().phase() == engine::Phase::Election);
    CHECK(t.state().finishedRounds().empty());
    CHECK_FALSE(t.state().hasVoted(engine::Seat{3}));
    CHECK(t.referee.undoPreview()->unscoresRound == 0);
}

TEST_CASE(
    "a player named as a character: found by id, whole name or first name, whatever the case or accents") {
    const auto& classic = engine::classicRoster();
    const auto& modern = engine::roster2024();
    auto clash = characterNameClash({"Anna", "DARIO", "Chiara"}, classic);
    REQUIRE(clash);
    CHECK(clash->code == "name.is-character");
    CHECK(undoEnglish(*clash) ==
          "DARIO is also the name of the character Dario l'Antiquario: the table may mix them up. "
          "An initial or a nickname tells them apart.");
    CHECK(characterNameClash({"odessa la contessa"}, classic));
    CHECK(characterNameClash({"Éloïse"}, modern));
    CHECK(characterNameClash({"  jester "}, modern));
    // Another name, a longer one, or the Jester's article: no warning.
    CHECK_FALSE(characterNameClash({"Darion", "Dario B.", "The", "Anna"}, classic));
    CHECK_FALSE(characterNameClash({"The"}, modern));
    CHECK_FALSE(characterNameClash({"Dario"}, modern));
}

}  // namespace vivaref::referee::testing
