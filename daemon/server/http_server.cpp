#include "daemon/server/http_server.hpp"

#include <cerrno>
#include <charconv>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <system_error>

#include "daemon/server/http_session.hpp"

namespace vivaref::server {

namespace net = boost::asio;
using boost::system::error_code;
using net::ip::tcp;

namespace {
// Accepting has worked this long with no failure: the episode is over.
constexpr auto kAcceptQuiet = std::chrono::seconds(2);
}  // namespace

HttpServer::HttpServer(net::io_context& io, ApiRouter& router, EventHub& hub, ServerLimits limits,
                       TrustedProxies proxies)
    : io_(io),
      acceptor_(io),
      retryTimer_(io),
      keepAliveTimer_(io),
      context_(std::make_shared<SessionContext>(router, hub, limits, std::move(proxies))) {}

HttpServer::~HttpServer() { stop(); }

void HttpServer::listen(const tcp::endpoint& endpoint) {
    auto fail = [&](const error_code& error, const char* what) {
        std::ostringstream where;
        where << endpoint;
        throw std::system_error(error, std::string("cannot ") + what + " the web server on " + where.str());
    };
    error_code error;
    acceptor_.open(endpoint.protocol(), error);
    if (error) fail(error, "open");
    acceptor_.set_option(tcp::acceptor::reuse_address(true), error);
    acceptor_.bind(endpoint, error);
    if (error) fail(error, "bind");
    acceptor_.listen(net::socket_base::max_listen_connections, error);
    if (error) fail(error, "listen with");
    stopped_ = false;
    accept();
    keepAlive();
}

tcp::endpoint HttpServer::localEndpoint() const { return acceptor_.local_endpoint(); }

std::size_t HttpServer::connections() const {
    std::size_t open = 0;
    for (const auto* s : context_->sessions) open += s->open() ? 1 : 0;
    return open;
}

const ServerCounters& HttpServer::counters() const { return context_->counters; }

void HttpServer::stop() {
    stopped_ = true;
    error_code ignored;
    acceptor_.close(ignored);
    retryTimer_.cancel();
    keepAliveTimer_.cancel();
    // close() does not erase; copy anyway, a session may go away meanwhile.
    const auto sessions = context_->sessions;
    for (auto* s : sessions) s->close();
}

std::vector<ConnectionView> HttpServer::views(std::vector<HttpSession*>& sessions) const {
    std::vector<ConnectionView> out;
    for (auto* s : context_->sessions)
        if (s->open()) {
            sessions.push_back(s);
            out.push_back(s->view());
        }
    return out;
}

void HttpServer::evict(HttpSession* session) {
    session->close();
    ++context_->counters.evicted;
}

// A connection from `client` may come in when this returns true (having
// closed another to make room when needed: client_limits.hpp).
bool HttpServer::makeRoom(const net::ip::address& client, bool trusted) {
    std::vector<HttpSession*> sessions;
    const auto open = views(sessions);
    // A proxy's connections are counted under their clients once their
    // request arrives; until then they have only the server's cap.
    const bool proxy = context_->proxies.contains(client);
    const auto admission =
        admit(open, client, trusted, context_->limits.maxConnections,
              proxy ? context_->limits.maxConnections : context_->limits.maxConnectionsPerClient);
    if (admission.kind == Admission::Kind::Refuse) return false;
    if (admission.kind == Admission::Kind::Evict) evict(sessions[admission.victim]);
    return true;
}

// Out of file descriptors (or the kernel's connection memory): accepting
// again in a moment, doubling the wait up to a second while failures follow
// each other; one line in the log when an episode starts and one when it
// is over (kAcceptQuiet without a failure), not one per failure.
// Meanwhile the most idle untrusted connection is closed at each try, so a
// flood cannot keep the descriptors the host and the table need.
void HttpServer::acceptFailed(const error_code& error) {
    ++context_->counters.acceptFailures;
    lastFailure_ = std::chrono::steady_clock::now();
    if (episodeFailures_++ == 0)
        std::cerr << "vivaref serve: accepting connections failed: " << error.message()
                  << "; trying again with a growing pause (logged once until it recovers)\n";
    acceptPause_ = failedInRow_++ == 0
                       ? std::chrono::milliseconds(10)
                       : std::min<std::chrono::milliseconds>(acceptPause_ * 2, std::chrono::seconds(1));
    if (error == net::error::no_descriptors || error.value() == ENFILE ||
        error == net::error::no_buffer_space || error == net::error::no_memory) {
        std::vector<HttpSession*> sessions;
        if (auto victim = mostIdle(views(sessions))) evict(sessions[*victim]);
    }
    retryTimer_.expires_after(acceptPause_);
    retryTimer_.async_wait([this](error_code e) {
        if (!e && !stopped_) accept();
    });
}

void HttpServer::accept() {
    acceptor_.async_accept([this](error_code error, tcp::socket socket) {
        if (stopped_ || error == net::error::operation_aborted) return;
        if (error) return acceptFailed(error);
        failedInRow_ = 0;
        if (episodeFailures_ > 0 && std::chrono::steady_clock::now() - lastFailure_ >= kAcceptQuiet) {
            std::cerr << "vivaref serve: accepting connections again after " << episodeFailures_
                      << " failed attempts\n";
            episodeFailures_ = 0;
        }
        ++context_->counters.accepted;
        error_code peerError;
        const auto peer = socket.remote_endpoint(peerError);
        const auto self = socket.local_endpoint(peerError);
        if (peerError) {  // gone already
            socket.close(peerError);
            return accept();
        }
        const auto client = clientOf(peer.address());
        // The machine itself (a kiosk on the castle's computer) reaches the
        // address it connects from; the host's device showed the secret. A
        // reverse proxy on the machine is neither: it brings everyone.
        const bool trusted = !context_->proxies.contains(client) &&
                             (client == clientOf(self.address()) || context_->trusted.contains(client));
        if (!makeRoom(client, trusted)) {
            ++context_->counters.refused;
            error_code ignored;
            socket.close(ignored);
        } else {
            std::make_shared<HttpSession>(std::move(socket), context_, client, trusted)->start();
        }
        accept();
    });
}

void HttpServer::keepAlive() {
    keepAliveTimer_.expires_after(context_->limits.keepAliveInterval);
    keepAliveTimer_.async_wait([this](error_code error) {
        if (error || stopped_) return;
        context_->hub.keepAlive();
        keepAlive();
    });
}

tcp::endpoint parseListenAddress(const std::string& text) {
    auto bad = [&](const std::string& why) {
        return std::invalid_argument("the listen address '" + text + "' " + why +
                                     " (examples: 127.0.0.1:8080, 0.0.0.0:0, [::1]:8080)");
    };
    std::string host;
    std::string port;
    if (!text.empty() && text.front() == '[') {
        const auto close = text.find(']');
        if (close == std::string::npos || close + 1 >= text.size() || text[close + 1] != ':')
            throw bad("has no ]:PORT after the IPv6 address");
        host = text.substr(1, close - 1);
        port = text.substr(close + 2);
    } else {
        const auto colon = text.rfind(':');
        if (colon == std::string::npos) throw bad("has no :PORT");
        host = text.substr(0, colon);
        port = text.substr(colon + 1);
        if (host.find(':') != std::string::npos) throw bad("needs [brackets] around an IPv6 address");
    }
    unsigned value = 0;
    auto [end, ec] = std::from_chars(port.data(), port.data() + port.size(), value);
    if (port.empty() || ec != std::errc() || end != port.data() + port.size() || value > 65535)
        throw bad("has a port that is not a number from 0 to 65535");
    error_code error;
    const auto address = net::ip::make_address(host, error);
    if (error) throw bad("has a host that is not an IP address");
    return {address, static_cast<unsigned short>(value)};
}

}  // namespace vivaref::server
