// Reading a whole text file for the trace commands ("-" is standard input).
#pragma once

#include <optional>
#include <string>

namespace vivaref::trace {

// The file's text, or nothing and `why` says why it cannot be read.
std::optional<std::string> readTextFile(const std::string& path, std::string& why);

}  // namespace vivaref::trace
