// A table playing with its own physical Favourites cards, end to end: Debian's
// chromium (playwright-core) on the real `vivaref serve --hardware=sim`.
//   node tests/web/physical_test.mjs VIVAREF [ARTIFACT_DIR]
// Exit 0 pass, 1 fail, 77 skipped (no chromium, node_modules or serve; a
// serve without physical cards).
//
// The host starts a 3-seat classic game of one round with "our own physical
// cards" on the host page (phone-sized). The players' pages show no card,
// only the vote cards; keeping an Ambition card is refused. The castle is
// played through the simulated castle's API to a coronation; the status
// page then calls for the cards and shows the totals as not final. On the
// host page the host first sends an incomplete card (the page refuses it),
// then the cards while the game is paused (the referee refuses, its
// sentence shown), then, resumed, the right cards: accepted, the round is
// scored on them. The status page shows the scores and the cards; the game
// log's record deals the entered cards and replays to the same scores.
// Secrets: until the cards are entered no card (not even the referee's
// placeholders, read from the log afterwards) is in any public answer, the
// event stream or the status page.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { api, serveMissing, startServe } from './daemon.mjs';
import { browserOrSkip, checker, kDesktop, kPhone, kWait, newPage, pageWidth, shooter, skip } from './harness.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
const [vivaref, artifactArg] = process.argv.slice(2);
const artifacts = artifactArg || join(here, 'artifacts');
const launchBrowser = await browserOrSkip();
const missing = serveMissing(vivaref);
if (missing) skip(missing);
const { check, fail, finish } = checker('web-physical');
const shot = shooter(artifacts, 'physical-');

const server = await startServe(vivaref, { edition: 'classic' });
const { url } = server;
const token = server.hostToken;
const hostApi = (path, body) => api(url, path, { method: 'POST', body, token });

// The cards the players "hold" (classic: 13 characters, no Jester).
const names = ['Anna', 'Bruno', 'Chiara'];
const cards = [
  ['alighiero', 'clemente', 'ernesto', 'gavino', 'leonardo', 'natale'],
  ['beatrice', 'dario', 'fiorello', 'irina', 'merlino', 'odessa'],
  ['alighiero', 'beatrice', 'dario', 'ernesto', 'piero', 'odessa'],
];

// Every "status" event of the public stream, from the start.
const events = [];
const streamAbort = new AbortController();
(async () => {
  try {
    const r = await fetch(`${url}/api/events`, { signal: streamAbort.signal });
    const decoder = new TextDecoder();
    let buffer = '';
    for await (const chunk of r.body) {
      buffer += decoder.decode(chunk, { stream: true });
      let end;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (/^event: status$/m.test(block)) events.push(block.split('\n').filter((l) => l.startsWith('data: ')).map((l) => l.slice(6)).join('\n'));
      }
    }
  } catch {
    /* aborted at the end */
  }
})();

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

// Public answers as text, kept to search for the placeholders afterwards.
const publicTexts = [];
async function publicSnapshot(label, statusPage) {
  const games = (await api(url, '/api/games')).json || [];
  for (const path of ['/api/status', '/api/info', '/api/games', '/api/sim/state', ...games.map((g) => `/api/games/${g.id}`)])
    publicTexts.push({ where: `${path} (${label})`, text: (await api(url, path)).text });
  publicTexts.push({ where: `the status page (${label})`, text: await statusPage.content() });
  // Structure: no favourites anywhere but the (empty) revealed list and the
  // reveal's flag; revealed cards none before the cards are entered.
  const st = await status();
  const problems = [];
  const walk = (v, path) => {
    if (Array.isArray(v)) v.forEach((x, i) => walk(x, [...path, i]));
    else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) {
      if (k === 'favourites' && !(path[path.length - 1] === 'reveal' && typeof x === 'boolean')) problems.push(`favourites at ${[...path, k].join('.')}`);
      if (['hand', 'private', 'token', 'ambition_choices', 'banished'].includes(k) && !(k === 'banished' && typeof x === 'boolean')) problems.push(`${k} at ${[...path, k].join('.')}`);
      walk(x, [...path, k]);
    }
  };
  walk(st, []);
  if (st.view && (st.view.revealed_favourites || []).length) problems.push('revealed_favourites is not empty');
  check(problems.length === 0, `no card in the public status (${label}): ${problems.join('; ')}`);
}

