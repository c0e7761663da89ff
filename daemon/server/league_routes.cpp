#include "daemon/server/league_routes.hpp"

#include <algorithm>
#include <charconv>
#include <map>

#include <boost/asio/post.hpp>

#include "daemon/server/game_archive.hpp"
#include "daemon/server/http_message.hpp"

namespace vivaref::server {

using nlohmann::json;

namespace {

using LeagueOutcome = club::LeagueAnswer::Outcome;

http::status statusOf(LeagueOutcome outcome) {
    switch (outcome) {
        case LeagueOutcome::Ok:
            return http::status::ok;
        case LeagueOutcome::BadRequest:
            return http::status::bad_request;
        case LeagueOutcome::NotFound:
            return http::status::not_found;
        case LeagueOutcome::Unreachable:
        case LeagueOutcome::Busy:
            return http::status::service_unavailable;
    }
    return http::status::internal_server_error;
}

ApiRouterReply refused(const Request& request, http::status status, std::string_view code,
                       const std::string& message) {
    return {errorResponse(&request, status, code, message)};
}

ApiRouterReply badParameter(const Request& request, const std::string& message) {
    return refused(request, http::status::bad_request, "bad-parameter", message);
}

struct Query {
    std::map<std::string, std::string> values;
    std::string problem;  // a sentence naming the parameter, when the query is bad
};

// The request's query string, each of `allowed` at most once.
Query queryOf(const Request& request, std::initializer_list<std::string_view> allowed) {
    Query q;
    const std::string_view target = request.target();
    const auto mark = target.find('?');
    if (mark == std::string_view::npos) return q;
    std::string_view rest = target.substr(mark + 1);
    if (const auto hash = rest.find('#'); hash != std::string_view::npos) rest = rest.substr(0, hash);
    while (!rest.empty()) {
        const auto amp = rest.find('&');
        const std::string_view pair = rest.substr(0, amp);
        rest = amp == std::string_view::npos ? std::string_view() : rest.substr(amp + 1);
        if (pair.empty()) continue;
        const auto eq = pair.find('=');
        const auto key = percentDecoded(pair.substr(0, eq), true);
        const auto value =
            percentDecoded(eq == std::string_view::npos ? std::string_view() : pair.substr(eq + 1), true);
        if (!key || !value) {
            q.problem = "the query string has a broken %-escape";
            return q;
        }
        if (std::find(allowed.begin(), allowed.end(), *key) == allowed.end()) {
            std::string names;
            for (auto a : allowed) names += (names.empty() ? "" : ", ") + std::string(a);
            q.problem = "'" + *key + "' is not a parameter of this address" +
                        (names.empty() ? std::string(" (it takes none)") : " (it takes " + names + ")");
            return q;
        }
        if (!q.values.emplace(*key, *value).second) {
            q.problem = *key + ": given twice";
            return q;
        }
    }
    return q;
}

// What a deferred answer keeps of its request: enough to answer it.
Request headOf(const Request& request) {
    Request head{request.method(), request.target(), request.version()};
    head.keep_alive(request.keep_alive());
    return head;
}

// The reply that asks `reader` and answers when it has.
ApiRouterReply deferred(club::LeagueReader& reader, const Request& request, club::LeagueReader::Query query) {
    ApiRouterReply reply;
    reply.later = [&reader, head = headOf(request), query = std::move(query)](Respond respond) mutable {
        reader.ask(std::move(query),
                   [head = std::move(head), respond = std::move(respond)](club::LeagueAnswer a) {
                       if (a.outcome == LeagueOutcome::Ok && a.text)
                           return respond(jsonTextResponse(head, http::status::ok, std::move(*a.text)));
                       respond(jsonResponse(head, statusOf(a.outcome), a.body));
                   });
    };
    return reply;
}

json gameArchive(const club::LeagueGame& g) {
    json summary = {{"id", g.uid},         {"uid", g.uid},          {"league", true},
                    {"table", g.table},    {"local_id", g.localId}, {"startedAt", g.startedMs},
                    {"edition", g.edition}};
    summary["endedAt"] = g.endedMs ? json(*g.endedMs) : json(nullptr);
    // The record's first line is its setup (public: edition, seats, options).
    const auto firstLine = g.record.substr(0, g.record.find('\n'));
    const json line = json::parse(firstLine, nullptr, false);
    summary["setup"] = line.is_object() && line.contains("setup") ? line["setup"] : json(nullptr);
    summary["players"] = json::array();
    std::vector<std::string> names;
    for (const auto& p : g.players) {
        summary["players"].push_back({{"player", p.player}, {"seat", p.seat}, {"name", p.name}});
        if (p.player < 0) continue;
        if (names.size() <= static_cast<std::size_t>(p.player))
            names.resize(static_cast<std::size_t>(p.player) + 1);
        names[static_cast<std::size_t>(p.player)] = p.name;
    }
    summary["status"] = g.abandoned ? "abandoned" : g.complete ? "complete" : "incomplete";
    summary["verdict"] = g.verdict ? json(*g.verdict) : json(nullptr);
    if (g.result) {
        json result = json::parse(*g.result, nullptr, false);
        if (!result.is_discarded()) summary["result"] = std::move(result);
    }
    return archiveFromRecord(std::move(summary), g.record, names);
}

constexpr std::string_view kEditions[] = {"classic", "online", "2024"};

// GET /: the overview answers even when the club is down: reachable false, with why.
ApiRouterReply overviewRoute(club::LeagueReader& reader, const Request& request) {
    if (auto q = queryOf(request, {}); !q.problem.empty()) return badParameter(request, q.problem);
    ApiRouterReply reply;
    reply.later = [&reader, head = headOf(request)](Respond respond) {
        const std::string database = reader.database();
        reader.ask([database](pqxx::connection& conn) { return club::leagueOverview(conn, database); },
                   [head, respond = std::move(respond), database](club::LeagueAnswer a) {
                       if (a.outcome == LeagueOutcome::Ok && a.text)
                           return respond(jsonTextResponse(head, http::status::ok, std::move(*a.text)));
                       if (a.outcome != LeagueOutcome::Unreachable && a.outcome != LeagueOutcome::Busy)
                           return respond(jsonResponse(head, statusOf(a.outcome), a.body));
                       respond(jsonResponse(head, http::status::ok,
                                            {{"database", database},
                                             {"reachable", false},
                                             {"message", a.body.value("message", "")},
                                             {"says", a.body.value("says", json(nullptr))},
                                             {"tables", json::array()},
                                             {"editions", json::array()}}));
                   });
    };
    return reply;
}

// GET /standings?edition=&table=&since=&until=
ApiRouterReply standingsRoute(club::LeagueReader& reader, const Request& request) {
    auto q = queryOf(request, {"edition", "table", "since", "until"});
    if (!q.problem.empty()) return badParameter(request, q.problem);
    club::StandingsFilter filter;
    for (auto& [key, value] : q.values) {
        if (value.empty()) continue;  // an empty filter is no filter (the page's "all")
        if (key == "edition") {
            if (std::find(std::begin(kEditions), std::end(kEditions), value) == std::end(kEditions))
                return badParameter(request,
                                    "edition: '" + value + "' is not an edition: classic, online or 2024");
            filter.edition = value;
        } else if (key == "table") {
            if (value.size() > 40)
                return badParameter(request, "table: a table's name has at most 40 characters");
            filter.table = value;
        } else {
            if (!club::isLeagueDate(value))
                return badParameter(request, key + ": '" + value +
                                                 "' is not a date (2026-11-01) or a UTC time "
                                                 "(2026-11-01T18:00:00Z)");
            (key == "since" ? filter.since : filter.until) = value;
        }
    }
    if (filter.since && filter.until && *filter.until <= *filter.since)
        return badParameter(request,
                            "until: " + *filter.until + " is not after since (" + *filter.since + ")");
    return deferred(reader, request,
                    [filter](pqxx::connection& conn) { return club::standingsAnswer(conn, filter); });
}

// GET /games?limit=
ApiRouterReply gamesRoute(club::LeagueReader& reader, const Request& request) {
    auto q = queryOf(request, {"limit"});
    if (!q.problem.empty()) return badParameter(request, q.problem);
    int limit = 100;
    if (auto it = q.values.find("limit"); it != q.values.end()) {
        const auto& text = it->second;
        auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), limit);
        if (ec != std::errc() || end != text.data() + text.size() || limit < 1 || limit > 500)
            return badParameter(request, "limit: '" + text + "' is not a number from 1 to 500");
    }
    return deferred(reader, request,
                    [limit](pqxx::connection& conn) { return club::gamesAnswer(conn, limit); });
}

