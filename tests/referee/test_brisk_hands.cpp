// Real hands at a brisk table: the referee never waits for the in-hand grace
// to accept a legal move, a move made while the board is still being guided
// is judged once the guided pieces are in place, repairs are never moves,
// and a second key press is told to its station and its player's page.
#include <doctest/doctest.h>

#include "tests/referee/referee_table.hpp"

namespace vivaref::referee::testing {

namespace {

using drivers::LedMode;
using drivers::VoteKey;
using engine::Place;

// natale up to the throne, then eliminated by seat 3's No: the board is
// guided to take natale off, and seat 2 is to act.
void toElimination(HandTable& t) {
    toClassicAscent(t);
    t.put("natale", "5");
    t.put("natale", "6");
    REQUIRE(t.state().phase() == engine::Phase::Election);
    for (int s = 0; s < 3; ++s) t.press(s, VoteKey::Yes);
    t.press(3, VoteKey::No);
    REQUIRE(t.state().placeOf(id(t, "natale")) == Place::Box);
    REQUIRE(t.referee.publicStatus()["guidance"].is_object());
    t.take();
}

// A legal move of the seat to act, other than `avoid`'s.
engine::Action someMove(const HandTable& t, const std::string& avoid) {
    engine::ActionList legal;
    t.state().legalActions(legal);
    for (const auto& a : legal)
        if (a.kind() == engine::ActionKind::Move && t.state().rules().roster()[a.character()].id != avoid)
            return a;
    FAIL("no legal move");
    return legal[0];
}

}  // namespace

TEST_CASE("a candidate sent to the box is in place once lifted: the next move is taken at once") {
    HandTable t;
    toElimination(t);
    t.lift("natale");  // still in the hand, well inside the in-hand grace
    CHECK(t.referee.publicStatus()["guidance"].is_null());
    CHECK(t.led("place-6") == LedMode::Off);
    const auto accepted = t.referee.counters().actionsAccepted;
    const auto move = someMove(t, "natale");
    t.perform(move);
    CHECK(t.referee.counters().actionsAccepted == accepted + 1);
    CHECK(t.state().placeOf(move.character()) == move.to());
    CHECK(refusalCode(t).empty());
    // The in-hand grace ends: natale is gone, which is where it belongs.
    t.remove("natale");
    CHECK(refusalCode(t).empty());
    CHECK(t.referee.publicStatus()["differences"].empty());
}

TEST_CASE("a move made while the board is still guided is judged once the guided piece is in place") {
    HandTable t;
    toElimination(t);
    const auto accepted = t.referee.counters().actionsAccepted;
    const auto move = someMove(t, "natale");
    const std::string slug = t.state().rules().roster()[move.character()].id;
    t.perform(move);  // seat 2 plays before natale is off the throne
    CHECK(t.referee.counters().actionsAccepted == accepted);
    auto guidance = t.referee.publicStatus()["guidance"];
    REQUIRE(guidance.is_object());
    REQUIRE(guidance["moves"].size() == 1);  // only what the engine moved is guided
    CHECK(guidance["moves"][0]["character"] == "natale");
    CHECK(t.led("place-6") == LedMode::Blink);
    t.lift("natale");
    CHECK(t.referee.counters().actionsAccepted == accepted + 1);
    CHECK(t.state().placeOf(move.character()) == move.to());
    CHECK(refusalCode(t).empty());
    CHECK(noticesOf(t.take(), "guided").size() == 1);
}

TEST_CASE("a hand slower than the in-hand grace: the piece gone is told, then its move is taken") {
    HandTable t;
    toClassicAscent(t);
    const auto move = someMove(t, "");
    const std::string slug = t.state().rules().roster()[move.character()].id;
    t.lift(slug);
    t.remove(slug);  // held past the grace: the readers call it gone
    CHECK(refusalCode(t) == "character-gone");
    t.put(slug, std::string(engine::placeName(move.to())));
    CHECK(refusalCode(t).empty());
    CHECK(t.state().placeOf(move.character()) == move.to());
}

TEST_CASE("two pieces moved, one put back: the other's move is the one move, taken") {
    HandTable t;
    toClassicAscent(t);
    const auto accepted = t.referee.counters().actionsAccepted;
    // leonardo and merlino up from 3 to 4, ernesto from 2 to 3.
    t.on["leonardo"] = "4";
    t.on["merlino"] = "4";
    t.on["ernesto"] = "3";
    t.show();
    CHECK(refusalCode(t) == "several-moved");
    t.put("leonardo", "3");  // two still moved: nothing is accepted, the list follows the board
    CHECK(refusalCode(t) == "several-moved");
    CHECK(t.referee.counters().actionsAccepted == accepted);
    auto restore = t.referee.publicStatus()["refusal"]["restore"];
    REQUIRE(restore.size() == 2);
    CHECK(restore[1]["do"] == "put Merlino l'Indovino back on floor 3");
    CHECK(t.led("place-4") == LedMode::Blink);
    t.put("ernesto", "2");  // merlino alone is moved: one legal move from the position before
    CHECK(refusalCode(t).empty());
    CHECK(t.referee.counters().actionsAccepted == accepted + 1);
    CHECK(t.state().placeOf(id(t, "merlino")) == Place::Floor4);
    CHECK(t.state().placeOf(id(t, "leonardo")) == Place::Floor3);
}

TEST_CASE("a second key press in an election is not counted, and its station and page say so") {
    HandTable t;
    toClassicAscent(t);
    t.put("natale", "5");
    t.put("natale", "6");
    REQUIRE(t.state().phase() == engine::Phase::Election);
    t.take();
    t.press(1, VoteKey::Yes);
    t.press(1, VoteKey::No);  // changed their mind: the first vote stands
    auto notes = t.take();
    REQUIRE(noticesOf(notes, "private-refusal").size() == 1);
    CHECK(noticesOf(notes, "private-refusal")[0].station == 1);
    CHECK(t.led("station-1") == LedMode::Blink);
    const auto page = t.referee.playerStatus(t.state().rules().playerAt(engine::Seat{1}, 0));
    REQUIRE(page["station_notice"].is_object());
    CHECK(page["station_notice"]["code"] == "already-voted");
    CHECK(page["station_notice"]["text"].get<std::string>().find("not counted") != std::string::npos);
    // Nobody else's page hears of it, nor the public status.
    const auto other = t.referee.playerStatus(t.state().rules().playerAt(engine::Seat{2}, 0));
    CHECK(other["station_notice"].is_null());
    CHECK(t.referee.publicStatus().dump().find("not counted") == std::string::npos);
}

}  // namespace vivaref::referee::testing
