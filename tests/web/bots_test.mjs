// A game with a bot seat, end to end on the real `vivaref serve
// --hardware=sim` (issue 15, item 2): the host makes seat 3 a bot on the
// host page; the status page (phone, laptop, TV) names it "(bot)" and shows
// its placement or move in words while the castle's LEDs light its
// destination (and blink the place its piece leaves); a hand at the table
// makes the bot's moves; another move of the bot's seat is refused with the
// bot's move in the words and put back; the bot votes at once and its vote
// shows nowhere before the reveal; the people's seats play at a brisk pace
// (trying a place, taking it back when the referee refuses it). The game is
// played to its end, and the log says which seat was a bot.
// Issue 32: the bot's seat has no keys on sim.html, and the castle answers a
// press of its keys with one refusal, the same before and after the bot
// voted; a person's key pressed on sim.html shows nowhere with its key
// (sim.html, the status page, the host page, another player's page)
// before the reveal.
// Issue 34: the status page's castle lights the bot's destination too, and
// the bot is marked "(bot)" in the winner moment and the scores.
import { api, serveMissing, startServe } from './daemon.mjs';
import { browserOrSkip, checker, kPhone, kWait, newPage, shooter, skip } from './harness.mjs';

const [vivaref, artifacts = 'artifacts'] = process.argv.slice(2);
if (serveMissing(vivaref)) skip(serveMissing(vivaref));
const launchBrowser = await browserOrSkip();
const { check, fail, finish } = checker('web-bots');
const shot = shooter(artifacts, 'bots-');
const errors = [];
const kLaptop = { viewport: { width: 1280, height: 800 } };
const kTv = { viewport: { width: 1920, height: 1080 } };
const kBotSeat = 2;
const names = ['Ann', 'Bob', 'Clara', 'Dan'];
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const { browser, close } = await launchBrowser();
let server = null;
try {
  server = await startServe(vivaref, { edition: 'classic' });
  const { url } = server;
  const token = server.hostToken;
  const status = async () => (await api(url, '/api/status')).json;
  const until = async (pred, what, timeout = kWait) => {
    const end = Date.now() + timeout;
    for (;;) {
      const s = await status();
      if (pred(s)) return s;
      if (Date.now() > end) throw new Error(`timed out: ${what}: ${JSON.stringify(s).slice(0, 700)}`);
      await sleep(40);
    }
  };
  const sim = async (what, body) => {
    const r = await api(url, `/api/sim/${what}`, { method: 'POST', token, body });
    if (r.status !== 200) throw new Error(`/api/sim/${what} ${JSON.stringify(body)}: ${r.status} ${r.text}`);
  };
  const leds = async () => (await api(url, '/api/sim/leds')).json;
  // A hand puts a piece down and the table waits to see the referee's answer:
  // taken (the game moved on), or refused (then the piece goes back).
  const tryPut = async (character, place, back) => {
    const before = await status();
    const decisions = JSON.stringify(before.view);
    await sim('put', { character, place });
    const s = await until((x) => x.refusal || JSON.stringify(x.view) !== decisions, `${character} to ${place} judged`);
    if (!s.refusal) return true;
    if (back === null) await sim('lift', { character });
    else await sim('put', { character, place: back });
    await until((x) => !x.refusal, `${character} put back after a refusal`, 8000);
    return false;
  };

  // --- the host makes seat 3 a bot on the host page ----------------------------------
  const hostPage = await newPage(browser, kLaptop, errors);
  await hostPage.goto(`${url}/host.html`);
  await hostPage.fill('#token', token);
  await hostPage.locator('#unlock button[type=submit]').click();
  await hostPage.locator('#controls').waitFor({ state: 'visible', timeout: kWait });
  await hostPage.check('input[name=edition][value="classic"]');
  await hostPage.fill('#seats', '4');
  await hostPage.locator('#seats').dispatchEvent('input');
  for (let i = 0; i < 4; ++i) await hostPage.fill(`input.player-name[data-player="${i}"]`, names[i]);
  check((await hostPage.locator('select.seat-bot').count()) === 4, 'the host page offers a bot for each of the 4 seats');
  await hostPage.selectOption(`select.seat-bot[data-seat="${kBotSeat}"]`, 'good');
  await hostPage.selectOption('#first', '0');
  await hostPage.fill('#rounds', '2');
  await shot(hostPage, 'host-form');
  await hostPage.locator('#new-game button[type=submit]').click();
  await hostPage.locator('#links figure').nth(3).waitFor({ timeout: kWait });
  await hostPage.context().close();

  let s = await until((x) => x.view && x.view.phase === 'placement', 'placement');
  check(s.players.every((p) => (p.seat === kBotSeat) === (p.bot === 'good')), `the status marks seat 3 as a good bot: ${JSON.stringify(s.players.map((p) => p.bot))}`);

  const pages = [];
  for (const [label, size] of [['phone', kPhone], ['laptop', kLaptop], ['tv', kTv]]) {
    const page = await newPage(browser, size, errors);
    await page.goto(`${url}/`);
    pages.push([label, page]);
  }
  // The simulated castle, from the host's sim link, and the host's page.
  const simPage = await newPage(browser, kLaptop, errors);
  await simPage.goto(server.simLink);
  const botStation = simPage.locator(`#stations .station[data-station="${kBotSeat}"]`);
  await botStation.filter({ hasText: 'Clara' }).waitFor({ timeout: kWait });
  check(await botStation.locator('button').count() === 0 && (await botStation.innerText()).includes('played by the referee'),
    `sim.html shows no keys for the bot's seat: "${(await botStation.innerText()).replace(/\s+/g, ' ')}"`);
  const hostView = await newPage(browser, kLaptop, errors);
  await hostView.goto(server.hostLink);
  await hostView.locator('#controls').waitFor({ state: 'visible', timeout: kWait });
  const links = (await api(url, '/api/host/players', { token })).json.players;
  const botKeyAnswers = new Set();
  const pressBotKey = async (key) => {
    const r = await api(url, '/api/sim/press', { method: 'POST', token, body: { station: kBotSeat, key } });
    botKeyAnswers.add(`${r.status} ${r.text}`);
  };
  let keyShownChecked = false;

  // --- the game, to its end -------------------------------------------------------------
  let botPlans = 0;
  let triedOffPlan = false;
  let shownOnPages = false;
  let botVotedFirst = 0;
  let elections = 0;
  const voteDelays = [];
  for (let step = 0; s.state === 'playing'; ++step) {
    if (step > 600) throw new Error(`no end after 600 steps: ${JSON.stringify(s).slice(0, 500)}`);
    s = await status();
    if (s.state !== 'playing') break;
    if (s.guidance) {
      for (const m of s.guidance.moves) {
        if (m.to === null) await sim('lift', { character: m.character });
        else await sim('put', { character: m.character, place: m.to });
      }
      await until((x) => !x.guidance || x.state !== 'playing', 'the guidance followed');
      continue;
    }
    const view = s.view;
    if (s.bot_plan) {
      const plan = s.bot_plan;
      ++botPlans;
      check(plan.seat === kBotSeat && plan.text.startsWith('\u2068Clara\u2069 (bot) '), `the bot's move in words: ${plan.text}`);
      const lit = await leds();
      check(lit[`place-${plan.to}`] === 'on' && (plan.from === null || lit[`place-${plan.from}`] === 'blink'),
        `the LEDs: ${plan.to} lit${plan.from ? `, ${plan.from} blinking` : ''} (${JSON.stringify(lit)})`);
      if (!shownOnPages) {
        for (const [label, page] of pages) {
          const chip = page.locator('#bot-plan');
          await chip.waitFor({ timeout: kWait });
          const text = await chip.innerText();
          const waiting = await page.locator('#waiting').innerText();
          check(waiting.includes(plan.text) && text.includes('Clara (bot)'), `${label}: the status page says "${waiting}" and "${text}"`);
          // "its destination is lit on the castle": the status page's castle lights it too (the status's `leds`).
          const lamp = page.locator(`#castle g.led[data-led="${plan.to}"][data-mode="on"]`);
          check(await lamp.waitFor({ timeout: kWait }).then(() => true, () => false), `${label}: the castle drawing lights ${plan.to}, the bot's destination`);
          await shot(page, `status-${label}-bot-plan`, { fullPage: false });
        }
        shownOnPages = true;
      }
      if (!triedOffPlan && view.phase === 'ascent') {
        // Another piece moved for the bot: refused, the bot's move in the words.
        const other = Object.entries(s.board.expected).find(([c, p]) => c !== plan.character && p !== null && p !== '6' && Number(p) < 5);
        if (other) {
          const [character, from] = other;
          await sim('put', { character, place: String(Number(from) + 1) });
          const refused = await until((x) => x.refusal, 'the refusal of a move that is not the bot\'s');
          check(refused.refusal.code === 'bot-move' && refused.refusal.message.includes(plan.text),
            `another move for the bot is refused: ${refused.refusal.message}`);
          const page = pages[1][1];
          await page.locator('#refusal').filter({ hasText: 'bot' }).waitFor({ timeout: kWait });
          await shot(page, 'status-laptop-bot-refusal', { fullPage: false });
          await sim('put', { character, place: from });
          await until((x) => !x.refusal && x.bot_plan, 'the piece back, the bot\'s move shown again');
          triedOffPlan = true;
        }
      }
      await sim('put', { character: plan.character, place: plan.to });
      await until((x) => !x.bot_plan || JSON.stringify(x.bot_plan) !== JSON.stringify(plan) || x.state !== 'playing', 'the bot\'s move taken');
      continue;
    }
    if (s.election) {
      const e = s.election;
      // Only what the public status may say: who voted, never what.
      const open = JSON.stringify({ ...s, view: { ...s.view, last_reveal: null } });
      check(!/"(yes|no|stomachache)"/.test(open), 'no vote card in the status while the election is open');
      const people = e.waiting.filter((w) => w !== kBotSeat);
      await pressBotKey(e.voted.includes(kBotSeat) ? 'yes' : 'no');
      if (!people.length) {
        await sleep(100);  // only the bot is left: it is thinking
        continue;
      }
      // The bot votes at once, by itself: waited for before any person's key.
      if (!e.voted.includes(kBotSeat)) {
        const t0 = Date.now();
        const now = await until((x) => !x.election || x.election.voted.includes(kBotSeat), 'the bot\'s own vote', 10000);
        if (now.election) {
          ++botVotedFirst;
          voteDelays.push(Date.now() - t0);
        }
      } else {
        ++botVotedFirst;
      }
      await pressBotKey('no');
      await pressBotKey('stomachache');
      await sleep(300);
      if (!keyShownChecked) {
        // A person presses a key on sim.html: no page says which key, before the reveal.
        keyShownChecked = true;
        const hands = {};
        for (const p of links.filter((q) => q.token && people.includes(q.seat)))
          hands[p.seat] = (await api(url, `/api/player/${p.token}`)).json.private.hand || {};
        const presser = people.find((seat) => (hands[seat] || {}).no > 0) ?? people[0];
        const key = (hands[presser] || {}).no > 0 ? 'no' : 'yes';
        const viewer = links.find((p) => p.token && p.seat !== presser);
        const viewerPage = await newPage(browser, kPhone, errors);
        await viewerPage.goto(`${url}/player.html#${viewer.token}`);
        await viewerPage.locator('#private:not(.hidden)').waitFor({ timeout: kWait });
        const watched = [['sim.html', simPage], ['the status page', pages[1][1]], ['the host page', hostView], [`${viewer.name}'s page`, viewerPage]];
        const linesOf = async (page) => (await page.locator('body').innerText()).split('\n').map((l) => l.trim()).filter(Boolean);
        const before = [];
        for (const [, page] of watched) before.push(new Set(await linesOf(page)));
        await simPage.locator(`#stations button[data-station="${presser}"][data-key="${key}"]`).click();
        await until((x) => !x.election || x.election.voted.includes(presser), `${names[presser]}'s key taken`);
        await sleep(500);  // every page has had the news
        const named = key === 'no' ? /\bno\b/i : /\byes\b/i;
        const other = key === 'no' ? /\byes\b/i : /\bno\b/i;  // "votes Yes or No" names no one's key
        const told = [];
        for (let i = 0; i < watched.length; ++i) {
          const [label, page] = watched[i];
          const fresh = (await linesOf(page)).filter((l) => !before[i].has(l));
          if (fresh.some((l) => named.test(l) && !other.test(l))) told.push(`${label}: ${JSON.stringify(fresh)}`);
        }
        check(!told.length, `no page (${watched.map(([label]) => label).join(', ')}) shows ${names[presser]}'s key (${key}) before the reveal${told.length ? `; new lines on ${told.join('; ')}` : ''}`);
        await shot(simPage, 'sim-after-a-key');
        await viewerPage.context().close();
      }
      // No while the seat holds one, else Yes, else Stomachache: a key refused on a
      // station is private, and the seat stays waiting.
      for (const key of ['no', 'yes', 'stomachache']) {
        const still = await status();
        if (!still.election) break;
        for (const seat of still.election.waiting)
          if (seat !== kBotSeat) await api(url, '/api/sim/press', { method: 'POST', token, body: { station: seat, key } });
        await sleep(200);
      }
      ++elections;
      continue;
    }
    if (view.phase === 'placement' || view.phase === 'ascent') {
      const seat = view.to_act[0];
      if (seat === kBotSeat) {
        await until((x) => x.bot_plan || x.view.to_act[0] !== kBotSeat || x.state !== 'playing', 'the bot to think');
        continue;
      }
      await sleep(300);
      const counts = {};
      for (const p of Object.values(s.board.expected)) if (p !== null) counts[p] = (counts[p] || 0) + 1;
      let done = false;
      if (view.phase === 'placement') {
        const waitingPieces = Object.entries(s.board.expected).filter(([, p]) => p === null).map(([c]) => c);
        for (const c of waitingPieces.slice(0, 3)) {
          for (const floor of ['4', '3', '2', '1']) {
            if ((counts[floor] || 0) >= 4) continue;
            if (await tryPut(c, floor, null)) { done = true; break; }
          }
          if (done) break;
        }
      } else {
        const onBoard = Object.entries(s.board.expected).filter(([, p]) => p !== null && /^[0-5]$/.test(p))
          .sort((a, b) => Number(b[1]) - Number(a[1]));
        for (const [c, p] of onBoard) {
          if (await tryPut(c, String(Number(p) + 1), p)) { done = true; break; }
        }
      }
      if (!done) await sleep(500);  // nothing found: the referee passes for the seat
      continue;
    }
    await sleep(100);  // chance: the referee deals
  }
  s = await until((x) => x.state === 'finished', 'the end of the game', 30000);
  check(botPlans >= 5, `the bot showed ${botPlans} placements and moves, each made by a hand at the table`);
  check(triedOffPlan, 'a move that was not the bot\'s was refused and put back');
  check(elections >= 1 && botVotedFirst === elections, `the bot voted by itself, before any key, in ${botVotedFirst} of ${elections} elections`);
  const [botKeyAnswer] = [...botKeyAnswers];
  check(botKeyAnswers.size === 1 && botKeyAnswer.startsWith('409 ') && botKeyAnswer.includes('"bot-seat"'),
    `a key of the bot's seat gets one refusal, before and after it voted, whatever the key: ${JSON.stringify([...botKeyAnswers])}`);
  check(keyShownChecked, 'a key pressed on sim.html was watched on four pages');
  check(s.standing.length === 4 && s.standing.some((p) => p.name === 'Clara'), `the game ended with a standing: ${JSON.stringify(s.standing.map((p) => [p.name, p.score]))}`);
  // The log says which seat was a bot.
  const archived = (await api(url, `/api/games/${s.game}`)).json;
  const botsEvent = (archived.events || []).find((e) => e.kind === 'bots');
  check(botsEvent && JSON.stringify(botsEvent.payload.seats.map((b) => [b.seat, b.strength, b.player])) === JSON.stringify([[kBotSeat, 'good', 'search']]),
    `the log says seat 3 was a good bot: ${JSON.stringify(botsEvent && botsEvent.payload)}`);
  const botVotes = (archived.events || []).filter((e) => e.kind === 'vote' && e.seat === kBotSeat).length;
  check(botVotes >= 1, `the bot's ${botVotes} votes are in the log`);
  // Bots marked on the shared screens: the winner moment and the scores.
  for (const [label, page] of pages) {
    const clara = page.locator('#winner-moment li', { hasText: 'Clara' });
    await clara.waitFor({ timeout: kWait });
    const inMoment = await clara.innerText();
    const inScores = await page.locator('#scores tr', { hasText: 'Clara' }).innerText();
    check(inMoment.includes('Clara (bot)') && inScores.includes('Clara (bot)'), `${label}: the bot is marked in the winner moment ("${inMoment.replace(/\s+/g, ' ')}") and the scores ("${inScores.replace(/\s+/g, ' ')}")`);
    const people = await page.locator('#winner-moment li').allInnerTexts();
    check(people.filter((t) => t.includes('(bot)')).length === 1, `${label}: only the bot's seat is marked: ${people.join(' | ')}`);
  }
  for (const [, page] of [...pages, ['sim', simPage], ['host', hostView]]) await page.context().close();
  check(!errors.length, `no script errors: ${errors.join('; ')}`);
  console.log(`figures: ${botPlans} bot moves carried out; the bot voted by itself, before any key, in ${botVotedFirst} of ${elections} elections; seen waiting for it: ${voteDelays.join(', ') || 'never'} ms`);
} catch (e) {
  fail(e);
} finally {
  if (server) await server.stop();
  await close();
  finish();
}
