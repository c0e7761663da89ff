// The players' QR codes as the daemon serves them (GET
// /api/host/players/P/qr.svg: libqrencode's modules written as SVG by
// daemon/server/qr_svg.cpp): each SVG is drawn by chromium, photographed,
// and read back by zbarimg; it must give that player's link exactly, as
// /api/host/players names it. Only the host gets a code.
// Issue 34: the first run reaches the table. The host page opened at
// 127.0.0.1 (at 1280x800, the host's laptop) says phones cannot open that
// address: on a serve listening there only, how to open it to the table;
// on a serve listening on every interface, the machine's address phones
// open, which the players' codes then carry (read back by zbarimg), and
// the same page opened at that address says nothing.
//   node tests/web/qr_test.mjs VIVAREF [ARTIFACTS]   exit 0 pass, 1 fail, 77 tools missing
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { api, serveMissing, startServe } from './daemon.mjs';
import { browserOrSkip, checker, newPage, shooter, skip } from './harness.mjs';

const vivaref = process.argv[2];
const artifacts = process.argv[3] || join(tmpdir(), 'vivaref-qr');
if (serveMissing(vivaref)) skip(serveMissing(vivaref));
if (spawnSync('sh', ['-c', 'command -v zbarimg']).status !== 0) skip('zbarimg is missing (Debian package zbar-tools)');
const launchBrowser = await browserOrSkip();
mkdirSync(artifacts, { recursive: true });

const { check, fail, finish } = checker('web-qr');
const shot = shooter(artifacts, 'qr-');
const errors = [];
const kLaptop = { viewport: { width: 1280, height: 800 } };
const server = await startServe(vivaref, { edition: '2024' });
const { browser, close } = await launchBrowser();
let lan = null;

// What zbarimg reads in `svg` drawn by chromium on `page` (saved as `name`.png).
async function readCode(page, svg, name) {
  await page.setContent(`<body style="margin:0;background:#fff"><img id="qr" width="330" height="330" src="data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}"></body>`);
  await page.locator('#qr').evaluate((img) => img.decode());
  const png = join(artifacts, `${name}.png`);
  await page.locator('#qr').screenshot({ path: png });
  const zbar = spawnSync('zbarimg', ['--quiet', '--raw', png], { encoding: 'utf8' });
  return zbar.status === 0 ? zbar.stdout.trim() : `(zbarimg: ${zbar.status})`;
}

// The host page's warning at the top of the first screen, or null.
async function lanWarning(page, expected = true) {
  await page.waitForSelector('#controls:not(.hidden), #unlock:not(.hidden)');
  if (expected) await page.waitForSelector('#lan-link', { timeout: 10000 }).catch(() => {});
  else await page.waitForTimeout(1500);
  return page.evaluate(() => {
    const card = document.getElementById('lan-link');
    if (!card) return null;
    const r = card.getBoundingClientRect();
    const a = card.querySelector('a');
    return { text: card.textContent.trim(), top: r.top, bottom: r.bottom, link: a && a.getAttribute('href') };
  });
}

