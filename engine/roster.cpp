#include "engine/roster.hpp"

#include <cstdlib>
#include <set>

namespace vivaref::engine {

namespace data {
extern const std::string_view kClassicRosterText;
extern const std::string_view kRoster2024Text;
}  // namespace data

namespace {

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
    return s;
}

Roster loadShipped(std::string_view text) {
    auto roster = parseRosterText(text, nullptr);
    // The shipped files are ours and tested: a failure here is our bug.
    if (!roster) std::abort();
    return std::move(*roster);
}

}  // namespace

std::string_view characterKindName(CharacterKind k) {
    switch (k) {
        case CharacterKind::Woman:
            return "woman";
        case CharacterKind::Man:
            return "man";
        case CharacterKind::Dog:
            return "dog";
        case CharacterKind::Jester:
            return "jester";
    }
    return "man";
}

std::optional<CharacterKind> parseCharacterKind(std::string_view name) {
    for (auto k : {CharacterKind::Woman, CharacterKind::Man, CharacterKind::Dog, CharacterKind::Jester})
        if (characterKindName(k) == name) return k;
    return std::nullopt;
}

Roster::Roster(std::vector<Character> characters) : characters_(std::move(characters)) {
    for (std::size_t i = 0; i < characters_.size(); ++i)
        if (characters_[i].kind == CharacterKind::Jester) jester_ = CharacterId{static_cast<std::uint8_t>(i)};
}

CharacterId Roster::find(std::string_view id) const {
    for (std::size_t i = 0; i < characters_.size(); ++i)
        if (characters_[i].id == id) return CharacterId{static_cast<std::uint8_t>(i)};
    return CharacterId{};
}

const Roster& classicRoster() {
    static const Roster r = loadShipped(data::kClassicRosterText);
    return r;
}

const Roster& roster2024() {
    static const Roster r = loadShipped(data::kRoster2024Text);
    return r;
}

std::optional<Roster> parseRosterText(std::string_view text, std::string* error) {
    std::vector<Character> characters;
    std::set<std::string, std::less<>> ids;
    int lineNumber = 0;
    auto fail = [&](const std::string& why) {
        if (error) *error = "roster line " + std::to_string(lineNumber) + ": " + why;
        return std::nullopt;
    };
    while (!text.empty()) {
        ++lineNumber;
        auto end = text.find('\n');
        auto line = trim(text.substr(0, end));
        text = end == std::string_view::npos ? std::string_view{} : text.substr(end + 1);
        if (line.empty() || line.front() == '#') continue;
        auto bar1 = line.find('|');
        auto bar2 = bar1 == std::string_view::npos ? bar1 : line.find('|', bar1 + 1);
        if (bar2 == std::string_view::npos) return fail("expected id|name|kind");
        Character c;
        c.id = std::string(trim(line.substr(0, bar1)));
        c.name = std::string(trim(line.substr(bar1 + 1, bar2 - bar1 - 1)));
        auto kind = parseCharacterKind(trim(line.substr(bar2 + 1)));
        if (c.id.empty() || c.name.empty()) return fail("the id and the name must not be empty");
        if (!kind) return fail("the kind must be woman, man, dog or jester");
        if (!ids.insert(c.id).second) return fail("the id '" + c.id + "' is used twice");
        c.kind = *kind;
        characters.push_back(std::move(c));
    }
    return Roster(std::move(characters));
}

}  // namespace vivaref::engine
