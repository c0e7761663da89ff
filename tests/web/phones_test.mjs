// A 2024 game with the Ambition option played from the phones alone: Debian's
// chromium (playwright-core) on the real `vivaref serve --hardware=sim`.
//   node tests/web/phones_test.mjs VIVAREF [ARTIFACT_DIR]
//   VIVAREF_README_SHOTS=1 node tests/web/phones_test.mjs VIVAREF   (also saves the README's
//     phone screenshots, tests/web/screenshots/phone-banner-*.png, 390 px wide)
// Exit 0 pass, 1 fail, 77 skipped (no chromium, node_modules or serve).
//
// The host starts a 5-seat 2024 game of one round with Ambition on the host
// page (seats counted from 1 there). Each player's page, in a browser
// context of its own at phone size (390×844), leads its player from a banner
// at the top (issue 34), checked on the player whose moment it is and not on
// the others: "Choose your Ambition card" with both cards explained on the
// first screen (a tap, then a confirmation; refused while paused; changed
// for the other card before the first placement, then standing), "Your
// turn" with what to do while the others read "Ann plays now", a refused
// move with its reason and what to put back, "Vote now" with the candidate
// and the keys, then "Your vote is in"; once more in French. The status
// page names who still chooses and never a card. The castle is played
// through the simulated castle's API to the end of the game. All along,
// the status page's visible text names characters and places as people do
// ("Eloise", "floor 4"), never a slug or a seat counted from 0.
import { mkdirSync } from 'node:fs';
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
// VIVAREF_README_SHOTS=1: the README's phone screenshots saved again into tests/web/screenshots/.
const readmeShots = Boolean(process.env.VIVAREF_README_SHOTS);
if (readmeShots) mkdirSync(join(here, 'screenshots'), { recursive: true });
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

