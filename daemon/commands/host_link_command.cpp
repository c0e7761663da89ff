// `vivaref host-link`: prints the host's link (the host page with the host's
// secret after the #) on the machine the referee runs on, read from the
// state directory as `vivaref serve` made it. The host opens it on their
// own phone or laptop, which then keeps the secret.
#include <filesystem>
#include <iostream>

#include "daemon/commands/command.hpp"
#include "daemon/commands/command_line.hpp"
#include "daemon/config/config_check.hpp"
#include "daemon/config/config_in_force.hpp"
#include "daemon/server/host_link.hpp"
#include "daemon/server/host_secret.hpp"

namespace vivaref::daemon {

namespace po = boost::program_options;

namespace {

// The configuration the packaged service runs with (systemd/vivaref.ini).
constexpr const char* kPackagedConfig = "/etc/vivaref/vivaref.ini";

}  // namespace

int runHostLink(const std::vector<std::string>& args) {
    std::string configFile, database;
    bool sim = false;
    CommandLine line(
        "host-link", "vivaref host-link [--config FILE | --db FILE] [--sim]",
        "Prints the host's link, http://CASTLE:PORT/host.html#SECRET: open it on the host's phone or\n"
        "laptop (that device keeps the secret, so /host.html opens there later too). The secret is the\n"
        "configuration's host_token, else the host secret 'vivaref serve' made at its first start in the\n"
        "state directory (without a configuration: beside the game log). The configuration is --config,\n"
        "else /etc/vivaref/vivaref.ini when it exists (the packaged service's: run it as root or as the\n"
        "vivaref user, 'sudo vivaref host-link', since only they may read the state directory). The\n"
        "castle's address is the configuration's http_address and http_port (every interface: this\n"
        "machine's name), else 127.0.0.1:8080 as 'vivaref serve' without a configuration.");
    line.visible.add_options()("config", po::value(&configFile),
                               "the castle configuration (default: /etc/vivaref/vivaref.ini if present)")(
        "db", po::value(&database),
        "without a configuration: the game log beside which the secret is (default: $VIVAREF_DB or the "
        "state directory's)")("sim", po::bool_switch(&sim),
                              "print the simulated castle's link (sim.html with the secret) instead");
    po::variables_map vm;
    if (auto stop = parseCommandLine(line, args, vm)) return *stop;
    if (!configFile.empty() && !database.empty())
        return usageError("host-link", "give --config or --db, not both");
    std::error_code ec;
    if (configFile.empty() && database.empty() && std::filesystem::exists(kPackagedConfig, ec))
        configFile = kPackagedConfig;

    std::string address = "127.0.0.1";
    std::uint16_t port = 8080;
    std::string token;
    std::filesystem::path directory;
    if (!configFile.empty()) {
        const auto check = config::configInForce(configFile).check;  // castle.ini when the set-up saved one
        if (check.status != config::ConfigCheck::Status::Valid) {
            for (const auto& p : check.problems) std::cerr << p.text() << "\n";
            std::cerr << "vivaref host-link: the configuration cannot be used ('vivaref check-config "
                      << configFile << "' says why)\n";
            return kExitUsage;
        }
        const auto& daemon = check.config.daemon;
        address = daemon.httpAddress;
        port = daemon.httpPort;
        token = daemon.hostToken;
        directory = daemon.stateDirectory;
    } else {
        const std::filesystem::path db =
            database.empty() ? config::defaultDatabasePath() : std::filesystem::path(database);
        directory = server::hostSecretDirectory({}, db);
    }
    if (token.empty()) {
        std::string why;
        const auto secret = server::readHostSecret(directory, why);
        if (!secret) {
            std::cerr << "vivaref host-link: " << why << "\n";
            return kExitRefused;
        }
        token = *secret;
    }
    const std::string url = server::castleUrl(address, port);
    std::cout << (sim ? server::simLink(url, token) : server::hostLink(url, token)) << "\n";
    return kExitOk;
}

}  // namespace vivaref::daemon
