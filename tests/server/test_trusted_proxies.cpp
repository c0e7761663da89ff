// Behind a reverse proxy (issue 35): the client is the rightmost address of
// X-Forwarded-For that is not a trusted proxy, only when the peer is one;
// the wrong-secret throttle and the per-address connection cap count that
// client, and a peer that is not trusted cannot choose its own address.
#include <random>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "daemon/server/auth_throttle.hpp"
#include "daemon/server/qr_svg.hpp"
#include "daemon/server/trusted_proxies.hpp"
#include "server_fixture.hpp"
#include "test_client.hpp"

using namespace vivaref::server;
using namespace vivaref::server::testing;
using boost::asio::ip::address;
using boost::asio::ip::make_address;

namespace {

constexpr const char* kProxySecret = "proxy-test-host-secret-0123456789";

using Fields = std::vector<std::string_view>;

std::string clientText(const TrustedProxies& proxies, const char* peer, const Fields& fields) {
    return proxies.clientOf(make_address(peer), fields).to_string();
}

// A host route with a wrong secret, as the proxy would pass it on.
int wrongSecret(std::uint16_t port, const std::string& forwardedFor) {
    const std::string headers = "Authorization: Bearer wrong-guess\r\n" +
                                (forwardedFor.empty() ? "" : "X-Forwarded-For: " + forwardedFor + "\r\n");
    auto answer = get(port, "/api/host/players", headers);
    REQUIRE(answer);
    return answer->status;
}

}  // namespace

TEST_CASE("trusted proxies: addresses and networks, IPv4 also as mapped IPv6") {
    const TrustedProxies proxies({"127.0.0.1", "::1", "10.0.0.0/8", "fd00:1::/32"});
    CHECK_FALSE(proxies.empty());
    for (const char* inside : {"127.0.0.1", "::ffff:127.0.0.1", "::1", "10.200.3.4", "fd00:1:ffff::9"}) {
        CAPTURE(inside);
        CHECK(proxies.contains(make_address(inside)));
    }
    for (const char* outside :
         {"127.0.0.2", "11.0.0.1", "::2", "fd00:2::1", "192.168.1.7", "::ffff:11.0.0.1"}) {
        CAPTURE(outside);
        CHECK_FALSE(proxies.contains(make_address(outside)));
    }
    CHECK(TrustedProxies().empty());
    CHECK_FALSE(TrustedProxies().contains(make_address("127.0.0.1")));
    // A /0 trusts every address of its family, no other.
    const TrustedProxies all4({"0.0.0.0/0"});
    CHECK(all4.contains(make_address("203.0.113.9")));
    CHECK_FALSE(all4.contains(make_address("2001:db8::1")));
    for (const char* bad : {"castle.lan", "10.0.0.0/33", "::/129", "10.0.0.0/", "10.0.0.0/8x",
                            "::ffff:10.0.0.1/8", "", "127.0.0.1:80", "fe80::1%eth0"}) {
        CAPTURE(bad);
        CHECK_FALSE(parseProxyNetwork(bad));
        CHECK_THROWS_AS(TrustedProxies({bad}), std::invalid_argument);
    }
}

TEST_CASE("X-Forwarded-For entries: addresses with or without a port, nothing else") {
    CHECK(forwardedAddress("203.0.113.9") == make_address("203.0.113.9"));
    CHECK(forwardedAddress("  203.0.113.9\t") == make_address("203.0.113.9"));
    CHECK(forwardedAddress("203.0.113.9:4711") == make_address("203.0.113.9"));
    CHECK(forwardedAddress("2001:db8::7") == make_address("2001:db8::7"));
    CHECK(forwardedAddress("[2001:db8::7]") == make_address("2001:db8::7"));
    CHECK(forwardedAddress("[2001:db8::7]:4711") == make_address("2001:db8::7"));
    CHECK(forwardedAddress("::ffff:203.0.113.9") == make_address("203.0.113.9"));
    for (const char* bad : {"", " ", "unknown", "_hidden", "203.0.113", "203.0.113.9:", "203.0.113.9:99999",
                            "[203.0.113.9]", "[2001:db8::7", "[2001:db8::7]x", "2001:db8::7:4711:",
                            "fe80::1%eth0", "203.0.113.9 198.51.100.1", "evil.example"}) {
        CAPTURE(bad);
        CHECK_FALSE(forwardedAddress(bad));
    }
}

