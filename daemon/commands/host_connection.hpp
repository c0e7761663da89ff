// What `vivaref new` and `vivaref host` share: the options saying where the
// running daemon is and what the host's token is, one request to it with
// every failure reported the same way, and the players' links printed.
//
// Exit statuses: 0 the daemon did it; 1 the daemon answered with a refusal
// (its code and sentence are printed); 2 a bad command line, an unusable
// configuration, or no daemon answering at the address.
#pragma once

#include <chrono>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include <nlohmann/json.hpp>

#include "daemon/commands/command_line.hpp"
#include "daemon/commands/daemon_client.hpp"

namespace vivaref::daemon {

// The options as given; addTo() registers them on a command line.
struct HostConnectionOptions {
    std::string url;
    std::string configFile;
    std::string hostToken;
    unsigned timeoutSeconds = 10;

    void addTo(CommandLine& line);
};

// The help text's paragraph on where the daemon is and the host token.
extern const char* const kHostConnectionHelp;

struct HostConnection {
    std::string command;  // "new": named in every message
    DaemonAddress address;
    std::string hostToken;
    std::chrono::milliseconds timeout{10'000};
};

// The daemon's address and the token: --url, else the configuration's
// [daemon] http_address and http_port, else 127.0.0.1:8080; --host-token,
// else $VIVAREF_HOST_TOKEN, else the configuration's host_token. A bad
// --url or configuration is printed on stderr and gives exit status 2.
std::variant<HostConnection, int> openHostConnection(std::string_view command,
                                                     const HostConnectionOptions& options);

// POSTs `body` to `target` (a GET without a body), and gives the answer of a
// daemon that did it; otherwise prints why on stderr and gives the exit status.
std::variant<nlohmann::json, int> sendHostRequest(const HostConnection& connection, const std::string& target,
                                                  const std::optional<nlohmann::json>& body);

// A /api/host/players answer ({"game", "players": [{"player", "seat",
// "name", "path", ...}]}) with each player's "url": the daemon's address
// joined to the player's path.
nlohmann::json withPlayerLinks(const HostConnection& connection, nlohmann::json answer);

// The game and each player's seat (from 1, as the pages show seats), name
// and link, one player a line; then the table's and the host's pages.
void printPlayerLinks(std::ostream& out, const HostConnection& connection, const nlohmann::json& answer);

}  // namespace vivaref::daemon
