// A screen that fits: the status page, the games list, the review and the
// simulated board at a phone's, a laptop's and a TV's size, measured with
// the elements' boxes in Debian's chromium (playwright-core) against the
// real `vivaref serve --hardware=sim`.
//   node tests/web/layout_test.mjs VIVAREF [ARTIFACT_DIR]
// Exit 0 pass, 1 fail, 77 skipped (no chromium, node_modules or serve).
//
// The story: a 3-seat classic game of two rounds is played through the
// simulated castle's API up to round 1's election; one seat votes, then a
// piece is moved from floor 0 to floor 1 during the election (refused). At
// 390x844, 1280x800 and 1920x1080 the status page must show, with no page
// scroll, the throne and every floor, the misplaced piece on floor 1, who
// must act, the seats still to vote and the refusal; on the phone the seats
// to vote and the refusal come above the castle. The piece is put back, the
// last votes crown the King (round 1's crowning vote): at each size the
// coronation's moment names the King, who crowned him, each player's round
// points and total, before the clearing's instructions; no raw state word,
// no League in the menu (no league here); a French phone's moment in French,
// held a few seconds when the first piece comes off at once; the same status
// with a second coronation and a bot seat (fixture server): both Kings
// named, the bot marked. Once the first piece is off, the
// clearing is one line with the count left and the castle keeps at least
// 40 % of the height. The game is abandoned in round 2 and reviewed: that vote's step says round 1, no two
// cards share a title, and the games list fits a phone's width. The
// simulated board at 1280x800: a piece is dragged from the tray to the
// throne; its vote buttons stay the same elements across updates; on a
// small phone (360x480) a piece held at the top edge scrolls the page
// until the throne shows, and lands there. Then a 2024 game: the WCs and
// dungeons fit at each size too.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { api, serveMissing, startServe } from './daemon.mjs';
import { startFixtureServer } from './fixture_server.mjs';
import { browserOrSkip, checker, kWait, newPage, shooter, skip } from './harness.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
const [vivaref, artifactArg] = process.argv.slice(2);
const artifacts = artifactArg || join(here, 'artifacts');
const launchBrowser = await browserOrSkip();
const missing = serveMissing(vivaref);
if (missing) skip(missing);
const { check, fail, finish } = checker('web-layout');
const shot = shooter(artifacts, 'layout-');
// VIVAREF_README_SHOTS=1: also save the README's pictures of the coronation
// moment (tests/web/screenshots/coronation-tv.png, coronation-phone.png).
const kReadmeShots = Boolean(process.env.VIVAREF_README_SHOTS);
const kReadmeDir = join(here, 'screenshots');

const kSizes = [
  { name: 'phone', options: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true } },
  { name: 'laptop', options: { viewport: { width: 1280, height: 800 } } },
  { name: 'tv', options: { viewport: { width: 1920, height: 1080 } } },
];

const server = await startServe(vivaref, { edition: 'classic' });
const { url } = server;
const token = server.hostToken;
const hostApi = (path, body) => api(url, path, { method: 'POST', body, token });
const sim = (path, body) => api(url, `/api/sim/${path}`, { method: 'POST', body, token });

