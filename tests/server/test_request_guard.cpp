// DNS rebinding and guessing the host's secret (issue 14, items 4 and 5):
// only the castle's own names and addresses are answered (421 for others),
// and wrong host secrets from one address slow that address down, not the
// others, with one journal line per burst.
#include <sstream>
#include <thread>
#include <vector>

#include <doctest/doctest.h>

#include "daemon/server/api_router.hpp"
#include "daemon/server/auth_throttle.hpp"
#include "daemon/server/host_check.hpp"
#include "fake_service.hpp"
#include "server_fixture.hpp"
#include "test_client.hpp"

using namespace vivaref::server;
using namespace vivaref::server::testing;
using boost::asio::ip::make_address;
using std::chrono::milliseconds;
using Clock = std::chrono::steady_clock;

namespace {

constexpr const char* kSecret = "guard-test-host-secret-0123456789";

Request guardRequest(http::verb method, std::string target, std::string authorization = {}) {
    Request r{method, target, 11};
    if (method == http::verb::post) r.set(http::field::content_type, "application/json");
    if (!authorization.empty()) r.set(http::field::authorization, "Bearer " + authorization);
    r.prepare_payload();
    return r;
}

std::size_t count(const std::string& text, std::string_view what) {
    std::size_t n = 0;
    for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
}

}  // namespace

TEST_CASE("the Host header: the name, without port, brackets, case or trailing dot") {
    CHECK(hostOfHeader("127.0.0.1:8080") == "127.0.0.1");
    CHECK(hostOfHeader("LocalHost.") == "localhost");
    CHECK(hostOfHeader("raspberrypi.local:80") == "raspberrypi.local");
    CHECK(hostOfHeader("[::1]:8080") == "::1");
    CHECK(hostOfHeader("[FE80::1]") == "fe80::1");
    CHECK(hostOfHeader("castle.lan:") == "castle.lan");
    CHECK_FALSE(hostOfHeader("::1"));
    CHECK_FALSE(hostOfHeader("[::1"));
    CHECK_FALSE(hostOfHeader("[::1]x"));
    CHECK_FALSE(hostOfHeader("[evil.example]:80"));
    CHECK_FALSE(hostOfHeader("localhost:80x"));
    CHECK_FALSE(hostOfHeader("localhost:123456"));
    CHECK_FALSE(hostOfHeader("evil example"));
    CHECK_FALSE(hostOfHeader(":8080"));
    CHECK_FALSE(hostOfHeader(std::string(300, 'a')));
}

TEST_CASE("the names answered: own address, loopback, machine name and .local, configured names") {
    const auto now = Clock::now();
    HostCheck check(make_address("192.168.1.5"), {"castle.lan", "10.0.0.9"}, "raspberrypi");
    for (const char* good : {"192.168.1.5", "192.168.1.5:8080", "localhost", "localhost:8080", "LOCALHOST.",
                             "127.0.0.1:8080", "[::1]:8080", "raspberrypi", "RaspberryPi.local:8080",
                             "castle.lan", "castle.lan:80", "10.0.0.9:8080"}) {
        CAPTURE(good);
        CHECK(check.allows(std::string_view(good), now));
    }
    for (const char* bad : {"evil.example", "evil.example:8080", "192.168.1.6", "192.168.1.5.evil.example",
                            "castle.lan.evil.example", "localhost.evil.example", "raspberrypi.evil",
                            "evil.local", "[::2]:8080", "localhost:80x", "1.2.3.4"}) {
        CAPTURE(bad);
        CHECK_FALSE(check.allows(std::string_view(bad), now));
    }
    // No Host header (HTTP/1.0 tools: no browser sends none), or an empty one: answered.
    CHECK(check.allows(std::nullopt, now));
    CHECK(check.allows(std::string_view(""), now));
}

