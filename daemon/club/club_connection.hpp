// The club's PostgreSQL through libpqxx: opening a connection that cannot
// hang (connect, statement and TCP timeouts added to the conninfo), the
// mapping of libpqxx's failures to ClubError, and PgClubLink, the table's
// ClubLink on a table role.
#pragma once

#include <memory>
#include <string>

#include <pqxx/connection>

#include "daemon/club/club_link.hpp"

namespace vivaref::club {

struct ClubTimeouts {
    int connectSeconds = 5;
    int statementMs = 15000;  // statement_timeout, and the TCP user timeout
};

// `conninfo` is a libpq conninfo ("host=... dbname=...") or a
// postgresql:// URI; empty: libpq's defaults and the PG* variables. The
// timeouts are added unless the conninfo sets them. Throws ClubError.
std::unique_ptr<pqxx::connection> openClubConnection(const std::string& conninfo, ClubTimeouts timeouts = {});

// The conninfo as openClubConnection passes it to libpq. Throws ClubError
// (not transient) for a conninfo libpq cannot parse.
std::string withTimeouts(const std::string& conninfo, ClubTimeouts timeouts);

// Runs `body`, turning libpqxx's exceptions into ClubError: a lost or
// refused connection, a timeout, a server shutting down are transient;
// permissions, unknown tables, bad games are not. `doing` starts the sentence;
// `server` (clubServerName), when given, is named when the connection was lost.
[[noreturn]] void rethrowAsClubError(const std::string& doing, const std::string& server = {});

// Where a conninfo points, for a sentence: host:port (or the socket's
// directory and port); never the user, the password or the database.
std::string clubServerName(const std::string& conninfo);

// The game's own `table` is what push_game is told (the link's `table`
// when it is empty); the server refuses it unless it is the role's table.
class PgClubLink : public ClubLink {
public:
    PgClubLink(std::string conninfo, std::string table, ClubTimeouts timeouts = {});
    ~PgClubLink() override;
    PushOutcome push(const GameUpload& game) override;
    std::vector<ClubMember> members() override;

private:
    pqxx::connection& connection();

    std::string conninfo_;
    std::string server_;  // clubServerName(conninfo_)
    std::string table_;
    ClubTimeouts timeouts_;
    std::unique_ptr<pqxx::connection> connection_;
};

}  // namespace vivaref::club
