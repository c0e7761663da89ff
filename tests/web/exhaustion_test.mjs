// The real `vivaref serve` on the simulated castle when the machine runs out:
//  1. of file descriptors (serve under `prlimit --nofile=48`, 96 idle
//     clients from four addresses that come back when closed): serve keeps
//     descriptors for the game log and the castle and lets clients have
//     the rest, so none runs out; the status answers every poll and the
//     table plays on during the flood;
//  2. of disk (the game log on a real 1 MiB tmpfs, filled with a file):
//     nothing is acknowledged or shown as made that is not on disk, the
//     host's request gets 503 `log-unwritable`, the status says why; with
//     room again the piece that met the full disk is judged and saved
//     without a new request; filled again and killed with
//     SIGKILL, serve started on the same log holds every acknowledged
//     placement and `vivaref verify` finds the log whole.
// The disk part needs its own mount namespace: the test runs itself again
// under `unshare --user --map-root-user --mount` (skipped, exit 77, where the
// kernel or the container refuses it).
//   node tests/web/exhaustion_test.mjs VIVAREF
import { spawnSync } from 'node:child_process';
import { mkdtempSync, openSync, rmSync, unlinkSync, writeSync, closeSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { api, serveMissing, startServe } from './daemon.mjs';
import { checker, skip } from './harness.mjs';
import { gameDriver } from './game_driver.mjs';

const vivaref = process.argv[2];
const why = serveMissing(vivaref);
if (why) skip(why);

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const { check, fail, finish } = checker('exhaustion test', { all: true });

// The placements of a 3-seat classic game, in turn order.
const kPlacements = [['alighiero', '4'], ['beatrice', '4'], ['clemente', '4'], ['dario', '4'], ['ernesto', '3'], ['fiorello', '3'],
  ['gavino', '3'], ['irina', '3'], ['leonardo', '2'], ['merlino', '2'], ['natale', '2'], ['odessa', '1']];

// The shared driver, and the new 3-seat game every part starts with.
function table(server) {
  const g = gameDriver(server);
  const until = (pred, what, timeout) => g.waitStatus((s) => s && pred(s), what, timeout);
  const put = (character, place) => g.sim('put', { character, place });
  const newGame = async () => {
    const started = await g.host('new-game',
      { setup: { edition: 'classic', seats: 3, first: 0, rounds: 1 }, players: ['Ada', 'Bruno', 'Carla'] });
    if (started.status !== 200) throw new Error(`new-game: ${started.text}`);
    await until((s) => s.view && s.view.phase === 'placement', 'placement');
  };
  return { status: g.status, until, put, newGame };
}

// ---- 1. Few file descriptors ------------------------------------------------

// `count` connections from `address` that send nothing; one the daemon
// closes comes back 20 ms later, until close().
function idleClients(port, address, count) {
  let running = true;
  const sockets = new Set();
  let opened = 0;
  const open = () => {
    if (!running) return;
    const s = connect({ host: '127.0.0.1', port, localAddress: address });
    opened += 1;
    sockets.add(s);
    s.on('error', () => {});
    s.on('close', () => {
      sockets.delete(s);
      if (running) setTimeout(open, 20);
    });
  };
  for (let i = 0; i < count; i++) open();
  return {
    opened: () => opened,
    close: () => { running = false; sockets.forEach((s) => s.destroy()); },
  };
}

async function descriptors() {
  if (spawnSync('prlimit', ['--version']).status !== 0) {
    console.log('skip: no prlimit (util-linux) to lower the descriptor limit');
    return;
  }
  // 48 descriptors: serve keeps 32 for the log and the castle and allows
  // 16 connections; 96 idle clients (24 from each of four addresses) that
  // come back whenever they are closed would take every descriptor if it
  // did not. The game log must keep working all along.
  const server = await startServe(vivaref, { command: ['prlimit', '--nofile=48'] });
  const port = Number(new URL(server.url).port);
  try {
    check(/file descriptor limit \(48\) allows 16 connections at once, not 128/.test(server.log()),
      'serve says what the descriptor limit allows, once, at start');
    const t = table(server);
    await t.newGame();
    const flood = ['127.0.0.2', '127.0.0.3', '127.0.0.4', '127.0.0.5'].map((a) => idleClients(port, a, 24));
    await sleep(1000);
    // The phone (another address) polls the status every 100 ms for 3 s,
    // and the table places three pieces meanwhile.
    let answered = 0;
    let failed = 0;
    let worst = 0;
    const polls = (async () => {
      for (let i = 0; i < 30; i++) {
        const t0 = performance.now();
        const r = await api(server.url, '/api/status').catch(() => null);
        if (r && r.status === 200) answered += 1;
        else failed += 1;
        worst = Math.max(worst, performance.now() - t0);
        await sleep(100);
      }
    })();
    for (const [c, p] of kPlacements.slice(0, 3)) {
      await t.put(c, p);
      await t.until((s) => s.board.expected[c] === p, `${c} on ${p} during the flood`);
    }
    await polls;
    const reconnects = flood.reduce((n, f) => n + f.opened(), 0) - 96;
    flood.forEach((f) => f.close());
    check(reconnects > 0, `the flood was turned away and came back (${reconnects} reconnections)`);
    check(failed === 0, `the status answered every poll during the flood (${answered} answered, ${failed} failed, slowest ${worst.toFixed(0)} ms)`);
    check(true, 'the table placed three pieces during the flood');
    const s = await t.status();
    check(s.log && s.log.durable === true && !s.log_problem, 'the game log saved everything during the flood');
    const lines = (server.log().match(/accepting connections failed/g) || []).length;
    check(lines === 0, `no descriptor ran out: no accept failure in the log (${lines})`);
  } catch (e) {
    // Its first lines (where a sanitizer's report starts) and its last.
    const lines = server.log().split('\n');
    console.log(`serve's output:\n${lines.slice(0, 12).join('\n')}\n...\n${lines.slice(-12).join('\n')}`);
    throw e;
  } finally {
    await server.stop();
  }
}

// ---- 2. A full disk ---------------------------------------------------------

// Writes zeros into `path` until the file system is full; its size.
function fill(path) {
  const fd = openSync(path, 'a');
  const block = Buffer.alloc(4096);
  let size = 0;
  try {
    for (;;) size += writeSync(fd, block);
  } catch (e) {
    if (e.code !== 'ENOSPC') throw e;
  } finally {
    closeSync(fd);
  }
  return size;
}

async function fullDisk() {
  const mount = mkdtempSync(join(tmpdir(), 'vivaref-small-disk-'));
  const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'vivaref-test', mount], { encoding: 'utf8' });
  if (mounted.status !== 0) {
    console.log(`skip: cannot mount a 1 MiB tmpfs here: ${mounted.stderr.trim()}`);
    return;
  }
  const server = await startServe(vivaref, { parent: mount });
  const filler = join(mount, 'filler');
  try {
    const t = table(server);
    await t.newGame();
    const acknowledged = [];
    for (const [c, p] of kPlacements.slice(0, 4)) {
      await t.put(c, p);
      await t.until((s) => s.board.expected[c] === p, `${c} on ${p}`);
      acknowledged.push([c, p]);
    }
    // The disk fills: the next placements are held, never acknowledged.
    fill(filler);
    let held = null;
    for (const [c, p] of kPlacements.slice(4)) {
      const before = await t.status();
      await t.put(c, p);
      const s = await t.until((x) => x.log_problem || x.board.expected[c] === p, `${c} on ${p} or a log problem`);
      if (s.log_problem) {
        held = [c, p];
        // Read, not decided: the game and the status are as before it (the
        // board shows the piece where it stands, the game does not).
        check(s.log && s.log.durable === false,
          `the status says the log cannot save (${c}: log ${JSON.stringify(s.log)})`);
        check(s.board.expected[c] !== p && s.last_action === before.last_action &&
            JSON.stringify(s.view) === JSON.stringify(before.view),
          `the placement met by a full disk is not shown as made (${c}: expected ${s.board.expected[c]}, last action "${s.last_action}")`);
        // Still so a second later (the retry tries and fails again).
        await new Promise((r) => setTimeout(r, 1200));
        const later = await t.status();
        check(later.log_problem && later.board.expected[c] !== p, `a second later it is still not shown as made (${c})`);
        break;
      }
      acknowledged.push([c, p]);  // written into space SQLite had already
    }
    check(held !== null, `the full disk stopped the game (after ${acknowledged.length} placements)`);
    if (!held) return;
    const s = await t.status();
    check(/disk space/i.test(s.log_problem), `the status says why: "${s.log_problem}"`);
    const undo = await api(server.url, '/api/host/undo', { method: 'POST', token: server.hostToken, body: {} });
    check(undo.status === 503 && undo.json && undo.json.error === 'log-unwritable',
      `the host's undo is answered 503 log-unwritable (${undo.status} ${undo.text.slice(0, 120)})`);
    check((server.log().match(/THE GAME LOG CANNOT BE WRITTEN/g) || []).length === 1, 'the journal heard it once');

    // Room again: the loop's retry finds the log saving and judges the board, no request needed.
    unlinkSync(filler);
    await t.until((x) => !x.log_problem && x.board.expected[held[0]] === held[1], 'the waiting placement saved');
    acknowledged.push(held);
    check(true, `with room again the placement that met the full disk (${held[0]}) was judged and saved by itself`);
    check(/The game log is written again/.test(server.log()), 'the journal heard that it is written again');

    // Full again, then killed: nothing acknowledged may be lost.
    fill(filler);
    let heldAgain = null;
    for (const [c, p] of kPlacements.slice(acknowledged.length)) {
      await t.put(c, p);
      const x = await t.until((y) => y.log_problem || y.board.expected[c] === p, `${c} on ${p} or a log problem`);
      if (x.log_problem) {
        heldAgain = [c, p];
        break;
      }
      acknowledged.push([c, p]);
    }
    check(heldAgain !== null, `the disk full again stopped the game (${acknowledged.length} acknowledged)`);
    if (!heldAgain) return;
    // A power cut now. Started again on the still full disk, serve either
    // plays on saying the log cannot save, or stops at once naming the disk.
    await server.halt('SIGKILL');
    let onFull = null;
    try {
      await server.restart();
      onFull = await t.status();
    } catch (e) {
      check(/No space left|disk is full/.test(e.message), `serve on the full disk stops naming it: ${e.message.split('\n').slice(-3).join(' | ')}`);
    }
    if (onFull) {
      const lost = acknowledged.filter(([c, p]) => onFull.board.expected[c] !== p).map(([c]) => c);
      check(onFull.log_problem && lost.length === 0,
        `serve started on the full disk says the log cannot save, all ${acknowledged.length} acknowledged placements there (lost: ${lost.join(', ') || 'none'}; "${onFull.log_problem}")`);
    }
    // The host frees space and the service starts again.
    await server.halt('SIGKILL');
    unlinkSync(filler);
    await server.restart();
    const after = await t.until((x) => x.view && x.view.phase === 'placement', 'the game resumed');
    const lost = acknowledged.filter(([c, p]) => after.board.expected[c] !== p).map(([c]) => c);
    check(lost.length === 0, `after SIGKILL every acknowledged placement is in the log (${acknowledged.length}, lost: ${lost.join(', ') || 'none'})`);
    check(after.board.expected[heldAgain[0]] !== heldAgain[1],
      `the placement held when killed (${heldAgain[0]}) was never acknowledged and is not in the log`);
    await server.halt();
    const verify = spawnSync(vivaref, ['verify', '--db', join(server.dir, 'games.sqlite'), '--all'], { encoding: 'utf8' });
    check(verify.status === 0, `vivaref verify finds the log whole (exit ${verify.status}) ${(verify.stdout + verify.stderr).trim().split('\n').pop()}`);
  } finally {
    await server.stop();
    rmSync(filler, { force: true });
    spawnSync('umount', [mount]);
    rmSync(mount, { recursive: true, force: true });
  }
}

// ---- The namespace, then both parts -----------------------------------------

if (!process.env.VIVAREF_EXHAUSTION_INNER) {
  const ns = ['--user', '--map-root-user', '--mount'];
  const probe = spawnSync('unshare', [...ns, 'true'], { encoding: 'utf8' });
  if (probe.status === 0) {
    const inner = spawnSync('unshare', [...ns, process.execPath, ...process.argv.slice(1)],
      { stdio: 'inherit', env: { ...process.env, VIVAREF_EXHAUSTION_INNER: '1' } });
    process.exit(inner.status === null ? 1 : inner.status);
  }
  // No namespace of our own here: the descriptor part alone.
  console.log(`skip: the full-disk part: unshare refused (${(probe.stderr || String(probe.error)).trim()})`);
  process.env.VIVAREF_EXHAUSTION_NO_DISK = '1';
}

try {
  await descriptors();
  if (!process.env.VIVAREF_EXHAUSTION_NO_DISK) await fullDisk();
} catch (e) {
  fail(e);
}
finish();
