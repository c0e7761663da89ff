#include "daemon/server/web_server.hpp"

namespace vivaref::server {

using nlohmann::json;

WebServer::WebServer(boost::asio::io_context& io, RefereeService& service, WebServerOptions options)
    : service_(service),
      files_(options.webRoot),
      router_(service, files_, options.router),
      hub_(options.limits.maxEventStreams),
      http_(io, router_, hub_, options.limits, std::move(options.proxies)) {
    listener_ = service_.onChange([this] { publish(); });
    publish();
}

WebServer::~WebServer() { service_.removeListener(listener_); }

void WebServer::publish() {
    hub_.publish("status", service_.publicStatus());
    hub_.publish("private", json{{"station_notices", service_.stationNotices()}});
    if (json spoken = service_.spoken(); !spoken.is_null()) hub_.publish("spoken", spoken);
    if (service_.simulated()) {
        // Without the clock, a frame changes only when the board or an LED does.
        json sim = service_.simState();
        if (sim.is_object()) sim.erase("now");
        hub_.publish("sim", sim);
    }
}

}  // namespace vivaref::server
