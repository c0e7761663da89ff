// The analysis of a finished game on the review page (issue 15, item 3),
// against the real `vivaref serve --hardware=sim`:
//   node tests/web/analysis_test.mjs VIVAREF [ARTIFACT_DIR]
// Exit 0 pass, 1 fail, 77 skipped (no chromium, node_modules or serve).
//
// The story: the example record tests/records/classic-4.jsonl (a classic
// 4-seat game, 164 decisions) is turned into the table's trace and played
// into a fresh game log by `vivaref simulate` (the import), and serve starts
// on that log with its background analysis at the default share of a core.
// A new game is started and left in progress: its analysis answers 409 with
// a reason and nothing else, its review shows no panel, and it is never
// analysed. Game 1 is analysed in the background (its answer says
// "analysing" with a growing share on the way; the time it took is
// printed). Then the review of game 1 at 390x844, 1280x800 and 1920x1080:
// the "Analysis" panel's chart has one line per player, each its own
// colour, the legend names the four players, the three swings are told in
// words ("Step N: ... X's chance to win went from a% to b%", percentages as
// the browser's Intl writes them), each choice the search player would have
// made otherwise is told with its chance to win and its gain in percentage
// points, a swing's link ("Step N") shows step N on the timeline with the
// castle in view, and nothing spills over the screen's width. Last,
// `vivaref analyse 1` prints the analysis serve kept, as it is, and its
// text numbers the swings by the same steps.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { api, serveMissing, startServe } from './daemon.mjs';
import { browserOrSkip, checker, newPage, shooter, skip } from './harness.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
const [vivaref, artifactArg] = process.argv.slice(2);
const artifacts = artifactArg || join(here, 'artifacts');
const missing = serveMissing(vivaref);
if (missing) skip(missing);
const launchBrowser = await browserOrSkip();
const { check, fail, finish } = checker('web-analysis', { all: true });
const shot = shooter(artifacts, 'analysis-');
const errors = [];
const record = join(here, '..', 'records', 'classic-4.jsonl');

const kSizes = [
  { name: 'phone', options: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true } },
  { name: 'laptop', options: { viewport: { width: 1280, height: 800 } } },
  { name: 'tv', options: { viewport: { width: 1920, height: 1080 } } },
];

// The example record played into `db` by the simulated table: a finished game 1.
function importRecord(db) {
  const trace = spawnSync(vivaref, ['trace', 'from-record', record], { encoding: 'utf8', maxBuffer: 64 << 20 });
  if (trace.status !== 0) throw new Error(`trace from-record: ${trace.stderr}`);
  const sim = spawnSync(vivaref, ['simulate', '--db', db, '--epoch', '1750000000000', '-'], { input: trace.stdout, encoding: 'utf8', maxBuffer: 64 << 20 });
  if (sim.status !== 0) throw new Error(`simulate: ${sim.stderr}`);
  const summary = JSON.parse(sim.stdout);
  if (!summary.games_finished && !(summary.finished && summary.finished.length)) console.log(`simulate said: ${sim.stdout.slice(0, 400)}`);
}

// The CPU time serve has used so far, in seconds (utime + stime, /proc/PID/stat).
function cpuSeconds(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;  // clock ticks: 100 a second on Linux
}

