// The routes, called directly (no sockets): answers, status codes, access.
#include <doctest/doctest.h>

#include "daemon/server/api_router.hpp"
#include "fake_service.hpp"
#include "temp_web_root.hpp"

using namespace vivaref::server;
using namespace vivaref::server::testing;
using nlohmann::json;

namespace {

Request make(http::verb method, std::string target, std::string body = {}, bool jsonBody = true) {
    Request r{method, target, 11};
    if (jsonBody && method == http::verb::post) r.set(http::field::content_type, "application/json");
    r.body() = std::move(body);
    r.prepare_payload();
    return r;
}

struct Routes {
    explicit Routes(std::string hostToken = {}) : files("/nonexistent/vivaref-web-ui") {
        RouterOptions options;
        options.hostToken = std::move(hostToken);
        options.version = "9.9.9";
        router = std::make_unique<ApiRouter>(fake, files, options);
    }
    ApiRouter::Reply call(const Request& r) { return router->handle(r); }
    int status(const Request& r) { return static_cast<int>(call(r).response.result_int()); }
    json body(const Request& r) { return json::parse(call(r).response.body()); }

    FakeService fake;
    StaticFiles files;
    std::unique_ptr<ApiRouter> router;
};

}  // namespace

TEST_CASE("public routes answer JSON") {
    Routes routes;
    routes.fake.status = {{"phase", "placement"}};
    auto reply = routes.call(make(http::verb::get, "/api/status"));
    CHECK(reply.response.result() == http::status::ok);
    CHECK(reply.response[http::field::content_type] == "application/json; charset=utf-8");
    CHECK(reply.response[http::field::cache_control] == "no-store");
    CHECK(json::parse(reply.response.body()) == routes.fake.status);
    CHECK(routes.body(make(http::verb::get, "/api/status?x=1")) == routes.fake.status);
    CHECK(routes.body(make(http::verb::get, "/api/games"))[0]["id"] == 1);
    CHECK(routes.body(make(http::verb::get, "/api/games/1"))["id"] == 1);
    CHECK(routes.status(make(http::verb::get, "/api/games/2")) == 404);
    CHECK(routes.status(make(http::verb::get, "/api/games/x")) == 404);
    CHECK(routes.status(make(http::verb::get, "/api/games/-1")) == 404);
    CHECK(routes.status(make(http::verb::get, "/api/games/99999999999999999999999")) == 404);
    auto info = routes.body(make(http::verb::get, "/api/info"));
    CHECK(info["version"] == "9.9.9");
    CHECK(info["simulated"] == true);
    CHECK(info["hostTokenRequired"] == false);
    CHECK(info["league"] == false);  // no league: the pages' menus leave it out
    CHECK(routes.call(make(http::verb::get, "/api/events")).eventStream);
}

TEST_CASE("/api/info says whether the table shows a league") {
    FakeService fake;
    StaticFiles files("/nonexistent/vivaref-web-ui");
    RouterOptions options;
    options.league = [](const Request& request, std::string_view) {
        return ApiRouterReply{jsonResponse(request, http::status::ok, json::object()), false};
    };
    ApiRouter router(fake, files, options);
    const auto reply = router.handle(make(http::verb::get, "/api/info"));
    CHECK(json::parse(reply.response.body())["league"] == true);
}

TEST_CASE("the words: the languages, the table's, and each language's catalog") {
    Routes routes;
    const auto languages = routes.body(make(http::verb::get, "/api/words"));
    CHECK(languages["languages"] == json::array({"de", "en", "fr", "it"}));
    CHECK(languages["table"] == "en");
    const auto french = routes.body(make(http::verb::get, "/api/words/fr"));
    CHECK(french["vote.yes"] == "Oui");
    CHECK(french["refusal.floor-full"].get<std::string>().find("{limit, plural,") != std::string::npos);
    CHECK(routes.status(make(http::verb::get, "/api/words/xx")) == 404);
    CHECK(routes.body(make(http::verb::get, "/api/words/xx"))["error"] == "no-such-language");
    CHECK(routes.status(make(http::verb::get, "/api/words/fr/more")) == 404);
    CHECK(routes.status(make(http::verb::post, "/api/words/fr", "{}")) == 405);
}

