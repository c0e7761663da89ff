// Every table of the club, as migrations. Never edit a migration that has
// shipped: add the next one. Table roles reach the data only through
// club.push_game (SECURITY DEFINER) and read club.members; the grants are
// made by club_admin.cpp, as the roles are named after the database.
#include "daemon/club/club_schema.hpp"

#include <array>
#include <string>

#include <pqxx/pqxx>

#include "daemon/club/club_link.hpp"

namespace vivaref::club {

namespace {

constexpr std::array<const char*, 5> kMigrations = {
    // 1: tables, members, games and their players; push_game lands a game.
    R"sql(
CREATE TABLE club.club_tables (
    id          bigserial PRIMARY KEY,
    name        text NOT NULL UNIQUE CHECK (name ~ '^[a-z0-9][a-z0-9_-]{0,39}$'),
    role        name NOT NULL UNIQUE,          -- the table's login role
    added_at    timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE club.members (
    id          bigserial PRIMARY KEY,
    name        text NOT NULL CHECK (length(name) BETWEEN 1 AND 40),
    added_at    timestamptz NOT NULL DEFAULT now(),
    active      boolean NOT NULL DEFAULT true
);
CREATE UNIQUE INDEX members_name_key ON club.members (lower(name));
-- Every pushed game, finished or abandoned, with its GAME-RECORD text.
CREATE TABLE club.games (
    uid         text PRIMARY KEY CHECK (uid ~ '^[0-9a-f]{32}$'),
    table_id    bigint NOT NULL REFERENCES club.club_tables(id),
    local_id    bigint NOT NULL,               -- its id in the table's own log
    started_at  timestamptz NOT NULL,
    ended_at    timestamptz,
    edition     text NOT NULL,
    seats       integer NOT NULL,
    complete    boolean NOT NULL,
    abandoned   boolean NOT NULL,
    record      text NOT NULL,
    result      jsonb,                         -- GAME-RECORD result; null when abandoned
    pushed_seq  bigserial NOT NULL UNIQUE,     -- arrival order
    pushed_at   timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE club.game_players (
    game_uid    text NOT NULL REFERENCES club.games(uid),
    player      integer NOT NULL,
    seat        integer NOT NULL,
    name        text NOT NULL,
    member_id   bigint REFERENCES club.members(id),   -- null: a guest or a bot
    bot         boolean NOT NULL,
    score       integer,
    winner      boolean NOT NULL,
    PRIMARY KEY (game_uid, player)
);
CREATE FUNCTION club.push_game(p_uid text, p_table text, p_local_id bigint, p_started_ms bigint,
                               p_ended_ms bigint, p_edition text, p_complete boolean, p_abandoned boolean,
                               p_record text, p_result jsonb, p_players jsonb)
RETURNS boolean LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    t_id bigint;
    t_role name;
    other bigint;
    n integer;
BEGIN
    SELECT id, role INTO t_id, t_role FROM club.club_tables WHERE name = p_table;
    IF t_id IS NULL THEN
        RAISE EXCEPTION 'the club has no table named "%"', p_table USING ERRCODE = 'P0002';
    END IF;
    IF t_role <> session_user THEN
        RAISE EXCEPTION 'the role "%" may not push the games of table "%"', session_user, p_table
            USING ERRCODE = '42501';
    END IF;
    IF p_uid IS NULL OR p_uid !~ '^[0-9a-f]{32}$' THEN
        RAISE EXCEPTION 'bad game: its uid "%" is not 32 lowercase hex digits', p_uid USING ERRCODE = '22023';
    END IF;
    IF jsonb_typeof(p_players) IS DISTINCT FROM 'array' THEN
        RAISE EXCEPTION 'bad game %: its players are not a list', p_uid USING ERRCODE = '22023';
    END IF;
    INSERT INTO club.games (uid, table_id, local_id, started_at, ended_at, edition, seats, complete,
                            abandoned, record, result)
    VALUES (p_uid, t_id, p_local_id, to_timestamp(p_started_ms / 1000.0),
            to_timestamp(NULLIF(p_ended_ms, 0) / 1000.0), p_edition,
            (SELECT count(DISTINCT e->>'seat') FROM jsonb_array_elements(p_players) e),
            p_complete, p_abandoned, p_record, p_result)
    ON CONFLICT (uid) DO NOTHING;
    GET DIAGNOSTICS n = ROW_COUNT;
    IF n = 0 THEN
        SELECT table_id INTO other FROM club.games WHERE uid = p_uid;
        IF other <> t_id THEN
            RAISE EXCEPTION 'bad game: uid % is already in the league from another table', p_uid
                USING ERRCODE = '23505';
        END IF;
        RETURN false;
    END IF;
    INSERT INTO club.game_players (game_uid, player, seat, name, member_id, bot, score, winner)
    SELECT p_uid, (e->>'player')::integer, (e->>'seat')::integer, e->>'name', (e->>'member')::bigint,
           COALESCE((e->>'bot')::boolean, false), (e->>'score')::integer, COALESCE((e->>'winner')::boolean, false)
    FROM jsonb_array_elements(p_players) e;
    RETURN true;
END
$$;
REVOKE ALL ON FUNCTION club.push_game(text, text, bigint, bigint, bigint, text, boolean, boolean, text, jsonb, jsonb)
    FROM PUBLIC;
)sql",
    // 2: the standings, kept by push_game in the game's own transaction
    // (club.count_game adds one game's counters; rating.hpp is the same
    // formula in C++), filled from the games already there; indexes for
    // the standings' filters and a member's history.
    R"sql(
CREATE TABLE club.standings (
    edition         text NOT NULL,
    member_id       bigint NOT NULL REFERENCES club.members(id),
    games           bigint NOT NULL,
    wins            bigint NOT NULL,
    points          bigint NOT NULL,
    pairwise_wins   bigint NOT NULL,
    pairwise_losses bigint NOT NULL,
    pairwise_draws  bigint NOT NULL,
    PRIMARY KEY (edition, member_id)
);
CREATE FUNCTION club.count_game(p_uid text) RETURNS void LANGUAGE sql
SET search_path = pg_catalog, pg_temp AS $$
    INSERT INTO club.standings AS s (edition, member_id, games, wins, points, pairwise_wins,
                                     pairwise_losses, pairwise_draws)
    SELECT g.edition, p.member_id, 1, CASE WHEN p.winner THEN 1 ELSE 0 END, p.score, x.w, x.l, x.d
    FROM club.games g
    JOIN club.game_players p ON p.game_uid = g.uid
    CROSS JOIN LATERAL (
        SELECT count(DISTINCT o.seat) FILTER (WHERE o.score < p.score) AS w,
               count(DISTINCT o.seat) FILTER (WHERE o.score > p.score) AS l,
               count(DISTINCT o.seat) FILTER (WHERE o.score = p.score) AS d
        FROM club.game_players o
        WHERE o.game_uid = p.game_uid AND o.seat <> p.seat AND o.score IS NOT NULL) x
    WHERE g.uid = p_uid AND g.complete AND NOT g.abandoned
      AND p.member_id IS NOT NULL AND NOT p.bot AND p.score IS NOT NULL
    ON CONFLICT (edition, member_id) DO UPDATE SET
        games = s.games + EXCLUDED.games,
        wins = s.wins + EXCLUDED.wins,
        points = s.points + EXCLUDED.points,
        pairwise_wins = s.pairwise_wins + EXCLUDED.pairwise_wins,
        pairwise_losses = s.pairwise_losses + EXCLUDED.pairwise_losses,
        pairwise_draws = s.pairwise_draws + EXCLUDED.pairwise_draws;
$$;
REVOKE ALL ON FUNCTION club.count_game(text) FROM PUBLIC;
-- The same rating as rating.cpp: 1500 + 400 log10((W + D/2 + 1) / (L + D/2 + 1)).
CREATE VIEW club.standings_rated AS
SELECT s.edition, s.member_id, m.name, s.games, s.wins, s.points, s.pairwise_wins, s.pairwise_losses,
       s.pairwise_draws,
       1500 + 400 * log((s.pairwise_wins + s.pairwise_draws / 2.0 + 1)::double precision
                        / (s.pairwise_losses + s.pairwise_draws / 2.0 + 1)::double precision) AS rating
FROM club.standings s JOIN club.members m ON m.id = s.member_id;
CREATE INDEX game_players_member ON club.game_players (member_id, game_uid);
CREATE INDEX games_table_ended ON club.games (table_id, ended_at);
CREATE INDEX games_edition_ended ON club.games (edition, ended_at);
SELECT club.count_game(uid) FROM club.games ORDER BY pushed_seq;
CREATE OR REPLACE FUNCTION club.push_game(p_uid text, p_table text, p_local_id bigint, p_started_ms bigint,
                               p_ended_ms bigint, p_edition text, p_complete boolean, p_abandoned boolean,
                               p_record text, p_result jsonb, p_players jsonb)
RETURNS boolean LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    t_id bigint;
    t_role name;
    other bigint;
    n integer;
BEGIN
    SELECT id, role INTO t_id, t_role FROM club.club_tables WHERE name = p_table;
    IF t_id IS NULL THEN
        RAISE EXCEPTION 'the club has no table named "%"', p_table USING ERRCODE = 'P0002';
    END IF;
    IF t_role <> session_user THEN
        RAISE EXCEPTION 'the role "%" may not push the games of table "%"', session_user, p_table
            USING ERRCODE = '42501';
    END IF;
    IF p_uid IS NULL OR p_uid !~ '^[0-9a-f]{32}$' THEN
        RAISE EXCEPTION 'bad game: its uid "%" is not 32 lowercase hex digits', p_uid USING ERRCODE = '22023';
    END IF;
    IF jsonb_typeof(p_players) IS DISTINCT FROM 'array' THEN
        RAISE EXCEPTION 'bad game %: its players are not a list', p_uid USING ERRCODE = '22023';
    END IF;
    IF (SELECT count(*) <> count(DISTINCT e->>'member') FROM jsonb_array_elements(p_players) e
        WHERE jsonb_typeof(e->'member') = 'number') THEN
        RAISE EXCEPTION 'bad game %: a member sits in it twice', p_uid USING ERRCODE = '22023';
    END IF;
    INSERT INTO club.games (uid, table_id, local_id, started_at, ended_at, edition, seats, complete,
                            abandoned, record, result)
    VALUES (p_uid, t_id, p_local_id, to_timestamp(p_started_ms / 1000.0),
            to_timestamp(NULLIF(p_ended_ms, 0) / 1000.0), p_edition,
            (SELECT count(DISTINCT e->>'seat') FROM jsonb_array_elements(p_players) e),
            p_complete, p_abandoned, p_record, p_result)
    ON CONFLICT (uid) DO NOTHING;
    GET DIAGNOSTICS n = ROW_COUNT;
    IF n = 0 THEN
        SELECT table_id INTO other FROM club.games WHERE uid = p_uid;
        IF other <> t_id THEN
            RAISE EXCEPTION 'bad game: uid % is already in the league from another table', p_uid
                USING ERRCODE = '23505';
        END IF;
        RETURN false;
    END IF;
    INSERT INTO club.game_players (game_uid, player, seat, name, member_id, bot, score, winner)
    SELECT p_uid, (e->>'player')::integer, (e->>'seat')::integer, e->>'name', (e->>'member')::bigint,
           COALESCE((e->>'bot')::boolean, false), (e->>'score')::integer, COALESCE((e->>'winner')::boolean, false)
    FROM jsonb_array_elements(p_players) e;
    PERFORM club.count_game(p_uid);
    RETURN true;
END
$$;
)sql",
    // 3: each counted member's counters for each game, kept by count_game
    // beside the standings and filled from the games already there, so the
    // standings of a table or a period are sums in the server (under 50 ms
    // at 200,000 games; NOTES.md, "Scale") rather than every player of every
    // game sent to the league and counted again.
    R"sql(
CREATE TABLE club.member_results (
    game_uid        text NOT NULL REFERENCES club.games(uid),
    member_id       bigint NOT NULL REFERENCES club.members(id),
    edition         text NOT NULL,
    table_id        bigint NOT NULL REFERENCES club.club_tables(id),
    ended_at        timestamptz,
    won             integer NOT NULL,
    points          integer NOT NULL,
    pairwise_wins   integer NOT NULL,
    pairwise_losses integer NOT NULL,
    pairwise_draws  integer NOT NULL,
    PRIMARY KEY (game_uid, member_id)
);
CREATE OR REPLACE FUNCTION club.count_game(p_uid text) RETURNS void LANGUAGE sql
SET search_path = pg_catalog, pg_temp AS $$
    WITH r AS (
        INSERT INTO club.member_results (game_uid, member_id, edition, table_id, ended_at, won, points,
                                         pairwise_wins, pairwise_losses, pairwise_draws)
        SELECT g.uid, p.member_id, g.edition, g.table_id, g.ended_at, CASE WHEN p.winner THEN 1 ELSE 0 END,
               p.score, x.w, x.l, x.d
        FROM club.games g
        JOIN club.game_players p ON p.game_uid = g.uid
        CROSS JOIN LATERAL (
            SELECT count(DISTINCT o.seat) FILTER (WHERE o.score < p.score) AS w,
                   count(DISTINCT o.seat) FILTER (WHERE o.score > p.score) AS l,
                   count(DISTINCT o.seat) FILTER (WHERE o.score = p.score) AS d
            FROM club.game_players o
            WHERE o.game_uid = p.game_uid AND o.seat <> p.seat AND o.score IS NOT NULL) x
        WHERE g.uid = p_uid AND g.complete AND NOT g.abandoned
          AND p.member_id IS NOT NULL AND NOT p.bot AND p.score IS NOT NULL
        RETURNING *)
    INSERT INTO club.standings AS s (edition, member_id, games, wins, points, pairwise_wins,
                                     pairwise_losses, pairwise_draws)
    SELECT edition, member_id, 1, won, points, pairwise_wins, pairwise_losses, pairwise_draws FROM r
    ON CONFLICT (edition, member_id) DO UPDATE SET
        games = s.games + EXCLUDED.games,
        wins = s.wins + EXCLUDED.wins,
        points = s.points + EXCLUDED.points,
        pairwise_wins = s.pairwise_wins + EXCLUDED.pairwise_wins,
        pairwise_losses = s.pairwise_losses + EXCLUDED.pairwise_losses,
        pairwise_draws = s.pairwise_draws + EXCLUDED.pairwise_draws;
$$;
REVOKE ALL ON FUNCTION club.count_game(text) FROM PUBLIC;
-- The games already there: their counters are in the standings already.
INSERT INTO club.member_results (game_uid, member_id, edition, table_id, ended_at, won, points,
                                 pairwise_wins, pairwise_losses, pairwise_draws)
SELECT g.uid, p.member_id, g.edition, g.table_id, g.ended_at, CASE WHEN p.winner THEN 1 ELSE 0 END,
       p.score, x.w, x.l, x.d
FROM club.games g
JOIN club.game_players p ON p.game_uid = g.uid
CROSS JOIN LATERAL (
    SELECT count(DISTINCT o.seat) FILTER (WHERE o.score < p.score) AS w,
           count(DISTINCT o.seat) FILTER (WHERE o.score > p.score) AS l,
           count(DISTINCT o.seat) FILTER (WHERE o.score = p.score) AS d
    FROM club.game_players o
    WHERE o.game_uid = p.game_uid AND o.seat <> p.seat AND o.score IS NOT NULL) x
WHERE g.complete AND NOT g.abandoned AND p.member_id IS NOT NULL AND NOT p.bot AND p.score IS NOT NULL;
CREATE INDEX member_results_ended ON club.member_results (ended_at);
CREATE INDEX member_results_table_ended ON club.member_results (table_id, ended_at);
)sql",
    // 4: the two reads of the league's page that grew with the club (NOTES.md,
    // "Scale"). A period's standings of one edition read only the index, which
    // carries the counters (an index-only scan of the period's rows, once
    // vacuum has marked the pages all-visible, as autovacuum does for an
    // insert-only table). The overview's games per edition are kept by a
    // trigger instead of counting every game at each page load.
    R"sql(
CREATE INDEX member_results_edition_ended ON club.member_results (edition, ended_at)
    INCLUDE (member_id, won, points, pairwise_wins, pairwise_losses, pairwise_draws);
CREATE TABLE club.edition_counts (
    edition text PRIMARY KEY,
    games   bigint NOT NULL,
    counted bigint NOT NULL
);
CREATE FUNCTION club.count_edition() RETURNS trigger LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp AS $$
BEGIN
    INSERT INTO club.edition_counts AS c (edition, games, counted)
    VALUES (NEW.edition, 1, CASE WHEN NEW.complete AND NOT NEW.abandoned THEN 1 ELSE 0 END)
    ON CONFLICT (edition) DO UPDATE SET games = c.games + 1, counted = c.counted + EXCLUDED.counted;
    RETURN NULL;
END
$$;
REVOKE ALL ON FUNCTION club.count_edition() FROM PUBLIC;
CREATE TRIGGER games_count_edition AFTER INSERT ON club.games FOR EACH ROW EXECUTE FUNCTION club.count_edition();
INSERT INTO club.edition_counts (edition, games, counted)
SELECT edition, count(*), count(*) FILTER (WHERE complete AND NOT abandoned) FROM club.games GROUP BY edition;
)sql",
    // 5: a game counts only once its record, replayed with the engine by
    // the admin's vivaref (`vivaref club`, game_check.hpp), gives the scores
    // and winners its table pushed: push_game keeps the game, unjudged, and
    // counts nothing; club.judge_game(uid, ok, note) records the verdict
    // once and counts a verified game. The games already there are judged
    // again like new ones: the standings, member_results and the counted
    // games start from nothing and refill as `vivaref club migrate` judges.
    R"sql(
ALTER TABLE club.games ADD COLUMN verdict text CHECK (verdict IN ('verified', 'mismatch')),
                       ADD COLUMN verdict_note text,
                       ADD COLUMN judged_at timestamptz;
CREATE INDEX games_unjudged ON club.games (pushed_seq) WHERE verdict IS NULL;
TRUNCATE club.member_results, club.standings;
UPDATE club.edition_counts SET counted = 0;
CREATE OR REPLACE FUNCTION club.count_edition() RETURNS trigger LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp AS $$
BEGIN
    INSERT INTO club.edition_counts AS c (edition, games, counted) VALUES (NEW.edition, 1, 0)
    ON CONFLICT (edition) DO UPDATE SET games = c.games + 1;
    RETURN NULL;
END
$$;
CREATE OR REPLACE FUNCTION club.push_game(p_uid text, p_table text, p_local_id bigint, p_started_ms bigint,
                               p_ended_ms bigint, p_edition text, p_complete boolean, p_abandoned boolean,
                               p_record text, p_result jsonb, p_players jsonb)
RETURNS boolean LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    t_id bigint;
    t_role name;
    other bigint;
    n integer;
BEGIN
    SELECT id, role INTO t_id, t_role FROM club.club_tables WHERE name = p_table;
    IF t_id IS NULL THEN
        RAISE EXCEPTION 'the club has no table named "%"', p_table USING ERRCODE = 'P0002';
    END IF;
    IF t_role <> session_user THEN
        RAISE EXCEPTION 'the role "%" may not push the games of table "%"', session_user, p_table
            USING ERRCODE = '42501';
    END IF;
    IF p_uid IS NULL OR p_uid !~ '^[0-9a-f]{32}$' THEN
        RAISE EXCEPTION 'bad game: its uid "%" is not 32 lowercase hex digits', p_uid USING ERRCODE = '22023';
    END IF;
    IF jsonb_typeof(p_players) IS DISTINCT FROM 'array' THEN
        RAISE EXCEPTION 'bad game %: its players are not a list', p_uid USING ERRCODE = '22023';
    END IF;
    IF (SELECT count(*) <> count(DISTINCT e->>'member') FROM jsonb_array_elements(p_players) e
        WHERE jsonb_typeof(e->'member') = 'number') THEN
        RAISE EXCEPTION 'bad game %: a member sits in it twice', p_uid USING ERRCODE = '22023';
    END IF;
    INSERT INTO club.games (uid, table_id, local_id, started_at, ended_at, edition, seats, complete,
                            abandoned, record, result)
    VALUES (p_uid, t_id, p_local_id, to_timestamp(p_started_ms / 1000.0),
            to_timestamp(NULLIF(p_ended_ms, 0) / 1000.0), p_edition,
            (SELECT count(DISTINCT e->>'seat') FROM jsonb_array_elements(p_players) e),
            p_complete, p_abandoned, p_record, p_result)
    ON CONFLICT (uid) DO NOTHING;
    GET DIAGNOSTICS n = ROW_COUNT;
    IF n = 0 THEN
        SELECT table_id INTO other FROM club.games WHERE uid = p_uid;
        IF other <> t_id THEN
            RAISE EXCEPTION 'bad game: uid % is already in the league from another table', p_uid
                USING ERRCODE = '23505';
        END IF;
        RETURN false;
    END IF;
    INSERT INTO club.game_players (game_uid, player, seat, name, member_id, bot, score, winner)
    SELECT p_uid, (e->>'player')::integer, (e->>'seat')::integer, e->>'name', (e->>'member')::bigint,
           COALESCE((e->>'bot')::boolean, false), (e->>'score')::integer, COALESCE((e->>'winner')::boolean, false)
    FROM jsonb_array_elements(p_players) e;
    RETURN true;
END
$$;
CREATE FUNCTION club.judge_game(p_uid text, p_ok boolean, p_note text) RETURNS boolean LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    g record;
BEGIN
    UPDATE club.games SET verdict = CASE WHEN p_ok THEN 'verified' ELSE 'mismatch' END,
                          verdict_note = p_note, judged_at = now()
    WHERE uid = p_uid AND verdict IS NULL
    RETURNING edition, complete, abandoned INTO g;
    IF NOT FOUND THEN
        RETURN false;
    END IF;
    IF p_ok THEN
        PERFORM club.count_game(p_uid);
        IF g.complete AND NOT g.abandoned THEN
            UPDATE club.edition_counts SET counted = counted + 1 WHERE edition = g.edition;
        END IF;
    END IF;
    RETURN true;
END
$$;
REVOKE ALL ON FUNCTION club.judge_game(text, boolean, text) FROM PUBLIC;
)sql",
};

