// The players' QR codes as the daemon serves them (GET
// /api/host/players/P/qr.svg: libqrencode's modules written as SVG by
// daemon/server/qr_svg.cpp): each SVG is drawn by chromium, photographed,
// and read back by zbarimg; it must give that player's link exactly, as
// /api/host/players names it. Only the host gets a code.
//   node tests/web/qr_test.mjs VIVAREF [ARTIFACTS]   exit 0 pass, 1 fail, 77 tools missing
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { api, serveMissing, startServe } from './daemon.mjs';
import { browserOrSkip, checker, skip } from './harness.mjs';

const vivaref = process.argv[2];
const artifacts = process.argv[3] || join(tmpdir(), 'vivaref-qr');
if (serveMissing(vivaref)) skip(serveMissing(vivaref));
if (spawnSync('sh', ['-c', 'command -v zbarimg']).status !== 0) skip('zbarimg is missing (Debian package zbar-tools)');
const launchBrowser = await browserOrSkip();
mkdirSync(artifacts, { recursive: true });

const { check, fail, finish } = checker('web-qr');
const server = await startServe(vivaref, { edition: '2024' });
const { browser, close } = await launchBrowser();
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
    await page.setContent(`<body style="margin:0;background:#fff"><img id="qr" width="330" height="330" src="data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}"></body>`);
    await page.locator('#qr').evaluate((img) => img.decode());
    const png = join(artifacts, `qr-served-${p.player}.png`);
    await page.locator('#qr').screenshot({ path: png });
    const zbar = spawnSync('zbarimg', ['--quiet', '--raw', png], { encoding: 'utf8' });
    const want = `${url}${p.path}`;
    check(zbar.status === 0 && zbar.stdout.trim() === want, `player ${p.player}'s code reads ${JSON.stringify(zbar.stdout.trim())}, link ${want}`);
  }
  await ctx.close();
} catch (e) {
  fail(e);
} finally {
  await close();
  await server.stop();
}
finish();
