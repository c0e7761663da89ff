// The web side under abuse, against the real `vivaref serve` on the
// simulated castle (no browser): while a game is being played through the
// API (a move and the host's undo, over and over) and a phone polls the
// public status, (1) 128 clients ask for the archive of a finished game and
// never read the answer, (2) 8 clients ask for it in keep-alive loops as
// fast as they can. The status must keep answering (no failed poll, p99
// under a second) and the game must keep moving. Prints the figures of
// each phase: status p50/p99, failed polls, decisions a second.
//   node tests/web/flood_test.mjs VIVAREF                 (the CI test, ~15 s)
//   node tests/web/flood_test.mjs VIVAREF --bench [SECONDS]   (each phase SECONDS long, default 20)
// The floods come from other loopback addresses (127.0.0.2 to .10) than
// the poller (127.0.0.11): to the daemon they are other devices, none of
// them the machine itself (which it trusts) nor the host's.
import { spawnSync } from 'node:child_process';
import { request, Agent } from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';
import { api, serveMissing, startServe } from './daemon.mjs';
import { checker, skip } from './harness.mjs';
import { pct } from './figures.mjs';

const args = process.argv.slice(2);
const vivaref = args[0];
const bench = args.includes('--bench');
const benchSeconds = Number(args[args.indexOf('--bench') + 1]) || 20;
const phaseMs = bench ? benchSeconds * 1000 : 3000;
const baselineMs = bench ? benchSeconds * 1000 : 2000;
// The status's p99 must stay under this (a sanitizer build is slower).
const p99Bound = Number(process.env.VIVAREF_FLOOD_P99_MS || 1000);

const why = serveMissing(vivaref);
if (why) skip(why);

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const { check, fail, finish } = checker('flood test', { all: true });

// A finished game in a game log: a random classic game played on a
// simulated castle (`simulate --db`), which serve then lists as game 1.
function logFinishedGame(vivaref, db) {
  const run = (argv, input) => {
    const r = spawnSync(vivaref, argv, { input, encoding: 'utf8', maxBuffer: 64 << 20, timeout: 60000 });
    if (r.status !== 0) throw new Error(`vivaref ${argv.join(' ')}: exit ${r.status}: ${r.stderr}`);
    return r.stdout;
  };
  const record = run(['random-record', '--seed', '5']);
  const trace = run(['trace', 'from-record', '-'], record);
  run(['simulate', '--db', db, '-'], trace);
}

const server = await startServe(vivaref, { edition: 'classic' });
const { url } = server;
const port = Number(new URL(url).port);
const token = server.hostToken;

// Keep-alive GETs from one address; the time each took, or null when it failed.
function agentFrom(localAddress, maxSockets = 1) {
  return new Agent({ keepAlive: true, maxSockets, localAddress });
}
function get(agent, path, timeoutMs = 5000) {
  const start = performance.now();
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path, agent, timeout: timeoutMs }, (res) => {
      let size = 0;
      res.on('data', (c) => { size += c.length; });
      res.on('end', () => resolve(res.statusCode === 200 ? { ms: performance.now() - start, size } : null));
      res.on('error', () => resolve(null));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', () => resolve(null));
    req.end();
  });
}

// The phone: polls the status every 50 ms (as a page's fallback would, much faster).
function poller() {
  const agent = agentFrom('127.0.0.11');
  const times = [];
  let failed = 0;
  let running = true;
  const done = (async () => {
    while (running) {
      const r = await get(agent, '/api/status', 5000);
      if (r) times.push(r.ms);
      else failed += 1;
      await sleep(50);
    }
  })();
  return {
    take() {
      const out = { times: times.splice(0), failed };
      failed = 0;
      return out;
    },
    async stop() { running = false; await done; agent.destroy(); },
  };
}

async function status() {
  return (await api(url, '/api/status')).json;
}
async function until(pred, what, timeout = 20000) {
  const end = Date.now() + timeout;
  for (;;) {
    const s = await status();
    if (pred(s)) return s;
    if (Date.now() > end) throw new Error(`timed out: ${what}: ${JSON.stringify(s).slice(0, 400)}`);
    await sleep(20);
  }
}
const put = (character, place) => api(url, '/api/sim/put', { method: 'POST', body: { character, place } });

// The table: Odessa moved from floor 1 to 2 (a decision the referee judges
// and logs), the host's undo, Odessa set back; counted per accepted move.
function driver() {
  let decisions = 0;
  let running = true;
  let error = null;
  const done = (async () => {
    try {
      while (running) {
        await put('odessa', '2');
        await until((s) => s.board.expected.odessa === '2', 'the move accepted');
        decisions += 1;
        const undo = await api(url, '/api/host/undo', { method: 'POST', token, body: {} });
        if (undo.status !== 200) throw new Error(`undo: ${undo.text}`);
        await until((s) => s.board.expected.odessa === '1', 'the undo');
        await put('odessa', '1');
        await until((s) => !s.guidance, 'odessa back');
      }
    } catch (e) {
      error = e;
    }
  })();
  return {
    take() { const d = decisions; decisions = 0; return d; },
    async stop() { running = false; await done; if (error) throw error; },
  };
}

