#include "daemon/server/api_router.hpp"

#include <charconv>
#include <variant>

#include "daemon/server/auth_throttle.hpp"
#include "daemon/server/host_check.hpp"
#include "daemon/server/qr_svg.hpp"
#include "daemon/server/secret_token.hpp"
#include "daemon/words/catalog.hpp"

namespace vivaref::server {

using nlohmann::json;

namespace {

ApiRouter::Reply error(const Request& request, http::status status, std::string_view code,
                       std::string_view message) {
    return {errorResponse(&request, status, code, message)};
}

// An error a person reads (on the host's or a player's page): its message too.
ApiRouter::Reply errorSaying(const Request& request, http::status status, std::string_view code,
                             std::string_view message, const engine::Message& says) {
    return {errorResponse(request, status, code, message, says)};
}

ApiRouter::Reply methodNotAllowed(const Request& request, std::string_view allowed) {
    auto reply = error(request, http::status::method_not_allowed, "method-not-allowed",
                       "this address answers " + std::string(allowed) + " only");
    reply.response.set(http::field::allow, allowed);
    return reply;
}

ApiRouter::Reply ok(const Request& request, const json& body) {
    return {jsonResponse(request, http::status::ok, body)};
}

// The port part of a Host header ("8080" of "a:8080" or "[::1]:8080"), empty when it has none
// (or something other than digits: no link carries what a client wrote).
std::string_view headerPort(std::string_view authority) {
    const auto close = authority.rfind(']');
    const auto colon = authority.rfind(':');
    if (colon == std::string_view::npos || (close != std::string_view::npos && colon < close)) return {};
    const std::string_view port = authority.substr(colon + 1);
    if (port.size() > 5 || port.find_first_not_of("0123456789") != std::string_view::npos) return {};
    return port;
}

// "http://HOST[:PORT]/" for a phone, on the port the request came in by.
std::string linkOn(std::string_view host, std::string_view port) {
    return "http://" + std::string(host) + (port.empty() ? "" : ":" + std::string(port)) + "/";
}

// RFC 7230 section 3.2.6: a token's characters.
bool isTokenChar(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           std::string_view("!#$%&'*+-.^_`|~").find(c) != std::string_view::npos;
}

// The token at `at` (empty when none), `at` moved past it.
std::string_view takeToken(std::string_view text, std::size_t& at) {
    const std::size_t start = at;
    while (at < text.size() && isTokenChar(text[at])) ++at;
    return text.substr(start, at - start);
}

void skipWhitespace(std::string_view text, std::size_t& at) {
    while (at < text.size() && (text[at] == ' ' || text[at] == '\t')) ++at;
}

// Whether a Content-Type is JSON: the media type of RFC 7231 section
// 3.1.1.1, type "/" subtype *( OWS ";" OWS name "=" ( token / quoted-string ) ),
// with type/subtype application/json in any case and any parameters
// (charset=utf-8 and the like). application/jsonx, application/json-seq,
// text/json and anything not of that grammar are not.
bool isJsonMediaType(std::string_view text) {
    std::size_t at = 0;
    const std::string_view type = takeToken(text, at);
    if (at >= text.size() || text[at] != '/') return false;
    ++at;
    const std::string_view subtype = takeToken(text, at);
    if (!boost::beast::iequals(type, "application") || !boost::beast::iequals(subtype, "json")) return false;
    for (;;) {
        skipWhitespace(text, at);
        if (at == text.size()) return true;
        if (text[at] != ';') return false;
        ++at;
        skipWhitespace(text, at);
        if (takeToken(text, at).empty() || at >= text.size() || text[at] != '=') return false;
        ++at;
        if (at < text.size() && text[at] == '"') {
            // quoted-string: qdtext or a quoted-pair, up to the closing quote.
            for (++at;; ++at) {
                if (at >= text.size()) return false;
                const auto c = static_cast<unsigned char>(text[at]);
                if (c == '"') break;
                if (c == '\\') {
                    if (++at >= text.size()) return false;
                    continue;
                }
                if ((c < 0x20 && c != '\t') || c == 0x7f) return false;
            }
            ++at;
        } else if (takeToken(text, at).empty()) {
            return false;
        }
    }
}

// "a/b/c" -> "a" and "b/c".
std::pair<std::string_view, std::string_view> firstSegment(std::string_view path) {
    const auto slash = path.find('/');
    if (slash == std::string_view::npos) return {path, {}};
    return {path.substr(0, slash), path.substr(slash + 1)};
}

std::optional<std::int64_t> positiveInteger(std::string_view text) {
    std::int64_t value = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size() || value <= 0) return std::nullopt;
    return value;
}

http::status statusOf(ServiceAnswer::Outcome outcome) {
    switch (outcome) {
        case ServiceAnswer::Outcome::Ok:
            return http::status::ok;
        case ServiceAnswer::Outcome::BadRequest:
            return http::status::bad_request;
        case ServiceAnswer::Outcome::NotFound:
            return http::status::not_found;
        case ServiceAnswer::Outcome::Refused:
            return http::status::conflict;
        case ServiceAnswer::Outcome::Unavailable:
            return http::status::service_unavailable;
    }
    return http::status::internal_server_error;
}

// 421 with a short plain answer: the request named a host this daemon is not.
Response misdirected(const Request& request) {
    Response response{http::status::misdirected_request, request.version()};
    response.set(http::field::server, "vivaref");
    response.set(http::field::content_type, "text/plain; charset=utf-8");
    response.set(http::field::cache_control, "no-store");
    response.set("X-Content-Type-Options", "nosniff");
    setFramingHeaders(response);
    response.keep_alive(false);
    if (request.method() != http::verb::head)
        response.body() =
            "421 Misdirected Request: this castle answers only at its own addresses and names "
            "(more with http_names in its configuration).\n";
    response.prepare_payload();
    return response;
}

// 429 while the request's address is slowed after wrong host secrets.
ApiRouter::Reply slowedDown(const Request& request, std::chrono::milliseconds wait) {
    const std::string seconds = std::to_string(wholeSeconds(wait));
    auto reply =
        errorSaying(request, http::status::too_many_requests, "too-many-wrong-secrets",
                    "too many wrong host secrets came from this address: try again in " + seconds + " s",
                    engine::Message("api.slowed", {{"seconds", engine::say::number(wholeSeconds(wait))}}));
    reply.response.set(http::field::retry_after, seconds);
    return reply;
}

}  // namespace

