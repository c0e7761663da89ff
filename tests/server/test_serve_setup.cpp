// The guided set-up on `vivaref serve`'s simulated castle playing a bench
// (two readers swapped, a coupled pair, a dead LED): through its routes
// (host only, refused during a game), the castle.ini it writes (the swapped
// readers under the places where their tags were seen, valid for
// check-config, in force once saved), and the set-ups that go wrong: one
// abandoned halfway, two places claiming one reader, a disk that refuses the save.
#include <signal.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "daemon/config/config_writer.hpp"
#include "test_client.hpp"
#include "tests/server/fake_systemd.hpp"
#include "tests/server/temp_directory.hpp"
#include "tests/support/child_process.hpp"
#include "tests/support/serve_process.hpp"

using namespace vivaref::server::testing;
using namespace std::chrono_literals;
using nlohmann::json;

namespace {

constexpr const char* kSetupToken = "setup-token-0123456789abcdefXY";

// Readers rP under place P on gpiochip0:(20+P); station 0's keys; the LEDs
// of floors 3 and 4. The bench: r1's and r2's chips swapped (each under the
// other's place), r5 and r6 coupled, floor 3's LED line dead.
void writeSetupCastle(const std::filesystem::path& dir) {
    std::filesystem::create_directories(dir / "state");
    std::ofstream ini(dir / "vivaref.ini");
    ini << "[daemon]\nhardware = sim\nhost_token = " << kSetupToken
        << "\nstate_dir = " << (dir / "state").string() << "\nsim_bench = bench.txt\n";
    for (int p = 0; p <= 6; ++p)
        ini << "[reader.r" << p << "]\nplace = " << p
            << "\nbus = /dev/spidev0.1\nchip_select = gpiochip0:" << 20 + p << "\n";
    ini << "[station.0]\nyes = gpiochip2:0\nno = gpiochip2:1\n[leds]\nplace.3 = gpiochip5:3\nplace.4 = "
           "gpiochip0:5\n";
    std::ofstream(dir / "bench.txt") << "chip gpiochip0:21 under 2\nchip gpiochip0:22 under 1\n"
                                        "couple gpiochip0:25 gpiochip0:26\ndead-led place.3\n";
}

std::string readAll(const std::filesystem::path& file) {
    std::ifstream in(file);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

json setupBody(const std::optional<HttpAnswer>& r) {
    return r ? json::parse(r->body, nullptr, false) : json();
}

std::string hostHeaders() {
    return std::string("Content-Type: application/json\r\nAuthorization: Bearer ") + kSetupToken + "\r\n";
}

// The set-up's state once `ready` holds (within a few seconds).
json setupWhen(std::uint16_t port, const std::function<bool(const json&)>& ready) {
    json state;
    for (int i = 0; i < 100; ++i) {
        state = setupBody(get(port, "/api/host/setup", hostHeaders()));
        if (ready(state)) return state;
        std::this_thread::sleep_for(100ms);
    }
    return state;
}

json answerSetup(std::uint16_t port, const json& body, int status = 200) {
    auto r = post(port, "/api/host/setup/answer", body.dump(), hostHeaders());
    REQUIRE(r);
    CAPTURE(r->body);
    CHECK(r->status == status);
    return setupBody(r);
}

// Puts the set-up's tag on `place` (`field` "over": over that reader's
// spot; the tag of the spot before lifted first) and waits until the spot
// is settled: assigned (the next spot asked) or an outcome for the host.
json putTag(std::uint16_t port, const std::string& place, const std::string& field = "place") {
    const std::string tag = R"({"tag": "04AABBCCDD1122")";
    REQUIRE(post(port, "/api/sim/lift", tag + "}", hostHeaders())->status == 200);
    const json before = setupWhen(port, [](const json& s) { return s["spot"]["outcome"] == "waiting"; });
    REQUIRE(before["spot"]["outcome"] == "waiting");
    REQUIRE(
        post(port, "/api/sim/put", tag + ", \"" + field + "\": \"" + place + "\"}", hostHeaders())->status ==
        200);
    return setupWhen(port, [&](const json& s) {
        return s["step"] != "places" || s["spot"]["item"] != before["spot"]["item"] ||
               s["spot"]["outcome"] != "waiting";
    });
}

int readersOnCastle(std::uint16_t port) {
    const json castle = setupBody(get(port, "/api/host/castle", hostHeaders()));
    return castle["readers"].is_array() ? static_cast<int>(castle["readers"].size()) : -1;
}

}  // namespace

TEST_CASE("serve's set-up: host only, refused during a game; the bench's castle written, valid, in force") {
    TempDirectory dir;
    writeSetupCastle(dir.path());
    vivaref::testsupport::ServeProcess serve(
        VIVAREF_BINARY, {"--config", (dir / "vivaref.ini").string(), "--listen", "127.0.0.1:0"},
        dir / "stderr");
    const auto port = serve.waitForPort(30000ms);
    CAPTURE(readAll(dir / "stderr"));
    REQUIRE(port != 0);
    const std::string host = hostHeaders();

    // No secret, or a player's token: nothing of it.
    CHECK(get(port, "/api/host/setup")->status == 401);
    CHECK(post(port, "/api/host/setup", "{}", "Content-Type: application/json\r\n")->status == 401);
    CHECK(post(port, "/api/host/setup/answer", R"({"answer": "skip"})", "Content-Type: application/json\r\n")
              ->status == 401);
    REQUIRE(
        post(port, "/api/host/new-game", R"({"setup": {"edition": "classic", "seats": 3}})", host)->status ==
        200);
    const json players = setupBody(get(port, "/api/host/players", host));
    REQUIRE(players["players"].is_array());
    const std::string path = players["players"][0]["path"];
    const std::string playerToken = path.substr(path.find('#') + 1);
    CHECK(get(port, "/api/host/setup", "Authorization: Bearer " + playerToken + "\r\n")->status == 401);
    CHECK(post(port, "/api/host/setup", "{}",
               "Content-Type: application/json\r\nAuthorization: Bearer " + playerToken + "\r\n")
              ->status == 401);

    // During a game: refused, with its reason in words.
    auto during = post(port, "/api/host/setup", "{}", host);
    REQUIRE(during);
    CHECK(during->status == 409);
    CHECK(setupBody(during)["error"] == "game-in-progress");
    CHECK(setupBody(during)["says"]["code"] == "castle.setup.refused-game");
    REQUIRE(post(port, "/api/host/abandon", "{}", host)->status == 200);
    CHECK(post(port, "/api/host/setup", R"({"from": "elsewhere"})", host)->status == 400);

    // Started from the configuration in force: the first spot is r0's, over floor 0.
    auto started = post(port, "/api/host/setup", R"({"from": "in-force"})", host);
    REQUIRE(started);
    CAPTURE(started->body);
    REQUIRE(started->status == 200);
    CHECK(setupBody(started)["step"] == "places");
    CHECK(setupBody(started)["spot"]["reader"] == "r0");
    // The self-test and the host's apply wait while the castle is set up.
    CHECK(post(port, "/api/host/self-test", "{}", host)->status == 409);
    CHECK(setupBody(post(port, "/api/host/castle/apply", "{}", host))["error"] == "castle.setup.running");

    json state = putTag(port, "0");
    CHECK(state["assigned"]["r0"] == "0");
    CHECK(state["spot"]["reader"] == "r1");
    CHECK(state["prompt"]["text"] == "Take every tag off the castle.");
    // r1's spot (floor 1) is read by r2's chip, and r2's by r1's: swapped.
    state = putTag(port, "1");
    CHECK(state["assigned"]["r2"] == "1");
    state = putTag(port, "2");
    CHECK(state["assigned"]["r1"] == "2");
    putTag(port, "3");
    state = putTag(port, "4");
    CHECK(state["spot"]["reader"] == "r5");
    // r5 and r6 are coupled: both see the tag over r5's spot. The host chooses r5.
    state = putTag(port, "5");
    CAPTURE(state.dump());
    REQUIRE(state["spot"]["outcome"] == "coupled");
    CHECK(state["prompt"]["text"] ==
          "r5 and r6 both see the tag on floor 5: choose which one is this spot’s reader, or separate them "
          "and try again.");
    CHECK(state["fix"]["says"]["code"] == "castle.fix.coupled");
    CHECK(state["answers"] == json{"choose", "retry", "skip"});
    answerSetup(port, {{"answer", "choose"}, {"reader", "nobody"}}, 400);
    state = answerSetup(port, {{"answer", "choose"}, {"reader", "r5"}});
    CHECK(state["assigned"]["r5"] == "5");
    // Over r6's spot both again: r5 is floor 5's already, so two places claiming it are refused.
    state = putTag(port, "6");
    REQUIRE(state["spot"]["outcome"] == "coupled");
    const json claimed = answerSetup(port, {{"answer", "choose"}, {"reader", "r5"}}, 409);
    CHECK(claimed["error"] == "claimed");
    CHECK(claimed["says"]["code"] == "castle.setup.claimed");
    state = setupBody(get(port, "/api/host/setup", host));
    CHECK(state["spot"]["outcome"] == "claimed");
    CHECK(state["answers"] == json{"retry", "skip"});
    CHECK(state["assigned"]["r5"] == "5");
    answerSetup(port, {{"answer", "retry"}});
    state = putTag(port, "6");
    REQUIRE(state["spot"]["outcome"] == "coupled");
    state = answerSetup(port, {{"answer", "choose"}, {"reader", "r6"}});
    CHECK(state["step"] == "checks");
    REQUIRE(post(port, "/api/sim/lift", R"({"tag": "04AABBCCDD1122"})", host)->status == 200);

    // The checks: the walk's LEDs (floor 3's dead, as the castle shows) and keys.
    state =
        setupWhen(port, [](const json& s) { return s["checks"]["step"] == "leds" && !s["answers"].empty(); });
    REQUIRE(state["checks"]["step"] == "leds");
    CHECK(state["prompt"]["text"] == "Is the LED of floor 3 lit?");
    CHECK(setupBody(get(port, "/api/sim/leds")) == json::object());
    answerSetup(port, {{"answer", "not-lit"}});
    answerSetup(port, {{"answer", "lit"}});
    state = setupWhen(port, [](const json& s) {
        return s["checks"]["step"] == "keys" && s["prompt"]["says"]["code"] == "castle.walk.key";
    });
    CHECK(state["prompt"]["text"] == "Press the Yes key of seat 1.");
    REQUIRE(post(port, "/api/sim/press", R"({"station": 0, "key": "yes"})", host)->status == 200);
    state =
        setupWhen(port, [](const json& s) { return s["prompt"]["text"] == "Press the No key of seat 1."; });
    REQUIRE(post(port, "/api/sim/press", R"({"station": 0, "key": "no"})", host)->status == 200);

    // The review: the INI to be written, no problems; the dead LED said with its fix.
    state = setupWhen(port, [](const json& s) { return s["step"] == "review"; });
    REQUIRE(state["step"] == "review");
    CHECK(state["problems"] == json::array());
    CHECK(state["prompt"]["says"]["code"] == "castle.setup.review");
    const std::string ini = state["ini"];
    CHECK(ini.find("[reader.r1]") != std::string::npos);
    REQUIRE(state["checks"]["findings"].size() == 1);
    CHECK(state["checks"]["findings"][0]["finding"]["says"]["code"] == "castle.finding.led-dark");
    CHECK(state["answers"] == json{"save"});

    // Saved and applied: castle.ini is the text reviewed, valid for check-config, and in force.
    const json saved = answerSetup(port, {{"answer", "save"}});
    CHECK(saved["step"] == "done");
    CHECK(saved["prompt"]["says"]["code"] == "castle.setup.saved");
    CHECK(saved["ended"]["saved"] == true);
    const auto castleIni = dir / "state" / "castle.ini";
    REQUIRE(std::filesystem::exists(castleIni));
    // The text reviewed, but for the host's secret, which the review does not show.
    CHECK(ini.find(kSetupToken) == std::string::npos);
    CHECK(ini.find("host_token = ********") != std::string::npos);
    CHECK(readAll(castleIni).find(std::string("host_token = ") + kSetupToken) != std::string::npos);
    CHECK(vivaref::config::withSecretsHidden(readAll(castleIni)) == ini);
    auto check =
        vivaref::testsupport::runCommand(VIVAREF_BINARY, {"check-config", castleIni.string()}, 30000ms);
    CHECK(check.status == 0);
    // The swapped readers under where their tags were seen; the others where they were.
    auto placeOf = [&ini](const std::string& reader) {
        const auto at = ini.find("[reader." + reader + "]");
        const auto place = ini.find("place = ", at);
        return at == std::string::npos ? std::string()
                                       : ini.substr(place + 8, ini.find('\n', place) - place - 8);
    };
    CHECK(placeOf("r1") == "2");
    CHECK(placeOf("r2") == "1");
    CHECK(placeOf("r0") == "0");
    CHECK(placeOf("r6") == "6");
    CHECK(readAll(dir / "stderr").find("applied " + castleIni.string()) != std::string::npos);
    // In force: a tag on floor 1 is now seen by the reader the castle calls floor 1's (r2).
    const json report = setupBody(get(port, "/api/host/castle", host));
    bool r2OnFloor1 = false;
    for (const auto& r : report["readers"])
        r2OnFloor1 = r2OnFloor1 || (r["name"] == "r2" && r["place"] == "1");
    CHECK(r2OnFloor1);
}

TEST_CASE("serve's set-up gone wrong: abandoned halfway, a new game, a disk that refuses the save") {
    TempDirectory dir;
    writeSetupCastle(dir.path());
    vivaref::testsupport::ServeProcess serve(
        VIVAREF_BINARY, {"--config", (dir / "vivaref.ini").string(), "--listen", "127.0.0.1:0"},
        dir / "stderr");
    const auto port = serve.waitForPort(30000ms);
    CAPTURE(readAll(dir / "stderr"));
    REQUIRE(port != 0);
    const std::string host = hostHeaders();
    const std::string given = readAll(dir / "vivaref.ini");
    REQUIRE(readersOnCastle(port) == 7);

    // From the example castle: its 28 readers tried, unsaved.
    auto started = post(port, "/api/host/setup", R"({"from": "example"})", host);
    REQUIRE(started);
    CAPTURE(started->body);
    REQUIRE(started->status == 200);
    CHECK(setupBody(started)["readers"] == 28);
    CHECK(setupBody(started)["spot"]["reader"] == "floor0-a");
    CHECK(readersOnCastle(port) == 28);
    // Stopped halfway: nothing saved, the castle back on the configuration in force.
    auto stopped = post(port, "/api/host/setup", R"({"action": "stop"})", host);
    REQUIRE(stopped);
    CHECK(stopped->status == 200);
    CHECK(setupBody(stopped)["prompt"]["says"]["code"] == "castle.setup.cancelled");
    CHECK(setupBody(stopped)["running"] == false);
    CHECK(readersOnCastle(port) == 7);
    CHECK_FALSE(std::filesystem::exists(dir / "state" / "castle.ini"));
    CHECK(readAll(dir / "vivaref.ini") == given);
    CHECK(post(port, "/api/host/setup/answer", R"({"answer": "skip"})", host)->status == 409);

    // Abandoned by a new game: the game is played on the configuration in force.
    REQUIRE(post(port, "/api/host/setup", R"({"from": "example"})", host)->status == 200);
    CHECK(readersOnCastle(port) == 28);
    REQUIRE(
        post(port, "/api/host/new-game", R"({"setup": {"edition": "classic", "seats": 3}})", host)->status ==
        200);
    CHECK(readersOnCastle(port) == 7);
    const json afterGame = setupBody(get(port, "/api/host/setup", host));
    CHECK(afterGame["running"] == false);
    CHECK(afterGame["prompt"]["says"]["code"] == "castle.setup.stopped-game");
    REQUIRE(post(port, "/api/host/abandon", "{}", host)->status == 200);

    // A disk that refuses the save (the temporary file cannot be made: a
    // directory is in its way, for root too): the previous configuration
    // stays in force, the castle back on it, and the answer says why.
    std::filesystem::create_directories(dir / "state" / "castle.ini.new");
    REQUIRE(post(port, "/api/host/setup", R"({"from": "in-force"})", host)->status == 200);
    for (int spot = 0; spot < 7; ++spot) answerSetup(port, {{"answer", "skip"}});
    json state =
        setupWhen(port, [](const json& s) { return s["checks"]["step"] == "leds" && !s["answers"].empty(); });
    for (int i = 0; i < 2; ++i) answerSetup(port, {{"answer", "skip"}});
    state = setupWhen(port, [](const json& s) { return s["prompt"]["says"]["code"] == "castle.walk.key"; });
    for (int i = 0; i < 2; ++i) answerSetup(port, {{"answer", "skip"}});
    state = setupWhen(port, [](const json& s) { return s["step"] == "review"; });
    REQUIRE(state["step"] == "review");
    auto refused = post(port, "/api/host/setup/answer", R"({"answer": "save"})", host);
    REQUIRE(refused);
    CAPTURE(refused->body);
    CHECK(refused->status == 409);
    CHECK(setupBody(refused)["says"]["code"] == "castle.config.not-saved");
    CHECK(setupBody(refused)["why"].get<std::string>().find("castle.ini.new") != std::string::npos);
    CHECK(setupBody(refused)["setup"]["prompt"]["says"]["code"] == "castle.setup.not-saved");
    CHECK_FALSE(std::filesystem::exists(dir / "state" / "castle.ini"));
    CHECK(readersOnCastle(port) == 7);
}

TEST_CASE("serve's set-up from the example castle: its 28 spots walked, two swapped readers written back") {
    TempDirectory dir;
    writeSetupCastle(dir.path());
    std::ofstream(dir / "bench.txt", std::ios::trunc)
        << "chip gpiochip0:6 under floor2-a\nchip gpiochip0:17 under floor1-a\n";
    vivaref::testsupport::ServeProcess serve(
        VIVAREF_BINARY, {"--config", (dir / "vivaref.ini").string(), "--listen", "127.0.0.1:0"},
        dir / "stderr");
    const auto port = serve.waitForPort(30000ms);
    CAPTURE(readAll(dir / "stderr"));
    REQUIRE(port != 0);
    const std::string host = hostHeaders();
    REQUIRE(post(port, "/api/host/setup", R"({"from": "example"})", host)->status == 200);
    // A tag over each of the 28 spots in turn, as the page asks (several spots to a floor): the bench
    // has floor1-a's chip (GPIO 6) under floor2-a's spot and the other way round.
    json state = setupBody(get(port, "/api/host/setup", host));
    for (int spot = 0; spot < 28 && state["step"] == "places"; ++spot) {
        CAPTURE(state.dump());
        REQUIRE(state["spot"]["item"] == spot);
        state = putTag(port, state["spot"]["reader"], "over");
    }
    REQUIRE(state["step"] == "checks");
    CHECK(state["assigned"].size() == 28);
    CHECK(state["assigned"]["floor1-a"] == "2");
    CHECK(state["assigned"]["floor2-a"] == "1");
    CHECK(state["assigned"]["floor1-b"] == "1");
    CHECK(state["assigned"]["dungeon3"] == "dungeon3");
    REQUIRE(post(port, "/api/sim/lift", R"({"tag": "04AABBCCDD1122"})", host)->status == 200);
    CHECK(post(port, "/api/sim/put", R"({"tag": "04AABBCCDD1122", "over": "floor9-z"})", host)->status ==
          404);
    // Every LED and key skipped.
    int answered = 0;
    for (int i = 0; i < 400; ++i) {
        state = setupBody(get(port, "/api/host/setup", host));
        if (state["step"] == "review" || state["running"] != true) break;
        const auto& answers = state["answers"];
        if (answers.empty()) {
            std::this_thread::sleep_for(100ms);
            continue;
        }
        const std::string answer =
            std::find(answers.begin(), answers.end(), "skip") != answers.end() ? "skip" : "done";
        REQUIRE(post(port, "/api/host/setup/answer", json{{"answer", answer}}.dump(), host)->status == 200);
        ++answered;
    }
    CAPTURE(state.dump());
    REQUIRE(state["step"] == "review");
    CHECK(answered >= 28);
    CHECK(state["skipped"].empty());
    CHECK(state["problems"] == json::array());
    const std::string ini = state["ini"];
    CHECK(ini.find("[reader.floor0-a]") != std::string::npos);
    CHECK(ini.find("[reader.floor1-a]\nplace = 2\n") != std::string::npos);
    CHECK(ini.find("[reader.floor2-a]\nplace = 1\n") != std::string::npos);
    CHECK(ini.find("[reader.dungeon3]") != std::string::npos);
    CHECK(ini.find("hardware = sim") != std::string::npos);  // the table's own [daemon] kept
    REQUIRE(post(port, "/api/host/setup/answer", R"({"answer": "save"})", host)->status == 200);
    const auto castleIni = dir / "state" / "castle.ini";
    // The text reviewed, but for the host's secret, which the review does not show.
    CHECK(ini.find(kSetupToken) == std::string::npos);
    CHECK(ini.find("host_token = ********") != std::string::npos);
    CHECK(readAll(castleIni).find(std::string("host_token = ") + kSetupToken) != std::string::npos);
    CHECK(vivaref::config::withSecretsHidden(readAll(castleIni)) == ini);
    auto check =
        vivaref::testsupport::runCommand(VIVAREF_BINARY, {"check-config", castleIni.string()}, 30000ms);
    CHECK(check.status == 0);
    CHECK(readersOnCastle(port) == 28);
}

// "Use this castle's readers" (POST /api/host/setup {"action": "use-real"}):
// the configuration in force saved as castle.ini on the real readers. Here
// no reader exists, so the castle does not open: said, and the simulated
// castle keeps running; at the next start the given file's castle runs
// instead, the reason shown; "put-aside" brings the given file back. Under
// systemd the service is restarted on it instead of opening it in place.
TEST_CASE("serve switched to this castle's readers from the set-up page, and back") {
    TempDirectory dir;
    writeSetupCastle(dir.path());
    const std::vector<std::string> args = {"--config", (dir / "vivaref.ini").string(), "--listen",
                                           "127.0.0.1:0"};
    const std::string host = hostHeaders();
    const auto saved = dir / "state" / "castle.ini";
    std::optional<vivaref::testsupport::ServeProcess> serve;
    serve.emplace(VIVAREF_BINARY, args, dir / "stderr");
    auto port = serve->waitForPort(30000ms);
    CAPTURE(readAll(dir / "stderr"));
    REQUIRE(port != 0);
    json castle = setupBody(get(port, "/api/host/setup", host))["castle"];
    CHECK(castle["hardware"] == "sim");
    CHECK(castle["saved"] == false);
    CHECK(castle["hardwareFixed"] == false);
    CHECK(castle["file"] == (dir / "vivaref.ini").string());
    CHECK_FALSE(castle.contains("problem"));
    // Not without the host's secret.
    CHECK(post(port, "/api/host/setup", R"({"action": "use-real"})", "Content-Type: application/json\r\n")
              ->status == 401);
    CHECK(post(port, "/api/host/setup", R"({"action": "use-real", "from": "example"})", host)->status == 400);

    // Saved on the real readers, which do not open here: the simulated castle stays, and the page says why.
    auto used = post(port, "/api/host/setup", R"({"action": "use-real"})", host);
    REQUIRE(used);
    CAPTURE(used->body);
    CHECK(used->status == 409);
    CHECK(setupBody(used)["says"]["code"] == "castle.config.apply-failed");
    CHECK(setupBody(used)["save"]["file"] == saved.string());
    const std::string written = readAll(saved);
    CHECK(written.find("hardware = real") != std::string::npos);
    CHECK(written.find("\nsim_bench") == std::string::npos);  // put aside as a comment
    CHECK(written.find("[reader.r6]") != std::string::npos);  // the file's own readers kept
    CHECK(
        vivaref::testsupport::runCommand(VIVAREF_BINARY, {"check-config", saved.string()}, 30000ms).status ==
        0);
    castle = setupBody(get(port, "/api/host/setup", host))["castle"];
    CHECK(castle["saved"] == true);
    CHECK(castle["file"] == (dir / "vivaref.ini").string());
    CHECK(castle["hardware"] == "sim");
    CHECK(castle["problem"]["says"]["code"] == "castle.config.apply-failed");
    CHECK(castle["problem"]["text"].get<std::string>().find("cannot open") != std::string::npos);
    CHECK(readersOnCastle(port) == 7);
    auto again = post(port, "/api/host/setup", R"({"action": "use-real"})", host);
    CHECK(again->status == 409);
    CHECK(setupBody(again)["says"]["code"] == "castle.setup.already-real");

    // The next start: castle.ini's castle does not open, the given file's runs, and the reason is kept.
    REQUIRE(serve->stop(SIGTERM, 20000ms) == 0);
    serve.emplace(VIVAREF_BINARY, args, dir / "stderr");
    port = serve->waitForPort(30000ms);
    REQUIRE(port != 0);
    CHECK(readAll(dir / "stderr").find("did not open") != std::string::npos);
    castle = setupBody(get(port, "/api/host/setup", host))["castle"];
    CHECK(castle["saved"] == true);
    CHECK(castle["file"] == (dir / "vivaref.ini").string());  // the castle that runs
    CHECK(castle["hardware"] == "sim");
    CHECK(castle["problem"]["says"]["code"] == "castle.config.saved-not-opened");
    CHECK(readersOnCastle(port) == 7);
    // A set-up from castle.ini cannot try a castle that does not open.
    CHECK(post(port, "/api/host/setup", R"({"from": "in-force"})", host)->status == 409);

    // Put aside: the given file in force again, its castle applied, the reason gone.
    auto aside = post(port, "/api/host/setup", R"({"action": "put-aside"})", host);
    REQUIRE(aside);
    CAPTURE(aside->body);
    CHECK(aside->status == 200);
    CHECK(setupBody(aside)["putAside"]["says"]["code"] == "castle.config.put-aside");
    CHECK(setupBody(aside)["says"]["code"] == "castle.config.applied");
    CHECK_FALSE(std::filesystem::exists(saved));
    CHECK(readAll(dir / "state" / "castle.ini.bak") == written);
    castle = setupBody(get(port, "/api/host/setup", host))["castle"];
    CHECK(castle["saved"] == false);
    CHECK_FALSE(castle.contains("problem"));
    auto nothing = post(port, "/api/host/setup", R"({"action": "put-aside"})", host);
    CHECK(nothing->status == 409);
    CHECK(setupBody(nothing)["says"]["code"] == "castle.config.nothing-saved");

    REQUIRE(serve->stop(SIGTERM, 20000ms) == 0);
    {
        // Under systemd (a notify socket): the castle needs devices the service was not given, so
        // vivaref-reconfigure restarts it; serve does not try to open them in place.
        FakeSystemd systemd;
        REQUIRE(systemd.ok());
        serve.emplace(VIVAREF_BINARY, args, dir / "stderr",
                      std::vector<std::string>{"NOTIFY_SOCKET=" + systemd.path()});
        port = serve->waitForPort(30000ms);
        REQUIRE(port != 0);
        auto restarting = post(port, "/api/host/setup", R"({"action": "use-real"})", host);
        REQUIRE(restarting);
        CAPTURE(restarting->body);
        CHECK(restarting->status == 200);
        CHECK(setupBody(restarting)["restarting"] == true);
        CHECK(setupBody(restarting)["says"]["code"] == "castle.config.restarting");
        CHECK(std::filesystem::exists(saved));
        CHECK_FALSE(setupBody(restarting)["castle"].contains("problem"));
        CHECK(readersOnCastle(port) == 7);
        REQUIRE(serve->stop(SIGTERM, 20000ms) == 0);
    }
    std::filesystem::remove(saved);
    {
        // --hardware keeps its castle: no switch.
        std::vector<std::string> fixed = args;
        fixed.push_back("--hardware=sim");
        serve.emplace(VIVAREF_BINARY, fixed, dir / "stderr");
        port = serve->waitForPort(30000ms);
        REQUIRE(port != 0);
        CHECK(setupBody(get(port, "/api/host/setup", host))["castle"]["hardwareFixed"] == true);
        auto refused = post(port, "/api/host/setup", R"({"action": "use-real"})", host);
        CHECK(refused->status == 409);
        CHECK(setupBody(refused)["says"]["code"] == "castle.setup.hardware-fixed");
        // The given file gone bad meanwhile: the answer names its problems.
        std::ofstream(dir / "vivaref.ini", std::ios::app) << "\n[reader.broken]\nplace = 99\n";
        auto bad = post(port, "/api/host/setup", R"({"from": "in-force"})", host);
        REQUIRE(bad);
        CAPTURE(bad->body);
        CHECK(bad->status == 409);
        CHECK(setupBody(bad)["says"]["code"] == "castle.config.problems");
        CHECK(setupBody(bad)["problems"].size() >= 1);
    }
}
