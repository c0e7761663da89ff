// `vivaref host REQUEST [BODY]`: the host's other requests to the running
// daemon from the command line (web-ui/API.md, "The host"): undo, pause,
// resume, abandon, the chance the table drew (deal, reshuffle), an Ambition
// kept, the physical cards revealed, and the players' links again. The
// request's name and body go to the daemon as given: it says what it takes.
#include <iostream>

#include <nlohmann/json.hpp>

#include "daemon/commands/command.hpp"
#include "daemon/commands/command_line.hpp"
#include "daemon/commands/host_connection.hpp"

namespace vivaref::daemon {

namespace po = boost::program_options;
using nlohmann::json;

namespace {

constexpr std::string_view kHostCommand = "host";

// A request's name is one segment of /api/host/NAME.
bool isRequestName(const std::string& name) {
    return !name.empty() && name.size() <= 32 &&
           name.find_first_not_of("abcdefghijklmnopqrstuvwxyz-") == std::string::npos;
}

}  // namespace

int runHost(const std::vector<std::string>& args) {
    std::string request, bodyText;
    bool printJson = false;
    HostConnectionOptions connectionOptions;
    const std::string about =
        std::string(
            "Sends one of the host's requests to the running referee daemon ('vivaref serve'), as the\n"
            "host's page does. REQUEST is one of:\n"
            "  undo, pause, resume, abandon   (no BODY)\n"
            "  deal, reshuffle, keep          BODY: a GAME-RECORD deal, reshuffle or keep object\n"
            "  reveal                         BODY: the physical cards shown at a coronation\n"
            "                                 ({\"round\", \"favourites\", \"banished\", \"ambitions\"})\n"
            "  seat                           BODY: how a seat plays from now on ({\"seat\", \"votes\",\n"
            "                                 \"remote\", \"bot\", \"until\"}: web-ui/API.md)\n"
            "  players                        prints the current game's players' links again\n"
            "BODY is JSON text, or - to read it from standard input. The daemon judges it: what it\n"
            "refuses is printed with its code and sentence.\n\n") +
        kHostConnectionHelp +
        "\n\n"
        "Exit status: 0 done; 1 the daemon refused; 2 a bad command line or configuration, or no\n"
        "daemon answering.\n\n"
        "Examples:\n"
        "  vivaref host undo\n"
        "  vivaref host keep '{\"player\": 0, \"ambition\": \"jester-king\"}' --config castle.ini\n"
        "  vivaref host seat '{\"seat\": 1, \"bot\": \"good\", \"until\": \"round\"}'\n"
        "  vivaref host players --url http://castle.local:8080";
    CommandLine line("host", "vivaref host REQUEST [BODY] [options]", about);
    line.visible.add_options()("json", po::bool_switch(&printJson), "print the daemon's answer as JSON");
    connectionOptions.addTo(line);
    line.hidden.add_options()("request", po::value(&request), "the request")("body", po::value(&bodyText),
                                                                             "its JSON body");
    line.positional.add("request", 1).add("body", 1);
    po::variables_map vm;
    if (auto stop = parseCommandLine(line, args, vm)) return *stop;
    if (request.empty())
        return usageError(kHostCommand, "name the REQUEST: undo, pause, resume, abandon, players, ...");
    if (!isRequestName(request))
        return usageError(kHostCommand,
                          "'" + request + "' is not a request's name (lowercase letters and '-')");

    std::optional<json> body = json::object();
    if (request == "players") {
        if (vm.count("body")) return usageError(kHostCommand, "players takes no BODY");
        body.reset();  // a GET
    } else if (vm.count("body")) {
        if (bodyText == "-") {
            std::string why;
            auto text = readInputFile("-", why);
            if (!text) return usageError(kHostCommand, why);
            bodyText = std::move(*text);
        }
        body = json::parse(bodyText, nullptr, false);
        if (body->is_discarded()) return usageError(kHostCommand, "BODY is not JSON: '" + bodyText + "'");
    }

    auto connection = openHostConnection(kHostCommand, connectionOptions);
    if (const int* status = std::get_if<int>(&connection)) return *status;
    const auto& daemon = std::get<HostConnection>(connection);
    auto answer = sendHostRequest(daemon, "/api/host/" + request, body);
    if (const int* status = std::get_if<int>(&answer)) return *status;
    const json& out = std::get<json>(answer);
    if (printJson)
        std::cout << (request == "players" ? withPlayerLinks(daemon, out) : out).dump() << "\n";
    else if (request == "players")
        printPlayerLinks(std::cout, daemon, out);
    else
        std::cout << request << ": done" << (out.contains("game") ? " (game " + out["game"].dump() + ")" : "")
                  << "\n";
    return kExitOk;
}

}  // namespace vivaref::daemon
