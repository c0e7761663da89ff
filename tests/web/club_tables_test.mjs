// A club of two tables end to end (issue 16, "Done when"): a scratch
// PostgreSQL, `vivaref club create`, tables north and south, eight members;
// two `vivaref serve --hardware=sim`, each with the [club] lines `club
// add-table` printed (the server given as the scratch server's unix-socket
// directory, the password in a file). Both tables play whole games at once
// through the simulated castle, pieces put down one after another as
// players do, the host picking members and a guest for each game; one game
// is abandoned. Then:
//   - nothing of a game in progress is in PostgreSQL while it plays;
//   - every game of both tables is in club.games exactly once, and the
//     league's standings (games, wins, points per member) and each member's
//     history equal what the two tables' own logs (GET /api/games) say;
//   - the health card (status `club`) and `vivaref games` say nothing waits.
// Faults, against the same server:
//   - the server stopped (`stop immediate`) while north finishes a game: the
//     status and `vivaref games --db` say one game waits; north is killed
//     (SIGKILL) with it queued; the server comes back and north is started
//     again on the same log and configuration: the game lands once;
//   - south queues three games with the server down and comes back while a
//     session holds club.games locked: its first push waits inside its
//     transaction (pg_stat_activity says so) and the server is stopped
//     under it; after it is started again every game lands exactly once.
// Fixed seeds (the members picked, the pace's jitter), printed on failure;
// VIVAREF_CLUB_TABLES_SEED and VIVAREF_CLUB_TABLES_PACE_MS (ms between two
// players' moves, default 120; the table's real pace is about 1000) change
// them. Exits 77 (skipped) without node's fetch, psql or a PostgreSQL that
// can start.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { api, serveMissing, startServe } from './daemon.mjs';
import { checker, skip } from './harness.mjs';

const [vivaref, scratchPostgres] = process.argv.slice(2);
if (serveMissing(vivaref)) skip(serveMissing(vivaref));
if (!scratchPostgres) skip('the scratch PostgreSQL tool was not given');
if (spawnSync('psql', ['--version']).status !== 0) skip('psql is not installed');