ApiRouter::ApiRouter(RefereeService& service, const StaticFiles& files, RouterOptions options)
    : service_(service), files_(files), options_(std::move(options)) {}

ApiRouter::Reply ApiRouter::handle(const Request& request, const boost::asio::ip::address& peer) {
    // RFC 7230 section 5.4: one Host, else 400. Before the name check, which
    // would look at one of them only (and a proxy in front at the other).
    if (request.count(http::field::host) > 1) {
        auto reply = error(request, http::status::bad_request, "bad-request",
                           "the request has more than one Host header");
        reply.response.keep_alive(false);
        return reply;
    }
    if (options_.hostNames) {
        const auto host = request.find(http::field::host);
        if (!options_.hostNames->allows(
                host == request.end() ? std::nullopt : std::optional<std::string_view>(host->value()),
                std::chrono::steady_clock::now()))
            return {misdirected(request)};
    }
    peer_ = peer;
    const std::string_view target = request.target();
    if (target.empty() || target.front() != '/')
        return error(request, http::status::bad_request, "bad-target",
                     "the request's target must start with /");
    const std::string_view path = target.substr(0, target.find_first_of("?#"));
    if (path == "/api" || path.starts_with("/api/"))
        return api(request, path.substr(std::min<std::size_t>(5, path.size())));
    if (options_.leagueOnly && path == "/") return file(request, "/league.html");
    return file(request, path);
}

