// `vivaref serve` behind a real nginx (issue 35, "reaching a table from
// afar"): a certificate for castle.test made at run time, nginx started on
// the project's own example site (systemd/nginx-vivaref.conf, its name,
// ports, certificate and upstream replaced) in a temporary directory, and
// serve with `http_names = castle.test` and `trusted_proxies = 127.0.0.1`.
// Through nginx over HTTPS: the pages and /api/status answer, live events
// pass as they happen, plain HTTP is sent to HTTPS; a Host that is not
// configured gets 421; the wrong-secret throttle and the per-address
// connection cap count the client nginx names, and a serve that trusts no
// proxy ignores the header. Exits 77 (skipped) only when nginx is missing.
//
//   node tests/server/nginx_proxy_test.mjs build/dev/vivaref
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { serveMissing, startServe } from '../web/daemon.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const kTemplate = join(here, '..', '..', 'systemd', 'nginx-vivaref.conf');
const kName = 'castle.test';
const vivaref = process.argv[2];

function findNginx() {
  for (const dir of (process.env.PATH || '').split(':').concat(['/usr/sbin', '/sbin'])) {
    const candidate = join(dir, 'nginx');
    if (dir && existsSync(candidate)) return candidate;
  }
  return null;
}

const nginx = findNginx();
if (!nginx) {
  console.log('SKIP: nginx not installed (Debian: apt-get install nginx; .ci/dev deps installs it)');
  process.exit(77);
}
const missing = serveMissing(vivaref);
if (missing) {
  console.error(`FAIL: ${missing}`);
  process.exit(1);
}

let failures = 0;
function check(ok, what) {
  console.log(`${ok ? 'ok' : 'FAIL'}: ${what}`);
  if (!ok) failures += 1;
}

const dir = mkdtempSync(join(tmpdir(), 'vivaref-nginx-'));
const cleanups = [];
async function cleanUp() {
  for (const f of cleanups.reverse()) await f();
  rmSync(dir, { recursive: true, force: true });
}

// A port free now (nginx binds it a moment later).
function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

function run(command, args) {
  const r = spawnSync(command, args, { encoding: 'utf8', timeout: 20000 });
  if (r.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${r.status}): ${r.stderr}`);
  return r.stdout;
}

// The example site with this test's values; each replacement must find its
// line, so a changed example fails here instead of testing something else.
function siteFor(template, { tlsPort, plainPort, servePort, cert, key }) {
  let site = template;
  const replace = (pattern, by, what) => {
    if (!pattern.test(site)) throw new Error(`systemd/nginx-vivaref.conf no longer has ${what}`);
    site = site.replace(pattern, by);
  };
  replace(/^\s*listen \[::\]:443 ssl;\n/m, '', 'listen [::]:443 ssl');
  replace(/^\s*listen \[::\]:80;\n/m, '', 'listen [::]:80');
  replace(/listen 443 ssl;/, `listen 127.0.0.1:${tlsPort} ssl;`, 'listen 443 ssl');
  replace(/listen 80;/, `listen 127.0.0.1:${plainPort};`, 'listen 80');
  replace(/castle\.example\.org;/g, `${kName};`, 'server_name castle.example.org');
  replace(/ssl_certificate \S+;/, `ssl_certificate ${cert};`, 'ssl_certificate');
  replace(/ssl_certificate_key \S+;/, `ssl_certificate_key ${key};`, 'ssl_certificate_key');
  replace(/proxy_pass http:\/\/127\.0\.0\.1:8080;/, `proxy_pass http://127.0.0.1:${servePort};`, 'proxy_pass to serve');
  for (const needed of ['proxy_buffering off;', 'proxy_http_version 1.1;', 'proxy_set_header Connection "";',
    'proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;', 'proxy_set_header Host $host;']) {
    if (!site.includes(needed)) throw new Error(`systemd/nginx-vivaref.conf no longer says ${needed}`);
  }
  return site;
}

