// The names the sensing pipeline deals in. The drivers do not interpret any
// of them: a place is whatever the castle's configuration calls it ("3",
// "wc3", "dungeon1"), a character whatever the enrolment calls it ("odessa").
#pragma once

#include <compare>
#include <string>

#include "drivers/time/timestamp.hpp"

namespace vivaref::drivers {

// A reader's name in the configuration and the logs: "floor3", "throne".
struct ReaderId {
    std::string name;
    friend auto operator<=>(const ReaderId&, const ReaderId&) = default;
};

// Where a tag can stand, as the configuration names it.
struct PlaceName {
    std::string name;
    friend auto operator<=>(const PlaceName&, const PlaceName&) = default;
};

// The character an enrolled tag belongs to.
struct CharacterSlug {
    std::string name;
    friend auto operator<=>(const CharacterSlug&, const CharacterSlug&) = default;
};

}  // namespace vivaref::drivers
