// The Castle health page (castle.html, issue 36) as the host reads it, at
// phone (390x844) and laptop (1280x800) size, on the real `vivaref serve
// --hardware=sim` playing a castle of MFRC522 readers on a bench file
// ([daemon] sim_bench, daemon/config/sim_bench.hpp) with five faults: floor
// 4's chip-select line has no chip (a dead reader), floor 2's and floor 3's
// antennas couple, floor 5's chip answers as a clone (VersionReg 0x88),
// the throne's as no MFRC522 (0x37), seat 1's Stomachache key is stuck:
// - a device without the host's secret sees "This page needs the host's
//   link" and nothing of the castle (no reader, no place);
// - the host's link opens it: the healthy readers "answer" with their chip
//   and wires, floor 4's "does not answer" with its failure and an unknown
//   chip, floors 2 and 3 "read another's tag" and the pair is named with
//   the tag put on floor 2 (by its character) and how often, floor 5 is a
//   clone, the throne's chip "not an MFRC522" with its version; the summary counts each; the station's keys are listed and the
//   one pressed on the simulated board says so, the stuck one that it reads
//   pressed; WC 3 and dungeon 3 stand beside floor 3 on a laptop;
// - axe finds nothing at either size; no sideways scrolling on the phone;
// - in French, the page says it in French.
// (The model's side, on serve's table core: tests/server/test_castle_health.cpp.)
//   node tests/web/castle_test.mjs VIVAREF [ARTIFACTS]   exit 0 pass, 1 fail, 77 skipped
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

// Floors 0-5 and the throne on one bus, reader rP on chip-select line
// gpiochip0:(20+P); the WCs and the dungeons on lines 10-14; station 0's keys.
const readers = ['0', '1', '2', '3', '4', '5', '6'].map((p) => `[reader.r${p}]\nplace = ${p}\nbus = /dev/spidev0.1\nchip_select = gpiochip0:${20 + Number(p)}\n`);
['wc3', 'wc4', 'dungeon1', 'dungeon2', 'dungeon3'].forEach((p, i) => readers.push(`[reader.${p}]\nplace = ${p}\nbus = /dev/spidev0.1\nchip_select = gpiochip0:${10 + i}\n`));
const castleSections = `[castle]\nedition = 2024\n${readers.join('')}[station.0]\nyes = gpiochip2:0\nno = gpiochip2:1\nstomachache = gpiochip2:2\n`;
const benchDir = mkdtempSync(join(tmpdir(), 'vivaref-castle-bench-'));
const bench = join(benchDir, 'bench.txt');
writeFileSync(bench, ['no-chip gpiochip0:24             # floor 4: nothing answers on its line',
  'couple gpiochip0:22 gpiochip0:23  # floors 2 and 3: their antennas couple',
  'version gpiochip0:25 0x88         # floor 5: an FM17522 clone',
  'version gpiochip0:26 0x37         # the throne: a chip that is not an MFRC522',
  'stuck station.0.stomachache       # seat 1\'s Stomachache reads pressed, always', ''].join('\n'));
