// Every table of the game log, as migrations. Never edit a migration that
// has shipped: add the next one. Games, their events and traces are kept
// forever; only raw_scans is trimmed (ReaderLog::kRawScansKept).
#include "daemon/store/schema.hpp"

#include <array>
#include <string>

#include "daemon/store/store_error.hpp"

namespace vivaref::store {

namespace {

constexpr std::array<const char*, 3> kMigrations = {
    // 1: the first schema.
    R"sql(
CREATE TABLE games (
    id          INTEGER PRIMARY KEY,
    started_ms  INTEGER NOT NULL,          -- wall clock, ms since the epoch
    ended_ms    INTEGER,                   -- set when the game ends or is abandoned
    edition     TEXT NOT NULL,             -- classic, online, 2024
    setup       TEXT NOT NULL,             -- the GAME-RECORD setup line
    seed        INTEGER,                   -- the referee's generator seed, if it dealt
    result      TEXT,                      -- GAME-RECORD result object, once finished
    complete    INTEGER NOT NULL DEFAULT 0,
    abandoned   INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE players (
    game_id     INTEGER NOT NULL REFERENCES games(id),
    player      INTEGER NOT NULL,
    seat        INTEGER NOT NULL,
    name        TEXT NOT NULL,
    PRIMARY KEY (game_id, player)
) WITHOUT ROWID;
-- Every event of a game in order: the GAME-RECORD decision lines (setup,
-- deal, keep, place, move, vote, pass, reshuffle) and the referee's own
-- (undo, pause, resume, abandon, ...). An undo is an event: nothing is deleted.
CREATE TABLE events (
    game_id     INTEGER NOT NULL REFERENCES games(id),
    seq         INTEGER NOT NULL,
    at_ms       INTEGER NOT NULL,
    round       INTEGER NOT NULL,
    seat        INTEGER,
    kind        TEXT NOT NULL,
    payload     TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;
-- The referee trace (REFEREE-TRACE lines) of every game.
CREATE TABLE trace (
    game_id     INTEGER NOT NULL REFERENCES games(id),
    seq         INTEGER NOT NULL,
    t_ms        INTEGER NOT NULL,
    line        TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;
CREATE TABLE reader_health (
    reader      TEXT PRIMARY KEY,
    scans       INTEGER NOT NULL DEFAULT 0,
    faults      INTEGER NOT NULL DEFAULT 0,
    last_fault_ms INTEGER,
    last_fault  TEXT
);
-- Raw scans, for debugging a reader: bounded retention.
CREATE TABLE raw_scans (
    id          INTEGER PRIMARY KEY,
    at_ms       INTEGER NOT NULL,
    reader      TEXT NOT NULL,
    tags        TEXT NOT NULL
);
)sql",
    // 2: the analysis of a finished game (`vivaref analyse`, serve's
    // background analysis): one per game, as the JSON `analyse --json`
    // prints, with the settings it was made with. Made again, it replaces
    // the row.
    R"sql(
CREATE TABLE analyses (
    game_id     INTEGER PRIMARY KEY REFERENCES games(id),
    made_ms     INTEGER NOT NULL,          -- wall clock, ms since the epoch
    settings    TEXT NOT NULL,             -- {"rollouts", "iterations", "seed", "worth_telling"}
    result      TEXT NOT NULL              -- the analysis, a JSON object
);
)sql",
    // 3: the club (daemon/store/NOTES.md, "The club's outbox"). Every game
    // gets a uid unique across tables (128 random bits); a seat may be a
    // club member; a table with a club queues each ended game in
    // club_outbox in the transaction that ends it; the club's members are
    // cached for when the club cannot be reached.
    R"sql(
ALTER TABLE games ADD COLUMN uid TEXT;
UPDATE games SET uid = lower(hex(randomblob(16))) WHERE uid IS NULL;
CREATE UNIQUE INDEX games_uid ON games(uid);
ALTER TABLE players ADD COLUMN member INTEGER;  -- the club member seated there; NULL: a guest or a bot
CREATE TABLE club_outbox (
    game_id         INTEGER PRIMARY KEY REFERENCES games(id),
    queued_ms       INTEGER NOT NULL,      -- when the game ended
    attempts        INTEGER NOT NULL DEFAULT 0,
    last_attempt_ms INTEGER,
    last_error      TEXT,                  -- the last failure in words; NULL once pushed
    permanent       INTEGER NOT NULL DEFAULT 0,  -- the club refused it: retried much later
    pushed_ms       INTEGER                -- set once the club has it
);
CREATE TABLE club_members (
    id          INTEGER PRIMARY KEY,       -- the club's member id
    name        TEXT NOT NULL,
    fetched_ms  INTEGER NOT NULL
);
)sql",
};

}  // namespace

int schemaVersion() { return static_cast<int>(kMigrations.size()); }

void migrate(Database& db) {
    Transaction tx(db);
    const auto version = static_cast<int>(db.queryInteger("PRAGMA user_version"));
    if (version > schemaVersion())
        throw StoreError(db.file(), "was written by a newer vivaref (schema " + std::to_string(version) +
                                        ", this one knows up to " + std::to_string(schemaVersion()) +
                                        "); upgrade vivaref, or pass --db with another file");
    for (int v = version; v < schemaVersion(); ++v) db.exec(kMigrations[static_cast<std::size_t>(v)]);
    if (version != schemaVersion()) db.exec("PRAGMA user_version = " + std::to_string(schemaVersion()));
    tx.commit();
}

}  // namespace vivaref::store
