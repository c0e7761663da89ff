// GAME-RECORD, the setup line: its keys, their types, and bad-setup (or
// bad-record for a missing key) for everything malformed.
#include <climits>

#include <doctest/doctest.h>

#include "tests/record/record_helpers.hpp"

namespace vivaref::record_test {

namespace {

RulesSpec specOf(std::string_view line) {
    LineRead read = readLine(line, nullptr);
    REQUIRE_MESSAGE(read.line, (read.refusal ? ::vivaref::engine::describe(read.refusal->message) : ""));
    return std::get<RulesSpec>(*read.line);
}

}  // namespace

TEST_SUITE("record: setup line") {
    TEST_CASE("the required keys alone give the defaults") {
        RulesSpec spec = specOf(R"({"setup": {"edition": "classic", "seats": 4}})");
        CHECK(spec.edition == Edition::Classic);
        CHECK(spec.seats == 4);
        CHECK(!spec.rounds);
        CHECK(spec.first == 0);
        CHECK(spec.variant == Variant::None);
        CHECK(spec.options == Options{});
        CHECK(spec.teams.empty());
        CHECK(!spec.roster);
    }

    TEST_CASE("every optional key is read") {
        RulesSpec spec = specOf(
            R"({"setup": {"edition": "2024", "seats": 3, "rounds": 2, "first": 1,)"
            R"( "options": {"ambition": true, "banished": true}, "variant": "teams", "teams": [[0,1],[2,3],[4]]}})");
        CHECK(spec.edition == Edition::Vive2024);
        CHECK(spec.rounds == 2);
        CHECK(spec.first == 1);
        CHECK(spec.options.ambition);
        CHECK(spec.options.banished);
        CHECK(spec.variant == Variant::Teams);
        CHECK(spec.teams == std::vector<std::vector<int>>{{0, 1}, {2, 3}, {4}});
    }

    TEST_CASE("a custom roster is read into a Roster") {
        std::string entries;
        for (int i = 0; i < 13; ++i)
            entries += R"({"id": "c)" + std::to_string(i) + R"(", "name": "C )" + std::to_string(i) +
                       R"(", "kind": ")" + (i % 2 ? "woman" : "man") + R"("},)";
        entries += R"({"id": "fool", "name": "The Fool", "kind": "jester"})";
        RulesSpec spec = specOf(R"({"setup": {"edition": "2024", "seats": 4, "roster": [)" + entries + "]}}");
        REQUIRE(spec.roster);
        CHECK(spec.roster->size() == 14);
        CHECK(spec.roster->find("c1").index == 1);
        CHECK(spec.roster->jester().index == 13);
        CHECK((*spec.roster)[CharacterId{1}].kind == CharacterKind::Woman);
    }

    TEST_CASE("a missing required key is bad-record") {
        CHECK(outcome(R"({"setup": {"seats": 4}})") == "bad-record");
        CHECK(outcome(R"({"setup": {"edition": "classic"}})") == "bad-record");
        CHECK(outcome(
                  R"({"setup": {"edition": "2024", "seats": 4, "roster": [{"id": "a", "kind": "man"}]}})") ==
              "bad-record");
    }

    TEST_CASE("an unknown or duplicate key is bad-setup") {
        CHECK(outcome(R"({"setup": {"edition": "classic", "seats": 4, "players": 4}})") == "bad-setup");
        CHECK(outcome(R"({"setup": {"edition": "classic", "seats": 4, "seats": 5}})") == "bad-setup");
        CHECK(outcome(R"({"setup": {"edition": "2024", "seats": 4, "options": {"jester": true}}})") ==
              "bad-setup");
        CHECK(
            outcome(
                R"({"setup": {"edition": "2024", "seats": 4, "roster": [{"id": "a", "name": "A", "kind": "man", "age": 3}]}})") ==
            "bad-setup");
    }

    TEST_CASE("a value of the wrong JSON type is bad-setup") {
        for (
            std::string_view line : {
                R"({"setup": {"edition": "classic", "seats": "4"}})",
                R"({"setup": {"edition": "classic", "seats": 4.0}})",
                R"({"setup": {"edition": "classic", "seats": true}})",
                R"({"setup": {"edition": "classic", "seats": null}})",
                R"({"setup": {"edition": 2024, "seats": 4}})",
                R"({"setup": {"edition": "classic", "seats": 4, "rounds": "3"}})",
                R"({"setup": {"edition": "classic", "seats": 4, "first": [0]}})",
                R"({"setup": {"edition": "2024", "seats": 4, "options": {"ambition": 1}}})",
                R"({"setup": {"edition": "2024", "seats": 4, "options": [true]}})",
                R"({"setup": {"edition": "2024", "seats": 3, "variant": "teams", "teams": [[0,"1"],[2],[3]]}})",
                R"({"setup": {"edition": "2024", "seats": 3, "variant": "teams", "teams": [0,1,2]}})",
                R"({"setup": {"edition": "2024", "seats": 4, "roster": {"a": 1}}})",
                R"({"setup": {"edition": "classic", "seats": 99999999999999999999999}})",
                R"({"setup": [1, 2]})",
            }) {
            CAPTURE(line);
            CHECK(outcome(line) == "bad-setup");
        }
    }

    TEST_CASE("unknown names are bad-setup") {
        CHECK(outcome(R"({"setup": {"edition": "deluxe", "seats": 4}})") == "bad-setup");
        CHECK(outcome(R"({"setup": {"edition": "2024", "seats": 4, "variant": "spies"}})") == "bad-setup");
        CHECK(
            outcome(
                R"({"setup": {"edition": "2024", "seats": 4, "roster": [{"id": "a", "name": "A", "kind": "cat"}]}})") ==
            "bad-setup");
    }

    TEST_CASE("a key for an option or variant not in play is bad-setup") {
        CHECK(outcome(R"({"setup": {"edition": "classic", "seats": 4, "options": {"ambition": true}}})") ==
              "bad-setup");
        CHECK(outcome(R"({"setup": {"edition": "online", "seats": 4, "options": {}}})") == "bad-setup");
        CHECK(outcome(R"({"setup": {"edition": "2024", "seats": 4, "teams": [[0],[1],[2],[3]]}})") ==
              "bad-setup");
        CHECK(
            outcome(
                R"({"setup": {"edition": "2024", "seats": 4, "variant": "emissary", "teams": [[0],[1],[2],[3]]}})") ==
            "bad-setup");
    }

    TEST_CASE("huge integers are clamped, never wrapped into a valid value") {
        // 2^32 + 4 would wrap to 4 in a 32-bit int.
        CHECK(specOf(R"({"setup": {"edition": "classic", "seats": 4294967300}})").seats == INT_MAX);
        CHECK(specOf(R"({"setup": {"edition": "classic", "seats": -4294967292}})").seats == INT_MIN);
        CHECK(specOf(R"({"setup": {"edition": "classic", "seats": 18446744073709551615}})").seats == INT_MAX);
    }
}

}  // namespace vivaref::record_test