const server = await startServe(vivaref, { castleSections, extraConfig: `sim_bench = ${bench}` });
const { browser, close } = await launchBrowser();
try {
  const { url } = server;
  const token = server.hostToken;
  const flat = (text) => text.replace(/\n/g, ' | ');
  check((await api(url, '/api/host/castle')).status === 401, 'GET /api/host/castle without the secret is 401');
  check((await api(url, '/api/sim/put', { method: 'POST', token, body: { character: 'eloise', place: '2' } })).status === 200, 'Eloise put on floor 2');
  check((await api(url, '/api/sim/put', { method: 'POST', token, body: { character: 'romeo', place: '0' } })).status === 200, 'Romeo put on floor 0');
  check((await api(url, '/api/sim/press', { method: 'POST', token, body: { station: 0, key: 'no' } })).status === 200, 'seat 1 pressed No on the simulated board');

  for (const [size, device] of kSizes) {
    // --- a device without the secret ---------------------------------------------
    const stranger = await newPage(browser, device, errors);
    await stranger.goto(`${url}/castle.html`);
    await stranger.locator('#unlock').waitFor({ state: 'visible', timeout: kWait });
    await stranger.waitForTimeout(1500);
    const strangerText = await stranger.locator('body').innerText();
    check(await stranger.locator('#health').isHidden(), `${size}: without the host's secret the castle is hidden`);
    check((await stranger.locator('article.reader').count()) === 0 && !/r3|Eloise|gpiochip/.test(strangerText),
      `${size}: without the host's secret nothing of the castle is on the page`);
    check(/host’s link/.test(strangerText), `${size}: it says the page needs the host's link`);
    await shot(stranger, `${size}-no-secret`);
    await stranger.context().close();

    // --- the host's device ----------------------------------------------------------
    const host = await newPage(browser, device, errors);
    await host.goto(`${url}/castle.html#${token}`);
    await host.locator('article.reader').first().waitFor({ timeout: kWait });
    check(!host.url().includes(token), `${size}: the secret leaves the address bar`);
    // A dead reader is silent once 2 s pass without a read; a coupled pair once read twice.
    await host.waitForFunction(() => {
      const state = (name) => document.querySelector(`article.reader[data-reader="${name}"]`)?.className || '';
      return state('r4').includes('state-silent') && state('r2').includes('state-cross-reads') && state('r0').includes('state-answers');
    }, null, { timeout: kWait });
    const count = await host.locator('article.reader').count();
    check(count === 12, `${size}: the castle's 12 readers are drawn (${count})`);

    // A healthy reader: answers, its chip, what it sees, its wires.
    const r0 = await readerText(host, 'r0');
    check(/✔ answers/.test(r0) && /Sees Romeo/.test(r0) && /reads a second/.test(r0) && /No failed scan/.test(r0),
      `${size}: floor 0's reader answers and sees Romeo ("${flat(r0)}")`);
    check(/Chip: MFRC522 v2\.0 \(version 0x92\)/.test(r0) && /mfrc522 · \/dev\/spidev0\.1 · gpiochip0:20/.test(r0),
      `${size}: a healthy reader's chip and wires`);
    check(/✔ answers/.test(await readerText(host, 'wc3')), `${size}: WC 3's reader answers`);

    // A dead reader: it does not answer, how it fails, no chip to name.
    const r4 = await readerText(host, 'r4');
    check(/✘ does not answer/.test(r4) && /(No read yet|No read for)/.test(r4) && /failed scans?, the last \d+ s ago: no answer on the bus/.test(r4) &&
      /Chip: unknown/.test(r4) && /gpiochip0:24/.test(r4), `${size}: a dead reader says it does not answer, how it fails, its line ("${flat(r4)}")`);

    // A coupled pair: both readers say so, the pair is named with the tag and how often.
    for (const name of ['r2', 'r3'])
      check(/⇄ reads another’s tag/.test(await readerText(host, name)), `${size}: ${name} says it reads another's tag`);
    check(/Sees Eloise/.test(await readerText(host, 'r3')), `${size}: floor 3's reader sees floor 2's Eloise too`);
    const cross = await host.locator('#cross').innerText();
    check(/r2 and r3 both read Eloise, now \(\d+ times\)/.test(cross), `${size}: the pair is named with its tag and how often ("${flat(cross)}")`);

    // A clone chip.
    const r5 = await readerText(host, 'r5');
    check(/◇ clone chip/.test(r5) && /Chip: a clone \(version 0x88\)/.test(r5), `${size}: a clone chip is named as such ("${flat(r5)}")`);
    // A chip that is not an MFRC522: it answers, but not as one; its version is said.
    const r6 = await readerText(host, 'r6');
    check(/✘ does not answer/.test(r6) && /Chip: not an MFRC522 \(version 0x37\)/.test(r6), `${size}: a chip that is not an MFRC522 is named with its version ("${flat(r6)}")`);

    const summary = await host.locator('#summary').innerText();
    check(/10 of 12 readers answer/.test(summary) && /2 readers do not answer/.test(summary) &&
      /1 pair of readers reads the same tag/.test(summary) && /1 reader has a clone chip/.test(summary),
      `${size}: the summary counts each fault ("${flat(summary)}")`);

    const keys = await host.locator('#keys').innerText();
    check(/Seat 1, ✘ No: pressed once, the last \d+ s ago/.test(keys) && /Seat 1, ✔ Yes: not pressed yet/.test(keys) && /gpiochip2:1/.test(keys) &&
      /Seat 1, ☹ Stomachache: reads pressed now \(held down, or stuck\)/.test(keys),
      `${size}: the station's keys with their lines and the last press ("${flat(keys)}")`);

    // The tower: the throne on top, WC 3 and dungeon 3 beside floor 3 on a laptop.
    const floorBox = await host.locator('section.health-place[data-place="3"]').boundingBox();
    const throneBox = await host.locator('section.health-place[data-place="6"]').boundingBox();
    check(throneBox.y < floorBox.y, `${size}: the throne is drawn above floor 3`);
    const titles = await host.locator('section.health-place h3').allInnerTexts();
    check(['Throne', 'Floor 3', 'WC 3', 'Dungeon 3'].every((t) => titles.includes(t)), `${size}: each place is titled ("${titles.join('", "')}")`);
    const wc3 = await host.locator('section.health-place[data-place="wc3"]').boundingBox();
    const dungeon3 = await host.locator('section.health-place[data-place="dungeon3"]').boundingBox();
    if (size === 'laptop')
      check(Math.abs(wc3.y - floorBox.y) < 2 && Math.abs(dungeon3.y - floorBox.y) < 2 && dungeon3.x < floorBox.x && wc3.x > floorBox.x,
        `${size}: WC 3 and dungeon 3 stand beside floor 3`);
    else check(wc3.y > floorBox.y && dungeon3.y > wc3.y, `${size}: WC 3 and dungeon 3 follow floor 3`);
    check((await pageWidth(host)) <= device.viewport.width, `${size}: no sideways scrolling (${await pageWidth(host)} px)`);
    const found = await axeViolations(host);
    check(!found.length, `${size}: axe finds nothing${found.length ? `:\n    ${found.join('\n    ')}` : ''}`);
    await shot(host, `${size}-castle`);
    await host.context().close();
  }

  // --- in French ---------------------------------------------------------------------
  const french = await newPage(browser, kSizes[0][1], errors);
  await french.context().addInitScript(() => localStorage.setItem('vivaref.language', 'fr'));
  await french.goto(`${url}/castle.html#${token}`);
  await french.locator('article.reader').first().waitFor({ timeout: kWait });
  await french.waitForFunction(() => document.documentElement.lang === 'fr', null, { timeout: kWait });
  const heading = await french.locator('h1').innerText();
  const frR0 = await readerText(french, 'r0');
  const frR4 = await readerText(french, 'r4');
  check(heading === 'Santé du château', `fr: the heading is French ("${heading}")`);
  check(/✔ répond/.test(frR0) && /Voit Romeo/.test(frR0) && /lectures par seconde/.test(frR0), `fr: a reader's state and figures are French ("${flat(frR0)}")`);
  check(/✘ ne répond pas/.test(frR4) && /aucune réponse sur le bus/.test(frR4), `fr: a dead reader in French ("${flat(frR4)}")`);
  const frCross = await french.locator('#cross').innerText();
  check(/r2 et r3 lisent tous deux Eloise/.test(frCross), `fr: the pair in French ("${flat(frCross)}")`);
  check(/10 sur 12 lecteurs répondent/.test(await french.locator('#summary').innerText()), 'fr: the summary is French');
  check(/Circuit : pas un MFRC522 \(version 0x37\)/.test(await readerText(french, 'r6')), 'fr: a chip that is not an MFRC522, in French');
  await shot(french, 'fr-phone');
  await french.context().close();
  check(!errors.length, `no script error: ${errors.join(' | ')}`);
} catch (e) {
  fail(e);
} finally {
  await close();
  await server.stop();
  rmSync(benchDir, { recursive: true, force: true });
}
finish();
