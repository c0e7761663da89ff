// The end of a game as the table sees it (issue 13, item 4), on the real
// `vivaref serve --hardware=sim`: a short classic game played through the
// simulated castle's API to its coronation, then the status page's winner
// moment (the winner's name, every final place and score, matching
// /api/status, within the screen at 1280x800, 390x844 and 1920x1080), the
// per-round breakdown (a block per player) whose favourite lines add up to
// the round's scores and which fits each screen's width without sideways
// scrolling (issue 34: a table 2,430 px wide before), a player's
// phone with their place and score, and the review page's same breakdown.
// Then a 2024 game with Ambition kept from the phones' route: the kept cards
// appear in no public answer before the coronation, and in the breakdown
// with their points after it.
import { api, serveMissing, startServe } from './daemon.mjs';
import { browserOrSkip, checker, kWait, newPage, shooter, skip } from './harness.mjs';

const [vivaref, artifacts = 'artifacts'] = process.argv.slice(2);
if (serveMissing(vivaref)) skip(serveMissing(vivaref));
const launchBrowser = await browserOrSkip();
const { check, fail, finish } = checker('web-ending');
const shot = shooter(artifacts, 'ending-');
const errors = [];
const kLaptop = { viewport: { width: 1280, height: 800 } };
const kPhone = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };
const kTv = { viewport: { width: 1920, height: 1080 } };

async function play(server, edition) {
  const { url } = server;
  const token = server.hostToken;
  const status = async () => (await api(url, '/api/status')).json;
  const until = async (pred, what, timeout = 20000) => {
    const end = Date.now() + timeout;
    for (;;) {
      const s = await status();
      if (pred(s)) return s;
      if (Date.now() > end) throw new Error(`timed out: ${what}: ${JSON.stringify(s).slice(0, 500)}`);
      await new Promise((r) => setTimeout(r, 30));
    }
  };
  const put = async (character, place) => {
    const r = await api(url, '/api/sim/put', { method: 'POST', token, body: { character, place } });
    if (r.status !== 200) throw new Error(`put ${character} ${place}: ${r.text}`);
    await until((s) => s.board && s.board.expected[character] === place && !s.refusal, `${character} on ${place}`);
  };
  const press = (station, key) => api(url, '/api/sim/press', { method: 'POST', token, body: { station, key } });
  const guided = async () => {
    const s = await until((x) => x.guidance || (x.view && x.view.phase === 'ascent'), 'the end of placement');
    for (const m of (s.guidance && s.guidance.moves) || []) {
      if (m.to === null) await api(url, '/api/sim/lift', { method: 'POST', token, body: { character: m.character } });
      else await api(url, '/api/sim/put', { method: 'POST', token, body: { character: m.character, place: m.to } });
    }
    await until((x) => !x.guidance && x.view.phase === 'ascent', 'the board set for the ascent');
  };
  return { status, until, put, press, guided, token };
}

