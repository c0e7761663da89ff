// A subcommand of `vivaref`: its name, a one-sentence summary for
// `vivaref --help`, and what runs it. Every command parses its own options
// and answers `--help`; it returns the process's exit status.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace vivaref::daemon {

// Exit statuses shared by the commands.
inline constexpr int kExitOk = 0;
inline constexpr int kExitRefused = 1;  // the input broke a rule (replay)
inline constexpr int kExitUsage = 2;    // bad command line or unreadable file

struct Command {
    std::string_view name;
    std::string_view summary;
    // `args` are the words after the command's name.
    int (*run)(const std::vector<std::string>& args);
};

// Every command, in the order `vivaref --help` lists them.
std::span<const Command> commands();
const Command* findCommand(std::string_view name);

// The commands' entry points, one per file.
int runReplay(const std::vector<std::string>& args);
int runServe(const std::vector<std::string>& args);
int runBench(const std::vector<std::string>& args);
int runRandomRecord(const std::vector<std::string>& args);
int runGames(const std::vector<std::string>& args);
int runShow(const std::vector<std::string>& args);
int runAnalyse(const std::vector<std::string>& args);
int runExport(const std::vector<std::string>& args);
int runVerify(const std::vector<std::string>& args);
int runStats(const std::vector<std::string>& args);
int runSimulate(const std::vector<std::string>& args);
int runTrace(const std::vector<std::string>& args);
int runCheckConfig(const std::vector<std::string>& args);
int runEnrol(const std::vector<std::string>& args);
int runNew(const std::vector<std::string>& args);
int runHost(const std::vector<std::string>& args);
int runSelfTest(const std::vector<std::string>& args);
int runHostLink(const std::vector<std::string>& args);
int runUnitAccess(const std::vector<std::string>& args);
int runClub(const std::vector<std::string>& args);

}  // namespace vivaref::daemon
