// Shared helpers of the record edge's tests: rules from a setup line, and
// the outcome of reading a line as a short word ("ok" or the refusal code)
// so that a case reads like GAME-RECORD's strictness rules.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include <doctest/doctest.h>

#include "engine/record/line_reader.hpp"
#include "engine/rules.hpp"

namespace vivaref::record_test {

using namespace vivaref::engine;
using record::LineRead;
using record::readLine;

// The rules a setup line describes; the line must be a valid setup.
inline std::shared_ptr<const Rules> rulesFrom(std::string_view setupLine) {
    LineRead read = readLine(setupLine, nullptr);
    REQUIRE_MESSAGE(read.line, setupLine);
    const auto& spec = std::get<RulesSpec>(*read.line);
    auto refusal = Rules::validate(spec);
    REQUIRE_MESSAGE(!refusal, (refusal ? ::vivaref::engine::describe(refusal->message) : ""));
    return std::make_shared<const Rules>(spec);
}

// "ok", or the refusal's code ("bad-record", "bad-deal", ...).
inline std::string outcome(std::string_view line, const Rules* rules = nullptr) {
    LineRead read = readLine(line, rules);
    if (read.refusal) return std::string(refusalCodeName(read.refusal->code));
    return "ok";
}

inline constexpr std::string_view kClassic4 = R"({"setup": {"edition": "classic", "seats": 4}})";

// A classic deal for 4 players whose first card is `firstCard` (a JSON list).
inline std::string classicDeal(std::string_view firstCard, std::string_view extra = "") {
    return std::string(R"({"deal": {"round": 1, "favourites": [)") + std::string(firstCard) +
           R"(, ["gavino","irina","leonardo","merlino","natale","odessa"],)"
           R"( ["piero","alighiero","gavino","beatrice","irina","clemente"],)"
           R"( ["dario","leonardo","ernesto","merlino","fiorello","natale"]])" +
           std::string(extra) + "}}";
}

inline constexpr std::string_view kCard0 =
    R"(["alighiero","beatrice","clemente","dario","ernesto","fiorello"])";

}  // namespace vivaref::record_test
