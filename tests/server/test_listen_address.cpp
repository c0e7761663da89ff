// --listen ADDR:PORT and the configuration's address, read strictly.
#include <doctest/doctest.h>

#include "daemon/server/http_server.hpp"

using vivaref::server::parseListenAddress;

TEST_CASE("listen addresses: IPv4, IPv6 in brackets, port 0 for any") {
    auto v4 = parseListenAddress("127.0.0.1:8080");
    CHECK(v4.address().to_string() == "127.0.0.1");
    CHECK(v4.port() == 8080);
    CHECK(parseListenAddress("0.0.0.0:0").port() == 0);
    auto v6 = parseListenAddress("[::1]:80");
    CHECK(v6.address().is_v6());
    CHECK(v6.port() == 80);
    CHECK(parseListenAddress("[::]:65535").port() == 65535);
}

TEST_CASE("bad listen addresses say what is wrong") {
    for (const char* bad :
         {"", "8080", "127.0.0.1", "127.0.0.1:", "127.0.0.1:65536", "127.0.0.1:-1", "127.0.0.1:80x",
          "localhost:80", "::1:80", "[::1]80", "[::1", "999.0.0.1:80", ":80"}) {
        CAPTURE(bad);
        try {
            parseListenAddress(bad);
            FAIL("accepted");
        } catch (const std::invalid_argument& e) {
            CHECK(std::string(e.what()).find("listen address") != std::string::npos);
        }
    }
}
