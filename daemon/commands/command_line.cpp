#include "daemon/commands/command_line.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "daemon/commands/command.hpp"

namespace vivaref::daemon {

namespace po = boost::program_options;

int usageError(std::string_view command, std::string_view message) {
    std::cerr << "vivaref " << command << ": " << message << "\n"
              << "Try 'vivaref " << command << " --help'.\n";
    return kExitUsage;
}

std::optional<int> parseCommandLine(CommandLine& line, const std::vector<std::string>& args,
                                    po::variables_map& vm) {
    line.visible.add_options()("help,h", "show this help and exit");
    po::options_description all;
    all.add(line.visible).add(line.hidden);
    try {
        po::store(po::command_line_parser(args).options(all).positional(line.positional).run(), vm);
        if (vm.count("help")) {
            std::cout << "Usage: " << line.usage << "\n\n" << line.about << "\n\n" << line.visible;
            return kExitOk;
        }
        po::notify(vm);
    } catch (const po::error& e) {
        return usageError(line.command, e.what());
    }
    return std::nullopt;
}

std::optional<std::string> readInputFile(const std::string& path, std::string& why) {
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

}  // namespace vivaref::daemon