// nginx in the foreground, one process, every file it writes in `base`.
async function startNginx(name, servePort, cert, key) {
  const base = join(dir, name);
  run('mkdir', ['-p', base]);
  const tlsPort = await freePort();
  const plainPort = await freePort();
  writeFileSync(join(base, 'site.conf'), siteFor(readFileSync(kTemplate, 'utf8'), { tlsPort, plainPort, servePort, cert, key }));
  writeFileSync(join(base, 'nginx.conf'), [
    'daemon off;',
    'master_process off;',
    `pid ${base}/nginx.pid;`,
    `error_log ${base}/error.log info;`,
    'events { worker_connections 512; }',
    'http {',
    `  access_log ${base}/access.log;`,
    `  client_body_temp_path ${base}/client_body;`,
    `  proxy_temp_path ${base}/proxy;`,
    `  fastcgi_temp_path ${base}/fastcgi;`,
    `  uwsgi_temp_path ${base}/uwsgi;`,
    `  scgi_temp_path ${base}/scgi;`,
    `  include ${base}/site.conf;`,
    '}',
    '',
  ].join('\n'));
  const child = spawn(nginx, ['-p', base, '-e', `${base}/error.log`, '-c', `${base}/nginx.conf`], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (c) => { output += c; });
  child.stderr.on('data', (c) => { output += c; });
  cleanups.push(async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const gone = new Promise((r) => child.on('exit', r));
    child.kill('SIGTERM');
    await gone;
  });
  const deadline = Date.now() + 5000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nginx exited (${child.exitCode}): ${output}\n${readFileSync(`${base}/error.log`, 'utf8')}`);
    const up = await new Promise((resolve) => {
      const s = net.connect(tlsPort, '127.0.0.1', () => { s.destroy(); resolve(true); });
      s.on('error', () => resolve(false));
    });
    if (up) break;
    if (Date.now() > deadline) throw new Error(`nginx did not listen within 5 s: ${output}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return { tlsPort, plainPort };
}

// One request through nginx over HTTPS, as a browser at https://castle.test:PORT
// would send it (SNI and Host castle.test; curl's --resolve castle.test:PORT:127.0.0.1).
function viaNginx(port, ca, path, { method = 'GET', headers = {}, body, host = `${kName}:${port}` } = {}) {
  return new Promise((resolve, reject) => {
    const req = https.request({ host: '127.0.0.1', port, servername: kName, ca, path, method, agent: false, headers: { Host: host, ...headers } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => { text += c; });
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, text }));
    });
    req.on('error', reject);
    req.setTimeout(10000, () => req.destroy(new Error(`${path} through nginx took over 10 s`)));
    if (body !== undefined) req.end(JSON.stringify(body)); else req.end();
  });
}

// Straight to serve, plain HTTP.
function direct(port, path, { headers = {}, host = `127.0.0.1:${port}` } = {}) {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path, agent: false, headers: { Host: host, ...headers } }, (res) => {
      let text = '';
      res.on('data', (c) => { text += c; });
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, text }));
    });
    req.on('error', reject);
    req.end();
  });
}

// An event stream through nginx: its frames as they come; `ended` once either side closed it.
function openEvents(port, ca, headers = {}) {
  return new Promise((resolve, reject) => {
    const stream = { frames: [], ended: false, waiters: [], res: null, req: null };
    const req = https.request({ host: '127.0.0.1', port, servername: kName, ca, path: '/api/events', agent: false, headers: { Host: `${kName}:${port}`, Accept: 'text/event-stream', ...headers } }, (res) => {
      stream.res = res;
      let pending = '';
      res.setEncoding('utf8');
      res.on('data', (c) => {
        pending += c;
        let end;
        while ((end = pending.indexOf('\n\n')) >= 0) {
          const frame = pending.slice(0, end);
          pending = pending.slice(end + 2);
          const event = /^event: (.*)$/m.exec(frame);
          const data = /^data: (.*)$/m.exec(frame);
          if (event && data) stream.frames.push({ at: performance.now(), event: event[1], data: JSON.parse(data[1]) });
        }
        for (const w of stream.waiters.splice(0)) w();
      });
      const ended = () => { stream.ended = true; for (const w of stream.waiters.splice(0)) w(); };
      res.on('end', ended);
      res.on('close', ended);
      resolve(stream);
    });
    stream.req = req;
    req.on('error', (e) => { stream.ended = true; if (!stream.res) reject(e); });
    req.end();
  });
}