ApiRouter::Reply ApiRouter::api(const Request& request, std::string_view path) {
    const bool get = request.method() == http::verb::get;
    const auto [head, rest] = firstSegment(path);
    if (head == "league") {
        if (!get) return methodNotAllowed(request, "GET");
        if (!options_.league)
            return error(request, http::status::not_found, "no-league",
                         "this table shows no league: give [club] a league_password_file (the password of "
                         "the club's read-only <database>_league role, printed by vivaref club create) to "
                         "show it here, or run vivaref club serve");
        return options_.league(request, path.substr(head.size()));
    }
    if (head == "words") {
        if (!get) return methodNotAllowed(request, "GET");
        return words(request, rest);
    }
    if (options_.leagueOnly)
        return error(request, http::status::not_found, "no-such-route",
                     "this server shows the club's league only (/api/league)");
    if (head == "status" && rest.empty()) {
        if (!get) return methodNotAllowed(request, "GET");
        return ok(request, service_.publicStatus());
    }
    if (head == "events" && rest.empty()) {
        if (!get) return methodNotAllowed(request, "GET");
        return {Response{}, true};
    }
    if (head == "info" && rest.empty()) {
        if (!get) return methodNotAllowed(request, "GET");
        return ok(request, {{"version", options_.version},
                            {"simulated", service_.simulated()},
                            {"hostTokenRequired", !options_.hostToken.empty()},
                            // Whether this table shows a league: the pages' menus offer it only then.
                            {"league", static_cast<bool>(options_.league)},
                            {"table", tableLinks(request)}});
    }
    if (head == "games") {
        if (!get) return methodNotAllowed(request, "GET");
        if (rest.empty()) return ok(request, service_.games());
        if (const auto [number, what] = firstSegment(rest); what == "analysis") {
            const auto game = positiveInteger(number);
            if (!game)
                return error(request, http::status::not_found, "no-such-game",
                             "a game is named by its number");
            return answer(request, service_.gameAnalysis(*game));
        }
        const auto id = positiveInteger(rest);
        if (!id)
            return error(request, http::status::not_found, "no-such-game", "a game is named by its number");
        auto game = service_.gameText(*id);
        if (!game)
            return error(request, http::status::not_found, "no-such-game",
                         "the game log holds no game " + std::to_string(*id));
        return {jsonTextResponse(request, http::status::ok, std::move(*game))};
    }
    if (head == "player" && !rest.empty() && rest.find('/') != std::string_view::npos) {
        const auto [token, what] = firstSegment(rest);
        if (token.empty() || what.empty() || what.find('/') != std::string_view::npos)
            return error(request, http::status::not_found, "no-such-route", "the API has no such address");
        if (request.method() != http::verb::post) return methodNotAllowed(request, "POST");
        auto body = jsonBody(request);
        if (auto* reply = std::get_if<Reply>(&body)) return std::move(*reply);
        return answer(request, service_.player(token, what, std::get<json>(body)));
    }
    if (head == "player" && !rest.empty() && rest.find('/') == std::string_view::npos) {
        if (!get) return methodNotAllowed(request, "GET");
        auto page = service_.playerStatus(rest);
        if (!page)
            return errorSaying(request, http::status::not_found, "no-such-player",
                               "this link belongs to no player of the current game",
                               engine::Message("api.no-such-player-link"));
        return ok(request, *page);
    }
    if (head == "host" && !rest.empty() && rest.find('/') == std::string_view::npos)
        return host(request, rest);
    if (head == "host" && rest.starts_with("players/")) return playerCode(request, rest.substr(8));
    if (head == "host" && rest == "self-test/answer") {
        if (auto refused = hostGate(request)) return std::move(*refused);
        return selfTest(request, true);
    }
    if (head == "host" && rest == "setup/answer") {
        if (auto refused = hostGate(request)) return std::move(*refused);
        return setup(request, true);
    }
    if (head == "host" && rest.starts_with("castle/") && rest.size() > 7 &&
        rest.find('/', 7) == std::string_view::npos)
        return castleConfig(request, rest.substr(7));
    if (head == "sim" && !rest.empty() && rest.find('/') == std::string_view::npos) return sim(request, rest);
    return error(request, http::status::not_found, "no-such-route", "the API has no such address");
}

// GET /api/words: the languages and the table's; /api/words/LANG: that
// language's catalog, for the pages to render messages (web-ui/js/words.js).
ApiRouter::Reply ApiRouter::words(const Request& request, std::string_view language) {
    if (language.empty()) {
        const auto table = service_.tableLanguage();
        return ok(request, {{"languages", words::shippedLanguages()},
                            {"table", table.empty() ? options_.tableLanguage : table}});
    }
    const auto* catalog = words::findCatalog(language);
    if (!catalog)
        return error(request, http::status::not_found, "no-such-language",
                     "vivaref has no words in '" + std::string(language) + "'");
    return ok(request, json(catalog->patterns()));
}