const seed = Number(process.env.VIVAREF_CLUB_TABLES_SEED || 1616);
const pace = Number(process.env.VIVAREF_CLUB_TABLES_PACE_MS || 120);
const { check, fail, finish } = checker('club-tables', { all: true });
let rngState = seed >>> 0;
const random = () => {
  // mulberry32: small and the same on every machine.
  rngState = (rngState + 0x6d2b79f5) >>> 0;
  let t = rngState;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const brisk = () => sleep(pace * (0.5 + random()));

// --- the scratch server ------------------------------------------------------------
const pg = spawn(scratchPostgres, [], { stdio: ['pipe', 'pipe', 'inherit'] });
const pgLines = createInterface({ input: pg.stdout });
const pgNext = () => new Promise((resolve, reject) => {
  const onLine = (l) => { pgLines.off('line', onLine); pg.off('exit', onExit); resolve(l); };
  const onExit = (code) => { pgLines.off('line', onLine); reject(Object.assign(new Error(`the scratch server exited (${code})`), { code })); };
  pgLines.on('line', onLine);
  pg.on('exit', onExit);
});
let hello;
try {
  hello = JSON.parse(await pgNext());
} catch (e) {
  if (e.code === 77) skip('no PostgreSQL server can start here (vivaref_scratch_postgres exited 77)');
  throw e;
}
const pgCommand = async (line) => {
  pg.stdin.write(`${line}\n`);
  const answer = await pgNext();
  if (answer !== 'ok') throw new Error(`the scratch server answered '${answer}' to '${line}'`);
};
const clubInfo = `${hello.super_conninfo} dbname=vivaref_club`;
const sql = (query, conninfo = clubInfo) => {
  const r = spawnSync('psql', [conninfo, '-v', 'ON_ERROR_STOP=1', '-At', '-c', query], { encoding: 'utf8', timeout: 20000 });
  if (r.status !== 0) throw new Error(`psql ${query}: ${r.stderr}`);
  return r.stdout.trim();
};
const cli = (...args) => {
  const r = spawnSync(vivaref, args, { encoding: 'utf8', timeout: 30000 });
  if (r.status !== 0) throw new Error(`vivaref ${args.join(' ')} exited ${r.status}: ${r.stderr}${r.stdout}`);
  return r.stdout;
};
const club = (...args) => cli('club', args[0], '--server', clubInfo, ...args.slice(1));

const work = mkdtempSync(join(tmpdir(), 'vivaref-club-tables-'));
const tables = {};
const cleanup = async () => {
  for (const t of Object.values(tables)) await t.server.stop().catch(() => {});
  pg.stdin.end();
  await new Promise((r) => { if (pg.exitCode !== null) r(); else pg.on('exit', r); });
  rmSync(work, { recursive: true, force: true });
};

// The [club] section of a table from what `club add-table` printed, the
// password moved into a file.
const tableConfig = (name, printed) => {
  const keys = {};
  for (const m of printed.matchAll(/^(server|database|table|user|password) = (.*)$/gm)) keys[m[1]] = m[2];
  const file = join(work, `${name}-password`);
  writeFileSync(file, `${keys.password}\n`, { mode: 0o600 });
  return `[club]\nserver = ${keys.server}\ndatabase = ${keys.database}\ntable = ${keys.table}\nuser = ${keys.user}\n` +
    `password_file = ${file}\nsslmode = disable\nconnect_timeout = 2\n`;
};

// One table: its serve, and the simulated castle driven as its players do.
async function openTable(name, printed) {
  // North also shows the league's pages, read through the socket directory
  // with the league's read-only role.
  const extraConfig = tableConfig(name, printed) + (name === 'north' ? `league_password_file = ${join(work, 'league-password')}\n` : '');
  check(/^server = \//m.test(extraConfig), `${name}: add-table names the unix-socket directory: ${extraConfig.split('\n')[1]}`);
  const server = await startServe(vivaref, { extraConfig });
  const t = { name, server, played: [] };
  t.status = async () => (await api(server.url, '/api/status')).json;
  t.until = async (pred, what, timeout = 30000) => {
    const end = Date.now() + timeout;
    for (;;) {
      const s = await t.status();
      if (s && pred(s)) return s;
      if (Date.now() > end) throw new Error(`${name}: timed out: ${what}: ${JSON.stringify(s).slice(0, 600)}`);
      await sleep(40);
    }
  };
  t.host = async (path, body) => {
    const r = await api(server.url, `/api/host/${path}`, body === undefined ? { token: server.hostToken } : { method: 'POST', token: server.hostToken, body });
    if (r.status !== 200) throw new Error(`${name}: /api/host/${path} answered ${r.status} ${r.text.slice(0, 300)}`);
    return r.json;
  };
  t.simPost = (what, body) => api(server.url, `/api/sim/${what}`, { method: 'POST', token: server.hostToken, body });
  t.put = async (character, place) => {
    const r = await t.simPost('put', { character, place });
    if (r.status !== 200) throw new Error(`${name}: put ${character} ${place}: ${r.text}`);
    await t.until((s) => s.board && s.board.expected[character] === place && !s.refusal, `${character} on ${place}`);
  };
  // Everything off the board, as between two games.
  t.clear = async () => {
    const state = (await api(server.url, '/api/sim/state')).json;
    for (const pieces of Object.values(state.board || {}))
      for (const p of pieces) await t.simPost('lift', /^[0-9A-F]+$/.test(p) ? { tag: p } : { character: p });
  };
  return t;
}

// The members a game seats: three of the club's picked by the seed, one of
// them replaced by a guest.
const kPlacement = [['alighiero', '4'], ['beatrice', '4'], ['clemente', '4'], ['dario', '4'], ['ernesto', '3'], ['fiorello', '3'],
  ['gavino', '3'], ['irina', '3'], ['leonardo', '2'], ['merlino', '2'], ['natale', '2'], ['odessa', '1']];
let guests = 0;
const pickSeats = (members) => {
  const pool = [...members];
  const seats = [];
  for (let i = 0; i < 3; ++i) seats.push(pool.splice(Math.floor(random() * pool.length), 1)[0]);
  const guestAt = Math.floor(random() * 3);
  seats[guestAt] = { id: null, name: `Guest ${++guests}` };
  return seats;
};

// A game of one round on a classic table, 3 seats; `abandonAfter`: the
// host abandons it after that many pieces. `whileLive(gameId)` runs once
// the game has started. Resolves to the game's id in the table's log.
async function playGame(t, members, { abandonAfter = null, whileLive = null, end = null } = {}) {
  await t.clear();
  const seats = pickSeats(members);
  await t.host('new-game', { setup: { edition: 'classic', seats: 3, first: 0, rounds: 1 }, players: seats.map((s) => s.name), members: seats.map((s) => s.id) });
  let live = await t.until((s) => s.view && s.view.phase === 'placement' && s.game, 'placement');
  // A piece of the last game still seen on the board: taken off as guided.
  for (let round = 0; live.guidance && round < 5; ++round) {
    for (const m of live.guidance.moves || []) {
      if (m.to === null || m.to === undefined) await t.simPost('lift', { character: m.character });
      else await t.simPost('put', { character: m.character, place: m.to });
    }
    live = await t.until((s) => !s.guidance || JSON.stringify(s.guidance) !== JSON.stringify(live.guidance), 'the guidance followed');
  }
  const game = live.game;
  if (whileLive) await whileLive(game);
  let n = 0;
  for (const [c, p] of kPlacement) {
    if (abandonAfter !== null && n++ === abandonAfter) {
      await t.host('abandon', {});
      await t.until((s) => s.state === 'abandoned', 'the game abandoned');
      t.played.push({ game, seats, abandoned: true });
      return game;
    }
    await brisk();
    await t.put(c, p);
  }
  const s = await t.until((x) => x.guidance || (x.view && x.view.phase === 'ascent'), 'the end of placement');
  for (const m of (s.guidance && s.guidance.moves) || []) {
    await brisk();
    if (m.to === null) await t.simPost('lift', { character: m.character });
    else await t.simPost('put', { character: m.character, place: m.to });
  }
  await t.until((x) => !x.guidance && x.view.phase === 'ascent', 'the board set for the ascent');
  await brisk();
  await t.put('alighiero', '5');
  await brisk();
  await t.put('alighiero', '6');
  await t.until((x) => x.election, 'the election');
  if (end) await end(game);
  for (const seat of [0, 1, 2]) {
    await brisk();
    await t.simPost('press', { station: seat, key: 'yes' });
  }
  await t.until((x) => x.state === 'finished' && x.game === game, 'the end of the game');
  t.played.push({ game, seats, abandoned: false });
  return game;
}

const rowsOf = (table, game) => Number(sql(`SELECT count(*) FROM club.games g JOIN club.club_tables t ON t.id = g.table_id WHERE t.name = '${table}' AND g.local_id = ${game}`));
const waitingIn = (t) => JSON.parse(cli('games', '--json', '--db', join(t.server.dir, 'games.sqlite'))).filter((g) => g.club);

try {
  // --- the club: schema, two tables, members -----------------------------------------
  sql('CREATE DATABASE vivaref_club', hello.super_conninfo);
  const created = club('create');
  const leaguePassword = (created.match(/password \(shown once\): (\S+)/) || [])[1];
  check(Boolean(leaguePassword), `club create prints the league role's password once${leaguePassword ? '' : `: ${created.trim()}`}`);
  const leagueFile = join(work, 'league-password');
  writeFileSync(leagueFile, `${leaguePassword}\n`, { mode: 0o600 });
  const printed = { north: club('add-table', 'north'), south: club('add-table', 'south') };
  const names = ['Ada', 'Bruno', 'Carla', 'Dante', 'Elsa', 'Franco', 'Gina', 'Ugo'];
  const members = club('add-member', ...names).trim().split('\n').map((l) => { const [id, name] = l.split('\t'); return { id: Number(id), name }; });
  check(members.length === names.length, `${members.length} members added`);

  for (const name of ['north', 'south']) tables[name] = await openTable(name, printed[name]);
  for (const t of Object.values(tables)) {
    const deadline = Date.now() + 20000;
    let cached = null;
    while (Date.now() < deadline) {
      cached = await t.host('members');
      if (cached.members.length === members.length) break;
      await sleep(100);
    }
    check(cached.club && cached.members.length === members.length, `${t.name}: the host's picker lists the ${members.length} members`);
  }
  const { north, south } = tables;

  // --- both tables at once ----------------------------------------------------------
  // Nothing about a live game is in PostgreSQL: checked as it starts and
  // again at its election, just before its end.
  const notPushed = (t) => async (game) => {
    check(rowsOf(t.name, game) === 0, `${t.name}: game ${game} in progress has no row in club.games`);
  };
  const session = async (t, plan) => {
    for (const p of plan) await playGame(t, members, { ...p, whileLive: notPushed(t), end: notPushed(t) });
  };
  await Promise.all([
    session(north, [{}, { abandonAfter: 5 }, {}]),
    session(south, [{}, {}, {}]),
  ]);

  const settled = async (t, pushed) => t.until((s) => s.club && s.club.waiting === 0 && s.club.pushed >= pushed, `${t.name}: ${pushed} games pushed`, 40000);
  for (const t of [north, south]) {
    const s = await settled(t, t.played.length);
    check(s.club.table === t.name && s.club.waiting === 0 && s.club.last_error === '' && !s.club.refused,
      `${t.name}: the health card says nothing waits: ${JSON.stringify(s.club)}`);
    check(/unix socket/.test(s.club.server), `${t.name}: the health card names the socket directory: ${s.club.server}`);
    check(waitingIn(t).length === 0, `${t.name}: \`vivaref games\` marks no game waiting`);
    check(!/wait/.test(cli('games', '--db', join(t.server.dir, 'games.sqlite'))), `${t.name}: \`vivaref games\` says nothing waits`);
  }

  // The league against the tables' own logs.
  const checkLeague = async (label) => {
    const expected = new Map(members.map((m) => [m.name, { games: 0, wins: 0, points: 0, history: 0 }]));
    let total = 0;
    for (const t of [north, south]) {
      const log = (await api(t.server.url, '/api/games')).json;
      const ended = log.filter((g) => g.status !== 'in-progress');
      total += ended.length;
      for (const g of ended) {
        check(rowsOf(t.name, g.id) === 1, `${label}: ${t.name}'s game ${g.id} (${g.status}) is in club.games once`);
        const played = t.played.find((p) => p.game === g.id);
        if (!played) { fail(new Error(`${t.name}'s game ${g.id} was not played by this test`)); continue; }
        for (const p of g.players) {
          const seat = played.seats[p.player];
          if (seat.id === null) continue;
          const e = expected.get(seat.name);
          e.history += 1;
          if (g.status !== 'complete') continue;
          e.games += 1;
          e.points += g.result.totals[p.player];
          if (g.result.winners.includes(p.player)) e.wins += 1;
        }
      }
    }
    check(Number(sql('SELECT count(*) FROM club.games')) === total, `${label}: club.games holds the ${total} games the two logs ended`);
    check(Number(sql('SELECT count(*) FROM (SELECT uid FROM club.games GROUP BY uid HAVING count(*) > 1) d')) === 0, `${label}: no uid twice`);
    const standings = JSON.parse(club('standings', '--json')).filter((r) => r.edition === 'classic');
    for (const [name, e] of expected) {
      const row = standings.find((r) => r.name === name) || { games: 0, wins: 0, points: 0 };
      check(row.games === e.games && row.wins === e.wins && row.points === e.points,
        `${label}: ${name}'s standing ${row.games} games, ${row.wins} wins, ${row.points} points = the logs' ${e.games}, ${e.wins}, ${e.points}`);
      const history = JSON.parse(club('history', '--json', name));
      check(history.length === e.history, `${label}: ${name}'s history lists ${history.length} games, the logs ${e.history}`);
    }
    check(!standings.some((r) => /^Guest/.test(r.name)), `${label}: no guest in the standings`);
    // The same standings on north's league page (its own serve, the club's
    // socket directory, the read-only role).
    const page = await api(north.server.url, '/api/league/standings?edition=classic');
    const pageRows = page.status === 200 ? page.json.standings : [];
    check(page.status === 200 && pageRows.length === standings.length &&
      standings.every((r) => pageRows.some((q) => q.name === r.name && q.games === r.games && q.wins === r.wins && q.points === r.points)),
      `${label}: north's /api/league/standings equals \`club standings\` (${page.status}, ${pageRows.length} rows)`);
    const listed = club('games', '--limit', '1000').trim().split('\n').filter((l) => l);
    check(listed.length === total && listed.some((l) => / north /.test(l)) && listed.some((l) => / south /.test(l)),
      `${label}: \`club games\` lists ${listed.length} games from both tables`);
  };
  await checkLeague('two tables');

  // --- the server stopped while north finishes a game; north killed with it queued ---
  const pushedNorth = (await north.status()).club.pushed;
  const faulted = await playGame(north, members, {
    end: async () => { await pgCommand('stop immediate'); },
  });
  const waits = await north.until((s) => s.club.waiting === 1 && s.club.last_error !== '', 'north: one game waits, and why', 30000);
  check(waits.club.pushed === pushedNorth, `north: the health card says one game waits: ${JSON.stringify(waits.club)}`);
  const queued = waitingIn(north);
  check(queued.length === 1 && queued[0].id === faulted && queued[0].club.state === 'waiting',
    `north: \`vivaref games --db\` marks game ${faulted} waiting: ${JSON.stringify(queued)}`);
  check(/1 game waits to be pushed to the club/.test(cli('games', '--db', join(north.server.dir, 'games.sqlite'))), 'north: `vivaref games` says 1 game waits');
  await north.server.halt('SIGKILL');
  await pgCommand('start');
  check(rowsOf('north', faulted) === 0, `north's game ${faulted} is not in the club while north is down`);
  await north.server.restart();
  await north.until((s) => s.club && s.club.waiting === 0 && rowsOf('north', faulted) >= 1, 'north: the queued game pushed after the restart', 40000);
  check(rowsOf('north', faulted) === 1, `north's game ${faulted} landed once after the restart`);

  // --- south comes back with three queued games; the server stopped mid-burst --------
  await pgCommand('stop immediate');
  const burst = [];
  for (let i = 0; i < 3; ++i) burst.push(await playGame(south, members));
  await south.until((s) => s.club.waiting === 3, 'south: three games wait', 30000);
  await south.server.halt('SIGTERM');
  await pgCommand('start');
  // The burst is cut inside its first push: a session holds club.games
  // locked, south's push waits for the lock in its transaction (seen in
  // pg_stat_activity), and then the server stops under it.
  const locker = spawn('psql', [clubInfo, '-c', 'BEGIN; LOCK TABLE club.games IN ACCESS EXCLUSIVE MODE; SELECT pg_sleep(120);'], { stdio: 'ignore' });
  const lockerGone = new Promise((r) => locker.on('exit', r));
  for (const end = Date.now() + 20000; ;) {
    const held = sql("SELECT count(*) FROM pg_locks WHERE relation = 'club.games'::regclass AND mode = 'AccessExclusiveLock' AND granted");
    if (Number(held) === 1) break;
    if (Date.now() > end) throw new Error('the lock on club.games was not taken within 20 s');
    await sleep(50);
  }
  await south.server.restart();
  const blocked = () => Number(sql("SELECT count(*) FROM pg_stat_activity WHERE application_name = 'vivaref south' AND wait_event_type = 'Lock'", hello.super_conninfo));
  await south.until(() => blocked() === 1, "south's push waiting inside its transaction", 30000);
  await pgCommand('stop immediate');
  await lockerGone;
  // The push cut: its game is in or not (an immediate stop may let the
  // blocked commit through as the lock's holder dies first); the two
  // after it wait.
  const cut = await south.until((s) => s.club.waiting >= 2 && s.club.last_error !== '', 'south: the cut push seen', 30000);
  check(cut.club.waiting >= 2, `south: the push cut mid-transaction leaves ${cut.club.waiting} games waiting: ${cut.club.last_error}`);
  await pgCommand('start');
  await south.until((s) => s.club.waiting === 0 && burst.every((g) => rowsOf('south', g) >= 1),
    'south: the burst pushed after the server came back', 60000);
  for (const g of burst) check(rowsOf('south', g) === 1, `south's game ${g} of the burst landed exactly once`);
  await checkLeague('after the faults');
} catch (e) {
  fail(e);
  console.log(`seed ${seed}, pace ${pace} ms (VIVAREF_CLUB_TABLES_SEED, VIVAREF_CLUB_TABLES_PACE_MS)`);
  for (const t of Object.values(tables)) console.log(`--- ${t.name}'s serve:\n${t.server.log().slice(-3000)}`);
} finally {
  await cleanup();
}
finish();
