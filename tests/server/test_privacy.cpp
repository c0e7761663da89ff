// Private by default: the host secret made at first start (its file, mode
// and reuse), the routes it guards (the host's, the simulated castle's
// moves and keys), the players' QR codes as SVG from libqrencode, and a
// seat the referee plays (a bot): no link, no code, no keys for people.
#include <stdlib.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>

#include <doctest/doctest.h>
#include <sys/stat.h>

#include "daemon/referee/board_places.hpp"
#include "daemon/server/api_router.hpp"
#include "daemon/server/host_link.hpp"
#include "daemon/server/host_secret.hpp"
#include "daemon/server/qr_svg.hpp"
#include "engine/players/player.hpp"
#include "fake_service.hpp"
#include "tests/server/table_fixture.hpp"
#include "tests/server/temp_directory.hpp"

using namespace vivaref::server;
using namespace vivaref::server::testing;
using nlohmann::json;

namespace {

unsigned modeOf(const std::filesystem::path& file) {
    struct stat info {};
    REQUIRE(::stat(file.c_str(), &info) == 0);
    return info.st_mode & 0777;
}

// The dark modules an SVG of qrSvg() draws, back as a matrix of `width`.
QrMatrix modulesOf(const std::string& svg, int width, int quiet) {
    QrMatrix drawn;
    drawn.width = width;
    drawn.dark.assign(static_cast<std::size_t>(width * width), false);
    // Each run of dark modules is "M<x> <y>h<n>v1h-<n>z" (no std::regex: g++ 12's
    // std::function inside it trips -Wmaybe-uninitialized in the ASan build).
    for (auto at = svg.find('M'); at != std::string::npos; at = svg.find('M', at + 1)) {
        int x = 0, y = 0, n = 0, back = 0, used = 0;
        if (std::sscanf(svg.c_str() + at, "M%d %dh%dv1h-%dz%n", &x, &y, &n, &back, &used) != 4 || used == 0)
            continue;
        x -= quiet;
        y -= quiet;
        REQUIRE(back == n);
        REQUIRE(x >= 0);
        REQUIRE(y >= 0);
        REQUIRE(x + n <= width);
        REQUIRE(y < width);
        for (int k = 0; k < n; ++k) {
            CHECK_FALSE(drawn.dark[static_cast<std::size_t>(y * width + x + k)]);  // no module drawn twice
            drawn.dark[static_cast<std::size_t>(y * width + x + k)] = true;
        }
    }
    return drawn;
}

Request make(http::verb method, std::string target, std::string body = {}, std::string token = {}) {
    Request r{method, target, 11};
    if (method == http::verb::post) r.set(http::field::content_type, "application/json");
    if (!token.empty()) r.set(http::field::authorization, "Bearer " + token);
    r.set(http::field::host, "castle.local:8080");
    r.body() = std::move(body);
    r.prepare_payload();
    return r;
}

// Plays the table on through the simulated castle's routes until an
// election is open and every bot has voted in it: the bots' moves as
// shown, the people moving a character as high as they can each turn.
void playToElection(Table& t) {
    using vivaref::engine::Phase;
    const auto put = [&](const std::string& character, const std::string& place) {
        REQUIRE(
            t.call(http::verb::post, "/api/sim/put", {{"character", character}, {"place", place}}).first ==
            200);
    };
    for (int steps = 0; steps < 400; ++steps) {
        const auto* state = t.table.table().referee().state();
        REQUIRE(state);
        const json status = t.get("/api/status");
        if (state->phase() == Phase::Election && !status["election"]["voted"].empty()) return;
        if (status["guidance"].is_object()) {
            for (const auto& m : status["guidance"]["moves"])
                if (m["to"].is_null())
                    REQUIRE(
                        t.call(http::verb::post, "/api/sim/lift", {{"character", m["character"]}}).first ==
                        200);
                else
                    put(m["character"], m["to"]);
        } else if (status["bot_plan"].is_object()) {
            put(status["bot_plan"]["character"], status["bot_plan"]["to"]);
        } else if ((state->phase() == Phase::Placement || state->phase() == Phase::Ascent) &&
                   status["players"][state->seatToAct().index]["bot"].is_null()) {
            vivaref::engine::ActionList legal;
            vivaref::engine::players::legalActionsOf(*state, state->seatToAct(), legal);
            REQUIRE_FALSE(legal.empty());
            auto best = legal[0];
            for (const auto& a : legal)
                if (a.kind() != vivaref::engine::ActionKind::Pass && a.to() > best.to()) best = a;
            if (best.kind() != vivaref::engine::ActionKind::Pass)
                put(state->rules().roster()[best.character()].id,
                    std::string(vivaref::engine::placeName(*vivaref::referee::boardPlace(best.to()))));
        }
        t.runFor(Timestamp(400));  // seen, judged; a deal, a bot's thought
    }
    FAIL("no election after 400 steps");
}

}  // namespace