const { browser, close } = await launchBrowser();
let server = null;
try {
  // --- a classic game of one round, 3 seats --------------------------------------
  server = await startServe(vivaref, { edition: 'classic' });
  const { url } = server;
  const g = await play(server, 'classic');
  const names = ['Ann', 'Bob', 'Cleo'];
  const started = await api(url, '/api/host/new-game', { method: 'POST', token: g.token,
    body: { setup: { edition: 'classic', seats: 3, first: 0, rounds: 1 }, players: names } });
  if (started.status !== 200) throw new Error(`new-game: ${started.text}`);
  const links = (await api(url, '/api/host/players', { token: g.token })).json.players;
  await g.until((s) => s.view && s.view.phase === 'placement', 'placement');
  const notScored = await g.status();
  check(Array.isArray(notScored.score_breakdown) && notScored.score_breakdown.length === 0 && notScored.standing.length === 0,
    'before any coronation the status has no breakdown and no standing');
  for (const [c, p] of [['alighiero', '4'], ['beatrice', '4'], ['clemente', '4'], ['dario', '4'], ['ernesto', '3'], ['fiorello', '3'],
    ['gavino', '3'], ['irina', '3'], ['leonardo', '2'], ['merlino', '2'], ['natale', '2'], ['odessa', '1']]) await g.put(c, p);
  await g.guided();
  await g.put('alighiero', '5');
  await g.put('alighiero', '6');
  await g.until((s) => s.election, 'the election');
  for (const seat of [0, 1, 2]) await g.press(seat, 'yes');
  const over = await g.until((s) => s.state === 'finished' && s.standing.length === 3, 'the end of the game');

  // The standing agrees with the engine's totals and winners.
  const totals = over.view.totals;
  const winners = over.view.winners;
  check(over.standing.every((s) => s.score === totals[s.player] && s.name === names[s.player]), `standing scores are the totals ${totals}`);
  check(JSON.stringify(over.standing.filter((s) => s.winner).map((s) => s.player).sort()) === JSON.stringify([...winners].sort()),
    `standing winners are the engine's ${winners}`);
  check(over.standing.every((s, i) => i === 0 || over.standing[i - 1].score >= s.score), 'standing best first');
  // The breakdown adds up to the round's scores, line by line.
  const round = over.score_breakdown[0];
  check(over.score_breakdown.length === 1 && round.coronations.length === 1 && round.coronations[0].king === 'alighiero',
    'one round, one coronation: Alighiero');
  for (const sheet of round.coronations[0].players) {
    const sum = sheet.lines.reduce((a, l) => a + l.points, 0);
    check(sum === sheet.total && sheet.total === over.view.finished_rounds[0].scores[sheet.player],
      `${sheet.name}'s lines add up to ${sum}, the round's ${over.view.finished_rounds[0].scores[sheet.player]}`);
    check(sheet.lines.filter((l) => l.kind === 'favourite').length === 6, `${sheet.name}'s sheet lists 6 favourites`);
  }
  const winner = over.standing[0];

  for (const [label, size] of [['laptop', kLaptop], ['phone', kPhone], ['tv', kTv]]) {
    const page = await newPage(browser, size, errors);
    await page.goto(`${url}/`);
    const moment = page.locator('#winner-moment:not(.hidden)');
    await moment.waitFor({ timeout: kWait });
    const text = await moment.innerText();
    check(text.includes(`${winner.name} wins with ${winner.score}`) || text.includes('share the win'), `${label}: the winner moment names ${winner.name}: ${text.split('\n')[1]}`);
    check(/Long live the King! Alighiero\b.* is crowned\./.test(text.split('\n')[0]), `${label}: the winner moment says who the last coronation crowned: ${text.split('\n')[0]}`);
    for (const s of over.standing) {
      const row = page.locator(`#winner-moment li[data-player="${s.player}"]`);
      const rowText = await row.innerText();
      check(rowText.includes(s.name) && (await row.locator('.score').innerText()).trim() === String(s.score), `${label}: ${s.name} ${s.score} in the winner moment`);
    }
    const gameLine = await page.locator('#game-line').innerText();
    check(gameLine.includes('Game over') && !/FINISHED|finished/.test(gameLine), `${label}: the game line says the game is over in words: "${gameLine}"`);
    const box = await moment.boundingBox();
    const vp = page.viewportSize();
    check(box && box.y >= 0 && box.x >= 0 && box.y + box.height <= vp.height && box.x + box.width <= vp.width,
      `${label}: the winner moment is within the ${vp.width}x${vp.height} screen: ${JSON.stringify(box)}`);
    await shot(page, `status-${label}-winner`, { fullPage: false });
    // The per-round breakdown: a block per player, whose lines add up to its total, the round's score.
    const rows = await page.locator('#breakdown .bd-sheet[data-player]').evaluateAll((blocks) => blocks.map((b) => ({
      player: Number(b.dataset.player),
      points: [...b.querySelectorAll('li[data-points]')].map((li) => Number(li.dataset.points)),
      total: Number(b.querySelector('[data-total]').dataset.total),
      text: b.innerText,
    })));
    check(rows.length === 3, `${label}: the breakdown has a block per player`);
    for (const r of rows) {
      check(r.points.reduce((a, b) => a + b, 0) === r.total && r.total === over.view.finished_rounds[0].scores[r.player],
        `${label}: ${names[r.player]}'s breakdown adds up to ${r.total}`);
      check(/floor \d|the throne/.test(r.text) && r.text.includes(names[r.player]) && r.text.includes(`Total ${r.total}`),
        `${label}: the block says where favourites stood, and its total: ${r.text.replace(/\s+/g, ' ').slice(0, 100)}`);
    }
    await page.locator('#winner-moment button').click();
    await page.locator('#breakdown').scrollIntoViewIfNeeded();
    // It fits: nothing wider than the screen, nothing scrolled sideways (issue 34: a 2,430 px table before).
    const widths = await page.evaluate(() => {
      const box = (el) => el.getBoundingClientRect();
      const breakdown = document.getElementById('breakdown');
      const column = breakdown.closest('.status-more') || document.scrollingElement;
      return { vw: innerWidth, page: document.documentElement.scrollWidth, scroll: breakdown.scrollWidth, client: breakdown.clientWidth,
        column: column.scrollWidth, columnClient: column.clientWidth,
        right: Math.max(...[...breakdown.querySelectorAll('.bd-sheet, li')].map((el) => box(el).right)) };
    });
    check(widths.page <= widths.vw && widths.scroll <= widths.client && widths.column <= widths.columnClient && widths.right <= widths.vw,
      `${label}: the breakdown fits without sideways scrolling (${JSON.stringify(widths)})`);
    await shot(page, `status-${label}-breakdown`, { fullPage: false });
    await page.context().close();
  }

  // A player's phone: place, score and the winner; their own rows only.
  const loser = over.standing[over.standing.length - 1];
  const phone = await newPage(browser, kPhone, errors);
  await phone.goto(`${url}${links.find((p) => p.player === loser.player).path}`);
  const mine = phone.locator('#my-place');
  await mine.waitFor({ timeout: kWait });
  const said = await mine.innerText();
  const ordinal = ['1st', '2nd', '3rd'][loser.place - 1];
  check(said.includes(`${ordinal} of 3 with ${loser.score} points`) && (loser.winner || said.includes(`${winner.name} (${winner.result})`)),
    `the phone says: ${said}`);
  const myRows = await phone.locator('#my-breakdown .bd-sheet[data-player]').evaluateAll((blocks) => blocks.map((b) => Number(b.dataset.player)));
  check(myRows.length === 1 && myRows[0] === loser.player, `the phone shows its own breakdown only: ${myRows}`);
  await shot(phone, 'player-phone-end', { fullPage: false });
  await phone.context().close();

  // The review page: the same breakdown for the finished game.
  const review = await newPage(browser, kLaptop, errors);
  await review.goto(`${url}/games.html`);
  await review.locator(`#games tr[data-game="${over.game}"] a`).click();
  const reviewRows = review.locator('#review-breakdown .bd-sheet[data-player]');
  await reviewRows.first().waitFor({ timeout: kWait });
  const totalsShown = await reviewRows.evaluateAll((blocks) => blocks.map((b) => [Number(b.dataset.player), Number(b.querySelector('[data-total]').dataset.total)]));
  check(totalsShown.length === 3 && totalsShown.every(([p, t]) => t === over.view.finished_rounds[0].scores[p]), `the review shows the breakdown: ${JSON.stringify(totalsShown)}`);
  check((await review.locator('#review-breakdown').innerText()).includes(names[0]), 'the review names the players');
  await shot(review, 'review-breakdown');
  await review.context().close();
  await server.stop();
  server = null;

  // --- 2024 with Ambition -----------------------------------------------------------
  server = await startServe(vivaref, { edition: '2024' });
  const h = await play(server, '2024');
  const started24 = await api(server.url, '/api/host/new-game', { method: 'POST', token: h.token,
    body: { setup: { edition: '2024', seats: 4, first: 0, rounds: 1, options: { ambition: true } }, players: ['Dina', 'Eli', 'Fay', 'Gus'] } });
  if (started24.status !== 200) throw new Error(`new-game 2024: ${started24.text}`);
  const players24 = (await api(server.url, '/api/host/players', { token: h.token })).json.players;
  await h.until((s) => s.view && s.view.phase === 'ambition', 'the Ambition phase');
  const kept = [];
  for (const p of players24) {
    const tokenOf = p.path.split('#').pop().split('token=').pop();
    const own = (await api(server.url, `/api/player/${tokenOf}`)).json;
    const card = own.private.ambition_choices[0];
    const r = await api(server.url, `/api/player/${tokenOf}/keep`, { method: 'POST', body: { ambition: card } });
    check(r.status === 200, `${p.name} keeps ${card} from the phone's route`);
    kept.push(card);
  }
  await h.until((s) => s.view.phase === 'placement', 'placement after the Ambition cards');
  const publicAnswers = async () => {
    const games = (await api(server.url, '/api/games')).json;
    const texts = [(await api(server.url, '/api/status')).text, JSON.stringify(games)];
    for (const gm of games) texts.push((await api(server.url, `/api/games/${gm.id}`)).text);
    return texts.join('\n');
  };
  const secret = async (when) => {
    const text = await publicAnswers();
    const leaked = kept.filter((c) => text.includes(`"${c}"`));
    check(!leaked.length && !text.includes('"kind":"ambition"'), `${when}: no kept Ambition card in a public answer (${leaked})`);
  };
  await secret('after keeping');
  // The Jester stands on floor 3 before anything else: as guided.
  await h.until((s) => s.guidance, 'the guidance to set up the Jester');
  await h.put('jester', '3');
  for (const [c, p] of [['eloise', '4'], ['ouaf', '4'], ['caius', '4'], ['romeo', '4'], ['foidvo', '3'], ['merlin', '3'],
    ['leonardo', '2'], ['jeanne', '2'], ['victoria', '2'], ['bridget', '2'], ['agathe', '1'], ['gontran', '1']]) await h.put(c, p);
  await h.guided();
  await secret('during the ascent');
  await h.put('eloise', '5');
  await h.put('eloise', '6');
  await h.until((s) => s.election, 'the 2024 election');
  for (const seat of [0, 1, 2]) await h.press(seat, 'yes');
  await secret('during the vote');
  await h.press(3, 'yes');
  const over24 = await h.until((s) => s.state === 'finished' && s.standing.length === 4, 'the end of the 2024 game');
  const sheets = over24.score_breakdown[0].coronations[0].players;
  for (const sheet of sheets) {
    const line = sheet.lines.find((l) => l.kind === 'ambition');
    check(line && line.ambition_card === kept[sheet.player] && line.points === (line.met ? line.points : 0) && sheet.lines.reduce((a, l) => a + l.points, 0) === sheet.total,
      `${sheet.name}'s kept card ${kept[sheet.player]} is in the breakdown: ${line && `${line.name} ${line.met ? 'met' : 'not met'} ${line.points}`}`);
  }
  const page24 = await newPage(browser, kLaptop, errors);
  await page24.goto(`${server.url}/`);
  await page24.locator('#breakdown li.bd-ambition').first().waitFor({ timeout: kWait });
  const ambitionCells = (await page24.locator('#breakdown li.bd-ambition').allInnerTexts()).map((t) => t.replace(/\s+/g, ' '));
  check(ambitionCells.length === 4 && ambitionCells.every((t) => /Ambition: .* (met|not met) [+-]?\d+/.test(t)), `the status page shows each kept Ambition card: ${ambitionCells.join(' | ')}`);
  await page24.locator('#winner-moment button').click();
  await page24.locator('#breakdown').scrollIntoViewIfNeeded();
  await shot(page24, 'status-2024-ambition', { fullPage: false });
  await page24.context().close();
} catch (e) {
  fail(e);
} finally {
  if (server) await server.stop();
  await close();
}
check(errors.length === 0, `no script errors: ${errors.join('; ')}`);
finish();
