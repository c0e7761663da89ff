// What the club's admin does on its server (`vivaref club`): make or
// migrate the schema and the roles, add a table (a login role that may only
// push its own games and read the members), add members. Roles are named
// after the database, as roles are shared by every database of a server:
// `<db>_league` (read only), `<db>_tables` (the tables' group),
// `<db>_table_<name>`. Every function throws ClubError.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <pqxx/connection>

#include "daemon/club/club_link.hpp"

namespace vivaref::club {

struct CreateReport {
    int versionBefore = 0;
    int versionAfter = 0;
    std::string leagueRole;
    std::optional<std::string> leaguePassword;  // only when the role was made now
};

// Migrates the schema (to `target`, default the newest) and makes the
// league and tables roles with their grants; running it again changes
// nothing but missing grants.
CreateReport createClub(pqxx::connection_base& admin, int target = -1);

struct NewTable {
    std::string name;
    std::string role;
    std::string password;  // shown once: only its hash is kept by the server
};

// A table named NAME ([a-z0-9][a-z0-9_-]{0,39}) with a fresh login role and
// a generated password. Refuses a name already taken.
NewTable addTable(pqxx::connection_base& admin, const std::string& name);

// Adds members by name (unique, case-insensitive); returns their ids.
std::vector<ClubMember> addMembers(pqxx::connection_base& admin, const std::vector<std::string>& names);

// The role names for this database.
std::string leagueRoleName(pqxx::connection_base& conn);
std::string tableRoleName(pqxx::connection_base& conn, const std::string& table);

// A random password of 24 letters and digits.
std::string generatePassword();

}  // namespace vivaref::club
