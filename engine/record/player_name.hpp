// A player's name, as the host types it and every page, log and terminal
// shows it later. The one check every way in uses (the host API's new game,
// `vivaref new`, the trace reader, the referee itself): a name that passes
// cannot move a terminal's cursor, change its title or fill a screen.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace vivaref::record {

// Counted in characters (UTF-8 code points), not bytes.
inline constexpr std::size_t kMaxPlayerNameLength = 40;

// Why `name` cannot be a player's name: a phrase to follow the name's
// description ("is empty", "holds a control character (U+001B) at character
// 4", "is not valid UTF-8", "is 20480 characters long; at most 40"); nullopt
// when it can. It never quotes the name itself (a bad name is unsafe to print).
std::optional<std::string> playerNameProblem(std::string_view name);

}  // namespace vivaref::record
