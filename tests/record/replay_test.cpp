// replayRecord (GAME-RECORD, "Result"): the result object's shape, line
// numbers with blank lines, `to_act` in each phase, and an answer for any
// input at all.
#include "engine/record/replay.hpp"

#include <string>

#include <doctest/doctest.h>

#include "engine/chance.hpp"
#include "engine/record/line_writer.hpp"
#include "engine/record/result_json.hpp"
#include "engine/state.hpp"
#include "tests/record/record_helpers.hpp"

namespace vivaref::record_test {

using nlohmann::json;
using record::replayRecord;

namespace {

// The online preset with 3 seats and 1 round; alighiero starts on floor 3.
constexpr std::string_view kOnlineSetup = R"({"setup": {"edition": "online", "seats": 3}})";
constexpr std::string_view kOnlineDeal =
    R"({"deal": {"round": 1, "favourites": [["alighiero", "beatrice", "ernesto", "leonardo", "piero", "clemente"],)"
    R"( ["dario", "fiorello", "merlino", "natale", "odessa", "gavino"], ["irina", "piero", "odessa", "natale", "merlino", "leonardo"]],)"
    R"( "placement": {"alighiero": "3", "beatrice": "3", "clemente": "3", "dario": "3", "ernesto": "2", "fiorello": "2",)"
    R"( "gavino": "2", "irina": "2", "leonardo": "1", "merlino": "1", "natale": "1", "odessa": "1", "piero": "0"}}})";

std::string lines(std::initializer_list<std::string_view> items) {
    std::string text;
    for (auto l : items) text += std::string(l) + "\n";
    return text;
}

std::string onlineUpTo(int moves) {
    static constexpr std::string_view kMoves[] = {
        R"({"move": {"seat": 0, "character": "alighiero", "to": "4"}})",
        R"({"move": {"seat": 1, "character": "alighiero", "to": "5"}})",
        R"({"move": {"seat": 2, "character": "alighiero", "to": "6"}})",
        R"({"vote": {"seat": 1, "card": "yes"}})",
        R"({"vote": {"seat": 2, "card": "yes"}})",
        R"({"vote": {"seat": 0, "card": "yes"}})",
    };
    std::string text = lines({kOnlineSetup, kOnlineDeal});
    for (int i = 0; i < moves; ++i) text += std::string(kMoves[i]) + "\n";
    return text;
}

json failure(int line, std::string_view code) { return json{{"line", line}, {"error", code}}; }

json errorOf(const json& result) {
    return json{{"line", result.value("line", -1)}, {"error", result.value("error", "")}};
}

}  // namespace

TEST_SUITE("record: replay") {
    TEST_CASE("a complete game gives rounds, totals, winners and no to_act") {
        json r = replayRecord(onlineUpTo(6));
        CHECK(r ==
              json::parse(
                  R"({"ok": true, "rounds": [{"round": 1, "kings": ["alighiero"], "crown": 2,)"
                  R"( "scores": [19, 10, 6]}], "totals": [19, 10, 6], "winners": [0], "complete": true})"));
    }

    TEST_CASE("to_act names the seat to move, then the seats yet to vote") {
        CHECK(replayRecord(onlineUpTo(0))["to_act"] == json::array({0}));
        CHECK(replayRecord(onlineUpTo(2))["to_act"] == json::array({2}));
        CHECK(replayRecord(onlineUpTo(3))["to_act"] == json::array({0, 1, 2}));
        CHECK(replayRecord(onlineUpTo(4))["to_act"] == json::array({0, 2}));
        json r = replayRecord(onlineUpTo(5));
        CHECK(r["to_act"] == json::array({0}));
        CHECK(r["complete"] == false);
        CHECK(r["winners"] == json::array());
        CHECK(r["rounds"] == json::array());
    }

    TEST_CASE("to_act is empty while a deal is awaited") {
        json r = replayRecord(lines({kOnlineSetup}));
        CHECK(r["ok"] == true);
        CHECK(r["to_act"] == json::array());
        CHECK(r["totals"] == json::array({0, 0, 0}));
    }

    TEST_CASE("to_act during placement and while Ambition cards are kept") {
        auto classic = lines(
            {kClassic4, classicDeal(kCard0), R"({"place": {"seat": 0, "character": "odessa", "to": "3"}})"});
        CHECK(replayRecord(classic)["to_act"] == json::array({1}));

        std::string ambition = lines(
            {R"({"setup": {"edition": "2024", "seats": 3, "options": {"ambition": true}}})",
             R"({"deal": {"round": 1, "favourites": [["eloise","ouaf","caius","foidvo","jeanne","merlin"],)"
             R"(["victoria","leonardo","romeo","bridget","agathe","gontran"],["blanche","eloise","ouaf","caius","foidvo","jeanne"]],)"
             R"( "ambitions": [["wc-0","wc-1"],["wc-2","only-yes"],["under-11","dungeons-1"]]}})"});
        CHECK(replayRecord(ambition)["to_act"] == json::array({0, 1, 2}));
        CHECK(replayRecord(ambition + R"({"keep": {"player": 1, "ambition": "only-yes"}})")["to_act"] ==
              json::array({0, 2}));
        CHECK(errorOf(replayRecord(ambition + R"({"keep": {"player": 1, "ambition": "wc-0"}})")) ==
              failure(3, "card-not-held"));
    }

    TEST_CASE("teams: to_act while keeping lists the seat until both teammates kept") {
        RulesSpec spec;
        spec.edition = Edition::Vive2024;
        spec.seats = 3;
        spec.variant = Variant::Teams;
        spec.options.ambition = true;
        spec.teams = {{0, 1}, {2, 3}, {4}};
        auto rules = std::make_shared<const Rules>(spec);
        State state(rules);
        Rng rng(7);
        Deal deal = randomDeal(state, rng);
        std::string text = record::writeSetup(spec) + "\n" + record::writeDeal(deal, *rules) + "\n";
        text += record::writeAction(Action::keep(PlayerId{0}, deal.ambitions[0][0]), *rules) + "\n";
        text += record::writeAction(Action::keep(PlayerId{4}, deal.ambitions[4][1]), *rules) + "\n";
        CHECK(replayRecord(text)["to_act"] == json::array({0, 1}));
    }

    TEST_CASE("the Emissary's total is reported, and to_act is empty while a reshuffle is awaited") {
        std::string text = lines({
            R"({"setup": {"edition": "2024", "seats": 2, "variant": "emissary", "rounds": 1}})",
            R"({"deal": {"round": 1, "favourites": [["eloise","ouaf","jeanne","victoria","agathe","blanche"],)"
            R"(["caius","foidvo","merlin","leonardo","romeo","bridget"]], "emissary": {"favourites":)"
            R"( ["caius","romeo","agathe","gontran","blanche","merlin"], "pile": ["yes","no","stomachache","no","no","no"]}}})",
        });
        json r = replayRecord(text);
        CHECK(r["emissary_total"] == 40);
        CHECK(r["to_act"] == json::array({0}));
        CHECK(!replayRecord(onlineUpTo(0)).contains("emissary_total"));
    }

    TEST_CASE("the first illegal line is reported with its number, blank lines counted") {
        std::string text = "\n" + std::string(kOnlineSetup) + "\n\n   \n" + std::string(kOnlineDeal) +
                           "\r\n\t\n" + R"({"move": {"seat": 1, "character": "alighiero", "to": "4"}})" +
                           "\n";
        json r = replayRecord(text);
        CHECK(r["ok"] == false);
        CHECK(errorOf(r) == failure(7, "not-your-turn"));
        CHECK(r["message"].get<std::string>().size() > 10);
        CHECK(r.size() == 4);  // ok, line, error, message: nothing else
    }

    TEST_CASE("a line after the game is over is wrong-phase") {
        CHECK(errorOf(replayRecord(onlineUpTo(6) + R"({"pass": {"seat": 0}})")) == failure(9, "wrong-phase"));
        CHECK(errorOf(replayRecord(onlineUpTo(6) + std::string(kOnlineDeal))) == failure(9, "wrong-phase"));
    }

    TEST_CASE("a record begins with exactly one setup line") {
        CHECK(errorOf(replayRecord("")) == failure(1, "bad-record"));
        CHECK(errorOf(replayRecord("\n\n")) == failure(3, "bad-record"));
        CHECK(errorOf(replayRecord(std::string(kOnlineDeal))) == failure(1, "bad-record"));
        CHECK(errorOf(replayRecord(lines({kOnlineSetup, kOnlineSetup}))) == failure(2, "wrong-phase"));
        CHECK(errorOf(replayRecord(lines({R"({"setup": {"edition": "classic", "seats": 7}})"}))) ==
              failure(1, "bad-setup"));
        CHECK(errorOf(replayRecord(lines({R"({"setup": {"edition": "classic", "seats": 4294967300}})"}))) ==
              failure(1, "bad-setup"));
    }

    TEST_CASE("the engine's checks come after the reader's, in GAME-RECORD's order") {
        auto at3 = [](std::string_view line) {
            return errorOf(replayRecord(lines({kClassic4, classicDeal(kCard0), line})));
        };
        CHECK(at3(R"({"place": {"seat": 0, "character": "odessa", "to": 3}})") == failure(3, "bad-record"));
        CHECK(at3(R"({"move": {"seat": 9, "character": "vladimiro", "to": "9"}})") ==
              failure(3, "wrong-phase"));
        CHECK(at3(R"({"place": {"seat": 9, "character": "vladimiro", "to": "9"}})") ==
              failure(3, "unknown-seat"));
        CHECK(at3(R"({"place": {"seat": 1, "character": "vladimiro", "to": "9"}})") ==
              failure(3, "not-your-turn"));
        CHECK(at3(R"({"place": {"seat": 0, "character": "vladimiro", "to": "9"}})") ==
              failure(3, "unknown-character"));
        CHECK(at3(R"({"place": {"seat": 0, "character": "odessa", "to": "9"}})") ==
              failure(3, "unknown-place"));
        CHECK(at3(R"({"place": {"seat": 0, "character": "odessa", "to": "5"}})") ==
              failure(3, "floor-not-allowed"));
        CHECK(at3(R"({"vote": {"seat": 0, "card": "yes"}})") == failure(3, "wrong-phase"));
        CHECK(errorOf(replayRecord(lines(
                  {kClassic4,
                   classicDeal(R"(["vladimiro","beatrice","clemente","dario","ernesto","fiorello"])")}))) ==
              failure(2, "unknown-character"));
    }

    TEST_CASE("an online placement that leaves a character out is bad-deal, an unknown place unknown-place") {
        std::string deal(kOnlineDeal);
        std::string missing = deal;
        missing.replace(missing.find(R"("piero": "0")"), 12, R"("odessa": "1")");
        // The duplicate "odessa" key is caught first; leave piero out instead.
        std::string withoutPiero = deal;
        withoutPiero.replace(withoutPiero.find(R"(, "piero": "0")"), 14, "");
        CHECK(errorOf(replayRecord(lines({kOnlineSetup, missing}))) == failure(2, "bad-deal"));
        CHECK(errorOf(replayRecord(lines({kOnlineSetup, withoutPiero}))) == failure(2, "bad-deal"));
        std::string attic = deal;
        attic.replace(attic.find(R"("piero": "0")"), 12, R"("piero": "attic")");
        CHECK(errorOf(replayRecord(lines({kOnlineSetup, attic}))) == failure(2, "unknown-place"));
    }

    TEST_CASE("any input gets an answer that prints as JSON") {
        std::string deep(200000, '{');
        std::string noise;
        for (int i = 0; i < 256; ++i) noise += static_cast<char>(i);
        for (const std::string& text : {deep, noise, std::string("\xff\xfe\n", 3), std::string("\0\n\0", 3),
                                        std::string(kOnlineSetup) + "\n" + noise}) {
            json r;
            REQUIRE_NOTHROW(r = replayRecord(text));
            CHECK(r["ok"] == false);
            CHECK(r["error"] == "bad-record");
            CHECK_NOTHROW((void)r.dump());
        }
    }

    TEST_CASE("the printed result has GAME-RECORD's key order") {
        CHECK(record::resultText(replayRecord(onlineUpTo(5))) ==
              R"({"ok":true,"rounds":[],"totals":[0,0,0],"winners":[],"complete":false,"to_act":[0]})");
        CHECK(record::resultText(replayRecord(onlineUpTo(6))) ==
              R"({"ok":true,"rounds":[{"round":1,"kings":["alighiero"],"crown":2,"scores":[19,10,6]}],)"
              R"("totals":[19,10,6],"winners":[0],"complete":true})");
        CHECK(record::resultText(replayRecord("{"))
                  .rfind(R"({"ok":false,"line":1,"error":"bad-record","message":)", 0) == 0);
    }

    TEST_CASE("a random game replays to the state the engine reached") {
        for (std::uint64_t seed = 1; seed <= 20; ++seed) {
            CAPTURE(seed);
            RulesSpec spec;
            spec.edition = seed % 2 ? Edition::Vive2024 : Edition::Classic;
            spec.seats = 3 + static_cast<int>(seed % 3);
            if (seed % 4 == 1) spec.variant = Variant::Emissary;
            if (seed % 4 == 3) spec.variant = Variant::RoyalCouple;
            if (spec.edition == Edition::Vive2024)
                spec.options = {.ambition = seed % 3 == 0, .banished = seed % 5 == 0};
            if (spec.edition == Edition::Classic) spec.variant = Variant::None;
            REQUIRE(!Rules::validate(spec));
            auto rules = std::make_shared<const Rules>(spec);
            State state(rules);
            Rng rng(seed);
            std::string text = record::writeSetup(spec) + "\n";
            int stopAt = static_cast<int>(seed * 13 % 150);  // also check a game cut short
            int written = 1;
            while (!state.isOver()) {
                if (written == stopAt) CHECK(replayRecord(text) == record::resultJson(state));
                if (state.phase() == Phase::AwaitDeal) {
                    Deal d = randomDeal(state, rng);
                    text += record::writeDeal(d, *rules) + "\n";
                    REQUIRE(!state.apply(d));
                } else if (state.phase() == Phase::AwaitReshuffle) {
                    Reshuffle r = randomReshuffle(state, rng);
                    text += record::writeReshuffle(r) + "\n";
                    REQUIRE(!state.apply(r));
                } else {
                    Action a = randomAction(state, rng);
                    text += record::writeAction(a, *rules) + "\n";
                    REQUIRE(!state.apply(a));
                }
                ++written;
            }
            json r = replayRecord(text);
            CHECK(r == record::resultJson(state));
            CHECK(r["complete"] == true);
            CHECK(r["rounds"].size() == 3);
        }
    }
}

}  // namespace vivaref::record_test
