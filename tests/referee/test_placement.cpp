// Placement on the board: accepted, and every way to get it wrong refused
// with the right code, the places to restore blinking, then recovered both
// ways: the board put back (a piece not yet placed is back once it is in a
// hand again), never by a piece moved on from where it was refused.
#include <doctest/doctest.h>

#include "tests/referee/referee_table.hpp"

namespace vivaref::referee::testing {

namespace {

using drivers::LedMode;
using engine::Place;

}  // namespace

TEST_CASE("a placement by the seat to act is accepted, acknowledged and lit") {
    HandTable t;
    t.start(kClassic4);
    REQUIRE(t.state().phase() == engine::Phase::Placement);
    CHECK(t.led("turn-0") == LedMode::On);
    t.take();
    t.put("alighiero", "1");
    CHECK(t.state().placeOf(id(t, "alighiero")) == Place::Floor1);
    auto accepted = noticesOf(t.take(), "accepted");
    REQUIRE(accepted.size() == 1);
    CHECK(accepted[0].detail["seat"] == 0);
    CHECK(accepted[0].detail["to"] == "1");
    CHECK(t.led("place-1") == LedMode::On);
    CHECK(t.led("turn-0") == LedMode::Off);
    CHECK(t.led("turn-1") == LedMode::On);
    CHECK(t.referee.nextDeadline() == t.now + 600ms);
    t.wait(600ms);
    CHECK(t.led("place-1") == LedMode::Off);
    CHECK_FALSE(t.referee.nextDeadline());
    CHECK(t.referee.counters().actionsAccepted == 1);
    auto status = t.referee.publicStatus();
    CHECK(status["last_action"] == "\u2068Player 1\u2069 placed Alighiero lo Scudiero on floor 1.");
    CHECK(status["differences"].empty());
}

TEST_CASE("placing on floor 0 or 5 is refused with floor-not-allowed; recovered by taking it off") {
    for (const char* place : {"0", "5"}) {
        CAPTURE(place);
        HandTable t;
        t.start(kClassic4);
        t.take();
        t.put("dario", place);
        CHECK(refusalCode(t) == "floor-not-allowed");
        CHECK(t.state().placeOf(id(t, "dario")) == Place::Reserve);
        CHECK(t.led(std::string("place-") + place) == LedMode::Blink);
        auto refused = noticesOf(t.take(), "refused");
        REQUIRE(refused.size() == 1);
        CHECK(refused[0].detail["code"] == "floor-not-allowed");
        CHECK(refused[0].text.find("Take Dario l'Antiquario off the board") != std::string::npos);
        // Said as a message too: the refusal and what to do.
        REQUIRE(refused[0].says);
        CHECK(refused[0].says->code == "referee.refusal-steps");
        // Where the piece is seen, as words and as data a page words itself.
        const auto differences = t.referee.publicStatus()["differences"];
        REQUIRE(differences.size() == 1);
        CHECK(differences[0]["seen"] == std::string("on floor ") + place);
        CHECK(differences[0]["seen_at"]["on"] == place);
        CHECK(t.referee.counters().refusals.at("floor-not-allowed") == 1);
        t.remove("dario");
        CHECK(refusalCode(t).empty());
        CHECK(noticesOf(t.take(), "recovered").size() == 1);
        CHECK(t.led(std::string("place-") + place) == LedMode::Off);
        t.put("dario", "2");
        CHECK(t.state().placeOf(id(t, "dario")) == Place::Floor2);
    }
}

TEST_CASE("a refused placement is lifted as soon as the piece is back in a hand, then placed right") {
    HandTable t;
    t.start(kClassic4);
    t.put("dario", "5");
    CHECK(refusalCode(t) == "floor-not-allowed");
    t.lift("dario");  // in a hand is off the board again: where a piece not yet placed belongs
    CHECK(refusalCode(t).empty());
    CHECK(t.referee.publicStatus()["in_hand"] == json::array({"dario"}));
    t.put("dario", "4");
    CHECK(refusalCode(t).empty());
    CHECK(t.state().placeOf(id(t, "dario")) == Place::Floor4);
    CHECK(t.referee.counters().refusals.at("floor-not-allowed") == 1);
}

TEST_CASE("a refused placement slid on to a legal floor is that placement") {
    HandTable t;
    t.start(kClassic4);
    t.put("dario", "5");
    CHECK(refusalCode(t) == "floor-not-allowed");
    CHECK(t.referee.publicStatus()["refusal"]["restore"][0]["do"] == "take Dario l'Antiquario off the board");
    t.put("dario", "4");  // slid straight on, never off the board
    CHECK(refusalCode(t).empty());
    CHECK(t.state().placeOf(id(t, "dario")) == Place::Floor4);
    CHECK(t.state().seatToAct() == engine::Seat{1});
}

TEST_CASE("two characters placed at once are refused with several-moved") {
    HandTable t;
    t.start(kClassic4);
    t.on["alighiero"] = "1";
    t.on["beatrice"] = "2";
    t.show();
    CHECK(refusalCode(t) == "several-moved");
    CHECK(t.led("place-1") == LedMode::Blink);
    CHECK(t.led("place-2") == LedMode::Blink);
    CHECK(t.state().placeOf(id(t, "alighiero")) == Place::Reserve);
    auto restore = t.referee.publicStatus()["refusal"]["restore"];
    CHECK(restore.size() == 2);
    // One taken off: one placement is left, the one the refusal asked for
    // ("one at a time"), and it is taken.
    t.remove("beatrice");
    CHECK(refusalCode(t).empty());
    CHECK(t.state().placeOf(id(t, "alighiero")) == Place::Floor1);
    CHECK(t.state().placeOf(id(t, "beatrice")) == Place::Reserve);
    CHECK(t.referee.counters().refusals.at("several-moved") == 1);
}

TEST_CASE("placing on a full floor is refused with floor-full") {
    HandTable t;
    t.start(kClassic4);
    for (const char* slug : {"alighiero", "beatrice", "clemente", "dario"}) t.put(slug, "1");
    REQUIRE(t.state().countAt(Place::Floor1) == 4);
    t.put("ernesto", "1");
    CHECK(refusalCode(t) == "floor-full");
    CHECK(t.led("place-1") == LedMode::Blink);
    t.lift("ernesto");  // off the board again, in a hand
    CHECK(refusalCode(t).empty());
    t.put("ernesto", "2");
    CHECK(t.state().placeOf(id(t, "ernesto")) == Place::Floor2);
}

TEST_CASE("a character of no character of this game on the board is refused until taken off") {
    HandTable t;
    t.start(kClassic4);
    t.put("jester", "2");
    CHECK(refusalCode(t) == "not-in-game");
    t.remove("jester");
    CHECK(refusalCode(t).empty());
}

TEST_CASE("a placed character that leaves the board is refused with character-gone") {
    HandTable t;
    t.start(kClassic4);
    t.put("alighiero", "1");
    t.remove("alighiero");
    CHECK(refusalCode(t) == "character-gone");
    CHECK(t.led("place-1") == LedMode::Blink);
    CHECK(t.referee.publicStatus()["refusal"]["restore"][0]["do"] ==
          "put Alighiero lo Scudiero back on floor 1");
    t.put("alighiero", "1");
    CHECK(refusalCode(t).empty());
}

TEST_CASE("the end of placement: the leftovers are guided to floor 0, then the ascent starts") {
    HandTable t;
    t.start(kClassic4);
    const char* floors[] = {"1", "1", "1", "1", "2", "2", "2", "2", "3", "3", "4", "4"};
    const auto& roster = t.state().rules().roster();
    for (int i = 0; i < 12; ++i)
        t.put(roster[engine::CharacterId{static_cast<std::uint8_t>(i)}].id, floors[i]);
    REQUIRE(t.state().phase() == engine::Phase::Ascent);
    auto status = t.referee.publicStatus();
    REQUIRE(status["guidance"].is_object());
    CHECK(status["guidance"]["moves"][0]["do"] == "put Piero il Cuoco Fiero on floor 0");
    CHECK(t.led("place-0") == LedMode::Blink);
    // Nothing is accepted while guiding: a move now is not taken.
    t.put("natale", "5");
    CHECK(t.state().placeOf(id(t, "natale")) == Place::Floor4);
    CHECK(t.referee.publicStatus()["refusal"].is_null());
    t.put("natale", "4");
    t.put("piero", "0");
    CHECK(t.referee.publicStatus()["guidance"].is_null());
    CHECK(noticesOf(t.notices, "guided").size() >= 1);
    t.put("natale", "5");
    CHECK(t.state().placeOf(id(t, "natale")) == Place::Floor5);
}

}  // namespace vivaref::referee::testing
