#include "daemon/commands/command_line.hpp"

#include <iostream>

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

}  // namespace vivaref::daemon
