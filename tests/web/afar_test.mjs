// Issue 35, phones at the table, in a real browser (Debian's chromium,
// playwright-core) on the real `vivaref serve --hardware=sim`:
//   node tests/web/afar_test.mjs VIVAREF [ARTIFACT_DIR]   exit 0 pass, 1 fail, 77 skipped
//
// A 2024 game of one round with Ambition, four seats: Ann (seat 1) and Bo
// (seat 2) vote with their stations (the simulated castle's keys), Cleo
// (seat 3) votes on her phone, Dan (seat 4) plays from afar at a phone's
// size (390×844). The host sets it up on the host page. Every Ambition card
// is kept from a phone. Dan's first placement is chosen by tapping on his
// page (a character, then a place, then the confirmation), shown at the
// table (the status page names him "(from afar)"), made by the test on the
// simulated board, and seen done on his page; his later ones are chosen
// through the same route. The seat is handed to a bot for the round from
// the host page and taken back. The election: Ann and Bo press keys, Cleo
// votes on her phone; Dan's page is closed, and the status page (at a TV's
// size) says the game waits for Dan’s phone (`phone_away_after = 5`; a
// page whose live events are held back keeps it seen by its heartbeat);
// opened again with the same link (in French), it resumes on the vote;
// the daemon is killed (the page then says it reconnects, keeping what it
// showed) and started again on the same state directory with Dan's page
// open: the page reconnects by itself and shows the same vote,
// which Dan then gives. After every step: no hand, favourites, Ambition
// card or vote before its reveal in the public answers, on the status page
// or on another player's page. Bad input, each refused with its reason and
// nothing changed: a vote from a phone whose seat votes with its station, a
// plan from a seat played at the table, a plan out of turn, a plan sent
// again after it was made, a revoked link. The new words in English and in
// French (Dan's page, the host page, the status page).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { api, serveMissing, startServe } from './daemon.mjs';
import { gameDriver } from './game_driver.mjs';
import { browserOrSkip, checker, kPhone, kWait, newPage, pageWidth, shooter, skip } from './harness.mjs';

const vivaref = process.argv[2];
const artifacts = process.argv[3] || join(tmpdir(), 'vivaref-afar');
if (serveMissing(vivaref)) skip(serveMissing(vivaref));
const launchBrowser = await browserOrSkip();

