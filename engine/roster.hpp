// A roster: the characters of an edition, as data. Each has a record id (a
// lowercase slug), a display name and a kind, which Ambition cards and the
// Jester's rules need (RULES §1).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/ids.hpp"

namespace vivaref::engine {

enum class CharacterKind : std::uint8_t { Woman, Man, Dog, Jester };
std::string_view characterKindName(CharacterKind k);
std::optional<CharacterKind> parseCharacterKind(std::string_view name);

struct Character {
    std::string id;  // record slug, e.g. "alighiero"
    std::string name;
    CharacterKind kind = CharacterKind::Man;
    friend bool operator==(const Character&, const Character&) = default;
};

class Roster {
public:
    Roster() = default;
    explicit Roster(std::vector<Character> characters);

    int size() const { return static_cast<int>(characters_.size()); }
    const Character& operator[](CharacterId c) const { return characters_[c.index]; }
    const std::vector<Character>& characters() const { return characters_; }

    // kInvalidIndex if no character has that id.
    CharacterId find(std::string_view id) const;
    // The Jester, or kInvalidIndex in a roster without one.
    CharacterId jester() const { return jester_; }
    bool isJester(CharacterId c) const { return c == jester_; }

    friend bool operator==(const Roster& a, const Roster& b) { return a.characters_ == b.characters_; }

private:
    std::vector<Character> characters_;
    CharacterId jester_{};
};

// The shipped rosters, read from engine/rosters/*.roster compiled into the
// binary (one "id|name|kind" a line).
const Roster& classicRoster();
const Roster& roster2024();

// Parses the roster text format; on error returns std::nullopt and sets
// `error` to a sentence naming the line.
std::optional<Roster> parseRosterText(std::string_view text, std::string* error);

}  // namespace vivaref::engine
