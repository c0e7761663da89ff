// What the commands print goes to an administrator's terminal, and part of
// it comes from the game log (players' names) or from a daemon. A log
// written before names were checked (engine/record/player_name.hpp) may hold
// an ESC or a BEL that would retitle the window or clear the screen, or a
// right-to-left override that turns the rest of the line around. So every
// command's standard output and error go through one filter that writes
// those characters out visibly instead.
#pragma once

#include <memory>
#include <ostream>
#include <streambuf>
#include <string>
#include <string_view>

namespace vivaref::daemon {

// `text` with each control character but newline and tab (C0, DEL, and C1
// written in UTF-8) as \u001b, which stays valid inside a JSON string (and
// reads back as the same name), and each byte that is not part of valid
// UTF-8 as \xff. So too, as \u202e, what could make a line read backwards
// or hide a character (issue 33, item 5): Unicode's direction controls
// (U+061C, U+200E/F, U+202A-202E, U+2066-2069) but a first strong isolate
// and its pop on the same line (how the words isolate a player's name: an
// isolate turns nothing outside itself around), and invisible characters
// that have no part in a word (zero-width space, word joiner, soft hyphen,
// Hangul fillers, line and paragraph separators, BOM, ...). Anything else,
// the letters of names in any script included, is kept as it is.
std::string escapeControls(std::string_view text);

// A player's (or member's) name for a terminal line: between a first strong
// isolate and its pop, so that a name in Arabic or Hebrew cannot reorder
// the line around it, with the direction controls inside written out
// (\u202e) so that the isolate stays whole. Padding a column: the isolates
// take no room, so pad by the name's own length (paddedName does).
std::string terminalName(std::string_view name);
// terminalName, then spaces up to `width` characters (code points: a
// name in Hebrew or with accents lines up as one in ASCII does).
std::string paddedName(std::string_view name, std::size_t width);
// The number of code points of UTF-8 text.
std::size_t characterCount(std::string_view text);

// While it lives, everything written to `stream` passes through
// escapeControls on its way out (line by line, and at every flush). main()
// puts one on std::cout and one on std::cerr for every command.
class EscapedOutput {
public:
    explicit EscapedOutput(std::ostream& stream);
    ~EscapedOutput();
    EscapedOutput(const EscapedOutput&) = delete;
    EscapedOutput& operator=(const EscapedOutput&) = delete;

private:
    class Filter;
    std::ostream& stream_;
    std::streambuf* original_;
    std::unique_ptr<Filter> filter_;
};

}  // namespace vivaref::daemon