TEST_CASE(
    "the client: the rightmost forwarded address that is not a trusted proxy, only from a trusted peer") {
    const TrustedProxies proxies({"127.0.0.1", "10.0.0.0/8"});
    // The proxy appended the address it was reached from.
    CHECK(clientText(proxies, "127.0.0.1", {"203.0.113.9"}) == "203.0.113.9");
    // What the client wrote itself is left of it, never believed.
    CHECK(clientText(proxies, "127.0.0.1", {"198.51.100.1, 203.0.113.9"}) == "203.0.113.9");
    CHECK(clientText(proxies, "127.0.0.1", {"garbage, unknown,, 203.0.113.9"}) == "203.0.113.9");
    // Two proxies of ours in a row: the hop before them.
    CHECK(clientText(proxies, "127.0.0.1", {"198.51.100.1, 203.0.113.9, 10.1.1.1"}) == "203.0.113.9");
    // Several fields are one list, in order.
    CHECK(clientText(proxies, "127.0.0.1", {"198.51.100.1", "203.0.113.9, 10.1.1.1"}) == "203.0.113.9");
    CHECK(clientText(proxies, "::ffff:127.0.0.1", {"2001:db8::7"}) == "2001:db8::7");
    // Only proxies of ours (the machine's own browser through the proxy): the first.
    CHECK(clientText(proxies, "127.0.0.1", {"10.2.2.2, 127.0.0.1"}) == "10.2.2.2");
    // No header, an empty one, a deciding entry that is no address: the peer.
    CHECK(clientText(proxies, "127.0.0.1", {}) == "127.0.0.1");
    CHECK(clientText(proxies, "127.0.0.1", {""}) == "127.0.0.1");
    CHECK(clientText(proxies, "127.0.0.1", {"203.0.113.9, unknown"}) == "127.0.0.1");
    CHECK(clientText(proxies, "127.0.0.1", {"203.0.113.9, "}) == "127.0.0.1");
    CHECK(clientText(proxies, "127.0.0.1", {"203.0.113.9, 10.1.1.1, x"}) == "127.0.0.1");
    // A peer that is not a proxy of ours: the header is not looked at.
    CHECK(clientText(proxies, "192.168.1.7", {"203.0.113.9"}) == "192.168.1.7");
    CHECK(clientText(TrustedProxies(), "127.0.0.1", {"203.0.113.9"}) == "127.0.0.1");
}

TEST_CASE(
    "random X-Forwarded-For values never throw and always give the peer or an address in them (seed 35)") {
    const unsigned seed = 35;
    std::mt19937 random(seed);
    const TrustedProxies proxies({"127.0.0.1", "::1"});
    const std::string alphabet = "0123456789abcdef.:[], \t%/x";
    for (int i = 0; i < 5000; ++i) {
        std::string value;
        const int length = static_cast<int>(random() % 40);
        for (int k = 0; k < length; ++k) value += alphabet[random() % alphabet.size()];
        CAPTURE(seed);
        CAPTURE(value);
        const auto client = proxies.clientOf(make_address("127.0.0.1"), {value});
        if (client != make_address("127.0.0.1")) CHECK_FALSE(proxies.contains(client));
    }
}

TEST_CASE("over a socket: behind a trusted proxy the throttle counts each forwarded client") {
    RouterOptions router;
    router.hostToken = kProxySecret;
    router.throttle = std::make_shared<AuthThrottle>();
    ServerFixture server({}, router, {}, TrustedProxies({"127.0.0.1"}));
    for (int i = 1; i <= 5; ++i) {
        CAPTURE(i);
        CHECK(wrongSecret(server.port, "203.0.113.9") == 401);
    }
    CHECK(wrongSecret(server.port, "203.0.113.9") == 429);
    // The client's own words left of the proxy's do not change who it is.
    CHECK(wrongSecret(server.port, "198.51.100.1, 203.0.113.9") == 429);
    // Another client behind the same proxy, and the proxy's own requests, are answered as usual.
    CHECK(wrongSecret(server.port, "203.0.113.10") == 401);
    CHECK(wrongSecret(server.port, "") == 401);
}

