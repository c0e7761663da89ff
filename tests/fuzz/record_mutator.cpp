#include "tests/fuzz/record_mutator.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace vivaref::fuzz {
namespace {

// Fragments that a record might plausibly (or implausibly) contain.
// clang-format off
constexpr std::array<std::string_view, 34> kTokens = {
    // JSON punctuation and literals
    "\"", "{", "}", "[", "]", ",", ":", "\n", "null", "true", "false", "-1", "0", "1e999",
    "18446744073709551616", "\"\"", "\"\\u0000\"",
    // GAME-RECORD words
    "\"6\"", "\"wc3\"", "\"wc4\"", "\"box\"", "\"dungeon3\"", "\"jester\"", "\"yes\"", "\"no\"",
    "\"seat\"", "\"setup\"", "\"deal\"", "\"move\"", "\"vote\"", "\"pass\"",
    "{\"pass\": {\"seat\": 0}}\n",
    // not UTF-8
    "\xff", "\xc3",
};
constexpr std::array<std::string_view, 14> kNumbers = {
    "0", "1", "2", "3", "4", "5", "6", "7", "8", "13", "-1", "255", "256", "4294967297",
};
// clang-format on

std::vector<std::string> splitLines(const std::string& text) {
    std::vector<std::string> lines;
    std::size_t start = 0;
    while (start < text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string::npos) end = text.size();
        lines.push_back(text.substr(start, end - start));
        start = end + 1;
    }
    return lines;
}

std::string joinLines(const std::vector<std::string>& lines) {
    std::string text;
    for (const auto& line : lines) text += line + '\n';
    return text;
}

// Every quoted string and every digit run in `text`, as (offset, length).
std::vector<std::pair<std::size_t, std::size_t>> findTokens(const std::string& text, bool strings) {
    std::vector<std::pair<std::size_t, std::size_t>> spans;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (strings && text[i] == '"') {
            const std::size_t end = text.find('"', i + 1);
            if (end == std::string::npos) break;
            spans.emplace_back(i, end - i + 1);
            i = end;
        } else if (!strings && text[i] >= '0' && text[i] <= '9') {
            std::size_t end = i;
            while (end < text.size() && text[end] >= '0' && text[end] <= '9') ++end;
            spans.emplace_back(i, end - i);
            i = end - 1;
        }
    }
    return spans;
}

}  // namespace

std::string RecordMutator::mutate(std::string_view text, std::string* description) {
    std::string result(text);
    const auto count = 1 + below(3);
    for (std::uint64_t i = 0; i < count; ++i) result = mutateOnce(std::move(result), description);
    return result;
}

std::string RecordMutator::mutateOnce(std::string text, std::string* description) {
    auto note = [description](const std::string& what) {
        if (description != nullptr) *description += (description->empty() ? "" : ", ") + what;
    };
    const auto kind = below(12);
    std::vector<std::string> lines = splitLines(text);

    switch (kind) {
        case 0:
            if (!text.empty()) {
                const auto at = below(text.size());
                text[at] = static_cast<char>(text[at] ^ (1u << below(8)));
                note("flip a bit at byte " + std::to_string(at));
            }
            return text;
        case 1: {
            const auto at = below(text.size() + 1);
            const auto token = kTokens[below(kTokens.size())];
            text.insert(at, token);
            note("insert a token at byte " + std::to_string(at));
            return text;
        }
        case 2:
            if (!text.empty()) {
                const auto at = below(text.size());
                const auto length = 1 + below(16);
                text.erase(at, length);
                note("erase bytes from " + std::to_string(at));
            }
            return text;
        case 3: {
            const auto at = below(text.size() + 1);
            text.resize(at);
            note("truncate at byte " + std::to_string(at));
            return text;
        }
        case 4:
            if (!lines.empty()) {
                const auto at = below(lines.size());
                lines.erase(lines.begin() + static_cast<std::ptrdiff_t>(at));
                note("drop line " + std::to_string(at + 1));
            }
            return joinLines(lines);
        case 5:
            if (!lines.empty()) {
                const auto at = below(lines.size());
                lines.insert(lines.begin() + static_cast<std::ptrdiff_t>(at), lines[at]);
                note("repeat line " + std::to_string(at + 1));
            }
            return joinLines(lines);
        case 6:
            if (lines.size() >= 2) {
                const auto a = below(lines.size());
                const auto b = (a + 1 + below(lines.size() - 1)) % lines.size();
                std::swap(lines[a], lines[b]);
                note("swap lines " + std::to_string(a + 1) + " and " + std::to_string(b + 1));
            }
            return joinLines(lines);
        case 7:
            if (lines.size() >= 2) {
                // Move a line a short way: a move played out of turn, a vote too early.
                const auto from = below(lines.size());
                const auto to = std::min<std::uint64_t>(lines.size() - 1, from + 1 + below(4));
                std::string line = std::move(lines[from]);
                lines.erase(lines.begin() + static_cast<std::ptrdiff_t>(from));
                lines.insert(lines.begin() + static_cast<std::ptrdiff_t>(to), std::move(line));
                note("move line " + std::to_string(from + 1) + " down");
            }
            return joinLines(lines);
        case 8: {
            // Replace one quoted string with another from the same record:
            // another character, place, card or key.
            const auto spans = findTokens(text, true);
            if (spans.size() >= 2) {
                const auto target = spans[below(spans.size())];
                const auto source = spans[below(spans.size())];
                const std::string replacement = text.substr(source.first, source.second);
                text.replace(target.first, target.second, replacement);
                note("replace a string at byte " + std::to_string(target.first));
            }
            return text;
        }
        case 9: {
            const auto spans = findTokens(text, false);
            if (!spans.empty()) {
                const auto target = spans[below(spans.size())];
                text.replace(target.first, target.second, kNumbers[below(kNumbers.size())]);
                note("replace a number at byte " + std::to_string(target.first));
            }
            return text;
        }
        case 10:
            if (!text.empty()) {
                const auto at = below(text.size());
                const auto from = below(text.size());
                const auto length = std::min<std::uint64_t>(1 + below(64), text.size() - from);
                text.insert(at, text.substr(from, length));
                note("copy bytes to " + std::to_string(at));
            }
            return text;
        default: {
            // Change one value of one line's JSON: another type, a key removed or added.
            if (lines.empty()) return text;
            const auto at = below(lines.size());
            auto line = nlohmann::json::parse(lines[at], nullptr, false);
            if (line.is_discarded() || !line.is_object() || line.empty()) return text;
            nlohmann::json* value = &line;
            while (value->is_structured() && !value->empty() && below(3) != 0) {
                auto it = value->begin();
                std::advance(it, static_cast<std::ptrdiff_t>(below(value->size())));
                value = &*it;
            }
            static const std::array<nlohmann::json, 7> kValues = {
                nullptr, true, -1, 3, "x", nlohmann::json::array(), nlohmann::json::object()};
            if (value->is_object() && below(2) == 0) {
                if (!value->empty()) {
                    value->erase(value->begin());
                } else {
                    (*value)["extra"] = 1;
                }
            } else if (value->is_array() && !value->empty() && below(2) == 0) {
                value->erase(value->begin() + static_cast<std::ptrdiff_t>(below(value->size())));
            } else {
                *value = kValues[below(kValues.size())];
            }
            lines[at] = line.dump();
            note("edit the JSON of line " + std::to_string(at + 1));
            return joinLines(lines);
        }
    }
}

}  // namespace vivaref::fuzz