bool ApiRouter::hostAllowed(const Request& request) const {
    if (options_.hostToken.empty()) return true;
    const auto header = request.find(http::field::authorization);
    if (header == request.end()) return false;
    // RFC 7235: the scheme in any case ("bearer" too), one or more spaces, the secret.
    const std::string_view value = header->value();
    constexpr std::string_view kBearer = "bearer";
    if (value.size() <= kBearer.size() || !boost::beast::iequals(value.substr(0, kBearer.size()), kBearer) ||
        value[kBearer.size()] != ' ')
        return false;
    const auto secret = value.find_first_not_of(' ', kBearer.size());
    if (secret == std::string_view::npos) return false;
    return tokensEqual(value.substr(secret), options_.hostToken);
}

ApiRouter::Reply ApiRouter::hostRefused(const Request& request) {
    auto reply =
        errorSaying(request, http::status::unauthorized, "host-credential",
                    "only the host's device can do this: it needs the host's secret (Authorization: Bearer "
                    "SECRET); open the host's link on this device",
                    engine::Message("api.host-credential"));
    reply.response.set(http::field::www_authenticate, "Bearer realm=\"vivaref host\"");
    return reply;
}

std::optional<ApiRouter::Reply> ApiRouter::hostGate(const Request& request) {
    if (options_.hostToken.empty()) return std::nullopt;
    // Only a request that offers a secret is a guess: one without is refused as before.
    const bool offered = request.find(http::field::authorization) != request.end();
    const auto now = std::chrono::steady_clock::now();
    if (options_.throttle && offered)
        if (auto wait = options_.throttle->closedFor(peer_, now)) return slowedDown(request, *wait);
    if (hostAllowed(request)) {
        if (options_.throttle) options_.throttle->succeeded(peer_);
        return std::nullopt;
    }
    if (options_.throttle && offered) options_.throttle->failed(peer_, now);
    return hostRefused(request);
}

ApiRouter::Reply ApiRouter::host(const Request& request, std::string_view name) {
    if (auto refused = hostGate(request)) return std::move(*refused);
    if (name == "enrol") return enrol(request);
    if (name == "castle") return castle(request);
    if (name == "self-test") return selfTest(request, false);
    if (name == "setup") return setup(request, false);
    if (name == "players" || name == "members") {
        if (request.method() != http::verb::get) return methodNotAllowed(request, "GET");
        return answer(request, service_.host(name, json::object()));
    }
    if (request.method() != http::verb::post) return methodNotAllowed(request, "POST");
    auto body = jsonBody(request);
    if (auto* reply = std::get_if<Reply>(&body)) return std::move(*reply);
    return answer(request, service_.host(name, std::get<json>(body)));
}

// GET: the enrolment's state; POST {"action": "start" | "skip" | "stop", ...}.
ApiRouter::Reply ApiRouter::enrol(const Request& request) {
    if (!options_.enrol)
        return error(request, http::status::not_found, "no-enrolment", "this daemon enrols no tags");
    const bool get = request.method() == http::verb::get;
    if (!get && request.method() != http::verb::post) return methodNotAllowed(request, "GET, POST");
    if (get) return answer(request, options_.enrol("state", json::object(), false));
    auto body = jsonBody(request);
    if (auto* reply = std::get_if<Reply>(&body)) return std::move(*reply);
    const json& fields = std::get<json>(body);
    const auto action = fields.find("action");
    if (action == fields.end() || !action->is_string())
        return error(request, http::status::bad_request, "bad-request",
                     "an enrolment request names its \"action\": start, skip or stop");
    const std::string name = action->get<std::string>();
    if (name == "state")
        return error(request, http::status::bad_request, "bad-request",
                     "the enrolment's state is read with GET");
    bool gameInProgress = false;
    if (name == "start") {
        const json status = service_.publicStatus();
        const std::string state = status.is_object() ? status.value("state", "") : "";
        gameInProgress = state == "playing" || state == "paused";
    }
    return answer(request, options_.enrol(name, fields, gameInProgress));
}