const { check, fail, finish } = checker('web-afar');
// axe-core (npm, as web-a11y injects it) on the new controls, when installed.
const kAxe = join(fileURLToPath(new URL('.', import.meta.url)), 'node_modules', 'axe-core', 'axe.min.js');
const axeSource = existsSync(kAxe) ? readFileSync(kAxe, 'utf8') : null;
async function axeClean(page, label) {
  if (!axeSource) return;
  if (!(await page.evaluate(() => Boolean(window.axe)))) await page.evaluate(axeSource);
  const result = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
  const found = result.violations.map((v) => `${v.id}: ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
  check(!found.length, `axe finds nothing on ${label}: ${found.join('; ')}`);
}
const shot = shooter(artifacts, 'afar-');
const errors = [];
const kLaptop = { viewport: { width: 1280, height: 800 } };
const kTv = { viewport: { width: 1920, height: 1080 } };
const names = ['Ann', 'Bo', 'Cleo', 'Dan'];
const kRemote = 3;
const kPhoneSeat = 2;
const kAmbitionSlugs = ['jester-king', 'its-a-queen', 'its-a-king', 'wc-0', 'wc-1', 'wc-2', 'no-floors-0-1', 'no-floors-2-3',
  'no-floors-4-5', 'dungeons-1', 'dungeons-2', 'dungeons-3', 'no-wc-no-dungeon', 'only-yes', 'friend-of-the-king', 'under-11'];
const kPrivateKeys = new Set(['hand', 'own_vote', 'private', 'token', 'ambition_choices']);
// Text as a person sees it: without the invisible isolates around names.
const visible = (text) => text.replace(/[\u2066-\u2069]/g, '');

const server = await startServe(vivaref, { edition: '2024', extraConfig: 'phone_away_after = 5\n' });
const { url } = server;
const { status, waitStatus, sim, followGuidance } = gameDriver(server);
const hostApi = (what, body = {}) => api(url, `/api/host/${what}`, { method: 'POST', body, token: server.hostToken });
const { browser, close } = await launchBrowser();

// What "nothing changed" compares: the game, the board, the election, the plan, the seats.
async function gist() {
  const s = await status();
  const seats = (s.seats || []).map(({ phone_away: _away, ...rest }) => rest);
  return JSON.stringify([s.state, s.game, s.view, s.election, s.plan, s.board && s.board.expected, seats, s.last_action, s.ambition_waiting]);
}

// A request that must be refused with `code` (the answer's `error`, or its
// message's code) and change nothing.
async function refused(label, request, codes) {
  const before = await gist();
  const answer = await request();
  const said = answer.json || {};
  const code = said.says && said.says.code ? said.says.code : '';
  check([409, 404].includes(answer.status) && codes.some((c) => c === said.error || c === code),
    `${label}: refused ${answer.status} ${said.error} (${code}) "${said.message || ''}"`);
  await new Promise((r) => setTimeout(r, 150));
  check((await gist()) === before, `${label}: nothing changed`);
}

// The players' secrets as their own pages are told them.
const tokens = [];
async function secrets() {
  const out = [];
  for (const t of tokens) out.push(((await api(url, `/api/player/${t}`)).json || {}).private || {});
  return out;
}

// A public answer's private keys, where it has any: its hands, tokens,
// unrevealed votes and favourites (a revealed favourites card is public).
function privateKeys(where, value, problems) {
  const walk = (v, p) => {
    if (Array.isArray(v)) v.forEach((x, i) => walk(x, [...p, i]));
    else if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        if (kPrivateKeys.has(k)) problems.push(`${where} has "${k}" at ${p.join('.')}`);
        if (k === 'favourites' && !p.includes('revealed_favourites')) problems.push(`${where} has favourites at ${p.join('.')}`);
        if (k === 'votes' && p[p.length - 1] !== 'last_reveal') problems.push(`${where} has votes at ${p.join('.')}`);
        walk(x, [...p, k]);
      }
    }
  };
  walk(value, []);
}

// The public live events (GET /api/events) as anyone on the network gets
// them, the whole test long: each event read since the last look is
// checked with the answers. Reconnects when the daemon went away.
const heard = [];
let listening = true;
(async () => {
  while (listening) {
    try {
      const response = await fetch(`${url}/api/events`);
      const reader = response.body.getReader();
      const decoder = new TextDecoder();
      let buffer = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done || !listening) break;
        buffer += decoder.decode(value, { stream: true });
        let end;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const kind = (block.match(/^event: (.*)$/m) || [])[1] || 'message';
          const data = block.split('\n').filter((l) => l.startsWith('data: ')).map((l) => l.slice(6)).join('\n');
          if (data) heard.push({ kind, data });
        }
      }
    } catch { /* the daemon away: try again */ }
    if (listening) await new Promise((r) => setTimeout(r, 300));
  }
})();
let eventsChecked = 0;

// No secret in the public answers and live events, on the status page, on
// `pages` (another player's page: [page, player]).
async function noSecrets(label, statusPage, pages = []) {
  const s = await status();
  const problems = [];
  const open = s.state === 'playing' || s.state === 'paused';
  const events = heard.slice(eventsChecked);
  eventsChecked += events.length;
  if (heard.length === 0) problems.push('no live event heard at all');
  for (const e of events) {
    let value = null;
    try { value = JSON.parse(e.data); } catch { problems.push(`a live ${e.kind} event is not JSON`); }
    privateKeys(`the live ${e.kind} event`, value, problems);
    // Before a round is scored, no Ambition card is public.
    const scored = value && Array.isArray(value.score_breakdown) && value.score_breakdown.length > 0;
    if (value && (value.state === 'playing' || value.state === 'paused') && !scored
        && kAmbitionSlugs.some((slug) => e.data.includes(`"${slug}"`)))
      problems.push(`a live ${e.kind} event names an Ambition card during play`);
  }
  for (const path of ['/api/status', '/api/info', '/api/games', '/api/sim/state']) {
    const r = await api(url, path);
    privateKeys(path, r.json, problems);
    if (open) {
      const cards = kAmbitionSlugs.filter((slug) => r.text.includes(`"${slug}"`));
      if (cards.length) problems.push(`${path} names Ambition cards ${cards}`);
      if (s.election && /"(yes|no|stomachache)"/.test(r.text)) problems.push(`${path} names a vote card while the election is open`);
    }
  }
  const mine = await secrets();
  const statusText = visible(await statusPage.locator('body').innerText());
  if (open) {
    for (const [p, m] of mine.entries()) {
      const kept = m.ambition;
      if (kept) {
        const word = await statusPage.evaluate(async (c) => (await import('/js/names.js')).ambitionWord(c), kept);
        if (statusText.includes(word)) problems.push(`the status page shows ${names[p]}'s Ambition card`);
        for (const [page, player] of pages) {
          if (player !== p && visible(await page.locator('body').innerText()).includes(word)) problems.push(`${names[player]}'s page shows ${names[p]}'s Ambition card`);
        }
      }
    }
  }
  for (const [page, player] of pages) {
    if (await page.isClosed()) continue;
    const html = await page.content();
    for (const [p, m] of mine.entries()) {
      if (p === player) continue;
      const fav = (m.favourites || []).join(',');
      if (fav && html.includes(fav)) problems.push(`${names[player]}'s page holds ${names[p]}'s favourites`);
    }
  }
  check(problems.length === 0, `no secret anywhere public after ${label}: ${problems.join('; ')}`);
}

