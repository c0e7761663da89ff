// Asking instead of guessing (issue 35; REFEREE-NOTES.md, "When the readers
// are late"): two placements that land while one reader catches up, in an
// order the readers cannot tell and that credits different seats either
// way, are put to the host; the game waits for the answer, and each answer
// gives its own record. An order the board shows needs no question; a wrong
// or stale answer is refused with a reason; a game resumed from its log
// asks again.
#include <doctest/doctest.h>

#include "daemon/store/game_store.hpp"
#include "tests/referee/referee_table.hpp"
#include "tests/store/random_game_writer.hpp"

namespace vivaref::referee::testing {

namespace {

using engine::Place;

// A classic four-seat game at its first placement: floor 1's reader misses
// scans while odessa and piero are both put there, then reads them both.
void twoLandUnseen(HandTable& t) {
    t.failing = {"floor1"};
    t.show();  // its gap begins
    t.show();
    t.on["odessa"] = "1";
    t.on["piero"] = "1";
    t.show();  // still failing: the hold
    t.failing.clear();
    t.show();
}

json orderRequest(std::vector<std::string> characters) {
    return json{{"order", {{"characters", std::move(characters)}}}};
}

}  // namespace

TEST_CASE("two placements landing unseen in either legal order: the host is asked, each answer its record") {
    HandTable t;
    t.start(kClassic4);
    twoLandUnseen(t);
    // Nothing decided: the table waits for the host, and the board is not guided back.
    CHECK(t.state().placeOf(id(t, "odessa")) == Place::Reserve);
    CHECK(t.state().placeOf(id(t, "piero")) == Place::Reserve);
    CHECK(t.referee.counters().orderQuestions == 1);
    const auto status = t.referee.publicStatus();
    CHECK(status["guidance"].is_null());
    CHECK(status["refusal"].is_null());
    CHECK(status["waiting_for"] ==
          "The table waits for the host: the readers missed which piece was put down first.");
    const auto& question = status["order_question"];
    REQUIRE(question.is_object());
    CHECK(question["says"]["code"] == "order.question");
    CHECK(question["text"].get<std::string>().find("Odessa la Contessa") != std::string::npos);
    REQUIRE(question["answers"].size() == 2);
    CHECK(question["answers"][0]["characters"] != question["answers"][1]["characters"]);
    for (const auto& answer : question["answers"]) {
        REQUIRE(answer["actions"].size() == 2);
        CHECK(answer["actions"][0]["seat"] == 0);
        CHECK(answer["actions"][1]["seat"] == 1);
        CHECK(answer["actions"][0]["character"] == answer["characters"][0]);
    }
    CHECK(noticesOf(t.notices, "order-question").size() == 1);
    // Time passes, the board is seen again: still asked once, still waiting.
    t.wait(3000ms);
    t.show();
    CHECK(t.referee.counters().orderQuestions == 1);
    CHECK(t.state().placeOf(id(t, "odessa")) == Place::Reserve);

    SUBCASE("piero first: seat 1 placed piero, seat 2 odessa") {
        const auto answer = t.host(orderRequest({"piero", "odessa"}));
        REQUIRE_MESSAGE(answer.ok, answer.message);
        CHECK(answer.says->code == "order.answered");
        CHECK(answer.message.find("Piero il Cuoco Fiero first") != std::string::npos);
        const auto accepted = noticesOf(t.notices, "accepted");
        REQUIRE(accepted.size() >= 2);
        CHECK(accepted[accepted.size() - 2].detail["seat"] == 0);
        CHECK(accepted[accepted.size() - 2].detail["character"] == "piero");
        CHECK(accepted.back().detail["seat"] == 1);
        CHECK(accepted.back().detail["character"] == "odessa");
    }
    SUBCASE("odessa first: seat 1 placed odessa, seat 2 piero") {
        const auto answer = t.host(orderRequest({"odessa", "piero"}));
        REQUIRE_MESSAGE(answer.ok, answer.message);
        const auto accepted = noticesOf(t.notices, "accepted");
        REQUIRE(accepted.size() >= 2);
        CHECK(accepted[accepted.size() - 2].detail["character"] == "odessa");
        CHECK(accepted[accepted.size() - 2].detail["seat"] == 0);
        CHECK(accepted.back().detail["character"] == "piero");
    }
    CHECK(t.state().placeOf(id(t, "odessa")) == Place::Floor1);
    CHECK(t.state().placeOf(id(t, "piero")) == Place::Floor1);
    CHECK(t.state().seatToAct() == engine::Seat{2});
    CHECK(t.referee.publicStatus()["order_question"].is_null());
    CHECK(t.referee.publicStatus()["waiting_says"]["code"] != "order.waiting");
    // Answered once: the same answer again is stale.
    CHECK(t.host(orderRequest({"odessa", "piero"})).code == "no-question");
}

TEST_CASE("a wrong answer to the order is refused with the question, and nothing changes") {
    HandTable t;
    t.start(kClassic4);
    twoLandUnseen(t);
    const auto wrong = t.host(orderRequest({"odessa", "merlino"}));
    CHECK_FALSE(wrong.ok);
    CHECK(wrong.code == "not-an-answer");
    CHECK(wrong.says->code == "order.not-an-answer");
    CHECK(t.host(orderRequest({"odessa", "piero", "merlino"})).code == "not-an-answer");
    CHECK(t.state().placeOf(id(t, "odessa")) == Place::Reserve);
    CHECK(t.referee.publicStatus()["order_question"].is_object());
    // A malformed answer is refused by its form.
    CHECK_FALSE(parseHostRequest(json{{"order", {{"characters", "odessa"}}}}).ok());
    CHECK_FALSE(parseHostRequest(json{{"order", {{"characters", {"odessa"}}}}}).ok());
}

TEST_CASE("the question is dropped when the pieces asked about move; no question is then open") {
    HandTable t;
    t.start(kClassic4);
    CHECK(t.host(orderRequest({"odessa", "piero"})).code == "no-question");
    twoLandUnseen(t);
    REQUIRE(t.referee.publicStatus()["order_question"].is_object());
    t.on.erase("piero");  // taken back beside the board
    t.show();
    CHECK(noticesOf(t.notices, "order-dropped").size() == 1);
    CHECK(t.referee.publicStatus()["order_question"].is_null());
    CHECK(t.host(orderRequest({"odessa", "piero"})).code == "no-question");
    // Odessa alone is one placement, as ever.
    CHECK(t.state().placeOf(id(t, "odessa")) == Place::Floor1);
}

TEST_CASE("an order the readers' times settle needs no question: one seen landing before the other's gap") {
    HandTable t;
    t.start(kClassic4);
    t.failing = {"floor2"};
    t.show();  // floor 2's gap: the seat to act may place there, so nothing is judged
    t.on["merlino"] = "3";
    t.show();  // seen landing at once
    t.show();
    t.show();
    t.show();
    t.failing = {"floor1", "floor2"};
    t.show();  // floor 1's gap begins more than liftsApart after merlino landed
    t.on["piero"] = "1";
    t.show();
    t.failing.clear();
    t.show();
    CHECK(t.referee.counters().orderQuestions == 0);
    CHECK(t.referee.publicStatus()["order_question"].is_null());
    const auto accepted = noticesOf(t.notices, "accepted");
    REQUIRE(accepted.size() == 2);
    CHECK(accepted[0].detail["character"] == "merlino");
    CHECK(accepted[0].detail["seat"] == 0);
    CHECK(accepted[1].detail["character"] == "piero");
    CHECK(accepted[1].detail["seat"] == 1);
}

TEST_CASE("one placement landing unseen is explained without a question") {
    HandTable t;
    t.start(kClassic4);
    t.failing = {"floor1"};
    t.show();
    t.show();
    t.on["odessa"] = "1";
    t.failing.clear();
    t.show();
    CHECK(t.state().placeOf(id(t, "odessa")) == Place::Floor1);
    CHECK(t.referee.counters().orderQuestions == 0);
    CHECK(t.referee.publicStatus()["order_question"].is_null());
}

TEST_CASE("a game resumed from its log with the question open asks it again; the answer plays it") {
    store::testing::ScratchDir dir;
    const auto file = dir.file("games.sqlite");
    std::map<std::string, std::string> board;
    store::GameId game;
    {
        store::GameStore log(file, store::GameStore::Access::CreateIfMissing);
        HandTable t(&log);
        t.start(kClassic4);
        twoLandUnseen(t);
        REQUIRE(t.referee.publicStatus()["order_question"].is_object());
        board = t.on;
        game = *t.referee.game();
    }  // the daemon stops with the question open
    store::GameStore log(file, store::GameStore::Access::CreateIfMissing);
    HandTable t(&log);
    REQUIRE(t.referee.resume(game, t.now).ok);
    t.on = board;
    t.show();
    // Not guided back to the reserve: asked again.
    CHECK(t.referee.publicStatus()["guidance"].is_null());
    REQUIRE(t.referee.publicStatus()["order_question"].is_object());
    CHECK(t.referee.publicStatus()["order_question"]["answers"].size() == 2);
    const auto answer = t.host(orderRequest({"piero", "odessa"}));
    REQUIRE_MESSAGE(answer.ok, answer.message);
    CHECK(t.state().placeOf(id(t, "piero")) == Place::Floor1);
    const auto events = log.events(game);
    std::vector<std::string> kinds;
    for (const auto& e : events) kinds.push_back(e.kind);
    CHECK(std::count(kinds.begin(), kinds.end(), "order-question") == 2);
    CHECK(kinds.back() == "place");
}

}  // namespace vivaref::referee::testing

