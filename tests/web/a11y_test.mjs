// Pages everyone at the table can use (issue 34): axe-core (npm, injected
// into each page from tests/web/node_modules) finds no violation on the
// status, host, player, games, review, league and simulated-board pages at
// a phone's size (390x844) and a TV's (1920x1080), before a game and during
// one (an election with a refused move). Then what axe cannot see, as a
// person who does not use a mouse or a screen would meet it:
// - a piece moved on sim.html from the keyboard (Tab to it, Enter, the
//   arrow keys to floor 4, Enter) and taken by the referee;
// - the castle's list (what a screen reader reads) names the piece out of
//   place: "Piero: on floor 1, should be on floor 0";
// - the announcement area says the election opening and a vote politely
//   and the refusal assertively (one polite and one assertive region, no
//   other: the connection banner speaks through them too);
// - no text under 24 px on the TV's status page, the castle's too; on a
//   phone the castle's labels about 12 px, the simulated board's pieces,
//   buttons and header links 44 px high;
// - "reduce motion" stops the blinking lamps;
// - the keyboard's focus ring is drawn on a button;
// - a restart of the referee is announced (the connection lost, then back).
//   node tests/web/a11y_test.mjs VIVAREF [ARTIFACT_DIR]
// Exit 0 pass, 1 fail, 77 skipped (no chromium, node_modules, axe-core or serve).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { api, serveMissing, startServe } from './daemon.mjs';
import { gameDriver } from './game_driver.mjs';
import { browserOrSkip, checker, kPhone, kWait, newPage, shooter, skip } from './harness.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
const [vivaref, artifactArg] = process.argv.slice(2);
const artifacts = artifactArg || join(here, 'artifacts');
const kAxe = join(here, 'node_modules', 'axe-core', 'axe.min.js');
const launchBrowser = await browserOrSkip();
if (!existsSync(kAxe)) skip('tests/web/node_modules lacks axe-core: run `npm ci --prefix tests/web` (.ci/dev deps does)');
if (serveMissing(vivaref)) skip(serveMissing(vivaref));
const axeSource = readFileSync(kAxe, 'utf8');
const { check, fail, finish } = checker('web-a11y');
const shot = shooter(artifacts, 'a11y-');
const errors = [];

const kSizes = [
  { name: 'phone', options: kPhone },
  { name: 'tv', options: { viewport: { width: 1920, height: 1080 } } },
];

// A finished classic game in the log before serve starts, for the review.
function importFinishedGame(db) {
  const record = spawnSync(vivaref, ['random-record', '--edition', 'classic', '--seats', '3', '--seed', '5'], { encoding: 'utf8', maxBuffer: 64 << 20 });
  if (record.status !== 0) throw new Error(`random-record: ${record.stderr}`);
  const trace = spawnSync(vivaref, ['trace', 'from-record', '-'], { input: record.stdout, encoding: 'utf8', maxBuffer: 64 << 20 });
  if (trace.status !== 0) throw new Error(`trace from-record: ${trace.stderr}`);
  const sim = spawnSync(vivaref, ['simulate', '--db', db, '--epoch', '1750000000000', '-'], { input: trace.stdout, encoding: 'utf8', maxBuffer: 64 << 20 });
  if (sim.status !== 0) throw new Error(`simulate: ${sim.stderr}`);
}

// What the page's live regions said, in order: [{live, text}] (a screen
// reader hears each change of a live region's text).
function listenToAnnouncements() {
  window.heard = [];
  const seen = new Map();
  new MutationObserver(() => {
    for (const node of document.querySelectorAll('[aria-live]')) {
      const text = node.textContent.replace(/[\u2066-\u2069]/g, '').trim(); // a name's isolation marks are not heard
      if (text && seen.get(node) !== text) window.heard.push({ live: node.getAttribute('aria-live'), id: node.id, text });
      seen.set(node, text);
    }
  }).observe(document, { subtree: true, childList: true, characterData: true });
}

