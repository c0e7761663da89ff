// The club's league pages (league.html, games.html?league=UID) in chromium
// against `vivaref club serve` on a scratch PostgreSQL filled with engine
// games (vivaref_league_fill), at a phone's, a laptop's and a TV's size:
// the standings' numbers equal `vivaref club standings --json`, whole and
// for one table; a member's history equals `vivaref club history --json`; a
// recent game opens its review, which steps; no sideways scrolling on the
// phone; the club's server stopped, the page says so in a sentence. And a
// table's `vivaref serve`: the league's routes with the [club] league keys,
// 404 no-league without them.
//   node tests/web/league_test.mjs VIVAREF SCRATCH_POSTGRES LEAGUE_FILL [ARTIFACTS]
//   exit 0 pass, 1 fail, 77 a tool or PostgreSQL missing
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { browserOrSkip, checker, newPage, pageWidth, shooter, skip } from './harness.mjs';

const [vivaref, scratch, fill] = process.argv.slice(2, 5);
const artifacts = process.argv[5] || join(tmpdir(), 'vivaref-league');
for (const [what, file] of [['vivaref', vivaref], ['vivaref_scratch_postgres', scratch], ['vivaref_league_fill', fill]])
  if (!file || !existsSync(file)) skip(`${what} is missing (${file || 'not given'})`);
const launchBrowser = await browserOrSkip();
const { check, fail, finish } = checker('web-league');
const shot = shooter(artifacts, 'league-');

// The scratch server: its JSON line, then `stop fast` / `start` answered ok or failed.
const pg = spawn(scratch, [], { stdio: ['pipe', 'pipe', 'inherit'] });
const lines = createInterface({ input: pg.stdout });
const nextLine = () => new Promise((resolve) => {
  lines.once('line', resolve);
  pg.once('exit', () => resolve(null));
});
const hello = await nextLine();
if (!hello) skip(`no scratch PostgreSQL could start (exit ${pg.exitCode})`);
const server = JSON.parse(hello);
const pgCommand = async (command) => {
  pg.stdin.write(`${command}\n`);
  return (await nextLine()) === 'ok';
};

