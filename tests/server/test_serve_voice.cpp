// `vivaref serve` with the voice on a speaker it cannot open (no sound card
// on this machine, or a PCM that does not exist): it starts all the same,
// says why on stderr, and the status (the host page) shows the speaker's
// problem; the game is played and the voice's lines still reach the pages.
#include <signal.h>

#include <filesystem>
#include <fstream>
#include <thread>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "test_client.hpp"
#include "tests/server/temp_directory.hpp"
#include "tests/support/serve_process.hpp"

using namespace vivaref::server::testing;
using namespace std::chrono_literals;
using nlohmann::json;

TEST_CASE("serve starts without a sound card: the voice's problem is shown, and the game goes on") {
    TempDirectory dir;
    std::ofstream(dir / "castle.ini")
        << "[castle]\nedition = classic\n\n[daemon]\nhardware = sim\n"
           "host_token = serve-voice-token\nstate_dir = "
        << dir.path().string()
        << "\n\n[voice]\nenabled = true\noutput = espeak\npcm = vivaref-no-such-card\n";
    vivaref::testsupport::ServeProcess serve(
        VIVAREF_BINARY, {"--config", (dir / "castle.ini").string(), "--listen", "127.0.0.1:0"},
        dir / "stderr");
    const auto port = serve.waitForPort(30000ms);
    CAPTURE(readFile(dir / "stderr"));
    REQUIRE(port != 0);
    CHECK(readFile(dir / "stderr").find("vivaref serve: the voice is silent: ") != std::string::npos);
    auto status = get(port, "/api/status");
    REQUIRE(status);
    json voice = json::parse(status->body)["voice"];
    CHECK(voice["enabled"] == true);
    CHECK(voice["speaker"] == "espeak");
    REQUIRE(voice["problem"].is_string());
    CHECK_FALSE(voice["problem"].get<std::string>().empty());

    // A game and a refusal: the lines go to the pages, the daemon stays up.
    const std::string host = "Content-Type: application/json\r\nAuthorization: Bearer serve-voice-token\r\n";
    auto started = post(port, "/api/host/new-game", R"({"setup": {"edition": "classic", "seats": 4}})", host);
    REQUIRE(started);
    CHECK(started->status == 200);
    CHECK(post(port, "/api/host/deal", "{}", host));  // or the referee deals a second later
    std::this_thread::sleep_for(1500ms);
    auto put = post(port, "/api/sim/put", R"({"character": "dario", "place": "5"})", host);
    REQUIRE(put);
    CHECK(put->status == 200);
    bool refused = false;
    for (int i = 0; i < 100 && !refused; ++i) {
        std::this_thread::sleep_for(50ms);
        status = get(port, "/api/status");
        refused = status && !json::parse(status->body)["refusal"].is_null();
    }
    CHECK(refused);
    CHECK(serve.stop(SIGTERM, 20000ms) == 0);
}
