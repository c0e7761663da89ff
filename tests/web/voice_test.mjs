// The referee's voice on the pages (issue 33), end to end on the real
// `vivaref serve --hardware=sim`: the host page's voice block chooses the
// table's language and turns the voice on and off, sets its volume and moments; a
// status page on a TV that opts in ("Speak on this screen": the tap a
// browser needs) says the referee's refusal with the browser's voice, in the
// table's language and at the host's volume; a status page that did not opt
// in says nothing; once the host turns the voice off nothing more is said;
// after the daemon restarts, the TV says the next line and nothing older.
// The browser's speechSynthesis is replaced by a recorder (headless
// chromium has no voices): the test asserts what would have been said.
import { api, serveMissing, startServe } from './daemon.mjs';
import { gameDriver } from './game_driver.mjs';
import { browserOrSkip, checker, kWait, newPage, shooter, skip } from './harness.mjs';

const [vivaref, artifacts = 'artifacts'] = process.argv.slice(2);
if (serveMissing(vivaref)) skip(serveMissing(vivaref));
const launchBrowser = await browserOrSkip();
const { check, fail, finish } = checker('web-voice');
const shot = shooter(artifacts, 'voice-');
const errors = [];
const kLaptop = { viewport: { width: 1280, height: 800 } };
const kTv = { viewport: { width: 1920, height: 1080 } };
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// A recorder in place of the browser's speech: what was said, in which
// language, how loud; each line "ends" 50 ms after it began.
function fakeSpeech() {
  window.__said = [];
  window.__cancelled = 0;
  class Utterance {
    constructor(text) {
      this.text = text;
    }
  }
  const speech = {
    current: null,
    speak(u) {
      if (u.text) window.__said.push({ text: u.text, lang: u.lang, volume: u.volume });
      this.current = u;
      setTimeout(() => {
        if (this.current !== u) return;
        this.current = null;
        if (u.onend) u.onend();
      }, 50);
    },
    cancel() {
      this.current = null;
      window.__cancelled += 1;
    },
    getVoices: () => [],
  };
  Object.defineProperty(window, 'speechSynthesis', { value: speech, configurable: true });
  window.SpeechSynthesisUtterance = Utterance;
}