TEST_CASE("the host secret: made once from the kernel's randomness, 0600, the same at every start") {
    TempDirectory dir;
    const auto folder = dir.path() / "state";
    const HostSecret first = loadOrCreateHostSecret(folder);
    CHECK(first.created);
    CHECK(first.file == folder / "host-secret");
    CHECK(first.token.size() == 64);
    CHECK(first.token.find_first_not_of("0123456789abcdef") == std::string::npos);
    CHECK(modeOf(first.file) == 0600);
    // No temporary file is left beside it.
    CHECK(std::distance(std::filesystem::directory_iterator(folder), std::filesystem::directory_iterator()) ==
          1);

    const HostSecret again = loadOrCreateHostSecret(folder);
    CHECK_FALSE(again.created);
    CHECK(again.token == first.token);
    CHECK(again.warning.empty());
    std::string why;
    CHECK(readHostSecret(folder, why) == first.token);

    // Another folder, another secret.
    TempDirectory other;
    CHECK(loadOrCreateHostSecret(other.path()).token != first.token);

    // A file others could read is made private again, and said so.
    std::filesystem::permissions(first.file, std::filesystem::perms(0644));
    const HostSecret loose = loadOrCreateHostSecret(folder);
    CHECK(loose.token == first.token);
    CHECK(loose.warning.find("made private (0600) again") != std::string::npos);
    CHECK(modeOf(first.file) == 0600);
}

TEST_CASE("the host secret: a damaged file stops the start with its name; none yet is said") {
    TempDirectory dir;
    std::string why;
    CHECK_FALSE(readHostSecret(dir.path(), why));
    CHECK(why.find("there is no host secret " + (dir.path() / "host-secret").string()) != std::string::npos);
    std::ofstream(dir.path() / "host-secret") << "password\n";
    ::chmod((dir.path() / "host-secret").c_str(), 0600);
    try {
        (void)loadOrCreateHostSecret(dir.path());
        FAIL("a file without a secret was taken");
    } catch (const std::runtime_error& e) {
        CHECK(std::string(e.what()).find((dir.path() / "host-secret").string()) != std::string::npos);
        CHECK(std::string(e.what()).find("does not hold a host secret") != std::string::npos);
    }
    CHECK_FALSE(readHostSecret(dir.path(), why));
    CHECK(why.find("does not hold a host secret") != std::string::npos);
    // Where it lives: the configuration's state directory, else beside the log.
    CHECK(hostSecretDirectory("/var/lib/vivaref", "/elsewhere/games.sqlite") == "/var/lib/vivaref");
    CHECK(hostSecretDirectory({}, "/tmp/demo/games.sqlite") == "/tmp/demo");
}

TEST_CASE("the host's link: the listening address, or the address phones open on every interface") {
    CHECK(castleUrl("127.0.0.1", 8080) == "http://127.0.0.1:8080/");
    CHECK(castleUrl("::1", 80) == "http://[::1]:80/");
    CHECK(castleUrl("castle.example", 8080) == "http://castle.example:8080/");
    const std::string any = castleUrl("0.0.0.0", 8080);
    CHECK(any.find("0.0.0.0") == std::string::npos);
    CHECK(any.ends_with(":8080/"));
    CHECK(hostLink("http://a:1/", "s3") == "http://a:1/host.html#s3");
    CHECK(simLink("http://a:1/", "s3") == "http://a:1/sim.html#s3");
}

