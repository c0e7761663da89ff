// GAME-RECORD, the deal line: favourites, and the keys that belong to an
// option or variant (banished, ambitions, emissary, placement) only when it
// is in play. Unknown names pass through for the engine to report.
#include <doctest/doctest.h>

#include "tests/record/record_helpers.hpp"

namespace vivaref::record_test {

namespace {

Deal dealOf(std::string_view line, const Rules& rules) {
    LineRead read = readLine(line, &rules);
    REQUIRE_MESSAGE(read.line, (read.refusal ? ::vivaref::engine::describe(read.refusal->message) : ""));
    return std::get<Deal>(*read.line);
}

constexpr std::string_view k2024Cards =
    R"([["eloise","ouaf","caius","foidvo","jeanne","merlin"],["victoria","leonardo","romeo","bridget","agathe","gontran"],)"
    R"(["blanche","eloise","ouaf","caius","foidvo","jeanne"]])";

std::string deal2024(std::string_view extra) {
    return std::string(R"({"deal": {"round": 1, "favourites": )") + std::string(k2024Cards) +
           std::string(extra) + "}}";
}

}  // namespace

TEST_SUITE("record: deal line") {
    TEST_CASE("favourites are read by slug, one card per player") {
        auto rules = rulesFrom(kClassic4);
        Deal deal = dealOf(classicDeal(kCard0), *rules);
        CHECK(deal.round == 1);
        REQUIRE(deal.favourites.size() == 4);
        CHECK(deal.favourites[0].characters[0] == rules->roster().find("alighiero"));
        CHECK(deal.favourites[0].characters[5] == rules->roster().find("fiorello"));
        CHECK(!deal.favourites[0].banished);
        CHECK(deal.ambitions.empty());
        CHECK(!deal.emissary);
        CHECK(deal.placement.empty());
    }

    TEST_CASE("an unknown character is kept as an invalid id for the engine") {
        auto rules = rulesFrom(kClassic4);
        Deal deal = dealOf(classicDeal(R"(["vladimiro","beatrice","clemente","dario","ernesto","fiorello"])"),
                           *rules);
        CHECK(deal.favourites[0].characters[0].index == kInvalidIndex);
    }

    TEST_CASE("a Favourites card that is not exactly 6 strings is bad-deal") {
        auto rules = rulesFrom(kClassic4);
        for (std::string_view card : {
                 R"(["alighiero","beatrice","clemente","dario","ernesto"])",
                 R"(["alighiero","beatrice","clemente","dario","ernesto","fiorello","gavino"])",
                 R"(["alighiero","beatrice","clemente","dario","ernesto",6])",
                 R"("alighiero")",
                 R"([])",
             }) {
            CAPTURE(card);
            CHECK(outcome(classicDeal(card), rules.get()) == "bad-deal");
        }
    }

    TEST_CASE("missing keys are bad-record; unknown keys, duplicates and wrong types bad-deal") {
        auto rules = rulesFrom(kClassic4);
        CHECK(outcome(R"({"deal": {"favourites": []}})", rules.get()) == "bad-record");
        CHECK(outcome(R"({"deal": {"round": 1}})", rules.get()) == "bad-record");
        CHECK(outcome(classicDeal(kCard0, R"(, "seed": 4)"), rules.get()) == "bad-deal");
        CHECK(outcome(classicDeal(kCard0, R"(, "round": 1)"), rules.get()) == "bad-deal");
        CHECK(outcome(R"({"deal": {"round": "1", "favourites": []}})", rules.get()) == "bad-deal");
        CHECK(outcome(R"({"deal": {"round": 1, "favourites": {}}})", rules.get()) == "bad-deal");
        CHECK(outcome(R"({"deal": []})", rules.get()) == "bad-deal");
    }

    TEST_CASE("keys for options and variants not in play are bad-deal") {
        auto rules = rulesFrom(kClassic4);
        CHECK(outcome(classicDeal(kCard0, R"(, "banished": ["a","b","c","d"])"), rules.get()) == "bad-deal");
        CHECK(outcome(classicDeal(kCard0, R"(, "ambitions": [])"), rules.get()) == "bad-deal");
        CHECK(outcome(classicDeal(kCard0, R"(, "emissary": {"favourites": [], "pile": []})"), rules.get()) ==
              "bad-deal");
        CHECK(outcome(classicDeal(kCard0, R"(, "placement": {})"), rules.get()) == "bad-deal");

        auto emissary = rulesFrom(R"({"setup": {"edition": "2024", "seats": 3, "variant": "emissary"}})");
        CHECK(
            outcome(deal2024(
                        R"(, "emissary": {"favourites": ["eloise","ouaf","caius","foidvo","jeanne","romeo"],)"
                        R"( "pile": ["yes"], "banished": "eloise"})"),
                    emissary.get()) == "bad-deal");
    }

    TEST_CASE("with Banished, each card's sealed character is read") {
        auto rules =
            rulesFrom(R"({"setup": {"edition": "2024", "seats": 3, "options": {"banished": true}}})");
        Deal deal = dealOf(deal2024(R"(, "banished": ["eloise", "romeo", "nobody"])"), *rules);
        CHECK(deal.favourites[0].banished == rules->roster().find("eloise"));
        CHECK(deal.favourites[1].banished == rules->roster().find("romeo"));
        CHECK(deal.favourites[2].banished == CharacterId{});
        CHECK(outcome(deal2024(R"(, "banished": ["eloise", "romeo"])"), rules.get()) == "bad-deal");
        CHECK(outcome(deal2024(R"(, "banished": "eloise")"), rules.get()) == "bad-deal");
    }

    TEST_CASE("with Ambition, two cards per player are read; unknown cards pass through") {
        auto rules =
            rulesFrom(R"({"setup": {"edition": "2024", "seats": 3, "options": {"ambition": true}}})");
        Deal deal = dealOf(
            deal2024(R"(, "ambitions": [["jester-king","wc-0"],["only-yes","under-11"],["x","wc-2"]])"),
            *rules);
        REQUIRE(deal.ambitions.size() == 3);
        CHECK(deal.ambitions[0][0] == AmbitionCard::JesterKing);
        CHECK(deal.ambitions[1][1] == AmbitionCard::Under11);
        CHECK(deal.ambitions[2][0] == AmbitionCard::Unknown);
        CHECK(outcome(deal2024(R"(, "ambitions": [["jester-king"],["only-yes","under-11"],["wc-1","wc-2"]])"),
                      rules.get()) == "bad-deal");
        CHECK(outcome(
                  deal2024(R"(, "ambitions": [["jester-king", 3],["only-yes","under-11"],["wc-1","wc-2"]])"),
                  rules.get()) == "bad-deal");
    }

    TEST_CASE("with the Emissary, its card and pile are read") {
        auto rules = rulesFrom(R"({"setup": {"edition": "2024", "seats": 3, "variant": "emissary",)"
                               R"( "options": {"banished": true}}})");
        Deal deal = dealOf(
            deal2024(
                R"(, "banished": ["eloise","romeo","blanche"], "emissary": {"favourites": )"
                R"(["eloise","ouaf","caius","foidvo","jeanne","romeo"], "pile": ["no","yes","maybe"], "banished": "ouaf"})"),
            *rules);
        REQUIRE(deal.emissary);
        CHECK(deal.emissary->favourites.characters[1] == rules->roster().find("ouaf"));
        CHECK(deal.emissary->favourites.banished == rules->roster().find("ouaf"));
        CHECK(deal.emissary->pile == std::vector{VoteCard::No, VoteCard::Yes, VoteCard::Unknown});
        CHECK(outcome(deal2024(R"(, "banished": ["eloise","romeo","blanche"], "emissary": {"pile": []})"),
                      rules.get()) == "bad-record");
        CHECK(outcome(deal2024(
                          R"(, "banished": ["eloise","romeo","blanche"], "emissary": {"favourites": )"
                          R"(["eloise","ouaf","caius","foidvo","jeanne","romeo"], "pile": [], "top": "no"})"),
                      rules.get()) == "bad-deal");
    }

    TEST_CASE("the online preset's placement is read by character") {
        auto rules = rulesFrom(R"({"setup": {"edition": "online", "seats": 4}})");
        Deal deal = dealOf(
            classicDeal(kCard0, R"(, "placement": {"alighiero": "3", "piero": "0", "odessa": "attic"})"),
            *rules);
        REQUIRE(deal.placement.size() == 13);
        CHECK(deal.placement[rules->roster().find("alighiero").index] == Place::Floor3);
        CHECK(deal.placement[rules->roster().find("piero").index] == Place::Floor0);
        CHECK(deal.placement[rules->roster().find("odessa").index] == Place::Unknown);
        CHECK(deal.placement[rules->roster().find("beatrice").index] == Place::Reserve);  // not given
        CHECK(outcome(classicDeal(kCard0, R"(, "placement": {"vladimiro": "3"})"), rules.get()) ==
              "bad-deal");
        CHECK(outcome(classicDeal(kCard0, R"(, "placement": {"piero": 3})"), rules.get()) == "bad-deal");
        CHECK(outcome(classicDeal(kCard0, R"(, "placement": {"piero": "3", "piero": "2"})"), rules.get()) ==
              "bad-deal");
        CHECK(outcome(classicDeal(kCard0, R"(, "placement": ["3"])"), rules.get()) == "bad-deal");
    }
}

}  // namespace vivaref::record_test
