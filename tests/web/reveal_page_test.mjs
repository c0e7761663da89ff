// The pages of a table playing with its own physical Favourites cards, in
// Debian's chromium against the fixture server (canned statuses, no daemon):
//   node tests/web/reveal_page_test.mjs [ARTIFACT_DIR]
// Exit 0 pass, 1 fail, 77 skipped (no chromium or node_modules).
//
// A 2024 game with Ambition and Banished waits at round 2's coronation for
// the host to enter the cards. The status page calls for the cards and
// does not show the totals as final; the host's form (at a phone's size)
// refuses what is missing before sending, keeps the host's taps across
// status updates, shows the referee's refusal, sends exactly the contract's
// body, goes away once accepted and can reopen to correct; the status page
// then shows the scores and the revealed cards. A player's page says to
// keep the card in hand and still shows the vote cards. The new-game form
// sends "favourites": "physical" only when chosen, and shows the daemon's
// warning when a player's name is also a character's. And (issue 35) the
// host page shows the referee's question about an order the readers
// missed, at a phone's and a laptop's size, one button per answer, and the
// button answers it (a refusal's reason shown).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startFixtureServer } from './fixture_server.mjs';
import { browserOrSkip, checker, kDesktop, kPhone, kWait, newPage, pageWidth, shooter } from './harness.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
const artifacts = process.argv[2] || join(here, 'artifacts');
const launchBrowser = await browserOrSkip();
const { check, fail, finish } = checker('web-reveal');
const shot = shooter(artifacts, 'reveal-');

const pending = JSON.parse(readFileSync(join(here, 'fixtures', 'status-reveal-2024.json'), 'utf8'));
const player = JSON.parse(readFileSync(join(here, 'fixtures', 'player-physical.json'), 'utf8'));
const rosterOrder = pending.roster.map((c) => c.id);
const cards = [
  { favourites: ['eloise', 'ouaf', 'caius', 'foidvo', 'jeanne', 'merlin'], banished: 'merlin', ambition: 'jester-king' },
  { favourites: ['victoria', 'leonardo', 'romeo', 'bridget', 'agathe', 'gontran'], banished: 'romeo', ambition: 'its-a-queen' },
  { favourites: ['blanche', 'eloise', 'caius', 'jeanne', 'leonardo', 'bridget'], banished: 'blanche', ambition: 'wc-1' },
  { favourites: ['ouaf', 'foidvo', 'merlin', 'victoria', 'agathe', 'gontran'], banished: 'ouaf', ambition: 'under-11' },
];
const inRosterOrder = (list) => [...list].sort((a, b) => rosterOrder.indexOf(a) - rosterOrder.indexOf(b));
const expectedBody = {
  round: 2,
  favourites: cards.map((c) => inRosterOrder(c.favourites)),
  banished: cards.map((c) => c.banished),
  ambitions: cards.map((c) => c.ambition),
};
// After the cards: the round scored, the cards public.
const scored = structuredClone(pending);
scored.reveal = null;
scored.reveal_correction = { round: 2, ambitions: true, banished: true }; // the referee still takes a correction
scored.view.phase = 'deal'; // round 3 waits for its deal
scored.view.totals = [30, 14, 9, 26];
scored.view.finished_rounds.push({ round: 2, kings: ['eloise'], crown: 0, scores: [18, 7, 9, 7] });
scored.view.revealed_favourites = expectedBody.favourites.map((favourites, p) => ({ favourites, banished: cards[p].banished }));
scored.election = null;
scored.waiting_for = 'The referee deals round 3.';
// Issue 35: the readers missed which of Merlin and Jeanne was put down
// first, and the two orders credit other seats: the host is asked.
const step = (seat, slug, name, kind, place) => ({ code: 'order.step-placed', args: { seat: { player: seat }, character: { character: slug, name, kind }, to: { place } } });
const answerSays = (first, a, b) => ({ code: 'order.answer', args: { character: first, steps: { message: { code: 'order.then', args: { before: { message: a }, after: { message: b } } } } } });
const merlin = { character: 'merlin', name: 'Merlin', kind: 'man' };
const jeanne = { character: 'jeanne', name: 'Jeanne', kind: 'woman' };
const asked = {
  characters: [{ character: 'merlin', on: '1', seen: 'on floor 1' }, { character: 'jeanne', on: '2', seen: 'on floor 2' }],
  text: 'The readers missed which was put down first: Merlin and Jeanne. Who was first?',
  says: { code: 'order.question', args: { characters: { list: [merlin, jeanne] } } },
  answers: [
    { characters: ['merlin', 'jeanne'], actions: [{ action: 'place', seat: 0, character: 'merlin', to: '1' }, { action: 'place', seat: 1, character: 'jeanne', to: '2' }],
      text: '', says: answerSays(merlin, step('Anna', 'merlin', 'Merlin', 'man', '1'), step('Bruno', 'jeanne', 'Jeanne', 'woman', '2')) },
    { characters: ['jeanne', 'merlin'], actions: [{ action: 'place', seat: 0, character: 'jeanne', to: '2' }, { action: 'place', seat: 1, character: 'merlin', to: '1' }],
      text: '', says: answerSays(jeanne, step('Anna', 'jeanne', 'Jeanne', 'woman', '2'), step('Bruno', 'merlin', 'Merlin', 'man', '1')) },
  ],
};
const askingStatus = structuredClone(pending);
askingStatus.reveal = null;
askingStatus.reveal_correction = null;
askingStatus.view.phase = 'placement';
askingStatus.order_question = asked;
askingStatus.waiting_for = 'The table waits for the host: the readers missed which piece was put down first.';
askingStatus.waiting_says = { code: 'order.waiting', args: {} };
const refusal = { error: 'wrong-round', message: 'The referee waits for the cards of round 3, not round 2.' };

