// A stand-in daemon for working on the pages without building vivaref:
// serves web-ui/ and answers the public API from a fixture file.
//   node tests/web/fixture_server.mjs [PORT] [FIXTURE.json]
// GET /api/status and the "status" event give the fixture; /api/info says
// the hardware is simulated; /api/words gives the catalogs. Nothing else is faked: the real test
// (web_test.mjs) runs the real daemon.
//
// Imported (startFixtureServer), a test also sets the status as it goes
// (pushed to every open stream), a player's page (GET /api/player/TOKEN),
// and canned answers to the host's POSTs, which it records.
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
const root = join(here, '..', '..', 'web-ui');
const catalogs = join(here, '..', '..', 'daemon', 'words', 'catalogs');
const types = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json' };

// `status`: the status object; `players`: {TOKEN: page}; `answers`:
// {PATH: [{status, body}, ...]} taken in turn by POSTs to PATH (the last
// one repeats). Resolves to {url, posts, streams, setStatus(s), close()}.
export function startFixtureServer({ status = {}, players = {}, answers = {}, port = 0 } = {}) {
  let current = status;
  const streams = new Set();
  const posts = [];
  const taken = {};
  const send = (res, code, body) => res.writeHead(code, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' }).end(JSON.stringify(body));
  const server = createServer(async (req, res) => {
    const path = new URL(req.url, 'http://x').pathname;
    if (req.method === 'POST') {
      let text = '';
      for await (const chunk of req) text += chunk;
      let body = null;
      try {
        body = JSON.parse(text || '{}');
      } catch {
        return send(res, 400, { error: 'bad-json', message: 'The body is not JSON.' });
      }
      posts.push({ path, body });
      const list = answers[path];
      if (!list || !list.length) return send(res, 404, { error: 'not-found', message: `No canned answer for ${path}.` });
      const n = taken[path] = (taken[path] ?? -1) + 1;
      const answer = list[Math.min(n, list.length - 1)];
      return send(res, answer.status, answer.body);
    }
    if (path === '/api/status') return send(res, 200, current);
    if (path === '/api/info') return send(res, 200, { simulated: true, hostTokenRequired: false });
    // The words, as the daemon gives them: its catalogs, the table in English.
    if (path === '/api/words') return send(res, 200, { languages: ['de', 'en', 'fr', 'it'], table: 'en' });
    if (/^\/api\/words\/(de|en|fr|it)$/.test(path)) return send(res, 200, JSON.parse(await readFile(join(catalogs, `${path.slice(11)}.json`), 'utf8')));
    if (path.startsWith('/api/player/')) {
      const page = players[decodeURIComponent(path.slice('/api/player/'.length))];
      return page ? send(res, 200, page) : send(res, 404, { error: 'no-such-player', message: 'No player holds that link.' });
    }
    if (path === '/api/events') {
      res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-store' });
      res.write(`retry: 1000\n\nevent: status\ndata: ${JSON.stringify(current)}\n\n`);
      streams.add(res);
      req.on('close', () => streams.delete(res));
      return undefined;
    }
    if (path.startsWith('/api/')) return send(res, 404, { error: 'not-found', message: `The fixture server has no ${path}.` });
    const file = normalize(join(root, path === '/' ? 'index.html' : path));
    if (!file.startsWith(root)) return res.writeHead(400).end();
    try {
      const body = await readFile(file);
      return res.writeHead(200, { 'Content-Type': types[extname(file)] || 'application/octet-stream' }).end(body);
    } catch {
      return res.writeHead(404).end('{"error":"no-such-file"}');
    }
  });
  return new Promise((done) => {
    server.listen(port, '127.0.0.1', () => {
      done({
        url: `http://127.0.0.1:${server.address().port}`,
        posts,
        setStatus(next) {
          current = next;
          for (const res of streams) res.write(`event: status\ndata: ${JSON.stringify(next)}\n\n`);
        },
        close() {
          for (const res of streams) res.end();
          return new Promise((r) => server.close(r));
        },
      });
    });
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const port = Number(process.argv[2] || 8099);
  const fixture = process.argv[3] || join(here, 'fixtures', 'status-2024.json');
  const status = JSON.parse(await readFile(fixture, 'utf8'));
  const { url } = await startFixtureServer({ status, port });
  console.log(`fixture server on ${url}/`);
}
