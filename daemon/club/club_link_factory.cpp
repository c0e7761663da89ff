// The one place serve's link to the club is made (replaced at the merge
// with the club's PostgreSQL link, daemon/club/club_connection.hpp).
#include "daemon/club/club_link_factory.hpp"

namespace vivaref::club {

std::unique_ptr<ClubLink> makeClubLink(const std::string& conninfo, const std::string& table) {
    (void)conninfo;
    (void)table;
    // MERGE: PgClubLink — return std::make_unique<PgClubLink>(conninfo, table);
    throw ClubError("this build cannot reach a club yet", false);
}

}  // namespace vivaref::club
