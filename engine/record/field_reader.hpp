// Reading the fields of one record line's payload with GAME-RECORD's
// strictness. The reader remembers the first problem and hands back harmless
// defaults after it, so a line parser reads straight through and checks once.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "engine/refusal.hpp"

namespace vivaref::record {

// A record string for a message: quoted, cut short, printable ASCII only.
std::string messageQuote(std::string_view s);

class FieldReader {
public:
    // `malformed` is the code for an unknown key or a wrong type on this
    // line kind (bad-setup, bad-deal, else bad-record); `line` names the kind
    // in messages ("setup", "deal", ...).
    FieldReader(engine::RefusalCode malformed, std::string_view line);

    bool ok() const { return !refusal_; }
    const std::optional<engine::Refusal>& refusal() const { return refusal_; }
    // Records a problem unless one was recorded already.
    void fail(engine::RefusalCode code, std::string message);
    void fail(std::string message) { fail(malformed_, std::move(message)); }

    // `value` must be an object whose keys are all in `allowed`; `what`
    // names it ("the setup", "the emissary").
    const nlohmann::json* object(const nlohmann::json& value, std::string_view what,
                                 std::initializer_list<std::string_view> allowed);
    // A key of an object; a missing required key is bad-record (GAME-RECORD).
    const nlohmann::json* required(const nlohmann::json* object, std::string_view key);
    static const nlohmann::json* optional(const nlohmann::json* object, std::string_view key);

    // Typed reads; `what` names the value in messages. On a wrong type they
    // record the problem and return an empty or zero value.
    std::string text(const nlohmann::json* value, std::string_view what);
    bool flag(const nlohmann::json* value, std::string_view what);
    // An integer, clamped to int's range (a huge number stays invalid).
    int integer(const nlohmann::json* value, std::string_view what);
    // A seat or player index; out of range or negative is kInvalidIndex,
    // which the engine reports with its own code.
    std::uint8_t index(const nlohmann::json* value, std::string_view what);
    const nlohmann::json::array_t* list(const nlohmann::json* value, std::string_view what);

    // A key present though its option or variant is not in play.
    void notInPlay(std::string_view key, std::string_view why);

private:
    engine::RefusalCode malformed_;
    std::string line_;
    std::optional<engine::Refusal> refusal_;
};

}  // namespace vivaref::record
