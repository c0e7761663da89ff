// A table that teaches (issue 34, item 6), end to end on the real `vivaref
// serve --hardware=sim`: the configuration's `[daemon] teaching = true`
// ticks the host page's box and the new game teaches; during placement the
// floors a piece may go glow ("hint") on the simulated castle; in the
// ascent a piece lifted on sim.html lights the one place it may go (the
// page's lamp and /api/sim/leds), dark again once it is put down there;
// the first election is explained on the status page (TV) in two lines
// with a link to its rule, which opens rules.html at that rule; on a phone
// the same, within its width.
import { api, serveMissing, startServe } from './daemon.mjs';
import { gameDriver } from './game_driver.mjs';
import { browserOrSkip, checker, kPhone, kWait, newPage, shooter, skip } from './harness.mjs';

const [vivaref, artifacts = 'artifacts'] = process.argv.slice(2);
if (serveMissing(vivaref)) skip(serveMissing(vivaref));
const launchBrowser = await browserOrSkip();
const { check, fail, finish } = checker('web-teach');
const shot = shooter(artifacts, 'teach-');
const errors = [];
const kLaptop = { viewport: { width: 1280, height: 800 } };
const kTv = { viewport: { width: 1920, height: 1080 } };

const { browser, close } = await launchBrowser();
let server = null;
try {
  server = await startServe(vivaref, { edition: 'classic', extraConfig: 'teaching = true\n' });
  const { url } = server;
  const d = gameDriver(server);
  const hinted = (leds) => Object.keys(leds).filter((k) => leds[k] === 'hint').sort();
  const leds = async () => (await api(url, '/api/sim/leds')).json;
  const waitLeds = async (pred, what) => {
    const end = Date.now() + kWait;
    let last = null;
    while (Date.now() < end) {
      last = await leds();
      if (pred(last)) return last;
      await new Promise((r) => setTimeout(r, 40));
    }
    throw new Error(`timed out waiting for ${what}; LEDs: ${JSON.stringify(last)}`);
  };

  // --- the host page: the table's default ticks the box; the game starts ----------
  const hostPage = await newPage(browser, kLaptop, errors);
  await hostPage.goto(`${url}/host.html#${server.hostToken}`);
  await hostPage.locator('#controls').waitFor({ state: 'visible', timeout: kWait });
  await hostPage.waitForFunction(() => document.getElementById('teaching').checked, null, { timeout: kWait });
  check(true, 'the configuration\'s teaching ticks the host page\'s box');
  await hostPage.check('input[name=edition][value="classic"]');
  await hostPage.fill('#seats', '4');
  await hostPage.locator('#seats').dispatchEvent('input');
  await hostPage.selectOption('#first', '0');
  await hostPage.locator('#new-game button[type=submit]').click();
  let s = await d.waitStatus((x) => x.view && x.view.phase === 'placement', 'placement');
  await hostPage.context().close();
  check(s.teaching === true, `the game teaches (status.teaching ${s.teaching})`);

  // --- placement: the floors open to a piece glow --------------------------------
  let l = await waitLeds((x) => hinted(x).length === 4, 'the placement floors');
  check(hinted(l).join() === 'place-1,place-2,place-3,place-4', `placement lights floors 1-4: ${hinted(l)}`);
  const roster = s.roster.map((c) => c.id);
  const floors = ['1', '1', '1', '1', '2', '2', '2', '2', '3', '3', '4', '4'];
  for (let i = 0; i < 12; ++i) await d.play(roster[i], floors[i], `${roster[i]} placed`);
  s = await d.followGuidance();
  s = await d.waitStatus((x) => x.view.phase === 'ascent' && !x.guidance, 'the ascent');

  // --- the ascent, on sim.html: lift a piece, its place lights; put it, dark -------
  const sim = await newPage(browser, kLaptop, errors);
  await sim.goto(server.simLink); // the host's link: its pieces are the host's to move
  const piece = roster[8]; // on floor 3; floor 4 holds two
  await sim.locator(`#castle g.token[data-slug="${piece}"][data-place="3"]`).waitFor({ timeout: kWait });
  // A drag as a hand makes it; false when the piece was redrawn under the
  // pointer (a status arriving): the caller tries again.
  const drag = async (from, to) => {
    const a = await from.boundingBox();
    const b = await to.boundingBox();
    if (!a || !b) return false;
    await sim.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
    await sim.mouse.down();
    await sim.mouse.move(a.x + a.width / 2 + 20, a.y + a.height / 2 + 20, { steps: 4 });
    await sim.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 6 });
    await sim.mouse.up();
    return true;
  };
  const onBoard = async () => (await api(url, '/api/sim/state')).json.board;
  const dragUntil = async (from, to, done, what) => {
    for (let attempt = 0; attempt < 4; ++attempt) {
      if (await drag(sim.locator(from), sim.locator(to))) {
        const end = Date.now() + 1500;
        while (Date.now() < end) {
          if (done(await onBoard())) return;
          await new Promise((r) => setTimeout(r, 50));
        }
      }
      await sim.waitForTimeout(200);
    }
    throw new Error(`sim.html: ${what} did not happen`);
  };
  await sim.waitForTimeout(700); // the last placement's flash is over: the page settles
  await dragUntil(`#castle g.token[data-slug="${piece}"][data-place="3"]`, '#castle rect.band[data-place="tray"]',
    (board) => !(board['3'] || []).includes(piece), `${piece} lifted`);
  l = await waitLeds((x) => hinted(x).length > 0, 'the lifted piece\'s place lit');
  check(hinted(l).join() === 'place-4', `the lifted piece lights floor 4 only: ${hinted(l)}`);
  await sim.locator('#castle g.led[data-led="4"][data-mode="hint"]').waitFor({ timeout: kWait });
  check(true, 'sim.html draws floor 4\'s lamp as "may go here"');
  await shot(sim, 'lifted-laptop');
  await dragUntil(`#castle g.token[data-slug="${piece}"]`, '#castle rect.band[data-place="4"]',
    (board) => (board['4'] || []).includes(piece), `${piece} put on floor 4`);
  s = await d.waitStatus((x) => x.board && x.board.expected[piece] === '4' && !x.refusal, 'the move accepted');
  l = await waitLeds((x) => hinted(x).length === 0 && x['place-4'] !== 'hint', 'the lights dark once put down');
  check(hinted(l).length === 0, `nothing glows once the piece is down: ${JSON.stringify(l)}`);
  await sim.locator('#castle g.led[data-led="4"]:not([data-mode="hint"])').waitFor({ timeout: kWait });
  await sim.context().close();

  // --- the first election, explained on the TV; its rule on rules.html ------------
  const tv = await newPage(browser, kTv, errors);
  await tv.goto(`${url}/`);
  await d.play(roster[10], '5', 'up to floor 5');
  await d.sim('put', { character: roster[10], place: '6' });
  s = await d.waitStatus((x) => x.teach && x.teach.rule === 'election', 'the first election taught');
  check(s.teach.says.code === 'teach.lesson.election-classic', `the classic election's lesson: ${s.teach.says.code}`);
  const card = tv.locator('#teach:not(.hidden)');
  await card.waitFor({ timeout: kWait });
  const text = await card.innerText();
  check(text.includes('The election') && text.includes('everyone votes in secret'), `the TV explains the election in two lines: ${text}`);
  await shot(tv, 'election-tv');
  // A phone's status page: the same two lines, within its width.
  const phone = await newPage(browser, kPhone, errors);
  await phone.goto(`${url}/`);
  const small = phone.locator('#teach:not(.hidden)');
  await small.waitFor({ timeout: kWait });
  const phoneBox = await small.boundingBox();
  check(phoneBox && phoneBox.x >= 0 && phoneBox.x + phoneBox.width <= 390, `the phone's explanation fits its width: ${JSON.stringify(phoneBox)}`);
  check((await small.innerText()).includes('everyone votes in secret'), 'the phone explains the election too');
  await shot(phone, 'election-phone');
  await phone.context().close();
  await card.locator('a').click();
  await tv.waitForFunction(() => document.body.dataset.rule === 'election', null, { timeout: kWait });
  const box = await tv.locator('section#election').boundingBox();
  check(box && box.y >= -1 && box.y < 400, `rules.html opens at the election's rule (its top at ${box && box.y})`);
  check(tv.url().endsWith('/rules.html#election'), `the link is rules.html#election: ${tv.url()}`);
  await shot(tv, 'rules-tv');
  check(!errors.length, `no script error: ${errors.join(' | ')}`);
} catch (e) {
  fail(e);
} finally {
  await close();
  if (server) await server.stop();
}
finish();