TEST_CASE("over a socket: X-Forwarded-Proto is believed from a trusted proxy only (the players' codes)") {
    const std::string path = "/player.html#" + std::string(64, 'a');
    for (const bool trusted : {true, false}) {
        CAPTURE(trusted);
        RouterOptions router;
        router.hostToken = kProxySecret;
        ServerFixture server({}, router, {}, trusted ? TrustedProxies({"127.0.0.1"}) : TrustedProxies());
        server.onLoop([&] {
            server.fake.players = nlohmann::json::array({{{"player", 0}, {"seat", 0}, {"path", path}}});
        });
        auto answer =
            get(server.port, "/api/host/players/0/qr.svg",
                std::string("Authorization: Bearer ") + kProxySecret + "\r\nX-Forwarded-Proto: https\r\n");
        REQUIRE(answer);
        CHECK(answer->status == 200);
        // Straight from a client, the header is the client's own say: ignored.
        CHECK(answer->body == qrSvg(encodeQr((trusted ? "https://127.0.0.1" : "http://127.0.0.1") + path)));
    }
}

TEST_CASE("over a socket: without trusted proxies X-Forwarded-For is ignored, the peer is counted") {
    for (const auto& proxies : {TrustedProxies(), TrustedProxies({"192.0.2.1"})}) {
        RouterOptions router;
        router.hostToken = kProxySecret;
        router.throttle = std::make_shared<AuthThrottle>();
        ServerFixture server({}, router, {}, proxies);
        for (int i = 1; i <= 5; ++i) {
            CAPTURE(i);
            CHECK(wrongSecret(server.port, "203.0.113." + std::to_string(i)) == 401);
        }
        // Whatever address it claims, it is the same peer: closed.
        CHECK(wrongSecret(server.port, "203.0.113.99") == 429);
        CHECK(wrongSecret(server.port, "") == 429);
    }
}

TEST_CASE("over a socket: behind a trusted proxy each forwarded client has its own connection cap") {
    ServerLimits limits;
    limits.maxConnectionsPerClient = 4;
    ServerFixture server(limits, {}, {}, TrustedProxies({"127.0.0.1"}));
    // Each opened through the proxy, kept alive after one request: the
    // connection cap of the machine itself (none) does not apply to them.
    auto open = [&](const std::string& client) {
        TestConnection c(server.port);
        REQUIRE(c.connected());
        REQUIRE(c.send(request("GET", "/api/status", {}, "X-Forwarded-For: " + client + "\r\n", true)));
        REQUIRE(c.readAnswer());
        return c;
    };
    std::vector<TestConnection> first;
    for (int i = 0; i < 4; ++i) first.push_back(open("203.0.113.9"));
    auto other = open("203.0.113.10");
    CHECK(server.counters().evicted == 0);
    // A fifth of the same client replaces its own most idle, the first.
    auto fifth = open("203.0.113.9");
    CHECK(server.counters().evicted == 1);
    CHECK(first.front().closedWithin(5000ms));
    // The other client's connection is untouched.
    REQUIRE(other.send(request("GET", "/api/status", {}, "X-Forwarded-For: 203.0.113.10\r\n", true)));
    CHECK(other.readAnswer());
    CHECK(server.connections() == 5);
}

TEST_CASE(
    "over a socket: without trusted proxies the machine's own connections have no cap, whatever they claim") {
    ServerLimits limits;
    limits.maxConnectionsPerClient = 4;
    ServerFixture server(limits);
    std::vector<TestConnection> open;
    for (int i = 0; i < 8; ++i) {
        open.emplace_back(server.port);
        REQUIRE(
            open.back().send(request("GET", "/api/status", {}, "X-Forwarded-For: 203.0.113.9\r\n", true)));
        REQUIRE(open.back().readAnswer());
    }
    CHECK(server.counters().evicted == 0);
    CHECK(server.connections() == 8);
}