class Skip extends Error {}
let skipped = null;
const { browser, close } = await launchBrowser();
const errors = [];
try {
  const statusPage = await newPage(browser, kDesktop, errors);
  await statusPage.goto(`${url}/`);
  await statusPage.waitForFunction(() => Number(document.body.dataset.renders || 0) > 0, null, { timeout: kWait });

  // --- the host starts a game with the table's own cards ------------------------
  const host = await newPage(browser, kPhone, errors);
  await host.goto(`${url}/host.html`);
  if (token) {
    await host.fill('#token', token);
    await host.locator('#unlock button[type=submit]').tap();
  }
  await host.locator('#controls').waitFor({ state: 'visible', timeout: kWait });
  await host.check('input[name=edition][value=classic]');
  await host.fill('#seats', '3');
  await host.locator('#seats').dispatchEvent('input');
  for (let i = 0; i < 3; ++i) await host.fill(`input.player-name[data-player="${i}"]`, names[i]);
  await host.selectOption('#first', '0');
  await host.fill('#rounds', '1');
  await host.locator('input[name=favourites][value=physical]').check();
  await host.locator('#new-game button[type=submit]').tap();
  await host.locator('#links figure').nth(2).waitFor({ timeout: kWait });
  const started = await waitStatus((s) => s.game && s.view && s.view.phase === 'placement', 'the placement phase');
  if (started.favourites_mode !== 'physical') throw new Skip(`this serve does not take physical cards yet (favourites_mode ${JSON.stringify(started.favourites_mode)})`);
  check(started.reveal === null, 'no cards are awaited at the start');
  await statusPage.locator('#favourites-mode').filter({ hasText: /players[’'] own/ }).waitFor({ timeout: kWait });
  check(true, 'the status page says the cards are the players\' own');

  // --- the players' pages: no card, the vote cards -------------------------------
  const links = [];
  for (let p = 0; p < 3; ++p) links.push(await host.locator(`#links figure[data-player="${p}"] a.player-link`).getAttribute('href'));
  for (let p = 0; p < 3; ++p) {
    const own = (await api(url, `/api/player/${new URL(links[p]).hash.slice(1)}`)).json;
    const keys = Object.keys(own.private || {});
    check(own.favourites_mode === 'physical' && !['favourites', 'banished', 'ambition_choices', 'ambition'].some((k) => keys.includes(k)) && own.private.hand,
      `player ${p}'s private answer holds the hand only: ${keys}`);
    const keep = await api(url, `/api/player/${new URL(links[p]).hash.slice(1)}/keep`, { method: 'POST', body: { ambition: 'jester-king' } });
    check(keep.status === 409, `keeping an Ambition card is refused (${keep.status} ${keep.json && keep.json.error})`);
  }
  const mine = await newPage(browser, kPhone, errors);
  await mine.goto(links[0]);
  await mine.locator('#own-card:not(.hidden)').waitFor({ timeout: kWait });
  check((await mine.locator('#own-card').innerText()).includes('keep it hidden until the coronation'), 'the player\'s page says to keep the card hidden');
  check((await mine.locator('#hand .vote-card').count()) === 2 && await mine.locator('#favourites').isHidden(), 'the player\'s page shows the vote cards and no favourites');
  await shot(mine, 'player');
  await publicSnapshot('the deal', statusPage);

  // --- the castle, played through the simulated castle's API ---------------------
  async function play(slug, place, label) {
    await api(url, '/api/sim/put', { method: 'POST', body: { character: slug, place } });
    await waitStatus((s) => s.board && s.board.expected[slug] === place && !s.refusal, `${label} accepted`);
  }
  const placements = [
    ['alighiero', '4'], ['beatrice', '4'], ['clemente', '4'], ['dario', '4'], ['ernesto', '3'], ['fiorello', '3'],
    ['gavino', '3'], ['irina', '3'], ['leonardo', '2'], ['merlino', '2'], ['natale', '2'], ['odessa', '1'],
  ];
  for (const [i, [slug, place]] of placements.entries()) await play(slug, place, `seat ${i % 3} places ${slug} on ${place}`);
  const guided = await waitStatus((s) => s.guidance || (s.view && s.view.phase === 'ascent'), 'the end of placement');
  if (guided.guidance) {
    await api(url, '/api/sim/put', { method: 'POST', body: { character: 'piero', place: '0' } });
    await waitStatus((s) => !s.guidance && s.view.phase === 'ascent', 'the board set for the ascent');
  }
  await play('alighiero', '5', 'seat 0 moves alighiero to 5');
  await play('alighiero', '6', 'seat 1 moves alighiero to the throne');
  await waitStatus((s) => s.election, 'the election');
  await publicSnapshot('the election', statusPage);
  for (const seat of [0, 1, 2]) await api(url, '/api/sim/press', { method: 'POST', body: { station: seat, key: 'yes' } });

  // --- the coronation waits for the cards -----------------------------------------
  const waiting = await waitStatus((s) => s.reveal, 'the call for the cards');
  const r = waiting.reveal;
  check(r.round === 1 && r.favourites === true && r.ambitions === false && r.banished === false,
    `the referee waits for round 1's favourites: ${JSON.stringify(waiting.reveal)}`);
  check(waiting.view.totals.every((t) => t === 0) && !waiting.view.finished_rounds.length, `the totals are those before the coronation: ${waiting.view.totals}`);
  check(/host/i.test(waiting.waiting_for || ''), `waiting_for says so: ${waiting.waiting_for}`);
  await statusPage.locator('#reveal-pending:not(.hidden)').waitFor({ timeout: kWait });
  check((await statusPage.locator('#reveal-pending').innerText()).includes('Show your Favourites cards: the host is entering them'), 'the status page calls for the cards');
  check((await statusPage.locator('#scores').innerText()).includes('scores after the cards are entered'), 'the status page does not show the totals as final');
  await shot(statusPage, 'status-waiting');
  await publicSnapshot('the coronation', statusPage);
  // The board accepts nothing meanwhile.
  await api(url, '/api/sim/put', { method: 'POST', body: { character: 'beatrice', place: '5' } });
  await waitStatus((s) => s.refusal || (s.board.seen.beatrice && s.board.seen.beatrice.on === '5'), 'the move judged');
  const still = await status();
  check(still.board.expected.beatrice === '4' && still.reveal, 'a move is not accepted while the cards are awaited');
  await api(url, '/api/sim/put', { method: 'POST', body: { character: 'beatrice', place: '4' } });
  await waitStatus((s) => !s.refusal && s.board.seen.beatrice && s.board.seen.beatrice.on === '4', 'the board put back');

  // --- the host enters the cards --------------------------------------------------
  await host.locator('#reveal-form:not(.hidden)').waitFor({ timeout: kWait });
  const chip = (p, slug) => host.locator(`fieldset[data-player="${p}"] .chip:has(input[value="${slug}"])`);
  const send = () => host.locator('#reveal-form button[type=submit]').tap();
  for (let p = 0; p < 3; ++p) for (const slug of cards[p].slice(0, p === 2 ? 5 : 6)) await chip(p, slug).tap();
  await send(); // Chiara's card has five: the page refuses it
  await host.locator('#reveal-message:not(.hidden)').waitFor({ timeout: kWait });
  check((await host.locator('fieldset[data-player="2"] .reveal-problem').innerText()).includes('5 chosen'), 'an incomplete card is refused on the page');
  await chip(2, cards[2][5]).tap();
  // Paused by mistake: the referee refuses, the page shows its sentence.
  await host.locator('button[data-request="pause"]').tap();
  await waitStatus((s) => s.state === 'paused', 'the game paused from the host page');
  await send();
  await host.locator('#reveal-message').filter({ hasText: 'refused' }).waitFor({ timeout: kWait });
  const refused = await host.locator('#reveal-message').innerText();
  check(/paused/i.test(refused), `the referee's refusal is shown by the form: ${refused}`);
  await shot(host, 'host-refused', { fullPage: false });
  check(await host.locator('#reveal-form').isVisible() && (await status()).reveal, 'the cards are still awaited after the refusal');
  await host.locator('button[data-request="resume"]').tap();
  await waitStatus((s) => s.state === 'playing', 'the game resumed from the host page');
  await send();
  // The status event (no cards awaited) may hide the form before the
  // answer arrives: wait for what the answer says.
  await host.locator('#message').filter({ hasText: 'Round 1’s cards are in' }).waitFor({ timeout: kWait });
  await host.locator('#reveal-form.hidden').waitFor({ state: 'attached', timeout: kWait });
  check(true, 'the host page says the cards are in, and the form is gone');

  // --- scored on the cards ---------------------------------------------------------
  const over = await waitStatus((s) => s.state === 'finished', 'the end of the game');
  const revealed = (over.view.revealed_favourites || []).map((c) => c.favourites);
  const sorted = (list) => JSON.stringify([...list].sort());
  check(revealed.length === 3 && revealed.every((c, p) => sorted(c) === sorted(cards[p])), `the cards entered are the revealed ones: ${JSON.stringify(revealed)}`);
  check(over.reveal === null && over.view.finished_rounds.length === 1, 'round 1 is scored');
  await statusPage.locator('#reveal-pending.hidden').waitFor({ state: 'attached', timeout: kWait });
  await statusPage.locator('#scores').filter({ hasText: 'Favourites, revealed' }).waitFor({ timeout: kWait });
  const scoresText = await statusPage.locator('#scores').innerText();
  check(!scoresText.includes('Not final') && over.view.totals.every((t) => scoresText.includes(String(t))), `the status page shows the scores: ${scoresText.replace(/\s+/g, ' ')}`);
  await shot(statusPage, 'status-scored');
  check(await host.locator('#reveal-done').isHidden(), 'no correction is offered once the game is over');
  const again = await hostApi('/api/host/reveal', { round: 1, favourites: cards });
  check(again.status === 409, `the cards cannot be changed once the game is over (${again.status} ${again.json && again.json.error})`);

  // The log's record deals the entered cards and replays to the same scores.
  const game = (await api(url, `/api/games/${over.game}`)).json;
  const record = game.record || [];
  const deal = record.find((line) => line.deal);
  check(deal && deal.deal.favourites.every((c, p) => sorted(c) === sorted(cards[p])), `the record's deal is the cards entered: ${JSON.stringify(deal && deal.deal.favourites)}`);
  const replay = spawnSync(vivaref, ['replay', '-'], { input: `${record.map((l) => JSON.stringify(l)).join('\n')}\n`, encoding: 'utf8', timeout: 20000 });
  let replayed = null;
  try {
    replayed = JSON.parse(replay.stdout);
  } catch {
    replayed = null;
  }
  check(replay.status === 0 && replayed && JSON.stringify(replayed.scores ?? replayed.totals) === JSON.stringify(over.view.totals),
    `the record replays to the same scores: ${replay.stdout.trim().slice(0, 300)} ${replay.stderr.trim().slice(0, 200)}`);

  // --- secrets: the placeholders never showed before the cards ----------------------
  const placeholders = [];
  const walk = (v) => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) {
      if (k === 'favourites' && Array.isArray(x) && x.length === 3 && x.every(Array.isArray)) placeholders.push(...x);
      walk(x);
    }
  };
  walk(game.events || []);
  const secret = placeholders.filter((c) => !cards.some((real) => sorted(real) === sorted(c)));
  check(secret.length > 0, `the log holds the referee's placeholder cards (${secret.length})`);
  const leaks = [];
  // Every snapshot was taken before the cards; the stream's events up to
  // the end of the game (the cards are public from then on).
  const texts = [...publicTexts, ...events.map((text, i) => ({ where: `stream event ${i}`, text }))];
  const nameOf = new Map((started.roster || []).map((c) => [c.id, c.name]));
  const capital = (slug) => nameOf.get(slug) || slug;
  for (const { where, text } of texts) {
    if (/"state":"finished"/.test(text)) continue;
    for (const c of [...secret, ...cards])
      for (const form of [JSON.stringify(c), JSON.stringify([...c].sort()), c.join(', '), c.map(capital).join(', ')])
        if (text.includes(form)) leaks.push(`${where} holds ${form}`);
  }
  check(events.length > 10, `the event stream was read (${events.length} status events)`);
  check(leaks.length === 0, `no card in any public answer, stream event or page before the cards: ${leaks.slice(0, 3).join('; ')}`);
  check((await pageWidth(host)) <= 392, 'the host page fits a phone');
  check(errors.length === 0, `no script error in the pages: ${errors.join('; ')}`);
} catch (e) {
  if (e instanceof Skip) skipped = e.message;
  else {
    fail(e);
    console.log(`--- serve's output ---\n${server.log().slice(-3000)}`);
  }
} finally {
  streamAbort.abort();
  await close();
  await server.stop();
}
if (skipped) skip(skipped);
finish();
