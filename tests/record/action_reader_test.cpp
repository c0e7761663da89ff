// GAME-RECORD, the player lines (keep, place, move, vote, pass) and the
// Emissary's reshuffle, and what makes any line bad-record.
#include <doctest/doctest.h>

#include "tests/record/record_helpers.hpp"

namespace vivaref::record_test {

namespace {

Action actionOf(std::string_view line, const Rules& rules) {
    LineRead read = readLine(line, &rules);
    REQUIRE_MESSAGE(read.line, (read.refusal ? ::vivaref::engine::describe(read.refusal->message) : ""));
    return std::get<Action>(*read.line);
}

}  // namespace

TEST_SUITE("record: player lines") {
    TEST_CASE("place, move, vote and pass read into actions") {
        auto rules = rulesFrom(kClassic4);
        CharacterId odessa = rules->roster().find("odessa");
        CHECK(actionOf(R"({"place": {"seat": 0, "character": "odessa", "to": "3"}})", *rules) ==
              Action::place(Seat{0}, odessa, Place::Floor3));
        CHECK(actionOf(R"({"move": {"seat": 1, "character": "odessa", "to": "6"}})", *rules) ==
              Action::move(Seat{1}, odessa, Place::Throne));
        CHECK(actionOf(R"({"vote": {"seat": 2, "card": "no"}})", *rules) ==
              Action::vote(Seat{2}, VoteCard::No));
        CHECK(actionOf(R"({"pass": {"seat": 3}})", *rules) == Action::pass(Seat{3}));
    }

    TEST_CASE("unknown names and out-of-range seats pass through for the engine to report") {
        auto rules = rulesFrom(kClassic4);
        Action a = actionOf(R"({"move": {"seat": -1, "character": "vladimiro", "to": "attic"}})", *rules);
        CHECK(a.seat().index == kInvalidIndex);
        CHECK(a.character().index == kInvalidIndex);
        CHECK(a.to() == Place::Unknown);
        CHECK(actionOf(R"({"pass": {"seat": 255}})", *rules).seat().index == kInvalidIndex);
        CHECK(actionOf(R"({"pass": {"seat": 254}})", *rules).seat().index == 254);
        CHECK(actionOf(R"({"pass": {"seat": 9223372036854775807}})", *rules).seat().index == kInvalidIndex);
        CHECK(actionOf(R"({"pass": {"seat": 18446744073709551615}})", *rules).seat().index == kInvalidIndex);
        CHECK(actionOf(R"({"pass": {"seat": -9223372036854775808}})", *rules).seat().index == kInvalidIndex);
        CHECK(actionOf(R"({"vote": {"seat": 0, "card": "maybe"}})", *rules).card() == VoteCard::Unknown);
        CHECK(actionOf(R"({"move": {"seat": 0, "character": "odessa", "to": "reserve"}})", *rules).to() ==
              Place::Unknown);
    }

    TEST_CASE("a wrong type, an unknown key or a missing key is bad-record") {
        auto rules = rulesFrom(kClassic4);
        for (std::string_view line : {
                 R"({"pass": {"seat": "3"}})",
                 R"({"pass": {"seat": 3.0}})",
                 R"({"pass": {"seat": 1e400}})",
                 R"({"pass": {"seat": 99999999999999999999999}})",
                 R"({"pass": {"seat": false}})",
                 R"({"pass": {"seat": null}})",
                 R"({"pass": {"seat": 3, "why": "stuck"}})",
                 R"({"pass": {"seat": 3, "seat": 3}})",
                 R"({"pass": {}})",
                 R"({"pass": 3})",
                 R"({"place": {"seat": 0, "character": "odessa", "to": 3}})",
                 R"({"place": {"seat": 0, "character": ["odessa"], "to": "3"}})",
                 R"({"place": {"seat": 0, "to": "3"}})",
                 R"({"move": {"seat": 0, "character": "odessa"}})",
                 R"({"vote": {"seat": 0, "card": true}})",
                 R"({"vote": {"seat": 0}})",
             }) {
            CAPTURE(line);
            CHECK(outcome(line, rules.get()) == "bad-record");
        }
    }

    TEST_CASE("keep needs the Ambition option, reshuffle the Emissary") {
        auto classic = rulesFrom(kClassic4);
        CHECK(outcome(R"({"keep": {"player": 0, "ambition": "wc-0"}})", classic.get()) == "bad-record");
        CHECK(outcome(R"({"reshuffle": {"pile": ["yes"]}})", classic.get()) == "bad-record");

        auto ambition =
            rulesFrom(R"({"setup": {"edition": "2024", "seats": 3, "options": {"ambition": true}}})");
        CHECK(actionOf(R"({"keep": {"player": 2, "ambition": "wc-0"}})", *ambition) ==
              Action::keep(PlayerId{2}, AmbitionCard::Wc0));
        CHECK(actionOf(R"({"keep": {"player": 2, "ambition": "wc-9"}})", *ambition).ambition() ==
              AmbitionCard::Unknown);
        CHECK(outcome(R"({"keep": {"player": 2}})", ambition.get()) == "bad-record");
        CHECK(outcome(R"({"keep": {"seat": 2, "ambition": "wc-0"}})", ambition.get()) == "bad-record");

        auto emissary = rulesFrom(R"({"setup": {"edition": "2024", "seats": 3, "variant": "emissary"}})");
        LineRead read =
            readLine(R"({"reshuffle": {"pile": ["no", "yes", "stomachache", "joker"]}})", emissary.get());
        REQUIRE(read.line);
        CHECK(std::get<Reshuffle>(*read.line).pile ==
              std::vector{VoteCard::No, VoteCard::Yes, VoteCard::Stomachache, VoteCard::Unknown});
        CHECK(outcome(R"({"reshuffle": {"pile": "yes"}})", emissary.get()) == "bad-record");
        CHECK(outcome(R"({"reshuffle": {"pile": [1]}})", emissary.get()) == "bad-record");
        CHECK(outcome(R"({"reshuffle": {}})", emissary.get()) == "bad-record");
    }

    TEST_CASE("a line is one object with exactly one known key") {
        auto rules = rulesFrom(kClassic4);
        for (std::string_view line : {
                 R"({})",
                 R"([{"pass": {"seat": 0}}])",
                 R"("pass")",
                 R"(42)",
                 R"({"pass": {"seat": 0}, "vote": {"seat": 0, "card": "yes"}})",
                 R"({"Pass": {"seat": 0}})",
                 R"({"undo": {}})",
                 R"({"pass": {"seat": 0}} {"pass": {"seat": 1}})",
             }) {
            CAPTURE(line);
            CHECK(outcome(line, rules.get()) == "bad-record");
        }
        const char withNul[] = "{\"pass\": {\"seat\": 0}}\0";
        CHECK(outcome(std::string_view(withNul, sizeof withNul - 1), rules.get()) == "bad-record");
    }

    TEST_CASE("before the setup line only a setup line reads") {
        CHECK(outcome(R"({"pass": {"seat": 0}})") == "bad-record");
        CHECK(outcome(classicDeal(kCard0)) == "bad-record");
        CHECK(outcome(kClassic4) == "ok");
    }

    TEST_CASE("blank lines are whitespace only") {
        CHECK(record::isBlankLine(""));
        CHECK(record::isBlankLine(" \t\r"));
        CHECK(!record::isBlankLine(" x "));
    }
}

}  // namespace vivaref::record_test