TEST_CASE("QR codes: libqrencode's modules written as one SVG path with a quiet zone of 4") {
    for (const std::string& text :
         {std::string("a"), std::string("http://castle.local:8080/player.html#") + std::string(64, 'f')}) {
        CAPTURE(text);
        const QrMatrix matrix = encodeQr(text);
        REQUIRE(matrix.width >= 21);
        CHECK((matrix.width - 17) % 4 == 0);  // versions 1-40: 21, 25, ... modules
        // The finder pattern's dark ring in the top-left corner.
        for (int i = 0; i < 7; ++i) {
            CHECK(matrix.at(i, 0));
            CHECK(matrix.at(0, i));
            CHECK(matrix.at(i, 6));
            CHECK(matrix.at(6, i));
        }
        CHECK_FALSE(matrix.at(1, 1));
        CHECK(matrix.at(3, 3));
        const std::string svg = qrSvg(matrix);
        const std::string side = std::to_string(matrix.width + 8);
        CHECK(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 " + side + " " + side +
                              "\""));
        CHECK(svg.find("<rect width=\"" + side + "\" height=\"" + side + "\" fill=\"#fff\"/>") !=
              std::string::npos);
        const QrMatrix drawn = modulesOf(svg, matrix.width, 4);
        CHECK(drawn.dark == matrix.dark);
    }
    // A link on the castle's network address is version 6 at most (41 modules): a phone reads it from afar.
    CHECK(encodeQr("http://192.168.100.200:8080/player.html#" + std::string(64, 'a')).width <= 41);
    CHECK_THROWS_AS((void)encodeQr(""), std::invalid_argument);
    CHECK_THROWS_AS((void)encodeQr(std::string(4000, 'x')), std::invalid_argument);
}

TEST_CASE("the host token guards the host's routes, the simulated castle's moves and keys, and the codes") {
    FakeService fake;
    StaticFiles files("/nonexistent/vivaref-web-ui");
    RouterOptions options;
    options.hostToken = std::string(64, 'c');
    ApiRouter router(fake, files, options);
    const auto status = [&](const Request& r) {
        return static_cast<int>(router.handle(r).response.result_int());
    };
    const std::string token = options.hostToken;
    const std::string put = R"({"character": "odessa", "place": "3"})";
    const std::string press = R"({"station": 0, "key": "yes"})";

    CHECK(status(make(http::verb::post, "/api/sim/put", put)) == 401);
    CHECK(status(make(http::verb::post, "/api/sim/press", press, "guess")) == 401);
    CHECK(fake.simRequests.empty());
    auto refused = router.handle(make(http::verb::post, "/api/sim/press", press));
    CHECK(json::parse(refused.response.body())["message"].get<std::string>().find("host's link") !=
          std::string::npos);
    CHECK(status(make(http::verb::post, "/api/sim/put", put, token)) == 200);
    CHECK(fake.simRequests.size() == 1);
    // Looking at the castle stays public.
    CHECK(status(make(http::verb::get, "/api/sim/state")) == 200);
    CHECK(status(make(http::verb::get, "/api/sim/leds")) == 200);

    CHECK(status(make(http::verb::get, "/api/host/players")) == 401);
    CHECK(status(make(http::verb::post, "/api/host/new-link", R"({"player": 0})")) == 401);
    CHECK(status(make(http::verb::get, "/api/host/players/0/qr.svg")) == 401);
    CHECK(fake.hostRequests.empty());
    // The fake names no players: no code for player 0; bad addresses are 404.
    CHECK(status(make(http::verb::get, "/api/host/players/0/qr.svg", {}, token)) == 404);
    CHECK(status(make(http::verb::get, "/api/host/players/0/qr.png", {}, token)) == 404);
    CHECK(status(make(http::verb::get, "/api/host/players/-1/qr.svg", {}, token)) == 404);
    CHECK(status(make(http::verb::post, "/api/host/players/0/qr.svg", "{}", token)) == 405);
}

