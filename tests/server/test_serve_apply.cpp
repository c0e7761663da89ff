// A configuration applied between games (POST /api/host/castle/apply,
// serve_daemon.cpp): serve rebuilds its castle and table on the
// configuration in force (castle.ini saved in the state directory) without
// closing its socket or the pages' event streams; refused during a game,
// without the host's secret, and without a configuration. A castle.ini with
// problems at start-up: serve says so and runs on the given file.
#include <signal.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <thread>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "daemon/config/config_in_force.hpp"
#include "test_client.hpp"
#include "tests/server/temp_directory.hpp"
#include "tests/support/serve_process.hpp"

using namespace vivaref::server::testing;
using namespace std::chrono_literals;
using nlohmann::json;

namespace {

constexpr std::string_view kHost =
    "Content-Type: application/json\r\nAuthorization: Bearer serve-apply-Token-2026\r\n";

// The given file: a classic castle of simulated readers, one per classic place (none under wc3).
void writeGiven(const TempDirectory& dir) {
    std::ofstream given(dir / "vivaref.ini");
    given << "[castle]\nedition = classic\n\n[daemon]\nhardware = sim\n"
             "host_token = serve-apply-Token-2026\nstate_dir = "
          << dir.path().string() << "\n";
    for (int place = 0; place <= 6; ++place)
        given << "\n[reader.r" << place << "]\ntype = sim\nplace = " << place << "\n";
}

// The set-up's castle: the 2024 board (so wc3 exists), sim readers, two under floor 3.
vivaref::config::SaveResult saveSetUp(const TempDirectory& dir) {
    using namespace vivaref::config;
    const auto inForce = configInForce(dir / "vivaref.ini");
    CastleConfig castle = inForce.check.config;
    castle.edition = CastleEdition::Vive2024;
    castle.readers.clear();
    for (const auto& place : castlePlaces(CastleEdition::Vive2024)) {
        ReaderConfig r;
        r.name = "sim-" + place;
        r.place = place;
        r.type = ReaderType::Sim;
        castle.readers.push_back(r);
    }
    ReaderConfig second = castle.readers[3];  // floor 3's second reader
    second.name = "sim-3b";
    castle.readers.push_back(second);
    return saveCastleConfig(castle, inForce);
}

int unknownTags(std::uint16_t port) {
    auto status = get(port, "/api/status");
    return status ? status->json()["readers"]["unknown_tags"].get<int>() : -1;
}

// Whether a reader lies under wc3: a castle without one refuses a tag put
// there; one with one sees it (a stray tag put there and one put on floor 3,
// which every castle here reads: the unknown tags the readers saw once floor
// 3's is seen).
bool readsWc3(std::uint16_t port) {
    const int before = unknownTags(port);
    auto wc3 = post(port, "/api/sim/put", R"({"tag": "04AABBCCDD1122", "place": "wc3"})", kHost);
    REQUIRE(wc3);
    if (wc3->status != 200) {
        CHECK(wc3->status / 100 == 4);
        return false;
    }
    auto floor3 = post(port, "/api/sim/put", R"({"tag": "04AABBCCDD3333", "place": "3"})", kHost);
    REQUIRE((floor3 && floor3->status == 200));
    int now = before;
    for (int i = 0; i < 200 && now == before; ++i) {
        std::this_thread::sleep_for(10ms);
        now = unknownTags(port);
    }
    std::this_thread::sleep_for(300ms);  // wc3's reader, if any, has scanned many times over
    now = unknownTags(port);
    CHECK(now > before);
    return now - before == 2;
}

}  // namespace

