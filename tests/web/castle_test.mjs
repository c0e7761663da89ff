// The Castle health page (castle.html, issue 36) as the host reads it, at
// phone (390x844) and laptop (1280x800) size, on the real `vivaref serve
// --hardware=sim`:
// - a device without the host's secret sees "This page needs the host's
//   link" and nothing of the castle (no reader, no place);
// - the host's link opens it: every reader of the simulated castle
//   "answers", the summary says all of them do, floor 3's reader sees the
//   character put there (by name), no cross-read, the keys pressed on the
//   simulated board are listed by seat;
// - a silent reader and a cross-read pair as the page shows them: the
//   daemon's own answer with floor 4's reader made silent and a pair added
//   (the page's drawing of those states; the daemon's side of them, a
//   silenced reader and crosstalk on the simulated castle, is
//   tests/server/test_castle_health.cpp);
// - axe finds nothing at either size; no sideways scrolling on the phone;
// - in French, the page says it in French.
//   node tests/web/castle_test.mjs VIVAREF [ARTIFACTS]   exit 0 pass, 1 fail, 77 skipped
import { existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { api, serveMissing, startServe } from './daemon.mjs';
import { browserOrSkip, checker, kWait, newPage, pageWidth, shooter, skip } from './harness.mjs';

const vivaref = process.argv[2];
const artifacts = process.argv[3] || join(tmpdir(), 'vivaref-castle');
if (serveMissing(vivaref)) skip(serveMissing(vivaref));
const launchBrowser = await browserOrSkip();
const here = fileURLToPath(new URL('.', import.meta.url));
const kAxe = join(here, 'node_modules', 'axe-core', 'axe.min.js');
if (!existsSync(kAxe)) skip('tests/web/node_modules lacks axe-core: run `npm ci --prefix tests/web` (.ci/dev deps does)');
const axeSource = readFileSync(kAxe, 'utf8');

const kSizes = [
  ['phone', { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true }],
  ['laptop', { viewport: { width: 1280, height: 800 } }],
];
const { check, fail, finish } = checker('web-castle');
const shot = shooter(artifacts, 'castle-');
const errors = [];

async function axeViolations(page) {
  // Through the DevTools protocol, which the page's content security policy does not govern.
  if (!(await page.evaluate(() => Boolean(window.axe)))) await page.evaluate(axeSource);
  const result = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
  return result.violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
}

const readerText = (page, name) => page.locator(`article.reader[data-reader="${name}"]`).innerText();

const server = await startServe(vivaref, { edition: 'classic' });
const { browser, close } = await launchBrowser();
try {
  const { url } = server;
  const token = server.hostToken;
  check((await api(url, '/api/host/castle')).status === 401, 'GET /api/host/castle without the secret is 401');
  check((await api(url, '/api/sim/put', { method: 'POST', token, body: { character: 'odessa', place: '3' } })).status === 200, 'Odessa put on floor 3');
  check((await api(url, '/api/sim/press', { method: 'POST', token, body: { station: 1, key: 'no' } })).status === 200, 'seat 2 pressed No on the simulated board');

  for (const [size, device] of kSizes) {
    // --- a device without the secret ---------------------------------------------
    const stranger = await newPage(browser, device, errors);
    await stranger.goto(`${url}/castle.html`);
    await stranger.locator('#unlock').waitFor({ state: 'visible', timeout: kWait });
    await stranger.waitForTimeout(1500);
    const strangerText = await stranger.locator('body').innerText();
    check(await stranger.locator('#health').isHidden(), `${size}: without the host's secret the castle is hidden`);
    check((await stranger.locator('article.reader').count()) === 0 && !/floor3|Odessa/.test(strangerText),
      `${size}: without the host's secret nothing of the castle is on the page`);
    check(/host’s link/.test(strangerText), `${size}: it says the page needs the host's link`);
    await shot(stranger, `${size}-no-secret`);
    await stranger.context().close();

    // --- the host's device, healthy castle ---------------------------------------
    const host = await newPage(browser, device, errors);
    await host.goto(`${url}/castle.html#${token}`);
    await host.locator('article.reader').first().waitFor({ timeout: kWait });
    check(!host.url().includes(token), `${size}: the secret leaves the address bar`);
    await host.waitForFunction(() => [...document.querySelectorAll('article.reader')].every((r) => r.classList.contains('state-answers')), null, { timeout: kWait });
    const readers = await host.locator('article.reader').count();
    check(readers === 12, `${size}: the standard castle's 12 readers are drawn (${readers})`);
    const summary = await host.locator('#summary').innerText();
    check(/12 of 12 readers answer/.test(summary), `${size}: the summary says every reader answers ("${summary}")`);
    const floor3 = await readerText(host, 'floor3');
    check(/✔ answers/.test(floor3) && /Sees Odessa/.test(floor3) && /reads a second/.test(floor3),
      `${size}: floor 3's reader answers and sees Odessa ("${floor3.replace(/\n/g, ' | ')}")`);
    check(/Chip: unknown/.test(floor3), `${size}: a chip the castle does not name is "unknown"`);
    check(/Sees no tag/.test(await readerText(host, 'floor2')), `${size}: floor 2's reader sees no tag`);
    check(/No tag was read by two readers at once/.test(await host.locator('#cross').innerText()), `${size}: no cross-read`);
    const keys = await host.locator('#keys').innerText();
    check(/Seat 2, ✘ No: pressed once/.test(keys), `${size}: the key pressed is listed by seat ("${keys.replace(/\n/g, ' | ')}")`);
    const floorBox = await host.locator('section.health-place[data-place="3"]').boundingBox();
    const throneBox = await host.locator('section.health-place[data-place="6"]').boundingBox();
    check(throneBox.y < floorBox.y, `${size}: the throne is drawn above floor 3`);
    if (size === 'laptop') {
      const wc3 = await host.locator('section.health-place[data-place="wc3"]').boundingBox();
      const dungeon3 = await host.locator('section.health-place[data-place="dungeon3"]').boundingBox();
      check(wc3 && dungeon3 && Math.abs(wc3.y - floorBox.y) < 2 && Math.abs(dungeon3.y - floorBox.y) < 2 &&
        dungeon3.x < floorBox.x && wc3.x > floorBox.x, `${size}: WC 3 and dungeon 3 stand beside floor 3`);
    }
    check((await pageWidth(host)) <= device.viewport.width, `${size}: no sideways scrolling (${await pageWidth(host)} px)`);
    const found = await axeViolations(host);
    check(!found.length, `${size}: axe finds nothing on the healthy castle${found.length ? `:\n    ${found.join('\n    ')}` : ''}`);
    await shot(host, `${size}-healthy`);

    // --- a silent reader and a cross-read pair, as the page draws them -------------
    await host.route('**/api/host/castle', async (route) => {
      const response = await route.fetch();
      const report = await response.json();
      for (const r of report.readers) {
        if (r.name === 'floor4') {
          Object.assign(r, { state: 'silent', answers: false, tags: [], reads_per_second: 0, last_read_ms_ago: 7000 });
          r.failed = { count: 9, recent: 2, kind: 'no-answer', message: 'reader floor4: the chip does not answer', ms_ago: 400 };
        }
        if (r.name === 'floor2' || r.name === 'floor3') r.state = 'cross-reads';
      }
      report.cross_reads = [{ readers: ['floor2', 'floor3'], places: ['2', '3'], same_place: false,
        tag: { uid: '04A1B2C3D4E5F6', character: 'odessa' }, count: 57, first_ms_ago: 9000, last_ms_ago: 10, now: true }];
      await route.fulfill({ response, json: report });
    });
    await host.waitForFunction(() => document.querySelector('article.reader[data-reader="floor4"]')?.classList.contains('state-silent'), null, { timeout: kWait });
    const floor4 = await readerText(host, 'floor4');
    check(/✘ does not answer/.test(floor4) && /No read for 7 seconds/.test(floor4) && /9 failed scans, the last 0 s ago: no answer on the bus/.test(floor4),
      `${size}: a silent reader says it does not answer, since when and how it failed ("${floor4.replace(/\n/g, ' | ')}")`);
    const silentSummary = await host.locator('#summary').innerText();
    check(/11 of 12 readers answer/.test(silentSummary) && /1 reader does not answer/.test(silentSummary) && /1 pair of readers reads the same tag/.test(silentSummary),
      `${size}: the summary counts the silent reader and the pair ("${silentSummary.replace(/\n/g, ' | ')}")`);
    check(/⇄ reads another’s tag/.test(await readerText(host, 'floor2')), `${size}: a reader of the pair says it reads another's tag`);
    const cross = await host.locator('#cross').innerText();
    check(/floor2 and floor3 both read Odessa, now \(57 times\)/.test(cross), `${size}: the pair is named with its tag and how often ("${cross}")`);
    const faulty = await axeViolations(host);
    check(!faulty.length, `${size}: axe finds nothing with a silent reader and a pair${faulty.length ? `:\n    ${faulty.join('\n    ')}` : ''}`);
    await shot(host, `${size}-silent-and-pair`);
    await host.context().close();
  }

  // --- in French ---------------------------------------------------------------------
  const french = await newPage(browser, kSizes[0][1], errors);
  await french.context().addInitScript(() => localStorage.setItem('vivaref.language', 'fr'));
  await french.goto(`${url}/castle.html#${token}`);
  await french.locator('article.reader').first().waitFor({ timeout: kWait });
  await french.waitForFunction(() => document.documentElement.lang === 'fr', null, { timeout: kWait });
  const heading = await french.locator('h1').innerText();
  const frFloor3 = await readerText(french, 'floor3');
  check(heading === 'Santé du château', `fr: the heading is French ("${heading}")`);
  check(/✔ répond/.test(frFloor3) && /Voit Odessa/.test(frFloor3) && /lectures par seconde/.test(frFloor3),
    `fr: a reader's state and figures are French ("${frFloor3.replace(/\n/g, ' | ')}")`);
  check(/12 sur 12 lecteurs répondent/.test(await french.locator('#summary').innerText()), 'fr: the summary is French');
  await shot(french, 'fr-phone');
  await french.context().close();
  check(!errors.length, `no script error: ${errors.join(' | ')}`);
} catch (e) {
  fail(e);
} finally {
  await close();
  await server.stop();
}
finish();
