// The web side of `vivaref serve` in one object: the routes over a
// RefereeService, the web page's files, the event streams and the HTTP
// server, wired so that every change the service reports is pushed to the
// open pages at once (the "status" event, and "sim" on the simulated castle).
#pragma once

#include <filesystem>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>

#include "daemon/server/api_router.hpp"
#include "daemon/server/event_hub.hpp"
#include "daemon/server/http_server.hpp"
#include "daemon/server/referee_service.hpp"
#include "daemon/server/server_limits.hpp"
#include "daemon/server/static_files.hpp"
#include "daemon/server/trusted_proxies.hpp"

namespace vivaref::server {

struct WebServerOptions {
    ServerLimits limits;
    RouterOptions router;
    // `[daemon] trusted_proxies`: whose X-Forwarded-For names the client.
    TrustedProxies proxies;
    std::filesystem::path webRoot = defaultWebRoot();
};

class WebServer {
public:
    WebServer(boost::asio::io_context& io, RefereeService& service, WebServerOptions options);
    ~WebServer();

    void listen(const boost::asio::ip::tcp::endpoint& endpoint) { http_.listen(endpoint); }
    boost::asio::ip::tcp::endpoint localEndpoint() const { return http_.localEndpoint(); }
    void stop() { http_.stop(); }

    // Pushes the service's current state to the event streams (what the
    // service's change listener does).
    void publish();

    const StaticFiles& files() const { return files_; }
    HttpServer& http() { return http_; }
    EventHub& hub() { return hub_; }

private:
    RefereeService& service_;
    StaticFiles files_;
    ApiRouter router_;
    EventHub hub_;
    HttpServer http_;
    int listener_ = 0;
};

}  // namespace vivaref::server
