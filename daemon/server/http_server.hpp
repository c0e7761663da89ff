// The HTTP server on the daemon's one event loop: accepts connections on one
// address, hands each to an HttpSession, keeps the count under the limits
// (in all and per client: when full, the most idle connection is closed to
// make room, client_limits.hpp; event streams have their own cap), backs
// off when accepting fails (out of file descriptors) and sends the event
// streams' keep-alive comments. A trusted reverse proxy's connections are
// counted as their requests' forwarded clients' (http_session.hpp). Nothing
// here blocks.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>

#include "daemon/server/api_router.hpp"
#include "daemon/server/client_limits.hpp"
#include "daemon/server/event_hub.hpp"
#include "daemon/server/server_limits.hpp"
#include "daemon/server/trusted_proxies.hpp"

namespace vivaref::server {

struct SessionContext;
class HttpSession;

class HttpServer {
public:
    // `proxies`: the reverse proxies whose X-Forwarded-For names each
    // request's client (trusted_proxies.hpp); none by default.
    HttpServer(boost::asio::io_context& io, ApiRouter& router, EventHub& hub, ServerLimits limits = {},
               TrustedProxies proxies = {});
    ~HttpServer();
    HttpServer(const HttpServer&) = delete;
    HttpServer& operator=(const HttpServer&) = delete;

    // Binds and starts accepting. Throws std::system_error naming the
    // address when it cannot (in use, no such address, no permission).
    void listen(const boost::asio::ip::tcp::endpoint& endpoint);
    // The bound address (the port the kernel chose for port 0).
    boost::asio::ip::tcp::endpoint localEndpoint() const;
    // Stops accepting and closes every connection.
    void stop();

    std::size_t connections() const;
    const ServerCounters& counters() const;

private:
    void accept();
    void keepAlive();
    bool makeRoom(const boost::asio::ip::address& client, bool trusted);
    void acceptFailed(const boost::system::error_code& error);
    std::vector<ConnectionView> views(std::vector<HttpSession*>& sessions) const;
    void evict(HttpSession* session);

    boost::asio::io_context& io_;
    boost::asio::ip::tcp::acceptor acceptor_;
    boost::asio::steady_timer retryTimer_;
    boost::asio::steady_timer keepAliveTimer_;
    std::shared_ptr<SessionContext> context_;
    bool stopped_ = false;
    std::size_t failedInRow_ = 0;  // accept() failures since the last success: the pause
    std::chrono::milliseconds acceptPause_{10};
    // One episode of failures, for the log: from the first failure until
    // accepting has worked for kAcceptQuiet with no failure (while
    // descriptors run out, each eviction lets one accept through between
    // failures: that is still the same episode).
    std::size_t episodeFailures_ = 0;
    std::chrono::steady_clock::time_point lastFailure_{};
};

// "127.0.0.1:8080", "0.0.0.0:0", "[::1]:8080", "[::]:80" -> an endpoint;
// throws std::invalid_argument with a sentence when it is none.
boost::asio::ip::tcp::endpoint parseListenAddress(const std::string& text);

}  // namespace vivaref::server
