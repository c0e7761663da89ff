// Where a phone at the table opens the castle's pages (table_addresses.hpp):
// the choice among fixed interfaces, the links GET /api/info gives, the
// players' codes made for a page opened at 127.0.0.1, and the host's link
// as a QR code on a terminal.
#include <doctest/doctest.h>

#include "daemon/server/api_router.hpp"
#include "daemon/server/qr_svg.hpp"
#include "daemon/server/table_addresses.hpp"
#include "fake_service.hpp"

using namespace vivaref::server;
using namespace vivaref::server::testing;
using nlohmann::json;
namespace ip = boost::asio::ip;

namespace {

InterfaceAddress at(std::string interface, const char* address) {
    return {std::move(interface), ip::make_address(address)};
}

// A laptop at the table: loopback, Docker's bridge, Wi-Fi with an IPv4,
// a link-local and a unique-local IPv6 address, and a link-local IPv4 on
// a cable to nothing.
const std::vector<InterfaceAddress> kLaptop = {at("lo", "127.0.0.1"),
                                               at("docker0", "172.17.0.1"),
                                               at("eth0", "169.254.7.9"),
                                               at("wlan0", "192.168.1.20"),
                                               at("lo", "::1"),
                                               at("wlan0", "fe80::1234"),
                                               at("wlan0", "fd00::20"),
                                               at("tun0", "100.64.3.4"),
                                               at("wlan0", "2001:db8::20"),
                                               at("wlan0", "192.168.1.20")};

std::vector<std::string> hosts(const char* listen, const std::vector<InterfaceAddress>& interfaces,
                               std::string_view name = {}) {
    return tableAddresses(ip::make_address(listen), interfaces, name).hosts;
}

}  // namespace

TEST_CASE(
    "every interface: private IPv4 first, bridges last, no loopback or link-local, the mDNS name after all") {
    using V = std::vector<std::string>;
    CHECK(hosts("0.0.0.0", kLaptop) == V{"192.168.1.20", "100.64.3.4", "172.17.0.1"});
    CHECK(hosts("0.0.0.0", kLaptop, "castle.local") ==
          V{"192.168.1.20", "100.64.3.4", "172.17.0.1", "castle.local"});
    // Listening on :: takes IPv6 too, after every IPv4; unique-local before global.
    CHECK(hosts("::", kLaptop) ==
          V{"192.168.1.20", "100.64.3.4", "[fd00::20]", "[2001:db8::20]", "172.17.0.1"});
    // 10/8 and 172.16/12 are private too; 172.32/16 is not.
    CHECK(hosts("0.0.0.0", {at("eth0", "172.32.0.5"), at("eth1", "10.0.0.7"), at("eth2", "172.31.9.9")}) ==
          V{"10.0.0.7", "172.31.9.9", "172.32.0.5"});
    const auto plain = tableAddresses(ip::make_address("0.0.0.0"), kLaptop, {});
    CHECK_FALSE(plain.loopbackOnly);
    CHECK_FALSE(plain.noNetwork);
}

TEST_CASE("no network: the loopback address, said; loopback only: said; one address: that one") {
    const auto alone = tableAddresses(ip::make_address("0.0.0.0"),
                                      {at("lo", "127.0.0.1"), at("eth0", "169.254.1.1")}, "castle.local");
    CHECK(alone.noNetwork);
    CHECK(alone.hosts == std::vector<std::string>{"127.0.0.1"});
    CHECK(tableAddresses(ip::make_address("::"), {}, {}).hosts == std::vector<std::string>{"[::1]"});

    const auto local = tableAddresses(ip::make_address("127.0.0.1"), kLaptop, "castle.local");
    CHECK(local.loopbackOnly);
    CHECK(local.hosts == std::vector<std::string>{"127.0.0.1"});
    CHECK(tableAddresses(ip::make_address("::1"), kLaptop, {}).loopbackOnly);

    const auto one = tableAddresses(ip::make_address("192.168.1.20"), kLaptop, "castle.local");
    CHECK_FALSE(one.loopbackOnly);
    CHECK(one.hosts == std::vector<std::string>{"192.168.1.20"});
    CHECK(tableAddresses(ip::make_address("fd00::20"), {}, {}).hosts ==
          std::vector<std::string>{"[fd00::20]"});
    CHECK(tableUrl("[fd00::20]", 8080) == "http://[fd00::20]:8080/");
}

TEST_CASE("a loopback Host: localhost, 127/8 and ::1, nothing else") {
    for (const char* host : {"localhost", "127.0.0.1", "127.1.2.3", "::1"}) CHECK(isLoopbackHost(host));
    for (const char* host : {"castle.local", "192.168.1.20", "fd00::20", "localhost.example", "0.0.0.0"})
        CHECK_FALSE(isLoopbackHost(host));
}

TEST_CASE("the machine's own interfaces include its loopback, and the choice never names it") {
    const auto mine = machineAddresses();
    CHECK(std::any_of(mine.begin(), mine.end(), [](const auto& a) { return a.address.is_loopback(); }));
    const auto now = tableAddressesNow(ip::make_address("0.0.0.0"));
    REQUIRE_FALSE(now.hosts.empty());
    if (!now.noNetwork)
        for (const auto& h : now.hosts) CHECK(h != "127.0.0.1");
    CHECK(mdnsName("/nonexistent/avahi-socket").empty());
}

