// The ascent on the board: a legal move accepted, and moved down, two floors
// up, into a full floor, a character gone or in a hand: refused or waited
// for, then recovered.
#include <doctest/doctest.h>

#include "tests/referee/referee_table.hpp"

namespace vivaref::referee::testing {

namespace {

using drivers::LedMode;
using engine::Place;

}  // namespace

TEST_CASE("a legal move up one floor is accepted") {
    HandTable t;
    toClassicAscent(t);
    t.lift("leonardo");
    CHECK(t.state().placeOf(id(t, "leonardo")) == Place::Floor3);
    t.put("leonardo", "4");
    CHECK(t.state().placeOf(id(t, "leonardo")) == Place::Floor4);
    CHECK(t.state().seatToAct() == engine::Seat{1});
    CHECK(t.led("place-4") == LedMode::On);
    CHECK(t.led("turn-1") == LedMode::On);
}

TEST_CASE("a character moved down is refused with not-adjacent and put back") {
    HandTable t;
    toClassicAscent(t);
    t.put("leonardo", "2");
    CHECK(refusalCode(t) == "not-adjacent");
    CHECK(t.led("place-2") == LedMode::Blink);
    CHECK(t.led("place-3") == LedMode::Blink);
    CHECK(t.led("turn-0") == LedMode::On);
    auto status = t.referee.publicStatus();
    CHECK(status["refusal"]["restore"][0]["do"] == "put Leonardo Messo Gagliardo back on floor 3");
    CHECK(status["refusal"]["text"].get<std::string>().find("put Leonardo Messo Gagliardo back on floor 3") !=
          std::string::npos);
    t.put("leonardo", "3");
    CHECK(refusalCode(t).empty());
    CHECK(t.led("place-2") == LedMode::Off);
    CHECK(t.state().seatToAct() == engine::Seat{0});
}

TEST_CASE("a character moved two floors up is refused; slid down one floor as told, the move is taken") {
    HandTable t;
    toClassicAscent(t);
    const auto accepted = t.referee.counters().actionsAccepted;
    t.put("ernesto", "4");
    CHECK(refusalCode(t) == "not-adjacent");
    CHECK(t.state().placeOf(id(t, "ernesto")) == Place::Floor2);
    CHECK(t.referee.publicStatus()["refusal"]["restore"][0]["do"] ==
          "put Ernesto il Duca Onesto back on floor 2");
    // The refusal's own sentence says where it may go: straight there, never
    // back on floor 2 first, is that move.
    t.put("ernesto", "3");
    CHECK(refusalCode(t).empty());
    CHECK(t.state().placeOf(id(t, "ernesto")) == Place::Floor3);
    CHECK(t.referee.counters().actionsAccepted == accepted + 1);
    CHECK(t.state().seatToAct() == engine::Seat{1});
    CHECK(t.referee.counters().refusals.at("not-adjacent") == 1);
}

TEST_CASE("a character moved two floors up, put back, then one floor up: accepted once") {
    HandTable t;
    toClassicAscent(t);
    t.put("ernesto", "4");
    CHECK(refusalCode(t) == "not-adjacent");
    t.put("ernesto", "2");
    CHECK(refusalCode(t).empty());
    CHECK(t.state().placeOf(id(t, "ernesto")) == Place::Floor2);
    t.put("ernesto", "3");
    CHECK(refusalCode(t).empty());
    CHECK(t.state().placeOf(id(t, "ernesto")) == Place::Floor3);
}

TEST_CASE("a refused move corrected into another illegal one is refused with the new reason") {
    HandTable t;
    toClassicAscent(t);
    t.put("alighiero", "3");
    CHECK(refusalCode(t) == "not-adjacent");
    t.put("alighiero", "2");  // one floor up, but floor 2 is full
    CHECK(refusalCode(t) == "floor-full");
    CHECK(t.state().placeOf(id(t, "alighiero")) == Place::Floor1);
    CHECK(t.referee.publicStatus()["refusal"]["restore"][0]["do"] ==
          "put Alighiero lo Scudiero back on floor 1");
    t.put("alighiero", "1");
    CHECK(refusalCode(t).empty());
    CHECK(t.state().placeOf(id(t, "alighiero")) == Place::Floor1);
    CHECK(t.state().seatToAct() == engine::Seat{0});
}

TEST_CASE("a move into a full floor is refused with floor-full") {
    HandTable t;
    toClassicAscent(t);
    t.put("alighiero", "2");
    CHECK(refusalCode(t) == "floor-full");
    t.put("alighiero", "1");
    CHECK(refusalCode(t).empty());
    t.put("piero", "1");  // from floor 0 onto the full floor 1
    CHECK(refusalCode(t) == "floor-full");
    t.put("piero", "0");
    CHECK(refusalCode(t).empty());
    CHECK(t.referee.counters().refusals.at("floor-full") == 2);
}

TEST_CASE("a character in a hand is waited for; gone past the grace, it is refused") {
    HandTable t;
    toClassicAscent(t);
    t.lift("merlino");
    auto status = t.referee.publicStatus();
    CHECK(status["in_hand"] == json::array({"merlino"}));
    CHECK(status["refusal"].is_null());
    CHECK(status["waiting_for"] == "Put down the character in hand.");
    t.remove("merlino");  // the pipeline's in-hand grace ran out
    CHECK(refusalCode(t) == "character-gone");
    t.put("merlino", "4");  // landing on a legal place completes the move
    CHECK(refusalCode(t).empty());
    CHECK(t.state().placeOf(id(t, "merlino")) == Place::Floor4);
}

TEST_CASE("several characters moved during the ascent are refused; one put back, the other's move is taken") {
    HandTable t;
    toClassicAscent(t);
    t.on["leonardo"] = "4";
    t.on["merlino"] = "4";
    t.show();
    CHECK(refusalCode(t) == "several-moved");
    CHECK(t.state().placeOf(id(t, "leonardo")) == Place::Floor3);
    t.put("merlino", "3");  // what is left is one legal move: the one the refusal asked for
    CHECK(refusalCode(t).empty());
    CHECK(t.state().placeOf(id(t, "leonardo")) == Place::Floor4);
    CHECK(t.state().placeOf(id(t, "merlino")) == Place::Floor3);
    CHECK(t.state().seatToAct() == engine::Seat{1});
}

TEST_CASE("moves the readers saw late are judged in the order their pieces were lifted") {
    // Floor 4's reader is down while seat 0 moves leonardo from 3 to 4: the
    // referee sees leonardo in a hand. A second later seat 1 moves merlino
    // from 3 to 4 too. When the reader is back both stand on 4: leonardo,
    // lifted first, is seat 0's move, merlino seat 1's.
    HandTable t;
    toClassicAscent(t);
    t.faulty = {"floor4"};
    t.lift("leonardo");
    t.on["leonardo"] = "4";
    t.inHand.erase("leonardo");
    t.show();
    t.wait(Timestamp(800));
    t.lift("merlino");
    t.on["merlino"] = "4";
    t.inHand.erase("merlino");
    t.show();
    CHECK(t.state().placeOf(id(t, "leonardo")) == Place::Floor3);  // nothing judged while blind
    t.faulty.clear();
    t.show();
    CHECK(refusalCode(t).empty());
    CHECK(t.state().placeOf(id(t, "leonardo")) == Place::Floor4);
    CHECK(t.state().placeOf(id(t, "merlino")) == Place::Floor4);
    CHECK(t.state().seatToAct() == engine::Seat{2});

    // Lifted together (one hand, two pieces): several-moved, as before.
    HandTable both;
    toClassicAscent(both);
    both.faulty = {"floor4"};
    both.lift("leonardo");
    both.lift("merlino");
    both.on["leonardo"] = "4";
    both.on["merlino"] = "4";
    both.inHand.clear();
    both.show();
    both.faulty.clear();
    both.show();
    CHECK(refusalCode(both) == "several-moved");
}

}  // namespace vivaref::referee::testing
