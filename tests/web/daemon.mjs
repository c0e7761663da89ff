// Starting the real `vivaref serve` on the simulated castle for the browser
// test and the benchmark: a fresh game log in a temporary directory, a
// port the kernel picks, and the address read from what serve prints.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const kHostToken = 'web-test-host-token-0123456789abcdef';

// The host token of each daemon startServe started, by its URL: api() sends
// it on /api/sim/ requests that name no token (the simulated castle's pieces
// and keys are the host's; see api()).
const kTokens = new Map();

// Why serve cannot be run, or null. `serve --help` must name --listen.
export function serveMissing(vivaref) {
  if (!vivaref || !existsSync(vivaref)) return `the vivaref binary ${vivaref || '(none given)'} is missing`;
  const help = spawnSync(vivaref, ['serve', '--help'], { encoding: 'utf8', timeout: 10000 });
  const text = `${help.stdout || ''}${help.stderr || ''}`;
  if (help.status !== 0 || !/--listen/.test(text)) return '`vivaref serve --help` does not offer --listen: serve is not built yet';
  return null;
}

// Starts serve; resolves to {url, pid, hostToken, hostLink, simLink, stop(),
// log()}. With a castle configuration naming `hostToken` as its host_token;
// `hostToken: ''` names none, so serve makes its host secret in the test's
// state directory (as the Quick start and the packaged service do) and
// `hostToken` is that secret. Every host route and every /api/sim/ POST
// needs it; `hostLink` and `simLink` open host.html and sim.html with it,
// as the links serve prints. `parent`: the folder the temporary directory
// is made in (default the system's); `command`: words put before the
// binary (e.g. ['prlimit', '--nofile=48']) to run serve under them;
// `prepare(dbFile)`: called before serve starts, to fill its game log (e.g.
// with `vivaref simulate --db`); `extraArgs`: more options for serve;
// `castleConfig`: lines added to its [castle] section (e.g. `fields = ...`).
// `listen`: serve's --listen (default 127.0.0.1:0; '0.0.0.0:0' listens on
// every interface, still reached at 127.0.0.1).
// `extraConfig`: text added to the end of its castle configuration (e.g. a
// `[club]` section). `castleSections`: the castle's own sections instead of
// the [castle] above (e.g. the example castle's readers, keys and LEDs),
// without a [daemon] section: the simulated castle then has that layout.
// `hardware`: serve's --hardware (null: none, the configuration's `hardware
// = sim` then rules, and a castle applied later may switch it); `env`: more
// environment variables for serve (e.g. NOTIFY_SOCKET, as under systemd).
export async function startServe(vivaref, { edition = 'classic', hardware = 'sim', env = {}, hostToken = kHostToken, timeoutMs = 30000, parent = tmpdir(), command = [], prepare = null, extraArgs = [], extraConfig = '', castleConfig = '', castleSections = '', listen = '127.0.0.1:0' } = {}) {
  const dir = mkdtempSync(join(parent, 'vivaref-web-'));
  if (prepare) prepare(join(dir, 'games.sqlite'));
  const args = ['serve', ...(hardware ? [`--hardware=${hardware}`] : []), '--listen', listen, '--db', join(dir, 'games.sqlite'), ...extraArgs];
  // Not castle.ini: that is the name of the castle the host page's set-up saves in the state directory.
  const config = join(dir, 'vivaref.ini');
  const castle = castleSections || `[castle]\nedition = ${edition === '2024' ? '2024' : 'classic'}\n${castleConfig ? `${castleConfig}\n` : ''}`;
  writeFileSync(config, `${castle}\n[daemon]\nhardware = sim\nhost_token = ${hostToken || ''}\nstate_dir = ${dir}\n${extraConfig ? `\n${extraConfig}` : ''}`);
  args.push('--config', config);
  let tokenInUse = hostToken || '';
  let child = null;
  let output = '';
  // Spawns serve with `listenArgs` and resolves to its address once it listens.
  const launch = (launchArgs) => {
    const argv = [...command, vivaref, ...launchArgs];
    child = spawn(argv[0], argv.slice(1), { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, VIVAREF_DB: join(dir, 'games.sqlite'), ...env } });
    const started = output.length;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`serve printed no address within ${timeoutMs} ms:\n${output}`)), timeoutMs);
      const look = (chunk) => {
        output += chunk.toString();
        const fresh = output.slice(started);
        const m = fresh.match(/https?:\/\/(127\.0\.0\.1|0\.0\.0\.0|localhost|\[::1\]):(\d+)/) || fresh.match(/(127\.0\.0\.1):(\d+)/);
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
  // Stops serve and keeps its directory (SIGTERM, or `signal`).
  const halt = async (signal = 'SIGTERM') => {
    if (signal === 'SIGTERM') return terminate();
    if (child.exitCode !== null || child.signalCode !== null) return;
    const gone = new Promise((r) => child.on('exit', r));
    child.kill(signal);
    await gone;
  };
  const stop = async () => {
    await terminate();
    rmSync(dir, { recursive: true, force: true });
  };
  // Stops serve (SIGTERM, or `signal`: 'SIGKILL' for a crash or a power
  // cut) and starts it again on the same port and log: what a restart by
  // systemd looks like to the pages.
  const restart = async ({ signal = 'SIGTERM' } = {}) => {
    await halt(signal);
    const port = new URL(url).port;
    const again = args.map((a) => (a === listen && a.endsWith(':0') ? `${a.slice(0, -2)}:${port}` : a));
    await launch(again);
  };
  // No host_token configured: the secret serve made in the state directory.
  if (!tokenInUse) tokenInUse = readFileSync(join(dir, 'host-secret'), 'utf8').trim();
  kTokens.set(url, tokenInUse);
  const hostLink = `${url}/host.html#${tokenInUse}`;
  const simLink = `${url}/sim.html#${tokenInUse}`;
  return { url, get pid() { return child.pid; }, get child() { return child; }, dir, hostToken: tokenInUse, hostLink, simLink, stop, halt, restart, log: () => output };
}

// Fetch helpers against the daemon. `token`: sent as the host's
// (Authorization: Bearer). Left out (undefined) on an /api/sim/ path, the
// host token of the daemon startServe started at `url` is sent, so tests
// that move pieces and press keys need not name it; `token: ''` (or null)
// sends none, to check a refusal. Host routes (/api/host/) send only the
// token given: pass `token: server.hostToken`.
export async function api(url, path, { method = 'GET', body, token } = {}) {
  const headers = {};
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (token === undefined && path.startsWith('/api/sim/')) token = kTokens.get(url);
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
