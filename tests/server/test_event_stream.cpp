// GET /api/events: server-sent events carry each change to every open page
// at once; the latest state of each kind is sent first; streams are capped.
#include <doctest/doctest.h>

#include "daemon/server/event_hub.hpp"
#include "server_fixture.hpp"
#include "test_client.hpp"

using namespace vivaref::server;
using namespace vivaref::server::testing;
using nlohmann::json;
using Clock = std::chrono::steady_clock;

namespace {

struct RecordingSubscriber final : EventSubscriber {
    std::vector<std::pair<std::string, std::string>> frames;
    void deliver(const std::string& kind, const std::string& frame) override {
        frames.emplace_back(kind, frame);
    }
};

TestConnection openStream(std::uint16_t port) {
    TestConnection c(port);
    REQUIRE(c.connected());
    REQUIRE(c.send(request("GET", "/api/events")));
    bool found = false;
    const auto head = c.readUntil("\r\n\r\n", 5000ms, found);
    REQUIRE(found);
    CHECK(head.starts_with("HTTP/1.1 200"));
    CHECK(head.find("Content-Type: text/event-stream") != std::string::npos);
    return c;
}

}  // namespace

TEST_CASE("the hub: one frame per change, the latest to newcomers, nothing for an unchanged state") {
    EventHub hub(2);
    auto a = std::make_shared<RecordingSubscriber>();
    hub.publish("status", {{"v", 1}});
    REQUIRE(hub.subscribe(a));
    REQUIRE(a->frames.size() == 1);
    CHECK(a->frames[0].second == "event: status\ndata: {\"v\":1}\n\n");
    hub.publish("status", {{"v", 1}});
    CHECK(a->frames.size() == 1);
    hub.publish("status", {{"v", 2}});
    hub.publish("sim", {{"leds", json::object()}});
    CHECK(a->frames.size() == 3);
    CHECK(a->frames[2].first == "sim");
    // A string with a newline stays on one data line (JSON escapes it).
    hub.publish("status", {{"text", "two\nlines"}});
    CHECK(a->frames.back().second == "event: status\ndata: {\"text\":\"two\\nlines\"}\n\n");

    auto b = std::make_shared<RecordingSubscriber>();
    auto c = std::make_shared<RecordingSubscriber>();
    REQUIRE(hub.subscribe(b));
    CHECK(b->frames.size() == 2);   // the latest status and sim
    CHECK_FALSE(hub.subscribe(c));  // full
    b.reset();                      // a closed page leaves by itself
    CHECK(hub.subscribe(c));
    hub.keepAlive();
    CHECK(a->frames.back().second == ": keep-alive\n\n");
    CHECK(hub.subscribers() == 2);
}

TEST_CASE("a change reaches an open page at once, in order") {
    ServerFixture server;
    auto stream = openStream(server.port);
    bool found = false;
    auto first = stream.readUntil("\n\n", 5000ms, found);
    REQUIRE(found);
    CHECK(first.find("retry: 1000") != std::string::npos);
    // The current state comes at once, the simulated castle's too.
    auto initial = stream.readUntil("\"version\":0}\n\n", 5000ms, found);
    REQUIRE(found);
    CHECK(initial.find("event: status") != std::string::npos);

    std::vector<double> latencies;
    for (int v = 1; v <= 20; ++v) {
        const auto start = Clock::now();
        server.onLoop([&] { server.fake.setStatus({{"phase", "placement"}, {"version", v}}); });
        auto text = stream.readUntil("\"version\":" + std::to_string(v) + "}\n\n", 5000ms, found);
        REQUIRE(found);
        latencies.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
        CHECK(text.find("event: status\ndata: {\"phase\":\"placement\"") != std::string::npos);
    }
    std::sort(latencies.begin(), latencies.end());
    // A figure, not a timed assertion: the push is made in the change's own
    // handler (no timer, no polling); the target is under 100 ms.
    MESSAGE("change -> page over SSE: median " << latencies[latencies.size() / 2] << " ms, max "
                                               << latencies.back() << " ms (20 changes)");
}

TEST_CASE("every open page gets the change; a page that leaves is forgotten") {
    ServerFixture server;
    std::vector<TestConnection> pages;
    for (int i = 0; i < 5; ++i) pages.push_back(openStream(server.port));
    server.onLoop([&] { server.fake.setStatus({{"phase", "election"}}); });
    for (auto& page : pages) {
        bool found = false;
        page.readUntil("\"phase\":\"election\"", 5000ms, found);
        CHECK(found);
    }
    pages.erase(pages.begin(), pages.begin() + 3);
    // The server notices the closed ones when it reads their end.
    server.onLoop([&] { server.fake.setStatus({{"phase", "scoring"}}); });
    for (auto& page : pages) {
        bool found = false;
        page.readUntil("\"phase\":\"scoring\"", 5000ms, found);
        CHECK(found);
    }
}

TEST_CASE("event streams are capped; keep-alive comments flow; stopping the server ends them") {
    ServerLimits limits;
    limits.maxEventStreams = 2;
    limits.keepAliveInterval = 100ms;
    auto server = std::make_unique<ServerFixture>(limits);
    auto a = openStream(server->port);
    auto b = openStream(server->port);
    auto refused = get(server->port, "/api/events");
    REQUIRE(refused);
    CHECK(refused->status == 503);
    CHECK(refused->json()["error"] == "too-many-streams");
    bool found = false;
    a.readUntil(": keep-alive\n\n", 5000ms, found);
    CHECK(found);
    server.reset();
    CHECK(a.closedWithin(5000ms));
    CHECK(b.closedWithin(5000ms));
}
