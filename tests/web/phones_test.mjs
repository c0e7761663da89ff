// A 2024 game with the Ambition option played from the phones alone: Debian's
// chromium (playwright-core) on the real `vivaref serve --hardware=sim`.
//   node tests/web/phones_test.mjs VIVAREF [ARTIFACT_DIR]
// Exit 0 pass, 1 fail, 77 skipped (no chromium, node_modules or serve).
//
// The host starts a 5-seat 2024 game of one round with Ambition on the host
// page (seats counted from 1 there). Each player's page, in a browser
// context of its own at phone size, shows two Ambition cards as buttons;
// while the status page (laptop size) names who still has to choose, the
// players tap one each. One tap while the game is paused shows the
// referee's refusal on that phone; resumed, the tap keeps the card and the
// phone says so. The status page never names a card. The castle is played
// through the simulated castle's API (placements, the referee's guidance,
// an ascent to the throne, five Yes keys) to the end of the game. All
// along, the status page's visible text names characters and places as
// people do ("Eloise", "floor 4"), never a slug or a seat counted from 0.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { api, serveMissing, startServe } from './daemon.mjs';
import { gameDriver } from './game_driver.mjs';
import { browserOrSkip, checker, kPhone, kWait, newPage, pageWidth, shooter, skip } from './harness.mjs';

// Text as a person sees it: without the invisible isolates around names.
const visible = (text) => text.replace(/[\u2066-\u2069]/g, '');

const here = fileURLToPath(new URL('.', import.meta.url));
const [vivaref, artifactArg] = process.argv.slice(2);
const artifacts = artifactArg || join(here, 'artifacts');
const launchBrowser = await browserOrSkip();
const missing = serveMissing(vivaref);
if (missing) skip(missing);
const { check, fail, finish } = checker('web-phones');
const shot = shooter(artifacts, 'phones-');
const kLaptop = { viewport: { width: 1280, height: 800 } };

const server = await startServe(vivaref, { edition: '2024' });
const { url } = server;
const { status, waitStatus, host, play, followGuidance, sim } = gameDriver(server);
const names = ['Ann', 'Bo', 'Cleo', 'Dan', 'Eve'];
const kSlugs = ['eloise', 'ouaf', 'caius', 'foidvo', 'jeanne', 'merlin', 'victoria', 'leonardo', 'romeo', 'bridget',
  'agathe', 'gontran', 'blanche', 'jester'];
const kAmbitionSlugs = ['jester-king', 'its-a-queen', 'its-a-king', 'wc-0', 'wc-1', 'wc-2', 'no-floors-0-1', 'no-floors-2-3',
  'no-floors-4-5', 'dungeons-1', 'dungeons-2', 'dungeons-3', 'no-wc-no-dungeon', 'only-yes', 'friend-of-the-king', 'under-11'];

// The status page's visible text, checked for words a player does not use.
const statusTexts = [];
async function lookAtStatus(statusPage, label) {
  await statusPage.waitForTimeout(150); // the last event drawn
  const text = await statusPage.locator('body').innerText();
  statusTexts.push({ label, text });
  const slugs = kSlugs.filter((slug) => new RegExp(`\\b${slug}\\b`).test(text));
  check(slugs.length === 0, `no character slug on the status page (${label}): ${slugs.join(', ')}`);
  check(!/\bseat 0\b/i.test(text), `no seat counted from 0 on the status page (${label})`);
  check(!/ on [0-6]\b| from [0-6] /.test(text), `no place as a bare number on the status page (${label}): ${(text.match(/.{0,30} (on|from) [0-6]\b.{0,10}/) || [''])[0]}`);
  return text;
}

