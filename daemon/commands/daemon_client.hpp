// The commands' way to talk to a running `vivaref serve` (`vivaref new`,
// `vivaref host`): one HTTP request per connection, sent and read with
// Boost.Beast, where connecting and getting the whole answer are each
// bounded by a timeout. A daemon that is down, stuck or not vivaref gives a
// sentence naming its address, never a hang.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include <nlohmann/json.hpp>

namespace vivaref::daemon {

// Where the daemon listens: a host name or IP address (IPv6 without
// brackets) and a port.
struct DaemonAddress {
    std::string host;
    std::uint16_t port = 8080;

    // "http://HOST:PORT" ("http://[::1]:8080" for IPv6), without a trailing slash.
    std::string url() const;
};

// "http://HOST:PORT", "http://HOST" (port 80), optionally ending in "/".
// Throws std::invalid_argument saying what is wrong with `text`.
DaemonAddress parseDaemonUrl(std::string_view text);

// The address a configuration's [daemon] http_address and http_port give.
// A daemon listening on every interface (0.0.0.0, ::) is reached through
// the loopback of this machine.
DaemonAddress daemonAddressOnThisMachine(const std::string& httpAddress, std::uint16_t port);

struct DaemonRequest {
    bool post = false;                          // POST with a JSON body, else GET
    std::string target;                         // "/api/host/new-game"
    nlohmann::json body;                        // sent when `post`
    std::string bearerToken;                    // empty: no Authorization header
    std::chrono::milliseconds timeout{10'000};  // for the connection, then again for the answer
};

struct DaemonAnswer {
    int status = 0;       // the HTTP status
    nlohmann::json body;  // is_discarded() when the answer is not JSON
};

// The daemon's answer, or why there is none: a sentence such as
// "Connection refused" or "no answer within 10 s" (the caller names the
// address). Never throws but std::bad_alloc.
std::variant<DaemonAnswer, std::string> askDaemon(const DaemonAddress& address, const DaemonRequest& request);

}  // namespace vivaref::daemon