// GET /games/UID: the game replayed as the archive shows it.
ApiRouterReply gameRoute(club::LeagueReader& reader, const Request& request, std::string_view uidText) {
    if (auto q = queryOf(request, {}); !q.problem.empty()) return badParameter(request, q.problem);
    const std::string uid(uidText);
    if (!club::isGameUid(uid))
        return badParameter(request, "uid: '" + uid + "' is not a game's uid (32 lowercase hex digits)");
    return deferred(reader, request, [uid](pqxx::connection& conn) {
        auto game = club::leagueGame(conn, uid);
        if (!game)
            throw club::LeagueRefusal(LeagueOutcome::NotFound, "no-such-game",
                                      "the league has no game " + uid);
        // The replay runs here, on the reader's thread, not on the loop.
        return club::LeagueAnswer{LeagueOutcome::Ok, json::object(),
                                  gameArchive(*game).dump(-1, ' ', false, json::error_handler_t::replace)};
    });
}

// GET /members/NAME: a member's history.
ApiRouterReply memberRoute(club::LeagueReader& reader, const Request& request, std::string_view nameText) {
    if (auto q = queryOf(request, {}); !q.problem.empty()) return badParameter(request, q.problem);
    const auto name = percentDecoded(nameText);
    if (!name || name->empty() || name->size() > 160 || name->find('/') != std::string::npos)
        return badParameter(request, "member: a member is named by their name (1 to 40 characters)");
    return deferred(reader, request,
                    [member = *name](pqxx::connection& conn) { return club::historyAnswer(conn, member); });
}

}  // namespace

std::unique_ptr<club::LeagueReader> makeLeagueReader(boost::asio::io_context& io,
                                                     club::LeagueReaderOptions options) {
    return std::make_unique<club::LeagueReader>(
        std::move(options), [&io](std::function<void()> f) { boost::asio::post(io, std::move(f)); });
}

std::function<ApiRouterReply(const Request&, std::string_view)> leagueRoutes(club::LeagueReader& reader) {
    return [&reader](const Request& request, std::string_view path) -> ApiRouterReply {
        if (path.empty() || path == "/") return overviewRoute(reader, request);
        if (path == "/standings") return standingsRoute(reader, request);
        if (path == "/games") return gamesRoute(reader, request);
        if (path.starts_with("/games/")) return gameRoute(reader, request, path.substr(7));
        if (path.starts_with("/members/")) return memberRoute(reader, request, path.substr(9));
        return refused(request, http::status::not_found, "no-such-route",
                       "the league's API has no such address");
    };
}

}  // namespace vivaref::server
