// Issue 36: "Check the castle" on the host's tools page (js/self_test.js),
// on the simulated castle playing a bench with two faults: reader r0's chip
// missing (its chip select GPIO 20, header pin 38) and floor 3's LED line
// driving nothing. On a phone (390x844) the host starts the check, answers
// the LEDs as the castle shows them (floor 3 dark, floor 4 lit), presses
// seat 1's keys when asked, and reads both faults with their fixes; a
// laptop (1280x800) opened afterwards shows the same findings; a device
// without the host's secret sees nothing of the check. Then the full check
// on a laptop and again on a phone, on a second castle whose bench couples
// r1 and r2, swaps r4 and r5, makes r3 a clone, sticks seat 1's Yes key and
// wires the throne's chip to GPIO 27 where r6 is configured on GPIO 26 (a
// chip select on the wrong line): the host puts one tag over each reader in
// turn (as on sim.html; on the throne nothing sees it and the host goes on)
// and reads r6's chip select, the coupled pair, the swapped pair and the
// stuck key with their fixes, and the clone as a note.
//   node tests/web/selftest_test.mjs VIVAREF [ARTIFACTS]   exit 0 pass, 1 fail, 77 skipped
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { api, serveMissing, startServe } from './daemon.mjs';
import { browserOrSkip, checker, kPhone, kWait, newPage, pageWidth, shooter, skip } from './harness.mjs';

const vivaref = process.argv[2];
const artifacts = process.argv[3] || join(tmpdir(), 'vivaref-selftest');
if (serveMissing(vivaref)) skip(serveMissing(vivaref));
const launchBrowser = await browserOrSkip();

const { check, fail, finish } = checker('web-selftest');
const shot = shooter(artifacts, 'selftest-');
const errors = [];
let readers = '';
for (let p = 0; p <= 6; ++p) readers += `[reader.r${p}]\nplace = ${p}\nbus = /dev/spidev0.1\nchip_select = gpiochip0:${20 + p}\n`;
const castleSections = `[castle]\nedition = classic\n${readers}[station.0]\nyes = gpiochip2:0\nno = gpiochip2:1\n[leds]\nplace.3 = gpiochip5:3\nplace.4 = gpiochip0:5\n`;
const serveOnBench = (bench) => startServe(vivaref, {
  castleSections,
  extraConfig: 'sim_bench = bench.txt\n',
  prepare: (db) => writeFileSync(join(dirname(db), 'bench.txt'), bench),
});
const server = await serveOnBench('no-chip gpiochip0:20\ndead-led place.3\n');
const second = await serveOnBench('couple gpiochip0:21 gpiochip0:22\nchip gpiochip0:24 under 5\nchip gpiochip0:25 under 4\nversion gpiochip0:23 0x88\nstuck station.0.yes\nchip gpiochip0:27 under 6\n');
const { browser, close } = await launchBrowser();

const prompt = (page) => page.locator('#self-test-prompt');

// axe-core's violations (as a11y_test.mjs runs it, through the DevTools
// protocol, which the pages' content security policy does not govern);
// null when tests/web/node_modules has no axe-core.
const kAxe = join(fileURLToPath(new URL('.', import.meta.url)), 'node_modules', 'axe-core', 'axe.min.js');
const axeSource = existsSync(kAxe) ? readFileSync(kAxe, 'utf8') : null;
async function axeViolations(page) {
  if (!axeSource) return null;
  if (!(await page.evaluate(() => Boolean(window.axe)))) await page.evaluate(axeSource);
  // The panel only: the tools page's other cards are audited elsewhere (or not yet).
  const result = await page.evaluate(() => window.axe.run({ include: [['#self-test-card']] }, { resultTypes: ['violations'] }));
  return result.violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
}
async function checkAxe(page, what) {
  const found = await axeViolations(page);
  if (found) check(!found.length, `axe: ${what}: no violation${found.length ? `:\n    ${found.join('\n    ')}` : ''}`);
}
async function promptSays(page, text) {
  await page.waitForFunction((t) => document.getElementById('self-test-prompt').textContent === t, text, { timeout: kWait });
  return true;
}