const { browser, close } = await launchBrowser();
let server = null;
try {
  let dbFile = null;
  server = await startServe(vivaref, { edition: 'classic', prepare: (db) => { dbFile = db; importRecord(db); } });
  const started = Date.now();
  const cpuAtStart = cpuSeconds(server.pid);
  const { url } = server;
  const token = server.hostToken;
  const games = (await api(url, '/api/games')).json;
  check(games.length === 1 && games[0].status === 'complete', `the imported game is logged and complete (${JSON.stringify(games.map((g) => g.status))})`);

  // A game in progress: no analysis, and no word of it.
  const started2 = await api(url, '/api/host/new-game', { method: 'POST', token, body: { setup: { edition: 'classic', seats: 4 }, players: ['Anna', 'Bruno', 'Chiara', 'Dario'] } });
  check(started2.status === 200, `a second game starts (${started2.status})`);
  const inProgress = await api(url, '/api/games/2/analysis');
  check(inProgress.status === 409 && inProgress.json && inProgress.json.error === 'game-in-progress', `a game in progress answers 409 game-in-progress (${inProgress.status} ${inProgress.text})`);
  check(inProgress.json && Object.keys(inProgress.json).sort().join(',') === 'error,message' && /still being played/.test(inProgress.json.message),
    `... with its reason and nothing else: ${inProgress.text}`);
  check((await api(url, '/api/games/9/analysis')).status === 404, 'no such game: 404');

  // Game 1 analysed in the background.
  const seen = new Set();
  let progress = [];
  let answer = null;
  const deadline = Date.now() + 180000;
  while (Date.now() < deadline) {
    answer = await api(url, '/api/games/1/analysis');
    if (answer.status !== 200) break;
    seen.add(answer.json.status);
    if (answer.json.status === 'analysing') progress.push(answer.json.progress);
    if (answer.json.status === 'analysed') break;
    await new Promise((r) => setTimeout(r, 250));
  }
  const took = (Date.now() - started) / 1000;
  const cpu = cpuSeconds(server.pid) - cpuAtStart;
  check(answer && answer.status === 200 && answer.json.status === 'analysed', `game 1 is analysed in the background in ${took.toFixed(1)} s (statuses seen: ${[...seen].join(', ')})`);
  check(seen.has('analysing') && progress.length > 0 && progress.every((p, i) => p >= 0 && p <= 1 && (i === 0 || p >= progress[i - 1])),
    `while under way it says "analysing" with a share that grows (${progress.slice(0, 3).map((p) => p.toFixed(2)).join(', ')} ... ${progress.length ? progress[progress.length - 1].toFixed(2) : ''})`);
  // The whole daemon (its table loop on the simulated castle, the answers
  // to this test, the analysis) at most the analysis's 25 % and a little more.
  check(cpu / took <= 0.35, `serve used ${cpu.toFixed(1)} s of CPU over those ${took.toFixed(1)} s (${(100 * cpu / took).toFixed(0)} % of a core; the analysis's share is 25 %)`);
  const analysis = answer.json;
  check(analysis.players.length === 4 && analysis.decisions.length === 164 && analysis.swings.length === 3, `the analysis: 4 players, 164 decisions, 3 swings (${analysis.players}, ${analysis.decisions.length}, ${analysis.swings})`);
  const again = await api(url, '/api/games/2/analysis');
  check(again.status === 409, `the game in progress is still not analysed (${again.status})`);
  const log = server.log();
  check(/background analysis: game 1 analysed/.test(log) && !/game 2 analysed/.test(log), 'the journal says game 1 was analysed, and no word of game 2');

  const worth = analysis.settings.worth_telling;
  const toldCount = analysis.decisions.filter((d) => d.review && !d.review.bot && d.review.gain >= worth).length;
  for (const size of kSizes) {
    const page = await newPage(browser, size.options, errors);
    await page.goto(`${url}/games.html#1`);
    await page.waitForSelector('#analysis[data-status="analysed"] svg.chance-chart', { timeout: 15000 });
    const seenPage = await page.evaluate(() => {
      const card = document.getElementById('analysis');
      const box = (el) => { const r = el.getBoundingClientRect(); return { left: r.left, right: r.right, width: r.width, height: r.height }; };
      const lines = [...card.querySelectorAll('polyline.chance-line')];
      return {
        innerWidth,
        scrollWidth: document.scrollingElement.scrollWidth,
        heading: card.querySelector('h2').textContent,
        card: box(card),
        chart: box(card.querySelector('svg.chance-chart')),
        lines: lines.map((l) => ({ player: l.dataset.player, stroke: l.getAttribute('stroke'), points: l.getAttribute('points').split(' ').length, width: box(l).width })),
        legend: [...card.querySelectorAll('.chance-legend li')].map((li) => li.textContent.trim()),
        swings: [...card.querySelectorAll('ol.swings li')].map((li) => li.textContent.trim()),
        preferences: [...card.querySelectorAll('.preferences li')].map((li) => li.textContent.trim()),
        intro: card.querySelector('.preferences') ? card.querySelector('.preferences').previousElementSibling.textContent.trim() : '',
        widest: Math.max(...[...card.querySelectorAll('*')].map((el) => el.getBoundingClientRect().right)),
      };
    });
    const tag = `${size.name} ${seenPage.innerWidth}px`;
    check(seenPage.heading === 'Analysis', `${tag}: the panel is "Analysis"`);
    check(seenPage.lines.length === 4 && new Set(seenPage.lines.map((l) => l.stroke)).size === 4 && seenPage.lines.every((l) => l.points === 165 && l.width > 0.5 * seenPage.chart.width),
      `${tag}: one line per player across the chart, each its own colour (${seenPage.lines.map((l) => `${l.stroke}:${l.points}`).join(' ')})`);
    check(JSON.stringify(seenPage.legend) === JSON.stringify(analysis.players), `${tag}: the legend names the players (${seenPage.legend.join(', ')})`);
    // Numbered as the timeline numbers its steps: decision k is step k + 1.
    check(seenPage.swings.length === 3 && seenPage.swings.every((t, k) => t.startsWith(`Step ${analysis.swings[k] + 1}: `)
      && /^Step \d+: .+\. .+['’]s chance to win went from \d+% to \d+%\.$/.test(t)),
      `${tag}: the three swings in words, by step: ${seenPage.swings[0]}`);
    check(seenPage.preferences.length === toldCount && seenPage.preferences.every((t) => /^Step \d+: .+ \(chance to win \d+%\)\. The search player would have chosen: .+ \(chance to win \d+%, \+\d+ percentage points?\)\.$/.test(t)),
      `${tag}: ${toldCount} choices where the search player preferred another, with its chance and the gain in percentage points: ${seenPage.preferences[0] || '(none)'}`);
    check(seenPage.intro.endsWith(`raised their chance to win by at least ${Math.round(100 * worth)} percentage points:`), `${tag}: the threshold in percentage points: ${seenPage.intro}`);
    check(seenPage.scrollWidth <= seenPage.innerWidth && seenPage.card.right <= seenPage.innerWidth + 0.5 && seenPage.chart.right <= seenPage.card.right && seenPage.widest <= seenPage.innerWidth + 0.5,
      `${tag}: nothing spills sideways (page ${seenPage.scrollWidth}, card right ${seenPage.card.right.toFixed(0)}, chart ${seenPage.chart.width.toFixed(0)}x${seenPage.chart.height.toFixed(0)})`);
    check(seenPage.chart.height >= 100, `${tag}: the chart is tall enough to read (${seenPage.chart.height.toFixed(0)} px)`);
    await page.evaluate(() => document.getElementById('analysis').scrollIntoView({ block: 'start' }));
    await shot(page, `${size.name}`, { fullPage: false });
    // A swing's link names the step it shows, and brings the castle into view.
    const first = analysis.swings[0];
    const link = page.locator(`#analysis ol.swings a[data-goto="${first}"]`);
    const named = (await link.textContent()).trim();
    await link.click();
    await page.waitForFunction(() => document.body.dataset.step !== '0');
    const stepText = await page.textContent('#step-text');
    const shown = stepText.match(/^Step (\d+) of 165/);
    check(shown && named === `Step ${shown[1]}`, `${tag}: the swing's link "${named}" shows that step: ${stepText.slice(0, 80)}`);
    await page.waitForTimeout(200);
    const view = await page.evaluate(() => {
      const castle = document.querySelector('#castle svg').getBoundingClientRect();
      const controls = document.getElementById('controls').getBoundingClientRect();
      return { top: castle.top, bottom: castle.bottom, height: castle.height, controlsTop: controls.top, innerHeight };
    });
    // In view: the whole drawing between the top of the screen and the controls pinned at its bottom.
    check(view.top >= -1 && view.bottom <= view.controlsTop + 1 && view.height >= 0.5 * view.innerHeight,
      `${tag}: after the click the castle is in view, whole (${view.top.toFixed(0)} to ${view.bottom.toFixed(0)} px, the controls from ${view.controlsTop.toFixed(0)})`);
    await shot(page, `${size.name}-step`, { fullPage: false });
    await page.context().close();
  }

  // The game in progress: its review has no analysis panel.
  const page = await newPage(browser, kSizes[1].options, errors);
  await page.goto(`${url}/games.html#2`);
  await page.waitForSelector('#summary h2');
  await page.waitForTimeout(500);
  check(await page.locator('#analysis').isHidden(), 'the review of the game in progress shows no analysis');
  await page.context().close();

  // The command prints what serve kept.
  await server.halt();
  const cli = spawnSync(vivaref, ['analyse', '1', '--db', dbFile, '--json'], { encoding: 'utf8', maxBuffer: 64 << 20 });
  const printed = cli.status === 0 ? JSON.parse(cli.stdout) : null;
  check(printed && JSON.stringify(printed.decisions) === JSON.stringify(analysis.decisions) && JSON.stringify(printed.swings) === JSON.stringify(analysis.swings),
    `'vivaref analyse 1' prints the analysis serve kept (exit ${cli.status}${cli.stderr ? `: ${cli.stderr.trim()}` : ''})`);
  const text = spawnSync(vivaref, ['analyse', '1', '--db', dbFile, '--lang', 'en'], { encoding: 'utf8', maxBuffer: 64 << 20 });
  const told = [...text.stdout.matchAll(/^ {2}Step (\d+): .+; a chance to win moved by/gm)].map((m) => Number(m[1]));
  check(text.status === 0 && JSON.stringify(told) === JSON.stringify(analysis.swings.map((s) => s + 1)),
    `'vivaref analyse 1' numbers the swings by the page's steps (${told.join(', ')})`);
  const refused = spawnSync(vivaref, ['analyse', '2', '--db', dbFile], { encoding: 'utf8' });
  check(refused.status === 1 && /still being played/.test(refused.stderr), `'vivaref analyse 2' refuses the game in progress (${refused.status}: ${refused.stderr.trim()})`);
} catch (e) {
  fail(e);
  if (server) console.log(server.log().slice(-3000));
} finally {
  check(errors.length === 0, `no script errors in the pages (${errors.join('; ')})`);
  await close();
  if (server) await server.stop();
}
finish();
