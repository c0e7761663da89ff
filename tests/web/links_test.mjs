// Issue 35: the players' links of a game in progress survive a restart of
// the daemon. A player's page open on a phone (390x844) and the host's page
// (1280x800) stay open while serve is stopped (SIGTERM) and started again
// on the same state directory:
// - the player's page reconnects by itself, without a reload, and asks
//   for its cards with the same link, answered 200: the cards are back;
// - the link the host replaced before the restart stays refused after it;
// - a kept links file serve cannot read (cut short here) gives new links:
//   the journal names the file and why, the open player's page says its
//   link belongs to no player, and the open host page shows the new links
//   (it asks for them again at each reconnection).
//   node tests/web/links_test.mjs VIVAREF [ARTIFACTS]   exit 0 pass, 1 fail, 77 skipped
import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { api, serveMissing, startServe } from './daemon.mjs';
import { browserOrSkip, checker, kPhone, kWait, newPage, shooter, skip } from './harness.mjs';

const vivaref = process.argv[2];
const artifacts = process.argv[3] || join(tmpdir(), 'vivaref-links');
if (serveMissing(vivaref)) skip(serveMissing(vivaref));
const launchBrowser = await browserOrSkip();

const { check, fail, finish } = checker('web-links');
const shot = shooter(artifacts, 'links-');
const errors = [];
const server = await startServe(vivaref, { hostToken: '' });
const { browser, close } = await launchBrowser();

// The player links the host page shows, in player order.
async function shownLinks(host) {
  return host.locator('#links a.player-link').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
}

try {
  const { url } = server;
  const secret = server.hostToken;
  const started = await api(url, '/api/host/new-game', {
    method: 'POST', token: secret, body: { setup: { edition: 'classic', seats: 3 }, players: ['Ann', 'Bob', 'Cy'] },
  });
  check(started.status === 200, `a game of three starts (${started.status})`);
  // Bob lost his phone: a new link; his first one is refused from now on.
  const revoked = started.json.players[1].token;
  const renewed = await api(url, '/api/host/new-link', { method: 'POST', token: secret, body: { player: 1 } });
  const tokens = renewed.json.players.map((p) => p.token);
  check(renewed.status === 200 && tokens[1] !== revoked, 'the host gives Bob a new link');

  // Every page opened once: the host page then stops asking for the links
  // (it asks every 1.5 s only while a link has not opened), so what it
  // shows after a restart comes from its reconnection alone.
  for (const token of tokens) await api(url, `/api/player/${token}`);
  const host = await newPage(browser, { viewport: { width: 1280, height: 800 } }, errors);
  await host.goto(server.hostLink);
  await host.locator('#links figure').nth(2).waitFor({ timeout: kWait });
  const before = await shownLinks(host);
  check(before.length === 3 && before.every((l, p) => l.endsWith(`#${tokens[p]}`)), 'the host page shows the three links');
  check(await host.locator('#links figure.opened').count() === 3, 'the host page shows the three pages opened');

  const phone = await newPage(browser, kPhone, errors);
  const answers = [];
  phone.on('response', (r) => {
    if (r.url().includes('/api/player/')) answers.push(r.status());
  });
  await phone.goto(`${url}/player.html#${tokens[0]}`);
  await phone.locator('#private:not(.hidden)').waitFor({ timeout: kWait });
  await phone.evaluate(() => { window.sameDocument = true; });
  check(true, 'Ann\'s page shows her cards');

  // --- a restart: the same links -------------------------------------------
  answers.length = 0;
  await server.restart();
  check(/the players' links kept in .*player-links\.json work again/.test(server.log()), 'serve says the kept links work again');
  await phone.waitForFunction(() => !document.getElementById('banner').textContent, null, { timeout: kWait });
  const deadline = Date.now() + kWait;
  while (!answers.includes(200) && Date.now() < deadline) await phone.waitForTimeout(100);
  check(answers.length > 0 && answers.every((s) => s === 200), `after the restart Ann's page asks again with the same link and is answered (${answers.join(', ')})`);
  check(await phone.evaluate(() => window.sameDocument === true) && await phone.locator('#private').isVisible()
    && await phone.locator('#error').isHidden(), 'Ann\'s page reconnected by itself, without a reload, her cards shown');
  await shot(phone, 'phone-after-restart', { fullPage: false });
  for (const [p, token] of tokens.entries()) {
    const page = await api(url, `/api/player/${token}`);
    check(page.status === 200, `player ${p + 1}'s link answers after the restart (${page.status})`);
  }
  check((await api(url, `/api/player/${revoked}`)).status === 404, 'the link the host replaced stays refused after the restart');
  const opened = (await api(url, '/api/host/players', { token: secret })).json.players;
  check(opened.every((p) => p.opened), 'the pages opened before the restart are still opened after it (their codes stay hidden)');

  // --- a kept file serve cannot read: new links -----------------------------
  const file = join(server.dir, 'player-links.json');
  const kept = readFileSync(file, 'utf8');
  writeFileSync(file, kept.slice(0, kept.length / 2));
  await server.restart();
  check(server.log().includes(`the players' links ${file} cannot be used (it is not a JSON object)`), 'serve names the file it cannot read, and why');
  await phone.locator('#error:not(.hidden)').waitFor({ timeout: kWait });
  check((await phone.locator('#error').innerText()).includes('belongs to no player'), 'Ann\'s page says its link belongs to no player');
  await host.waitForFunction((old) => {
    const now = [...document.querySelectorAll('#links a.player-link')].map((a) => a.getAttribute('href'));
    return now.length === 3 && now.every((l, p) => l !== old[p]);
  }, before, { timeout: kWait });
  const after = await shownLinks(host);
  const listed = (await api(url, '/api/host/players', { token: secret })).json.players.map((p) => p.token);
  check(after.every((l, p) => l.endsWith(`#${listed[p]}`)), 'the open host page shows the new links');
  await shot(host, 'host-new-links', { fullPage: false });
  for (const token of listed) check((await api(url, `/api/player/${token}`)).status === 200, 'a new link answers');
  check(!tokens.some((t) => server.log().includes(t)) && !listed.some((t) => server.log().includes(t)), 'no link in what serve printed');
  check(errors.length === 0, `no script error in the pages: ${errors.join('; ')}`);
} catch (e) {
  fail(e);
  console.log(`--- serve's output ---\n${server.log().slice(-3000)}`);
} finally {
  await close();
  await server.stop();
}
finish();