async function waitFor(stream, test, ms) {
  const deadline = Date.now() + ms;
  for (;;) {
    const found = stream.frames.find(test);
    if (found) return found;
    if (Date.now() > deadline) return null;
    await new Promise((r) => { stream.waiters.push(r); setTimeout(r, 100); });
  }
}

const started = performance.now();
try {
  // --- the certificate, serve and nginx
  const cert = join(dir, 'castle.crt');
  const key = join(dir, 'castle.key');
  run('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '2',
    '-subj', `/CN=${kName}`, '-addext', `subjectAltName=DNS:${kName}`, '-keyout', key, '-out', cert]);
  const ca = readFileSync(cert);
  const serve = await startServe(vivaref, { parent: dir, extraConfig: `http_names = ${kName}\ntrusted_proxies = 127.0.0.1, ::1\n` });
  cleanups.push(() => serve.stop());
  const servePort = Number(new URL(serve.url).port);
  check(/trusted_proxies/.test(serve.log()), 'serve says whose X-Forwarded-For it believes');
  const proxy = await startNginx('nginx-trusting', servePort, cert, key);
  console.log(`serve on 127.0.0.1:${servePort}, nginx on https://${kName}:${proxy.tlsPort} (${Math.round(performance.now() - started)} ms to start both)`);

  // --- pages and the status through nginx
  const page = await viaNginx(proxy.tlsPort, ca, '/');
  check(page.status === 200 && /text\/html/.test(page.headers['content-type'] || ''), `the status page through nginx: ${page.status}`);
  check(/frame-ancestors 'none'/.test(page.headers['content-security-policy'] || ''), 'its content security policy came through');
  const status = await viaNginx(proxy.tlsPort, ca, '/api/status');
  check(status.status === 200 && JSON.parse(status.text).state === 'no-game', `/api/status through nginx: ${status.status} ${status.text.slice(0, 80)}`);
  const host = await viaNginx(proxy.tlsPort, ca, '/host.html');
  check(host.status === 200, `the host page through nginx: ${host.status}`);
  // Plain HTTP only points at HTTPS; the '#SECRET' of a link is never sent, so it is not in the way.
  const plain = await direct(proxy.plainPort, '/host.html', { host: kName });
  check(plain.status === 301 && plain.headers.location === `https://${kName}/host.html`, `plain HTTP is sent to HTTPS: ${plain.status} ${plain.headers.location}`);

  // --- the Host check
  const foreign = await direct(servePort, '/api/status', { host: 'evil.test' });
  check(foreign.status === 421, `a Host not configured, straight to serve: ${foreign.status}`);
  const foreignViaProxy = await viaNginx(proxy.tlsPort, ca, '/api/status', { host: 'evil.test' });
  check(foreignViaProxy.status === 421, `a Host not configured, through nginx: ${foreignViaProxy.status}`);
  const named = await direct(servePort, '/api/status', { host: kName });
  check(named.status === 200, `the configured name, straight to serve: ${named.status}`);

  // --- live events through nginx, as they happen
  const events = await openEvents(proxy.tlsPort, ca);
  check(events.res.statusCode === 200 && /text\/event-stream/.test(events.res.headers['content-type'] || ''), 'the event stream opens through nginx');
  const first = await waitFor(events, (f) => f.event === 'status', 5000);
  check(first && first.data.state === 'no-game', 'the first status event arrives');
  const asked = performance.now();
  const newGame = await viaNginx(proxy.tlsPort, ca, '/api/host/new-game', {
    method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${serve.hostToken}` },
    body: { setup: { edition: 'classic', seats: 3, rounds: 2 }, players: ['Ann', 'Bea', 'Cid'] },
  });
  check(newGame.status === 200, `the host starts a game through nginx: ${newGame.status} ${newGame.text.slice(0, 200)}`);
  const changed = await waitFor(events, (f) => f.event === 'status' && f.data.game !== null, 5000);
  check(!!changed, 'the game\'s start reaches the open stream through nginx');
  if (changed) console.log(`a new game's status event through nginx: ${(changed.at - asked).toFixed(1)} ms after the request was sent`);
  check(changed && changed.at - asked < 2000, 'it came at once, not when a buffer filled or the stream ended');
  events.req.destroy();

  // --- the throttle counts the client nginx names
  const guess = (port, forwardedFor) => viaNginx(port, ca, '/api/host/players', {
    headers: { Authorization: 'Bearer wrong-guess-0123456789', ...(forwardedFor ? { 'X-Forwarded-For': forwardedFor } : {}) },
  });
  // The test talks to nginx from 127.0.0.1, a trusted proxy itself: what it
  // writes in X-Forwarded-For plays the part of a proxy in front of nginx.
  const a = [];
  for (let i = 0; i < 6; i += 1) a.push((await guess(proxy.tlsPort, '203.0.113.9')).status);
  check(a.join() === '401,401,401,401,401,429', `6 wrong secrets from client A through nginx: ${a.join()}`);
  const b = (await guess(proxy.tlsPort, '203.0.113.10')).status;
  check(b === 401, `client B behind the same nginx is not slowed: ${b}`);
  const right = await viaNginx(proxy.tlsPort, ca, '/api/host/players', { headers: { Authorization: `Bearer ${serve.hostToken}`, 'X-Forwarded-For': '203.0.113.10' } });
  check(right.status === 200, `the host's secret from B through nginx: ${right.status}`);

  // --- the connection cap counts the client nginx names (24 per address)
  const streamsA = [];
  for (let i = 0; i < 26; i += 1) streamsA.push(await openEvents(proxy.tlsPort, ca, { 'X-Forwarded-For': '198.51.100.7' }));
  const streamB = await openEvents(proxy.tlsPort, ca, { 'X-Forwarded-For': '198.51.100.8' });
  await new Promise((r) => setTimeout(r, 500));
  const closedA = streamsA.filter((s) => s.ended).length;
  check(closedA === 2, `client A's 25th and 26th streams each replaced one of its own: ${closedA} of 26 closed`);
  check(!streamB.ended, 'client B\'s stream beside them is open');
  check(!!(await waitFor(streamB, (f) => f.event === 'status', 3000)), 'and B receives its events');
  for (const s of [...streamsA, streamB]) s.req.destroy();

  // --- a serve that trusts no proxy: the header is ignored, nginx's address is counted
  const plainServe = await startServe(vivaref, { parent: dir, extraConfig: `http_names = ${kName}\n` });
  cleanups.push(() => plainServe.stop());
  const untrusting = await startNginx('nginx-untrusted', Number(new URL(plainServe.url).port), cert, key);
  const c = [];
  for (let i = 0; i < 5; i += 1) c.push((await guess(untrusting.tlsPort, `203.0.113.${20 + i}`)).status);
  c.push((await guess(untrusting.tlsPort, '203.0.113.99')).status);
  check(c.join() === '401,401,401,401,401,429', `without trusted_proxies, 6 wrong secrets claiming 6 addresses are one client's: ${c.join()}`);
} catch (e) {
  check(false, `${e.stack || e}`);
} finally {
  await cleanUp();
}
console.log(`${failures ? 'FAILED' : 'passed'} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
process.exit(failures ? 1 : 0);