const { browser, close } = await launchBrowser();
const errors = [];
try {
  const statusPage = await newPage(browser, kLaptop, errors);
  await statusPage.goto(`${url}/`);
  await statusPage.waitForFunction(() => Number(document.body.dataset.renders || 0) > 0, null, { timeout: kWait });

  // --- the host starts the game on the host page -------------------------------------
  const hostPage = await newPage(browser, kLaptop, errors);
  await hostPage.goto(`${url}/host.html`);
  if (server.hostToken) {
    await hostPage.fill('#token', server.hostToken);
    await hostPage.locator('#unlock button[type=submit]').click();
  }
  await hostPage.locator('#controls').waitFor({ state: 'visible', timeout: kWait });
  await hostPage.check('input[name=edition][value="2024"]');
  await hostPage.fill('#seats', '5');
  await hostPage.locator('#seats').dispatchEvent('input');
  const labels = await hostPage.locator('#names label:has(input.player-name)').allInnerTexts();
  check((await hostPage.locator('#names select.seat-bot').count()) === 5, 'each of the 5 seats may be made a bot');
  check(labels.length === 5 && labels[0].startsWith('Seat 1') && labels[4].startsWith('Seat 5'), `the host page counts seats from 1: ${labels.map((l) => l.split(':')[0]).join(', ')}`);
  const firstOptions = await hostPage.locator('#first option').allInnerTexts();
  check(firstOptions.join(',') === 'Seat 1,Seat 2,Seat 3,Seat 4,Seat 5', `the first seat is chosen among Seat 1..5: ${firstOptions}`);
  check(!(await hostPage.locator('#chance-kind option[value=keep]').count()), 'the host\'s chance box offers no Ambition keep');
  for (let i = 0; i < 5; ++i) await hostPage.fill(`input.player-name[data-player="${i}"]`, names[i]);
  await hostPage.selectOption('#first', '0');
  await hostPage.fill('#rounds', '1');
  await hostPage.check('#ambition');
  await hostPage.locator('#new-game button[type=submit]').click();
  await hostPage.locator('#links figure').nth(4).waitFor({ timeout: kWait });
  const captions = await hostPage.locator('#links figcaption').allInnerTexts();
  check(captions[0].includes('seat 1') && captions[4].includes('seat 5') && !captions.some((c) => /seat 0\b/.test(c)), `the links name seats from 1: ${captions.map((c) => c.split('\n')[0]).join('; ')}`);
  const links = [];
  for (let p = 0; p < 5; ++p) links.push(await hostPage.locator(`#links figure[data-player="${p}"] a.player-link`).getAttribute('href'));
  await hostPage.close();

  // --- the deal: each phone shows its two cards ----------------------------------------
  const dealt = await waitStatus((s) => s.view && s.view.phase === 'ambition', 'the Ambition phase', 20000);
  await followGuidance(); // the Jester to floor 3
  check(JSON.stringify((dealt.ambition_waiting || []).map((w) => w.name)) === JSON.stringify(names), `the status names all five as still choosing: ${JSON.stringify(dealt.ambition_waiting)}`);
  await statusPage.locator('#ambition-waiting').waitFor({ timeout: kWait });
  let waitingText = await statusPage.locator('#ambition-waiting').innerText();
  check(names.every((n) => waitingText.includes(n)), `the status page shows who still has to choose: ${waitingText}`);
  await shot(statusPage, 'status-choosing', { fullPage: false });
  await lookAtStatus(statusPage, 'the deal');

  // Five phones, each in a context of its own, opened together.
  const phones = await Promise.all(links.map(async (link) => {
    const phone = await newPage(browser, kPhone, errors);
    await phone.goto(link);
    await phone.locator('button.ambition-keep').nth(1).waitFor({ timeout: 30000 });
    return phone;
  }));
  const choices = [];
  for (const phone of phones) choices.push(await phone.locator('button.ambition-keep').evaluateAll((bs) => bs.map((b) => b.dataset.ambition)));
  check(choices.every((c) => c.length === 2), `each phone offers two cards: ${JSON.stringify(choices)}`);
  check(!(await phones[0].locator('#ambition').innerText()).includes('tell the host'), 'no phone asks to tell the host');
  check(/seat 1\b/.test(await phones[0].locator('#game-line').innerText()), `the first phone says seat 1: ${await phones[0].locator('#game-line').innerText()}`);
  await shot(phones[0], 'phone-choice', { fullPage: false });

  // A tap while the game is paused: refused, and the phone says why.
  check((await host('pause')).status === 200, 'the host pauses');
  await waitStatus((s) => s.state === 'paused', 'the pause');
  await phones[1].locator(`button.ambition-keep[data-ambition="${choices[1][0]}"]`).tap();
  await phones[1].locator('#ambition .message.error').waitFor({ timeout: kWait });
  const refusal = await phones[1].locator('#ambition .message.error').innerText();
  check(/Not kept: .*paused/i.test(refusal), `the phone shows the referee's refusal: ${refusal}`);
  check((await phones[1].locator('button.ambition-keep').count()) === 2, 'the two cards are still offered after the refusal');
  check((await host('resume')).status === 200, 'the host resumes');
  await waitStatus((s) => s.state === 'playing', 'the game resumed');

  // Each player taps one card; the status page loses that name, never shows the card.
  const kept = [];
  for (let p = 0; p < 5; ++p) {
    const pick = choices[p][p % 2];
    kept.push(pick);
    await phones[p].locator(`button.ambition-keep[data-ambition="${pick}"]`).tap();
    await phones[p].locator('#ambition .message.ok').waitFor({ timeout: kWait });
    const mine = await phones[p].locator('#ambition').innerText();
    check(mine.includes('Kept') && (await phones[p].locator(`#ambition [data-ambition="${pick}"]`).count()) === 1 && !(await phones[p].locator('button.ambition-keep').count()),
      `${names[p]}'s phone confirms the card kept and offers no other: ${mine.replace(/\s+/g, ' ')}`);
    if (p === 0) await shot(phones[0], 'phone-kept', { fullPage: false });
    if (p < 4) {
      const s = await waitStatus((x) => (x.ambition_waiting || []).length === 4 - p, `${names[p]} no longer waited for`);
      check(!s.ambition_waiting.some((w) => w.name === names[p]), `${names[p]} has chosen: the status no longer names them`);
      await statusPage.locator('#ambition-waiting').filter({ hasNotText: names[p] }).waitFor({ timeout: kWait });
      waitingText = await statusPage.locator('#ambition-waiting').innerText();
      check(names.slice(p + 1).every((n) => waitingText.includes(n)) && !waitingText.includes(names[p]), `the status page lists only who still chooses: ${waitingText}`);
      const publicText = `${(await api(url, '/api/status')).text}\n${await statusPage.locator('body').innerText()}`;
      const shown = kAmbitionSlugs.filter((slug) => publicText.includes(`"${slug}"`));
      check(shown.length === 0, `no Ambition card in the public status after ${names[p]} kept one: ${shown}`);
      for (const card of [...choices.flat()]) {
        const word = await phones[0].evaluate(async (c) => (await import('/js/names.js')).ambitionWord(c), card);
        if (publicText.includes(word)) check(false, `the status page shows the card "${word}"`);
      }
    }
  }
  const placing = await waitStatus((s) => s.view.phase === 'placement', 'the placement');
  check(!placing.ambition_waiting.length, 'nobody is waited for once all kept');
  await statusPage.locator('#ambition-waiting').waitFor({ state: 'detached', timeout: kWait });
  check(true, 'the status page no longer asks for Ambition cards');

  // The host's chance box reads names as the pages show them (js/chance_words.js).
  const typed = await statusPage.evaluate(async () => (await import('/js/chance_words.js')).slugsFromNames(
    { favourites: [['Eloise', 'The Jester', 'caius']], ambitions: [['No WC and no dungeon (8)', 'Under 11']], pile: ['✔ Yes', 'No'] }, '2024'));
  check(JSON.stringify(typed) === JSON.stringify({ favourites: [['eloise', 'jester', 'caius']], ambitions: [['no-wc-no-dungeon', 'under-11']], pile: ['yes', 'no'] }),
    `the chance box turns names into slugs: ${JSON.stringify(typed)}`);

  // --- the castle: placement, the leftovers, the ascent, the election -------------------
  const roster = new Map((placing.roster || []).map((c) => [c.id, c.name]));
  const placements = [['eloise', '4'], ['ouaf', '4'], ['caius', '4'], ['foidvo', '4'], ['jeanne', '3'],
    ['merlin', '3'], ['victoria', '3'], ['leonardo', '2'], ['romeo', '2'], ['bridget', '2']];
  for (const [i, [slug, place]] of placements.entries()) {
    await play(slug, place, `${names[i % 5]} places ${slug} on ${place}`);
    if (i === 0) {
      await statusPage.locator('#last-action').filter({ hasText: 'Eloise' }).waitFor({ timeout: kWait });
      // What a person reads: the isolates around a name (U+2066-2069) are invisible.
      const last = visible(await statusPage.locator('#last-action').innerText());
      check(last === `Last: Ann placed ${roster.get('eloise')} on floor 4.`, `the last action in words: ${last}`);
      await lookAtStatus(statusPage, 'the first placement');
    }
  }
  await followGuidance(); // the leftovers on floor 0
  await waitStatus((s) => s.view.phase === 'ascent' && !s.guidance, 'the ascent');
  // A refusal in words: Bo (not Ann) moves first... the board is Ann's turn, so
  // a piece put two floors up is refused with place words.
  await sim('put', { character: 'bridget', place: '4' });
  const refused = await waitStatus((s) => s.refusal, 'a refused move');
  await statusPage.locator('#refusal:not(.hidden)').waitFor({ timeout: kWait });
  const refusalText = await statusPage.locator('#refusal').innerText();
  check(/Bridget/.test(refusalText) && /floor 2/.test(refusalText), `the refusal names Bridget and floor 2: ${refusalText.replace(/\s+/g, ' ')}`);
  check(refused.refusal.restore.every((r) => !/\b(bridget|on [0-6])\b/.test(r.do)), `the refusal's steps are in words: ${JSON.stringify(refused.refusal.restore)}`);
  await lookAtStatus(statusPage, 'a refusal');
  await shot(statusPage, 'status-refusal', { fullPage: false });
  await play('bridget', '2', 'bridget put back');
  await play('eloise', '5', 'Ann moves eloise to 5');
  await statusPage.locator('#last-action').filter({ hasText: 'floor 5' }).waitFor({ timeout: kWait });
  check(visible(await statusPage.locator('#last-action').innerText()) === 'Last: Ann moved Eloise from floor 4 to floor 5.', 'the move in words');
  await play('eloise', '6', 'Bo moves eloise to the throne');
  await waitStatus((s) => s.election, 'the election');
  await lookAtStatus(statusPage, 'the election');
  for (let seat = 0; seat < 5; ++seat) await sim('press', { station: seat, key: 'yes' });

  // --- the end ----------------------------------------------------------------------------
  const over = await waitStatus((s) => s.state === 'finished', 'the end of the game', 20000);
  check(over.view.finished_rounds.length === 1, 'the one round is scored');
  await statusPage.waitForFunction(() => document.body.dataset.state === 'finished', null, { timeout: kWait });
  const end = await lookAtStatus(statusPage, 'the end');
  check(/Eloise is crowned|The game is over/.test(end), `the status page says how it ended: ${(end.match(/Last: .*/) || [''])[0]}`);
  check(/seat 5\b/i.test(end), 'the scores name seats from 1 (seat 5 is there)');
  await shot(statusPage, 'status-over', { fullPage: false });
  for (const phone of phones) check((await pageWidth(phone)) <= 392, 'each phone page fits a phone');
  check(errors.length === 0, `no script error in the pages: ${errors.join('; ')}`);
} catch (e) {
  fail(e);
  console.log(`--- serve's output ---\n${server.log().slice(-3000)}`);
} finally {
  await close();
  await server.stop();
}
finish();