// 128 clients over 8 addresses each asking for the archive 8 times at once
// (pipelined) and never reading; a client the daemon closes comes back.
function nonReadingFlood() {
  let running = true;
  const sockets = new Set();
  let opened = 0;
  const open = (i) => {
    if (!running) return;
    const s = connect({ host: '127.0.0.1', port, localAddress: `127.0.0.${2 + (i % 8)}` });
    opened += 1;
    sockets.add(s);
    s.pause();
    // The daemon's own name in Host: another is refused (421) before any work.
    s.on('connect', () => s.write(`GET /api/games/1 HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`.repeat(8)));
    s.on('error', () => {});
    s.on('close', () => {
      sockets.delete(s);
      if (running) setTimeout(() => open(i), 20);
    });
  };
  for (let i = 0; i < 128; ++i) open(i);
  return {
    opened: () => opened,
    stop() { running = false; for (const s of sockets) s.destroy(); },
  };
}

// 8 keep-alive loops on the archive from 8 devices (the per-address pacing
// would slow loops from one), reading every answer, as fast as they go.
function archiveFlood() {
  let running = true;
  let answers = 0;
  const agents = [];
  const loops = [];
  for (let i = 0; i < 8; ++i) {
    const agent = agentFrom(`127.0.0.${2 + i}`);
    agents.push(agent);
    loops.push((async () => {
      while (running) {
        const r = await get(agent, '/api/games/1', 10000);
        if (r) answers += 1;
        else await sleep(10);
      }
    })());
  }
  return {
    take() { const a = answers; answers = 0; return a; },
    async stop() { running = false; await Promise.all(loops); agents.forEach((a) => a.destroy()); },
  };
}

const figures = [];
async function phase(name, ms, polls, table, extra = () => '') {
  polls.take();
  table.take();
  const t0 = performance.now();
  await sleep(ms);
  const seconds = (performance.now() - t0) / 1000;
  const { times, failed } = polls.take();
  const decisions = table.take();
  times.sort((a, b) => a - b);
  const row = { name, polls: times.length, failed, p50: pct(times, 50), p99: pct(times, 99), max: times[times.length - 1],
    decisionsPerSecond: decisions / seconds, extra: extra(seconds) };
  figures.push(row);
  console.log(`${name.padEnd(34)} status p50 ${row.p50.toFixed(2)} ms  p99 ${row.p99.toFixed(2)} ms  max ${row.max.toFixed(1)} ms  ` +
    `${row.polls} polls, ${failed} failed  ${row.decisionsPerSecond.toFixed(2)} decisions/s ${row.extra}`);
  return row;
}

let polls = null;
let table = null;
try {
  // A finished game in the log, served as game 1 once serve restarts on it.
  logFinishedGame(vivaref, join(server.dir, 'games.sqlite'));
  await server.restart();
  const archive = await get(agentFrom('127.0.0.10'), '/api/games/1');
  check(archive !== null && archive.size > 50000, `GET /api/games/1 answers the finished game (${archive ? archive.size : 0} bytes)`);

  const started = await api(url, '/api/host/new-game', { method: 'POST', token,
    body: { setup: { edition: 'classic', seats: 3, first: 0, rounds: 1 }, players: ['A', 'B', 'C'] } });
  if (started.status !== 200) throw new Error(`new-game: ${started.text}`);
  await until((s) => s.view && s.view.phase === 'placement', 'placement');
  const placements = [['alighiero', '4'], ['beatrice', '4'], ['clemente', '4'], ['dario', '4'], ['ernesto', '3'], ['fiorello', '3'],
    ['gavino', '3'], ['irina', '3'], ['leonardo', '2'], ['merlino', '2'], ['natale', '2'], ['odessa', '1']];
  for (const [c, p] of placements) {
    await put(c, p);
    await until((s) => s.board.expected[c] === p, `${c} on ${p}`);
  }
  await until((s) => s.guidance || s.view.phase === 'ascent', 'end of placement');
  await put('piero', '0');
  await until((s) => !s.guidance && s.view.phase === 'ascent', 'ascent');

  polls = poller();
  table = driver();
  const base = await phase('no flood', baselineMs, polls, table);

  const stuck = nonReadingFlood();
  const flooded = await phase('128 clients not reading', phaseMs, polls, table, (s) => `(${(stuck.opened() / s).toFixed(0)} connections/s)`);
  stuck.stop();

  const loops = archiveFlood();
  const looped = await phase('8 keep-alive archive loops', phaseMs, polls, table, (s) => `(${(loops.take() / s).toFixed(0)} archives/s)`);
  await loops.stop();

  let both = null;
  if (bench) {
    const stuck2 = nonReadingFlood();
    const loops2 = archiveFlood();
    both = await phase('both floods', phaseMs, polls, table, (s) => `(${(loops2.take() / s).toFixed(0)} archives/s)`);
    stuck2.stop();
    await loops2.stop();
  }
  await polls.stop();
  await table.stop();
  polls = null;
  table = null;

  check(base.failed === 0 && base.polls > 0, `no flood: every status poll answered (${base.polls})`);
  for (const row of [flooded, looped, both].filter(Boolean)) {
    check(row.failed === 0 && row.polls >= phaseMs / 500, `${row.name}: every status poll answered, one at least every 0.5 s (${row.polls}, ${row.failed} failed)`);
    check(row.p99 < p99Bound, `${row.name}: status p99 ${row.p99.toFixed(1)} ms under ${p99Bound} ms`);
    check(row.decisionsPerSecond > 0, `${row.name}: the game kept moving (${row.decisionsPerSecond.toFixed(2)} decisions/s)`);
  }
  const log = server.log();
  const acceptLines = (log.match(/accepting connections failed/g) || []).length;
  check(acceptLines <= 2, `the log holds ${acceptLines} accept-failure lines`);
} catch (e) {
  fail(e);
} finally {
  if (polls) await polls.stop().catch(() => {});
  if (table) await table.stop().catch(() => {});
  await server.stop();
}
finish();
