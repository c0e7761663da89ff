// Who makes room when the connections run out: the policy of the HTTP
// server's connection limits, apart from the sockets so that it can be
// tested alone. A client is a source address. Each client may hold a few
// connections (the per-client cap); the server as a whole a few more (the
// total cap). A newcomer over its own cap replaces its own most idle
// connection; a newcomer finding the server full takes the place of the
// most idle connection of the client holding the most. The host's device
// (an address that showed the host's secret) and the machine itself (a
// connection from the address it reached) are trusted: they have no
// per-client cap and lose a connection only to another trusted newcomer.
// "Most idle": a connection lingering after an error answer, then one
// waiting for a request or writing an answer the client does not take,
// whichever made progress longest ago, then an event stream.
#pragma once

#include <chrono>
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <boost/asio/ip/address.hpp>

namespace vivaref::server {

// What a connection is doing, as the eviction policy sees it (in the order
// of which goes first).
enum class Activity { Lingering, Idle, Streaming };

struct ConnectionView {
    boost::asio::ip::address client;
    bool trusted = false;
    Activity activity = Activity::Idle;
    // Its last sign of life: the end of its last answer (waiting for a
    // request), the last bytes the client took (writing), its start (a stream).
    std::chrono::steady_clock::time_point since;
};

struct Admission {
    enum class Kind { Admit, Evict, Refuse } kind = Kind::Admit;
    std::size_t victim = 0;  // index into the connections, for Evict
};

// Whether a connection from `client` may come in among `open`, and whom it replaces.
Admission admit(const std::vector<ConnectionView>& open, const boost::asio::ip::address& client, bool trusted,
                std::size_t maxConnections, std::size_t maxPerClient);

// The connection to close when nothing may be opened at all (the process is
// out of file descriptors): the most idle untrusted one, else none.
std::optional<std::size_t> mostIdle(const std::vector<ConnectionView>& open);

// An IPv4 address mapped into IPv6 (a dual-stack listener) as IPv4, so a
// client is one client whichever way it came.
boost::asio::ip::address clientOf(const boost::asio::ip::address& address);

// How fast each untrusted client is served: a bucket of `burst` requests
// per address, refilled at `perSecond`; a request costs one, and one more
// per 64 KiB of its answer (an archive costs ~4). A client that has used
// its bucket waits (its next request is answered later, never refused), so
// a client asking in loops gets its share and no more, and the others'
// requests do not queue behind its answers.
class RequestRates {
public:
    using Clock = std::chrono::steady_clock;
    explicit RequestRates(double perSecond = 20, double burst = 40) : perSecond_(perSecond), burst_(burst) {}
    // How long the client's next request must wait (zero: answer now); takes its cost.
    Clock::duration take(const boost::asio::ip::address& client, Clock::time_point now);
    // Charges the answer's size once known.
    void charge(const boost::asio::ip::address& client, std::size_t answerBytes);

private:
    struct Bucket {
        double level;
        Clock::time_point at;
    };
    double perSecond_;
    double burst_;
    std::map<boost::asio::ip::address, Bucket> buckets_;
};

// Addresses that showed the host's secret lately (the last few), trusted
// for the connections they open next.
class TrustedClients {
public:
    explicit TrustedClients(std::size_t keep = 8) : keep_(keep) {}
    void add(const boost::asio::ip::address& client);
    bool contains(const boost::asio::ip::address& client) const;

private:
    std::size_t keep_;
    std::vector<boost::asio::ip::address> recent_;  // newest last
};

}  // namespace vivaref::server