// Issue 32: a seat the referee plays has no link, no QR code and no keys
// that people may use. Its cards and its votes are the referee's alone: no
// token is ever issued for its player, the host's routes refuse to make
// one, and a key press at its station is refused with one answer whether
// or not (and however) the bot has voted.
TEST_CASE("a bot's seat: no player link, no code, no keys; the same answer before and after it voted") {
    TempDirectory dir;
    Table t(dir / "games.sqlite");
    const json request = {{"setup", {{"edition", "classic"}, {"seats", 4}}},
                          {"players", {"Ann", "Bob", "Clara", "Dan"}},
                          {"bots", {{{"seat", 2}, {"strength", "casual"}}}}};
    auto [started, answer] = t.call(http::verb::post, "/api/host/new-game", request);
    REQUIRE(started == 200);
    t.runFor(Timestamp(2000));  // the referee deals
    for (const json& links : {answer, t.get("/api/host/players")}) {
        REQUIRE(links["players"].size() == 4);
        for (const auto& p : links["players"]) {
            CAPTURE(p.dump());
            if (p["seat"] == 2) {
                CHECK(p.value("bot", json()) == "casual");
                CHECK_FALSE(p.contains("token"));
                CHECK_FALSE(p.contains("path"));
                // A token for the bot's player, had one been handed out, opens nothing.
                if (p.contains("token"))
                    CHECK(t.call(http::verb::get, "/api/player/" + p["token"].get<std::string>()).first ==
                          404);
            } else {
                CHECK(p.value("bot", json(0)).is_null());
                CHECK(t.get("/api/player/" + p["token"].get<std::string>())["seat"] == p["seat"]);
            }
        }
    }

    // The host's routes that make a link or a code: refused for the bot's player, saying why.
    auto [renewed, renewal] = t.call(http::verb::post, "/api/host/new-link", {{"player", 2}});
    CHECK(renewed == 409);
    CHECK(renewal.value("error", "") == "bot-seat");
    CHECK(renewal.value("message", "").find("played by the referee") != std::string::npos);
    CHECK(renewal["says"] == json({{"code", "api.bot-seat-link"}, {"args", {{"seat", 3}}}}));
    const auto code = t.router.handle(make(http::verb::get, "/api/host/players/2/qr.svg"));
    CHECK(code.response.result_int() == 409);
    const json codeAnswer = json::parse(code.response.body(), nullptr, false);
    CHECK((codeAnswer.is_object() && codeAnswer.value("error", "") == "bot-seat"));
    CHECK(t.call(http::verb::post, "/api/host/new-link", {{"player", 1}}).first == 200);

    // The bot's keys: one refusal, the same whatever the key and whenever
    // pressed; nothing reaches the referee (no station notice).
    const auto press = [&](int station, const char* key) {
        return t.call(http::verb::post, "/api/sim/press", {{"station", station}, {"key", key}});
    };
    const auto notices = t.table.stationNotices();
    const auto refused = press(2, "no");
    CHECK(refused.first == 409);
    CHECK(refused.second.value("error", "") == "bot-seat");
    CHECK(refused.second.value("message", "").find("played by the referee") != std::string::npos);
    CHECK(refused.second["says"]["code"] == "api.bot-seat-keys");
    CHECK(press(2, "yes") == refused);
    playToElection(t);
    REQUIRE(t.get("/api/status")["election"]["voted"] == json::array({2}));  // the bot voted
    CHECK(press(2, "no") == refused);
    CHECK(press(2, "yes") == refused);
    CHECK(t.table.stationNotices() == notices);
    CHECK(t.get("/api/status")["election"]["voted"] == json::array({2}));
    // A person's key is taken, and its answer does not name the key.
    const auto taken = press(0, "no");
    CHECK(taken.first == 200);
    CHECK(taken.second == json{{"ok", true}});
}
