// Starting the real `vivaref serve` on the simulated castle for the browser
// test and the benchmark: a fresh game log in a temporary directory, a
// port the kernel picks, and the address read from what serve prints.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const kHostToken = 'web-test-host-token-0123456789abcdef';

// Why serve cannot be run, or null. `serve --help` must name --listen.
export function serveMissing(vivaref) {
  if (!vivaref || !existsSync(vivaref)) return `the vivaref binary ${vivaref || '(none given)'} is missing`;
  const help = spawnSync(vivaref, ['serve', '--help'], { encoding: 'utf8', timeout: 10000 });
  const text = `${help.stdout || ''}${help.stderr || ''}`;
  if (help.status !== 0 || !/--listen/.test(text)) return '`vivaref serve --help` does not offer --listen: serve is not built yet';
  return null;
}

// Starts serve; resolves to {url, pid, stop(), log()}. With a castle
// configuration when serve takes --config (the host token then guards the
// host's routes, as on a real castle).
export async function startServe(vivaref, { edition = 'classic', hostToken = kHostToken, timeoutMs = 30000 } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'vivaref-web-'));
  const help = spawnSync(vivaref, ['serve', '--help'], { encoding: 'utf8' });
  const args = ['serve', '--hardware=sim', '--listen', '127.0.0.1:0', '--db', join(dir, 'games.sqlite')];
  let tokenInUse = '';
  if (/--config/.test(`${help.stdout}${help.stderr}`)) {
    const config = join(dir, 'castle.ini');
    writeFileSync(config, `[castle]\nedition = ${edition === '2024' ? '2024' : 'classic'}\n\n[daemon]\nhardware = sim\nhost_token = ${hostToken}\nstate_dir = ${dir}\n`);
    args.push('--config', config);
    tokenInUse = hostToken;
  }
  let child = null;
  let output = '';
  // Spawns serve with `listenArgs` and resolves to its address once it listens.
  const launch = (launchArgs) => {
    child = spawn(vivaref, launchArgs, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, VIVAREF_DB: join(dir, 'games.sqlite') } });
    const started = output.length;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`serve printed no address within ${timeoutMs} ms:\n${output}`)), timeoutMs);
      const look = (chunk) => {
        output += chunk.toString();
        const fresh = output.slice(started);
        const m = fresh.match(/https?:\/\/(127\.0\.0\.1|localhost|\[::1\]):(\d+)/) || fresh.match(/(127\.0\.0\.1):(\d+)/);
        if (m && Number(m[2]) > 0) {
          clearTimeout(timer);
          resolve(`http://127.0.0.1:${m[2]}`);
        }
      };
      child.stdout.on('data', look);
      child.stderr.on('data', look);
      child.on('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`serve exited (${code}) before listening:\n${output}`));
      });
    });
  };
  const url = await launch(args);
  const terminate = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    await new Promise((r) => {
      const t = setTimeout(() => { child.kill('SIGKILL'); r(); }, 5000);
      child.on('exit', () => { clearTimeout(t); r(); });
    });
  };
  const stop = async () => {
    await terminate();
    rmSync(dir, { recursive: true, force: true });
  };
  // Stops serve (SIGTERM) and starts it again on the same port and log:
  // what a restart by systemd looks like to the pages.
  const restart = async () => {
    await terminate();
    const port = new URL(url).port;
    const again = args.map((a) => (a === '127.0.0.1:0' ? `127.0.0.1:${port}` : a));
    await launch(again);
  };
  // What the daemon says its host token is (empty: open), from /api/info.
  const info = await (await fetch(`${url}/api/info`)).json();
  return { url, get pid() { return child.pid; }, get child() { return child; }, dir, hostToken: info.hostTokenRequired ? tokenInUse : '', stop, restart, log: () => output };
}

// Fetch helpers against the daemon.
export async function api(url, path, { method = 'GET', body, token } = {}) {
  const headers = {};
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = `Bearer ${token}`;
  const r = await fetch(`${url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await r.text();
  let json = null;
  try {
    json = JSON.parse(text);
  } catch {
    json = null;
  }
  return { status: r.status, text, json };
}