TEST_CASE(
    "apply between games: the saved castle replaces the running one; the socket and event streams stay") {
    TempDirectory dir;
    writeGiven(dir);
    vivaref::testsupport::ServeProcess serve(
        VIVAREF_BINARY, {"--config", (dir / "vivaref.ini").string(), "--listen", "127.0.0.1:0"},
        dir / "stderr");
    const auto port = serve.waitForPort(30000ms);
    CAPTURE(readFile(dir / "stderr"));
    REQUIRE(port != 0);
    CHECK(readFile(dir / "stderr")
              .find("vivaref serve: the configuration in force is " + (dir / "vivaref.ini").string() +
                    " (no castle saved") != std::string::npos);
    // The classic castle has no reader under wc3.
    CHECK_FALSE(readsWc3(port));

    // Only the host: no secret, a wrong one, a GET.
    auto anon = post(port, "/api/host/castle/apply", "{}");
    REQUIRE(anon);
    CHECK(anon->status == 401);
    auto wrong = post(port, "/api/host/castle/apply", "{}",
                      "Content-Type: application/json\r\nAuthorization: Bearer not-the-host-secret\r\n");
    REQUIRE(wrong);
    CHECK(wrong->status == 401);
    auto asGet = get(port, "/api/host/castle/apply", "Authorization: Bearer serve-apply-Token-2026\r\n");
    REQUIRE(asGet);
    CHECK(asGet->status == 405);

    // A page's event stream, open across the rebuild.
    TestConnection events(port);
    REQUIRE(events.send(request("GET", "/api/events")));
    bool found = false;
    (void)events.readUntil("event: status", 5000ms, found);
    REQUIRE(found);

    const auto saved = saveSetUp(dir);
    INFO(saved.why);
    REQUIRE(saved.saved);
    auto applied = post(port, "/api/host/castle/apply", "{}", kHost);
    REQUIRE(applied);
    CAPTURE(applied->body);
    CHECK(applied->status == 200);
    const json body = applied->json();
    CHECK(body["file"] == (dir / "castle.ini").string());
    CHECK(body["saved"] == true);
    CHECK(body["readers"] == 13);
    CHECK(body["says"]["code"] == "castle.config.applied");
    CHECK(readFile(dir / "stderr")
              .find("vivaref serve: applied " + (dir / "castle.ini").string() + " (13 readers)") !=
          std::string::npos);
    // The new castle: a reader under wc3 sees the tag put there.
    CHECK(readsWc3(port));
    // The Castle page and the self-test follow the new castle: its 13 readers, wc3's among them.
    auto health = get(port, "/api/host/castle", "Authorization: Bearer serve-apply-Token-2026\r\n");
    REQUIRE(health);
    CHECK(health->status == 200);
    const json readers = health->json()["readers"];
    CHECK(readers.size() == 13);
    CHECK(std::any_of(readers.begin(), readers.end(), [](const json& r) { return r["place"] == "wc3"; }));
    auto check = post(port, "/api/host/self-test", "{}", kHost);
    REQUIRE(check);
    CHECK(check->status == 200);
    auto stop = post(port, "/api/host/self-test", R"({"action": "stop"})", kHost);
    REQUIRE(stop);
    CHECK(stop->status == 200);
    // The stream opened before is still served (the readers' new sight changed the status).
    (void)events.readUntil("event: status", 5000ms, found);
    CHECK(found);

    // During a game: refused, with its code and words; after it, applied again.
    auto started = post(port, "/api/host/new-game", R"({"setup": {"edition": "2024", "seats": 4}})", kHost);
    REQUIRE(started);
    CHECK(started->status == 200);
    auto during = post(port, "/api/host/castle/apply", "{}", kHost);
    REQUIRE(during);
    CHECK(during->status == 409);
    CHECK(during->json()["error"] == "castle.config.game-in-progress");
    CHECK(during->json()["says"]["code"] == "castle.config.game-in-progress");
    auto abandoned = post(port, "/api/host/abandon", "{}", kHost);
    REQUIRE(abandoned);
    CHECK(abandoned->status == 200);
    auto after = post(port, "/api/host/castle/apply", "{}", kHost);
    REQUIRE(after);
    CHECK(after->status == 200);
    auto status = get(port, "/api/status");
    REQUIRE(status);
    CHECK(status->status == 200);
    CHECK(serve.stop(SIGTERM, 20000ms) == 0);
}

TEST_CASE(
    "a castle.ini with problems: serve says so at start and runs on the given file; apply says why too") {
    TempDirectory dir;
    writeGiven(dir);
    std::ofstream(dir / "castle.ini") << "[castle]\nedition = 2024\n[reader.lost]\ntype = sim\nplace = 9\n";
    vivaref::testsupport::ServeProcess serve(
        VIVAREF_BINARY, {"--config", (dir / "vivaref.ini").string(), "--listen", "127.0.0.1:0"},
        dir / "stderr");
    const auto port = serve.waitForPort(30000ms);
    CAPTURE(readFile(dir / "stderr"));
    REQUIRE(port != 0);
    const std::string said = readFile(dir / "stderr");
    CHECK(said.find("vivaref serve: " + (dir / "castle.ini").string() +
                    ", the castle saved by the set-up, cannot be used (" + (dir / "castle.ini").string() +
                    ":5: reader.lost.place: ") != std::string::npos);
    CHECK(said.find("the configuration in force is " + (dir / "vivaref.ini").string() + "\n") !=
          std::string::npos);
    CHECK_FALSE(readsWc3(port));  // the given classic castle
    // Applying: the file in force is the given one; the answer says why.
    auto applied = post(port, "/api/host/castle/apply", "{}", kHost);
    REQUIRE(applied);
    CHECK(applied->status == 200);
    CHECK(applied->json()["saved"] == false);
    CHECK(applied->json()["why"].get<std::string>().find("cannot be used") != std::string::npos);
    CHECK(serve.stop(SIGTERM, 20000ms) == 0);
}

TEST_CASE("without --config there is nothing to apply") {
    TempDirectory dir;
    vivaref::testsupport::ServeProcess serve(
        VIVAREF_BINARY, {"--db", (dir / "games.sqlite").string(), "--listen", "127.0.0.1:0"}, dir / "stderr");
    const auto port = serve.waitForPort(30000ms);
    CAPTURE(readFile(dir / "stderr"));
    REQUIRE(port != 0);
    const std::string secret = readFile(dir / "host-secret");
    const std::string token = secret.substr(0, secret.find_first_of("\r\n"));
    auto applied = post(port, "/api/host/castle/apply", "{}",
                        "Content-Type: application/json\r\nAuthorization: Bearer " + token + "\r\n");
    REQUIRE(applied);
    CHECK(applied->status == 503);
    CHECK(applied->json()["error"] == "castle.config.no-file");
    CHECK(serve.stop(SIGTERM, 20000ms) == 0);
}
