// The real `vivaref serve` against DNS rebinding and secret guessing: a
// foreign Host header gets 421, the castle's names are answered; wrong host
// secrets slow their address down with one journal line; a weak host_token
// is refused by check-config and serve, naming the file and line.
#include <signal.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>
#include <vector>

#include <doctest/doctest.h>

#include "test_client.hpp"
#include "tests/server/temp_directory.hpp"
#include "tests/support/child_process.hpp"
#include "tests/support/serve_process.hpp"

using namespace vivaref::server::testing;

namespace {

constexpr const char* kToken = "guard-serve-Token-0123456789";

std::string castleIni(const std::filesystem::path& state, const std::string& daemonLines) {
    return "[castle]\nedition = classic\n\n[daemon]\nhardware = sim\n" + daemonLines +
           "state_dir = " + state.string() + "\n";
}

HttpAnswer ask(std::uint16_t port, const std::string& head) {
    TestConnection c(port);
    REQUIRE(c.connected());
    REQUIRE(c.send(head + "\r\n"));
    auto answer = c.readAnswer();
    REQUIRE(answer);
    return *answer;
}

std::size_t occurrences(const std::string& text, std::string_view what) {
    std::size_t n = 0;
    for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
}

}  // namespace

TEST_CASE(
    "serve answers its own names and http_names, 421 for others; wrong secrets are slowed, logged once") {
    TempDirectory dir;
    std::ofstream(dir / "castle.ini") << castleIni(
        dir.path(), std::string("host_token = ") + kToken + "\nhttp_names = castle.example, 10.1.2.3\n");
    vivaref::testsupport::ServeProcess serve(
        VIVAREF_BINARY, {"--config", (dir / "castle.ini").string(), "--listen", "127.0.0.1:0"},
        dir / "stderr");
    const auto port = serve.waitForPort(30000ms);
    CAPTURE(readFile(dir / "stderr"));
    REQUIRE(port != 0);
    const std::string p = std::to_string(port);

    for (const std::string& host :
         std::vector<std::string>{"127.0.0.1:" + p, "localhost:" + p, "localhost", "castle.example",
                                  "castle.example:" + p, "10.1.2.3:" + p}) {
        CAPTURE(host);
        const auto answer = ask(port, "GET /api/status HTTP/1.1\r\nHost: " + host + "\r\n");
        CHECK(answer.status == 200);
        CHECK(answer.json()["state"] == "no-game");
    }
    for (const std::string& host :
         std::vector<std::string>{"evil.example", "evil.example:" + p, "castle.example.evil.example"}) {
        CAPTURE(host);
        const auto answer = ask(port, "GET /api/status HTTP/1.1\r\nHost: " + host + "\r\n");
        CHECK(answer.status == 421);
        CHECK(answer.body.starts_with("421 Misdirected Request"));
        CHECK(answer.body.find("no-game") == std::string::npos);
    }
    CHECK(ask(port, "GET /host.html HTTP/1.1\r\nHost: evil.example:" + p + "\r\n").status == 421);
    CHECK(ask(port, "GET /api/status HTTP/1.0\r\n").status == 200);

    // Guessing the host's secret: five free, then the address is closed.
    std::vector<int> statuses;
    for (int i = 0; i < 20; ++i) {
        auto answer = post(
            port, "/api/host/pause", "{}",
            "Content-Type: application/json\r\nAuthorization: Bearer guess-" + std::to_string(i) + "\r\n");
        REQUIRE(answer);
        statuses.push_back(answer->status);
    }
    CHECK(std::vector<int>(statuses.begin(), statuses.begin() + 5) == std::vector<int>(5, 401));
    CHECK(std::vector<int>(statuses.begin() + 5, statuses.end()) == std::vector<int>(15, 429));
    auto right =
        post(port, "/api/host/pause", "{}",
             std::string("Content-Type: application/json\r\nAuthorization: Bearer ") + kToken + "\r\n");
    REQUIRE(right);
    CHECK(right->status == 429);
    CHECK(right->header("Retry-After") == "1");
    // Once the address is open again, the right secret is answered.
    std::this_thread::sleep_for(1100ms);
    right = post(port, "/api/host/new-game", R"({"setup": {"edition": "classic", "seats": 4}})",
                 std::string("Content-Type: application/json\r\nAuthorization: Bearer ") + kToken + "\r\n");
    REQUIRE(right);
    CHECK(right->status == 200);
    CHECK(serve.stop(SIGTERM, 20000ms) == 0);
    const std::string journal = readFile(dir / "stderr");
    CHECK(occurrences(journal, "wrong host secrets from 127.0.0.1") == 1);
    CHECK(journal.find("vivaref serve: 5 wrong host secrets from 127.0.0.1 in ") != std::string::npos);
}

TEST_CASE("a weak host_token: check-config and serve refuse it, naming the file and line") {
    TempDirectory dir;
    const auto ini = dir / "castle.ini";
    for (const std::string token :
         {"1", "aaaaaaaaaaaaaaaaaaaaaaaa", "passwordpassword", "change-me-before-the-party"}) {
        CAPTURE(token);
        std::ofstream(ini) << castleIni(dir.path(), "host_token = " + token + "\n");
        const auto check =
            vivaref::testsupport::runCommand(VIVAREF_BINARY, {"check-config", ini.string()}, 30000ms, "");
        CHECK(check.status == 1);
        CHECK(check.out.find(ini.string() + ":6: daemon.host_token: the host token ") != std::string::npos);
        vivaref::testsupport::ServeProcess serve(
            VIVAREF_BINARY, {"--config", ini.string(), "--listen", "127.0.0.1:0"}, dir / "stderr");
        CHECK(serve.waitExit(30000ms) == 1);
        const std::string said = readFile(dir / "stderr");
        CHECK(said.find(ini.string() + ":6: daemon.host_token: the host token ") != std::string::npos);
        CHECK(said.find("not starting") != std::string::npos);
        std::filesystem::remove(dir / "stderr");
    }
    std::ofstream(ini) << castleIni(dir.path(), std::string("host_token = ") + kToken + "\n");
    CHECK(vivaref::testsupport::runCommand(VIVAREF_BINARY, {"check-config", ini.string()}, 30000ms, "")
              .status == 0);
}