// The full check on the second castle, answered as the castle is: every LED
// lit, seat 1's No pressed (its Yes is stuck), one tag over each reader when
// asked; then its findings.
async function fullCheck(full, size) {
  const url2 = second.url;
  const token2 = second.hostToken;
  await full.goto(`${url2}/host-tools.html?check=castle#${token2}`);
  await full.locator('#self-test-start').waitFor({ timeout: kWait });
  await full.locator('#self-test-full').check();
  await full.locator('#self-test-start').click();
  // The castle's last check (the laptop's, before the phone's) is over: this one begins.
  await full.waitForFunction(() => document.body.dataset.selfTest !== 'over', null, { timeout: kWait });
  const tag = '04AB12CD34EF56';
  let put = false;
  let lastPrompt = '';
  const end = Date.now() + 60000;
  while (Date.now() < end) {
    const over = await full.evaluate(() => document.body.dataset.selfTest === 'over');
    if (over) break;
    const text = await full.locator('#self-test-prompt').innerText().catch(() => '');
    if (text === lastPrompt) {
      await full.waitForTimeout(100);
      continue;
    }
    lastPrompt = text;
    if (/^Is the LED/.test(text)) {
      await full.locator('#self-test-answers button[data-answer="lit"]').click();
    } else if (text === 'Press the No key of seat 1.') {
      await api(url2, '/api/sim/press', { method: 'POST', token: token2, body: { station: 0, key: 'no' } });
    } else if (/^Press the Yes key/.test(text)) {
      check(false, `${size}: the stuck Yes key is not asked for`);
      await full.locator('#self-test-answers button[data-answer="skip"]').click();
    } else if (text === 'Take every tag off the castle.') {
      if (put) await api(url2, '/api/sim/lift', { method: 'POST', token: token2, body: { tag } });
      put = false;
    } else {
      const asked = /^Put one tag (?:on|in) .* \(reader r(\d)\)\.$/.exec(text);
      if (asked) {
        const placed = await api(url2, '/api/sim/put', { method: 'POST', token: token2, body: { tag, place: asked[1] } });
        put = placed.status === 200;
        // No reader sees it (the throne's chip answers on another line): the host says so.
        if (asked[1] === '6') {
          await full.waitForTimeout(1000);
          check((await full.locator('#self-test-prompt').innerText()) === text, `${size}: a tag no reader sees leaves the question asked`);
          await full.locator('#self-test-answers button[data-answer="done"]').click();
        }
      }
    }
  }
  const endText = await full.locator('#self-test-end').innerText().catch(() => '');
  check(endText === 'The check is over: 4 faults to fix.', `${size}: the check ends with four faults ("${endText}"; last asked: "${lastPrompt}")`);
  const fullFindings = await full.locator('#self-test-findings li').allInnerTexts();
  check(fullFindings.length === 5, `${size}: the full check: five findings (${fullFindings.length})`);
  check(fullFindings.some((f) => f.includes('r6 (the throne) does not answer.') && f.includes('Check its chip select, GPIO 26, header pin 37')),
    `${size}: the reader whose chip answers on another line is named with its chip select's header pin`);
  check(fullFindings.some((f) => f.includes('r1 and r2 both see a tag put on floor 1.') && f.includes('put them in different field groups')),
    `${size}: the coupled pair is named, with the field groups to separate`);
  check(fullFindings.some((f) => f.includes('A tag put on floor 4 over r4 is seen by r5, which is configured for floor 5.') && f.includes('r4 and r5 look swapped')),
    `${size}: the swapped pair is named`);
  check(fullFindings.some((f) => f.includes('The Yes key of seat 1 answers untouched.') && f.includes('gpiochip2 line 0')),
    `${size}: the stuck key is named with its line`);
  check(fullFindings[4].startsWith('Note: r3 is a clone chip: FM17522 (version 0x88).'),
    `${size}: the clone is a note, after the faults`);
  check(await pageWidth(full) <= (size === 'phone' ? 390 : 1280), `${size}: no sideways scrolling`);
  await shot(full, `${size}-full-check`, { fullPage: true });
  await checkAxe(full, `the findings on a ${size}`);
}

