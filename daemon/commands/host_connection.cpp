#include "daemon/commands/host_connection.hpp"

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <stdexcept>

#include "daemon/commands/command.hpp"
#include "daemon/commands/terminal_text.hpp"
#include "daemon/config/config_check.hpp"
#include "daemon/config/config_in_force.hpp"
#include "daemon/server/host_secret.hpp"

namespace vivaref::daemon {

namespace po = boost::program_options;
using nlohmann::json;

namespace {

// `vivaref serve`'s own default without a configuration.
const DaemonAddress kDefaultAddress{"127.0.0.1", 8080};

// A token in the environment stays out of `ps` and the shell's history.
constexpr const char* kTokenVariable = "VIVAREF_HOST_TOKEN";

std::string textOf(const json& body, const char* key) {
    if (!body.is_object()) return {};
    const auto it = body.find(key);
    return it != body.end() && it->is_string() ? it->get<std::string>() : std::string();
}

}  // namespace

const char* const kHostConnectionHelp =
    "The daemon is found at --url, else at the [daemon] http_address and http_port of --config FILE\n"
    "(a daemon listening on every interface is reached on this machine), else at http://127.0.0.1:8080.\n"
    "The host token is --host-token, else $VIVAREF_HOST_TOKEN, else the host_token of --config FILE,\n"
    "else the host secret 'vivaref serve' made in the state directory (--config's, else beside the\n"
    "default game log, $VIVAREF_DB). Connecting and the answer are each given --timeout seconds.";

void HostConnectionOptions::addTo(CommandLine& line) {
    line.visible.add_options()("url", po::value(&url), "the daemon: http://HOST:PORT")(
        "config", po::value(&configFile), "the castle configuration: the daemon's address and host token")(
        "host-token", po::value(&hostToken), "the host token (also $VIVAREF_HOST_TOKEN)")(
        "timeout", po::value(&timeoutSeconds)->default_value(10),
        "seconds to connect, then to get the answer");
}

std::variant<HostConnection, int> openHostConnection(std::string_view command,
                                                     const HostConnectionOptions& options) {
    HostConnection connection;
    std::filesystem::path stateDirectory;
    connection.command = std::string(command);
    connection.address = kDefaultAddress;
    if (options.timeoutSeconds == 0) return usageError(command, "--timeout is a number of seconds from 1");
    connection.timeout = std::chrono::seconds(options.timeoutSeconds);
    if (!options.configFile.empty()) {
        // The same reading and checks as `vivaref serve --config` (and check-config).
        const auto check = config::configInForce(options.configFile).check;
        if (check.status != config::ConfigCheck::Status::Valid) {
            for (const auto& p : check.problems) std::cerr << p.text() << "\n";
            std::cerr << "vivaref " << command << ": the configuration cannot be used ('vivaref check-config "
                      << options.configFile << "' says why)\n";
            return kExitUsage;
        }
        const auto& settings = check.config.daemon;
        connection.address = daemonAddressOnThisMachine(settings.httpAddress, settings.httpPort);
        connection.hostToken = settings.hostToken;
        stateDirectory = settings.stateDirectory;
    }
    if (!options.url.empty()) {
        try {
            connection.address = parseDaemonUrl(options.url);
        } catch (const std::invalid_argument& e) {
            return usageError(command, e.what());
        }
    }
    if (const char* token = std::getenv(kTokenVariable); token && *token) connection.hostToken = token;
    if (!options.hostToken.empty()) connection.hostToken = options.hostToken;
    // On the referee's own machine the host secret serve made is at hand:
    // the configuration's state directory, else beside the default game log.
    if (connection.hostToken.empty()) {
        std::string why;
        if (auto secret = server::readHostSecret(
                server::hostSecretDirectory(stateDirectory, config::defaultDatabasePath()), why))
            connection.hostToken = *secret;
    }
    return connection;
}

std::variant<json, int> sendHostRequest(const HostConnection& connection, const std::string& target,
                                        const std::optional<json>& body) {
    DaemonRequest request;
    request.post = body.has_value();
    request.target = target;
    if (body) request.body = *body;
    request.bearerToken = connection.hostToken;
    request.timeout = connection.timeout;
    const std::string who = "vivaref " + connection.command + ": ";
    const auto result = askDaemon(connection.address, request);
    if (const auto* why = std::get_if<std::string>(&result)) {
        std::cerr << who << "cannot reach the daemon at " << connection.address.url() << ": " << *why
                  << " (is 'vivaref serve' running there? --url or --config name another)\n";
        return kExitUsage;
    }
    const auto& answer = std::get<DaemonAnswer>(result);
    const std::string code = textOf(answer.body, "error");
    if (answer.status >= 200 && answer.status < 300 && answer.body.is_object()) return answer.body;
    if (code.empty()) {
        std::cerr << who << "the server at " << connection.address.url() << " answered HTTP " << answer.status
                  << " without vivaref's JSON: is it 'vivaref serve'?\n";
        return kExitUsage;
    }
    std::cerr << who << "refused: " << code << ": " << textOf(answer.body, "message") << "\n";
    if (code == "host-credential")
        std::cerr << who
                  << (connection.hostToken.empty() ? "this daemon wants the host token: give it with "
                                                   : "the host token given is not this daemon's: check ")
                  << "--host-token, $" << kTokenVariable
                  << " or the host_token of --config FILE ('vivaref host-link' prints the host's secret)\n";
    return kExitRefused;
}

json withPlayerLinks(const HostConnection& connection, json answer) {
    if (!answer.contains("players") || !answer["players"].is_array()) return answer;
    for (auto& player : answer["players"])
        if (player.is_object() && player.contains("path") && player["path"].is_string())
            player["url"] = connection.address.url() + player["path"].get<std::string>();
    return answer;
}

void printPlayerLinks(std::ostream& out, const HostConnection& connection, const json& answer) {
    const json players = withPlayerLinks(connection, answer).value("players", json::array());
    std::size_t width = 0;
    for (const auto& p : players) width = std::max(width, characterCount(textOf(p, "name")));
    out << "Game " << answer.value("game", json()).dump() << ": each player opens their own link (it shows "
        << "their secret cards; give it to them alone):\n";
    for (const auto& p : players) {
        const auto seat = p.value("seat", json());
        const std::string name = textOf(p, "name");
        // A seat the referee plays has no link: its cards are nobody's to see.
        const bool bot = p.contains("bot") && p["bot"].is_string();
        out << "  seat " << (seat.is_number_integer() ? std::to_string(seat.get<int>() + 1) : "?") << "  "
            << paddedName(name, width) << "  "
            << (bot ? std::string("played by the referee (a bot): no link") : textOf(p, "url")) << "\n";
    }
    const std::string base = connection.address.url();
    out << "The table's page: " << base << "/   the host's page: " << base << "/host.html\n";
}

}  // namespace vivaref::daemon
