// `vivaref serve` itself, as systemd runs it: started on the simulated
// castle with a fake notify socket, asked over HTTP, stopped by SIGTERM
// (exit status 0, the game saved and resumed by the next start). Every wait
// is bounded: poll() on the process's output, its pidfd and the socket.
#include <signal.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <doctest/doctest.h>

#include "fake_systemd.hpp"
#include "test_client.hpp"
#include "tests/support/serve_process.hpp"

using namespace vivaref::server::testing;
using nlohmann::json;

namespace {

class TempDirectory {
public:
    TempDirectory() {
        std::string pattern = (std::filesystem::temp_directory_path() / "vivaref-serve-XXXXXX").string();
        path_ = ::mkdtemp(pattern.data());
    }
    ~TempDirectory() {
        std::error_code ignored;
        std::filesystem::remove_all(path_, ignored);
    }
    std::filesystem::path operator/(const char* name) const { return path_ / name; }
    const std::filesystem::path& path() const { return path_; }

private:
    std::filesystem::path path_;
};

// `vivaref serve ARGS`, killed and reaped on every way out of the test
// (tests/support/serve_process.hpp).
class ServeProcess : public vivaref::testsupport::ServeProcess {
public:
    ServeProcess(const std::vector<std::string>& args, const std::filesystem::path& stderrFile,
                 std::vector<std::string> extraEnvironment = {})
        : vivaref::testsupport::ServeProcess(VIVAREF_BINARY, args, stderrFile, std::move(extraEnvironment)) {}
};

std::string readFile(const std::filesystem::path& file) {
    std::ifstream in(file);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

// The next notification that is not a watchdog pet.
std::optional<std::string> nextState(FakeSystemd& systemd) {
    for (;;) {
        auto message = systemd.receive(10000ms);
        if (!message || *message != "WATCHDOG=1") return message;
    }
}

}  // namespace

TEST_CASE(
    "serve: READY=1 once listening, watchdog pets, answers, SIGTERM saves and exits 0, restart resumes") {
    TempDirectory dir;
    FakeSystemd systemd;
    REQUIRE(systemd.ok());
    const std::vector<std::string> args = {
        "--hardware=sim", "--listen", "127.0.0.1:0", "--db", (dir / "games.sqlite").string(), "--seed", "7"};
    const std::vector<std::string> env = {"NOTIFY_SOCKET=" + systemd.path(), "WATCHDOG_USEC=200000"};
    {
        ServeProcess serve(args, dir / "stderr-1", env);
        const auto port = serve.waitForPort(30000ms);
        CAPTURE(readFile(dir / "stderr-1"));
        REQUIRE(port != 0);

        auto ready = nextState(systemd);
        REQUIRE(ready);
        CHECK(ready->starts_with("READY=1\nSTATUS=listening on http://127.0.0.1:"));
        bool petted = false;
        for (int i = 0; i < 5 && !petted; ++i) {
            auto message = systemd.receive(10000ms);
            REQUIRE(message);
            petted = *message == "WATCHDOG=1";
        }
        CHECK(petted);

        auto status = get(port, "/api/status");
        REQUIRE(status);
        CHECK(status->status == 200);
        CHECK(status->json()["state"] == "no-game");
        auto info = get(port, "/api/info");
        REQUIRE(info);
        CHECK(info->json()["simulated"] == true);

        auto started =
            post(port, "/api/host/new-game",
                 R"({"setup": {"edition": "classic", "seats": 3}, "players": ["Ann", "Bob", "Cy"]})");
        REQUIRE(started);
        CHECK(started->status == 200);
        auto gameStatus = nextState(systemd);
        REQUIRE(gameStatus);
        CHECK(*gameStatus == "STATUS=game 1");

        CHECK(serve.stop(SIGTERM, 20000ms) == 0);
        auto stopping = nextState(systemd);
        REQUIRE(stopping);
        CHECK(*stopping == "STOPPING=1");
        CHECK(readFile(dir / "stderr-1").find("stopped (SIGTERM)") != std::string::npos);
    }
    {
        ServeProcess serve(args, dir / "stderr-2", env);
        const auto port = serve.waitForPort(30000ms);
        CAPTURE(readFile(dir / "stderr-2"));
        REQUIRE(port != 0);
        CHECK(readFile(dir / "stderr-2").find("resumed game 1") != std::string::npos);
        auto status = get(port, "/api/status");
        REQUIRE(status);
        CHECK(status->json()["game"] == 1);
        auto games = get(port, "/api/games");
        REQUIRE(games);
        CHECK(games->json()[0]["status"] == "in-progress");
        CHECK(serve.stop(SIGINT, 20000ms) == 0);
    }
}

TEST_CASE("serve with a configuration: the host token guards the host's routes") {
    TempDirectory dir;
    std::ofstream(dir / "castle.ini") << "[castle]\nedition = classic\n\n[daemon]\nhardware = sim\n"
                                         "host_token = serve-test-token\nstate_dir = "
                                      << dir.path().string() << "\n";
    ServeProcess serve({"--config", (dir / "castle.ini").string(), "--listen", "127.0.0.1:0"},
                       dir / "stderr");
    const auto port = serve.waitForPort(30000ms);
    CAPTURE(readFile(dir / "stderr"));
    REQUIRE(port != 0);
    auto refused = post(port, "/api/host/pause", "{}");
    REQUIRE(refused);
    CHECK(refused->status == 401);
    auto allowed = post(port, "/api/host/new-game", R"({"setup": {"edition": "classic", "seats": 4}})",
                        "Content-Type: application/json\r\nAuthorization: Bearer serve-test-token\r\n");
    REQUIRE(allowed);
    CHECK(allowed->status == 200);
    CHECK(serve.stop(SIGTERM, 20000ms) == 0);
    // The game log went where the configuration said.
    CHECK(std::filesystem::exists(dir / "games.sqlite"));
}

TEST_CASE("serve refuses to start on a bad configuration, a bad address or a taken port") {
    TempDirectory dir;
    std::ofstream(dir / "bad.ini") << "[castle]\nedition = chess\n";
    {
        ServeProcess serve({"--config", (dir / "bad.ini").string()}, dir / "stderr-config");
        CHECK(serve.waitExit(30000ms) == 1);
        const auto text = readFile(dir / "stderr-config");
        CHECK(text.find("bad.ini:2") != std::string::npos);
        CHECK(text.find("not starting") != std::string::npos);
    }
    {
        ServeProcess serve({"--listen", "localhost:80x"}, dir / "stderr-listen");
        CHECK(serve.waitExit(30000ms) == 2);
        CHECK(readFile(dir / "stderr-listen").find("listen address") != std::string::npos);
    }
    {
        ServeProcess first({"--listen", "127.0.0.1:0", "--db", (dir / "a.sqlite").string()},
                           dir / "stderr-a");
        const auto port = first.waitForPort(30000ms);
        REQUIRE(port != 0);
        ServeProcess second(
            {"--listen", "127.0.0.1:" + std::to_string(port), "--db", (dir / "b.sqlite").string()},
            dir / "stderr-b");
        CHECK(second.waitExit(30000ms) == 2);
        CHECK(readFile(dir / "stderr-b").find("cannot bind") != std::string::npos);
        CHECK(first.stop(SIGTERM, 20000ms) == 0);
    }
}
