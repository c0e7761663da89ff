#include "daemon/club/club_connection.hpp"

#include <map>

#include <libpq-fe.h>
#include <nlohmann/json.hpp>
#include <pqxx/pqxx>

namespace vivaref::club {

namespace {

std::string quoteValue(const std::string& v) {
    std::string out = "'";
    for (char c : v) {
        if (c == '\'' || c == '\\') out += '\\';
        out += c;
    }
    return out + "'";
}

std::string firstLine(std::string text) {
    while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
    if (auto nl = text.find('\n'); nl != std::string::npos) text.resize(nl);
    return text;
}

bool contains(const std::string& text, const char* part) { return text.find(part) != std::string::npos; }

// A connection that failed for a reason retrying will not mend.
bool refusedForGood(const std::string& why) {
    return contains(why, "authentication failed") || contains(why, "does not exist") ||
           contains(why, "no pg_hba.conf entry") || contains(why, "permission denied") ||
           contains(why, "invalid connection option") || contains(why, "certificate") ||
           contains(why, "password is") || contains(why, "invalid sslmode") ||
           contains(why, "pg_hba.conf rejects") || contains(why, "does not support SSL");
}

// libpq tries each address of a name in turn (localhost: ::1, then
// 127.0.0.1) and says why each failed, a line or two apiece: the last
// attempt's line is the one that got furthest (e.g. TLS after a refused ::1).
std::string lastAttempt(const std::string& text) {
    const std::string marker = "connection to server";
    auto at = text.rfind("\n" + marker);
    return firstLine(at == std::string::npos ? text : text.substr(at + 1));
}

// What a host does about a TLS failure, after libpq's own words.
std::string tlsAdvice(const std::string& why) {
    if (contains(why, "certificate verify failed"))
        return "; the server's certificate is not signed by the CA in sslrootcert (copy the club's CA there)";
    if (contains(why, "does not match host name"))
        return "; the server's certificate is for another name: give server = the name it was made for";
    if (contains(why, "no encryption"))
        return "; the club's server takes tables only over TLS: set sslmode = verify-full and sslrootcert";
    return "";
}

std::string serverSentence(std::string why) {
    why = firstLine(why);
    if (auto p = why.find("ERROR:"); p != std::string::npos) why = why.substr(p + 6);
    while (!why.empty() && why.front() == ' ') why.erase(0, 1);
    return why;
}

bool transientState(const std::string& state) {
    // 08: connection; 57P0x: shutdown; 57014: statement timeout; 40: retry
    // the transaction; 53: out of resources; 55P03: lock timeout.
    return state.rfind("08", 0) == 0 || state.rfind("57P", 0) == 0 || state == "57014" ||
           state.rfind("40", 0) == 0 || state.rfind("53", 0) == 0 || state == "55P03";
}

}  // namespace

std::string withTimeouts(const std::string& conninfo, ClubTimeouts timeouts) {
    char* error = nullptr;
    PQconninfoOption* options = PQconninfoParse(conninfo.c_str(), &error);
    if (!options) {
        std::string why = error ? firstLine(error) : "out of memory";
        if (error) PQfreemem(error);
        throw ClubError("bad connection string for the club: " + why, false);
    }
    std::map<std::string, std::string> given;
    for (auto* o = options; o->keyword; ++o)
        if (o->val && *o->val) given[o->keyword] = o->val;
    PQconninfoFree(options);
    given.try_emplace("connect_timeout", std::to_string(timeouts.connectSeconds));
    given.try_emplace("tcp_user_timeout", std::to_string(timeouts.statementMs));
    given.try_emplace("keepalives_idle", "10");
    given.try_emplace("keepalives_interval", "5");
    given.try_emplace("keepalives_count", "3");
    given.try_emplace("application_name", "vivaref");
    const std::string statement = "-c statement_timeout=" + std::to_string(timeouts.statementMs);
    if (auto it = given.find("options"); it == given.end())
        given["options"] = statement;
    else if (!contains(it->second, "statement_timeout"))
        it->second += " " + statement;
    std::string out;
    for (const auto& [key, value] : given) out += (out.empty() ? "" : " ") + key + "=" + quoteValue(value);
    return out;
}

std::unique_ptr<pqxx::connection> openClubConnection(const std::string& conninfo, ClubTimeouts timeouts) {
    const std::string full = withTimeouts(conninfo, timeouts);
    try {
        return std::make_unique<pqxx::connection>(full);
    } catch (const pqxx::broken_connection& e) {
        // Refused for good when any address refused this table (the others
        // being merely unreachable).
        const std::string why = lastAttempt(e.what());
        throw ClubError("cannot connect to the club's server: " + why + tlsAdvice(why),
                        !refusedForGood(e.what()));
    } catch (const std::exception& e) {
        const std::string why = lastAttempt(e.what());
        throw ClubError("cannot connect to the club's server: " + why + tlsAdvice(why), false);
    }
}

std::string clubServerName(const std::string& conninfo) {
    PQconninfoOption* options = PQconninfoParse(conninfo.c_str(), nullptr);
    if (!options) return "";
    std::string host;
    std::string port;
    for (auto* o = options; o->keyword; ++o) {
        if (!o->val || !*o->val) continue;
        const std::string key = o->keyword;
        if (key == "host" || (key == "hostaddr" && host.empty())) host = o->val;
        if (key == "port") port = o->val;
    }
    PQconninfoFree(options);
    if (host.empty()) host = "localhost";
    return port.empty() ? host : host + ":" + port;
}

void rethrowAsClubError(const std::string& doing, const std::string& server) {
    try {
        throw;
    } catch (const ClubError&) {
        throw;
    } catch (const pqxx::broken_connection& e) {
        // libpqxx 6.4 says "Could not obtain client encoding" when the
        // server went away under an idle connection: the first refusal of
        // an outage, which names the server instead.
        const std::string why = firstLine(e.what());
        const std::string lost = contains(why, "client encoding") ? "" : ": " + why;
        const std::string who = server.empty() ? "the club's server" : "the club's server " + server;
        throw ClubError(doing + ": " + who + " does not answer (the connection was lost" + lost + ")", true);
    } catch (const pqxx::in_doubt_error& e) {
        throw ClubError(doing + ": the connection was lost during the commit (" + firstLine(e.what()) + ")",
                        true);
    } catch (const pqxx::transaction_rollback& e) {
        throw ClubError(doing + ": " + serverSentence(e.what()), true);
    } catch (const pqxx::insufficient_resources& e) {
        throw ClubError(doing + ": " + serverSentence(e.what()), true);
    } catch (const pqxx::sql_error& e) {
        // libpqxx 6.4 leaves sqlstate() empty in its subclasses (permission,
        // constraint, data, PL/pgSQL errors): those are refusals.
        throw ClubError(doing + ": " + serverSentence(e.what()), transientState(e.sqlstate()));
    } catch (const pqxx::failure& e) {
        throw ClubError(doing + ": " + firstLine(e.what()), true);
    } catch (const std::exception& e) {
        throw ClubError(doing + ": " + firstLine(e.what()), false);
    }
}

PgClubLink::PgClubLink(std::string conninfo, std::string table, ClubTimeouts timeouts)
    : conninfo_(std::move(conninfo)),
      server_(clubServerName(conninfo_)),
      table_(std::move(table)),
      timeouts_(timeouts) {}

PgClubLink::~PgClubLink() = default;

pqxx::connection& PgClubLink::connection() {
    if (connection_ && !connection_->is_open()) connection_.reset();
    if (!connection_) connection_ = openClubConnection(conninfo_, timeouts_);
    return *connection_;
}

PushOutcome PgClubLink::push(const GameUpload& game) {
    nlohmann::json players = nlohmann::json::array();
    for (const auto& s : game.seats) {
        nlohmann::json p = {
            {"seat", s.seat}, {"player", s.player}, {"name", s.name}, {"bot", s.bot}, {"winner", s.winner}};
        p["member"] = s.member ? nlohmann::json(*s.member) : nlohmann::json(nullptr);
        p["score"] = s.score ? nlohmann::json(*s.score) : nlohmann::json(nullptr);
        players.push_back(std::move(p));
    }
    const std::string table = game.table.empty() ? table_ : game.table;
    try {
        auto& conn = connection();
        pqxx::work tx(conn);
        const bool inserted =
            tx.exec_params1(
                  "SELECT club.push_game($1, $2, $3, $4, $5, $6, $7, $8, $9, NULLIF($10, '')::jsonb, "
                  "$11::jsonb)",
                  game.uid, table, game.localId, game.startedMs, game.endedMs, game.edition, game.complete,
                  game.abandoned, game.record, game.result, players.dump())[0]
                .as<bool>();
        tx.commit();
        return inserted ? PushOutcome::Inserted : PushOutcome::AlreadyThere;
    } catch (...) {
        connection_.reset();  // the next push starts on a fresh connection
        rethrowAsClubError("pushing game " + game.uid + " of table " + table, server_);
    }
}

std::vector<ClubMember> PgClubLink::members() {
    try {
        auto& conn = connection();
        pqxx::read_transaction tx(conn);
        std::vector<ClubMember> out;
        for (const auto& row : tx.exec("SELECT id, name FROM club.members WHERE active ORDER BY lower(name)"))
            out.push_back(ClubMember{row[0].as<std::int64_t>(), row[1].as<std::string>()});
        return out;
    } catch (...) {
        connection_.reset();
        rethrowAsClubError("reading the club's members", server_);
    }
}

}  // namespace vivaref::club