// A player's page at a phone's size; `locale` for another language.
async function openPlayer(p, options = {}) {
  const page = await newPage(browser, { ...kPhone, ...options }, errors);
  await page.goto(`${url}/player.html#${tokens[p]}`);
  await page.locator('#private:not(.hidden)').waitFor({ timeout: kWait });
  return page;
}
const moment = (page, kind) => page.locator(`#moment[data-moment="${kind}"]`).waitFor({ timeout: kWait });
const playerAnswer = async (p) => (await api(url, `/api/player/${tokens[p]}`)).json;

// The seat to place or move now; its next placement from `targets`.
const placed = new Set();
const kOrder = ['eloise', 'ouaf', 'caius', 'foidvo', 'jeanne', 'merlin', 'victoria', 'leonardo', 'romeo', 'bridget', 'agathe', 'gontran', 'blanche'];
const kTargets = ['4', '4', '4', '4', '3', '3', '3', '2', '2', '2', '2', '1'];
function nextPlacement() {
  const slug = kOrder.find((c) => !placed.has(c));
  return { slug, place: kTargets[placed.size] };
}

// Dan's move chosen through the plan route (the page's own request), then made at the table.
async function planAndMake(slug, place, label) {
  const page = await playerAnswer(kRemote);
  const answer = await api(url, `/api/player/${tokens[kRemote]}/plan`, { method: 'POST', body: { character: slug, to: place, step: page.step } });
  if (answer.status !== 200) throw new Error(`${label}: plan answered ${answer.status} ${answer.text}`);
  await waitStatus((s) => s.plan && s.plan.seat === kRemote && s.plan.character === slug, `${label} shown`);
  await sim('put', { character: slug, place });
  return waitStatus((s) => s.board.expected[slug] === place && !s.refusal && !s.plan, `${label} made`);
}

async function makeAtTable(slug, place, label) {
  await sim('put', { character: slug, place });
  return waitStatus((s) => s.board.expected[slug] === place && !s.refusal, `${label} made`);
}