try {
  const { url, hostToken: token } = server;
  // Eight players: the longest links of a table.
  const names = ['Anna', 'Bruno', 'Chiara', 'Dario', 'Elena', 'Fabio', 'Giulia', 'Ivo'];
  const started = await api(url, '/api/host/new-game', { method: 'POST', token, body: { setup: { edition: '2024', seats: 8 }, players: names } });
  check(started.status === 200, `a 2024 game of 8 starts: ${started.text.slice(0, 200)}`);
  const players = (await api(url, '/api/host/players', { token })).json.players;
  check(players.length === 8, 'eight players have links');

  const refused = await api(url, '/api/host/players/0/qr.svg', { token: '' });
  check(refused.status === 401 && !refused.text.includes(players[0].token), `a code without the host's secret: 401, no token (got ${refused.status})`);
  check((await api(url, '/api/host/players/8/qr.svg', { token })).status === 404, 'no code for a player the game does not have');
  check((await api(url, '/api/host/players/x/qr.svg', { token })).status === 404, 'no code for a player named by a word');

  const ctx = await browser.newContext({ viewport: { width: 400, height: 400 } });
  const page = await ctx.newPage();
  for (const p of players) {
    const r = await fetch(`${url}/api/host/players/${p.player}/qr.svg`, { headers: { Authorization: `Bearer ${token}` } });
    const svg = await r.text();
    check(r.status === 200 && r.headers.get('content-type') === 'image/svg+xml', `player ${p.player}'s code is an SVG`);
    check(r.headers.get('cache-control') === 'no-store', 'a code (a secret link) is kept in no cache');
    // The quiet zone: the drawing starts 4 modules in.
    const box = svg.match(/viewBox="0 0 (\d+) \1"/);
    const first = svg.match(/d="M(\d+) (\d+)/);
    check(box && first && Number(first[1]) === 4 && Number(first[2]) === 4, `a quiet zone of 4 modules (viewBox ${box && box[1]}, first module at ${first && first.slice(1).join(',')})`);
    const read = await readCode(page, svg, `qr-served-${p.player}`);
    const want = `${url}${p.path}`;
    check(read === want, `player ${p.player}'s code reads ${JSON.stringify(read)}, link ${want}`);
  }

  // serve on 127.0.0.1 only: the host page says no phone can reach it, and how to change that.
  const port = new URL(url).port;
  const local = await newPage(browser, kLaptop, errors);
  await local.goto(`${url}/host.html#${token}`);
  const told = await lanWarning(local);
  check(told && told.text.includes(`vivaref listens on 127.0.0.1:${port} only: no phone can open the players’ links`)
    && told.text.includes(`vivaref serve --listen 0.0.0.0:${port}`) && told.top >= 0 && told.bottom <= 800,
  `1280x800, serve on 127.0.0.1: the host page says phones cannot reach it, on the first screen: ${told && told.text}`);
  await shot(local, 'host-loopback-only', { fullPage: false });
  await local.context().close();

  // serve on every interface: /api/info's links, the codes of a page opened at 127.0.0.1, the warning's link.
  lan = await startServe(vivaref, { edition: '2024', listen: '0.0.0.0:0' });
  const info = (await api(lan.url, '/api/info')).json;
  const links = (info.table && info.table.links) || [];
  if (!links.length) {
    check(info.table && info.table.no_network === true, `this machine has no network address: /api/info says so (${JSON.stringify(info.table)})`);
  } else {
    const lanPort = new URL(lan.url).port;
    const first = new URL(links[0]);
    check(first.port === lanPort && !['127.0.0.1', 'localhost', '[::1]'].includes(first.hostname),
      `/api/info's first link is this machine's address on the network, on serve's port: ${links.join(', ')}`);
    const lanGame = await api(lan.url, '/api/host/new-game', { method: 'POST', token: lan.hostToken, body: { setup: { edition: '2024', seats: 3 }, players: ['Anna', 'Bruno', 'Chiara'] } });
    check(lanGame.status === 200, `a game starts on the serve on every interface (${lanGame.status})`);
    const p = (await api(lan.url, '/api/host/players', { token: lan.hostToken })).json.players[0];
    // Asked at 127.0.0.1 (the page's address): the code carries the LAN address a phone opens.
    const r = await fetch(`${lan.url}/api/host/players/${p.player}/qr.svg`, { headers: { Authorization: `Bearer ${lan.hostToken}` } });
    const read = await readCode(page, await r.text(), 'qr-lan');
    check(read === `${links[0].replace(/\/$/, '')}${p.path}`, `a code asked for at 127.0.0.1 reads the LAN link ${JSON.stringify(read)}`);

    const host = await newPage(browser, kLaptop, errors);
    await host.goto(`${lan.url}/host.html#${lan.hostToken}`);
    const warned = await lanWarning(host);
    check(warned && warned.link === links[0] && warned.text.includes(`This page is open at 127.0.0.1:${lanPort}, which only this computer reaches. Phones open ${links[0]}`)
      && warned.top >= 0 && warned.bottom <= 800,
    `1280x800, the host page at 127.0.0.1 shows the link phones open instead, on the first screen: ${warned && warned.text}`);
    await shot(host, 'host-lan-link', { fullPage: false });
    // At the address phones open, nothing to warn of.
    await host.goto(`${links[0]}host.html#${lan.hostToken}`);
    check(await lanWarning(host, false) === null, `the host page opened at ${links[0]} shows no warning`);
    await host.context().close();
  }
  await ctx.close();
} catch (e) {
  fail(e);
} finally {
  check(errors.length === 0, `no script errors in the pages (${errors.join('; ')})`);
  await close();
  await server.stop();
  if (lan) await lan.stop();
}
finish();
