// Tag enrolment from the host's page: HostEnrolment fed with raw scans by
// hand (virtual time), and its route /api/host/enrol behind the host token.
#include <unistd.h>

#include <filesystem>

#include <doctest/doctest.h>

#include "daemon/server/api_router.hpp"
#include "daemon/server/host_enrolment.hpp"
#include "drivers/sim/simulated_board.hpp"
#include "fake_service.hpp"

using namespace vivaref;
using namespace vivaref::server;
using drivers::Timestamp;
using nlohmann::json;

namespace {

struct TempDir {
    std::filesystem::path path;
    TempDir() {
        char name[] = "/tmp/vivaref-enrol-XXXXXX";
        path = ::mkdtemp(name);
    }
    ~TempDir() { std::filesystem::remove_all(path); }
};

HostEnrolmentSettings settingsFor(std::string edition, std::filesystem::path registry) {
    HostEnrolmentSettings settings;
    settings.edition = std::move(edition);
    settings.registry = std::move(registry);
    return settings;
}

drivers::TagUid tagOf(const char* slug) { return drivers::simulatedTagUid(slug); }

// Scans one reader every 10 ms with `tags` on it, for `ms`.
struct Castle {
    HostEnrolment& desk;
    Timestamp now{0};
    void hold(drivers::TagSet tags, int ms, const std::string& reader = "floor0") {
        for (int t = 0; t < ms; t += 10) {
            now += Timestamp(10);
            desk.onScan(drivers::ReaderId{reader}, tags, now);
        }
    }
};

std::vector<std::string> kinds(const json& state) {
    std::vector<std::string> out;
    for (const auto& e : state["events"]) out.push_back(e["kind"]);
    return out;
}

bool has(const std::vector<std::string>& list, const std::string& kind) {
    return std::find(list.begin(), list.end(), kind) != list.end();
}

}  // namespace

TEST_CASE("enrolment from the host page: asks, enrols, refuses two at once and another's tag, saves") {
    TempDir dir;
    const auto file = dir.path / "tags.json";
    HostEnrolmentSettings settings = settingsFor("classic", file);
    settings.where = vivaref::engine::Message("enrol.where-any-floor");
    settings.demoPlace = "0";
    HostEnrolment desk(settings);
    Castle castle{desk};
    castle.hold({tagOf("alighiero")}, 100);  // ignored: nothing runs yet
    CHECK_FALSE(desk.running());

    auto started = desk.request("start", {{"action", "start"}}, false);
    REQUIRE(started.outcome == ServiceAnswer::Outcome::Ok);
    CHECK(started.body["running"] == true);
    CHECK(started.body["demoPlace"] == "0");
    CHECK(started.body["asking"]["character"] == "alighiero");

    castle.hold({}, 50);  // (the tag put down before the start was lifted)
    castle.hold({tagOf("alighiero")}, 400);
    json state = desk.state();
    CHECK(state["enrolled"] == 1);
    CHECK(state["asking"]["character"] == "beatrice");
    REQUIRE(std::filesystem::exists(file));  // saved after the tag
    auto saved = drivers::loadTagRegistries(file);
    CHECK(saved["classic"].findCharacter({"alighiero"}).has_value());

    // Alighiero's tag again while Beatrice is asked for: refused, naming whose it is.
    castle.hold({}, 50);
    castle.hold({tagOf("alighiero")}, 400);
    state = desk.state();
    CHECK(has(kinds(state), "tag-of-another"));
    CHECK(state["asking"]["character"] == "beatrice");
    // Each event says itself as a message too, for the page's reader (issue 33).
    CHECK(state["events"].back()["says"]["code"] == "enrol.tag-of-another");
    CHECK(state["where_says"]["code"] == "enrol.where-any-floor");
    for (const auto& e : state["events"]) CHECK(e["says"]["code"].get<std::string>().starts_with("enrol."));
    CHECK(state["refused"] == 1);

    // Two new tags at once: refused; lifted, then Beatrice alone is taken.
    castle.hold({}, 50);
    castle.hold({tagOf("beatrice"), tagOf("clemente")}, 400);
    state = desk.state();
    CHECK(has(kinds(state), "one-at-a-time"));
    CHECK(state["asking"]["character"] == "beatrice");
    castle.hold({}, 50);
    castle.hold({tagOf("beatrice")}, 400);
    CHECK(desk.state()["asking"]["character"] == "clemente");

    auto skipped = desk.request("skip", {{"action", "skip"}}, false);
    CHECK(skipped.body["asking"]["character"] == "dario");
    CHECK(skipped.body["skipped"] == 1);

    auto stopped = desk.request("stop", {{"action", "stop"}}, false);
    CHECK(stopped.outcome == ServiceAnswer::Outcome::Ok);
    CHECK(stopped.body["running"] == false);
    CHECK(stopped.body["tags"] == 2);
    CHECK(drivers::loadTagRegistries(file)["classic"].size() == 2);
    CHECK(desk.request("skip", {{"action", "skip"}}, false).outcome == ServiceAnswer::Outcome::Refused);

    // "missing": only the characters without a tag are asked for.
    auto again = desk.request("start", {{"action", "start"}, {"missing", true}}, false);
    CHECK(again.body["asking"]["character"] == "clemente");
}

