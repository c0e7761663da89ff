// A stand-in daemon for working on the pages without building vivaref:
// serves web-ui/ and answers the public API from a fixture file.
//   node tests/web/fixture_server.mjs [PORT] [FIXTURE.json]
// GET /api/status and the "status" event give the fixture; /api/info says
// the hardware is simulated. Nothing else is faked: the real test
// (web_test.mjs) runs the real daemon.
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
const root = join(here, '..', '..', 'web-ui');
const port = Number(process.argv[2] || 8099);
const fixture = process.argv[3] || join(here, 'fixtures', 'status-2024.json');
const types = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json' };

createServer(async (req, res) => {
  const path = new URL(req.url, 'http://x').pathname;
  const status = await readFile(fixture, 'utf8');
  if (path === '/api/status') return res.writeHead(200, { 'Content-Type': 'application/json' }).end(status);
  if (path === '/api/info') return res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"simulated":true,"hostTokenRequired":false}');
  if (path === '/api/events') {
    res.writeHead(200, { 'Content-Type': 'text/event-stream' });
    return res.write(`event: status\ndata: ${JSON.stringify(JSON.parse(status))}\n\n`);
  }
  const file = normalize(join(root, path === '/' ? 'index.html' : path));
  if (!file.startsWith(root)) return res.writeHead(400).end();
  try {
    const body = await readFile(file);
    res.writeHead(200, { 'Content-Type': types[extname(file)] || 'application/octet-stream' }).end(body);
  } catch {
    res.writeHead(404).end('{"error":"no-such-file"}');
  }
}).listen(port, '127.0.0.1', () => console.log(`fixture server on http://127.0.0.1:${port}/`));
