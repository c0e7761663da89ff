// The one place serve's link to the club is made: the club's PostgreSQL
// through libpqxx (club_connection.hpp).
#include "daemon/club/club_link_factory.hpp"

#include <libpq-fe.h>

#include "daemon/club/club_connection.hpp"

namespace vivaref::club {

std::unique_ptr<ClubLink> makeClubLink(const std::string& conninfo, const std::string& table) {
    return std::make_unique<PgClubLink>(conninfo, table);
}

bool clubServerAnswers(const std::string& conninfo) {
    const std::string full = withTimeouts(conninfo, ClubTimeouts{3, 3000});
    return PQping(full.c_str()) == PQPING_OK;
}

}  // namespace vivaref::club
