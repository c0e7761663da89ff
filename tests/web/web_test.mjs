// The pages in a real browser against the real daemon: Debian's chromium
// driven by playwright-core, `vivaref serve --hardware=sim` on a fresh log.
//   node tests/web/web_test.mjs VIVAREF ARTIFACT_DIR
// Exit 0 pass, 1 fail, 77 skipped (no chromium, no node_modules, no serve).
//
// The story: the host enrols three tags on the host's tools page (opened
// from the host page; without the host's secret it shows no tool; the
// page's demo puts the pieces down; two at once and another's tag are
// refused), then starts a 3-seat classic game of one round on the host
// page at a laptop's size (a player named as a character is flagged as
// typed); the players' QR codes are decoded (zbarimg), each code hides once
// its player's page has opened, and each private page shows its own cards
// only; on the simulated board (phone-sized, by drag and
// by tap) the seats place 12 characters, one wrong move is refused and put
// back, the leftover goes to floor 0, two characters climb to the throne;
// the first election (one No, pressed on the board's keys) eliminates its
// candidate, the second crowns the King and ends the game. The status page
// must follow every step. After every action each public endpoint and the
// status page's HTML are searched for any secret (a favourites card, a
// hand, a vote before the reveal). Then the game is stepped through on the
// review page; no code is left on the host page at the end. Then a game of
// two rounds played through the API: undo from the host page says what it
// took back, and asks (in the page) before taking back round 1's scoring.
// Screenshots go to ARTIFACT_DIR.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { api, serveMissing, startServe } from './daemon.mjs';
import { gameDriver } from './game_driver.mjs';

const kSkip = 77;
const here = fileURLToPath(new URL('.', import.meta.url));
const [vivaref, artifactArg] = process.argv.slice(2);
const artifacts = artifactArg || join(here, 'artifacts');

function skip(why) {
  console.log(`SKIP: ${why}`);
  process.exit(kSkip);
}
if (!existsSync(join(here, 'node_modules', 'playwright-core'))) skip('tests/web/node_modules is missing: run `npm ci --prefix tests/web` (.ci/dev deps does)');
const { chromiumMissing, launchBrowser } = await import('./browser.mjs');
if (chromiumMissing()) skip(chromiumMissing());
const missing = serveMissing(vivaref);
if (missing) skip(missing);
mkdirSync(artifacts, { recursive: true });
for (const f of readdirSync(artifacts)) if (f.endsWith('.png')) rmSync(join(artifacts, f));

let passed = 0;
let failed = 0;
const tStart = Date.now();
function check(ok, what) {
  if (process.env.VIVAREF_WEB_VERBOSE) console.log(`${((Date.now() - tStart) / 1000).toFixed(1)} s ${ok ? 'ok' : 'FAIL'}: ${what}`);
  if (ok) ++passed;
  else {
    ++failed;
    console.log(`FAIL: ${what}`);
  }
  return ok;
}
const kWait = 15000;
// Text as read, without the isolates the pages put around a player's name.
const plain = (text) => text.replace(/[\u2066-\u2069]/g, '');

