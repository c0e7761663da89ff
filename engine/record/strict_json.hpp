// Reading one record line as JSON, more strictly than nlohmann's own parser:
// a duplicate key is an error (nlohmann silently keeps the last one), and so
// is nesting deeper than any record line needs.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace vivaref::record {

// Deeper than any record line (a setup's roster is 4 levels deep).
inline constexpr int kMaxJsonDepth = 16;

struct StrictJson {
    std::optional<nlohmann::json> value;  // set only when the text is acceptable
    std::string error;                    // why it is not, as a sentence
    // The first key of the line's object, once read: a duplicate inside its
    // value is reported with that line kind's code (bad-setup, bad-deal).
    std::string firstKey;
    bool duplicateInsideValue = false;
};

// Never throws (but for std::bad_alloc).
StrictJson parseStrictJson(std::string_view text);

}  // namespace vivaref::record
