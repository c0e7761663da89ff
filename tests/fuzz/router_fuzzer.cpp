// libFuzzer target: any byte string is what a client sends the daemon. It is
// read as HTTP/1.1 by Beast's parser with the server's limits (as an
// http_session does; up to kMaxRequests pipelined requests) and each request
// it yields goes through the ApiRouter, in front of a service (FuzzService
// below) that reads the host's and the players' JSON with the referee's own
// request reader (daemon/referee/host_request) and holds planted secrets: a
// player's link and Favourites card, the host's token, a file beside the web
// root. Invariants, for every request:
//   - the router answers (no crash, no exception) with a status the API
//     documents; every error is JSON {"error": CODE, "message": SENTENCE};
//     every /api/ answer but a QR code is JSON;
//   - no answer holds the host token or the file outside the web root;
//   - an answer to a request without the host's token, not on the player's
//     own link, holds no planted secret (unless the request held it itself).
// Run by `.ci/dev test`; by hand: build/fuzz/tests/fuzz/router_fuzzer -dict=tests/fuzz/router.dict
// CORPUS_DIR.
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>

#include <boost/asio/buffer.hpp>
#include <boost/beast/http.hpp>

#include "daemon/referee/host_request.hpp"
#include "daemon/server/api_router.hpp"
#include "daemon/server/server_limits.hpp"
#include "tests/fuzz/fuzz_check.hpp"
#include "tests/server/temp_web_root.hpp"