const server = await startServe(vivaref, { edition: 'classic' });
const { url } = server;
console.log(`serve at ${url} (pid ${server.pid})${server.hostToken ? ', host token required' : ''}`);
const { browser, close } = await launchBrowser();
const t0 = Date.now();
const shots = [];
async function shot(page, name) {
  const file = join(artifacts, `${String(shots.length + 1).padStart(2, '0')}-${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  shots.push(file);
}

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

// --- secrets ---------------------------------------------------------------
const secrets = { favourites: [], names: [] }; // from the private pages
let revealBefore = null; // the last reveal before an election opened, as JSON
let revealHtmlBefore = null;
const kPrivateKeys = new Set(['hand', 'own_vote', 'ambition', 'ambition_choices', 'private', 'token']);

function walk(value, visit, path = []) {
  if (Array.isArray(value)) value.forEach((v, i) => walk(v, visit, [...path, i]));
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) {
    visit(k, v, path);
    walk(v, visit, [...path, k]);
  }
}

// `revealed`: the cards the game has shown at scoring (no longer secret).
function secretIn(text, where, revealed = []) {
  const problems = [];
  const shown = new Set(revealed.map((card) => JSON.stringify(card.favourites || card)));
  for (const fav of secrets.favourites) {
    if (!fav.length || shown.has(JSON.stringify(fav))) continue;
    for (const form of [JSON.stringify(fav), JSON.stringify([...fav].sort()), fav.join(', '), fav.join(',')])
      if (text.includes(form)) problems.push(`${where} holds a favourites card ${form}`);
  }
  return problems;
}

async function checkSecrecy(label, statusPage) {
  const st = await status();
  const games = (await api(url, '/api/games')).json || [];
  const paths = ['/api/status', '/api/info', '/api/games', '/api/sim/state', ...games.map((g) => `/api/games/${g.id}`)];
  const problems = [];
  for (const path of paths) {
    const r = await api(url, path);
    const game = path.startsWith('/api/games/') ? games.find((g) => `/api/games/${g.id}` === path) : null;
    const finished = game && game.status !== 'in-progress';
    if (finished) continue; // a finished game is shown whole, as `vivaref show` does
    problems.push(...secretIn(r.text, path, (st.view && st.view.revealed_favourites) || []));
    walk(r.json, (k, v, p) => {
      if (kPrivateKeys.has(k) && !(k === 'ambition' && typeof v === 'boolean')) problems.push(`${path} has a private key "${k}" at ${p.join('.')}`);
      if (k === 'favourites' && !p.includes('revealed_favourites') && !p.includes('emissary_favourites'))
        problems.push(`${path} has "favourites" at ${p.join('.')}`);
      if (k === 'votes' && !(p.length >= 2 && p[p.length - 1] === 'last_reveal')) problems.push(`${path} has "votes" at ${p.join('.')}`);
    });
  }
  if (st.election) {
    if (revealBefore === null) revealBefore = JSON.stringify(st.view.last_reveal ?? null);
    if (JSON.stringify(st.view.last_reveal ?? null) !== revealBefore) problems.push('the reveal changed while the election was open');
    const html = await statusPage.locator('#reveal').innerHTML();
    if (revealHtmlBefore === null) revealHtmlBefore = html;
    else if (html !== revealHtmlBefore) problems.push('the status page\'s reveal changed while the election was open');
  } else {
    revealBefore = null;
    revealHtmlBefore = null;
  }
  problems.push(...secretIn(await statusPage.content(), 'the status page', (st.view && st.view.revealed_favourites) || []));
  check(problems.length === 0, `secrecy after ${label}: ${problems.join('; ')}`);
}

try {
  const desktop = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  const errors = [];
  for (const ctx of [desktop, phone]) ctx.on('page', (p) => p.on('pageerror', (e) => errors.push(`${p.url()}: ${e.message}`)));
  // Every page in a context (a window) of its own: a tab behind another is
  // throttled to about a frame a second, as a hidden tab is.
  const kPhone = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };
  const kDesktop = { viewport: { width: 1280, height: 900 } };
  const kLaptop = { viewport: { width: 1280, height: 800 } };
  const newPage = async (options) => {
    const ctx = await browser.newContext(options);
    const page = await ctx.newPage();
    page.on('pageerror', (e) => errors.push(`${page.url()}: ${e.message}`));
    return page;
  };

  const statusPage = await desktop.newPage();
  await statusPage.goto(`${url}/`);
  await statusPage.waitForFunction(() => Number(document.body.dataset.renders || 0) > 0, null, { timeout: kWait });
  check((await statusPage.locator('#waiting').innerText()).includes('No game'), 'the status page says there is no game yet');

  // --- the host's tools: nobody without the host's secret opens them -------------
  const stranger = await newPage(kPhone);
  await stranger.goto(`${url}/host-tools.html`);
  await stranger.locator('#unlock').waitFor({ state: 'visible', timeout: kWait });
  check(await stranger.locator('#controls').isHidden() && await stranger.locator('#enrol-card').isHidden() && await stranger.locator('#chance-card').isHidden(),
    'the host\'s tools show nothing without the host\'s secret');
  check((await api(url, '/api/host/deal', { method: 'POST', body: { round: 1 } })).status === 401, 'chance by hand needs the host\'s secret');
  await stranger.context().close();

  // --- the host starts a game ------------------------------------------------
  const hostPage = await newPage(kLaptop);
  await hostPage.goto(`${url}/host.html`);
  if (server.hostToken) {
    await hostPage.locator('#unlock').waitFor({ state: 'visible', timeout: kWait });
    check(await hostPage.locator('#controls').isHidden(), 'the host controls stay hidden without the token');
    await hostPage.fill('#token', 'wrong-token');
    await hostPage.click('#unlock button[type=submit]');
    await hostPage.locator('#unlock-message:not(.hidden)').waitFor({ timeout: kWait });
    await hostPage.fill('#token', server.hostToken);
    await hostPage.click('#unlock button[type=submit]');
  }
  await hostPage.locator('#controls').waitFor({ state: 'visible', timeout: kWait });

  // --- tags enrolled on the host's tools page, the demo putting them down ------
  // Out of the new-game controls: a link away, opened with the secret this device keeps.
  check(await hostPage.locator('#enrol-card, #send-chance').count() === 0, 'the host page holds no tag enrolment or chance by hand');
  await hostPage.click('.tools-link a');
  await hostPage.locator('#enrol-card').waitFor({ state: 'visible', timeout: kWait });
  check(await hostPage.locator('#chance-card').isVisible(), 'the host\'s tools page shows chance by hand and the tags');
  const chanceKinds = await hostPage.locator('#chance-kind option').evaluateAll((os) => os.map((o) => o.value));
  check(chanceKinds.join(',') === 'deal,reshuffle', `the chance box sends a deal or a reshuffle, never a player's Ambition keep: ${chanceKinds}`);
  const enrolEvent = (kind) => hostPage.locator(`#enrol-events li[data-kind="${kind}"]`).first();
  const asking = async (slug) => hostPage.locator(`#enrol-asking[data-character="${slug}"]`).waitFor({ timeout: kWait });
  await hostPage.click('#enrol-start');
  await asking('alighiero');
  check((await hostPage.locator('#enrol-asking').innerText()).includes('Alighiero'), 'the host page asks for the first character');
  check(await hostPage.locator('#enrol-demo').isVisible(), 'on the simulated castle the page offers to put the piece down');
  await hostPage.click('#enrol-demo');
  await enrolEvent('enrolled').waitFor({ timeout: kWait });
  await asking('beatrice');
  check((await enrolEvent('enrolled').innerText()).includes('Alighiero'), 'the tag put down is enrolled to Alighiero');
  const boardEmpty = async (what) => {
    const end = Date.now() + kWait;
    while (Date.now() < end) {
      if (!Object.keys((await api(url, '/api/sim/state')).json.board).length) return true;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`the simulated castle is not empty ${what}`);
  };
  await boardEmpty('after the demo lifted Alighiero');
  // Two pieces at once, as a person could: refused, lifted.
  await api(url, '/api/sim/put', { method: 'POST', body: { character: 'beatrice', place: '0' } });
  await api(url, '/api/sim/put', { method: 'POST', body: { character: 'clemente', place: '2' } });
  await enrolEvent('one-at-a-time').waitFor({ timeout: kWait });
  check(/2 new tags at once/.test(await enrolEvent('one-at-a-time').innerText()), 'two new tags at once are refused');
  for (const slug of ['beatrice', 'clemente']) await api(url, '/api/sim/lift', { method: 'POST', body: { character: slug } });
  await boardEmpty('after lifting two');
  // Alighiero's piece again while Beatrice is asked for: refused, saying whose.
  await api(url, '/api/sim/put', { method: 'POST', body: { character: 'alighiero', place: '0' } });
  await enrolEvent('tag-of-another').waitFor({ timeout: kWait });
  check(/already Alighiero/.test(await enrolEvent('tag-of-another').innerText()), 'a tag enrolled to another character is refused, naming it');
  await shot(hostPage, 'host-enrol-refusal');
  await api(url, '/api/sim/lift', { method: 'POST', body: { character: 'alighiero' } });
  await boardEmpty('after lifting Alighiero');
  // The demo puts each asked piece down by itself; untick it, then stop.
  // How many it puts before the box is unticked is the machine's speed (a
  // piece is taken some 300 ms after it is down, and the page puts the next
  // one at once; on a loaded machine the untick can come a piece later, as
  // a person's could): so wait until what it put is taken and lifted, and
  // check what was enrolled, whatever the count.
  await hostPage.check('#enrol-auto');
  // Beatrice, put down by the demo, is taken (the page may be a piece further on).
  await hostPage.waitForFunction(() => !['', 'beatrice'].includes(document.getElementById('enrol-asking').dataset.character || ''), null, { timeout: kWait });
  await hostPage.uncheck('#enrol-auto');
  await hostPage.waitForFunction(() => document.body.dataset.demoOn === '0', null, { timeout: kWait });
  await boardEmpty('after the demo was stopped');
  const settled = (await api(url, '/api/host/enrol', { token: server.hostToken })).json;
  const kClassic = ['alighiero', 'beatrice', 'clemente', 'dario', 'ernesto', 'fiorello', 'gavino'];
  const enrolledNow = (settled.events || []).filter((e) => e.kind === 'enrolled').map((e) => e.character);
  const n = enrolledNow.length;
  check(n >= 2 && JSON.stringify(enrolledNow) === JSON.stringify(kClassic.slice(0, n)) && settled.asking && settled.asking.character === kClassic[n],
    `the demo enrolled the asked pieces in turn, then stopped: ${enrolledNow}, asking ${settled.asking && settled.asking.character}`);
  await hostPage.click('#enrol-stop');
  await hostPage.locator('#enrol-live.hidden').waitFor({ state: 'attached', timeout: kWait });
  const enrolState = (await api(url, '/api/host/enrol', { token: server.hostToken })).json;
  check(!enrolState.running && enrolState.enrolled === n && enrolState.tags === n, `${n} tags enrolled and saved: ${JSON.stringify({ running: enrolState.running, enrolled: enrolState.enrolled, tags: enrolState.tags })}`);
  check((await hostPage.locator('#enrol-summary').innerText()).includes(`${n} tags of the classic set`), 'the host page says what the registry holds');
  if (server.hostToken) check((await api(url, '/api/host/enrol')).status === 401, 'the enrolment needs the host token');
  await shot(hostPage, 'host-enrol-done');
  await boardEmpty('after the enrolment');
  await hostPage.click('nav a[href="/host.html"]');
  await hostPage.locator('#controls').waitFor({ state: 'visible', timeout: kWait });

  await hostPage.check('input[name=edition][value=classic]');
  await hostPage.fill('#seats', '3');
  await hostPage.locator('#seats').dispatchEvent('input');
  const names = ['Anna', 'Bruno', 'Chiara'];
  // A player named as a character is flagged as the name is typed (a warning).
  await hostPage.fill('input.player-name[data-player="1"]', 'dário');
  await hostPage.locator('#name-clash-1:not(.hidden)').waitFor({ timeout: kWait });
  const clash = plain(await hostPage.locator('#name-clash-1').innerText());
  check(/dário is also the name of the character Dario/.test(clash), `a name like a character's is flagged: ${clash}`);
  await shot(hostPage, 'host-name-clash');
  for (let i = 0; i < 3; ++i) await hostPage.fill(`input.player-name[data-player="${i}"]`, names[i]);
  check(await hostPage.locator('.name-clash:not(.hidden)').count() === 0, 'the flag goes once the name is another');
  await hostPage.selectOption('#first', '0');
  await hostPage.fill('#rounds', '1');
  await shot(hostPage, 'host-wizard');
  await hostPage.click('#new-game button[type=submit]');
  await hostPage.locator('#links figure').nth(2).waitFor({ timeout: kWait });
  check((await hostPage.locator('#message').innerText()).includes('started'), 'the host page says the game started');
  await shot(hostPage, 'host-links');

  // The QR codes decode (zbarimg) to the players' links.
  const links = [];
  for (let p = 0; p < 3; ++p) {
    const figure = hostPage.locator(`#links figure[data-player="${p}"]`);
    const href = await figure.locator('a.player-link').getAttribute('href');
    links.push(href);
    const png = join(artifacts, `qr-player-${p}.png`);
    // One code at a time: the host taps a player's "Show code".
    await figure.locator('button.show-code').click();
    await figure.locator('img.qr').waitFor({ timeout: kWait });
    await figure.locator('img.qr').evaluate((img) => img.decode());
    await figure.locator('img.qr').screenshot({ path: png });
    const zbar = spawnSync('zbarimg', ['--quiet', '--raw', png], { encoding: 'utf8' });
    if (zbar.error) console.log('zbarimg is missing: the QR codes are not decoded (Debian package zbar-tools)');
    else check(zbar.status === 0 && zbar.stdout.trim() === href, `player ${p}'s QR code reads ${JSON.stringify(zbar.stdout.trim())}, link ${href}`);
  }
  check(new Set(links).size === 3 && links.every((l) => l.startsWith(url)), `three different links on this daemon: ${links.join(' ')}`);

  // The referee deals by itself; placement begins.
  await waitStatus((s) => s.view && s.view.phase === 'placement', 'the placement phase');

  // --- private pages: each its own cards only ----------------------------------
  const playerPages = [];
  for (let p = 0; p < 3; ++p) {
    const ctx = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const page = await ctx.newPage();
    page.on('pageerror', (e) => errors.push(`player ${p}: ${e.message}`));
    if (p === 2) {
      // Players 0 and 1 have opened their pages: the code on screen, player 2's, stays.
      await hostPage.locator('#links figure.opened[data-player="1"]').waitFor({ timeout: kWait });
      check(await hostPage.locator('#links figure[data-player="2"] img.qr').count() === 1, 'another player\'s page opening leaves the code shown');
    }
    await page.goto(links[p]);
    await page.locator('#favourites li[data-character]').nth(5).waitFor({ timeout: kWait });
    const fav = await page.locator('#favourites li[data-character]').evaluateAll((lis) => lis.map((li) => li.dataset.character));
    secrets.favourites.push(fav);
    const token = new URL(links[p]).hash.slice(1);
    const own = (await api(url, `/api/player/${token}`)).json;
    check(JSON.stringify(own.private.favourites) === JSON.stringify(fav), `player ${p}'s page shows the favourites of /api/player: ${fav}`);
    check(own.name === names[p] && (await page.locator('#who').innerText()).includes(names[p]), `player ${p}'s page is ${names[p]}'s`);
    playerPages.push({ page, ctx, fav });
  }
  // Nothing of anyone else's: the cards shown are one's own (checked above),
  // and no other player's card, secret link or name appears in the private part.
  for (let p = 0; p < 3; ++p) {
    const html = await playerPages[p].page.content();
    const own = await playerPages[p].page.locator('#favourites, #hand, #ambition-card, #own-vote, #banished').allInnerTexts();
    for (let q = 0; q < 3; ++q) {
      if (q === p) continue;
      check(JSON.stringify(playerPages[q].fav) !== JSON.stringify(playerPages[p].fav), `players ${p} and ${q} hold different cards`);
      check(!html.includes(JSON.stringify(playerPages[q].fav)), `player ${p}'s page holds player ${q}'s card`);
      check(!html.includes(new URL(links[q]).hash.slice(1)), `player ${p}'s page holds player ${q}'s link`);
      check(!own.join(' ').includes(names[q]), `player ${p}'s private cards name ${names[q]}`);
    }
  }
  await shot(playerPages[0].page, 'player-0-phone');
  // Each code hid once its page opened: the last one shown (player 2's)
  // stayed while the others opened, and went when its own did.
  await hostPage.locator('#links figure[data-player="2"] img.qr').waitFor({ state: 'detached', timeout: kWait });
  await hostPage.locator('#links figure.opened').nth(2).waitFor({ timeout: kWait });
  check(await hostPage.locator('#links img.qr').count() === 0, 'no code on the host page once every page has opened');
  check((await hostPage.locator('#links figure[data-player="0"]').innerText()).includes('Page opened at'), 'a player\'s card says when their page opened');
  check((await hostPage.locator('#message').innerText()).includes('page is open'), `the host page says why the code went: ${await hostPage.locator('#message').innerText()}`);
  await shot(hostPage, 'host-links-opened');
  // The host shows one code again (a phone that lost its page): until the game's end.
  await hostPage.locator('#links figure[data-player="0"] button.show-code').click();
  await hostPage.locator('#links figure[data-player="0"] img.qr').waitFor({ timeout: kWait });
  // Fewer live pages from here on: the machine's two cores also run the daemon.
  for (const p of playerPages.slice(1)) await p.ctx.close();
  check((await api(url, '/api/player/not-a-token')).status === 404, 'a made-up token reads nothing');

  // --- the simulated board, phone-sized ----------------------------------------
  const simPage = await phone.newPage();
  await simPage.goto(server.simLink);  // the host's sim.html link: its pieces and keys are the host's
  await simPage.locator('#castle g.token[data-slug="alighiero"]').waitFor({ timeout: kWait });
  await shot(simPage, 'sim-phone-start');
  const phoneStatus = await newPage(kPhone);
  await phoneStatus.goto(`${url}/`);
  await checkSecrecy('the deal', statusPage);

  const trace = (what) => process.env.VIVAREF_WEB_VERBOSE && console.log(`${((Date.now() - tStart) / 1000).toFixed(2)} s   ${what}`);
  let useTap = false;
  const drags = { drags: 0, taps: 0, tooFar: 0 };
  async function simMove(slug, place) {
    const token = simPage.locator(`#castle g.token[data-slug="${slug}"]`).first();
    const band = simPage.locator(`#castle rect.band[data-place="${place}"]`);
    // Drag within one screen (a finger cannot drag past it): the castle's top
    // at the screen's top; tap-then-tap where the two ends are further apart.
    trace(`simMove ${slug} ${place} ${useTap ? 'tap' : 'drag'}`);
    await simPage.locator('#castle').evaluate((el) => el.scrollIntoView({ block: 'start' }));
    const from = await token.boundingBox();
    trace('boxes');
    const end = await band.boundingBox();
    const height = simPage.viewportSize().height;
    const inView = (b) => b && b.y >= 0 && b.y + Math.min(b.height, 40) <= height;
    if (!useTap && !(inView(from) && inView(end))) {
      ++drags.tooFar;
      useTap = true;
    }
    if (useTap) {
      ++drags.taps;
      // The board is redrawn whenever an LED changes: an element may go
      // from under an action; try again (the selection survives redraws).
      for (let attempt = 0; ; ++attempt) {
        try {
          if (!(await simPage.locator(`#castle g.token.selected[data-slug="${slug}"]`).count())) {
            await token.evaluate((el) => el.scrollIntoView({ block: 'center' }));
            const box = await token.boundingBox();
            await simPage.touchscreen.tap(box.x + box.width / 2, box.y + box.height / 2);
          }
          trace('tapped token');
          await simPage.locator(`#castle g.token.selected[data-slug="${slug}"]`).waitFor({ timeout: 5000 });
          trace('selected');
          await band.evaluate((el) => el.scrollIntoView({ block: 'center' }));
          trace('scrolled');
          const to = await band.boundingBox();
          await simPage.touchscreen.tap(to.x + 12, to.y + 8);
          break;
        } catch (e) {
          trace(`retry: ${e.message.split('\n')[0]}`);
          if (attempt >= 3) throw e;
        }
      }
    } else {
      ++drags.drags;
      const to = end;
      await simPage.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
      await simPage.mouse.down();
      await simPage.mouse.move(from.x + from.width / 2 + 10, from.y + from.height / 2 + 10);
      await simPage.mouse.move(to.x + to.width - 30, to.y + 10, { steps: 2 });
      await simPage.mouse.up();
    }
    useTap = !useTap;
  }
  // A legal action: the referee accepts it and the status page draws it.
  async function play(slug, place, label) {
    await simMove(slug, place);
    trace('moved');
    await waitStatus((s) => s.board && s.board.expected[slug] === place && !s.refusal, `${label} accepted`);
    trace('accepted');
    const shown = `#castle g.token[data-slug="${slug}"][data-place="${place}"]:not([data-state="ghost"])`;
    await statusPage.locator(shown).waitFor({ timeout: kWait });
    trace('shown');
    check(true, label);
    await checkSecrecy(label, statusPage);
    trace('secrecy checked');
  }

  const placements = [
    ['alighiero', '4'], ['beatrice', '4'], ['clemente', '4'], ['dario', '4'], ['ernesto', '3'], ['fiorello', '3'],
    ['gavino', '3'], ['irina', '3'], ['leonardo', '2'], ['merlino', '2'], ['natale', '2'], ['odessa', '1'],
  ];
  for (const [i, [slug, place]] of placements.entries()) {
    await play(slug, place, `seat ${i % 3} places ${slug} on ${place}`);
    if (i === 0) {
      // Seat 1 moves the placed character instead: refused, shown, put back.
      await simMove('alighiero', '3');
      await waitStatus((s) => s.refusal, 'the refusal of a move during placement');
      await statusPage.locator('#refusal:not(.hidden)').waitFor({ timeout: kWait });
      const text = await statusPage.locator('#refusal').innerText();
      check(/Not allowed/.test(text) && /Alighiero/.test(text) && /floor 4/.test(text), `the refusal says what to put back: ${text}`);
      await shot(statusPage, 'status-refusal');
      await checkSecrecy('a refused move', statusPage);
      await simMove('alighiero', '4');
      await waitStatus((s) => !s.refusal, 'the board put back');
      await statusPage.locator('#refusal.hidden').waitFor({ state: 'attached', timeout: kWait });
      check(true, 'the refusal clears once the board is back');
    }
  }
  // The leftover goes to floor 0, as guided.
  const guided = await waitStatus((s) => s.guidance || (s.view && s.view.phase === 'ascent'), 'the end of placement');
  if (guided.guidance) {
    await statusPage.locator('#guidance:not(.hidden)').waitFor({ timeout: kWait });
    check((await statusPage.locator('#guidance').innerText()).includes('Piero'), 'the status page guides Piero to floor 0');
    await shot(statusPage, 'status-guidance');
    await simMove('piero', '0');
    await waitStatus((s) => !s.guidance && s.view.phase === 'ascent', 'the board set for the ascent');
  }
  check(guided.board.expected.piero === '0', 'the leftover is expected on floor 0');
  await shot(simPage, 'sim-phone-ascent');

  // --- first election: one No ------------------------------------------------
  await play('alighiero', '5', 'seat 0 moves alighiero to 5');
  await play('alighiero', '6', 'seat 1 moves alighiero to the throne');
  await waitStatus((s) => s.election, 'the election');
  await statusPage.locator('#election:not(.hidden)').waitFor({ timeout: kWait });
  await checkSecrecy('the election opened', statusPage);
  const press = async (seat, key) => {
    await simPage.locator(`#stations button[data-station="${seat}"][data-key="${key}"]`).tap();
  };
  for (const [seat, key] of [[0, 'yes'], [1, 'no']]) {
    await press(seat, key);
    await statusPage.locator(`#voters li[data-seat="${seat}"][data-voted="yes"]`).waitFor({ timeout: kWait });
    check(true, `the status page shows that seat ${seat} voted`);
    await checkSecrecy(`seat ${seat}'s vote`, statusPage);
  }
  await shot(statusPage, 'status-election');
  // A second key press is not silent: seat 0's own page says it was not counted.
  await press(0, 'no');
  await playerPages[0].page.locator('#station-notice:not(.hidden)').filter({ hasText: 'not counted' }).waitFor({ timeout: kWait });
  check(true, "seat 0's own page says its second key press was not counted");
  check(!(await statusPage.content()).includes('not counted'), 'the status page does not show a station\'s private notice');
  await shot(playerPages[0].page, 'player-0-second-press');
  await press(2, 'yes');
  await statusPage.locator('#reveal-outcome').filter({ hasText: 'Alighiero' }).waitFor({ timeout: kWait });
  const reveal = await statusPage.locator('#reveal').innerText();
  check(/eliminated/.test(reveal) && /No/.test(reveal), `the reveal shows the No and the outcome: ${reveal}`);
  await shot(statusPage, 'status-reveal');
  await checkSecrecy('the reveal', statusPage);
  // Guided: the candidate leaves the castle (lifted: in hand, then gone).
  await waitStatus((s) => s.guidance, 'guidance after the election');
  await simMove('alighiero', 'tray');
  await statusPage.locator('#castle g.token[data-slug="alighiero"][data-place="hand"]').waitFor({ timeout: kWait });
  check(true, 'the status page shows the lifted candidate in hand');
  await waitStatus((s) => !s.guidance && s.view.phase === 'ascent', 'the candidate gone', 20000);

  // --- second election: crowned; the game ends ---------------------------------
  await play('beatrice', '5', 'seat 2 moves beatrice to 5');
  await play('beatrice', '6', 'seat 0 moves beatrice to the throne');
  await waitStatus((s) => s.election, 'the second election');
  for (const seat of [2, 0, 1]) {
    await press(seat, 'yes');
    if (seat !== 1) await checkSecrecy(`seat ${seat}'s second vote`, statusPage);
  }
  const over = await waitStatus((s) => s.state === 'finished', 'the end of the game');
  // No code stays on the host page at the game's end.
  await hostPage.locator('#links img.qr').waitFor({ state: 'detached', timeout: kWait });
  check(true, 'the code shown again is gone at the game\'s end');
  await hostPage.close();
  await statusPage.locator('#reveal-outcome').filter({ hasText: 'crowned' }).waitFor({ timeout: kWait });
  check(over.view.finished_rounds.length === 1 && over.view.winners.length >= 1, `one round scored, winners ${over.view.winners}`);
  await statusPage.locator('#scores td.num').first().waitFor({ timeout: kWait });
  check((await statusPage.locator('#scores').innerText()).includes('R1'), 'the status page shows the round\'s scores');
  await shot(statusPage, 'status-game-over');
  await shot(phoneStatus, 'status-phone-game-over');
  await checkSecrecy('the end of the game', statusPage);

  // --- review ----------------------------------------------------------------
  const review = await newPage(kDesktop);
  await review.goto(`${url}/games.html`);
  await review.locator(`#games tr[data-game="${over.game}"] a`).click();
  await review.locator('#step-text').filter({ hasText: 'Step 1 of' }).waitFor({ timeout: kWait });
  const total = Number((await review.locator('#step').getAttribute('max'))) + 1;
  check(total >= 20, `the review has a step per decision (${total})`);
  // Step 3 is the first placement: Alighiero on floor 4.
  await review.click('#next');
  await review.click('#next');
  check((await review.locator('#step-text').innerText()).includes('Alighiero'), 'step 3 is the first placement');
  await review.locator('#castle g.token[data-slug="alighiero"][data-place="4"]').waitFor({ timeout: kWait });
  check(true, 'the review draws the castle at that step');
  await review.keyboard.press('ArrowRight');
  check((await review.locator('#step-text').innerText()).includes('Beatrice'), 'the arrow key steps on');
  await shot(review, 'review-step');
  await review.click('#last');
  check((await review.locator('#elections > ul > li').count()) === 2, 'the review lists both elections');
  check((await review.locator('#elections').innerText()).includes('No'), 'the review shows the votes of the first election');
  await shot(review, 'review-last');
  const phoneReview = await newPage(kPhone);
  await phoneReview.goto(`${url}/games.html#${over.game}`);
  await phoneReview.locator('#step-text').filter({ hasText: 'Step 1 of' }).waitFor({ timeout: kWait });
  await shot(phoneReview, 'review-phone');

  // The phone-sized pages fit the screen's width (no sideways scrolling).
  for (const [name, page] of [['sim', simPage], ['status', phoneStatus], ['review', phoneReview], ['player', playerPages[0].page]]) {
    const wide = await page.evaluate(() => document.documentElement.scrollWidth);
    check(wide <= 392, `the ${name} page fits 390 px (${wide})`);
  }
  // The status page on a TV across the room (1920 x 1080): the whole castle
  // on screen without scrolling, drawn large, and no sideways scrolling.
  const tv = await newPage({ viewport: { width: 1920, height: 1080 } });
  await tv.goto(`${url}/`);
  await tv.waitForFunction(() => Number(document.body.dataset.renders || 0) > 0, null, { timeout: kWait });
  const tvCastle = await tv.locator('#castle').boundingBox();
  check(tvCastle && tvCastle.y >= 0 && tvCastle.y + tvCastle.height <= 1080,
    `on a TV the whole castle is on screen (${JSON.stringify(tvCastle)})`);
  check(tvCastle && tvCastle.height >= 0.5 * 1080, `on a TV the castle takes half the screen's height or more (${tvCastle && tvCastle.height} px)`);
  const tvWide = await tv.evaluate(() => document.documentElement.scrollWidth);
  check(tvWide <= 1920, `the status page fits a TV's width (${tvWide})`);
  await shot(tv, 'status-tv');

  check(errors.length === 0, `no script error in the pages: ${errors.join('; ')}`);
  console.log(`moves on the simulated board: ${drags.drags} dragged, ${drags.taps} tapped (${drags.tooFar} too far apart to drag)`);
  check(drags.drags >= 5 && drags.taps >= 5, 'both drag and tap-then-tap moved characters');

  // --- undo from the host page: what it took back, and a question before a shown scoring
  {
    const game = gameDriver(server);
    const started = await game.host('new-game', { setup: { edition: 'classic', seats: 3, rounds: 2 }, players: names });
    check(started.status === 200, `a game of two rounds started: ${started.status}`);
    const undoPage = await newPage(kLaptop);
    await undoPage.goto(server.hostLink);
    await undoPage.locator('#controls').waitFor({ state: 'visible', timeout: kWait });
    await game.waitStatus((s) => s.view && s.view.phase === 'placement', 'the second game\'s placement');
    await game.followGuidance(); // the first game's pieces off the castle
    await game.waitStatus((s) => !s.guidance, 'the castle cleared');
    const placements2 = [
      ['alighiero', '4'], ['beatrice', '4'], ['clemente', '4'], ['dario', '4'], ['ernesto', '3'], ['fiorello', '3'],
      ['gavino', '3'], ['irina', '3'], ['leonardo', '2'], ['merlino', '2'], ['natale', '2'], ['odessa', '1'],
    ];
    for (const [slug, place] of placements2) await game.play(slug, place, `${slug} on ${place}`);
    await game.followGuidance();
    await game.waitStatus((s) => s.view.phase === 'ascent' && !s.guidance, 'the ascent');
    await game.play('alighiero', '5', 'Anna moves Alighiero up');
    const message = async () => plain(await undoPage.locator('#message').innerText());
    await undoPage.click('button[data-request="undo"]');
    await undoPage.locator('#message').filter({ hasText: 'Undone' }).waitFor({ timeout: kWait });
    check(/Undone: Anna moved Alighiero lo Scudiero from floor 4 to floor 5\./.test(await message()), `undo says what it took back: ${await message()}`);
    await shot(undoPage, 'host-undone');
    await game.followGuidance();
    await game.play('alighiero', '5', 'Anna moves Alighiero up again');
    await game.play('alighiero', '6', 'Bruno moves Alighiero to the throne');
    await game.waitStatus((s) => s.election, 'the election');
    for (const station of [0, 1, 2]) await game.sim('press', { station, key: 'yes' });
    await game.waitStatus((s) => s.view.finished_rounds.length === 1 && s.view.round === 2 && s.view.phase === 'placement', 'round 1 scored, round 2 dealt');
    // Undo now would take back round 1's scoring: the page asks first.
    await undoPage.click('button[data-request="undo"]');
    await undoPage.locator('#undo-confirm:not(.hidden)').waitFor({ timeout: kWait });
    const question = await undoPage.locator('#undo-confirm').innerText();
    check(/before round 1’s scoring, which the table has already seen/.test(question), `the host is asked before a shown scoring is taken back: ${question}`);
    await shot(undoPage, 'host-undo-question');
    await undoPage.click('#undo-confirm-no');
    await undoPage.locator('#undo-confirm.hidden').waitFor({ state: 'attached', timeout: kWait });
    check((await message()).includes('Nothing was undone') && (await game.status()).view.finished_rounds.length === 1, 'kept: nothing undone');
    await undoPage.click('button[data-request="undo"]');
    await undoPage.locator('#undo-confirm:not(.hidden)').waitFor({ timeout: kWait });
    await undoPage.click('#undo-confirm-yes');
    await undoPage.locator('#message').filter({ hasText: 'Undone' }).waitFor({ timeout: kWait });
    check(/Undone: Chiara’s vote on Alighiero lo Scudiero, round 1\./.test(await message()), `the confirmed undo says what it took back: ${await message()}`);
    const back = await game.waitStatus((s) => s.election && !s.view.finished_rounds.length, 'round 1\'s election again');
    check(back.view.round === 1, 'the scoring is taken back: round 1\'s election is open again');
    const abandoned = await game.host('abandon');
    check(abandoned.status === 200, 'the second game abandoned');
    await undoPage.context().close();
  }

  // --- a 2024 game: WCs and dungeons, Ambition, the host's controls ------------
  const host2 = await newPage(kDesktop);
  // A slow network: every answer with the players' links arrives 1.5 s late,
  // so the page's first look (before the secret is typed: 401) lands after
  // the secret was accepted, and the one it asked for the finished 3-seat
  // game after the new game's own answer. The secret and the new game's
  // four codes must stay.
  // (The page also asks every 1.5 s until every link has opened: an answer
  // still held when the route is removed is let through as it is.)
  await host2.route('**/api/host/players', async (route) => {
    const response = await route.fetch().catch(() => null);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    // An answer the browser could not fetch is let go as it is: a request
    // left hanging would keep the page waiting for ever.
    if (response) await route.fulfill({ response }).catch(() => {});
    else await route.continue().catch(() => {});
  });
  await host2.goto(`${url}/host.html`);
  if (server.hostToken) {
    await host2.fill('#token', server.hostToken);
    await host2.click('#unlock button[type=submit]');
  }
  await host2.locator('#controls').waitFor({ state: 'visible', timeout: kWait });
  await host2.check('input[name=edition][value="2024"]');
  await host2.fill('#seats', '4');
  await host2.locator('#seats').dispatchEvent('input');
  await host2.check('#ambition');
  await host2.click('#new-game button[type=submit]');
  await host2.locator('#links figure').nth(3).waitFor({ timeout: kWait });
  await host2.waitForTimeout(1700);  // any late answer for the old game has landed
  check(await host2.locator('#links figure').count() === 4 &&
      await host2.locator('#links figure[data-player="3"]').count() === 1,
    'the new game\'s four codes stay when an answer for the old game arrives late');
  await host2.unroute('**/api/host/players');
  const st2024 = await waitStatus((s) => s.edition === '2024' && s.view && s.view.phase === 'ambition', 'the 2024 game waiting for Ambition cards');
  for (const place of ['wc3', 'wc4', 'dungeon1', 'dungeon2', 'dungeon3'])
    await statusPage.locator(`#castle rect.band[data-place="${place}"]`).waitFor({ timeout: kWait });
  check(true, 'the 2024 castle has its WCs and dungeons');
  // The Jester is guided to floor 3 after the deal.
  if (st2024.guidance) {
    await simPage.locator('#castle g.token[data-slug="jester"]').waitFor({ timeout: kWait });
    await simMove('jester', '3');
    await statusPage.locator('#castle g.token[data-slug="jester"][data-place="3"][data-state="ok"]').waitFor({ timeout: kWait });
    check(true, 'the Jester on floor 3, as guided');
  }
  await shot(simPage, 'sim-phone-2024');
  for (let p = 0; p < 4; ++p) {
    const link = await host2.locator(`#links figure[data-player="${p}"] a.player-link`).getAttribute('href');
    const page = (await api(url, `/api/player/${new URL(link).hash.slice(1)}`)).json;
    secrets.favourites.push(page.private.favourites);
  }
  await checkSecrecy('the 2024 deal', statusPage);
  // Player 0 keeps one of their two Ambition cards with a tap on their page.
  const link0 = await host2.locator('#links figure[data-player="0"] a.player-link').getAttribute('href');
  const p2024 = await newPage(kPhone);
  await p2024.goto(link0);
  await p2024.locator('#moment-ambition button.ambition-keep').nth(1).waitFor({ timeout: kWait });
  const choices = (await api(url, `/api/player/${new URL(link0).hash.slice(1)}`)).json.private.ambition_choices;
  check(choices.length === 2, `player 0 is offered two Ambition cards: ${choices}`);
  await p2024.locator(`button.ambition-keep[data-ambition="${choices[0]}"]`).tap();
  await p2024.locator('#moment-ambition button.ambition-confirm').tap();
  await p2024.locator(`#moment-ambition .ambition-kept[data-ambition="${choices[0]}"]`).waitFor({ timeout: kWait });
  check(true, 'the kept Ambition card shows on the player\'s page');
  const ambitionSlugs = choices;
  const publicNow = (await api(url, '/api/status')).text;
  check(!ambitionSlugs.some((a) => publicNow.includes(`"${a}"`)), 'no Ambition card in the public status');
  await shot(p2024, 'player-2024-ambition');
  await shot(statusPage, 'status-2024');
  // Pause, resume, abandon from the host page.
  for (const [button, state] of [['pause', 'paused'], ['resume', 'playing']]) {
    await host2.click(`button[data-request="${button}"]`);
    await waitStatus((s) => s.state === state, `the game ${state}`);
    await statusPage.locator('#game-line').filter({ hasText: state === 'paused' ? 'PAUSED' : 'Ambition' }).waitFor({ timeout: kWait });
    check(true, `${button} from the host page`);
  }
  host2.once('dialog', (d) => d.accept());
  await host2.click('button[data-request="abandon"]');
  await waitStatus((s) => s.state === 'abandoned', 'the game abandoned');
  check(true, 'abandon from the host page, after a confirmation');

  // The daemon restarts: the status page says it is reconnecting, then is
  // back by itself (the stream's "retry: 1000") with the log's last game.
  const rendersBefore = Number(await statusPage.evaluate(() => document.body.dataset.renders || 0));
  const restarted = server.restart();
  await statusPage.locator('#banner:not(.hidden)').waitFor({ timeout: kWait });
  check((await statusPage.locator('#banner').innerText()).includes('reconnecting'), 'the status page shows a reconnecting banner');
  await shot(statusPage, 'status-reconnecting');
  await restarted;
  const tBack = Date.now();
  await statusPage.locator('#banner.hidden').waitFor({ state: 'attached', timeout: kWait });
  await statusPage.waitForFunction((n) => Number(document.body.dataset.renders || 0) > n, rendersBefore, { timeout: kWait });
  const backMs = Date.now() - tBack;
  console.log(`the status page was back ${backMs} ms after serve listened again`);
  check(backMs < 5000, `the status page reconnects by itself after a restart (${backMs} ms)`);
  const after = await status();
  const line = await statusPage.locator('#game-line').innerText();
  check(after.state === 'no-game' ? /no.game/i.test(line) : line.length > 0, `the status page draws the restarted daemon's status (${after.state}: "${line}")`);
} catch (e) {
  ++failed;
  console.log(`FAIL: ${e.stack || e}`);
  console.log(`--- serve's output ---\n${server.log().slice(-3000)}`);
} finally {
  await close();
  await server.stop();
}
writeFileSync(join(artifacts, 'README.txt'), `Screenshots of the last browser test run:\n${shots.map((s) => `  ${s}`).join('\n')}\n`);
console.log(`screenshots: ${artifacts}`);
console.log(`web: ${passed} passed, ${failed} failed (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
process.exit(failed ? 1 : 0);