// axe-core's violations on the page, as "rule: target (impact)" lines.
async function axeViolations(page) {
  // Evaluated through the DevTools protocol, which the pages' content
  // security policy does not govern (a <script> added to the page would be
  // an inline script, refused by it).
  if (!(await page.evaluate(() => Boolean(window.axe)))) await page.evaluate(axeSource);
  const result = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
  return result.violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}${v.nodes.length > 3 ? ` and ${v.nodes.length - 3} more` : ''}`);
}

// Text drawn under `min` px: HTML by its computed size, the castle's SVG
// text by its size times the drawing's scale. Hidden text is not counted.
async function smallText(page, min) {
  return page.evaluate((least) => {
    const out = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const el = node.parentElement;
      if (!el || !node.textContent.trim() || el.closest('.visually-hidden, script, style, title')) continue;
      const box = el.getBoundingClientRect();
      if (!box.width || !box.height || el.closest('.hidden')) continue;
      let size = parseFloat(getComputedStyle(el).fontSize);
      if (el instanceof SVGElement) {
        const m = el.getScreenCTM();
        size *= m ? Math.hypot(m.a, m.b) : 1;
      }
      if (size < least - 0.25) out.push(`"${node.textContent.trim().slice(0, 30)}" ${size.toFixed(1)} px (${el.id || el.getAttribute('class') || el.tagName})`);
    }
    return out;
  }, min);
}

const { browser, close } = await launchBrowser();
let server = null;
try {
  server = await startServe(vivaref, { edition: 'classic', prepare: importFinishedGame });
  const { url } = server;
  const token = server.hostToken;
  const { waitStatus, sim, play, followGuidance } = gameDriver(server);
  const games = (await api(url, '/api/games')).json;
  const finished = (games.games || games)[0];
  const reviewPath = `/games.html#${finished.id || finished.game || 1}`;

  // The games list, the review and the league are the same before and
  // during a game (but a row): audited once, during it.
  const pages = (player) => [
    ['status', '/', 'body[data-renders]'],
    ['host', `/host.html#${token}`, 'main'],
    ['sim', `/sim.html#${token}`, '#castle g.token'],
    ['tools', `/host-tools.html#${token}`, '#chance'],
    ['castle', `/castle.html#${token}`, 'article.reader'],
    ['setup', `/setup.html#${token}`, '#enrol-card:not(.hidden)'],
    ...(player ? [['player', player, '#private:not(.hidden)'], ['games', '/games.html', '#games table, #games *'],
      ['review', reviewPath, '#castle svg'], ['league', '/league.html', 'main']] : []),
  ];
  const audit = async (state, player) => {
    for (const size of kSizes) {
      const page = await newPage(browser, size.options, errors);
      for (const [name, path, ready] of pages(player)) {
        await page.goto(`${url}${path}`);
        await page.locator(ready).first().waitFor({ state: 'attached', timeout: kWait });
        await page.waitForTimeout(150);
        const found = await axeViolations(page);
        check(!found.length, `axe: ${name} at ${size.name} ${state}: no violation${found.length ? `:\n    ${found.join('\n    ')}` : ''}`);
      }
      await page.context().close();
    }
  };

  // --- before a game ----------------------------------------------------------
  await audit('before a game', null);

  // The status page at a laptop's size listens to its announcements through the game.
  const statusPage = await newPage(browser, { viewport: { width: 1280, height: 800 } }, errors);
  await statusPage.addInitScript(listenToAnnouncements);
  await statusPage.goto(`${url}/`);
  await statusPage.locator('body[data-renders]').waitFor({ state: 'attached', timeout: kWait });

  const started = await api(url, '/api/host/new-game', { method: 'POST', token,
    body: { setup: { edition: 'classic', seats: 3, first: 0, rounds: 2 }, players: ['Anna', 'Bruno', 'Chiara'] } });
  if (started.status !== 200) throw new Error(`new-game: ${started.text}`);
  await waitStatus((s) => s.view && s.view.phase === 'placement', 'the placement phase');

  // --- a piece moved from the keyboard on sim.html ------------------------------
  {
    const page = await newPage(browser, { viewport: { width: 1280, height: 800 } }, errors);
    await page.addInitScript(listenToAnnouncements);
    await page.goto(server.simLink);
    await page.locator('#castle g.token[data-slug="alighiero"][tabindex]').waitFor({ timeout: kWait });
    let tabs = 0;
    while (tabs < 80 && (await page.evaluate(() => document.activeElement && document.activeElement.dataset && document.activeElement.dataset.slug)) !== 'alighiero') {
      await page.keyboard.press('Tab');
      tabs += 1;
    }
    check(tabs < 80, `sim: Tab reaches Alighiero's piece (${tabs} presses)`);
    const name = await page.evaluate(() => document.activeElement.getAttribute('aria-label'));
    check(/Alighiero/.test(name || ''), `sim: the focused piece says who it is ("${name}")`);
    await page.keyboard.press('Enter');
    for (let i = 0; i < 5; ++i) await page.keyboard.press('ArrowUp'); // off the castle -> 0 -> 1 -> 2 -> 3 -> 4
    const target = await page.evaluate(() => document.querySelector('#castle rect.band.drop-target')?.dataset.place);
    check(target === '4', `sim: the arrow keys outline floor 4 (${target})`);
    const said = await page.evaluate(() => window.heard.map((h) => h.text));
    check(said.some((t) => /^Alighiero[^.]* picked up, off the castle\./i.test(t)) && said.at(-1) === 'floor 4', `sim: the pick-up and the place are announced (${JSON.stringify(said.slice(-6))})`);
    const simRegions = await page.evaluate(() => [...document.querySelectorAll('[aria-live], [role=alert], [role=status]')].map((n) => n.id));
    check(simRegions.join() === 'announce-polite,announce-urgent', `sim: the page's only live regions are its announcement area (${simRegions.join(', ')})`);
    await page.keyboard.press('Enter');
    await waitStatus((s) => s.board && s.board.expected.alighiero === '4' && !s.refusal, 'Alighiero put on floor 4 from the keyboard');
    check(true, 'sim: the referee took Alighiero on floor 4, moved from the keyboard');
    await page.waitForFunction(() => document.activeElement?.dataset?.slug === 'alighiero'
      && document.activeElement.dataset.place === '4', null, { timeout: kWait }).catch(() => {});
    const focus = await page.evaluate(() => `${document.activeElement?.dataset?.slug} on ${document.activeElement?.dataset?.place}`);
    check(focus === 'alighiero on 4', `sim: the focus stays on the piece once redrawn (${focus})`);
    // A move the referee refuses (a piece on the throne in placement) interrupts.
    await sim('put', { character: 'piero', place: '6' });
    await waitStatus((s) => s.refusal, 'the refusal of a piece on the throne');
    await page.waitForFunction(() => window.heard.some((h) => h.live === 'assertive'), null, { timeout: kWait }).catch(() => {});
    const urgent = await page.evaluate(() => window.heard.filter((h) => h.live === 'assertive').map((h) => h.text));
    check(urgent.length === 1 && /^Not allowed: /.test(urgent[0]), `sim: the referee's refusal is announced assertively (${JSON.stringify(urgent)})`);
    await sim('lift', { character: 'piero' });
    await waitStatus((s) => !s.refusal, 'the board put back');
    // The vote keys say whose they are.
    // (A name is isolated by U+2068/U+2069, which a screen reader does not read.)
    const keyName = (await page.locator('#stations button[data-station="1"][data-key="yes"]').getAttribute('aria-label')).replace(/[\u2066-\u2069]/g, '');
    check(keyName === 'Seat 2 (Bruno): Yes', `sim: seat 2's Yes key is named for its seat ("${keyName}")`);
    await page.context().close();
  }

  // --- up to round 1's election, a vote, a refused move ---------------------------
  const placements = [['beatrice', '4'], ['clemente', '4'], ['dario', '4'], ['ernesto', '3'], ['fiorello', '3'],
    ['gavino', '3'], ['irina', '3'], ['leonardo', '2'], ['merlino', '2'], ['natale', '2'], ['odessa', '1']];
  for (const [slug, place] of placements) await play(slug, place, `${slug} on ${place}`);
  await waitStatus((s) => s.guidance || (s.view && s.view.phase === 'ascent'), 'the end of placement');
  await followGuidance();
  await waitStatus((s) => !s.guidance && s.view.phase === 'ascent', 'the ascent');
  await play('alighiero', '5', 'Alighiero up');
  await play('alighiero', '6', 'Alighiero on the throne');
  await waitStatus((s) => s.election, 'the election');
  await sim('press', { station: 0, key: 'yes' });
  await waitStatus((s) => s.election && (s.election.voted || []).length === 1, "seat 1's vote counted");
  await sim('put', { character: 'piero', place: '1' });
  await waitStatus((s) => s.refusal && s.board.seen.piero && s.board.seen.piero.on === '1', 'the refusal of a move during the election');

  {
    await statusPage.locator('#refusal:not(.hidden)').waitFor({ timeout: kWait });
    await statusPage.waitForFunction(() => window.heard.some((h) => h.live === 'assertive'), null, { timeout: kWait }).catch(() => {});
    const heard = await statusPage.evaluate(() => window.heard);
    const regions = await statusPage.evaluate(() => [...document.querySelectorAll('[aria-live], [role=alert], [role=status]')]
      .map((n) => `${n.id}:${n.getAttribute('aria-live') || n.getAttribute('role')}`));
    check(regions.length === 2 && regions.includes('announce-polite:polite') && regions.includes('announce-urgent:assertive'),
      `status: exactly one polite and one assertive region (${regions.join(', ')})`);
    const opened = heard.find((h) => /^Election: Alighiero[^.:]* is on the throne\./.test(h.text));
    check(opened && opened.live === 'polite', `status: the election opening is announced politely (${JSON.stringify(opened)})`);
    const voted = heard.find((h) => /Anna has voted/.test(h.text));
    check(voted && voted.live === 'polite' && !/yes/i.test(voted.text), `status: the vote is announced politely, without its card (${JSON.stringify(voted)})`);
    const refused = heard.find((h) => /^Not allowed/.test(h.text));
    check(refused && refused.live === 'assertive', `status: the refusal is announced assertively (${JSON.stringify(refused)})`);
    const list = (await statusPage.locator('#castle .castle-text').textContent()).replace(/[\u2066-\u2069]/g, '');
    check(/Piero[^.:]*: on floor 1, should be on floor 0\./.test(list), `status: the castle's list names the piece out of place (${list})`);
    check(/throne: Alighiero[^.:(]* \(candidate, in an election\)\./i.test(list), 'status: the castle\'s list names the candidate on the throne');
    // The game's end, said calmly: the page's own decision on two statuses.
    const end = await statusPage.evaluate(async () => {
      const { statusAnnouncements } = await import('/js/announce.js');
      const before = { state: 'playing', players: [], standing: [] };
      const after = { ...before, state: 'finished', standing: [{ player: 1, name: 'Bruno', place: 1, score: 31, result: 31, winner: true }] };
      return statusAnnouncements(before, after);
    });
    check(end.polite.map((t) => t.replace(/[\u2066-\u2069]/g, '')).includes('The game is over: Bruno wins with 31 points.') && !end.urgent.length,
      `status: the winner is announced politely (${JSON.stringify(end)})`);
    await statusPage.context().close();
  }

  // --- during a game: axe again, with a player's page ---------------------------
  const players = (await api(url, '/api/host/players', { token })).json.players;
  await audit('during an election with a refusal', players[1].path);

  // --- the TV: nothing under 24 px; the phone's castle labels -------------------
  for (const size of kSizes) {
    const page = await newPage(browser, size.options, errors);
    await page.goto(`${url}/`);
    await page.locator('#refusal:not(.hidden)').waitFor({ timeout: kWait });
    await page.waitForTimeout(200);
    if (size.name === 'tv') {
      const small = await smallText(page, 24);
      check(!small.length, `TV status page: no text under 24 px${small.length ? `:\n    ${small.slice(0, 15).join('\n    ')}` : ''}`);
    } else {
      const small = await page.evaluate(() => [...document.querySelectorAll('#castle text.band-label')].map((t) => parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a));
      const least = Math.min(...small);
      check(least >= 11.5, `phone status page: the castle's labels at least 12 px (${least.toFixed(1)} px)`);
    }
    await shot(page, `status-${size.name}`, { fullPage: false });
    await page.context().close();
  }
  {
    // The simulated board on a phone: its pieces are finger-sized targets.
    const page = await newPage(browser, kPhone, errors);
    await page.goto(server.simLink);
    await page.locator('#castle g.token[tabindex]').first().waitFor({ timeout: kWait });
    await page.waitForTimeout(200);
    const boxes = await page.evaluate(() => [...document.querySelectorAll('#castle g.token[tabindex] rect')].map((r) => r.getBoundingClientRect()));
    const least = boxes.reduce((m, b) => ({ w: Math.min(m.w, b.width), h: Math.min(m.h, b.height) }), { w: 1e9, h: 1e9 });
    check(least.w >= 44 && least.h >= 44, `phone sim: every piece at least 44x44 px (smallest ${least.w.toFixed(0)}x${least.h.toFixed(0)})`);
    const short = await page.evaluate(() => [...document.querySelectorAll('button, select, header a')]
      .filter((n) => n.getClientRects().length && n.getBoundingClientRect().height < 44)
      .map((n) => `${n.textContent.trim().slice(0, 20)} ${n.getBoundingClientRect().height.toFixed(0)} px`));
    check(!short.length, `phone sim: every button, field and header link at least 44 px high${short.length ? `: ${short.join(', ')}` : ''}`);
    await shot(page, 'sim-phone', { fullPage: false });
    await page.context().close();
  }

  // --- reduced motion and the focus ring ------------------------------------------
  {
    const page = await newPage(browser, { viewport: { width: 1280, height: 800 } }, errors);
    await page.goto(server.simLink);
    const blink = page.locator('#castle g.led.blink circle').first();
    await blink.waitFor({ timeout: kWait });
    const moving = await blink.evaluate((c) => getComputedStyle(c).animationName);
    await page.emulateMedia({ reducedMotion: 'reduce' });
    const still = await blink.evaluate((c) => getComputedStyle(c).animationName);
    const lamp = await page.locator('#leds .lamp.blink').first().evaluate((c) => getComputedStyle(c).animationName).catch(() => 'no lamp');
    check(moving !== 'none' && still === 'none' && lamp === 'none', `reduced motion stops the blinking (castle lamp ${moving} -> ${still}, LED list ${lamp})`);
    // The focus ring on a button, reached by the keyboard.
    await page.goto(`${url}/host.html#${token}`);
    await page.locator('button:visible').first().waitFor({ timeout: kWait });
    let ring = null;
    for (let i = 0; i < 40 && !ring; ++i) {
      await page.keyboard.press('Tab');
      ring = await page.evaluate(() => {
        const el = document.activeElement;
        if (!el || el.tagName !== 'BUTTON') return null;
        const s = getComputedStyle(el);
        return { width: parseFloat(s.outlineWidth), style: s.outlineStyle, colour: s.outlineColor, border: s.borderTopColor, offset: parseFloat(s.outlineOffset), text: el.textContent.trim().slice(0, 30) };
      });
    }
    check(ring && ring.width >= 2 && ring.style !== 'none' && ring.colour !== ring.border && ring.offset > 0,
      `a focused button shows a ring set off from its border (${JSON.stringify(ring)})`);
    await page.context().close();
  }
  {
    // The daemon restarts: the lost connection and its return are said calmly.
    const page = await newPage(browser, { viewport: { width: 1280, height: 800 } }, errors);
    await page.addInitScript(listenToAnnouncements);
    await page.goto(`${url}/`);
    await page.locator('body[data-renders]').waitFor({ state: 'attached', timeout: kWait });
    await server.restart();
    await page.waitForFunction(() => window.heard.some((h) => /again/.test(h.text)), null, { timeout: kWait }).catch(() => {});
    const heard = await page.evaluate(() => window.heard.filter((h) => /referee/.test(h.text)));
    check(heard.length === 2 && /lost/.test(heard[0].text) && heard[1].text === 'Connected to the referee again.' && heard.every((h) => h.live === 'polite'),
      `status: a restart of the referee is announced, lost then back (${JSON.stringify(heard)})`);
    await page.context().close();
  }
  check(!errors.length, `no script error: ${errors.join(' | ')}`);
} catch (e) {
  fail(e);
} finally {
  await close();
  if (server) await server.stop();
}
finish();
