// The one record replayer (record_replayer.hpp): every decision of a record
// played through State::apply with its line number, the state before and
// after; the first bad line's number and refusal; blank lines counted; a
// record without or with two setup lines; an observer that stops it; an
// undo put back.
#include "engine/record/record_replayer.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "engine/record/replay.hpp"
#include "tests/record/record_helpers.hpp"

namespace vivaref::record_test {

using record::RecordReplayer;
using record::ReplayStep;

namespace {

std::string exampleRecord(const std::string& name) {
    std::ifstream in(std::filesystem::path(VIVAREF_TEST_RECORDS) / name, std::ios::binary);
    REQUIRE_MESSAGE(in, name);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

const std::string kPlace = R"({"place": {"seat": 0, "character": "alighiero", "to": "3"}})";
const std::string kPlaceOnFive = R"({"place": {"seat": 0, "character": "alighiero", "to": "5"}})";

std::string record(std::initializer_list<std::string> items) {
    std::string text;
    for (const auto& l : items) text += l + "\n";
    return text;
}

std::string code(const record::Replay& r) {
    return r.failure ? std::string(refusalCodeName(r.failure->refusal.code)) : "none";
}

}  // namespace

TEST_CASE("Replayer: a good record plays every line, with the state before and after each decision") {
    const std::string text = exampleRecord("classic-4.jsonl");
    int setups = 0, befores = 0, afters = 0, lastLine = 0;
    std::optional<State> before;
    auto replay = record::replayText(text, {.before =
                                                [&](int line, const Decision& d, const State& state) {
                                                    ++befores;
                                                    CHECK(line == lastLine + 1);
                                                    CHECK(state.awaits() == std::optional(kindOf(d)));
                                                    before.emplace(state);
                                                    return true;
                                                },
                                            .after =
                                                [&](const ReplayStep& step) {
                                                    CHECK(step.line == lastLine + 1);
                                                    lastLine = step.line;
                                                    if (!step.decision) {
                                                        ++setups;
                                                        CHECK(step.events.empty());
                                                        return true;
                                                    }
                                                    ++afters;
                                                    // The step's state is the one before with the decision
                                                    // applied.
                                                    State again = *before;
                                                    CHECK_FALSE(again.apply(*step.decision));
                                                    CHECK(again == step.state);
                                                    return true;
                                                }});
    CHECK_FALSE(replay.failure);
    CHECK_FALSE(replay.stopped);
    REQUIRE(replay.state);
    CHECK(replay.state->isOver());
    CHECK(setups == 1);
    CHECK(befores == afters);
    CHECK(lastLine == 165);
    // `vivaref replay` is the same replayer: the same result.
    CHECK(record::replayRecord(text)["ok"] == true);
}

TEST_CASE("Replayer: the first bad line ends the replay with its number and refusal") {
    SUBCASE("refused by the rules") {
        auto r =
            record::replayText(record({std::string(kClassic4), classicDeal(kCard0), kPlaceOnFive, kPlace}));
        REQUIRE(r.failure);
        CHECK(r.failure->line == 3);
        CHECK(code(r) == "floor-not-allowed");
        CHECK_FALSE(r.failure->unreadable);
        REQUIRE(r.state);
        CHECK(r.state->phase() == Phase::Placement);  // as after line 2
    }
    SUBCASE("unreadable") {
        auto r =
            record::replayText(record({std::string(kClassic4), classicDeal(kCard0), "{\"place\": ", kPlace}));
        REQUIRE(r.failure);
        CHECK(r.failure->line == 3);
        CHECK(code(r) == "bad-record");
        CHECK(r.failure->unreadable);
    }
    SUBCASE("nothing is read after it") {
        RecordReplayer replayer;
        CHECK(replayer.next(kClassic4));
        CHECK_FALSE(replayer.next(kPlace));  // before the deal
        CHECK(replayer.failure()->line == 2);
        CHECK(code(record::Replay{{}, replayer.failure(), false}) == "wrong-phase");
        CHECK_FALSE(replayer.next(classicDeal(kCard0)));
        CHECK(replayer.line() == 2);
    }
}

TEST_CASE("Replayer: blank lines are skipped but counted") {
    auto r = record::replayText("\n" + std::string(kClassic4) + "\n \t\r\n\n" + classicDeal(kCard0) + "\n" +
                                kPlaceOnFive);
    REQUIRE(r.failure);
    CHECK(r.failure->line == 6);
    // The same lines as a list.
    auto listed =
        record::replayLines({"", std::string(kClassic4), " \t", "", classicDeal(kCard0), kPlaceOnFive});
    REQUIRE(listed.failure);
    CHECK(listed.failure->line == 6);
}

TEST_CASE("Replayer: a record without its setup line") {
    SUBCASE("empty: the failure is one line past the end") {
        auto r = record::replayText("\n\n");
        REQUIRE(r.failure);
        CHECK(r.failure->line == 3);
        CHECK(code(r) == "bad-record");
        CHECK_FALSE(r.state);
    }
    SUBCASE("a decision first") {
        auto r = record::replayText(record({classicDeal(kCard0), std::string(kClassic4)}));
        REQUIRE(r.failure);
        CHECK(r.failure->line == 1);
        CHECK(code(r) == "bad-record");
    }
}

TEST_CASE("Replayer: a record has one setup line") {
    auto r = record::replayText(record({std::string(kClassic4), std::string(kClassic4)}));
    REQUIRE(r.failure);
    CHECK(r.failure->line == 2);
    CHECK(code(r) == "wrong-phase");
    REQUIRE(r.state);  // the first one's game
    CHECK(r.state->phase() == Phase::AwaitDeal);
}

TEST_CASE("Replayer: an invalid setup line is its refusal, and no game") {
    auto r = record::replayText(R"({"setup": {"edition": "classic", "seats": 9}})");
    REQUIRE(r.failure);
    CHECK(r.failure->line == 1);
    CHECK(code(r) == "bad-setup");
    CHECK_FALSE(r.state);
}

TEST_CASE("Replayer: the observer stops it, before or after a line, without a failure") {
    const std::string text = record({std::string(kClassic4), classicDeal(kCard0), kPlace});
    SUBCASE("after") {
        auto r = record::replayText(text, {.after = [](const ReplayStep& step) { return step.line < 2; }});
        CHECK(r.stopped);
        CHECK_FALSE(r.failure);
        REQUIRE(r.state);
        CHECK(r.state->phase() == Phase::Placement);  // the deal was played
    }
    SUBCASE("before") {
        auto r = record::replayText(
            text, {.before = [](int line, const Decision&, const State&) { return line < 3; }});
        CHECK(r.stopped);
        CHECK_FALSE(r.failure);
        REQUIRE(r.state);
        CHECK(r.state->countAt(Place::Floor3) == 0);  // the placement was not
    }
}

TEST_CASE("Replayer: an undo puts an earlier state back and the replay goes on from it") {
    RecordReplayer replayer;
    REQUIRE(replayer.next(kClassic4));
    REQUIRE(replayer.next(classicDeal(kCard0)));
    const State dealt = *replayer.state();
    REQUIRE(replayer.next(kPlace));
    replayer.restore(dealt);
    CHECK(*replayer.state() == dealt);
    CHECK(replayer.next(kPlace));  // the same placement again
    CHECK(replayer.finish());
    CHECK(replayer.line() == 4);
}

}  // namespace vivaref::record_test