const { browser, close } = await launchBrowser();
let server = null;
try {
  // The configuration turns the voice on; the host page changes it while playing.
  server = await startServe(vivaref, { edition: 'classic', extraConfig: '[voice]\nenabled = true\n' });
  const { url } = server;
  const token = server.hostToken;
  const driver = gameDriver(server);
  const { status, waitStatus: until } = driver;
  const sim = async (what, body) => {
    const r = await driver.sim(what, body);
    if (r.status !== 200) throw new Error(`/api/sim/${what} ${JSON.stringify(body)}: ${r.status} ${r.text}`);
  };
  const saidOn = (page) => page.evaluate(() => window.__said);

  // --- the host: French, the voice on at 50, every moment but the bots' ------------
  const hostPage = await newPage(browser, kLaptop, errors);
  await hostPage.goto(`${url}/host.html`);
  await hostPage.fill('#token', token);
  await hostPage.locator('#unlock button[type=submit]').click();
  await hostPage.locator('#voice-card #voice-enabled').waitFor({ state: 'visible', timeout: kWait });
  await hostPage.waitForFunction(() => document.querySelectorAll('#voice-language option').length === 4);
  const languages = await hostPage.locator('#voice-language option').allTextContents();
  check(languages.includes('Français') && languages.includes('Deutsch') && languages.includes('Italiano'),
    `the host chooses among the languages by their own names: ${languages}`);
  check((await hostPage.locator('#voice-speaker').textContent()).includes('speaker works'),
    'the host page says the castle\'s (simulated) speaker works');
  check(await hostPage.locator('#voice-enabled').isChecked(), 'the voice is on as the configuration says');
  await hostPage.uncheck('#voice-enabled');
  await until((s) => !s.voice.enabled, 'the host turns it off');
  await hostPage.selectOption('#voice-language', 'fr');
  await until((s) => s.language === 'fr', 'the table speaks French');
  check((await api(url, '/api/words')).json.table === 'fr', 'GET /api/words says the table\'s language is French');
  await hostPage.check('#voice-enabled');
  await hostPage.locator('#voice-volume').evaluate((e) => {
    e.value = '50';
    e.dispatchEvent(new Event('change', { bubbles: true }));
  });
  await hostPage.uncheck('#voice-moment-bot');
  const voice = (await until((s) => s.voice && s.voice.enabled && s.voice.volume === 50 && !s.voice.moments.includes('bot'),
    'the voice on at 50, bots silent')).voice;
  check(voice.moments.length === 6, `six moments speak: ${voice.moments}`);
  await shot(hostPage, 'host-voice');

  // --- two TVs: one opts in, one does not --------------------------------------
  const tv = await newPage(browser, kTv, errors);
  await tv.addInitScript(fakeSpeech);
  await tv.goto(`${url}/`);
  const quiet = await newPage(browser, kTv, errors);
  await quiet.addInitScript(fakeSpeech);
  await quiet.goto(`${url}/`);
  await tv.locator('#speak-here').waitFor({ state: 'visible', timeout: kWait });
  await tv.waitForFunction(() => document.body.dataset.renders && Number(document.body.dataset.renders) > 0);
  // A shared screen that chose no language of its own speaks the table's.
  const offer = await tv.locator('label.voice-here').textContent();
  check(offer.includes('Parler sur cet écran'), `the TV offers to speak, in the table's French: ${offer}`);
  await tv.check('#speak-here');

  // --- a game, and a refusal ---------------------------------------------------------
  const started = await api(url, '/api/host/new-game', {
    method: 'POST', token, body: { setup: { edition: 'classic', seats: 4 }, players: ['Ann', 'Bob', 'Clara', 'Dan'] },
  });
  check(started.status === 200, `a game starts: ${started.text.slice(0, 200)}`);
  await until((s) => s.view && s.view.phase === 'placement', 'the referee dealt');
  await sim('put', { character: 'dario', place: '5' });
  await until((s) => s.refusal && s.refusal.code === 'floor-not-allowed', 'placing on floor 5 refused');
  await tv.waitForFunction(() => window.__said.length > 0, null, { timeout: kWait });
  let said = await saidOn(tv);
  check(said.length === 1, `the TV said one line: ${JSON.stringify(said)}`);
  check(said[0].lang === 'fr' && said[0].volume === 0.5, `in French at the host's volume: ${JSON.stringify(said[0])}`);
  check(said[0].text.includes('Dario') && said[0].text.includes('Pour continuer'),
    `why, and what to put back, in French: ${said[0].text}`);
  await shot(tv, 'tv-refusal', { fullPage: false });
  await sim('lift', { character: 'dario' });
  await until((s) => !s.refusal, 'the refusal repaired');
  await sleep(300);
  check((await saidOn(quiet)).length === 0, 'the TV that did not opt in said nothing');

  // --- the host turns the voice off: nothing more is said --------------------------
  await hostPage.uncheck('#voice-enabled');
  await until((s) => !s.voice.enabled, 'the voice off');
  await sim('put', { character: 'dario', place: '0' });
  await until((s) => s.refusal, 'placing on floor 0 refused');
  await sleep(500);
  said = await saidOn(tv);
  check(said.length === 1, `nothing more said once the voice is off: ${JSON.stringify(said)}`);
  await sim('lift', { character: 'dario' });
  await until((s) => !s.refusal, 'the second refusal repaired');

  // --- the daemon restarts (its lines numbered from 1 again): the TV, back, says
  // only what comes next, with the configuration's voice (on, at 80) ------------
  await server.restart();
  await tv.locator('#banner').waitFor({ state: 'hidden', timeout: kWait });
  await until((s) => s.voice.enabled && s.voice.volume === 80 && s.game, 'the game resumed, the voice as configured');
  await sim('put', { character: 'dario', place: '5' });
  await until((s) => s.refusal, 'a refusal after the restart');
  await tv.waitForFunction(() => window.__said.length > 1, null, { timeout: kWait });
  said = await saidOn(tv);
  check(said.length === 2 && said[1].text.includes('Dario') && said[1].volume === 0.8,
    `after the restart the TV says the next refusal, once: ${JSON.stringify(said)}`);
  check(said.length === 2 && said[1].lang === 'fr' && said[1].text.includes('Pour continuer'),
    `in the resumed game's own language, French: ${JSON.stringify(said[1])}`);
  check(errors.length === 0, `no script errors: ${errors.join('; ')}`);
} catch (e) {
  fail(e);
  if (errors.length) console.log(`script errors: ${errors.join('; ')}`);
} finally {
  await close();
  if (server) await server.stop();
}
finish();