TEST_CASE("listening on every interface: the interfaces' addresses are answered, others are not") {
    const auto now = Clock::now();
    HostCheck check(make_address("0.0.0.0"), {}, "castle");
    CHECK(check.allows(std::string_view("127.0.0.1:8080"), now));
    CHECK(check.allows(std::string_view("castle.local"), now));
    CHECK_FALSE(check.allows(std::string_view("203.0.113.77"), now));
    CHECK_FALSE(check.allows(std::string_view("evil.example"), now));
    // The interfaces were looked up: every address the kernel gave is answered.
    const auto names = check.names();
    CHECK(std::find(names.begin(), names.end(), "127.0.0.1") != names.end());
    CHECK(std::find(names.begin(), names.end(), "203.0.113.77") == names.end());
}

TEST_CASE("over a socket: a foreign Host gets 421 with a short plain answer, the castle's names 200") {
    RouterOptions router;
    router.hostNames =
        std::make_shared<HostCheck>(make_address("127.0.0.1"), std::vector<std::string>{"castle.lan"});
    ServerFixture server({}, router);
    const std::string port = std::to_string(server.port);
    auto asked = [&](const std::string& head) {
        TestConnection c(server.port);
        REQUIRE(c.connected());
        REQUIRE(c.send(head + "\r\n"));
        auto answer = c.readAnswer();
        REQUIRE(answer);
        return *answer;
    };
    for (const std::string& host : std::vector<std::string>{"127.0.0.1:" + port, "localhost:" + port,
                                                            "localhost", "castle.lan:" + port}) {
        CAPTURE(host);
        const auto answer = asked("GET /api/status HTTP/1.1\r\nHost: " + host + "\r\n");
        CHECK(answer.status == 200);
        CHECK(answer.json()["phase"] == "waiting");
    }
    for (const std::string& host : std::vector<std::string>{"evil.example", "evil.example:" + port}) {
        CAPTURE(host);
        const auto answer = asked("GET /api/status HTTP/1.1\r\nHost: " + host + "\r\n");
        CHECK(answer.status == 421);
        CHECK(answer.header("Content-Type") == "text/plain; charset=utf-8");
        CHECK(answer.body.starts_with("421 Misdirected Request: this castle answers only at its own"));
        CHECK(answer.body.find("waiting") == std::string::npos);
    }
    // The event stream and the pages' files are behind the same check.
    CHECK(asked("GET /api/events HTTP/1.1\r\nHost: evil.example\r\n").status == 421);
    CHECK(asked("GET /index.html HTTP/1.1\r\nHost: evil.example\r\n").status == 421);
    // HTTP/1.0 without a Host header: answered (a browser always sends one).
    CHECK(asked("GET /api/status HTTP/1.0\r\n").status == 200);
}