async function status() {
  return (await api(url, '/api/status')).json;
}
async function waitStatus(pred, what, timeout = kWait) {
  const end = Date.now() + timeout;
  let last = null;
  while (Date.now() < end) {
    last = await status();
    if (pred(last)) return last;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}; last status: ${JSON.stringify(last).slice(0, 600)}`);
}
async function play(slug, place) {
  const r = await sim('put', { character: slug, place });
  if (r.status !== 200) throw new Error(`sim/put ${slug} ${place}: ${r.status} ${r.text}`);
  await waitStatus((s) => s.board && s.board.expected[slug] === place && !s.refusal, `${slug} on ${place} accepted`);
}
async function newGame(setup) {
  const r = await hostApi('/api/host/new-game', { setup, players: ['Anna', 'Bruno', 'Chiara', 'Dario'].slice(0, setup.seats) });
  if (r.status !== 200) throw new Error(`new-game: ${r.status} ${r.text}`);
}

// The boxes of what the page must show, measured in the page.
async function measure(page, selectors) {
  return page.evaluate((sels) => {
    const out = { innerWidth, innerHeight, scrollHeight: document.scrollingElement.scrollHeight, boxes: {} };
    for (const [name, sel] of Object.entries(sels)) {
      out.boxes[name] = [...document.querySelectorAll(sel)].map((el) => {
        const r = el.getBoundingClientRect();
        return { top: r.top, bottom: r.bottom, left: r.left, right: r.right, height: r.height };
      });
    }
    return out;
  }, selectors);
}
// An element's box once the simulated board has drawn the castle's state
// (the board is redrawn as the status and the castle's state arrive).
async function boxOf(page, locator) {
  await page.waitForFunction(() => document.body.dataset.simNow, null, { timeout: kWait });
  for (let attempt = 0; attempt < 20; ++attempt) {
    const box = await locator.boundingBox().catch(() => null);
    if (box) return box;
    await page.waitForTimeout(100);
  }
  return null;
}
const inView = (m, b) => b.top >= -0.5 && b.left >= -0.5 && b.bottom <= m.innerHeight + 0.5 && b.right <= m.innerWidth + 0.5 && b.height > 0;
const fmt = (b) => b ? `${Math.round(b.top)}..${Math.round(b.bottom)}` : 'none';

// Every selector's elements present and within the screen, with no page scroll.
function checkFits(label, m, names) {
  check(m.scrollHeight <= m.innerHeight, `${label}: the page does not scroll (scrollHeight ${m.scrollHeight}, height ${m.innerHeight})`);
  for (const name of names) {
    const boxes = m.boxes[name];
    check(boxes.length > 0 && boxes.every((b) => inView(m, b)), `${label}: ${name} within the screen (${boxes.map(fmt).join(', ') || 'not drawn'})`);
  }
}

const kFloors = ['0', '1', '2', '3', '4', '5', '6'];
const castleSelectors = Object.fromEntries(kFloors.map((f) => [f === '6' ? 'the throne' : `floor ${f}`, `#castle rect.band[data-place="${f}"]`]));

const { browser, close } = await launchBrowser();
const errors = [];
try {
  // --- round 1, up to an election with a refusal ---------------------------------
  await newGame({ edition: 'classic', seats: 3, first: 0, rounds: 2 });
  await waitStatus((s) => s.view && s.view.phase === 'placement', 'the placement phase');
  const placements = [
    ['alighiero', '4'], ['beatrice', '4'], ['clemente', '4'], ['dario', '4'], ['ernesto', '3'], ['fiorello', '3'],
    ['gavino', '3'], ['irina', '3'], ['leonardo', '2'], ['merlino', '2'], ['natale', '2'], ['odessa', '1'],
  ];
  for (const [slug, place] of placements) await play(slug, place);
  const guided = await waitStatus((s) => s.guidance || (s.view && s.view.phase === 'ascent'), 'the end of placement');
  if (guided.guidance) {
    await sim('put', { character: 'piero', place: '0' });
    await waitStatus((s) => !s.guidance && s.view.phase === 'ascent', 'the board set for the ascent');
  }
  await play('alighiero', '5');
  await play('alighiero', '6');
  await waitStatus((s) => s.election, 'the election');
  await sim('press', { station: 0, key: 'yes' });
  await waitStatus((s) => s.election && (s.election.voted || []).length === 1, "seat 1's vote counted");
  // Piero from floor 0 to floor 1 during the election: refused; misplaced low on the castle.
  await sim('put', { character: 'piero', place: '1' });
  await waitStatus((s) => s.refusal && s.board.seen.piero && s.board.seen.piero.on === '1', 'the refusal of a move during the election');

  for (const size of kSizes) {
    const page = await newPage(browser, size.options, errors);
    await page.goto(`${url}/`);
    await page.locator('#refusal:not(.hidden)').waitFor({ timeout: kWait });
    await page.locator('#voters li.to-vote').nth(1).waitFor({ timeout: kWait });
    await page.locator('#castle g.token[data-slug="piero"][data-place="1"][data-state="moved"]').waitFor({ timeout: kWait });
    await page.waitForTimeout(200); // the last layout
    const m = await measure(page, {
      ...castleSelectors,
      'the misplaced piece on floor 1': '#castle g.token[data-slug="piero"][data-place="1"]',
      'who must act': '#waiting',
      'the seats still to vote': '#voters li.to-vote',
      'the refusal': '#refusal',
      'the castle picture': '#castle svg',
      'the now column': '.status-now',
    });
    const label = `status page at ${m.innerWidth}x${m.innerHeight}`;
    checkFits(label, m, [...Object.keys(castleSelectors), 'the misplaced piece on floor 1', 'who must act', 'the seats still to vote', 'the refusal']);
    check(m.boxes['the seats still to vote'].length === 2, `${label}: two seats still to vote (${m.boxes['the seats still to vote'].length})`);
    // Not hidden under the column's own scroll either: the whole refusal shows.
    const column = m.boxes['the now column'][0];
    const refusal = m.boxes['the refusal'][0];
    check(size.name === 'phone' || refusal.bottom <= column.bottom + 0.5, `${label}: the whole refusal shows in its column (refusal ends ${Math.round(refusal.bottom)}, the column ${Math.round(column.bottom)})`);
    const floor0 = m.boxes['floor 0'][0];
    const throne = m.boxes['the throne'][0];
    check(floor0 && throne && floor0.bottom - throne.top >= 0.3 * m.innerHeight,
      `${label}: the castle is drawn large (throne to floor 0: ${floor0 && throne ? Math.round(floor0.bottom - throne.top) : 0} px)`);
    if (size.name === 'phone') {
      const castleTop = m.boxes['the throne'][0].top;
      const lowest = (name) => Math.max(...m.boxes[name].map((b) => b.bottom));
      check(lowest('who must act') <= m.boxes['the seats still to vote'][0].top, 'phone: who must act comes first');
      check(lowest('the seats still to vote') <= m.boxes['the refusal'][0].top, 'phone: the seats still to vote come before the refusal');
      check(lowest('the refusal') <= castleTop, `phone: the refusal comes above the castle (refusal ends ${Math.round(lowest('the refusal'))}, throne at ${Math.round(castleTop)})`);
      const wide = await page.evaluate(() => document.documentElement.scrollWidth);
      check(wide <= 390, `phone: no sideways scrolling (${wide})`);
    }
    await shot(page, `status-${size.name}`, { fullPage: false });
    await page.context().close();
  }

  // --- the simulated board at laptop size: tray to throne by a drag ------------
  // Put back Piero; the last votes crown Alighiero: round 1's crowning vote.
  await sim('put', { character: 'piero', place: '0' });
  await waitStatus((s) => !s.refusal, 'the board put back');
  await sim('press', { station: 1, key: 'yes' });
  await sim('press', { station: 2, key: 'yes' });
  // The round is over: the King's moment, then the castle cleared for round 2.
  const crowned = await waitStatus((s) => !s.election && s.view && s.view.round === 2 && Object.values(s.board.expected).every((p) => p === null), 'round 2 dealt', 20000);
  const scored = crowned.view.finished_rounds[0];
  const crownSeat = crowned.score_breakdown[0].coronations[0].crown;
  const crownName = crowned.players.find((p) => p.seat === crownSeat).name;
  const onCastle = Object.entries(crowned.board.seen).filter(([, seen]) => seen && seen.on !== undefined).map(([slug]) => slug);
  // The coronation's moment, before any piece is taken off, at each size: who
  // is crowned, the round's points and the standings, within the screen, the
  // clearing's instructions not yet shown.
  for (const size of kSizes) {
    const page = await newPage(browser, size.options, errors);
    await page.goto(`${url}/`);
    const moment = page.locator('#coronation:not(.hidden)');
    await moment.waitFor({ timeout: kWait });
    await page.waitForTimeout(300);
    const label = `coronation moment at ${size.name}`;
    const text = (await moment.innerText()).replace(/\s+/g, ' ');
    check(/Long live the King! Alighiero\b.* is crowned/.test(text) && text.includes(`Brought to the throne by ${crownName}`), `${label}: names the King and who crowned him: ${text.slice(0, 120)}`);
    for (const p of crowned.players) {
      const row = (await moment.locator(`tr[data-player="${p.player}"]`).innerText()).replace(/\s+/g, ' ');
      const points = scored.scores[p.player];
      check(row.includes(p.name) && row.includes(points > 0 ? `+${points}` : String(points)) && row.includes(String(crowned.view.totals[p.player])),
        `${label}: ${p.name}'s round points (${points}) and total (${crowned.view.totals[p.player]}): "${row}"`);
    }
    check(await page.locator('#guidance').isHidden(), `${label}: the clearing waits until the moment has been read`);
    const m = await measure(page, { ...castleSelectors, 'the coronation moment': '#coronation' });
    checkFits(label, m, Object.keys(m.boxes));
    // Words a table uses: no raw state word, no menu entry that does not apply.
    const words = await page.locator('body').innerText();
    check(!/\b(NO-GAME|FINISHED|PAUSED|ABANDONED|PLAYING|no-game)\b/.test(words), `${label}: no raw state word on the page`);
    check(await page.locator('header nav a[href="/league.html"]').count() === 0, `${label}: no League in the menu of a table without a league`);
    await shot(page, `status-coronation-${size.name}`, { fullPage: false });
    if (kReadmeShots && size.name !== 'laptop') {
      // The README's pictures: on the TV the castle and the moment beside it
      // (from the castle's left edge to the screen's right, down to floor 0),
      // a phone's whole screen.
      let clip;
      if (size.name === 'tv') {
        const castle = await page.locator('#castle svg rect.band[data-place="0"]').boundingBox();
        const left = Math.max(0, Math.round(castle.x) - 24);
        clip = { x: left, y: 0, width: 1920 - left, height: Math.min(1080, Math.round(castle.y + castle.height) + 16) };
      }
      await page.screenshot({ path: join(kReadmeDir, `coronation-${size.name}.png`), clip });
    }
    await page.context().close();
  }
  {
    // The moment in the table's words: a phone that chose French.
    const page = await newPage(browser, kSizes[0].options, errors);
    await page.context().addInitScript(() => localStorage.setItem('vivaref.language', 'fr'));
    await page.goto(`${url}/`);
    const moment = page.locator('#coronation:not(.hidden)');
    await moment.waitFor({ timeout: kWait });
    const shownAt = Date.now();
    const text = (await moment.innerText()).replace(/\s+/g, ' ');
    check(/Vive le Roi ! Alighiero\b.* est couronné\./.test(text) && text.includes('Manche 1') && !/Long live|Round|Brought/.test(text),
      `coronation moment in French: ${text.slice(0, 140)}`);
    await shot(page, 'status-coronation-phone-fr', { fullPage: false });
    // A quick hand takes the first piece off at once: the moment is held a
    // few seconds all the same (read before it goes), then the clearing's line.
    await sim('lift', { character: onCastle[0] });
    await waitStatus((s) => s.guidance && s.guidance.moves.length === onCastle.length - 1, 'the first piece off');
    await page.waitForTimeout(800);
    check(await page.locator('#coronation').isVisible() && await page.locator('#guidance').isHidden(),
      `the moment is held after the first piece came off ${Date.now() - shownAt} ms after it showed`);
    await page.locator('#clear-castle').waitFor({ timeout: kWait });
    const heldFor = Date.now() - shownAt;
    check(heldFor >= 5000 && await page.locator('#coronation').isHidden(), `then it gives way to the clearing's line, after ${heldFor} ms`);
    await page.context().close();
  }
  {
    // The same status with what this game has not: a round of two
    // coronations (a royal couple) and a seat the referee plays, served by
    // the fixture server: every King crowned is named, the bot marked.
    const twice = structuredClone(crowned);
    const first = twice.score_breakdown[0].coronations[0];
    twice.score_breakdown[0].coronations.push({ ...first, king: 'beatrice', king_name: 'Beatrice' });
    twice.players[2].bot = 'casual';
    const fixture = await startFixtureServer({ status: twice });
    try {
      const page = await newPage(browser, kSizes[1].options, errors);
      await page.goto(`${fixture.url}/`);
      const moment = page.locator('#coronation:not(.hidden)');
      await moment.waitFor({ timeout: kWait });
      const head = (await moment.locator('.moment-head').innerText()).replace(/\s+/g, ' ');
      check(/Crowned this round: Alighiero\b.* and Beatrice\b/.test(head), `two coronations in a round: both named: "${head}"`);
      const bot = (await moment.locator(`tr[data-player="${twice.players[2].player}"]`).innerText()).replace(/\s+/g, ' ');
      check(bot.includes(`${twice.players[2].name} (bot)`), `the bot is marked in the moment: "${bot}"`);
      await page.context().close();
    } finally {
      await fixture.close();
    }
  }
  // Once the first piece is off: one line for the clearing, and the castle
  // keeps a readable size.
  for (const size of kSizes) {
    const page = await newPage(browser, size.options, errors);
    await page.goto(`${url}/`);
    const line = page.locator('#clear-castle');
    await line.waitFor({ timeout: kWait });
    await page.waitForTimeout(300);
    const label = `the castle's clearing at ${size.name}`;
    const text = await line.innerText();
    check(text === `Clear the castle: take every character off (${onCastle.length - 1} left).`, `${label}: one line with the count left: "${text}"`);
    check(await page.locator('#guidance li').count() === 0 && await page.locator('#coronation').isHidden(), `${label}: no line per piece, no moment once a piece is off`);
    const waiting = await page.locator('#waiting').innerText();
    check(waiting === 'Everyone: clear the castle for round 2.', `${label}: the headline says who acts: "${waiting}"`);
    const m = await measure(page, { ...castleSelectors, 'the clearing': '#clear-castle' });
    checkFits(label, m, Object.keys(m.boxes));
    const floor0 = m.boxes['floor 0'][0];
    const throne = m.boxes['the throne'][0];
    const tall = floor0 && throne ? floor0.bottom - throne.top : 0;
    check(tall >= 0.4 * m.innerHeight, `${label}: the castle keeps a readable size (throne to floor 0: ${Math.round(tall)} px of ${m.innerHeight})`);
    await shot(page, `status-clear-${size.name}`, { fullPage: false });
    await page.context().close();
  }
  for (const slug of onCastle.slice(1)) {
    const r = await sim('lift', { character: slug });
    if (r.status !== 200) throw new Error(`sim/lift ${slug}: ${r.status} ${r.text}`);
  }
  const round2 = await waitStatus((s) => !s.guidance && !s.refusal && s.view.phase === 'placement', 'round 2 placement', 20000);
  check(round2.view.finished_rounds.length === 1, 'round 1 is scored');
  {
    const page = await newPage(browser, { viewport: { width: 1280, height: 800 } }, errors);
    await page.goto(server.simLink);  // the host's sim.html link: its pieces are the host's to move
    const slug = 'beatrice';
    const before = (await api(url, '/api/sim/state', { token })).json.board;
    check(!Object.values(before).some((list) => list.includes(slug)), `${slug} is off the castle in round 2`);
    const piece = page.locator(`#castle g.token[data-slug="${slug}"][data-place="tray"]`);
    await piece.waitFor({ timeout: kWait });
    const m = await measure(page, { ...castleSelectors, tray: '#castle rect.band[data-place="tray"]' });
    checkFits('simulated board at 1280x800', m, [...Object.keys(castleSelectors), 'tray']);
    const from = await boxOf(page, piece);
    const to = await boxOf(page, page.locator('#castle rect.band[data-place="6"]'));
    // A mouse drags within the window: the page does not scroll under it.
    const reachable = (b) => b && b.y >= 0 && b.y + b.height <= 800;
    if (check(reachable(from) && reachable(to), `the piece and the throne are both on screen (${JSON.stringify([from, to])})`)) {
      await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
      await page.mouse.down();
      await page.mouse.move(from.x + from.width / 2 + 10, from.y + from.height / 2 - 10);
      await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 8 });
      await page.mouse.up();
    }
    const end = Date.now() + (reachable(from) && reachable(to) ? kWait : 0);
    let board = {};
    while (Date.now() < end) {
      board = (await api(url, '/api/sim/state', { token })).json.board;
      if ((board['6'] || []).includes(slug)) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    check((board['6'] || []).includes(slug), `the drag from the tray put ${slug} on the throne: ${JSON.stringify(board['6'])}`);
    await shot(page, 'sim-laptop-drag', { fullPage: false });
    // The vote buttons are kept from one update to the next (a click is not lost).
    const button = await page.locator('#stations button[data-station="0"][data-key="yes"]').elementHandle();
    await page.evaluate((b) => { b.dataset.kept = 'yes'; }, button);
    await sim('lift', { character: slug });
    await sim('put', { character: 'clemente', place: '5' });
    await page.locator('#castle g.token[data-slug="clemente"][data-place="5"]').waitFor({ timeout: kWait });
    await sim('lift', { character: 'clemente' });
    await page.locator(`#castle g.token[data-slug="${slug}"][data-place="tray"]`).waitFor({ timeout: kWait });
    await page.locator('#castle g.token[data-slug="clemente"][data-place="tray"]').waitFor({ timeout: kWait });
    await page.waitForTimeout(300);
    check(await page.evaluate((b) => b.isConnected && b.dataset.kept === 'yes', button), 'the vote buttons are the same elements after an update');
    await page.context().close();
  }
  await waitStatus((s) => !s.refusal && !s.guidance, 'the board back as expected');
  // On a small phone (360x480) the board is taller than the screen: a piece
  // held at the screen's top edge scrolls the page up until the throne shows.
  {
    const page = await newPage(browser, { ...kSizes[0].options, viewport: { width: 360, height: 480 } }, errors);
    await page.goto(server.simLink);  // the host's sim.html link: its pieces are the host's to move
    const slug = 'piero'; // the tray's last row
    const piece = page.locator(`#castle g.token[data-slug="${slug}"][data-place="tray"]`);
    await piece.waitFor({ timeout: kWait });
    const throne = page.locator('#castle rect.band[data-place="6"]');
    await boxOf(page, piece);
    // The page settles (the referee's words, the stations) before the piece is scrolled to.
    let away = null;
    for (let attempt = 0; attempt < 10; ++attempt) {
      await page.waitForTimeout(200);
      await piece.evaluate((el) => el.scrollIntoView({ block: 'end' }));
      away = await boxOf(page, throne);
      if (away && away.y + away.height < 0) break;
    }
    const from = await boxOf(page, piece);
    check(away.y + away.height < 0, `small phone: with the tray's piece in view the throne is off the screen (${Math.round(away.y)})`);
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2 - 20);
    await page.mouse.move(from.x + from.width / 2, 8, { steps: 6 });
    const scrolled = await page.waitForFunction(() => window.scrollY === 0, null, { timeout: 5000 }).then(() => true, () => false);
    check(scrolled, 'small phone: holding the piece at the top edge scrolls the page to its top');
    const to = await boxOf(page, throne);
    // A finger drops only where it can reach: on the screen.
    const onScreen = to.y >= 0 && to.y + to.height <= 480;
    if (onScreen) await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 4 });
    await page.mouse.up();
    const end = Date.now() + (onScreen ? kWait : 0);
    let board = {};
    while (Date.now() < end) {
      board = (await api(url, '/api/sim/state', { token })).json.board;
      if ((board['6'] || []).includes(slug)) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    check((board['6'] || []).includes(slug), `small phone: the drag from the tray put ${slug} on the throne: ${JSON.stringify(board['6'])}`);
    await sim('lift', { character: slug });
    await page.context().close();
  }
  await waitStatus((s) => !s.refusal && !s.guidance, 'the board back as expected');

  // --- review: round 1's crowning vote is round 1's ----------------------------
  const abandon = await hostApi('/api/host/abandon', {});
  check(abandon.status === 200, `the game is abandoned in round 2 (${abandon.status} ${abandon.text.slice(0, 120)})`);
  const gameId = round2.game;
  {
    const page = await newPage(browser, { viewport: { width: 1280, height: 800 } }, errors);
    await page.goto(`${url}/games.html#${gameId}`);
    await page.locator('#step-text').filter({ hasText: 'Step 1 of' }).waitFor({ timeout: kWait });
    const game = (await api(url, `/api/games/${gameId}`)).json;
    // The record's last vote before round 2's deal: round 1's crowning vote.
    const record = game.record || [];
    const deal2 = record.findIndex((line) => line.deal && line.deal.round === 2);
    let crowning = -1;
    for (let i = 0; i < (deal2 < 0 ? record.length : deal2); ++i) if (record[i].vote) crowning = i;
    check(crowning > 0, `the record holds round 1's crowning vote (line ${crowning + 1}, round 2 dealt at line ${deal2 + 1})`);
    const labelAt = async (i) => {
      await page.evaluate((n) => {
        const range = document.getElementById('step');
        range.value = String(n);
        range.dispatchEvent(new Event('input'));
      }, i);
      return page.locator('#step-text').innerText();
    };
    const crownText = await labelAt(crowning);
    check(/round 1\b/.test(crownText) && /votes\b.*Yes/.test(crownText), `round 1's crowning vote is labelled round 1: "${crownText}"`);
    if (deal2 > 0) {
      const dealText = await labelAt(deal2);
      check(/round 2\b/.test(dealText), `round 2's deal is labelled round 2: "${dealText}"`);
    }
    const firstPlace = record.findIndex((line) => line.place);
    const placeText = await labelAt(firstPlace);
    check(/round 1\b/.test(placeText), `the first placement is labelled round 1: "${placeText}"`);
    for (const at of [0, crowning, record.length - 1]) {
      await labelAt(at);
      const titles = await page.locator('#review .card h2').allInnerTexts();
      const seen = new Set(titles.map((t) => t.trim().toLowerCase()));
      check(titles.length >= 3 && seen.size === titles.length, `review step ${at + 1}: no two cards share a title (${titles.join(' | ')})`);
    }
    await shot(page, 'review-laptop', { fullPage: false });
    await page.context().close();
  }

  // --- the games list on a phone ------------------------------------------------
  {
    const page = await newPage(browser, kSizes[0].options, errors);
    await page.goto(`${url}/games.html`);
    await page.locator(`#games [data-game="${gameId}"] a`).waitFor({ timeout: kWait });
    const widths = await page.evaluate(() => ({ scroll: document.scrollingElement.scrollWidth, client: document.scrollingElement.clientWidth,
      list: document.getElementById('games').scrollWidth, listClient: document.getElementById('games').clientWidth }));
    check(widths.scroll <= widths.client && widths.list <= widths.listClient,
      `the games list fits 390 px with no sideways scroll (page ${widths.scroll}/${widths.client}, list ${widths.list}/${widths.listClient})`);
    check(await page.locator('header nav a[href="/league.html"]').count() === 0 && await page.locator('header nav a[href="/"]').count() === 1,
      'the games page\'s menu has no League without a league (and still the castle)');
    const text = await page.locator(`#games [data-game="${gameId}"]`).innerText();
    check(/Anna/.test(text) && /abandoned/.test(text), `the phone's list still says who played and how it ended: ${text.replace(/\s+/g, ' ')}`);
    await shot(page, 'games-phone');
    await page.context().close();
  }

  // --- a 2024 castle: WCs and dungeons fit too -------------------------------------
  await newGame({ edition: '2024', seats: 4, first: 0 });
  await waitStatus((s) => s.edition === '2024' && s.view && s.view.phase === 'placement' && (s.view.to_act || []).length, 'the 2024 game');
  const k2024 = ['wc3', 'wc4', 'dungeon1', 'dungeon2', 'dungeon3'];
  const selectors2024 = { ...castleSelectors, ...Object.fromEntries(k2024.map((p) => [p, `#castle rect.band[data-place="${p}"]`])), 'who must act': '#waiting', 'the turn or the Jester to set': '#turn .turn-chip, #guidance:not(.hidden)' };
  for (const size of kSizes) {
    const page = await newPage(browser, size.options, errors);
    await page.goto(`${url}/`);
    await page.locator('#castle rect.band[data-place="dungeon1"]').waitFor({ timeout: kWait });
    // The Jester is set first (the guidance; the turn's chip waits for the board), then the turn.
    await page.locator('#turn .turn-chip, #guidance:not(.hidden)').first().waitFor({ timeout: kWait });
    await page.waitForTimeout(200);
    const m = await measure(page, selectors2024);
    checkFits(`2024 status page at ${m.innerWidth}x${m.innerHeight}`, m, Object.keys(selectors2024));
    await shot(page, `status-2024-${size.name}`, { fullPage: false });
    await page.context().close();
  }
  // --- the content security policy: every page loads under it, none may be framed ---
  for (const path of ['/', '/host.html', '/player.html', '/sim.html', '/games.html', '/rules.html', '/host-tools.html', '/league.html', '/castle.html', '/setup.html']) {
    const page = await newPage(browser, kSizes[0].options, errors);
    const response = await page.goto(`${url}${path}`);
    await page.waitForLoadState('networkidle').catch(() => {});
    await page.waitForTimeout(300);
    const headers = response.headers();
    const policy = headers['content-security-policy'] || '';
    check(/default-src 'self'/.test(policy) && /frame-ancestors 'none'/.test(policy) && !/unsafe-/.test(policy) && headers['x-frame-options'] === 'DENY',
      `${path} carries the pages' content security policy and X-Frame-Options: DENY (${policy})`);
    await page.context().close();
  }
  {
    // The watch that `errors` relies on sees a violation: an inline script added by hand is refused and reported.
    const seen = [];
    const page = await newPage(browser, kSizes[0].options, seen);
    await page.goto(`${url}/`);
    const ran = await page.evaluate(() => {
      window.inlineRan = false;
      const s = document.createElement('script');
      s.textContent = 'window.inlineRan = true;';
      document.head.append(s);
      return window.inlineRan;
    });
    await page.waitForTimeout(300);
    check(!ran && seen.some((e) => /inline script/i.test(e)), `an inline script is refused and the refusal reported (${seen.join('; ') || 'nothing reported'})`);
    await page.context().close();
  }
  {
    // Another site framing the castle's page: Chromium refuses (frame-ancestors 'none').
    const ctx = await browser.newContext();
    const page = await ctx.newPage();
    const said = [];
    page.on('console', (m) => said.push(m.text()));
    await page.setContent(`<iframe id="f" src="${url}/host.html"></iframe>`);
    await page.waitForTimeout(1500);
    const framed = page.frames().find((f) => f.url().startsWith(url));
    const shown = framed ? await framed.evaluate(() => document.title).catch(() => '') : '';
    check(said.some((t) => /frame-ancestors/.test(t)) && !shown, `the host's page refuses to be framed by another page (${said.join('; ') || 'nothing said'}; title in the frame: "${shown}")`);
    await ctx.close();
  }
  check(errors.length === 0, `no script error or content security policy violation in the pages: ${errors.join('; ')}`);
} catch (e) {
  fail(e);
} finally {
  await close();
  await server.stop();
}
finish();