TEST_CASE("unknown addresses are 404 and wrong methods 405 with Allow, all with a JSON message") {
    Routes routes;
    for (const char* target :
         {"/api", "/api/", "/api/nothing", "/api/status/more", "/api/player/", "/api/host/"}) {
        CAPTURE(target);
        auto reply = routes.call(make(http::verb::get, target));
        CHECK(reply.response.result() == http::status::not_found);
        CHECK(json::parse(reply.response.body()).contains("message"));
    }
    auto reply = routes.call(make(http::verb::post, "/api/status", "{}"));
    CHECK(reply.response.result() == http::status::method_not_allowed);
    CHECK(reply.response[http::field::allow] == "GET");
    CHECK(routes.status(make(http::verb::delete_, "/api/games")) == 405);
    CHECK(routes.status(make(http::verb::get, "/api/host/pause")) == 405);
    CHECK(routes.status(make(http::verb::put, "/index.html")) == 405);
    Request unknown{http::verb::unknown, "/api/status", 11};
    unknown.method_string("BREW");
    CHECK(routes.status(unknown) == 405);
    CHECK(routes.status(make(http::verb::get, "http://example.com/api/status")) == 400);
}

TEST_CASE("a player's page needs that player's token") {
    Routes routes;
    CHECK(routes.body(make(http::verb::get, "/api/player/" + routes.fake.playerToken))["player"] == 0);
    CHECK(routes.status(make(http::verb::get, "/api/player/" + std::string(64, 'b'))) == 404);
    CHECK(routes.status(make(http::verb::get, "/api/player/" + routes.fake.playerToken + "/keep")) == 405);
    CHECK(routes.status(make(http::verb::post, "/api/player/" + routes.fake.playerToken + "/keep",
                             R"({"ambition": "only-yes"})")) == 200);
    CHECK(routes.fake.hostRequests.back().first == "player-keep");
    CHECK(routes.status(make(http::verb::post, "/api/player/" + std::string(64, 'b') + "/keep", "{}")) ==
          404);
    CHECK(routes.status(make(http::verb::post, "/api/player/" + routes.fake.playerToken + "/keep/x", "{}")) ==
          404);
}

TEST_CASE("host routes need the host token when one is set") {
    const std::string token = "s3cret-host-token";
    Routes routes(token);
    auto noAuth = routes.call(make(http::verb::post, "/api/host/pause", "{}"));
    CHECK(noAuth.response.result() == http::status::unauthorized);
    CHECK(noAuth.response[http::field::www_authenticate].starts_with("Bearer"));
    CHECK(nlohmann::json::parse(noAuth.response.body())["says"]["code"] == "api.host-credential");
    auto wrong = make(http::verb::post, "/api/host/pause", "{}");
    wrong.set(http::field::authorization, "Bearer s3cret-host-tokeN");
    CHECK(routes.status(wrong) == 401);
    auto basic = make(http::verb::post, "/api/host/pause", "{}");
    basic.set(http::field::authorization, "Basic " + token);
    CHECK(routes.status(basic) == 401);
    CHECK(routes.fake.hostRequests.empty());

    auto right = make(http::verb::post, "/api/host/pause", "{}");
    right.set(http::field::authorization, "Bearer " + token);
    CHECK(routes.status(right) == 200);
    REQUIRE(routes.fake.hostRequests.size() == 1);
    CHECK(routes.fake.hostRequests[0].first == "pause");
    CHECK(routes.body(make(http::verb::get, "/api/info"))["hostTokenRequired"] == true);

    auto players = make(http::verb::get, "/api/host/players");
    players.set(http::field::authorization, "Bearer " + token);
    CHECK(routes.status(players) == 200);
}

TEST_CASE("the Bearer scheme is read in any case (RFC 7235); the secret is compared exactly") {
    const std::string token = "s3cret-host-token";
    Routes routes(token);
    auto with = [&](const std::string& authorization) {
        auto r = make(http::verb::post, "/api/host/pause", "{}");
        r.set(http::field::authorization, authorization);
        return routes.status(r);
    };
    for (const std::string scheme : {"Bearer", "bearer", "BEARER", "bEaReR"}) {
        CAPTURE(scheme);
        CHECK(with(scheme + " " + token) == 200);
        CHECK(with(scheme + "   " + token) == 200);  // 1*SP between scheme and credentials
    }
    CHECK(with("Bearer " + std::string("S3CRET-HOST-TOKEN")) == 401);
    CHECK(with("Bearer" + token) == 401);
    CHECK(with("Bearers " + token) == 401);
    CHECK(with("Bear " + token) == 401);
    CHECK(with("Basic " + token) == 401);
    CHECK(with("Bearer") == 401);
    CHECK(routes.fake.hostRequests.size() == 8);
}