// The banner's first line on a phone, as a person reads it.
async function bannerTitle(phone) {
  const title = phone.locator('#moment .moment-title');
  return (await title.count()) ? visible(await title.first().innerText()) : '';
}
async function waitBanner(phone, text) {
  await phone.waitForFunction((t) => (document.querySelector('#moment .moment-title')?.innerText || '').replace(/[\u2066-\u2069]/g, '').includes(t),
    text, { timeout: kWait });
}
// No kept or dealt Ambition card in the public status or on the status page.
async function noCardInPublic(phone, statusPage, choices, label) {
  const publicText = `${(await api(url, '/api/status')).text}\n${await statusPage.locator('body').innerText()}`;
  const shown = kAmbitionSlugs.filter((slug) => publicText.includes(`"${slug}"`));
  check(shown.length === 0, `no Ambition card in the public status after ${label}: ${shown}`);
  for (const card of [...choices.flat()]) {
    const word = await phone.evaluate(async (c) => (await import('/js/names.js')).ambitionWord(c), card);
    if (publicText.includes(word)) check(false, `the status page shows the card "${word}"`);
  }
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

  // --- the deal: each phone's banner asks for its Ambition card ------------------------
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
    await phone.locator('#moment-ambition button.ambition-keep').nth(1).waitFor({ timeout: 30000 });
    return phone;
  }));
  const choices = [];
  for (const phone of phones) choices.push(await phone.locator('button.ambition-keep').evaluateAll((bs) => bs.map((b) => b.dataset.ambition)));
  check(choices.every((c) => c.length === 2), `each phone offers two cards: ${JSON.stringify(choices)}`);
  for (const [p, phone] of phones.entries()) {
    check((await bannerTitle(phone)) === 'Choose your Ambition card', `${names[p]}'s banner asks for the Ambition card: ${await bannerTitle(phone)}`);
    // Both cards, each explained, on the first screen of the phone, under the banner's top.
    const boxes = await phone.locator('#moment-ambition button.ambition-keep').evaluateAll((bs) => bs.map((b) => b.getBoundingClientRect().bottom));
    const top = await phone.locator('#moment').evaluate((m) => m.getBoundingClientRect().top);
    check(top < 120 && boxes.every((b) => b <= 844), `${names[p]}'s banner is at the top (${top} px) and both cards on the first screen: ${boxes.map(Math.round)}`);
    const why = await phone.locator('#moment-ambition .ambition-why').allInnerTexts();
    check(why.length === 2 && why.every((w) => /^\d points? if .+\.$/.test(w)), `each card says what it scores: ${why.join(' | ')}`);
  }
  // "0 favourites in a WC (5)" in plain words, wherever it was dealt.
  const wc0 = await phones[0].evaluate(async () => (await import('/js/ambition_choice.js')).ambitionExplained('wc-0'));
  check(wc0 === '5 points if none of your favourites is in a WC.', `"0 favourites in a WC" explained: ${wc0}`);
  check(!(await phones[0].locator('#moment').innerText()).includes('tell the host'), 'no phone asks to tell the host');
  check(/seat 1\b/.test(await phones[0].locator('#game-line').innerText()), `the first phone says seat 1: ${await phones[0].locator('#game-line').innerText()}`);
  await shot(phones[0], 'phone-choice', { fullPage: false });

  // A tap shows the confirmation first; confirmed while the game is paused: refused, and the phone says why.
  check((await host('pause')).status === 200, 'the host pauses');
  await waitStatus((s) => s.state === 'paused', 'the pause');
  await phones[1].locator(`button.ambition-keep[data-ambition="${choices[1][0]}"]`).tap();
  const confirm = phones[1].locator('#moment-ambition button.ambition-confirm');
  await confirm.waitFor({ timeout: kWait });
  check(visible(await confirm.innerText()).startsWith('Keep “'), `a tap asks to confirm: ${await confirm.innerText()}`);
  await confirm.tap();
  await phones[1].locator('#moment-ambition .message.error').waitFor({ timeout: kWait });
  const refusal = await phones[1].locator('#moment-ambition .message.error').innerText();
  check(/Not kept: .*paused/i.test(refusal), `the phone shows the referee's refusal: ${refusal}`);
  check((await phones[1].locator('button.ambition-keep').count()) === 2, 'the two cards are still offered after the refusal');
  check((await host('resume')).status === 200, 'the host resumes');
  await waitStatus((s) => s.state === 'playing', 'the game resumed');

  // Each player taps one card and confirms; the status page loses that name, never shows the card.
  const kept = [];
  for (let p = 0; p < 5; ++p) {
    const pick = choices[p][p % 2];
    kept.push(pick);
    await phones[p].locator(`button.ambition-keep[data-ambition="${pick}"]`).tap();
    await phones[p].locator(`#moment-ambition button.ambition-confirm[data-ambition="${pick}"]`).tap();
    await phones[p].locator('#moment-ambition .message.ok').waitFor({ timeout: kWait });
    const mine = visible(await phones[p].locator('#moment-ambition').innerText());
    check(mine.includes('Kept') && mine.includes('You may change it until the first character is placed')
      && (await phones[p].locator(`#moment-ambition .ambition-kept[data-ambition="${pick}"]`).count()) === 1
      && !(await phones[p].locator('button.ambition-keep').count())
      && (await phones[p].locator(`button.ambition-change[data-ambition="${choices[p][(p + 1) % 2]}"]`).count()) === 1,
    `${names[p]}'s phone confirms the card kept and offers the other as a change: ${mine.replace(/\s+/g, ' ')}`);
    if (p === 0) {
      await shot(phones[0], 'phone-kept', { fullPage: false });
      check((await bannerTitle(phones[0])) === 'Nothing for you to do now.', `a player who has chosen has nothing to do while others choose: ${await bannerTitle(phones[0])}`);
      check((await bannerTitle(phones[1])) === 'Choose your Ambition card', 'the others are still asked to choose');
    }
    if (p < 4) {
      const s = await waitStatus((x) => (x.ambition_waiting || []).length === 4 - p, `${names[p]} no longer waited for`);
      check(!s.ambition_waiting.some((w) => w.name === names[p]), `${names[p]} has chosen: the status no longer names them`);
      await statusPage.locator('#ambition-waiting').filter({ hasNotText: names[p] }).waitFor({ timeout: kWait });
      waitingText = await statusPage.locator('#ambition-waiting').innerText();
      check(names.slice(p + 1).every((n) => waitingText.includes(n)) && !waitingText.includes(names[p]), `the status page lists only who still chooses: ${waitingText}`);
      await noCardInPublic(phones[0], statusPage, choices, `${names[p]} kept one`);
    }
  }
  const placing = await waitStatus((s) => s.view.phase === 'placement', 'the placement');
  check(!placing.ambition_waiting.length, 'nobody is waited for once all kept');
  await statusPage.locator('#ambition-waiting').waitFor({ state: 'detached', timeout: kWait });
  check(true, 'the status page no longer asks for Ambition cards');

  // --- the first turn: Ann's banner says so, the others' say Ann plays ---------------------
  await waitBanner(phones[0], 'Your turn');
  check(visible(await phones[0].locator('#moment-text').innerText()).includes('Place a character from beside the board on a free place of floors 1 to 4.'),
    `Ann's banner says what to do: ${await phones[0].locator('#moment-text').innerText()}`);
  for (let p = 1; p < 5; ++p) {
    await waitBanner(phones[p], 'Ann plays now');
    const text = visible(await phones[p].locator('#moment').innerText());
    check(!/Your turn/.test(text) && text.includes('Nothing for you to do.'), `${names[p]}'s banner says Ann plays, not "your turn": ${text.replace(/\s+/g, ' ')}`);
  }
  // A change of mind before the round starts: Bo changes his card, with a confirmation.
  const other1 = choices[1][0];
  await phones[1].locator(`button.ambition-change[data-ambition="${other1}"]`).tap();
  await phones[1].locator('#moment-ambition button.ambition-cancel').waitFor({ timeout: kWait });
  await phones[1].locator(`#moment-ambition button.ambition-confirm[data-ambition="${other1}"]`).tap();
  await phones[1].locator(`#moment-ambition .ambition-kept[data-ambition="${other1}"]`).waitFor({ timeout: kWait });
  check(true, 'Bo changed his Ambition card before the first placement');
  kept[1] = other1;
  await noCardInPublic(phones[0], statusPage, choices, 'Bo changed his card');
  if (readmeShots) await phones[0].screenshot({ path: join(here, 'screenshots', 'phone-banner-turn.png') });
  await shot(phones[0], 'phone-turn', { fullPage: false });
  // The French page: the same banner in the table's words.
  const french = await newPage(browser, { ...kPhone, locale: 'fr-FR' }, errors);
  await french.goto(links[1]);
  await waitBanner(french, 'Ann joue');
  const frenchText = visible(await french.locator('#moment').innerText());
  check(frenchText.includes('Rien à faire pour vous.') && frenchText.includes('Vous gardez') && !/plays now|Nothing for you|You keep|Change to/.test(frenchText),
    `the banner in French: ${frenchText.replace(/\s+/g, ' ')}`);
  await shot(french, 'phone-french', { fullPage: false });
  await french.context().close();

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
      // The round has begun: the card stands, shown below the banner; Bo's turn now.
      await waitBanner(phones[1], 'Your turn');
      await waitBanner(phones[0], 'Bo plays now');
      await phones[0].locator('#moment-ambition').waitFor({ state: 'hidden', timeout: kWait });
      const stands = visible(await phones[0].locator('#ambition-card').innerText());
      check((await phones[0].locator(`#ambition-card [data-ambition="${kept[0]}"]`).count()) === 1 && !(await phones[0].locator('button.ambition-change').count()),
        `Ann's card stands after the first placement, with no change offered: ${stands.replace(/\s+/g, ' ')}`);
      const late = await api(url, `/api/player/${encodeURIComponent(links[0].split('#')[1])}/keep`, { method: 'POST', body: { ambition: choices[0][1] } });
      check(late.status === 409 && /round has begun/.test(late.text), `a change after the first placement is refused: ${late.status} ${late.text.slice(0, 200)}`);
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
  // The phone of the seat whose move was refused: why, and what to put back.
  const toAct = names[refused.players.find((x) => x.seat === refused.view.to_act?.[0])?.player ?? 0];
  const mover = phones[names.indexOf(toAct)];
  await waitBanner(mover, 'Your move was refused');
  const moverText = visible(await mover.locator('#moment').innerText());
  check(moverText.includes(refused.refusal.message) && /To go on:/.test(moverText) && /Bridget/.test(moverText) && /floor 2/.test(moverText),
    `${toAct}'s banner gives the reason and what to put back: ${moverText.replace(/\s+/g, ' ')}`);
  // Every refusal names the rule it applies (two floors up: the ascent's "move"), and the banner links to it.
  check(refused.refusal.rule === 'move', `the refusal names its rule: ${refused.refusal.rule}`);
  check((await mover.locator('#moment a.moment-rule').getAttribute('href')) === `rules.html#${refused.refusal.rule}`, 'the banner links to the rule on rules.html');
  for (const [p, phone] of phones.entries()) {
    if (phone === mover) continue;
    const text = visible(await phone.locator('#moment-text').innerText());
    check(!/refused|put back/i.test(text) && text.includes(`${toAct} plays now`), `${names[p]}'s banner shows no refusal of another's move: ${text.replace(/\s+/g, ' ')}`);
  }
  if (readmeShots) await mover.screenshot({ path: join(here, 'screenshots', 'phone-banner-refusal.png') });
  await shot(mover, 'phone-refusal', { fullPage: false });
  await play('bridget', '2', 'bridget put back');
  await waitBanner(mover, 'Your turn');
  check(visible(await mover.locator('#moment-text').innerText()).includes('Move one character up one floor.'), 'the ascent: move one character up one floor');
  await play('eloise', '5', 'Ann moves eloise to 5');
  await statusPage.locator('#last-action').filter({ hasText: 'floor 5' }).waitFor({ timeout: kWait });
  check(visible(await statusPage.locator('#last-action').innerText()) === 'Last: Ann moved Eloise from floor 4 to floor 5.', 'the move in words');
  await play('eloise', '6', 'Bo moves eloise to the throne');
  await waitStatus((s) => s.election, 'the election');
  await lookAtStatus(statusPage, 'the election');
  // Every phone asks for its vote, with the candidate and the keys; once in, that phone says so.
  for (const [p, phone] of phones.entries()) {
    await waitBanner(phone, 'Vote now: Eloise on the throne');
    const text = visible(await phone.locator('#moment').innerText());
    check(text.includes('Press Yes, No or Stomachache on your keys.'), `${names[p]}'s banner: vote now on the keys: ${text.replace(/\s+/g, ' ')}`);
  }
  await shot(phones[2], 'phone-vote', { fullPage: false });
  await sim('press', { station: 0, key: 'yes' });
  await waitBanner(phones[0], 'Your vote is in');
  for (let p = 1; p < 5; ++p) check((await bannerTitle(phones[p])) === 'Vote now: Eloise on the throne', `${names[p]} is still asked to vote`);
  check(!(await phones[1].locator('#moment').innerText()).includes('vote is in'), 'another\'s vote is not told on this phone');
  for (let seat = 1; seat < 5; ++seat) await sim('press', { station: seat, key: 'yes' });

  // --- the end ----------------------------------------------------------------------------
  const over = await waitStatus((s) => s.state === 'finished', 'the end of the game', 20000);
  check(over.view.finished_rounds.length === 1, 'the one round is scored');
  await statusPage.waitForFunction(() => document.body.dataset.state === 'finished', null, { timeout: kWait });
  const end = await lookAtStatus(statusPage, 'the end');
  check(/Eloise is crowned|The game is over/.test(end), `the status page says how it ended: ${(end.match(/Last: .*/) || [''])[0]}`);
  check(/seat 5\b/i.test(end), 'the scores name seats from 1 (seat 5 is there)');
  await shot(statusPage, 'status-over', { fullPage: false });
  // The end on a phone: the banner says so, and the scores come below it.
  await waitBanner(phones[0], 'The game is over.');
  await phones[0].locator('.my-ending:not(.hidden)').waitFor({ timeout: kWait });
  const bannerBottom = await phones[0].locator('#moment').evaluate((m) => m.getBoundingClientRect().bottom);
  const scoresTop = await phones[0].locator('.my-ending').evaluate((m) => m.getBoundingClientRect().top);
  check(scoresTop >= bannerBottom, `the scores come below the banner (${Math.round(scoresTop)} px, banner to ${Math.round(bannerBottom)} px)`);
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
