// Issue 36: the guided set-up page (setup.html, js/setup.js) on the
// simulated castle playing a bench: readers r1 and r2 swapped (each one's
// chip under the other's place), r5 and r6 coupled, floor 3's LED line dead.
// On a phone (390x844) the host opens the set-up from the host page, puts a
// tag on each spot in turn (as on sim.html), chooses the spot's reader when
// two see the tag, answers the LEDs as the castle shows them, presses the
// keys when asked, reads the configuration to be written and saves it: the
// saved castle.ini puts r1 under floor 2 and r2 under floor 1. A laptop
// (1280x800) starts another set-up from the example castle and stops it: the
// castle is back on the saved one. Then "use this castle's readers": the
// phone sees the service restart, and the readers that do not open here
// said with the given file's castle running; a German phone puts the saved
// castle aside. A device without the host's secret sees nothing.
//   node tests/web/setup_test.mjs VIVAREF [ARTIFACTS]   exit 0 pass, 1 fail, 77 skipped
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { api, serveMissing, startServe } from './daemon.mjs';
import { browserOrSkip, checker, kPhone, kWait, newPage, pageWidth, shooter, skip } from './harness.mjs';

const vivaref = process.argv[2];
const artifacts = process.argv[3] || join(tmpdir(), 'vivaref-setup');
if (serveMissing(vivaref)) skip(serveMissing(vivaref));
const launchBrowser = await browserOrSkip();

const { check, fail, finish } = checker('web-setup');
const shot = shooter(artifacts, 'setup-');
const errors = [];
let readers = '';
for (let p = 0; p <= 6; ++p) readers += `[reader.r${p}]\nplace = ${p}\nbus = /dev/spidev0.1\nchip_select = gpiochip0:${20 + p}\n`;
const castleSections = `[castle]\nedition = classic\n${readers}[station.0]\nyes = gpiochip2:0\nno = gpiochip2:1\n[leds]\nplace.3 = gpiochip5:3\nplace.4 = gpiochip0:5\n`;
let stateDir = '';
// No --hardware (the configuration's `hardware = sim` rules, so a castle saved may switch it), and a
// notify socket as under systemd: a castle that needs other devices is saved and the service restarted
// on it (the test restarts serve, as vivaref-reconfigure would). Nobody listens on it: serve says so.
const server = await startServe(vivaref, {
  hardware: null,
  env: { NOTIFY_SOCKET: '@vivaref-web-setup-nobody' },
  castleSections,
  extraConfig: 'sim_bench = bench.txt\n',
  prepare: (db) => {
    stateDir = dirname(db);
    writeFileSync(join(stateDir, 'bench.txt'), 'chip gpiochip0:21 under 2\nchip gpiochip0:22 under 1\ncouple gpiochip0:25 gpiochip0:26\ndead-led place.3\n');
  },
});
const { browser, close } = await launchBrowser();

async function promptSays(page, text) {
  try {
    await page.waitForFunction((t) => document.getElementById('prompt').textContent === t, text, { timeout: kWait });
  } catch (e) {
    throw new Error(`the prompt is not "${text}" but "${await page.locator("#prompt").textContent()}"; message "${await page.locator("#message").textContent()}" (${e.message})`);
  }
  return true;
}
const kTag = '04AABBCCDD1122';

