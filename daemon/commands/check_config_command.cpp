// `vivaref check-config FILE`: the castle configuration checked without
// touching any hardware; every problem with its file, line, key and reason.
#include <iostream>
#include <optional>

#include <nlohmann/json.hpp>

#include "daemon/commands/command.hpp"
#include "daemon/commands/command_line.hpp"
#include "daemon/config/config_check.hpp"
#include "daemon/config/config_in_force.hpp"
#include "daemon/config/config_summary.hpp"

namespace vivaref::daemon {

namespace po = boost::program_options;

namespace {

// A garbage file can hold thousands of bad lines; the first ones say enough.
constexpr std::size_t kProblemsShown = 100;

}  // namespace

int runCheckConfig(const std::vector<std::string>& args) {
    bool asJson = false, inForce = false;
    std::string configFile;
    CommandLine line(
        "check-config", "vivaref check-config [options] FILE",
        "Checks the castle configuration FILE without touching any hardware: unknown sections and\n"
        "keys, bad values, GPIO lines used twice, places without a reader, readers sharing a bus and\n"
        "chip select, stations without a key. Prints every problem as FILE:LINE: KEY: reason, or a\n"
        "summary of the castle when there is none. Exit status: 0 valid, 1 problems, 2 when FILE\n"
        "cannot be read. The examples in daemon/config/examples/ explain every key.\n"
        "--in-force --config F checks the configuration 'vivaref serve --config F' would run on:\n"
        "castle.ini in F's state directory (saved by the host page's set-up) while it is valid, else F;\n"
        "the first line says which and why.");
    line.visible.add_options()("json", po::bool_switch(&asJson), "print one JSON object")(
        "in-force", po::bool_switch(&inForce),
        "check the configuration in force for --config F instead of FILE (JSON: \"in_force\", \"why\")")(
        "config", po::value(&configFile), "with --in-force: the configuration serve is given");
    line.hidden.add_options()("file", po::value<std::string>(), "the configuration");
    line.positional.add("file", 1);
    po::variables_map vm;
    if (auto stop = parseCommandLine(line, args, vm)) return *stop;
    if (inForce != !configFile.empty())
        return usageError("check-config", "--in-force and --config F go together");
    if (inForce && vm.count("file"))
        return usageError("check-config", "give FILE or --in-force --config F, not both");
    if (!inForce && !vm.count("file"))
        return usageError("check-config", "name the configuration FILE to check");

    std::optional<config::ConfigInForce> chosen;
    if (inForce) chosen = config::configInForce(configFile);
    const auto check = chosen ? chosen->check : config::checkCastleConfigFile(vm["file"].as<std::string>());
    const bool valid = check.status == config::ConfigCheck::Status::Valid;
    const int status = valid                                                     ? kExitOk
                       : check.status == config::ConfigCheck::Status::Unreadable ? kExitUsage
                                                                                 : kExitRefused;
    if (asJson) {
        nlohmann::ordered_json out = {{"file", check.config.sourceFile.string()}, {"ok", valid}};
        if (check.status == config::ConfigCheck::Status::Unreadable) out["unreadable"] = true;
        if (chosen) {
            out["in_force"] = chosen->file().string();
            out["why"] = chosen->why;
        }
        out["problems"] = nlohmann::ordered_json::array();
        for (const auto& p : check.problems)
            out["problems"].push_back({{"line", p.line}, {"key", p.key}, {"reason", p.reason}});
        if (valid) out["summary"] = config::summaryJson(check.config);
        std::cout << out.dump() << "\n";
        return status;
    }
    if (chosen && !chosen->why.empty()) std::cout << chosen->why << "\n";
    if (check.status == config::ConfigCheck::Status::Unreadable) {
        std::cerr << "vivaref check-config: " << check.problems.front().text() << "\n";
        return status;
    }
    if (valid) {
        std::cout << check.config.sourceFile.string() << ": valid. " << config::summaryText(check.config)
                  << "\n";
        return status;
    }
    for (std::size_t i = 0; i < check.problems.size() && i < kProblemsShown; ++i)
        std::cout << check.problems[i].text() << "\n";
    if (check.problems.size() > kProblemsShown)
        std::cout << "... and " << check.problems.size() - kProblemsShown << " more\n";
    std::cout << check.config.sourceFile.string() << ": " << check.problems.size()
              << (check.problems.size() == 1 ? " problem" : " problems") << "\n";
    return status;
}

}  // namespace vivaref::daemon
