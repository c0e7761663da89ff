#include "tests/fuzz/record_invariants.hpp"

#include <algorithm>
#include <array>
#include <exception>

#include "engine/record/replay.hpp"

namespace vivaref::fuzz {
namespace {

// GAME-RECORD's error codes: stable words a client may switch on.
// clang-format off
constexpr std::array<std::string_view, 23> kErrorCodes = {
    "bad-record", "bad-setup", "bad-deal", "bad-pile", "wrong-phase", "not-your-turn",
    "unknown-seat", "unknown-player", "unknown-character", "unknown-place", "unknown-card",
    "already-placed", "floor-not-allowed", "floor-full", "floor-not-full", "wc-occupied",
    "not-adjacent", "character-not-in-castle", "cannot-move", "card-not-held", "already-voted",
    "already-kept", "must-move",
};
// clang-format on

bool isArray(const nlohmann::json& result, const char* key) {
    const auto it = result.find(key);
    return it != result.end() && it->is_array();
}

}  // namespace

std::string resultProblem(const nlohmann::json& result) {
    if (!result.is_object()) return "the result is not a JSON object";
    const auto ok = result.find("ok");
    if (ok == result.end() || !ok->is_boolean()) return "the result has no boolean \"ok\"";

    if (!ok->get<bool>()) {
        const auto line = result.find("line");
        if (line == result.end() || !line->is_number_integer() || line->get<long long>() < 0) {
            return "a refusal without a non-negative integer \"line\"";
        }
        const auto error = result.find("error");
        if (error == result.end() || !error->is_string()) return "a refusal without a string \"error\"";
        const auto& code = error->get_ref<const std::string&>();
        if (std::find(kErrorCodes.begin(), kErrorCodes.end(), code) == kErrorCodes.end()) {
            return "a refusal with an undocumented error code \"" + code + "\"";
        }
        const auto message = result.find("message");
        if (message == result.end() || !message->is_string() ||
            message->get_ref<const std::string&>().empty()) {
            return "a refusal without a \"message\"";
        }
        return {};
    }

    const auto complete = result.find("complete");
    if (complete == result.end() || !complete->is_boolean())
        return "an answer without a boolean \"complete\"";
    for (const char* key : {"rounds", "totals", "winners"}) {
        if (!isArray(result, key)) return std::string("an answer without an array \"") + key + "\"";
    }
    if (complete->get<bool>() == isArray(result, "to_act")) {
        return "\"to_act\" must be an array exactly when the game is incomplete";
    }
    return {};
}

std::string replayProblem(std::string_view text) {
    nlohmann::json first;
    nlohmann::json second;
    try {
        first = record::replayRecord(text);
        second = record::replayRecord(text);
    } catch (const std::exception& e) {
        return std::string("replayRecord threw: ") + e.what();
    } catch (...) {
        return "replayRecord threw a non-standard exception";
    }
    if (std::string problem = resultProblem(first); !problem.empty()) return problem + ": " + first.dump();
    if (first != second)
        return "two replays of the same text differ: " + first.dump() + " / " + second.dump();
    try {
        // `vivaref replay` prints the result: it must be valid UTF-8 JSON.
        (void)first.dump();
    } catch (const std::exception& e) {
        return std::string("the result cannot be printed as JSON: ") + e.what();
    }
    return {};
}

}  // namespace vivaref::fuzz