try {
  const { url } = server;
  const token = server.hostToken;

  // Without the secret: the lock, nothing of the set-up.
  const stranger = await newPage(browser, kPhone, errors);
  await stranger.goto(`${url}/setup.html`);
  await stranger.locator('#unlock:not(.hidden)').waitFor({ timeout: kWait });
  check(!(await stranger.locator('#start-in-force').isVisible()), 'without the host\'s secret the page shows no set-up');
  check((await api(url, '/api/host/setup')).status === 401, 'and its route answers 401');

  // The host's phone, from the host page.
  const phone = await newPage(browser, kPhone, errors);
  await phone.goto(`${url}/host.html#${token}`);
  await phone.locator('a[href="/setup.html"]').click();
  await phone.locator('#start-in-force').waitFor({ timeout: kWait });
  check(await phone.locator('#start-in-force').innerText() === 'Start from this castle’s readers', 'the host page leads to the set-up');
  await shot(phone, 'phone-start', { fullPage: false });
  await phone.locator('#start-in-force').click();
  for (let p = 0; p <= 6; ++p) {
    await api(url, '/api/sim/lift', { method: 'POST', token, body: { tag: kTag } });
    await promptSays(phone, `Put one tag ${p === 6 ? "on the throne" : `on floor ${p}`} (reader r${p}).`);
    const put = await api(url, '/api/sim/put', { method: 'POST', token, body: { tag: kTag, place: String(p) } });
    if (put.status !== 200) throw new Error(`the tag put on floor ${p}: ${put.status} ${JSON.stringify(put.json)}`);
    if (p === 5 || p === 6) {
      // r5 and r6 both see it: the host says which one is the spot's.
      await phone.locator(`#answers button[data-reader="r${p}"]`).waitFor({ timeout: kWait });
      if (p === 5) {
        await phone.waitForFunction(() => document.getElementById('live').textContent.startsWith('The castle sees a tag now on: r5, r6'), null, { timeout: kWait });
        check(true, 'what the castle sees now is shown: both readers');
        check((await phone.locator('#prompt').innerText()).startsWith('r5 and r6 both see the tag on floor 5'), 'the coupled pair is said');
        check((await phone.locator('#fix').innerText()).includes('different field groups'), 'with its fix');
        await shot(phone, 'phone-coupled', { fullPage: false });
      }
      // The last spot: the castle cleared before the checks begin, whose readers' step would see the
      // tag still on the coupled pair (a finding of its own).
      if (p === 6) await api(url, '/api/sim/lift', { method: 'POST', token, body: { tag: kTag } });
      await phone.locator(`#answers button[data-reader="r${p}"]`).click();
    }
    // The spot settled (its reader assigned): the castle is to be cleared before the next.
    if (p < 6) await promptSays(phone, 'Take every tag off the castle.');
  }
  await api(url, '/api/sim/lift', { method: 'POST', token, body: { tag: kTag } });
  await promptSays(phone, 'Is the LED of floor 3 lit?');
  check(JSON.stringify((await api(url, '/api/sim/leds')).json) === '{}', 'floor 3\'s LED asked about, and the castle shows it dark');
  await phone.locator('#answers button[data-answer="not-lit"]').click();
  await promptSays(phone, 'Is the LED of floor 4 lit?');
  await phone.locator('#answers button[data-answer="lit"]').click();
  await promptSays(phone, 'Press the Yes key of seat 1.');
  await api(url, '/api/sim/press', { method: 'POST', token, body: { station: 0, key: 'yes' } });
  await promptSays(phone, 'Press the No key of seat 1.');
  await api(url, '/api/sim/press', { method: 'POST', token, body: { station: 0, key: 'no' } });
  await promptSays(phone, 'Check the configuration below, then save it: the castle runs on it at once.');
  const ini = await phone.locator('#ini').innerText();
  check(ini.includes('[reader.r1]\nplace = 2') && ini.includes('[reader.r2]\nplace = 1'), 'the configuration to be written puts the swapped readers where their tags were seen');
  const findings = await phone.locator('#findings li').allInnerTexts();
  check(findings.length === 1 && findings[0].includes('Not lit: the LED of floor 3.') && findings[0].includes('gpiochip5 line 3'), `the dead LED with its fix (${findings.join(' | ')})`);
  check(await pageWidth(phone) <= 390, `no sideways scrolling on the phone (${await pageWidth(phone)} px)`);
  await shot(phone, 'phone-review', { fullPage: true });
  await phone.locator('#answers button[data-answer="save"]').click();
  await phone.locator('#end:text("Saved and applied: the castle runs on its new configuration.")').waitFor({ timeout: kWait });
  const saved = readFileSync(join(stateDir, 'castle.ini'), 'utf8');
  // The page showed it with the host's secret hidden; the file keeps it.
  check(!ini.includes(token) && ini.includes('host_token = ********'), 'the review does not show the host\'s secret');
  check(saved.includes(`host_token = ${token}`), 'castle.ini keeps the host\'s secret');
  check(saved.replace(`host_token = ${token}`, 'host_token = ********').trim() === ini.trim(), 'castle.ini is the configuration reviewed');
  // The tags next, on the castle now in force: the host's enrolment card, on this page.
  await phone.locator('#enrol-start').click();
  await phone.waitForFunction(() => document.getElementById('enrol-asking').textContent.length > 0, null, { timeout: kWait });
  check(true, `the enrolment asks for the first character (${await phone.locator('#enrol-asking').innerText()})`);
  await phone.locator('#enrol-stop').click();

  // A laptop: a set-up from the example castle, stopped; the castle back on the saved one.
  const laptop = await newPage(browser, { viewport: { width: 1280, height: 800 } }, errors);
  await laptop.goto(`${url}/setup.html#${token}`);
  await laptop.locator('#start-example').click();
  await promptSays(laptop, 'Put one tag on floor 0, on its spot 1 (reader floor0-a).');
  const tried = await api(url, '/api/host/castle', { token });
  check(tried.json.readers.length === 28, `the example castle's 28 readers are tried (${tried.json.readers.length})`);
  check(await pageWidth(laptop) <= 1280, 'no sideways scrolling on the laptop');
  await shot(laptop, 'laptop-places', { fullPage: false });
  await laptop.locator('#stop').click();
  await laptop.locator('#end:text("The set-up was stopped: nothing was saved, and the castle is back on its configuration.")').waitFor({ timeout: kWait });
  const back = await api(url, '/api/host/castle', { token });
  check(back.json.readers.length === 7, `the castle is back on its 7 readers (${back.json.readers.length})`);
  check(readFileSync(join(stateDir, 'castle.ini'), 'utf8') === saved, 'and the saved configuration is untouched');

  // "Use this castle's readers" (README, "Your castle"), on the phone: saved on the real readers, the
  // service restarted on them (by the test here); they do not open on this machine, so the given
  // file's castle runs and the page says why.
  const given = join(stateDir, 'vivaref.ini');
  const castleIni = join(stateDir, 'castle.ini');
  await phone.goto(`${url}/setup.html`);
  await phone.locator('#use-real:visible').waitFor({ timeout: kWait });
  check(await phone.locator('#castle-runs').innerText() === `The referee runs the simulated castle (${castleIni}): no reader of this castle is used yet.`, 'the page says the castle is simulated, and which file');
  await phone.locator('#use-real').click();
  await phone.waitForFunction(() => document.getElementById('message').textContent.includes('Waiting for the referee to come back…'), null, { timeout: kWait });
  const restarting = await phone.locator('#message').innerText();
  check(restarting.startsWith(`The castle’s configuration is saved in ${castleIni}. ${castleIni} needs other devices than the referee was given: the service restarts on it in a few seconds`), `the phone says the castle is saved and the service restarts ("${restarting}")`);
  check(!(await phone.locator('#use-real').isVisible()) && !(await phone.locator('#start-in-force').isVisible()), 'nothing to press while the service restarts');
  check(/^hardware = real$/m.test(readFileSync(castleIni, 'utf8')) && /^# .*sim_bench = /m.test(readFileSync(castleIni, 'utf8')), 'castle.ini now names the real readers, the bench put aside');
  await shot(phone, 'phone-restarting', { fullPage: false });
  await server.restart();
  await phone.locator('#castle-problem:visible').waitFor({ timeout: 30000 });
  const problem = await phone.locator('#castle-problem').innerText();
  check(problem.startsWith(`The castle saved in ${castleIni} did not open (`) && problem.includes('cannot open') && problem.includes(`the referee runs on the castle of ${given} instead`), `after the restart the page says the saved castle did not open, and why ("${problem}")`);
  check(await phone.locator('#castle-runs').innerText() === `The referee runs the simulated castle (${given}): no reader of this castle is used yet.`, 'and that the given file\'s castle runs');
  check((await api(url, '/api/host/castle', { token })).json.readers.length === 7, 'the castle runs on the given file\'s 7 readers');
  check(!(await phone.locator('#use-real').isVisible()), 'no second switch is offered while the saved castle does not open');
  check(await pageWidth(phone) <= 390, `no sideways scrolling on the phone (${await pageWidth(phone)} px)`);
  await shot(phone, 'phone-not-opened', { fullPage: false });

  // Put aside, from a phone in German: the given file is in force again (under systemd: once more a restart).
  const german = await newPage(browser, kPhone, errors);
  await german.context().addInitScript(() => localStorage.setItem('vivaref.language', 'de'));
  await german.goto(`${url}/setup.html#${token}`);
  await german.locator('#put-aside:visible').waitFor({ timeout: kWait });
  check(/^Das in .* gespeicherte Schloss ließ sich nicht öffnen \(.*\): der Schiedsrichter läuft stattdessen mit dem Schloss aus /.test(await german.locator('#castle-problem').innerText()), 'de: the saved castle that did not open, in German');
  check(await german.locator('#put-aside').innerText() === `Das gespeicherte Schloss beiseitelegen (zurück zu ${given})`, 'de: the put-aside button, in German');
  await german.locator('#put-aside').click();
  await german.waitForFunction(() => document.getElementById('message').textContent.includes('Warten, bis der Schiedsrichter wieder da ist…'), null, { timeout: kWait });
  check(!existsSync(castleIni) && /^hardware = real$/m.test(readFileSync(`${castleIni}.bak`, 'utf8')), 'castle.ini put aside as castle.ini.bak');
  await server.restart();
  // Back: the problem gone, the switch offered again.
  await german.locator('#use-real:visible').waitFor({ timeout: 30000 });
  check(!(await german.locator('#castle-problem').isVisible()), 'de: no problem left once the service is back, and the switch offered again');
  check(await german.locator('#castle-runs').innerText() === `Der Schiedsrichter betreibt das simulierte Schloss (${given}): noch wird kein Lesegerät dieses Schlosses genutzt.`, 'de: back on the given file\'s simulated castle, said in German');
  const done = await german.locator('#message').innerText();
  check(done.includes('Das gespeicherte Schloss wurde als') && done.includes('beiseitegelegt'), `de: what was done, in German ("${done}")`);
  await shot(german, 'phone-de-put-aside', { fullPage: false });
  check(errors.length === 0, `no script error in the pages: ${errors.join('; ')}`);
} catch (e) {
  fail(e);
  console.log(`--- serve's output ---\n${server.log().slice(-3000)}`);
} finally {
  await close();
  await server.stop();
}
finish();