TEST_CASE("without a host token the host routes are open; the service's answer maps to a status") {
    Routes routes;
    CHECK(routes.status(make(http::verb::post, "/api/host/pause")) == 200);  // no body: {}
    CHECK(routes.fake.hostRequests.back().second == json::object());
    auto refused = routes.call(make(http::verb::post, "/api/host/deal", R"({"hands": []})"));
    CHECK(refused.response.result() == http::status::conflict);
    CHECK(json::parse(refused.response.body())["error"] == "wrong-phase");
    CHECK(routes.fake.hostRequests.back().second == json{{"hands", json::array()}});
    CHECK(routes.status(make(http::verb::post, "/api/host/dance", "{}")) == 404);
}

TEST_CASE("bodies must be JSON objects, sent as application/json, not too deep") {
    Routes routes;
    auto status = [&](std::string body, bool asJson = true) {
        return routes.status(make(http::verb::post, "/api/host/pause", std::move(body), asJson));
    };
    CHECK(status("{}", false) == 415);
    CHECK(status("{") == 400);
    CHECK(status("[1, 2]") == 400);
    CHECK(status("\"text\"") == 400);
    CHECK(status("{\"a\": \"\xff\xfe\"}") == 400);  // not UTF-8
    CHECK(status("{} {}") == 400);
    std::string deep(100000, '[');
    CHECK(status("{\"a\": " + deep + "}") == 400);
    std::string deepOk = "{\"a\": " + std::string(20, '[') + std::string(20, ']') + "}";
    CHECK(status(deepOk) == 200);
    CHECK(status("  \r\n") == 200);
    const auto before = routes.fake.hostRequests.size();
    CHECK(status("{\"x\": 1}") == 200);
    CHECK(routes.fake.hostRequests.size() == before + 1);
}

TEST_CASE("the JSON media type is parsed: application/json exactly, any case, with parameters") {
    Routes routes;
    auto status = [&](const std::string& type) {
        auto r = make(http::verb::post, "/api/host/pause", "{}", false);
        r.set(http::field::content_type, type);
        return routes.status(r);
    };
    for (const std::string type : {"application/json", "Application/JSON", "application/json; charset=utf-8",
                                   "application/json;charset=UTF-8", "application/json ; charset=\"utf-8\"",
                                   "application/json;\tcharset=utf-8"}) {
        CAPTURE(type);
        CHECK(status(type) == 200);
    }
    for (const std::string type :
         {"application/jsonx", "application/json-seq", "application/json+x",
          "application/jsonp; charset=utf-8", "application/json/x", "application/json x", "application/json;",
          "application/json; charset", "application/json; =utf-8", "text/json", "application/*", "json", "",
          "application/ json", "application /json", "application/json\x01"}) {
        CAPTURE(type);
        CHECK(status(type) == 415);
    }
}

TEST_CASE("the simulated castle's routes exist only when simulated") {
    Routes routes;
    CHECK(routes.status(make(http::verb::post, "/api/sim/put", R"({"character": "odessa", "place": "3"})")) ==
          200);
    CHECK(routes.fake.simRequests.back().first == "put");
    CHECK(routes.body(make(http::verb::get, "/api/sim/leds"))["place-3"] == "blink");
    CHECK(routes.body(make(http::verb::get, "/api/sim/state")).contains("board"));
    CHECK(routes.status(make(http::verb::get, "/api/sim/put")) == 405);
    routes.fake.simulatedCastle = false;
    CHECK(routes.status(make(http::verb::post, "/api/sim/put", "{}")) == 404);
    CHECK(routes.status(make(http::verb::get, "/api/sim/leds")) == 404);
    CHECK(routes.body(make(http::verb::get, "/api/info"))["simulated"] == false);
}

TEST_CASE("files of the web page: GET and HEAD, traversal refused") {
    TempWebRoot web;
    FakeService fake;
    StaticFiles files(web.root());
    ApiRouter router(fake, files, {});
    auto index = router.handle(make(http::verb::get, "/"));
    CHECK(index.response.result() == http::status::ok);
    CHECK(index.response[http::field::content_type] == "text/html; charset=utf-8");
    auto head = router.handle(make(http::verb::head, "/app.js"));
    CHECK(head.response.result() == http::status::ok);
    CHECK(head.response.body().empty());
    CHECK(head.response[http::field::content_length] ==
          std::to_string(std::string("console.log('vivaref');").size()));
    for (const char* bad : {"/../secret.txt", "/%2e%2e/secret.txt", "/escape"}) {
        CAPTURE(bad);
        auto reply = router.handle(make(http::verb::get, bad));
        CHECK(reply.response.result() == http::status::bad_request);
        CHECK(reply.response.body().find(kSecretText) == std::string::npos);
    }
    CHECK(router.handle(make(http::verb::get, "/nope.html")).response.result() == http::status::not_found);
}

