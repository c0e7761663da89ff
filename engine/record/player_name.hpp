// A player's name, as the host types it and every page, log and terminal
// shows it later. The one check every way in uses (the host API's new game,
// `vivaref new`, the trace reader, the referee itself): a name that passes
// cannot move a terminal's cursor, change its title or fill a screen.
// What a new game's names must also be (something visible, no direction
// controls, no two alike) needs Unicode's character data, which the engine
// does not hold: daemon/referee/player_names.hpp checks that at the host's
// way in, so that a log written before still loads.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace vivaref::record {

// Counted in characters (UTF-8 code points), not bytes.
inline constexpr std::size_t kMaxPlayerNameLength = 40;

// What is wrong with a name, for a message to say it in any language.
struct PlayerNameIssue {
    enum class Kind : std::uint8_t { Empty, NotUtf8, Control, TooLong };
    Kind kind = Kind::Empty;
    std::size_t at = 0;           // NotUtf8: the byte (from 1); Control: the character (from 1)
    std::uint32_t codePoint = 0;  // Control
    std::size_t length = 0;       // TooLong: the name's length in characters
};

// Nullopt when `name` can be a player's name.
std::optional<PlayerNameIssue> playerNameIssue(std::string_view name);

// Why `name` cannot be a player's name: a phrase to follow the name's
// description ("is empty", "holds a control character (U+001B) at character
// 4", "is not valid UTF-8", "is 20480 characters long; at most 40"); nullopt
// when it can. It never quotes the name itself (a bad name is unsafe to print).
std::optional<std::string> playerNameProblem(std::string_view name);

// "U+001B".
std::string codePointText(std::uint32_t c);

}  // namespace vivaref::record