TEST_CASE("the host's link as a QR code on a terminal: two modules a character, black on white") {
    const std::string link = "http://192.168.1.20:8080/host.html#" + std::string(64, 'e');
    const QrMatrix matrix = encodeQr(link);
    const std::string text = qrTerminal(matrix);
    // Read back: each line is ESC[30;47m, the characters, ESC[0m.
    const int side = matrix.width + 2 * kQrQuietZone;
    std::vector<std::string> lines;
    for (std::size_t from = 0, end; (end = text.find('\n', from)) != std::string::npos; from = end + 1)
        lines.push_back(text.substr(from, end - from));
    REQUIRE(static_cast<int>(lines.size()) == (side + 1) / 2);
    std::vector<bool> dark(static_cast<std::size_t>(side * side), false);
    for (int row = 0; row < static_cast<int>(lines.size()); ++row) {
        std::string line = lines[static_cast<std::size_t>(row)];
        REQUIRE(line.starts_with("\x1b[30;47m"));
        REQUIRE(line.ends_with("\x1b[0m"));
        line = line.substr(8, line.size() - 8 - 4);
        int x = 0;
        for (std::size_t i = 0; i < line.size(); ++x) {
            bool top = false, bottom = false;
            if (line[i] == ' ') {
                ++i;
            } else {
                const std::string block = line.substr(i, 3);
                top = block == "\u2588" || block == "\u2580";
                bottom = block == "\u2588" || block == "\u2584";
                REQUIRE((top || bottom));
                i += 3;
            }
            REQUIRE(x < side);
            dark[static_cast<std::size_t>(2 * row * side + x)] = top;
            if (2 * row + 1 < side)
                dark[static_cast<std::size_t>((2 * row + 1) * side + x)] = bottom;
            else
                CHECK_FALSE(bottom);
        }
        CHECK(x == side);
    }
    for (int y = 0; y < side; ++y)
        for (int x = 0; x < side; ++x) {
            const int mx = x - kQrQuietZone, my = y - kQrQuietZone;
            const bool want =
                mx >= 0 && my >= 0 && mx < matrix.width && my < matrix.width && matrix.at(mx, my);
            CHECK(dark[static_cast<std::size_t>(y * side + x)] == want);
        }
}

TEST_CASE("GET /api/info gives the links phones open; a code for a page opened at 127.0.0.1 names the LAN") {
    FakeService fake;
    fake.players =
        json::array({{{"player", 0}, {"seat", 0}, {"path", "/player.html#" + std::string(64, 'a')}}});
    StaticFiles files("/nonexistent/vivaref-web-ui");
    TableAddresses table = tableAddresses(ip::make_address("0.0.0.0"), kLaptop, "castle.local");
    RouterOptions options;
    options.tableAddresses = [&table] { return table; };
    ApiRouter router(fake, files, options);
    const auto get = [&](const std::string& target, const std::string& host) {
        Request r{http::verb::get, target, 11};
        r.set(http::field::host, host);
        return router.handle(r).response;
    };
    const auto info = json::parse(get("/api/info", "127.0.0.1:8080").body());
    CHECK(info["table"]["links"] == json::array({"http://192.168.1.20:8080/", "http://100.64.3.4:8080/",
                                                 "http://172.17.0.1:8080/", "http://castle.local:8080/"}));
    CHECK(info["table"]["loopback_only"] == false);
    CHECK(json::parse(get("/api/info", "castle.local").body())["table"]["links"][0] ==
          "http://192.168.1.20/");
    // A port that is not one is not carried into a link.
    CHECK(json::parse(get("/api/info", "castle.local:8x").body())["table"]["links"][0] ==
          "http://192.168.1.20/");

    const std::string path = "/player.html#" + std::string(64, 'a');
    const auto code = [&](const std::string& host) { return get("/api/host/players/0/qr.svg", host).body(); };
    for (const char* host : {"127.0.0.1:8080", "localhost:8080", "[::1]:8080"}) {
        CAPTURE(host);
        CHECK(code(host) == qrSvg(encodeQr("http://192.168.1.20:8080" + path)));
    }
    // Opened at an address phones reach: the code is for that address.
    CHECK(code("castle.local:8080") == qrSvg(encodeQr("http://castle.local:8080" + path)));
    CHECK(code("192.168.1.20") == qrSvg(encodeQr("http://192.168.1.20" + path)));
    // Behind a trusted proxy serving HTTPS (the session keeps the header from
    // such a proxy only: test_trusted_proxies), the code is an https link.
    {
        Request r{http::verb::get, "/api/host/players/0/qr.svg", 11};
        r.set(http::field::host, "castle.example.org");
        r.set("X-Forwarded-Proto", "https");
        CHECK(router.handle(r).response.body() == qrSvg(encodeQr("https://castle.example.org" + path)));
    }

    // Listening on 127.0.0.1 only: no link to give, and the code stays as it was.
    table = tableAddresses(ip::make_address("127.0.0.1"), kLaptop, {});
    const auto local = json::parse(get("/api/info", "127.0.0.1:8080").body());
    CHECK(local["table"]["links"].empty());
    CHECK(local["table"]["loopback_only"] == true);
    CHECK(code("127.0.0.1:8080") == qrSvg(encodeQr("http://127.0.0.1:8080" + path)));
}
