// One announcement area per page, for those who hear the page rather than
// see it (a screen reader): a polite live region for what can wait its
// turn (an election opening, each vote coming in, a coronation) and an
// assertive one for what must interrupt (a refusal). Both are made once, the
// first time something is said, visually hidden; no other element of a page
// is a live region (web-ui/README.md, "Everyone at the table").
//
// `announceStatus(status)` is the status page's and a player's page's one
// hook: it keeps the status it saw last and says what changed. It never
// says a vote's card: who voted, never what.
import { characterArg, sayDaemon, seatName, withKinds } from './names.js';
import { say } from './words.js';

let regions = null;

function region(urgent) {
  if (!regions) {
    const make = (live, id) => {
      const node = document.createElement('div');
      node.id = id;
      node.className = 'visually-hidden';
      node.setAttribute('aria-live', live);
      node.setAttribute('aria-atomic', 'true');
      node.setAttribute('role', live === 'assertive' ? 'alert' : 'status');
      document.body.append(node);
      return node;
    };
    regions = { polite: make('polite', 'announce-polite'), urgent: make('assertive', 'announce-urgent') };
  }
  return urgent ? regions.urgent : regions.polite;
}

// Says `text` once: polite unless `urgent`. The same sentence twice is read
// twice (the region is emptied first, then filled on the next frame).
export function announce(text, { urgent = false } = {}) {
  if (!text) return;
  const node = region(urgent);
  if (node.textContent === text) {
    node.textContent = '';
    requestAnimationFrame(() => {
      node.textContent = text;
    });
  } else node.textContent = text;
}

let previous = null;

// A refusal's identity: a new one is announced, the same one redrawn is not.
function refusalKey(r) {
  return r ? JSON.stringify([r.code, r.says || r.message || '', r.at ?? null]) : '';
}

// What changed between the last status and `next`, in sentences: the
// first status a page sees only sets the base (its content is on the page).
export function statusAnnouncements(prev, next) {
  const polite = [];
  const urgent = [];
  if (!prev || !next) return { polite, urgent };
  const players = next.players || [];
  const e = next.election;
  const pe = prev.election;
  if (e && (!pe || pe.candidate !== e.candidate || (pe.voted || []).length > (e.voted || []).length)) {
    polite.push(say('page.a11y.election-open', { c: characterArg(e.candidate) }));
  } else if (e && pe) {
    const before = new Set(pe.voted || []);
    for (const seat of e.voted || []) {
      if (!before.has(seat)) polite.push(say('page.a11y.voted', { who: { text: seatName(seat, players) } }));
    }
  }
  const r = (next.view || {}).last_reveal;
  const pr = (prev.view || {}).last_reveal;
  if (r && JSON.stringify(r) !== JSON.stringify(pr || null)) {
    polite.push(r.outcome === 'crowned'
      ? say('page.a11y.crowned', { c: characterArg(r.candidate) })
      : say('page.a11y.not-crowned', { c: characterArg(r.candidate) }));
  }
  if (next.refusal && refusalKey(next.refusal) !== refusalKey(prev.refusal)) {
    const why = next.refusal.says && next.refusal.says.code ? { message: withKinds(next.refusal.says) } : { text: next.refusal.message || next.refusal.code || '' };
    urgent.push(say('page.a11y.refused', { why }));
  }
  // The end of the game: who won (the winner moment shows it; ending.js).
  const standing = next.standing || [];
  if (standing.length && !(prev.standing || []).length) {
    const winners = standing.filter((s) => s.winner && s.name);
    polite.push(winners.length
      ? say('page.a11y.game-won', { who: { list: winners.map((s) => ({ player: s.name })) }, n: winners.length, score: Number(winners[0].result ?? winners[0].score ?? 0) })
      : say('page.a11y.game-over'));
  }
  // Whose turn it is, when nothing else was said: a move accepted.
  if (!polite.length && !urgent.length && next.state !== 'no-game') {
    const waiting = sayDaemon(next.waiting_says, next.waiting_for);
    const waited = sayDaemon(prev.waiting_says, prev.waiting_for);
    if (waiting && waiting !== waited) polite.push(waiting);
  }
  return { polite, urgent };
}

// The status page's and a player's page's hook: called with each status.
export function announceStatus(status) {
  if (!status || typeof status !== 'object') return;
  const { polite, urgent } = statusAnnouncements(previous, status);
  previous = status;
  if (polite.length) announce(polite.join(' '));
  if (urgent.length) announce(urgent.join(' '), { urgent: true });
}
