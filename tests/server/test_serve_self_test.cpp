// The self-test on `vivaref serve`'s simulated castle playing a bench (a
// dead reader, a stuck key, a dead LED): through its routes (host only,
// refused during a game, the LEDs taken over while it runs) and through
// `vivaref self-test` on the terminal (its words, its exit statuses).
#include <signal.h>

#include <filesystem>
#include <fstream>
#include <thread>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "test_client.hpp"
#include "tests/server/temp_directory.hpp"
#include "tests/support/child_process.hpp"
#include "tests/support/serve_process.hpp"

using namespace vivaref::server::testing;
using namespace std::chrono_literals;
using nlohmann::json;

namespace {

constexpr const char* kSelfTestToken = "self-test-token-0123456789abcdef";

// Readers rP under place P on gpiochip0:(20+P); station 0's keys; the LEDs of
// floors 3 and 4. The bench: r0's chip is missing, station 0's Yes is stuck,
// floor 3's LED line drives nothing.
void writeSelfTestCastle(const std::filesystem::path& dir) {
    std::ofstream ini(dir / "castle.ini");
    ini << "[daemon]\nhardware = sim\nhost_token = " << kSelfTestToken << "\nstate_dir = " << dir.string()
        << "\nsim_bench = bench.txt\n";
    for (int p = 0; p <= 6; ++p)
        ini << "[reader.r" << p << "]\nplace = " << p
            << "\nbus = /dev/spidev0.1\nchip_select = gpiochip0:" << 20 + p << "\n";
    ini << "[station.0]\nyes = gpiochip2:0\nno = gpiochip2:1\n[leds]\nplace.3 = gpiochip5:3\nplace.4 = "
           "gpiochip0:5\n";
    std::ofstream(dir / "bench.txt") << "no-chip gpiochip0:20\nstuck station.0.yes\ndead-led place.3\n";
}

json selfTestBody(const std::optional<HttpAnswer>& r) {
    return r ? json::parse(r->body, nullptr, false) : json();
}

// The self-test's state once its step is `step` (within a few seconds).
json selfTestAt(std::uint16_t port, const std::string& host, const std::string& step) {
    json state;
    for (int i = 0; i < 100; ++i) {
        state = selfTestBody(get(port, "/api/host/self-test", host));
        if (state.value("step", "") == step && !state["answers"].empty()) return state;
        std::this_thread::sleep_for(100ms);
    }
    return state;
}

}  // namespace