TEST_CASE("the throttle: free failures, then a closed address for 1 s doubling to the cap") {
    std::ostringstream log;
    AuthThrottle throttle({}, &log);
    const auto guesser = make_address("192.168.1.7");
    const auto host = make_address("192.168.1.8");
    auto t = Clock::now();
    for (int i = 0; i < 4; ++i) {
        CHECK_FALSE(throttle.closedFor(guesser, t));
        throttle.failed(guesser, t);
    }
    CHECK_FALSE(throttle.closedFor(guesser, t));
    CHECK(log.str().empty());
    throttle.failed(guesser, t);  // the 5th: closed for 1 s, so the 6th is refused
    CHECK(throttle.closedFor(guesser, t) == milliseconds(1000));
    CHECK(throttle.closedFor(guesser, t + milliseconds(400)) == milliseconds(600));
    CHECK_FALSE(throttle.closedFor(host, t));
    CHECK_FALSE(throttle.closedFor(guesser, t + milliseconds(1000)));
    std::vector<milliseconds> delays;
    for (int i = 0; i < 9; ++i) {
        t += milliseconds(61'000);
        throttle.failed(guesser, t);
        delays.push_back(*throttle.closedFor(guesser, t));
    }
    CHECK(delays == std::vector<milliseconds>{milliseconds(2000), milliseconds(4000), milliseconds(8000),
                                              milliseconds(16000), milliseconds(32000), milliseconds(60000),
                                              milliseconds(60000), milliseconds(60000), milliseconds(60000)});
    // One line for the burst: when the address was first slowed.
    CHECK(
        log.str() ==
        "vivaref serve: 5 wrong host secrets from 192.168.1.7 in 1 s; its host requests are refused for 1 s "
        "after each further wrong one, growing to 60 s\n");
    // Ten minutes on, still guessing: one more line, with the totals.
    t += milliseconds(61'000);
    throttle.failed(guesser, t);
    CHECK(count(log.str(), "wrong host secrets from 192.168.1.7") == 2);
    CHECK(log.str().find("15 wrong host secrets from 192.168.1.7 in 610 s (and 11 requests refused") !=
          std::string::npos);
    // The right secret clears the address.
    throttle.succeeded(guesser);
    CHECK_FALSE(throttle.closedFor(guesser, t));
    // Ten quiet minutes forget a count too.
    for (int i = 0; i < 4; ++i) throttle.failed(host, t);
    throttle.failed(host, t + std::chrono::minutes(10));
    CHECK_FALSE(throttle.closedFor(host, t + std::chrono::minutes(10)));
}

TEST_CASE("the throttle's table is bounded; IPv6 addresses count by their /64") {
    AuthThrottleOptions options;
    options.maxAddresses = 64;
    AuthThrottle throttle(options);
    const auto t = Clock::now();
    for (int i = 0; i < 1000; ++i) {
        const auto address = boost::asio::ip::address_v4(0x0a000000u + static_cast<unsigned>(i));
        throttle.failed(address, t + milliseconds(i));
        CHECK(throttle.addresses() <= 64);
    }
    // Many addresses of one /64 are one guesser.
    AuthThrottle v6;
    for (int i = 0; i < 5; ++i) v6.failed(make_address("2001:db8:1:2::" + std::to_string(i + 1)), t);
    CHECK(v6.closedFor(make_address("2001:db8:1:2::ffff"), t));
    CHECK_FALSE(v6.closedFor(make_address("2001:db8:1:3::1"), t));
    CHECK(v6.addresses() == 1);
    // An IPv4 peer seen as ::ffff:a.b.c.d is the same peer.
    v6.failed(make_address("192.168.1.7"), t);
    for (int i = 0; i < 4; ++i) v6.failed(make_address("::ffff:192.168.1.7"), t);
    CHECK(v6.closedFor(make_address("192.168.1.7"), t));
}

TEST_CASE("the router: many wrong secrets from one address get 429, a right one from another is answered") {
    FakeService fake;
    StaticFiles files("/nonexistent/vivaref-web-ui");
    std::ostringstream log;
    RouterOptions options;
    options.hostToken = kSecret;
    options.throttle = std::make_shared<AuthThrottle>(AuthThrottleOptions{}, &log);
    ApiRouter router(fake, files, options);
    const auto guesser = make_address("192.168.1.7");
    const auto host = make_address("192.168.1.8");
    std::vector<int> statuses;
    for (int i = 0; i < 12; ++i)
        statuses.push_back(
            router
                .handle(guardRequest(http::verb::post, "/api/host/pause", "guess" + std::to_string(i)),
                        guesser)
                .response.result_int());
    CHECK(statuses == std::vector<int>{401, 401, 401, 401, 401, 429, 429, 429, 429, 429, 429, 429});
    const auto refused = router.handle(guardRequest(http::verb::post, "/api/host/pause", kSecret), guesser);
    CHECK(refused.response.result_int() == 429);
    CHECK(refused.response[http::field::retry_after] == "1");
    CHECK(refused.response.body().find(
              "too many wrong host secrets came from this address: try again in 1 s") != std::string::npos);
    // Said as a message too, for the host's page to say in its reader's language.
    const auto slowedBody = nlohmann::json::parse(refused.response.body());
    CHECK(slowedBody["says"] == nlohmann::json({{"code", "api.slowed"}, {"args", {{"seconds", 1}}}}));
    // The host's device at another address: answered at once.
    CHECK(router.handle(guardRequest(http::verb::post, "/api/host/pause", kSecret), host)
              .response.result_int() == 200);
    // The sim's POSTs and the players' codes are behind the same gate; public routes are not.
    CHECK(router.handle(guardRequest(http::verb::post, "/api/sim/press", kSecret), guesser)
              .response.result_int() == 429);
    CHECK(router.handle(guardRequest(http::verb::get, "/api/host/players/0/qr.svg", kSecret), guesser)
              .response.result_int() == 429);
    CHECK(router.handle(guardRequest(http::verb::get, "/api/status"), guesser).response.result_int() == 200);
    // No secret offered is no guess: still the plain 401.
    CHECK(router.handle(guardRequest(http::verb::get, "/api/host/players"), guesser).response.result_int() ==
          401);
    CHECK(count(log.str(), "wrong host secrets from 192.168.1.7") == 1);
    CHECK(log.str().starts_with("vivaref serve: 5 wrong host secrets from 192.168.1.7 in 1 s;"));
}

TEST_CASE("as documented: 5 wrong secrets are answered 401, the 6th within the second 429") {
    FakeService fake;
    StaticFiles files("/nonexistent/vivaref-web-ui");
    RouterOptions options;
    options.hostToken = kSecret;
    options.throttle = std::make_shared<AuthThrottle>();
    ApiRouter router(fake, files, options);
    const auto guesser = make_address("192.168.1.7");
    auto guess = [&](int i) {
        return router.handle(guardRequest(http::verb::get, "/api/host/players", "guess" + std::to_string(i)),
                             guesser);
    };
    for (int i = 1; i <= 5; ++i) {
        CAPTURE(i);
        CHECK(guess(i).response.result_int() == 401);
    }
    const auto sixth = guess(6);
    CHECK(sixth.response.result_int() == 429);
    CHECK(sixth.response[http::field::retry_after] == "1");
    // The right secret is refused too while the address is closed (no timing oracle).
    CHECK(router.handle(guardRequest(http::verb::get, "/api/host/players", kSecret), guesser)
              .response.result_int() == 429);
}

TEST_CASE("two Host headers are refused with 400 (RFC 7230 section 5.4), with or without the name check") {
    FakeService fake;
    StaticFiles files("/nonexistent/vivaref-web-ui");
    RouterOptions checked;
    checked.hostNames = std::make_shared<HostCheck>(make_address("127.0.0.1"), std::vector<std::string>{});
    for (const RouterOptions& options : {RouterOptions{}, checked}) {
        ApiRouter router(fake, files, options);
        for (const auto& [first, second] : std::vector<std::pair<std::string, std::string>>{
                 {"localhost", "localhost"}, {"localhost", "evil.example"}, {"evil.example", "localhost"}}) {
            CAPTURE(first);
            CAPTURE(second);
            Request r{http::verb::get, "/api/status", 11};
            r.insert(http::field::host, first);
            r.insert(http::field::host, second);
            const auto reply = router.handle(r, make_address("192.168.1.7"));
            CHECK(reply.response.result_int() == 400);
            CHECK_FALSE(reply.response.keep_alive());
            const auto body = nlohmann::json::parse(reply.response.body(), nullptr, false);
            CHECK(body.value("error", "") == "bad-request");
            CHECK(body.value("message", "") == "the request has more than one Host header");
        }
        Request one{http::verb::get, "/api/status", 11};
        one.set(http::field::host, "localhost");
        CHECK(router.handle(one, make_address("192.168.1.7")).response.result_int() == 200);
    }
}
