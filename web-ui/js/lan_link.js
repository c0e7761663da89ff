// The host page opened at 127.0.0.1 (or localhost, ::1): an address only
// the castle's own computer reaches. Its players' links would send each
// phone to itself, so the page says so and shows the link phones open
// instead: the first of GET /api/info's `table.links` (the machine's
// address on the table's network; the daemon makes the players' QR codes
// for it too). When the daemon listens on 127.0.0.1 only, or the machine
// has no network yet, it says what to do. Nothing is shown on any other
// address. The links are the castle's own addresses, never a secret.
import { esc, getJson } from './api.js';
import { say, sayHtml } from './words.js';

// Whether `hostname` (as location.hostname gives it) is this machine's loopback.
export function isLoopbackName(hostname) {
  const name = String(hostname || '').toLowerCase().replace(/^\[|\]$/g, '');
  return name === 'localhost' || name === '::1' || /^127\.\d+\.\d+\.\d+$/.test(name);
}

const code = (text) => `<code data-words-skip>${esc(text)}</code>`;

// Puts the warning at the top of the page's <main>, when the page is on a
// loopback address. Returns the element, or null when none is needed.
export async function showLanLink(where = window.location) {
  if (!isLoopbackName(where.hostname)) return null;
  let info;
  try {
    info = await getJson('/api/info');
  } catch {
    return null;  // the page's other requests say what is wrong
  }
  const table = info.table || {};
  const links = table.links || [];
  const here = where.host;
  let html;
  if (links.length) {
    const link = links[0];
    html = sayHtml('page.lan.opened-here', {}, {
      here: code(here), link: `<a class="lan-link" href="${esc(link)}" data-words-skip>${esc(link)}</a>`,
    });
  } else if (table.loopback_only) {
    const port = where.port || '80';
    html = sayHtml('page.lan.loopback-only', {}, {
      here: code(here), command: code(`vivaref serve --listen 0.0.0.0:${port}`),
    });
  } else if (table.no_network) {
    html = esc(say('page.lan.no-network'));
  } else {
    return null;  // an older daemon: it says nothing of its addresses
  }
  const card = document.createElement('section');
  card.id = 'lan-link';
  card.className = 'card notice';
  card.setAttribute('role', 'note');
  card.innerHTML = `<div>${html}</div>`;
  const main = document.querySelector('main');
  main.prepend(card);
  return card;
}