const server = await startFixtureServer({
  status: pending,
  players: { 'tok-anna': player },
  answers: {
    '/api/host/reveal': [{ status: 409, body: refusal }, { status: 200, body: { ok: true, game: 7 } }],
    '/api/host/order': [{ status: 409, body: { error: 'no-question', message: 'No question about an order is open.', says: { code: 'order.no-question', args: {} } } },
      { status: 200, body: { ok: true, game: 7, message: 'Played as answered: ...', says: { code: 'order.answered', args: { answer: { message: asked.answers[1].says } } } } }],
    // The second game started with a warning: a player named as a character.
    '/api/host/new-game': [{ status: 200, body: { game: 8, players: [] } }, { status: 200, body: { game: 9, players: [], warning: 'Dario is also the name of the character Dario l’Antiquario.', warning_says: { code: 'name.is-character', args: { player: { player: 'Dario' }, character: { character: 'dario', name: 'Dario l’Antiquario', kind: 'man' } } } } }],
  },
});
const { browser, close } = await launchBrowser();
const errors = [];

try {
  // --- the status page calls for the cards -----------------------------------
  const statusPage = await newPage(browser, kDesktop, errors);
  await statusPage.goto(`${server.url}/`);
  await statusPage.locator('#reveal-pending:not(.hidden)').waitFor({ timeout: kWait });
  const call = await statusPage.locator('#reveal-pending').innerText();
  check(/Show your Favourites cards and kept Ambition cards: the host is entering them/.test(call), `the status page calls for the cards: ${call}`);
  const scores = await statusPage.locator('#scores').innerText();
  check(/scores after the cards are entered/.test(scores) && /Total before round 2[’']s cards/.test(scores), `the totals are not shown as final: ${scores}`);
  check(!/winner/.test(scores), 'nobody is called a winner before the cards');
  check(/players[’'] own/.test(await statusPage.locator('#favourites-mode').innerText()), 'the status page says the cards are the players\' own');
  check(!(await statusPage.locator('#scores').innerText()).includes('revealed'), 'no favourites card on the status page before the cards');
  await shot(statusPage, 'status-waiting');
  const phoneStatus = await newPage(browser, kPhone, errors);
  await phoneStatus.goto(`${server.url}/`);
  await phoneStatus.locator('#reveal-pending:not(.hidden)').waitFor({ timeout: kWait });
  check((await pageWidth(phoneStatus)) <= 392, 'the waiting status page fits a phone');
  await shot(phoneStatus, 'status-waiting-phone');

  // --- the host's form, at a phone's size ---------------------------------------
  const host = await newPage(browser, kPhone, errors);
  await host.goto(`${server.url}/host.html`);
  await host.locator('#reveal-form:not(.hidden)').waitFor({ timeout: kWait });
  check((await host.locator('#reveal-title').innerText()).includes('round 2’s cards'), 'the form names the round');
  const sets = host.locator('#reveal-players fieldset');
  check((await sets.count()) === 4, 'one part per player');
  check((await sets.nth(0).locator('legend').innerText()).includes('Anna'), 'each part names its player');
  const values = await sets.nth(0).locator('.chips input').evaluateAll((inputs) => inputs.map((i) => i.value));
  check(values.length === 13 && !values.includes('jester'), `the game's roster without the Jester: ${values}`);
  const boxes = await host.locator('#reveal-players fieldset[data-player="0"] .chip span').evaluateAll((spans) => spans.map((s) => s.getBoundingClientRect()).map((r) => [r.width, r.height]));
  check(boxes.every(([w, h]) => w >= 44 && h >= 44), `every choice is at least 44 px each way: ${JSON.stringify(boxes.slice(0, 3))}`);
  const selectHeight = await host.locator('fieldset[data-player="0"] select[data-part="ambition"]').evaluate((s) => s.getBoundingClientRect().height);
  check(selectHeight >= 44, `the pickers are finger-sized (${selectHeight} px)`);
  check((await pageWidth(host)) <= 392, `the host page fits a phone (${await pageWidth(host)})`);
  await shot(host, 'host-form-phone', { fullPage: false });

  // Nothing chosen: refused on the page, nothing sent.
  await host.locator('#reveal-form button[type=submit]').tap();
  await host.locator('#reveal-message:not(.hidden)').waitFor({ timeout: kWait });
  check((await host.locator('#reveal-message').innerText()).includes('Not sent'), 'an empty form is not sent');
  check((await host.locator('.reveal-problem:not(.hidden)').count()) === 4, 'each player\'s part says what is missing');
  await shot(host, 'host-form-missing', { fullPage: false });
  check(server.posts.length === 0, 'nothing went to the daemon');

  const chip = (p, slug) => host.locator(`fieldset[data-player="${p}"] .chip:has(input[value="${slug}"])`);
  const sealed = (p) => host.locator(`fieldset[data-player="${p}"] select[data-part="banished"]`);
  // Anna: six taps; a seventh character cannot be chosen.
  for (const slug of cards[0].favourites) await chip(0, slug).tap();
  check((await host.locator('fieldset[data-player="0"] .reveal-count').innerText()).includes('6 of 6'), 'the count says six of six');
  check((await host.locator('fieldset[data-player="0"] .chip input:disabled').count()) === 7, 'the other seven are disabled once six are chosen');
  const sealedChoices = await sealed(0).locator('option').evaluateAll((os) => os.map((o) => o.value).filter(Boolean));
  check(JSON.stringify(sealedChoices) === JSON.stringify(inRosterOrder(cards[0].favourites)), `the sealed character is one of the six: ${sealedChoices}`);
  await sealed(0).selectOption(cards[0].banished);
  // Untick the sealed one: the choice goes, and must be made again.
  await chip(0, cards[0].banished).tap();
  check((await sealed(0).inputValue()) === '', 'unticking the sealed character clears it');
  await host.locator('#reveal-form button[type=submit]').tap();
  const annaProblem = await host.locator('fieldset[data-player="0"] .reveal-problem').innerText();
  check(/5 chosen/.test(annaProblem) && /sealed character/.test(annaProblem), `five and no seal are refused: ${annaProblem}`);
  await chip(0, cards[0].banished).tap();
  await sealed(0).selectOption(cards[0].banished);
  // A status update while the host is entering keeps what was tapped.
  server.setStatus({ ...pending, waiting_for: 'Still the cards of round 2.' });
  await host.locator('#now').filter({ hasText: 'Still the cards' }).waitFor({ timeout: kWait });
  check((await host.locator('fieldset[data-player="0"] .chips input:checked').count()) === 6, 'a status update keeps the host\'s taps');
  for (let p = 1; p < 4; ++p) {
    for (const slug of cards[p].favourites) await chip(p, slug).tap();
    await sealed(p).selectOption(cards[p].banished);
  }
  for (let p = 0; p < 4; ++p) await host.locator(`fieldset[data-player="${p}"] select[data-part="ambition"]`).selectOption(cards[p].ambition);
  // The Ambition deck has one of each card: two players cannot have kept one.
  await host.locator('fieldset[data-player="2"] select[data-part="ambition"]').selectOption(cards[0].ambition);
  await host.locator('#reveal-form button[type=submit]').tap();
  const twice = await host.locator('fieldset[data-player="2"] .reveal-problem').innerText();
  check(/Anna and Chiara cannot both have kept/.test(twice) && server.posts.length === 0, `one Ambition card kept twice is not sent: ${twice}`);
  await host.locator('fieldset[data-player="2"] select[data-part="ambition"]').selectOption(cards[2].ambition);
  await host.locator('fieldset[data-player="3"]').scrollIntoViewIfNeeded();
  await shot(host, 'host-form-filled', { fullPage: false });

  // The referee refuses: its sentence by the form, the form kept.
  await host.locator('#reveal-form button[type=submit]').tap();
  await host.locator('#reveal-message').filter({ hasText: 'refused' }).waitFor({ timeout: kWait });
  check((await host.locator('#reveal-message').innerText()).includes(refusal.message), 'the referee\'s sentence is shown by the form');
  check(await host.locator('#reveal-form').isVisible(), 'the form stays after a refusal');
  check(server.posts.length === 1 && JSON.stringify(server.posts[0].body) === JSON.stringify(expectedBody),
    `the body is the contract's: ${JSON.stringify(server.posts[0]?.body)}`);
  await shot(host, 'host-form-refused', { fullPage: false });

  // Accepted: the form goes; the status then has no reveal and the scores.
  await host.locator('#reveal-form button[type=submit]').tap();
  await host.locator('#message').filter({ hasText: 'Round 2’s cards are in' }).waitFor({ timeout: kWait });
  check(await host.locator('#reveal-form').isHidden(), 'the host page says the cards are in, and the form is gone');
  // A status sent before the acceptance, arriving after it, does not bring the form back.
  server.setStatus({ ...pending, waiting_for: 'A late status.' });
  await host.locator('#now').filter({ hasText: 'A late status' }).waitFor({ timeout: kWait });
  check(await host.locator('#reveal-form').isHidden(), 'a late status from before the acceptance does not reopen the form');
  server.setStatus(scored);
  await statusPage.locator('#reveal-pending.hidden').waitFor({ state: 'attached', timeout: kWait });
  const after = await statusPage.locator('#scores').innerText();
  check(!/not final|Not final/.test(after) && /R2/.test(after) && /30/.test(after), `the status page shows the scores after the cards: ${after}`);
  check(/Favourites, revealed/.test(after) && after.includes('Blanche'), 'the revealed cards are public now');
  await shot(statusPage, 'status-scored');
  await host.locator('#reveal-done:not(.hidden)').waitFor({ timeout: kWait });
  await host.locator('#reveal-correct').tap();
  await host.locator('#reveal-form:not(.hidden)').waitFor({ timeout: kWait });
  const again = await host.locator('fieldset[data-player="2"] .chips input:checked').evaluateAll((is) => is.map((i) => i.value));
  check(JSON.stringify(again) === JSON.stringify(inRosterOrder(cards[2].favourites)) && (await sealed(2).inputValue()) === 'blanche',
    'the correction form holds the cards sent');
  check((await host.locator('#reveal-title').innerText()).startsWith('Correct'), 'the form says it corrects');
  await host.locator('#reveal-cancel').tap();
  await host.locator('#reveal-form.hidden').waitFor({ state: 'attached', timeout: kWait });
  check(await host.locator('#reveal-done').isVisible(), 'cancelled, the correction is offered again');

  // A royal couple's second coronation: the favourites are in, the kept
  // Ambition cards are asked for alone.
  server.setStatus({ ...pending, reveal: { round: 2, favourites: false, ambitions: true, banished: true } });
  await host.locator('#reveal-form:not(.hidden)').waitFor({ timeout: kWait });
  check((await host.locator('#reveal-players .chip').count()) === 0 && (await host.locator('select[data-part="ambition"]').count()) === 4,
    'only the kept Ambition cards are asked for');
  await statusPage.locator('#reveal-pending').filter({ hasText: 'Show your kept Ambition cards' }).waitFor({ timeout: kWait });
  for (let p = 0; p < 4; ++p) await host.locator(`fieldset[data-player="${p}"] select[data-part="ambition"]`).selectOption(cards[p].ambition);
  await host.locator('#reveal-form button[type=submit]').tap();
  await host.locator('#reveal-form.hidden').waitFor({ state: 'attached', timeout: kWait });
  const last = server.posts[server.posts.length - 1].body;
  check(JSON.stringify(last) === JSON.stringify({ round: 2, ambitions: expectedBody.ambitions }), `the Ambition cards alone are sent: ${JSON.stringify(last)}`);

  // --- a player's page: no card, the votes ---------------------------------------
  server.setStatus(pending);
  const mine = await newPage(browser, kPhone, errors);
  await mine.goto(`${server.url}/player.html#tok-anna`);
  await mine.locator('#own-card:not(.hidden)').waitFor({ timeout: kWait });
  check((await mine.locator('#own-card').innerText()) === 'You play with your own Favourites card: keep it hidden until the coronation.', 'the player is told to keep the card hidden');
  check(await mine.locator('#favourites').isHidden() && await mine.locator('#ambition-card').isHidden(), 'no favourites or Ambition part');
  check((await mine.locator('#hand .vote-card').count()) === 3, 'the vote cards are still there');
  await mine.locator('#public').filter({ hasText: 'Show your' }).waitFor({ timeout: kWait });
  check(true, 'the player\'s page calls for the card at the coronation');
  check((await pageWidth(mine)) <= 392, 'the player page fits a phone');
  await shot(mine, 'player-physical');

  // --- the new-game form ---------------------------------------------------------
  const desk = await newPage(browser, kDesktop, errors);
  await desk.goto(`${server.url}/host.html`);
  await desk.locator('#controls').waitFor({ state: 'visible', timeout: kWait });
  await desk.click('#new-game button[type=submit]');
  await desk.locator('#message.ok').waitFor({ timeout: kWait });
  await desk.check('input[name=favourites][value=physical]');
  await desk.click('#new-game button[type=submit]');
  await desk.waitForFunction(() => document.getElementById('message').textContent.includes('Game 9 started'));
  const warned = await desk.locator('#message-warning').innerText();
  check(await desk.locator('#message-warning').isVisible() && /Dario.* is also the name of the character Dario l’Antiquario/.test(warned),
    `the daemon's warning about a name is shown with the new game: ${warned}`);
  const games = server.posts.filter((p) => p.path === '/api/host/new-game').map((p) => p.body);
  check(games.length === 2 && !('favourites' in games[0]) && games[1].favourites === 'physical',
    `"favourites": "physical" only when chosen: ${JSON.stringify(games.map((g) => g.favourites ?? null))}`);

  // --- the referee asks the order the readers missed (issue 35) -------------------
  server.setStatus(askingStatus);
  await statusPage.locator('#order-question').waitFor({ timeout: kWait });
  const told = await statusPage.locator('main').innerText();
  check(/The table waits for the host/.test(told) && /Merlin and Jeanne\. Who was first\?/.test(told), 'the status page says the table waits, and the question');
  for (const [size, name] of [[kPhone, 'phone'], [kDesktop, 'laptop']]) {
    const asking = await newPage(browser, size, errors);
    await asking.goto(`${server.url}/host.html`);
    await asking.locator('#order-question:not(.hidden)').waitFor({ timeout: kWait });
    const question = await asking.locator('#order-question').innerText();
    check(/the table waits for you/.test(question) && /Merlin and Jeanne\. Who was first\?/.test(question), `the question is shown on the ${name}: ${question}`);
    check(/The table waits for the host/.test(await asking.locator('#now').innerText()), `the page says the table waits for the host (${name})`);
    const buttons = asking.locator('#order-answers button');
    check((await buttons.count()) === 2, `one button per answer (${name})`);
    const first = await buttons.nth(0).innerText();
    check(/Merlin.* first: .*Anna.* placed .*Merlin.* on floor 1, then .*Bruno.* placed .*Jeanne.* on floor 2\./.test(first), `an answer says who placed what, in order: ${first}`);
    const heights = await buttons.evaluateAll((bs) => bs.map((b) => b.getBoundingClientRect().height));
    check(heights.every((h) => h >= 44), `the answers are finger-sized (${name}): ${heights}`);
    check((await pageWidth(asking)) <= (name === 'phone' ? 392 : 1400), `the question fits the ${name} (${await pageWidth(asking)})`);
    await shot(asking, `host-order-${name}`, { fullPage: false });
    if (name === 'phone') {
      // A stale answer (someone answered first): the referee's reason.
      await buttons.nth(1).tap();
      await asking.locator('#message.error').filter({ hasText: 'No question about an order is open' }).waitFor({ timeout: kWait });
      check(true, 'a refused answer shows the referee\'s reason');
      // The answer: the second order's characters, as the contract says.
      await buttons.nth(1).tap();
      await asking.locator('#message.ok').filter({ hasText: 'Played as answered' }).waitFor({ timeout: kWait });
      const sent = server.posts.filter((p) => p.path === '/api/host/order').map((p) => p.body);
      check(sent.length === 2 && JSON.stringify(sent[1]) === JSON.stringify({ characters: ['jeanne', 'merlin'] }), `the button sends its order: ${JSON.stringify(sent)}`);
      check((await asking.locator('#message').innerText()).includes('Jeanne first'), 'the page says what was played');
      // Answered: the next status has no question, and the box goes.
      server.setStatus({ ...askingStatus, order_question: null, waiting_for: 'Bruno places a character.', waiting_says: null });
      await asking.locator('#order-question.hidden').waitFor({ state: 'attached', timeout: kWait });
      check(true, 'the question goes once answered');
      server.setStatus(askingStatus);
    }
  }
  check(errors.length === 0, `no script error in the pages: ${errors.join('; ')}`);
} catch (e) {
  fail(e);
} finally {
  await close();
  await server.close();
}
finish();
