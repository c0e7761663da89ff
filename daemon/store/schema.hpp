// The game log's SQL schema: a list of forward migrations, the database's
// version in `PRAGMA user_version`. Opening runs the migrations it lacks;
// a database from a newer vivaref is refused, never touched.
#pragma once

#include "daemon/store/sqlite.hpp"

namespace vivaref::store {

// The version this build writes: the number of migrations.
int schemaVersion();

// Brings `db` to schemaVersion() inside one transaction. Throws StoreError
// for a newer schema.
void migrate(Database& db);

}  // namespace vivaref::store
