// What the commands print goes to an administrator's terminal, and part of
// it comes from the game log (players' names) or from a daemon. A log
// written before names were checked (engine/record/player_name.hpp) may hold
// an ESC or a BEL that would retitle the window or clear the screen. So
// every command's standard output and error go through one filter that
// writes control characters out visibly instead.
#pragma once

#include <memory>
#include <ostream>
#include <streambuf>
#include <string>
#include <string_view>

namespace vivaref::daemon {

// `text` with each control character but newline and tab (C0, DEL, and C1
// written in UTF-8) as \u001b, which stays valid inside a JSON string, and
// each byte that is not part of valid UTF-8 as \xff. Anything else, the
// accented letters of names included, is kept as it is.
std::string escapeControls(std::string_view text);

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