// GET: the castle's health, reader by reader (castle_report.hpp).
ApiRouter::Reply ApiRouter::castle(const Request& request) {
    if (!options_.castle)
        return error(request, http::status::not_found, "no-castle", "this daemon shows no castle");
    if (request.method() != http::verb::get) return methodNotAllowed(request, "GET");
    return ok(request, options_.castle());
}

// GET: the self-test's state; POST {"full"?: bool} starts one, {"action": "stop"} stops it;
// POST .../answer {"answer": ...} answers the step's question.
ApiRouter::Reply ApiRouter::selfTest(const Request& request, bool answerRoute) {
    if (!options_.selfTest)
        return error(request, http::status::not_found, "no-self-test", "this daemon runs no self-test");
    const bool get = request.method() == http::verb::get;
    if (answerRoute && !get && request.method() != http::verb::post) return methodNotAllowed(request, "POST");
    if (answerRoute && get) return methodNotAllowed(request, "POST");
    if (!get && request.method() != http::verb::post) return methodNotAllowed(request, "GET, POST");
    if (get) return answer(request, options_.selfTest("state", json::object(), false));
    auto body = jsonBody(request);
    if (auto* reply = std::get_if<Reply>(&body)) return std::move(*reply);
    json fields = std::get<json>(body);
    if (answerRoute) return answer(request, options_.selfTest("answer", fields, false));
    std::string action = "start";
    if (const auto given = fields.find("action"); given != fields.end()) {
        if (!given->is_string() || (*given != "start" && *given != "stop"))
            return error(request, http::status::bad_request, "bad-request",
                         "a self-test's \"action\" is start or stop");
        action = given->get<std::string>();
        if (action == "stop" && fields.size() > 1)
            return error(request, http::status::bad_request, "bad-request",
                         "a stop takes nothing but its \"action\"");
    }
    bool gameInProgress = false;
    if (action == "start") {
        const json status = service_.publicStatus();
        const std::string state = status.is_object() ? status.value("state", "") : "";
        gameInProgress = state == "playing" || state == "paused";
    }
    return answer(request, options_.selfTest(action, fields, gameInProgress));
}

// GET: the set-up's state; POST {"from"?: "in-force" | "example"} starts one, {"action": "stop"}
// abandons it, {"action": "use-real"} and {"action": "put-aside"} switch the castle in force
// between set-ups; POST .../answer {"answer": ..., "reader"?: NAME} answers the step's question.
ApiRouter::Reply ApiRouter::setup(const Request& request, bool answerRoute) {
    if (!options_.setup)
        return error(request, http::status::not_found, "no-setup", "this daemon runs no set-up");
    const bool get = request.method() == http::verb::get;
    if (answerRoute && request.method() != http::verb::post) return methodNotAllowed(request, "POST");
    if (!get && request.method() != http::verb::post) return methodNotAllowed(request, "GET, POST");
    if (get) return answer(request, options_.setup("state", json::object(), false));
    auto body = jsonBody(request);
    if (auto* reply = std::get_if<Reply>(&body)) return std::move(*reply);
    json fields = std::get<json>(body);
    if (answerRoute) return answer(request, options_.setup("answer", fields, false));
    std::string action = "start";
    if (const auto given = fields.find("action"); given != fields.end()) {
        if (!given->is_string() ||
            (*given != "start" && *given != "stop" && *given != "use-real" && *given != "put-aside"))
            return error(request, http::status::bad_request, "bad-request",
                         "a set-up's \"action\" is start, stop, use-real or put-aside");
        action = given->get<std::string>();
        if (action != "start" && fields.size() > 1)
            return error(request, http::status::bad_request, "bad-request",
                         "a " + action + " takes nothing but its \"action\"");
    }
    bool gameInProgress = false;
    if (action != "stop") {
        const json status = service_.publicStatus();
        const std::string state = status.is_object() ? status.value("state", "") : "";
        gameInProgress = state == "playing" || state == "paused";
    }
    return answer(request, options_.setup(action, fields, gameInProgress));
}

