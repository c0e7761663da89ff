// One client connection: reads requests (each within the request deadline,
// with the header and body limits), answers each through the router, and
// turns into an event stream on GET /api/events. An unreadable request
// (too large, malformed, a bad method, a folded header line) gets a 4xx
// JSON answer and the connection is closed; a request still unfinished at
// the deadline gets 408; a client too slow to read is dropped. A connection
// from a trusted reverse proxy (trusted_proxies.hpp) is each request's
// forwarded client's, for the limits and the throttle alike.
// Failures never leave the session: they end it.
#pragma once

#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include "daemon/server/api_router.hpp"
#include "daemon/server/client_limits.hpp"
#include "daemon/server/event_hub.hpp"
#include "daemon/server/server_limits.hpp"
#include "daemon/server/trusted_proxies.hpp"

namespace vivaref::server {

class HttpSession;

// What the server and its sessions share. Sessions hold it, so a session
// destroyed after the server (when the loop is torn down) is still safe.
struct SessionContext {
    SessionContext(ApiRouter& r, EventHub& h, ServerLimits l, TrustedProxies p = {})
        : router(r), hub(h), limits(l), proxies(std::move(p)) {}
    ApiRouter& router;
    EventHub& hub;
    ServerLimits limits;
    TrustedProxies proxies;  // peers whose X-Forwarded-For names the client
    std::set<HttpSession*> sessions;
    std::size_t eventStreams = 0;
    ServerCounters counters;
    TrustedClients trusted;   // addresses that showed the host's secret
    RequestRates rates;       // untrusted clients' pace
    std::uint64_t paced = 0;  // requests answered later for their client's pace
};

class HttpSession final : public EventSubscriber, public std::enable_shared_from_this<HttpSession> {
public:
    // `client`: the peer's address (clientOf); `trusted`: the host's device
    // or the machine itself (client_limits.hpp). A peer that is a trusted
    // proxy: each request's client is taken from its X-Forwarded-For.
    HttpSession(boost::asio::ip::tcp::socket socket, std::shared_ptr<SessionContext> context,
                boost::asio::ip::address client, bool trusted);
    ~HttpSession() override;

    void start();
    // Ends the connection now (the server stops, or needs the room).
    void close();
    // What it is doing, for the connection limits (client_limits.hpp).
    ConnectionView view() const;
    bool open() const { return state_ != State::Closed; }

    void deliver(const std::string& kind, const std::string& frame) override;

private:
    enum class State { Reading, Writing, Streaming, Lingering, Closed };

    void readRequest();
    void readHeaderBytes();
    void parseHeader();
    void onHeader(boost::beast::error_code error);
    void adoptForwardedClient(const Request& request);
    void onRead(boost::beast::error_code error);
    void answer();
    void refuseUnreadable(boost::beast::error_code error);
    void write(Response response, bool thenLinger);
    void writeSome(bool keepAlive, bool thenLinger);
    void onWritten(boost::beast::error_code error, bool keepAlive, bool thenLinger);
    void noteHost(const Request& request, const Response& response);
    void startEventStream(const Request& request);
    void writeEvents();
    void watchPeer();
    void linger();

    boost::beast::tcp_stream stream_;
    std::shared_ptr<SessionContext> context_;
    boost::beast::flat_buffer buffer_;
    std::optional<http::request_parser<http::string_body>> parser_;
    std::optional<Response> response_;
    std::optional<http::response_serializer<http::string_body>> serializer_;
    State state_ = State::Reading;
    boost::asio::ip::address client_;
    bool trusted_ = false;
    bool viaProxy_ = false;  // the peer is a trusted proxy: client_ is each request's forwarded client
    boost::asio::ip::address peer_;
    // The request deadline (its own timer: the stream's would close the
    // socket, leaving no way to answer 408); set when it passed.
    boost::asio::steady_timer requestTimer_;
    bool readTimedOut_ = false;
    std::size_t headerScanned_ = 0;  // bytes of buffer_ looked at for the header's end
    // Its last sign of life (see ConnectionView::since), and when the answer
    // being written began (the whole answer's deadline runs from there).
    std::chrono::steady_clock::time_point since_;
    std::chrono::steady_clock::time_point writeStarted_;
    // Event stream: frames not written yet, the latest of each kind.
    std::map<std::string, std::string> pending_;
    std::string outgoing_;
    bool writingEvents_ = false;
    std::array<char, 512> scratch_{};
    std::size_t lingered_ = 0;
    boost::asio::steady_timer lingerTimer_;
};

}  // namespace vivaref::server
