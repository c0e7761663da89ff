// serve's link to its club's server, made anew at each connection.
#pragma once

#include <memory>
#include <string>

#include "daemon/club/club_link.hpp"

namespace vivaref::club {

// A link to the club at `conninfo` (a libpq connection string) as table
// `table`. Throws ClubError when it cannot be made.
std::unique_ptr<ClubLink> makeClubLink(const std::string& conninfo, const std::string& table);

// Whether the club's server at `conninfo` accepts connections now: libpq's
// PQping (no login, no password sent), the pusher's probe during a back-off.
bool clubServerAnswers(const std::string& conninfo);

}  // namespace vivaref::club