// POST /api/host/castle/ACTION: the castle's configuration (apply: the one in force, between games).
ApiRouter::Reply ApiRouter::castleConfig(const Request& request, std::string_view action) {
    if (auto refused = hostGate(request)) return std::move(*refused);
    if (!options_.castleConfig)
        return error(request, http::status::not_found, "no-castle-config",
                     "this daemon has no castle configuration to change");
    if (request.method() != http::verb::post) return methodNotAllowed(request, "POST");
    auto body = jsonBody(request);
    if (auto* reply = std::get_if<Reply>(&body)) return std::move(*reply);
    return answer(request, options_.castleConfig(action, std::get<json>(body)));
}

ApiRouter::Reply ApiRouter::sim(const Request& request, std::string_view name) {
    if (!service_.simulated())
        return error(request, http::status::not_found, "not-simulated",
                     "the simulated castle exists only with --hardware=sim");
    if (name == "leds" || name == "state") {
        if (request.method() != http::verb::get) return methodNotAllowed(request, "GET");
        json state = service_.simState();
        if (name == "leds")
            return ok(request, state.is_object() && state.contains("leds") ? state["leds"] : json::object());
        return ok(request, state);
    }
    if (request.method() != http::verb::post) return methodNotAllowed(request, "POST");
    // Looking at the castle is public; moving its pieces and pressing its
    // keys is the host's (or whoever the host gave the link to).
    if (auto refused = hostGate(request)) return std::move(*refused);
    auto body = jsonBody(request);
    if (auto* reply = std::get_if<Reply>(&body)) return std::move(*reply);
    return answer(request, service_.sim(name, std::get<json>(body)));
}

json ApiRouter::tableLinks(const Request& request) const {
    const TableAddresses table = options_.tableAddresses ? options_.tableAddresses() : TableAddresses{};
    const auto host = request.find(http::field::host);
    const std::string_view port = host == request.end() ? std::string_view{} : headerPort(host->value());
    json links = json::array();
    // Loopback only, or no network: no link a phone can open.
    if (!table.loopbackOnly && !table.noNetwork)
        for (const auto& h : table.hosts) links.push_back(linkOn(h, port));
    return {
        {"links", std::move(links)}, {"loopback_only", table.loopbackOnly}, {"no_network", table.noNetwork}};
}

// GET /api/host/players/P/qr.svg: player P's link as a QR code. The link is
// made for the address the host's page was opened at (its Host header), as
// the page would make it: the phones reach the castle the way the host does;
// except 127.0.0.1 and the like, which phones cannot reach (below).
ApiRouter::Reply ApiRouter::playerCode(const Request& request, std::string_view rest) {
    if (auto refused = hostGate(request)) return std::move(*refused);
    const auto [number, what] = firstSegment(rest);
    if (what != "qr.svg")
        return error(request, http::status::not_found, "no-such-route", "the API has no such address");
    if (request.method() != http::verb::get) return methodNotAllowed(request, "GET");
    int player = -1;
    auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), player);
    if (ec != std::errc() || end != number.data() + number.size() || player < 0)
        return error(request, http::status::not_found, "no-such-player",
                     "a player is named by their number, from 0");
    const auto host = request.find(http::field::host);
    const std::string_view authority = host == request.end() ? std::string_view{} : host->value();
    if (authority.empty() || authority.size() > 255 ||
        authority.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-:[]") !=
            std::string_view::npos)
        return error(request, http::status::bad_request, "bad-host",
                     "the request's Host header must name the castle's address (NAME or NAME:PORT)");
    const ServiceAnswer players = service_.host("players", json::object());
    if (players.outcome != ServiceAnswer::Outcome::Ok) return answer(request, players);
    std::string path;
    for (const auto& p : players.body.value("players", json::array())) {
        if (!p.is_object() || p.value("player", -1) != player) continue;
        // A seat the referee plays: no link, so no code (its cards stay secret).
        if (p.contains("bot") && !p["bot"].is_null())
            return error(request, http::status::conflict, "bot-seat",
                         "seat " + std::to_string(p.value("seat", 0) + 1) +
                             " is played by the referee: its player has no link and no code, so that its "
                             "cards stay secret");
        path = p.value("path", "");
    }
    if (path.empty())
        return error(request, http::status::not_found, "no-such-player",
                     "the current game has no player " + std::to_string(player));
    // A page opened at 127.0.0.1 (or localhost) on the castle's computer
    // would give phones a link to themselves: the code names the machine's
    // address on the table's network instead, on the same port.
    // Behind a trusted proxy serving HTTPS (the session keeps the header only
    // from one), the phone opens the link over HTTPS too.
    const bool https = request["X-Forwarded-Proto"] == "https";
    std::string origin = (https ? "https://" : "http://") + std::string(authority);
    if (const auto name = hostOfHeader(authority); name && isLoopbackHost(*name) && options_.tableAddresses) {
        const TableAddresses table = options_.tableAddresses();
        if (!table.loopbackOnly && !table.noNetwork && !table.hosts.empty()) {
            origin = linkOn(table.hosts.front(), headerPort(authority));
            origin.pop_back();  // the path brings its own '/'
        }
    }
    std::string svg;
    try {
        svg = qrSvg(encodeQr(origin + path));
    } catch (const std::exception& e) {
        return error(request, http::status::internal_server_error, "no-qr-code", e.what());
    }
    Response response{http::status::ok, request.version()};
    response.set(http::field::server, "vivaref");
    response.set(http::field::content_type, "image/svg+xml");
    // The code is a player's secret link: kept in no cache.
    response.set(http::field::cache_control, "no-store");
    response.set("X-Content-Type-Options", "nosniff");
    setFramingHeaders(response);
    response.keep_alive(request.keep_alive());
    response.body() = std::move(svg);
    response.prepare_payload();
    return {std::move(response)};
}

