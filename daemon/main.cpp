// vivaref: the referee's one binary. Each subcommand lives in its own file
// under commands/; this only picks one and hands it the remaining words.
#include <algorithm>
#include <iostream>
#include <string>
#include <string_view>
#include <vector>

#include "daemon/commands/command.hpp"
#include "daemon/commands/terminal_text.hpp"

namespace {

using vivaref::daemon::commands;

void printUsage(std::ostream& out) {
    out << "Usage: vivaref COMMAND [options]\n\n"
           "A digital referee for Viva il Re! and Vive le Roi!.\n\n"
           "Commands:\n";
    for (const auto& c : commands()) {
        std::string name(c.name);
        name.resize(std::max<std::size_t>(name.size() + 2, 16), ' ');
        out << "  " << name << c.summary << "\n";
    }
    out << "\n'vivaref COMMAND --help' explains a command.\n";
}

}  // namespace

int main(int argc, char** argv) {
    using namespace vivaref::daemon;
    // Names from the game log or a daemon never reach the terminal raw
    // (commands/terminal_text.hpp).
    EscapedOutput escapedOut(std::cout);
    EscapedOutput escapedErr(std::cerr);
    if (argc < 2) {
        printUsage(std::cerr);
        return kExitUsage;
    }
    std::string_view name = argv[1];
    if (name == "--help" || name == "-h" || name == "help") {
        printUsage(std::cout);
        return kExitOk;
    }
    if (name == "--version") {
        std::cout << "vivaref " VIVAREF_VERSION "\n";
        return kExitOk;
    }
    const Command* command = findCommand(name);
    if (!command) {
        std::cerr << "vivaref: unknown command '" << name << "'.\n\n";
        printUsage(std::cerr);
        return kExitUsage;
    }
    try {
        return command->run(std::vector<std::string>(argv + 2, argv + argc));
    } catch (const std::exception& e) {
        std::cerr << "vivaref " << name << ": " << e.what() << "\n";
        return kExitUsage;
    }
}
