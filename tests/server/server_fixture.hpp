// A WebServer over a FakeService on 127.0.0.1 and an ephemeral port, its
// event loop on a thread of its own; tests talk to it through real sockets
// from the test's thread and touch the fake only on the loop (onLoop).
#pragma once

#include <chrono>
#include <functional>
#include <future>
#include <thread>

#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <doctest/doctest.h>

#include "daemon/server/web_server.hpp"
#include "fake_service.hpp"

namespace vivaref::server::testing {

class ServerFixture {
public:
    explicit ServerFixture(ServerLimits limits = {}, RouterOptions router = {},
                           std::filesystem::path webRoot = {}, TrustedProxies proxies = {})
        : work_(boost::asio::make_work_guard(io_)) {
        WebServerOptions options;
        options.limits = limits;
        options.router = std::move(router);
        options.proxies = std::move(proxies);
        options.webRoot = webRoot.empty() ? std::filesystem::path("/nonexistent/vivaref-web-ui") : webRoot;
        web_ = std::make_unique<WebServer>(io_, fake, std::move(options));
        web_->listen({boost::asio::ip::make_address("127.0.0.1"), 0});
        port = web_->localEndpoint().port();
        thread_ = std::thread([this] { io_.run(); });
    }
    // Runs `f` on the loop and waits for it (at most 5 s).
    template <class F>
    auto onLoop(F f) {
        std::packaged_task<decltype(f())()> task(std::move(f));
        auto result = task.get_future();
        boost::asio::post(io_, [&task] { task(); });
        REQUIRE(result.wait_for(std::chrono::seconds(5)) == std::future_status::ready);
        return result.get();
    }

    ~ServerFixture() {
        onLoop([this] { web_->stop(); });
        work_.reset();
        io_.stop();
        thread_.join();
    }

    ServerCounters counters() {
        return onLoop([this] { return web_->http().counters(); });
    }
    std::size_t connections() {
        return onLoop([this] { return web_->http().connections(); });
    }

    FakeService fake;
    std::uint16_t port = 0;

private:
    boost::asio::io_context io_;
    boost::asio::executor_work_guard<boost::asio::io_context::executor_type> work_;
    std::unique_ptr<WebServer> web_;
    std::thread thread_;
};

}  // namespace vivaref::server::testing