TEST_CASE("every answer says it may not be framed; the pages carry a content security policy") {
    TempWebRoot web;
    FakeService fake;
    StaticFiles files(web.root());
    ApiRouter router(fake, files, {});
    for (const char* page : {"/", "/index.html", "/app.js"}) {
        CAPTURE(page);
        for (const auto method : {http::verb::get, http::verb::head}) {
            const auto reply = router.handle(make(method, page));
            REQUIRE(reply.response.result() == http::status::ok);
            const std::string policy(reply.response["Content-Security-Policy"]);
            CHECK(policy.find("default-src 'self'") != std::string::npos);
            CHECK(policy.find("frame-ancestors 'none'") != std::string::npos);
            CHECK(policy.find("object-src 'none'") != std::string::npos);
            CHECK(policy.find("unsafe-inline") == std::string::npos);
            CHECK(policy.find("unsafe-eval") == std::string::npos);
            CHECK(reply.response["X-Frame-Options"] == "DENY");
        }
    }
    // JSON answers, errors included, load nothing and are framed nowhere either.
    for (const char* target : {"/api/status", "/api/nowhere", "/nope.html"}) {
        CAPTURE(target);
        const auto reply = router.handle(make(http::verb::get, target));
        CHECK(reply.response["Content-Security-Policy"] == "default-src 'none'; frame-ancestors 'none'");
        CHECK(reply.response["X-Frame-Options"] == "DENY");
    }
}

TEST_CASE("the league's routes: 404 no-league without a reader, the hook's answer with one") {
    Routes routes;
    auto none = routes.call(make(http::verb::get, "/api/league/standings?table=north"));
    CHECK(none.response.result() == http::status::not_found);
    const auto said = json::parse(none.response.body());
    CHECK(said["error"] == "no-league");
    CHECK(said["message"].get<std::string>().find("league_password_file") != std::string::npos);
    CHECK(routes.status(make(http::verb::post, "/api/league", "{}")) == 405);

    RouterOptions options;
    std::vector<std::string> asked;
    options.league = [&asked](const Request& request, std::string_view path) {
        asked.emplace_back(path);
        ApiRouter::Reply reply;
        reply.later = [version = request.version()](Respond respond) {
            Request head{http::verb::get, "/", version};
            respond(jsonResponse(head, http::status::ok, {{"later", true}}));
        };
        return reply;
    };
    options.leagueOnly = true;
    ApiRouter league(routes.fake, routes.files, options);
    for (const char* target :
         {"/api/league", "/api/league/standings?edition=classic", "/api/league/games/ab"}) {
        auto reply = league.handle(make(http::verb::get, target));
        REQUIRE(reply.later);
        std::optional<Response> answered;
        reply.later([&](Response r) { answered = std::move(r); });
        REQUIRE(answered);
        CHECK(json::parse(answered->body())["later"] == true);
    }
    CHECK(asked == std::vector<std::string>{"", "/standings", "/games/ab"});
    // A league-only server has no table: its other routes are 404.
    CHECK(league.handle(make(http::verb::get, "/api/status")).response.result() == http::status::not_found);
    CHECK(league.handle(make(http::verb::get, "/api/games")).response.result() == http::status::not_found);
}

