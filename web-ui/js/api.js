// Talking to the daemon: JSON over HTTP (web-ui/API.md) and the live event
// stream. Every failure becomes an ApiError: the daemon's sentence as its
// message and, when the answer carried one, its message as `says`
// ({code, args}), so a page shows sayOr(error.says, error.message) in its
// reader's language.
import { announce } from './announce.js';
import { say } from './words.js';

const kHostTokenKey = 'vivaref-host-token';

export class ApiError extends Error {
  // `says`: the sentence as a message (API.md), where the daemon gives one,
  // for a page to render in its reader's language (words.js); else null.
  constructor(status, code, message, says = null) {
    super(message);
    this.status = status;
    this.code = code;
    this.says = says;
  }
}

// A message of this module in the page's words; its English when the page
// has no words (a page that has not loaded them, or could not: the daemon
// was unreachable when it opened).
function sayOrEnglish(message, english) {
  const text = say(message);
  return text === `[${message.code}]` ? english : text;
}

// A daemon that cannot be reached (the network, a restart): said in the
// page's words rather than the browser's "Failed to fetch".
async function reach(path, options) {
  try {
    return await fetch(path, options);
  } catch {
    const says = { code: 'page.api.unreachable', args: {} };
    throw new ApiError(0, 'unreachable', sayOrEnglish(says, 'The referee cannot be reached.'), says);
  }
}

async function answerOf(response) {
  let body = null;
  try {
    body = await response.json();
  } catch {
    body = null;
  }
  if (!response.ok) {
    const code = body && body.error ? body.error : `http-${response.status}`;
    // An answer without a sentence: its status, said as a message too.
    const bare = body && body.message ? null : { code: 'page.api.answered', args: { status: { text: String(response.status) } } };
    const says = body && body.says && body.says.code ? body.says : bare;
    const message = body && body.message ? body.message : sayOrEnglish(bare, `The daemon answered ${response.status}.`);
    throw new ApiError(response.status, code, message, says);
  }
  return body;
}

// The host's secret goes with the host's requests and with the simulated
// castle's (its pieces and keys are the host's too).
const needsHost = (path, host) => host || String(path).startsWith('/api/sim/');

// A request with the host's secret kept now (or none): a 401 refuses the
// secret it carried. When the page has taken another since (the host typed
// it while the request was on its way), the refusal says nothing of the one
// kept now: the error says so (`staleSecret`), and the page stays unlocked.
async function withSecret(useHost, send) {
  const sent = useHost ? hostToken() : '';
  try {
    return await send(useHost && sent ? { Authorization: `Bearer ${sent}` } : {});
  } catch (e) {
    if (useHost && e instanceof ApiError && e.status === 401) e.staleSecret = sent !== hostToken();
    throw e;
  }
}

export async function getJson(path, { host = false } = {}) {
  return withSecret(needsHost(path, host), async (headers) => answerOf(await reach(path, { headers, cache: 'no-store' })));
}

export async function postJson(path, body = {}, { host = false } = {}) {
  return withSecret(needsHost(path, host), async (secret) => answerOf(await reach(path, {
    method: 'POST', headers: { 'Content-Type': 'application/json', ...secret }, body: JSON.stringify(body),
  })));
}

// A host-only file (a player's QR code) as a Blob; failures as from getJson.
export async function getHostBlob(path) {
  return withSecret(true, async (headers) => {
    const response = await reach(path, { headers, cache: 'no-store' });
    if (!response.ok) await answerOf(response);
    return response.blob();
  });
}

// The host's secret is kept on this device (localStorage): the host opens
// the host's link once (host.html#SECRET, or sim.html#SECRET on the
// simulated castle) and the page works there from then on. The secret is
// taken out of the address bar at once, so it is not shown or bookmarked.
export function hostToken() {
  try {
    return localStorage.getItem(kHostTokenKey) || '';
  } catch {
    return '';
  }
}
export function setHostToken(token) {
  try {
    if (token) localStorage.setItem(kHostTokenKey, token);
    else localStorage.removeItem(kHostTokenKey);
  } catch {
    /* private mode without storage: the page asks again */
  }
}

// On the host's and the simulated castle's pages, a secret after the # is
// the host's link: kept, then taken out of the address.
function adoptHostLink() {
  if (typeof window === 'undefined' || !window.location) return;
  const { pathname, hash } = window.location;
  if (!/\/(host|host-tools|sim|castle|setup)\.html$/.test(pathname) || hash.length < 2) return;
  let secret = hash.slice(1);
  try {
    secret = decodeURIComponent(secret);
  } catch {
    return;
  }
  if (!secret.trim()) return;
  setHostToken(secret.trim());
  history.replaceState(null, '', pathname + window.location.search);
}
adoptHostLink();

// Live updates from GET /api/events. `handlers` maps an event kind ("status",
// "sim") to a function of its parsed JSON; `open`, if given, is called at
// each (re)connection. `banner` (an element) is shown
// while the stream is down; EventSource reconnects by itself. Returns a
// function that closes the stream.
export function liveEvents(handlers, banner) {
  let source = null;
  let closed = false;
  let retryTimer = null;

  // The banner is no live region of its own: the page's one announcement
  // area says it (js/announce.js).
  const show = (text) => {
    if (!banner) return;
    if (text && banner.textContent !== text) announce(text);
    else if (!text && banner.textContent) announce(sayOrEnglish({ code: 'page.a11y.reconnected', args: {} }, 'Connected to the referee again.'));
    banner.textContent = text;
    banner.classList.toggle('hidden', !text);
  };

  const open = () => {
    source = new EventSource('/api/events');
    source.onopen = () => show('');
    source.onerror = () => {
      if (closed) return;
      show(sayOrEnglish({ code: 'page.api.reconnecting', args: {} }, '⟳ Connection to the referee lost — reconnecting…'));
      // EventSource retries by itself unless the server answered with an
      // error status (then it gives up, readyState CLOSED): start again.
      if (source.readyState === EventSource.CLOSED && !retryTimer) {
        retryTimer = setTimeout(() => {
          retryTimer = null;
          if (!closed) open();
        }, 2000);
      }
    };
    for (const [kind, handler] of Object.entries(handlers)) {
      // `open`: called at each (re)connection, before that connection's events.
      if (kind === 'open') {
        source.addEventListener('open', () => handler());
        continue;
      }
      source.addEventListener(kind, (event) => {
        let data;
        try {
          data = JSON.parse(event.data);
        } catch {
          return;
        }
        handler(data);
      });
    }
  };
  open();
  return () => {
    closed = true;
    if (retryTimer) clearTimeout(retryTimer);
    if (source) source.close();
  };
}

// Escapes text for innerHTML (names come from the host's form).
export function esc(text) {
  return String(text ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
}