namespace vivaref::referee::testing {

TEST_CASE("undo after an answer takes back its decisions one by one; an undo drops an open question") {
    HandTable t;
    t.start(kClassic4);
    t.put("merlino", "3");  // seat 0's, seen
    twoLandUnseen(t);
    REQUIRE(t.referee.publicStatus()["order_question"].is_object());
    SUBCASE("answered, then undone") {
        REQUIRE(t.host(orderRequest({"piero", "odessa"})).ok);
        REQUIRE(t.state().seatToAct() == engine::Seat{3});
        const auto undone = t.host(json{{"undo", json::object()}});
        REQUIRE(undone.ok);
        CHECK(undone.says->code == "undo.placed");
        CHECK(undone.message.find("Odessa la Contessa") != std::string::npos);
        CHECK(t.state().placeOf(id(t, "odessa")) == Place::Reserve);
        CHECK(t.state().placeOf(id(t, "piero")) == Place::Floor1);
        // Odessa is guided off the board; nothing is asked again.
        CHECK(t.referee.publicStatus()["guidance"].is_object());
        t.on.erase("odessa");
        t.show();
        CHECK(t.referee.counters().orderQuestions == 1);
        CHECK(t.referee.publicStatus()["order_question"].is_null());
    }
    SUBCASE("undone while asked: merlino's placement taken back, the question dropped") {
        REQUIRE(t.host(json{{"undo", json::object()}}).ok);
        CHECK(t.referee.publicStatus()["order_question"].is_null());
        CHECK(t.state().placeOf(id(t, "merlino")) == Place::Reserve);
        CHECK(t.host(orderRequest({"piero", "odessa"})).code == "no-question");
    }
}

}  // namespace vivaref::referee::testing
