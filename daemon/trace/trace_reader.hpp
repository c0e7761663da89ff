// Reading a referee trace (REFEREE-TRACE) strictly: every line is checked
// for form before anything acts on it. A line that is not one JSON object,
// that holds a duplicate or unknown key, a value of the wrong type, a `t`
// missing, negative or earlier than the line before, a UID that is not
// uppercase hex of 4, 7 or 10 bytes, or an unknown host request or key name
// is an error naming the line (1-based, blank lines counted) and what is
// wrong. Whether the request makes sense for the game (a deal's cards, a
// reader's name on this board) is for the rig and the referee to say.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "daemon/trace/trace_line.hpp"

namespace vivaref::trace {

struct TraceError {
    int line = 0;      // 1-based, blank lines counted
    std::string what;  // a sentence
    std::string describe() const { return "line " + std::to_string(line) + ": " + what; }
};

// One non-blank line, on its own: its form only (no check against the
// previous line's `t`). Never throws but std::bad_alloc.
struct LineParse {
    std::optional<TraceLine> line;
    std::string error;  // set when `line` is not
};
LineParse parseTraceLine(std::string_view text);

// A trace read line by line, as a file or a socket delivers it.
class TraceReader {
public:
    // Reads the next physical line (without its '\n'). Returns the parsed
    // line, nothing for a blank line, or sets `error`.
    std::optional<TraceLine> next(std::string_view text, std::optional<TraceError>& error);
    int lineNumber() const { return lineNumber_; }  // of the last line given

private:
    int lineNumber_ = 0;
    std::int64_t lastT_ = 0;
};

struct NumberedLine {
    int number = 0;  // where it stands in the file (1-based)
    TraceLine line;
};

struct TraceRead {
    std::vector<NumberedLine> lines;  // every line when `error` is empty
    std::optional<TraceError> error;  // the first malformed line
};

// A whole trace's text; stops at the first malformed line.
TraceRead readTrace(std::string_view text);

}  // namespace vivaref::trace