ApiRouter::Reply ApiRouter::file(const Request& request, std::string_view path) {
    const bool head = request.method() == http::verb::head;
    if (request.method() != http::verb::get && !head) return methodNotAllowed(request, "GET, HEAD");
    auto found = files_.lookup(path);
    if (found.status == StaticFiles::Lookup::Status::Refused)
        return error(request, http::status::bad_request, "bad-path", found.reason);
    if (found.status == StaticFiles::Lookup::Status::NotFound)
        return error(request, http::status::not_found, "no-such-file", "the web page has no such file");
    Response response{http::status::ok, request.version()};
    response.set(http::field::server, "vivaref");
    response.set(http::field::content_type, found.file.contentType);
    // The page is small and changes with the installed version: always revalidate.
    response.set(http::field::cache_control, "no-cache");
    response.set("X-Content-Type-Options", "nosniff");
    setFramingHeaders(response, kPagePolicy);
    response.keep_alive(request.keep_alive());
    const auto size = found.file.body.size();
    if (!head) response.body() = std::move(found.file.body);
    response.prepare_payload();
    if (head) response.content_length(size);
    return {std::move(response)};
}

ApiRouter::Reply ApiRouter::answer(const Request& request, const ServiceAnswer& answer) {
    if (answer.text) return {jsonTextResponse(request, statusOf(answer.outcome), *answer.text)};
    return {jsonResponse(request, statusOf(answer.outcome), answer.body)};
}

std::variant<json, ApiRouter::Reply> ApiRouter::jsonBody(const Request& request) {
    const auto type = request.find(http::field::content_type);
    const std::string_view contentType = type == request.end() ? std::string_view{} : type->value();
    if (!isJsonMediaType(contentType))
        return error(request, http::status::unsupported_media_type, "not-json",
                     "send the request's body as Content-Type: application/json");
    const std::string& text = request.body();
    if (text.find_first_not_of(" \t\r\n") == std::string::npos) return json::object();
    bool tooDeep = false;
    // nlohmann's parser keeps its own stack (no recursion), and the callback
    // drops anything nested deeper than the limit before it is built.
    json body = json::parse(
        text,
        [&](int depth, json::parse_event_t, json&) {
            if (depth > options_.maxJsonDepth) tooDeep = true;
            return !tooDeep;
        },
        false);
    if (tooDeep)
        return error(request, http::status::bad_request, "bad-json",
                     "the request's JSON is nested more than " + std::to_string(options_.maxJsonDepth) +
                         " levels deep");
    if (body.is_discarded())
        return error(request, http::status::bad_request, "bad-json", "the request's body is not valid JSON");
    if (!body.is_object())
        return error(request, http::status::bad_request, "bad-json",
                     "the request's body must be a JSON object");
    return body;
}

}  // namespace vivaref::server