let serve = null;
const { browser, close } = await launchBrowser();
try {
  const filled = spawnSync(fill, [server.super_conninfo, 'league_web'], { encoding: 'utf8', timeout: 60000 });
  if (!check(filled.status === 0, `the club is filled: ${filled.stderr}`)) throw new Error('no club');
  const club = JSON.parse(filled.stdout);
  const cli = (...args) => {
    const r = spawnSync(vivaref, ['club', ...args, '--server', club.admin], { encoding: 'utf8', timeout: 30000 });
    if (r.status !== 0) throw new Error(`vivaref club ${args.join(' ')}: ${r.stderr}`);
    return JSON.parse(r.stdout);
  };

  serve = spawn(vivaref, ['club', 'serve', '--server', club.league, '--listen', '127.0.0.1:0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let said = '';
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`club serve printed no address:\n${said}`)), 20000);
    const look = (chunk) => {
      said += chunk.toString();
      const m = said.match(/listening on (http:\/\/127\.0\.0\.1:\d+)/);
      if (m) { clearTimeout(timer); resolve(m[1]); }
    };
    serve.stdout.on('data', look);
    serve.stderr.on('data', look);
    serve.on('exit', (code) => reject(new Error(`club serve exited (${code}):\n${said}`)));
  });

  // The standings as the page shows them: one object per row.
  const shownStandings = (page) => page.$$eval('#standings tr[data-member]', (rows) => rows.map((tr) => {
    const cell = (label) => tr.querySelector(`td[data-label="${label}"]`).textContent.trim();
    return { name: cell('Member'), games: Number(cell('Games')), wins: Number(cell('Wins')), wld: cell('W-L-D'), rating: Number(cell('Rating')) };
  }));
  const expectedRows = (rows) => rows.filter((r) => r.edition === 'classic').map((r) => ({
    name: r.name, games: r.games, wins: r.wins, wld: `${r.pairwise_wins}-${r.pairwise_losses}-${r.pairwise_draws}`, rating: Math.round(r.rating),
  }));
  const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

  const whole = expectedRows(cli('standings', '--json'));
  const north = expectedRows(cli('standings', '--json', '--table', 'north'));
  check(whole.length === 5 && !same(whole, north), `the league has 5 ranked members and north's standings differ (${whole.length})`);
  const history = cli('history', '--json', 'Ann');

  for (const [label, viewport] of [['phone', { width: 390, height: 844 }], ['laptop', { width: 1280, height: 800 }], ['tv', { width: 1920, height: 1080 }]]) {
    const errors = [];
    const phone = label === 'phone';
    const page = await newPage(browser, { viewport, ...(phone ? { isMobile: true, hasTouch: true } : {}) }, errors);
    await page.goto(`${url}/`);
    await page.waitForSelector('#standings tr[data-member]', { timeout: 15000 });
    const shown = await shownStandings(page);
    check(same(shown, whole), `${label}: the standings equal vivaref club standings --json (${JSON.stringify(shown)} vs ${JSON.stringify(whole)})`);
    if (phone) check(await pageWidth(page) <= 390, `phone: no sideways scroll on the standings (${await pageWidth(page)} px)`);
    await shot(page, `${label}-standings`);

    // The table shown until the new answer replaces it is marked stale.
    await page.$eval('#standings table', (t) => { t.dataset.stale = '1'; });
    await page.selectOption('#table', 'north');
    await page.waitForSelector('#standings table:not([data-stale])', { timeout: 15000 });
    check(same(await shownStandings(page), north), `${label}: north's standings equal vivaref club standings --table north`);

    await page.goto(`${url}/league.html?member=Ann`);
    await page.waitForSelector('#member tr[data-uid]', { timeout: 15000 });
    const uids = await page.$$eval('#member tr[data-uid]', (rows) => rows.map((tr) => tr.dataset.uid));
    check(same(uids, history.map((g) => g.uid)), `${label}: Ann's games equal vivaref club history (${uids.length} vs ${history.length})`);
    if (phone) check(await pageWidth(page) <= 390, `phone: no sideways scroll on a member's games (${await pageWidth(page)} px)`);
    await shot(page, `${label}-member`);

    await page.goto(`${url}/league.html`);
    await page.waitForSelector('#recent tr[data-uid] a', { timeout: 15000 });
    const first = await page.$eval('#recent tr[data-uid]', (tr) => tr.dataset.uid);
    check(first === club.uids[0], `${label}: the recent games start with the last pushed (${first})`);
    await page.click('#recent tr[data-uid] a');
    await page.waitForURL(/games\.html\?league=/);
    await page.waitForSelector('#step-text:not(:empty)', { timeout: 15000 });
    const step1 = await page.textContent('#step-text');
    check(/^Step 1 of \d+/.test(step1), `${label}: the review opens at step 1 (${step1})`);
    await page.click('#next');
    const step2 = await page.textContent('#step-text');
    check(/^Step 2 of \d+/.test(step2), `${label}: Next steps to step 2 (${step2})`);
    check(await page.isHidden('#analysis'), `${label}: no analysis panel for a league game`);
    check((await page.textContent('#summary')).includes('League game'), `${label}: the review says it is a league game`);
    if (phone) check(await pageWidth(page) <= 390, `phone: no sideways scroll on the review (${await pageWidth(page)} px)`);
    await shot(page, `${label}-review`);
    check(errors.length === 0, `${label}: no script errors (${errors.join('; ')})`);
    await page.context().close();
  }

  // The club's server stopped: a sentence on the page, then back.
  check(await pgCommand('stop fast'), 'the scratch PostgreSQL stops');
  const errors = [];
  const page = await newPage(browser, { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true }, errors);
  await page.goto(`${url}/league.html`);
  await page.waitForSelector('#error:not(.hidden)', { timeout: 15000 });
  const sentence = await page.textContent('#error');
  check(/the club[’']s league cannot be read now/i.test(sentence), `the club down: the page says so (${sentence})`);
  check(await pageWidth(page) <= 390, `phone: no sideways scroll with the club down (${await pageWidth(page)} px)`);
  await shot(page, 'club-down');
  check(await pgCommand('start'), 'the scratch PostgreSQL starts again');
  await new Promise((r) => setTimeout(r, 3500));  // past the reader's pause after a failure
  await page.reload();
  await page.waitForSelector('#standings tr[data-member]', { timeout: 15000 });
  check(await page.isHidden('#error'), 'the club back: the standings again, no error');
  check(errors.length === 0, `club down: no script errors (${errors.join('; ')})`);

  // A table's serve: with the league's keys the same routes (here a club
  // that refuses connections: a 503 at once, the table's status unharmed);
  // without them 404 no-league with how to enable it.
  for (const league of [true, false]) {
    const dir = mkdtempSync(join(tmpdir(), 'vivaref-league-serve-'));
    writeFileSync(join(dir, 'castle.ini'), `[castle]\nedition = classic\n\n[daemon]\nhardware = sim\nhost_token = league-test-host-token-0123456789abcdef\nstate_dir = ${dir}\n\n[club]\nserver = 127.0.0.1:1\ntable = t\npassword = x\n${league ? 'league_password = y\n' : ''}`);
    const table = spawn(vivaref, ['serve', '--config', join(dir, 'castle.ini'), '--hardware=sim', '--listen', '127.0.0.1:0', '--db', join(dir, 'games.sqlite')], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const tableUrl = await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`serve printed no address:\n${out}`)), 30000);
      const look = (chunk) => {
        out += chunk.toString();
        const m = out.match(/(127\.0\.0\.1):(\d+)/);
        if (m && Number(m[2]) > 0) { clearTimeout(timer); resolve(`http://127.0.0.1:${m[2]}`); }
      };
      table.stdout.on('data', look);
      table.stderr.on('data', look);
    });
    try {
      const get = async (path) => { const r = await fetch(`${tableUrl}${path}`); return { status: r.status, json: await r.json() }; };
      if (league) {
        const overview = await get('/api/league');
        check(overview.status === 200 && overview.json.reachable === false && /cannot be read now/.test(overview.json.message), `serve with the league's keys, its club refusing: reachable false with a sentence (${JSON.stringify(overview.json)})`);
        const standings = await get('/api/league/standings');
        check(standings.status === 503 && standings.json.error === 'club-unreachable', `serve: the standings are a 503 club-unreachable (${standings.status})`);
        check((await get('/api/status')).status === 200, 'serve: the table\'s status still answers');
      } else {
        const none = await get('/api/league/standings');
        check(none.status === 404 && none.json.error === 'no-league' && /league_password_file/.test(none.json.message), `serve without the league's keys: 404 no-league saying how (${JSON.stringify(none.json)})`);
      }
    } finally {
      table.kill('SIGTERM');
      await new Promise((r) => (table.exitCode !== null ? r() : table.once('exit', r)));
      rmSync(dir, { recursive: true, force: true });
    }
  }
} catch (e) {
  fail(e);
} finally {
  await close();
  if (serve && serve.exitCode === null) serve.kill('SIGTERM');
  pg.stdin.end();
  await new Promise((r) => (pg.exitCode !== null ? r() : pg.once('exit', r)));
}
finish();