TEST_CASE(
    "the castle's configuration: POST /api/host/castle/ACTION, host only, to the hook; 404 without one") {
    const std::string token = "s3cret-host-token";
    Routes routes(token);
    auto apply = [&](http::verb method, const std::string& target, bool withToken) {
        auto r = make(method, target, method == http::verb::post ? "{}" : "");
        if (withToken) r.set(http::field::authorization, "Bearer " + token);
        return r;
    };
    CHECK(routes.status(apply(http::verb::post, "/api/host/castle/apply", false)) == 401);
    auto none = routes.call(apply(http::verb::post, "/api/host/castle/apply", true));
    CHECK(none.response.result() == http::status::not_found);
    CHECK(json::parse(none.response.body())["error"] == "no-castle-config");

    RouterOptions options;
    options.hostToken = token;
    std::vector<std::string> asked;
    options.castleConfig = [&asked](std::string_view action, const json& body) {
        asked.emplace_back(action);
        CHECK(body.is_object());
        return action == "apply"
                   ? ServiceAnswer::ok({{"readers", 13}})
                   : ServiceAnswer::failed(ServiceAnswer::Outcome::Refused, "castle.config.game-in-progress",
                                           "a game is in progress");
    };
    ApiRouter router(routes.fake, routes.files, options);
    auto status = [&](const Request& r) { return static_cast<int>(router.handle(r).response.result_int()); };
    CHECK(status(apply(http::verb::post, "/api/host/castle/apply", false)) == 401);
    auto wrong = apply(http::verb::post, "/api/host/castle/apply", false);
    wrong.set(http::field::authorization, "Bearer a-player-token-is-not-the-host");
    CHECK(status(wrong) == 401);
    CHECK(asked.empty());
    CHECK(status(apply(http::verb::get, "/api/host/castle/apply", true)) == 405);
    CHECK(status(apply(http::verb::post, "/api/host/castle/apply", true)) == 200);
    CHECK(json::parse(router.handle(apply(http::verb::post, "/api/host/castle/apply", true))
                          .response.body())["readers"] == 13);
    CHECK(status(apply(http::verb::post, "/api/host/castle/other", true)) == 409);
    CHECK(status(apply(http::verb::post, "/api/host/castle/apply/more", true)) == 404);
    CHECK(status(apply(http::verb::post, "/api/host/castle/", true)) == 404);
    CHECK(asked == std::vector<std::string>{"apply", "apply", "other"});
}

TEST_CASE("the guided set-up: /api/host/setup and /setup/answer, host only, to the hook; 404 without one") {
    const std::string token = "s3cret-host-token";
    Routes routes(token);
    auto ask = [&](http::verb method, const std::string& target, const std::string& body, bool withToken) {
        auto r = make(method, target, body);
        if (withToken) r.set(http::field::authorization, "Bearer " + token);
        return r;
    };
    CHECK(routes.status(ask(http::verb::get, "/api/host/setup", "", false)) == 401);
    auto none = routes.call(ask(http::verb::get, "/api/host/setup", "", true));
    CHECK(none.response.result() == http::status::not_found);
    CHECK(json::parse(none.response.body())["error"] == "no-setup");

    RouterOptions options;
    options.hostToken = token;
    std::vector<std::string> asked;
    options.setup = [&asked](std::string_view action, const json& body, bool gameInProgress) {
        asked.emplace_back(std::string(action) + (gameInProgress ? "+game" : "") +
                           (body.contains("answer") ? ":" + body["answer"].get<std::string>() : ""));
        return ServiceAnswer::ok({{"running", action != "stop"}});
    };
    ApiRouter router(routes.fake, routes.files, options);
    auto status = [&](const Request& r) { return static_cast<int>(router.handle(r).response.result_int()); };
    CHECK(status(ask(http::verb::get, "/api/host/setup", "", false)) == 401);
    CHECK(status(ask(http::verb::post, "/api/host/setup", "{}", false)) == 401);
    CHECK(status(ask(http::verb::post, "/api/host/setup/answer", R"({"answer": "skip"})", false)) == 401);
    auto wrong = ask(http::verb::get, "/api/host/setup", "", false);
    wrong.set(http::field::authorization, "Bearer a-player-token-is-not-the-host");
    CHECK(status(wrong) == 401);
    CHECK(asked.empty());
    CHECK(status(ask(http::verb::get, "/api/host/setup", "", true)) == 200);
    CHECK(status(ask(http::verb::post, "/api/host/setup", R"({"from": "example"})", true)) == 200);
    CHECK(status(ask(http::verb::post, "/api/host/setup", R"({"action": "stop"})", true)) == 200);
    CHECK(status(ask(http::verb::post, "/api/host/setup", R"({"action": "stop", "more": 1})", true)) == 400);
    CHECK(status(ask(http::verb::post, "/api/host/setup", R"({"action": "dance"})", true)) == 400);
    CHECK(status(ask(http::verb::post, "/api/host/setup/answer", R"({"answer": "skip"})", true)) == 200);
    CHECK(status(ask(http::verb::get, "/api/host/setup/answer", "", true)) == 405);
    CHECK(status(ask(http::verb::delete_, "/api/host/setup", "", true)) == 405);
    CHECK(asked == std::vector<std::string>{"state", "start", "stop", "answer:skip"});
}
