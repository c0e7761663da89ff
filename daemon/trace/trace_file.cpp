#include "daemon/trace/trace_file.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

namespace vivaref::trace {

std::optional<std::string> readTextFile(const std::string& path, std::string& why) {
    std::ostringstream text;
    if (path == "-") {
        text << std::cin.rdbuf();
        if (std::cin.bad()) {
            why = "cannot read standard input";
            return std::nullopt;
        }
        return std::move(text).str();
    }
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) {
        why = "cannot read '" + path + "': it is a directory";
        return std::nullopt;
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        why = "cannot open '" + path + "': " + std::strerror(errno);
        return std::nullopt;
    }
    text << in.rdbuf();
    if (in.bad()) {
        why = "cannot read '" + path + "': " + std::strerror(errno);
        return std::nullopt;
    }
    return std::move(text).str();
}

}  // namespace vivaref::trace