TEST_CASE("serve's self-test: host only, refused during a game, each fault named with its fix") {
    TempDirectory dir;
    writeSelfTestCastle(dir.path());
    vivaref::testsupport::ServeProcess serve(
        VIVAREF_BINARY, {"--config", (dir / "castle.ini").string(), "--listen", "127.0.0.1:0"},
        dir / "stderr");
    const auto port = serve.waitForPort(30000ms);
    CAPTURE(readFile(dir / "stderr"));
    REQUIRE(port != 0);
    const std::string host =
        std::string("Content-Type: application/json\r\nAuthorization: Bearer ") + kSelfTestToken + "\r\n";

    // No secret, or a player's token: nothing of it.
    CHECK(get(port, "/api/host/self-test")->status == 401);
    CHECK(post(port, "/api/host/self-test", "{}", "Content-Type: application/json\r\n")->status == 401);
    CHECK(
        post(port, "/api/host/self-test/answer", R"({"answer": "lit"})", "Content-Type: application/json\r\n")
            ->status == 401);
    REQUIRE(
        post(port, "/api/host/new-game", R"({"setup": {"edition": "classic", "seats": 3}})", host)->status ==
        200);
    const json players = selfTestBody(get(port, "/api/host/players", host));
    REQUIRE(players["players"].is_array());
    const std::string path = players["players"][0]["path"];
    const std::string playerToken = path.substr(path.find('#') + 1);
    CHECK(get(port, "/api/host/self-test", "Authorization: Bearer " + playerToken + "\r\n")->status == 401);

    // During a game: refused, with its reason in words.
    auto during = post(port, "/api/host/self-test", "{}", host);
    REQUIRE(during);
    CHECK(during->status == 409);
    CHECK(selfTestBody(during)["error"] == "game-in-progress");
    CHECK(selfTestBody(during)["says"]["code"] == "castle.walk.refused-game");
    // `vivaref self-test` cannot run then: 2.
    auto refusedRun = vivaref::testsupport::runCommand(
        VIVAREF_BINARY,
        {"self-test", "--config", (dir / "castle.ini").string(), "--url",
         "http://127.0.0.1:" + std::to_string(port)},
        30000ms, vivaref::testsupport::CommandOptions{"", {}, dir / "refused-stderr"});
    CHECK(refusedRun.status == 2);
    CHECK(readFile(dir / "refused-stderr").find("game-in-progress") != std::string::npos);
    REQUIRE(post(port, "/api/host/abandon", "{}", host)->status == 200);

    // Between games: it runs. Nothing is asked while the readers are.
    auto started = post(port, "/api/host/self-test", "{}", host);
    REQUIRE(started);
    REQUIRE(started->status == 200);
    CHECK(selfTestBody(started)["step"] == "readers");
    CHECK(post(port, "/api/host/self-test/answer", R"({"answer": "lit"})", host)->status == 409);
    CHECK(post(port, "/api/host/self-test/answer", R"({"answer": "maybe"})", host)->status == 400);

    // The LEDs, each lit alone: floor 3's line drives nothing, so the castle shows it dark.
    json state = selfTestAt(port, host, "leds");
    REQUIRE(state["step"] == "leds");
    CHECK(state["prompt"]["text"] == "Is the LED of floor 3 lit?");
    CHECK(selfTestBody(get(port, "/api/sim/leds")) == json::object());
    REQUIRE(post(port, "/api/host/self-test/answer", R"({"answer": "not-lit"})", host)->status == 200);
    std::this_thread::sleep_for(200ms);
    CHECK(selfTestBody(get(port, "/api/sim/leds")) == json{{"place-4", "on"}});
    REQUIRE(post(port, "/api/host/self-test/answer", R"({"answer": "lit"})", host)->status == 200);

    // The keys: the stuck Yes reads pressed while nobody touches a key, so only No is asked for.
    state = selfTestAt(port, host, "keys");
    CHECK(state["prompt"]["text"] == "Press the No key of seat 1.");
    REQUIRE(post(port, "/api/sim/press", R"({"station": 0, "key": "no"})", host)->status == 200);
    for (int i = 0; i < 50 && state["running"] == true; ++i) {
        std::this_thread::sleep_for(100ms);
        state = selfTestBody(get(port, "/api/host/self-test", host));
    }
    CHECK(state["running"] == false);
    CHECK(state["step"] == "done");
    CHECK(state["faults"] == 3);
    std::vector<std::string> found;
    for (const auto& f : state["findings"])
        found.push_back(f["finding"]["text"].get<std::string>() + " " + f["fix"]["text"].get<std::string>());
    CAPTURE(state.dump());
    REQUIRE(found.size() == 3);
    CHECK(found[0] ==
          "r0 (floor 0) does not answer. Check its chip select, GPIO 20, header pin 38, then its bus "
          "/dev/spidev0.1 and its power.");
    CHECK(found[1] == "Not lit: the LED of floor 3. Check the LED, its resistor and gpiochip5 line 3.");
    CHECK(found[2] ==
          "The Yes key of seat 1 answers untouched. It is stuck down or its line floats: check the key "
          "and gpiochip2 line 0.");
    CHECK(state["findings"][0]["finding"]["says"]["code"] == "castle.finding.reader-silent");
    CHECK(post(port, "/api/host/self-test/answer", R"({"answer": "lit"})", host)->status == 409);

    // `vivaref self-test` on the terminal, in French: the LEDs answered on
    // standard input (n, y); the stuck key found again; at the end of the input the
    // No key is skipped. Faults: 3.
    auto run =
        vivaref::testsupport::runCommand(VIVAREF_BINARY,
                                         {"self-test", "--config", (dir / "castle.ini").string(), "--url",
                                          "http://127.0.0.1:" + std::to_string(port), "--lang", "fr"},
                                         60000ms, "n\ny\n");
    CAPTURE(run.out);
    CAPTURE(run.err);
    CHECK(run.status == 1);
    CHECK(run.out.find("Est-ce que la LED de l’étage 3 est allumée ?") != std::string::npos);
    CHECK(run.out.find("r0 (l’étage 0) ne répond pas.") != std::string::npos);
    CHECK(run.out.find("Vérifiez son chip select, GPIO 20, broche 38 du connecteur") != std::string::npos);
    CHECK(run.out.find("Ne s’allume pas : la LED de l’étage 3.") != std::string::npos);
    CHECK(run.out.find("La vérification est terminée : 3 défauts à corriger.") != std::string::npos);
    CHECK(run.out.find("La touche Oui du siège 1 répond sans être touchée.") != std::string::npos);
    CHECK(serve.stop(SIGTERM, 20000ms) == 0);
}
