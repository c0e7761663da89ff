// The routes: from one HTTP request to its answer. The API's shapes are in
// web-ui/API.md; everything not under /api/ is a file of the web page.
// Access: public routes need nothing; /api/player/TOKEN needs the player's
// secret link; /api/host/... needs "Authorization: Bearer HOST-TOKEN" (the
// configuration's host_token, else the host secret made at first start,
// host_secret.hpp); /api/sim/... exists only on the simulated castle, and
// its POSTs (put, lift, press) need the host token too. A POST must say Content-Type: application/json (so a
// page on another site cannot post a form to the castle). Never throws for
// anything a client sends: every problem is a 4xx with a JSON message.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <variant>

#include <boost/asio/ip/address.hpp>

#include "daemon/server/http_message.hpp"
#include "daemon/server/referee_service.hpp"
#include "daemon/server/static_files.hpp"
#include "daemon/server/table_addresses.hpp"

namespace vivaref::server {

class HostCheck;
class AuthThrottle;

// Sends the answer of a request that is answered later (on the loop's
// thread, once).
using Respond = std::function<void(Response)>;

struct ApiRouterReply {
    Response response;
    bool eventStream = false;  // GET /api/events: the session turns into an event stream
    // Set: the answer comes later (a query on another thread): the session
    // calls it with what sends the answer, and waits. `response` is unused.
    std::function<void(Respond)> later = nullptr;
};

struct RouterOptions {
    // The host's token. Empty opens the host's routes to anyone: only the
    // router's own tests do that; `vivaref serve` always sets one (the
    // configuration's host_token, else the host secret).
    std::string hostToken;
    // Deeper JSON bodies are refused (no request needs more than a few levels).
    int maxJsonDepth = 32;
    // For GET /api/info.
    std::string version;
    // Tag enrolment (/api/host/enrol): "state" for a GET, else the POST's
    // "action" (start, skip, stop) with its body, and whether a game is being
    // played or paused. Unset: the daemon has no enrolment (404).
    std::function<ServiceAnswer(std::string_view action, const nlohmann::json& body, bool gameInProgress)>
        enrol;
    // The castle's health (GET /api/host/castle, castle_report.hpp), at the
    // loop's now. Unset: the daemon shows no castle (404).
    std::function<nlohmann::json()> castle;
    // The self-test (/api/host/self-test, /api/host/self-test/answer):
    // "state" for a GET, "start" or "stop" for a POST by its "action"
    // (start when none), "answer" for the answer route, and whether a game
    // is being played or paused. Unset: the daemon has none (404).
    std::function<ServiceAnswer(std::string_view action, const nlohmann::json& body, bool gameInProgress)>
        selfTest;
    // The guided set-up (/api/host/setup, /api/host/setup/answer): as the
    // self-test's ("state", "start", "stop", "answer"). Unset: 404.
    std::function<ServiceAnswer(std::string_view action, const nlohmann::json& body, bool gameInProgress)>
        setup;
    // The castle's configuration (POST /api/host/castle/ACTION, e.g. apply:
    // serve_daemon.cpp). Unset: 404 no-castle-config.
    std::function<ServiceAnswer(std::string_view action, const nlohmann::json& body)> castleConfig;
    // DNS rebinding: a request whose Host header names neither the castle
    // nor a configured name gets 421 (host_check.hpp). Null: every Host is
    // answered (the router's own tests).
    std::shared_ptr<HostCheck> hostNames;
    // Wrong host secrets per source address (auth_throttle.hpp). Null: not throttled.
    std::shared_ptr<AuthThrottle> throttle;
    // The club's league (GET /api/league...; league_routes.hpp): `path` is
    // what follows /api/league ("", "/standings", "/games/UID"). Unset: those
    // routes answer 404 no-league with how to enable them.
    std::function<ApiRouterReply(const Request& request, std::string_view path)> league;
    // `vivaref club serve`: the league's routes and the web page's files,
    // nothing of a table (its other /api/ routes answer 404), and / is the
    // league's page.
    bool leagueOnly = false;
    // The table's language (GET /api/words): the shared screens' and the
    // voice's, the configuration's `[daemon] language`.
    std::string tableLanguage = "en";
    // The addresses phones at the table open (table_addresses.hpp), asked
    // at each GET /api/info and player QR code (DHCP may give the machine a
    // new one). Unset: the router knows none (its own tests).
    std::function<TableAddresses()> tableAddresses;
};

class ApiRouter {
public:
    ApiRouter(RefereeService& service, const StaticFiles& files, RouterOptions options);

    using Reply = ApiRouterReply;
    // `peer`: the address the request came from (the throttle counts by it).
    Reply handle(const Request& request, const boost::asio::ip::address& peer = {});

private:
    Reply api(const Request& request, std::string_view path);
    Reply host(const Request& request, std::string_view name);
    Reply enrol(const Request& request);
    Reply castle(const Request& request);
    Reply selfTest(const Request& request, bool answerRoute);
    Reply setup(const Request& request, bool answerRoute);
    Reply castleConfig(const Request& request, std::string_view action);
    Reply sim(const Request& request, std::string_view name);
    Reply words(const Request& request, std::string_view language);
    Reply playerCode(const Request& request, std::string_view rest);
    // GET /api/info's "table": the links phones open, on the request's port.
    nlohmann::json tableLinks(const Request& request) const;
    Reply hostRefused(const Request& request);
    // Nothing when the request may use the host's routes, else its refusal
    // (401, or 429 while its address is slowed).
    std::optional<Reply> hostGate(const Request& request);
    Reply file(const Request& request, std::string_view path);
    Reply answer(const Request& request, const ServiceAnswer& answer);
    // The request's JSON body ({} when empty), or the error reply.
    std::variant<nlohmann::json, Reply> jsonBody(const Request& request);
    bool hostAllowed(const Request& request) const;

    RefereeService& service_;
    const StaticFiles& files_;
    RouterOptions options_;
    boost::asio::ip::address peer_;  // of the request being answered
};

}  // namespace vivaref::server