namespace {

using namespace vivaref;
using namespace vivaref::server;
using nlohmann::json;

// The secrets (the dictionary, tests/fuzz/router.dict, knows the two a
// client may hold: the host token and the player's link).
constexpr std::string_view kHostToken = "fuzz-host-token-7f3a9c0b";
constexpr std::string_view kPlayerToken = "0123456789abcdef0123456789abcdef";
constexpr std::string_view kFavourite = "PLANTED-FAVOURITE-card";
constexpr int kMaxRequests = 4;

bool contains(std::string_view text, std::string_view what) {
    return text.find(what) != std::string_view::npos;
}

ServiceAnswer badRequest(std::string_view message) {
    return ServiceAnswer::failed(ServiceAnswer::Outcome::BadRequest, "bad-request", message);
}

// A referee service without a referee: each host request's JSON goes through
// the referee's request reader (the form the trace and the API share);
// answers are small and deterministic.
class FuzzService final : public RefereeService {
public:
    json publicStatus() override {
        json status = {{"state", playing_ ? "playing" : "waiting"}, {"version", version_}};
        // The check of the checks (ctest fuzz_corpus_router_sees_leak): a status that leaks.
        static const bool leak = std::getenv("VIVAREF_FUZZ_PLANT_LEAK") != nullptr;
        if (leak) status["favourites"] = {kFavourite};
        return status;
    }
    json games() override { return json::array({{{"id", 1}, {"complete", true}}}); }
    std::optional<json> game(std::int64_t id) override {
        if (id != 1) return std::nullopt;
        return json{{"id", 1}, {"events", json::array({{{"kind", "new-game"}}})}};
    }
    std::optional<json> playerStatus(std::string_view token) override {
        if (token != kPlayerToken) return std::nullopt;
        return json{{"player", 0}, {"favourites", {kFavourite}}};
    }
    ServiceAnswer player(std::string_view token, std::string_view request, const json& body) override {
        if (token != kPlayerToken)
            return ServiceAnswer::failed(ServiceAnswer::Outcome::NotFound, "no-such-player", "nobody");
        if (request != "keep")
            return ServiceAnswer::failed(ServiceAnswer::Outcome::NotFound, "no-such-request",
                                         "no such request");
        const auto ambition = body.find("ambition");
        if (ambition == body.end() || !ambition->is_string())
            return badRequest("a keep names its \"ambition\"");
        json keep = {{"player", 0}, {"ambition", *ambition}};
        return fromParse(referee::parseHostRequest({{"keep", keep}}));
    }
    ServiceAnswer host(std::string_view request, const json& body) override {
        if (request == "players")
            return ServiceAnswer::ok(
                {{"players",
                  json::array({{{"player", 0}, {"path", "/player.html#" + std::string(kPlayerToken)}}})}});
        if (request == "new-link") {
            const auto player = body.find("player");
            if (player == body.end() || !player->is_number_integer()) return badRequest("which player?");
            return ServiceAnswer::ok({{"player", *player}});
        }
        const std::string name(request);
        static constexpr std::array<std::string_view, 9> kKinds = {
            "new-game", "deal", "keep", "reshuffle", "undo", "pause", "resume", "abandon", "reveal"};
        bool known = false;
        for (const auto kind : kKinds) known = known || kind == request;
        if (!known)
            return ServiceAnswer::failed(ServiceAnswer::Outcome::NotFound, "no-such-request",
                                         "no such request");
        const ServiceAnswer answer = fromParse(referee::parseHostRequest({{name, body}}));
        if (answer.outcome == ServiceAnswer::Outcome::Ok) {
            ++version_;
            if (request == "new-game") playing_ = true;
            if (request == "abandon") playing_ = false;
            changed();
        }
        return answer;
    }
    bool simulated() const override { return true; }
    ServiceAnswer sim(std::string_view request, const json& body) override {
        if (request != "put" && request != "lift" && request != "press")
            return ServiceAnswer::failed(ServiceAnswer::Outcome::NotFound, "no-such-request",
                                         "no such request");
        if (!body.is_object() || body.empty()) return badRequest("say what to move or press");
        return ServiceAnswer::ok();
    }
    json simState() override { return {{"leds", {{"place-3", "blink"}}}, {"board", json::object()}}; }

private:
    static ServiceAnswer fromParse(const referee::HostRequestParse& parse) {
        if (const auto* why = std::get_if<std::string>(&parse.value)) return badRequest(*why);
        // What the reader took writes back as JSON it reads the same.
        const json written = referee::hostRequestJson(std::get<referee::HostRequest>(parse.value));
        const referee::HostRequestParse again = referee::parseHostRequest(written);
        if (!again.ok() || referee::hostRequestJson(std::get<referee::HostRequest>(again.value)) != written)
            fuzz::broken("a host request that does not read back the same: " + written.dump());
        return ServiceAnswer::ok(
            {{"request", referee::hostRequestName(std::get<referee::HostRequest>(parse.value))}});
    }
    bool playing_ = false;
    std::int64_t version_ = 0;
};

// Tag enrolment behind /api/host/enrol: its actions and their bodies' form.
ServiceAnswer enrol(std::string_view action, const json& body, bool gameInProgress) {
    if (action == "state") return ServiceAnswer::ok({{"state", "idle"}});
    if (action == "start") {
        if (gameInProgress)
            return ServiceAnswer::failed(ServiceAnswer::Outcome::Refused, "game-in-progress",
                                         "not during a game");
        const auto edition = body.find("edition");
        if (edition != body.end() && !edition->is_string()) return badRequest("\"edition\" is a name");
        return ServiceAnswer::ok({{"state", "enrolling"}});
    }
    if (action == "skip" || action == "stop") return ServiceAnswer::ok({{"state", "idle"}});
    return badRequest("no such action");
}

struct Fixture {
    Fixture() {
        RouterOptions options;
        options.hostToken = std::string(kHostToken);
        options.version = "fuzz";
        options.enrol = enrol;
        router = std::make_unique<ApiRouter>(service, files, std::move(options));
    }
    testing::TempWebRoot web;
    StaticFiles files{web.root()};
    FuzzService service;
    std::unique_ptr<ApiRouter> router;
};

bool documentedStatus(unsigned status) {
    switch (status) {
        case 200:
        case 400:
        case 401:
        case 404:
        case 405:
        case 409:
        case 415:
        case 421:  // main's Host check (not set up by this target yet)
        case 429:  // main's wrong-secret throttle (idem)
        case 503:
            return true;
        default:
            return false;
    }
}

void checkAnswer(const Request& request, const ApiRouter::Reply& reply, std::string_view input) {
    const Response& response = reply.response;
    const std::string target(request.target());
    if (reply.eventStream) return;  // the session takes it from here
    const unsigned status = response.result_int();
    if (!documentedStatus(status)) fuzz::broken("status " + std::to_string(status) + " for " + target);
    if (response.version() != request.version())
        fuzz::broken("another HTTP version in the answer to " + target);
    const std::string& body = response.body();
    const bool isApi = target.starts_with("/api/") || target == "/api" || target.starts_with("/api?") ||
                       target.starts_with("/api#");
    const bool qrCode = status == 200 && response[http::field::content_type] == "image/svg+xml";
    if (status != 200 || (isApi && !qrCode)) {
        const json parsed = json::parse(body, nullptr, false);
        if (parsed.is_discarded()) fuzz::broken("an answer that is not JSON for " + target + ": " + body);
        if (status != 200 &&
            !(parsed.is_object() && parsed.contains("error") && parsed["error"].is_string() &&
              parsed.contains("message") && parsed["message"].is_string()))
            fuzz::broken("an error without its code and message for " + target + ": " + body);
    }
    // Framed nowhere (issue 35), and one Host only.
    if (response["Content-Security-Policy"].find("frame-ancestors 'none'") == std::string_view::npos ||
        response["X-Frame-Options"] != "DENY")
        fuzz::broken("an answer another site may frame, for " + target);
    if (request.count(http::field::host) > 1 && status != 400)
        fuzz::broken("a request with two Host headers answered " + std::to_string(status));
    if (request.method() != http::verb::head && response.has_content_length() &&
        response[http::field::content_length] != std::to_string(body.size()))
        fuzz::broken("a Content-Length that is not the body's for " + target);

    // Secrets nobody is given.
    if (contains(body, kHostToken) && !contains(input, kHostToken))
        fuzz::broken("the host token in an answer");
    if (contains(body, testing::kSecretText))
        fuzz::broken("a file outside the web root served for " + target);
    // The host's and the player's.
    // The scheme in any case, then spaces (RFC 7235), as the router reads it.
    const auto authorization = request.find(http::field::authorization);
    bool host = false;
    if (authorization != request.end()) {
        const std::string_view value = authorization->value();
        const auto secret = value.find_first_not_of(' ', 6);
        host = value.size() > 7 && boost::beast::iequals(value.substr(0, 6), "bearer") && value[6] == ' ' &&
               secret != std::string_view::npos && value.substr(secret) == kHostToken;
    }
    const bool ownLink = contains(target, kPlayerToken);
    if (!host && !ownLink) {
        if (contains(body, kPlayerToken) && !contains(input, kPlayerToken))
            fuzz::broken("a player's link in a public answer to " + target);
        if (contains(body, kFavourite) && !contains(input, kFavourite))
            fuzz::broken("a player's Favourites card in a public answer to " + target);
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static Fixture fixture;
    const std::string_view input(reinterpret_cast<const char*>(data), size);
    const ServerLimits limits;
    std::string_view rest = input;
    for (int n = 0; n < kMaxRequests && !rest.empty(); ++n) {
        http::request_parser<http::string_body> parser;
        parser.header_limit(static_cast<std::uint32_t>(limits.maxHeaderBytes));
        parser.body_limit(limits.maxBodyBytes);
        parser.eager(true);
        boost::system::error_code error;
        while (!parser.is_done() && !rest.empty()) {
            const std::size_t used = parser.put(boost::asio::buffer(rest.data(), rest.size()), error);
            rest.remove_prefix(used);
            if (error || used == 0) break;
        }
        if (!parser.is_done()) return 0;  // the session answers 400, 413 or 431, or waits for more
        const Request request = parser.release();
        ApiRouter::Reply reply;
        try {
            reply = fixture.router->handle(request);
        } catch (const std::exception& e) {
            fuzz::broken(std::string("the router threw: ") + e.what());
        }
        checkAnswer(request, reply, input);
    }
    return 0;
}
