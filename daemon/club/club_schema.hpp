// The club's PostgreSQL schema (all in the schema `club`): a list of
// forward migrations, the version in `club.schema_version`. The admin's
// `vivaref club create` runs the migrations the database lacks; a schema
// from a newer vivaref is refused, never touched. NOTES.md has the tables.
#pragma once

#include <pqxx/connection>

namespace vivaref::club {

// The version this build writes: the number of migrations.
int clubSchemaVersion();

// The database's version (0 when it has no club schema yet).
int installedClubSchemaVersion(pqxx::connection_base& conn);

// Brings the database to `target` (default: clubSchemaVersion()) in one
// transaction; returns the version it had. Throws ClubError (not transient)
// for a schema newer than this vivaref knows; pqxx errors otherwise.
int migrateClubSchema(pqxx::connection_base& conn, int target = -1);

}  // namespace vivaref::club