try {
  const { url } = server;
  const token = server.hostToken;

  // Without the secret: the lock, nothing of the check.
  const stranger = await newPage(browser, kPhone, errors);
  await stranger.goto(`${url}/host-tools.html`);
  await stranger.locator('#unlock:not(.hidden)').waitFor({ timeout: kWait });
  check(!(await stranger.locator('#self-test-start').isVisible()), 'without the host\'s secret the page shows no check');
  check((await api(url, '/api/host/self-test')).status === 401, 'and its route answers 401');

  // The host's phone.
  const phone = await newPage(browser, kPhone, errors);
  await phone.goto(`${url}/host.html#${token}`);
  await phone.locator('a[href="/host-tools.html?check=castle"]').click();
  await phone.locator('#self-test-start').waitFor({ timeout: kWait });
  check(await phone.locator('#self-test-start').innerText() === 'Check the castle', 'the host page leads to "Check the castle"');
  await phone.locator('#self-test-start').click();
  await promptSays(phone, 'Asking every reader: leave the castle as it is.');
  check(true, 'the check asks the readers first');
  await promptSays(phone, 'Is the LED of floor 3 lit?');
  const dark = await api(url, '/api/sim/leds');
  check(JSON.stringify(dark.json) === '{}', `floor 3's LED asked about, and the castle shows it dark (${JSON.stringify(dark.json)})`);
  await shot(phone, 'phone-led', { fullPage: false });
  await checkAxe(phone, 'the LED question on a phone');
  await phone.locator('#self-test-answers button[data-answer="not-lit"]').click();
  await promptSays(phone, 'Is the LED of floor 4 lit?');
  const lit = await api(url, '/api/sim/leds');
  check(JSON.stringify(lit.json) === '{"place-4":"on"}', `floor 4's LED is lit alone (${JSON.stringify(lit.json)})`);
  await phone.locator('#self-test-answers button[data-answer="lit"]').click();
  await promptSays(phone, 'Press the Yes key of seat 1.');
  check((await phone.locator('#self-test-step').innerText()) === 'The vote keys: 1 of 2', 'the step and how far');
  await api(url, '/api/sim/press', { method: 'POST', token, body: { station: 0, key: 'yes' } });
  await promptSays(phone, 'Press the No key of seat 1.');
  await api(url, '/api/sim/press', { method: 'POST', token, body: { station: 0, key: 'no' } });
  await phone.locator('#self-test-end:text("The check is over: 2 faults to fix.")').waitFor({ timeout: kWait });
  const findings = await phone.locator('#self-test-findings li').allInnerTexts();
  check(findings.length === 2, `two findings (${findings.length})`);
  check(findings.some((f) => f.includes('r0 (floor 0) does not answer.') && f.includes('Check its chip select, GPIO 20, header pin 38, then its bus /dev/spidev0.1 and its power.')),
    'the dead reader is named with its chip select\'s header pin');
  check(findings.some((f) => f.includes('Not lit: the LED of floor 3.') && f.includes('Check the LED, its resistor and gpiochip5 line 3.')),
    'the dead LED is named with its line');
  check(await pageWidth(phone) <= 390, `no sideways scrolling on the phone (${await pageWidth(phone)} px)`);
  check(await prompt(phone).isHidden(), 'nothing is asked any more');
  await shot(phone, 'phone-findings', { fullPage: false });

  // A laptop opened afterwards: the same findings.
  const laptop = await newPage(browser, { viewport: { width: 1280, height: 800 } }, errors);
  await laptop.goto(`${url}/host-tools.html#${token}`);
  await laptop.locator('#self-test-findings li').nth(1).waitFor({ timeout: kWait });
  check((await laptop.locator('#self-test-findings li').count()) === 2, 'the laptop shows the same two findings');
  check(await pageWidth(laptop) <= 1280, 'no sideways scrolling on the laptop');
  await shot(laptop, 'laptop-findings', { fullPage: true });

  // --- the full check on the second castle, on a laptop then a phone --------
  for (const [size, device] of [['laptop', { viewport: { width: 1280, height: 800 } }], ['phone', kPhone]]) {
    const full = await newPage(browser, device, errors);
    await fullCheck(full, size);
    await full.context().close();
  }
  check(errors.length === 0, `no script error in the pages: ${errors.join('; ')}`);
} catch (e) {
  fail(e);
  console.log(`--- serve's output ---\n${server.log().slice(-3000)}`);
} finally {
  await close();
  await server.stop();
  await second.stop();
}
finish();
