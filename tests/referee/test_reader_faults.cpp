// A faulty reader: shown in the status and on its place's LED; actions that
// touch its place wait until it is back; the rest of the game goes on. And
// the same rules end to end on the simulated castle through the sensing
// pipeline.
#include <doctest/doctest.h>

#include "tests/referee/referee_table.hpp"

namespace vivaref::referee::testing {

namespace {
using drivers::LedMode;
using engine::Place;
const json kClassic4{{"edition", "classic"}, {"seats", 4}};
}  // namespace

TEST_CASE("a move touching a faulty reader's place waits until the reader is back") {
    HandTable t;
    toClassicAscent(t);
    t.faulty = {"floor3"};
    t.show();
    auto status = t.referee.publicStatus();
    CHECK(status["readers"]["faulty"] == json::array({"floor3"}));
    CHECK(status["readers"]["blind_places"] == json::array({"3"}));
    CHECK(t.led("place-3") == LedMode::Pulse);
    CHECK(noticesOf(t.notices, "reader-fault").size() == 1);
    const auto leonardo = t.state().rules().roster().find("leonardo");
    t.put("leonardo", "4");  // lifted from the blind place
    CHECK(t.state().placeOf(leonardo) == Place::Floor3);
    CHECK(t.referee.publicStatus()["refusal"].is_null());
    CHECK(t.referee.publicStatus()["waiting_for"] == "A faulty reader to answer again.");
    t.faulty.clear();
    t.show();
    CHECK(t.state().placeOf(leonardo) == Place::Floor4);
    CHECK(t.led("place-3") == LedMode::Off);
}

TEST_CASE("the rest of the game goes on while a reader is faulty") {
    HandTable t;
    toClassicAscent(t);
    t.faulty = {"floor3"};
    t.show();
    t.put("natale", "5");
    CHECK(t.state().placeOf(t.state().rules().roster().find("natale")) == Place::Floor5);
}

TEST_CASE("on the simulated castle: a placement accepted, a refusal recovered by lifting the character") {
    SimTable t;
    REQUIRE(t.host({{"new-game", {{"setup", kClassic4}}}}).ok);
    REQUIRE(t.host({{"deal", dealFor(t.state(), 1)}}).ok);
    t.put("odessa", "3");
    CHECK(t.state().placeOf(t.state().rules().roster().find("odessa")) == Place::Floor3);
    t.put("piero", "5");
    CHECK(t.referee.publicStatus()["refusal"]["code"] == "floor-not-allowed");
    t.lift("piero");
    CHECK(t.referee.publicStatus()["refusal"].is_null());
    t.move("odessa", "4");  // a move during placement
    CHECK(t.referee.publicStatus()["refusal"]["code"] == "wrong-phase");
    t.move("odessa", "3");
    CHECK(t.referee.publicStatus()["refusal"].is_null());
    t.put("piero", "4");
    CHECK(t.state().placeOf(t.state().rules().roster().find("piero")) == Place::Floor4);
}

TEST_CASE("on the simulated castle: a silent reader holds a placement on its floor until it answers") {
    SimTable t;
    REQUIRE(t.host({{"new-game", {{"setup", kClassic4}}}}).ok);
    REQUIRE(t.host({{"deal", dealFor(t.state(), 1)}}).ok);
    const auto floor1 = *t.board.layout().findReader(drivers::ReaderId{"floor1"});
    t.board.silence(floor1);
    t.advance(1000ms);
    CHECK(t.referee.publicStatus()["readers"]["faulty"] == json::array({"floor1"}));
    t.put("odessa", "1");
    CHECK(t.state().placeOf(t.state().rules().roster().find("odessa")) == Place::Reserve);
    t.put("piero", "2");  // elsewhere the game goes on
    CHECK(t.state().placeOf(t.state().rules().roster().find("piero")) == Place::Floor2);
    t.board.restore(floor1);
    t.advance(1000ms);
    CHECK(t.referee.publicStatus()["readers"]["faulty"].empty());
    CHECK(t.state().placeOf(t.state().rules().roster().find("odessa")) == Place::Floor1);
}

}  // namespace vivaref::referee::testing