TEST_CASE("enrolment: refused during a game, with a bad body or a bad registry file") {
    TempDir dir;
    HostEnrolment desk(settingsFor("2024", dir.path / "tags.json"));
    auto during = desk.request("start", {{"action", "start"}}, true);
    CHECK(during.outcome == ServiceAnswer::Outcome::Refused);
    CHECK(during.body["error"] == "game-in-progress");
    CHECK(desk.request("start", {{"action", "start"}, {"edition", "chess"}}, false).outcome ==
          ServiceAnswer::Outcome::BadRequest);
    CHECK(desk.request("fly", {}, false).outcome == ServiceAnswer::Outcome::BadRequest);

    std::filesystem::create_directories(dir.path / "bad");
    {
        std::FILE* f = std::fopen((dir.path / "bad" / "tags.json").c_str(), "w");
        std::fputs("{not json", f);
        std::fclose(f);
    }
    HostEnrolment broken(settingsFor("2024", dir.path / "bad" / "tags.json"));
    auto bad = broken.request("start", {{"action", "start"}}, false);
    CHECK(bad.outcome == ServiceAnswer::Outcome::Refused);
    CHECK(bad.body["error"] == "bad-registry");
    CHECK(std::string(bad.body["message"]).find("tags.json") != std::string::npos);
}

TEST_CASE("the enrolment route needs the host token and says when a game is on") {
    TempDir dir;
    HostEnrolment desk(settingsFor("classic", dir.path / "tags.json"));
    testing::FakeService fake;
    StaticFiles files("/nonexistent/vivaref-web-ui");
    RouterOptions options;
    options.hostToken = std::string(40, 'h');
    options.enrol = [&](std::string_view action, const json& body, bool game) {
        return desk.request(action, body, game);
    };
    ApiRouter router(fake, files, options);
    auto make = [](http::verb method, std::string body, std::string token) {
        Request r{method, "/api/host/enrol", 11};
        if (method == http::verb::post) r.set(http::field::content_type, "application/json");
        if (!token.empty()) r.set(http::field::authorization, "Bearer " + token);
        r.body() = std::move(body);
        r.prepare_payload();
        return r;
    };
    const std::string token(40, 'h');
    CHECK(router.handle(make(http::verb::get, "", "")).response.result_int() == 401);
    CHECK(router.handle(make(http::verb::post, R"({"action":"start"})", "wrong")).response.result_int() ==
          401);
    auto state = router.handle(make(http::verb::get, "", token));
    CHECK(state.response.result_int() == 200);
    CHECK(json::parse(state.response.body())["running"] == false);
    CHECK(router.handle(make(http::verb::post, R"({})", token)).response.result_int() == 400);
    CHECK(router.handle(make(http::verb::post, R"({"action":"state"})", token)).response.result_int() == 400);
    CHECK(router.handle(make(http::verb::put, "", token)).response.result_int() == 405);

    fake.status = {{"state", "playing"}};
    auto refused = router.handle(make(http::verb::post, R"({"action":"start"})", token));
    CHECK(refused.response.result_int() == 409);
    CHECK(json::parse(refused.response.body())["error"] == "game-in-progress");
    fake.status = {{"state", "finished"}};
    CHECK(router.handle(make(http::verb::post, R"({"action":"start"})", token)).response.result_int() == 200);

    RouterOptions none;
    ApiRouter without(fake, files, none);
    CHECK(without.handle(make(http::verb::get, "", "")).response.result_int() == 404);
}