int readVersion(pqxx::transaction_base& tx) {
    const auto exists = tx.exec1("SELECT to_regclass('club.schema_version') IS NOT NULL")[0].as<bool>();
    if (!exists) return 0;
    const auto r = tx.exec("SELECT version FROM club.schema_version");
    return r.empty() ? 0 : r[0][0].as<int>();
}

}  // namespace

int clubSchemaVersion() { return static_cast<int>(kMigrations.size()); }

int installedClubSchemaVersion(pqxx::connection_base& conn) {
    pqxx::read_transaction tx(conn);
    return readVersion(tx);
}

int migrateClubSchema(pqxx::connection_base& conn, int target) {
    if (target < 0 || target > clubSchemaVersion()) target = clubSchemaVersion();
    pqxx::work tx(conn);
    // One migrating admin at a time; a second waits, then finds nothing to do.
    tx.exec("SELECT pg_advisory_xact_lock(7616052)");
    const int version = readVersion(tx);
    if (version > clubSchemaVersion())
        throw ClubError("the club's schema was made by a newer vivaref (schema " + std::to_string(version) +
                            ", this one knows up to " + std::to_string(clubSchemaVersion()) +
                            "); upgrade vivaref",
                        false);
    if (version >= target) return version;
    tx.exec0("CREATE SCHEMA IF NOT EXISTS club");
    tx.exec0("REVOKE ALL ON SCHEMA club FROM PUBLIC");
    tx.exec0("CREATE TABLE IF NOT EXISTS club.schema_version (version integer NOT NULL)");
    for (int v = version; v < target; ++v) tx.exec(kMigrations[static_cast<std::size_t>(v)]);
    tx.exec0("DELETE FROM club.schema_version");
    tx.exec0("INSERT INTO club.schema_version (version) VALUES (" + std::to_string(target) + ")");
    tx.commit();
    return version;
}

}  // namespace vivaref::club