try {
  // --- the host sets it up --------------------------------------------------------------
  const statusPage = await newPage(browser, kTv, errors);
  await statusPage.goto(`${url}/`);
  await statusPage.waitForFunction(() => Number(document.body.dataset.renders || 0) > 0, null, { timeout: kWait });
  const hostPage = await newPage(browser, kLaptop, errors);
  await hostPage.goto(server.hostLink);
  await hostPage.locator('#controls').waitFor({ state: 'visible', timeout: kWait });
  await hostPage.check('input[name=edition][value="2024"]');
  await hostPage.fill('#seats', '4');
  await hostPage.locator('#seats').dispatchEvent('input');
  check(await hostPage.locator('#names select.seat-votes').count() === 4 && await hostPage.locator('#names input.seat-remote').count() === 4,
    'the new-game form asks each seat what it votes with and whether it plays from afar');
  const defaults = await hostPage.locator('#names select.seat-votes').evaluateAll((ss) => ss.map((s) => s.options[s.selectedIndex].text));
  check(defaults.every((d) => d === 'table default'), `every seat starts at the table's default: ${defaults}`);
  for (let i = 0; i < 4; ++i) await hostPage.fill(`input.player-name[data-player="${i}"]`, names[i]);
  await hostPage.fill('#rounds', '1');
  await hostPage.check('#ambition');
  await hostPage.selectOption(`select.seat-votes[data-seat="${kPhoneSeat}"]`, 'phone');
  await hostPage.check(`input.seat-remote[data-seat="${kRemote}"]`);
  const sent = hostPage.waitForRequest((r) => r.url().endsWith('/api/host/new-game'));
  await hostPage.locator('#new-game button[type=submit]').click();
  const body = JSON.parse((await sent).postData());
  check(JSON.stringify(body.seats) === JSON.stringify([{ seat: kPhoneSeat, votes: 'phone' }, { seat: kRemote, remote: true }]),
    `the host page sends only the seats set: ${JSON.stringify(body.seats)}`);
  await hostPage.locator('#links figure').nth(3).waitFor({ timeout: kWait });
  for (let p = 0; p < 4; ++p) tokens.push((await hostPage.locator(`#links figure[data-player="${p}"] a.player-link`).getAttribute('href')).split('#')[1]);
  const started = await status();
  const seatsPlay = started.seats || [];
  check(seatsPlay[0].votes_by === 'station' && seatsPlay[1].votes_by === 'station' && seatsPlay[kPhoneSeat].votes_by === 'phone'
    && seatsPlay[kRemote].remote === true && seatsPlay[kRemote].votes_by === 'phone', `the seats as the host set them: ${JSON.stringify(seatsPlay)}`);
  await hostPage.locator('#seats-card:not(.hidden) .seat-row').nth(3).waitFor({ timeout: kWait });
  const remoteRow = hostPage.locator(`.seat-row[data-seat="${kRemote}"]`);
  check(await remoteRow.locator('input.seat-remote').isChecked() && (await remoteRow.locator('.seat-phone').innerText()).includes('Phone not seen yet'),
    `the host's row for Dan: from afar, phone not seen yet: ${visible(await remoteRow.innerText()).replace(/\s+/g, ' ')}`);
  await shot(hostPage, 'host-seats', { fullPage: false });
  await axeClean(hostPage, 'the host page with its seat rows');

  // --- Ambition: every card kept from a phone ------------------------------------------------
  await waitStatus((s) => s.view && s.view.phase === 'ambition', 'the Ambition phase', 20000);
  await followGuidance();
  const phones = [];
  for (let p = 0; p < 4; ++p) phones.push(await openPlayer(p));
  const dan = phones[kRemote];
  await dan.evaluate(() => { window.sameDocument = true; });
  for (let p = 0; p < 4; ++p) {
    const phone = phones[p];
    const card = await phone.locator('#moment-ambition button.ambition-keep').first().getAttribute('data-ambition');
    await phone.locator(`button.ambition-keep[data-ambition="${card}"]`).tap();
    await phone.locator(`#moment-ambition button.ambition-confirm[data-ambition="${card}"]`).tap();
    await phone.locator('#moment-ambition .message.ok').waitFor({ timeout: kWait });
  }
  check(true, 'the four Ambition cards are kept from the phones');
  await waitStatus((s) => s.view.phase === 'placement', 'the placement');
  await hostPage.locator(`.seat-row[data-seat="${kRemote}"] .seat-phone:not(.phone-away)`).waitFor({ timeout: kWait });
  check((await remoteRow.locator('.seat-phone').innerText()).includes('Phone here'), 'the host sees Dan\'s phone there');
  check(await dan.locator('#remote-castle').isVisible() && await dan.locator('#remote-castle svg').count() === 1,
    'Dan\'s page shows the castle as the board sees it');
  check(await phones[0].locator('#remote-castle').isHidden(), 'a seat at the table gets no castle on its page');
  const touch = await dan.locator('#remote-castle svg').evaluate((svg) => getComputedStyle(svg).touchAction);
  check(touch === 'auto', `a finger on Dan's castle scrolls his page (touch-action ${touch})`);
  await noSecrets('the Ambition cards kept', statusPage, [[phones[0], 0], [dan, kRemote]]);

  // --- the placement ------------------------------------------------------------------------
  let handedOver = false;
  let tapped = false;
  let frenchChoice = false;
  while (placed.size < 12) {
    const s = await status();
    const seat = s.view.to_act[0];
    const { slug, place } = nextPlacement();
    if (seat !== kRemote) {
      if (!handedOver) {
        // Bad input while Ann (at the table) is to place: a plan from her
        // seat, and one from Dan's out of turn.
        const ann = await playerAnswer(seat);
        await refused('a plan from a seat played at the table', () => api(url, `/api/player/${tokens[seat]}/plan`,
          { method: 'POST', body: { character: slug, to: place, step: ann.step } }), ['not-remote', 'plan.not-remote']);
        const d = await playerAnswer(kRemote);
        check(d.moment.kind === 'wait' && d.moment.choices === null, `Dan is offered nothing out of his turn (${d.moment.kind})`);
        await refused('a plan from Dan out of turn', () => api(url, `/api/player/${tokens[kRemote]}/plan`,
          { method: 'POST', body: { character: slug, to: place, step: d.step } }), ['not-your-turn', 'plan.not-your-turn']);
        // The seat handed to a bot for the round from the host page, then taken back.
        await remoteRow.locator('button.seat-bot-round').click();
        await waitStatus((x) => x.seats[kRemote].stand_in, 'a bot standing in for Dan');
        await remoteRow.locator('button.seat-back').waitFor({ timeout: kWait });
        check((await hostPage.locator('#message').innerText()).includes('until the end of the round'), `the host page says it: ${await hostPage.locator('#message').innerText()}`);
        const standing = await status();
        check(standing.seats[kRemote].stand_in_until === 'round', 'the bot stands in until the end of the round');
        await dan.locator('#moment-stand-in:not(.hidden)').waitFor({ timeout: kWait });
        check(visible(await dan.locator('#moment-stand-in').innerText()).includes('A bot plays your seat until the end of the round.'), 'Dan\'s page says a bot plays his seat for the round');
        await remoteRow.locator('button.seat-back').click();
        await waitStatus((x) => !x.seats[kRemote].stand_in, 'Dan\'s seat back');
        await remoteRow.locator('button.seat-bot-round').waitFor({ timeout: kWait });
        await dan.locator('#moment-stand-in').waitFor({ state: 'hidden', timeout: kWait });
        check((await hostPage.locator('#message').innerText()).includes('plays again'), `the host page says the seat is taken back: ${await hostPage.locator('#message').innerText()}`);
        handedOver = true;
        await noSecrets('the seat handed over and back', statusPage, [[phones[0], 0], [dan, kRemote]]);
      }
      await makeAtTable(slug, place, `${names[seat]} places ${slug} on ${place}`);
      placed.add(slug);
      continue;
    }
    if (tapped && !frenchChoice) {
      // Dan's second turn in French on a laptop: the same choices, in his words.
      frenchChoice = true;
      const laptop = await newPage(browser, { ...kLaptop, locale: 'fr-FR' }, errors);
      await laptop.goto(`${url}/player.html#${tokens[kRemote]}`);
      await moment(laptop, 'choose');
      await laptop.locator(`button.remote-piece[data-character="${slug}"]`).click();
      await laptop.locator(`button.remote-to[data-to="${place}"]`).click();
      const text = visible(await laptop.locator('#moment').innerText());
      check(text.includes('À vous : choisissez sur cette page') && text.includes('Quel personnage ?') && text.includes('Montrer à la table :')
        && !/Your turn|Which character|Show at the table|Cancel/.test(text), `Dan's choice in French: ${text.replace(/\s+/g, ' ').slice(0, 240)}`);
      check((await pageWidth(laptop)) <= 1280 && await laptop.locator('#remote-castle svg').isVisible(), 'Dan\'s page fits a laptop, the castle shown');
      await shot(laptop, 'dan-laptop-fr', { fullPage: false });
      await laptop.locator('button.remote-confirm').click();
      await laptop.locator('#moment-remote .remote-answer.ok').waitFor({ timeout: kWait });
      await laptop.context().close();
      await sim('put', { character: slug, place });
      await waitStatus((x) => x.board.expected[slug] === place && !x.refusal && !x.plan, `Dan's ${slug} made`);
      placed.add(slug);
      continue;
    }
    if (tapped) {
      await planAndMake(slug, place, `Dan places ${slug} on ${place}`);
      placed.add(slug);
      continue;
    }
    // Dan's first placement, by tapping on his page.
    tapped = true;
    await moment(dan, 'choose');
    const offered = (await playerAnswer(kRemote)).moment.choices;
    const pieces = await dan.locator('#moment-remote button.remote-piece').evaluateAll((bs) => bs.map((b) => b.dataset.character));
    check(pieces.length === new Set(offered.map((c) => c.character)).size && pieces.every((c) => offered.some((o) => o.character === c)),
      `Dan is offered every character he may place, no other: ${pieces.join(', ')}`);
    check(visible(await dan.locator('#moment .moment-title').innerText()).startsWith('Your turn: choose on this page'), 'Dan\'s banner: choose on this page');
    await dan.locator(`button.remote-piece[data-character="${slug}"]`).tap();
    const places = await dan.locator('#moment-remote button.remote-to').evaluateAll((bs) => bs.map((b) => b.dataset.to));
    const legal = offered.filter((c) => c.character === slug).map((c) => String(c.to));
    check(JSON.stringify(places) === JSON.stringify(legal), `only ${slug}'s legal places are offered: ${places}`);
    await dan.locator(`button.remote-to[data-to="${place}"]`).tap();
    const confirm = dan.locator('#moment-remote button.remote-confirm');
    check(visible(await confirm.innerText()).startsWith('Show at the table: '), `a confirmation first: ${await confirm.innerText()}`);
    await shot(dan, 'dan-confirm', { fullPage: false });
    await axeClean(dan, 'Dan\'s page with a choice to confirm');
    const before = await playerAnswer(kRemote);
    await confirm.tap();
    await dan.locator('#moment-remote .remote-answer.ok').waitFor({ timeout: kWait });
    check(visible(await dan.locator('#moment-remote .remote-answer').innerText()).startsWith('Shown at the table:'), 'Dan\'s page says his move is shown at the table');
    const shown = await waitStatus((x) => x.plan && x.plan.seat === kRemote, 'Dan\'s placement shown');
    check(shown.plan.character === slug && String(shown.plan.to) === place && shown.plan.from_afar === true, `the public plan: ${JSON.stringify(shown.plan)}`);
    await moment(dan, 'planned');
    const planned = visible(await dan.locator('#moment .remote-shown').innerText());
    check(planned.startsWith('Shown at the table:') && planned.includes('floor 4'), `Dan's banner names the move shown: ${planned}`);
    check(await dan.locator('#moment-remote button.remote-piece').count() > 0, 'Dan may still choose another move');
    await statusPage.locator('#bot-plan').filter({ hasText: 'from afar' }).waitFor({ timeout: kWait });
    const chip = visible(await statusPage.locator('#bot-plan').innerText());
    check(chip.includes('Dan (from afar)'), `the status page names Dan "(from afar)": ${chip}`);
    check(/Anyone at the table may make the move/.test(visible(await statusPage.locator('#waiting').innerText())), 'the headline asks the table to make it');
    const lit = shown.leds || {};
    check(lit[`place-${place}`] && lit[`place-${place}`] !== 'off', `the castle lights the destination (place-${place}: ${lit[`place-${place}`]})`);
    await shot(statusPage, 'status-plan', { fullPage: false });
    await shot(dan, 'dan-planned', { fullPage: false });
    await noSecrets('Dan\'s move shown', statusPage, [[phones[0], 0], [dan, kRemote]]);
    // The table makes it: Dan's page shows it done.
    await makeAtTable(slug, place, `Dan's ${slug} put on ${place}`);
    placed.add(slug);
    await dan.locator('#remote-castle .remote-done:not(.hidden)').waitFor({ timeout: kWait });
    const last = visible(await dan.locator('#remote-castle .remote-last').innerText());
    check(last.includes('Dan') && last.includes('floor 4'), `Dan's page shows the move done: ${last}`);
    check(await dan.locator(`#remote-castle svg [data-character="${slug}"], #remote-castle svg [data-slug="${slug}"]`).count() > 0
      || (await dan.locator('#remote-castle svg').innerHTML()).includes(slug), 'the castle on Dan\'s page is drawn again with the piece');
    await shot(dan, 'dan-done', { fullPage: false });
    // The same request sent again once made: refused, nothing changed.
    await refused('Dan\'s plan sent again after it was made', () => api(url, `/api/player/${tokens[kRemote]}/plan`,
      { method: 'POST', body: { character: slug, to: place, step: before.step } }), ['stale', 'plan.stale']);
  }
  await followGuidance(); // the last character to floor 0
  await waitStatus((s) => s.view.phase === 'ascent' && !s.guidance, 'the ascent');

  // A revoked link: the host gives Bo a new one; the old one is refused.
  const oldBo = tokens[1];
  const renewed = await hostApi('new-link', { player: 1 });
  tokens[1] = renewed.json.players[1].token;
  await refused('a vote from a revoked link', () => api(url, `/api/player/${oldBo}/vote`, { method: 'POST', body: { card: 'yes' } }), ['no-such-player']);
  // Bo's open page, on the old link: it says so and stops asking (wrong secrets are throttled by address).
  await phones[1].locator('#error:not(.hidden)').waitFor({ timeout: kWait });
  check((await phones[1].locator('#error').innerText()).includes('belongs to no player'), 'Bo\'s page on the revoked link says it belongs to no player');
  const boReads = Number(await phones[1].evaluate(() => document.body.dataset.reads || 0));
  await phones[1].waitForTimeout(3000);
  check(Number(await phones[1].evaluate(() => document.body.dataset.reads || 0)) === boReads, 'a page on a revoked link stops asking');
  await noSecrets('Bo\'s link revoked', statusPage, [[phones[0], 0], [phones[1], 1], [dan, kRemote]]);

  // --- the ascent: Eloise to the throne ------------------------------------------------------
  for (const to of ['5', '6']) {
    const s = await status();
    if (s.view.to_act[0] === kRemote) await planAndMake('eloise', to, `Dan moves eloise to ${to}`);
    else await makeAtTable('eloise', to, `${names[s.view.to_act[0]]} moves eloise to ${to}`);
  }
  await waitStatus((s) => s.election, 'the election');
  await moment(phones[kPhoneSeat], 'vote');
  await moment(dan, 'vote');
  const cleo = phones[kPhoneSeat];
  check(await cleo.locator('#moment-vote button.vote-choice').count() >= 2, 'Cleo\'s page offers her vote cards');
  check(await phones[0].locator('#moment-vote').isHidden() && visible(await phones[0].locator('#moment').innerText()).includes('on your keys'),
    'Ann, who votes with her station, gets no vote buttons: her keys');
  check(visible(await dan.locator('#moment').innerText()).includes('Vote on this phone'), 'Dan\'s page asks for his vote on the phone');
  await refused('a vote from Ann\'s phone (her seat votes with its station)', () => api(url, `/api/player/${tokens[0]}/vote`,
    { method: 'POST', body: { card: 'yes' } }), ['phone.votes-by-station', 'votes-by-station']);
  await sim('press', { station: 0, key: 'yes' });
  await waitStatus((s) => s.election.voted.includes(0), 'Ann\'s key');
  // Cleo votes on her phone: a tap, then the confirmation.
  await cleo.locator('#moment-vote button.vote-choice[data-card="yes"]').tap();
  const confirmVote = cleo.locator('#moment-vote button.vote-confirm');
  check(visible(await confirmVote.innerText()) === 'Vote “Yes”', `Cleo is asked to confirm: ${await confirmVote.innerText()}`);
  await shot(cleo, 'cleo-confirm', { fullPage: false });
  await axeClean(cleo, 'Cleo\'s page with a vote to confirm');
  await confirmVote.tap();
  await moment(cleo, 'voted');
  check(visible(await cleo.locator('#moment').innerText()).includes('Your vote is in.'), 'Cleo\'s page says her vote is in');
  await waitStatus((s) => s.election.voted.includes(kPhoneSeat), 'Cleo\'s vote counted');
  await statusPage.locator(`#voters li[data-seat="${kPhoneSeat}"][data-voted="yes"]`).waitFor({ timeout: kWait });
  check(await phones[0].locator('.vote-said').count() === 0 && await dan.locator('.vote-said').count() === 0, 'no other page says Cleo\'s answer');
  const voters = visible(await statusPage.locator('#voters').innerText());
  check(voters.includes('Dan (from afar)'), `the status page's voters name Dan "(from afar)": ${voters.replace(/\s+/g, ' ')}`);
  await noSecrets('Cleo\'s vote', statusPage, [[phones[0], 0], [dan, kRemote]]);
  // The new words in French: the host's seat rows and the status page (its language chosen on the device).
  const hostFr = await newPage(browser, { ...kLaptop, locale: 'fr-FR' }, errors);
  await hostFr.goto(server.hostLink);
  await hostFr.locator('#seats-card:not(.hidden) .seat-row').nth(3).waitFor({ timeout: kWait });
  const formFr = visible(await hostFr.locator('#new-game').innerText());
  check(formFr.includes('Vote avec') && formFr.includes('Joue à distance') && formFr.includes('réglage de la table') && !/Votes with|Plays from afar|table default/.test(formFr),
    'the host page\'s new-game form in French');
  const rowsFr = visible(await hostFr.locator('#seats-card').innerText());
  check(rowsFr.includes('Comment joue chaque siège') && rowsFr.includes('Confier à un robot : pour cette manche') && rowsFr.includes('Téléphone présent')
    && !/Hand to a bot|Phone here|Votes with/.test(rowsFr), `the host's seat rows in French: ${rowsFr.slice(0, 200).replace(/\s+/g, ' ')}`);
  await shot(hostFr, 'host-seats-fr', { fullPage: false });
  await hostFr.context().close();
  const statusFr = await newPage(browser, kLaptop, errors);
  await statusFr.context().addInitScript(() => localStorage.setItem('vivaref.language', 'fr'));
  await statusFr.goto(`${url}/`);
  await statusFr.locator(`#voters li[data-seat="${kRemote}"]`).waitFor({ timeout: kWait });
  const votersFr = visible(await statusFr.locator('#voters').innerText());
  check(votersFr.includes('Dan (à distance)') && !votersFr.includes('from afar'), `the status page in French: ${votersFr.replace(/\s+/g, ' ')}`);
  await statusFr.context().close();

  // --- Dan's phone closed in the middle of the election, then opened again -------------------
  await dan.context().close();
  const t0 = Date.now();
  await statusPage.locator('#waiting.phone-away').waitFor({ timeout: 20000 });
  const headline = visible(await statusPage.locator('#waiting').innerText());
  check(headline.includes('Waiting for Dan’s phone'), `the status page waits for Dan's phone (${Date.now() - t0} ms after it closed): ${headline}`);
  const box = await statusPage.locator('#waiting').boundingBox();
  const size = await statusPage.locator('#waiting').evaluate((e) => parseFloat(getComputedStyle(e).fontSize));
  check(box && box.y >= 0 && box.y + box.height <= 1080 && size >= 24, `it is on a TV's first screen, large (${Math.round(box.y)} px down, ${size} px)`);
  await shot(statusPage, 'status-phone-away', { fullPage: false });
  await hostPage.locator(`.seat-row[data-seat="${kRemote}"] .seat-phone.phone-away`).waitFor({ timeout: kWait });
  check((await remoteRow.locator('.seat-phone').innerText()).includes('Phone away'), 'the host page says Dan\'s phone is away');
  await noSecrets('Dan\'s phone closed', statusPage, [[phones[0], 0], [cleo, kPhoneSeat]]);
  // His page opened where the live events do not pass (a proxy that holds
  // them back): it still asks by itself (its heartbeat), so his phone is
  // seen for longer than `phone_away_after` (5 s), with nothing happening.
  const quiet = await newPage(browser, kPhone, errors);
  await quiet.context().route('**/api/events', (route) => route.abort());
  await quiet.goto(`${url}/player.html#${tokens[kRemote]}`);
  await moment(quiet, 'vote');
  await statusPage.locator('#waiting:not(.phone-away)').waitFor({ timeout: kWait });
  const quietReads = Number(await quiet.evaluate(() => document.body.dataset.reads || 0));
  let awayAt = null;
  for (const t0 = Date.now(); Date.now() - t0 < 8000 && awayAt === null;) {
    const heard = await status();
    if (heard.seats[kRemote].phone_away || heard.waiting_phone) awayAt = Date.now() - t0;
    await quiet.waitForTimeout(400);
  }
  const reads = Number(await quiet.evaluate(() => document.body.dataset.reads || 0)) - quietReads;
  check(awayAt === null && reads >= 2, `without live events Dan's page keeps asking (${reads} reads in 8 s): his phone is never away (${awayAt} ms)`);
  await quiet.context().close();
  await statusPage.locator('#waiting.phone-away').waitFor({ timeout: kWait });
  // Opened again with the same link, in French: the same vote.
  const danFr = await newPage(browser, { ...kPhone, locale: 'fr-FR' }, errors);
  await danFr.goto(`${url}/player.html#${tokens[kRemote]}`);
  await moment(danFr, 'vote');
  await danFr.locator('#moment-vote button.vote-choice').first().waitFor({ timeout: kWait });
  await statusPage.locator('#waiting:not(.phone-away)').waitFor({ timeout: kWait });
  check(!(await status()).waiting_phone, 'the status no longer waits for Dan\'s phone');
  const frenchText = visible(await danFr.locator('body').innerText());
  const cardsFr = await danFr.locator('#moment-vote button.vote-choice').allInnerTexts();
  check(frenchText.includes('Votez sur ce téléphone') && frenchText.includes('Le château') && cardsFr.includes('✔ Oui')
    && !/Vote on this phone|The castle|Tap your vote|Last:/.test(frenchText), `Dan's page in French: ${frenchText.slice(0, 300).replace(/\s+/g, ' ')}`);
  await danFr.evaluate(() => { window.sameDocument = true; });
  await noSecrets('Dan\'s page opened again', statusPage, [[phones[0], 0], [danFr, kRemote], [cleo, kPhoneSeat]]);
  await shot(danFr, 'dan-french-vote', { fullPage: false });

  // --- the daemon killed and started again, Dan's page open ---------------------------------
  await server.halt('SIGKILL');
  // While the castle is away the page keeps what it showed and says it reconnects (its heartbeat fails).
  await danFr.waitForFunction(() => document.body.dataset.reconnecting === 'yes', null, { timeout: kWait });
  const away = visible(await danFr.locator('#banner').innerText());
  check(away.includes('reconnexion') && await danFr.locator('#error').isHidden() && await danFr.locator('#moment-vote button.vote-choice').count() >= 2,
    `with the castle away, Dan's page says it reconnects and keeps his vote's buttons: ${away}`);
  await shot(danFr, 'dan-reconnecting', { fullPage: false });
  await server.restart();
  await danFr.waitForFunction(() => !document.getElementById('banner').textContent && document.body.dataset.reconnecting !== 'yes', null, { timeout: 20000 });
  const readsBefore = Number(await danFr.evaluate(() => document.body.dataset.reads || 0));
  await danFr.waitForFunction((n) => Number(document.body.dataset.reads || 0) > n, readsBefore, { timeout: kWait });
  check(await danFr.evaluate(() => window.sameDocument === true), 'Dan\'s page reconnected by itself, without a reload');
  await moment(danFr, 'vote');
  check(await danFr.locator('#moment-vote button.vote-choice').count() >= 2 && await danFr.locator('#error').isHidden(), 'Dan\'s page shows the same vote after the restart');
  check((await status()).election.voted.length === 2, 'the two votes given before the restart are still in');
  await noSecrets('the daemon restarted', statusPage, [[phones[0], 0], [danFr, kRemote], [cleo, kPhoneSeat]]);
  // The simulated board starts empty: the table puts the castle back first (the referee guides it).
  await followGuidance();
  await danFr.locator('#moment-vote button.vote-choice[data-card="yes"]').tap();
  await danFr.locator('#moment-vote button.vote-confirm').tap();
  await danFr.waitForFunction(() => document.querySelector('#moment').dataset.moment === 'voted' || document.querySelector('#moment-vote .vote-answer.error'), null, { timeout: kWait });
  check(await danFr.locator('#moment-vote .vote-answer.error').count() === 0, `Dan's vote is not refused: ${await danFr.locator('#moment-vote').innerText()}`);
  await moment(danFr, 'voted');
  check(visible(await danFr.locator('#moment').innerText()).includes('Votre vote est pris.'), `Dan's vote is in (in French): ${visible(await danFr.locator('#moment').innerText()).replace(/\s+/g, ' ')}`);
  await noSecrets('Dan\'s vote', statusPage, [[phones[0], 0], [danFr, kRemote], [cleo, kPhoneSeat]]);
  // Bo's key, the last vote: the game ends.
  await sim('press', { station: 1, key: 'yes' });
  const over = await waitStatus((s) => s.state === 'finished', 'the end of the game', 20000);
  check(over.view.finished_rounds.length === 1, 'the round is scored: the game ends with its record');

  for (const phone of [...phones.slice(0, 3), danFr]) check((await pageWidth(phone)) <= 392, 'each phone page fits a phone');
  check(errors.length === 0, `no script error in the pages: ${errors.join('; ')}`);
} catch (e) {
  fail(e);
  console.log(`--- serve's output ---\n${server.log().slice(-3000)}`);
} finally {
  listening = false;
  await close();
  await server.stop();
}
finish();
