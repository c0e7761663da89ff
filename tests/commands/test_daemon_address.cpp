// The daemon's address as `--url` and a configuration's [daemon] give it.
#include <stdexcept>

#include <doctest/doctest.h>

#include "daemon/commands/daemon_client.hpp"

using vivaref::daemon::daemonAddressOnThisMachine;
using vivaref::daemon::parseDaemonUrl;

TEST_CASE("--url is http://HOST:PORT, the port 80 when left out") {
    auto a = parseDaemonUrl("http://127.0.0.1:8080");
    CHECK(a.host == "127.0.0.1");
    CHECK(a.port == 8080);
    CHECK(a.url() == "http://127.0.0.1:8080");
    a = parseDaemonUrl("http://castle.local/");
    CHECK(a.host == "castle.local");
    CHECK(a.port == 80);
    a = parseDaemonUrl("http://[::1]:9000/");
    CHECK(a.host == "::1");
    CHECK(a.port == 9000);
    CHECK(a.url() == "http://[::1]:9000");
    CHECK(parseDaemonUrl("http://[fe80::1]").port == 80);
}

TEST_CASE("anything else is refused with a sentence naming it") {
    for (const char* bad :
         {"", "127.0.0.1:8080", "https://castle:443", "ftp://castle", "http://", "http://:80",
          "http://castle:", "http://castle:0", "http://castle:65536", "http://castle:80x",
          "http://castle:8080/api", "http://user@castle", "http://castle?x", "http://[::1", "http://[::1]x",
          "http://castle:-1", "http://cas tle"}) {
        CAPTURE(bad);
        try {
            parseDaemonUrl(bad);
            FAIL("accepted");
        } catch (const std::invalid_argument& e) {
            CHECK(std::string(e.what()).find(std::string("'") + bad + "'") != std::string::npos);
        }
    }
}

TEST_CASE("a daemon listening on every interface is reached on this machine") {
    CHECK(daemonAddressOnThisMachine("0.0.0.0", 8080).url() == "http://127.0.0.1:8080");
    CHECK(daemonAddressOnThisMachine("::", 81).url() == "http://[::1]:81");
    CHECK(daemonAddressOnThisMachine("192.168.1.20", 8080).url() == "http://192.168.1.20:8080");
    CHECK(daemonAddressOnThisMachine("127.0.0.1", 1).url() == "http://127.0.0.1:1");
    CHECK(daemonAddressOnThisMachine("castle.local", 8080).url() == "http://castle.local:8080");
}
