// The command-line handling every subcommand shares: `--help`, and a clear
// message with exit status 2 for a bad option.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <boost/program_options.hpp>

namespace vivaref::daemon {

struct CommandLine {
    CommandLine(std::string_view commandName, std::string_view usageLine, std::string_view aboutText)
        : command(commandName), usage(usageLine), about(aboutText) {}
    std::string_view command;  // "replay"
    std::string_view usage;    // "vivaref replay [options] FILE"
    std::string_view about;    // a paragraph for --help
    boost::program_options::options_description visible{"Options"};
    boost::program_options::options_description hidden;  // positional words
    boost::program_options::positional_options_description positional;
};

// Parses `args` into `vm`. Returns an exit status when the command should stop
// at once: 0 after printing --help, 2 after printing a bad option's message.
std::optional<int> parseCommandLine(CommandLine& line, const std::vector<std::string>& args,
                                    boost::program_options::variables_map& vm);

// Prints "vivaref COMMAND: MESSAGE" and a hint on stderr; returns 2.
int usageError(std::string_view command, std::string_view message);

// A command's input file read whole ("-" is standard input), or nothing and
// `why` says why it cannot be read (a directory, missing, unreadable).
std::optional<std::string> readInputFile(const std::string& path, std::string& why);

}  // namespace vivaref::daemon
