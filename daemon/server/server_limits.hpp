// What one client may cost the daemon. The referee shares its thread with
// the server, so no client may hold it: every read and write has a deadline,
// sizes are capped, and the connection count is bounded, in all and for
// each client (when full, the most idle connection makes room:
// client_limits.hpp).
#pragma once

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>

namespace vivaref::server {

struct ServerLimits {
    std::size_t maxHeaderBytes = 8 * 1024;  // 431 beyond
    std::size_t maxBodyBytes = 64 * 1024;   // 413 beyond (a new-game setup is well under 4 KiB)
    std::size_t maxConnections = 128;       // open at once, event streams included
    std::size_t maxEventStreams = 64;       // GET /api/events at once (503 beyond)
    // Open at once from one address (client_limits.hpp): a phone's browser
    // opens 6 per site and its pages' event streams; the host's device and
    // the machine itself have no cap of their own.
    std::size_t maxConnectionsPerClient = 24;
    // A whole request must arrive within this, and a kept-alive connection
    // is closed after this long without one (slow clients are dropped).
    std::chrono::milliseconds requestTimeout{10'000};
    // An answer or an event must be taken by the client within this.
    std::chrono::milliseconds writeTimeout{10'000};
    // ... and an answer the client stops taking (no byte taken for this
    // long) is dropped sooner.
    std::chrono::milliseconds stallTimeout{2'000};
    // An event stream gets a comment this often, to find dead peers.
    std::chrono::milliseconds keepAliveInterval{15'000};
    // After an error answer, the rest of the request is read and dropped for
    // at most this long and this much, so the client reads the answer
    // instead of a reset.
    std::chrono::milliseconds lingerTimeout{1'000};
    std::size_t lingerBytes = 1 << 20;
};

// Descriptors left for everything but the clients: the game log (SQLite
// opens its write-ahead log and temporary files as it needs them), the web
// pages' files, the castle's devices and the loop's own. A daemon whose
// clients took every descriptor would fail to save the game.
inline constexpr std::size_t kDescriptorsKept = 32;

// `limits` with the connection caps lowered, when the process may open only
// `descriptorLimit` files (RLIMIT_NOFILE), so that connections leave
// kDescriptorsKept free (and at least 4 connections).
inline ServerLimits withinDescriptors(ServerLimits limits, std::size_t descriptorLimit) {
    const std::size_t forClients =
        descriptorLimit > kDescriptorsKept + 4 ? descriptorLimit - kDescriptorsKept : 4;
    limits.maxConnections = std::min(limits.maxConnections, forClients);
    limits.maxEventStreams = std::min(limits.maxEventStreams, limits.maxConnections);
    limits.maxConnectionsPerClient = std::min(limits.maxConnectionsPerClient, limits.maxConnections);
    return limits;
}

struct ServerCounters {
    std::uint64_t accepted = 0;
    std::uint64_t requests = 0;
    std::uint64_t badRequests = 0;     // unreadable requests answered 4xx
    std::uint64_t timedOut = 0;        // dropped for being too slow
    std::uint64_t evicted = 0;         // closed to make room for a new connection
    std::uint64_t refused = 0;         // closed at once: no room at all
    std::uint64_t stalled = 0;         // answers the client stopped taking (dropped)
    std::uint64_t acceptFailures = 0;  // accept() failed (out of file descriptors and the like)
};

}  // namespace vivaref::server
