// The end of a game: the winner moment on the status page (a banner over the
// top of the screen with the winner and every final place and score), the
// per-round breakdown card below the scores, and on a player's page their
// place, score and the winner with their own breakdown. It reads only the
// public status's `standing` and `score_breakdown` (web-ui/API.md).
import { esc } from './api.js';
import { breakdownHtml } from './breakdown.js';

function node(id, make) {
  let n = document.getElementById(id);
  if (!n) {
    n = make();
    n.id = id;
  }
  return n;
}

const kOrdinal = (n) => {
  const tens = n % 100;
  if (tens >= 11 && tens <= 13) return `${n}th`;
  return `${n}${['th', 'st', 'nd', 'rd'][n % 10] || 'th'}`;
};

export function winnerNames(standing) {
  return standing.filter((s) => s.winner).map((s) => s.name);
}

function headline(status) {
  const standing = status.standing || [];
  const names = winnerNames(standing);
  if (!names.length) {
    const e = status.view && status.view.emissary_total;
    return `The Emissary wins${e !== undefined ? ` with ${e}` : ''}: everybody loses.`;
  }
  const score = standing.find((s) => s.winner).result;
  return names.length > 1 ? `${names.join(' and ')} share the win with ${score}` : `${names[0]} wins with ${score}`;
}

let dismissedFor = null;
let shownGame = null;

// The status page: call on every status.
export function renderEnding(status) {
  const standing = status.standing || [];
  const over = standing.length > 0;
  shownGame = status.game;
  const moment = node('winner-moment', () => {
    const n = document.createElement('div');
    n.setAttribute('role', 'status');
    n.className = 'winner-moment hidden';
    document.body.prepend(n);
    n.addEventListener('click', (e) => {
      if (e.target.closest('button')) {
        dismissedFor = shownGame;
        n.classList.add('hidden');
      }
    });
    return n;
  });
  if (over && dismissedFor !== status.game) {
    const rows = standing.map((s) => `<li data-player="${s.player}" class="${s.winner ? 'winner' : ''}"><span class="place">${esc(kOrdinal(s.place))}</span> <span class="who">${esc(s.name)}</span> <span class="score" data-score="${s.score}">${esc(s.score)}</span>${s.result !== s.score ? ` <span class="muted small">(team ${esc(s.result)})</span>` : ''}</li>`);
    const e = status.view && status.view.emissary_total;
    if (e !== undefined) rows.push(`<li data-emissary="1"><span class="place"></span> <span class="who">The Emissary</span> <span class="score">${esc(e)}</span></li>`);
    moment.innerHTML = `<div class="winner-head">♛ <span id="winner-line">${esc(headline(status))}</span></div><ol class="winner-places">${rows.join('')}</ol><button type="button" class="winner-close">Hide</button>`;
    moment.classList.remove('hidden');
  } else {
    moment.classList.add('hidden');
  }
  const scores = document.getElementById('scores');
  const card = node('breakdown-card', () => {
    const n = document.createElement('div');
    n.className = 'card hidden';
    const anchor = scores ? scores.closest('.card') : null;
    if (anchor) anchor.after(n);
    else document.querySelector('main')?.append(n);
    return n;
  });
  const html = breakdownHtml(status.score_breakdown, { players: status.players || [] });
  card.innerHTML = html ? `<h2>Why the rounds scored</h2><div id="breakdown">${html}</div>` : '';
  card.classList.toggle('hidden', !html);
}

// A player's page: call with the public status, or with this player's index
// once known (undefined: keep the one given before).
let lastStatus = null;
let lastPlayer = null;
export function renderPlayerEnding(newStatus, newPlayer) {
  if (newStatus !== undefined) lastStatus = newStatus;
  if (newPlayer !== undefined) lastPlayer = newPlayer;
  const status = lastStatus || {};
  const player = lastPlayer;
  const box = node('my-ending', () => {
    const n = document.createElement('section');
    n.className = 'card my-ending hidden';
    const host = document.getElementById('private');
    if (host) host.prepend(n);
    else document.querySelector('main')?.prepend(n);
    return n;
  });
  if (player === null || player === undefined) {
    box.classList.add('hidden');
    return;
  }
  const standing = status.standing || [];
  const me = standing.find((s) => s.player === player);
  const mine = breakdownHtml(status.score_breakdown, { only: player, players: status.players || [] });
  let head = '';
  if (me) {
    const winners = standing.filter((s) => s.winner);
    const who = winners.length ? winners.map((w) => `${w.name} (${w.result})`).join(' and ') : 'the Emissary';
    const verb = winners.length > 1 ? 'the winners are' : 'the winner is';
    head = me.winner
      ? `<p class="big" id="my-place">You won${winners.length > 1 ? ' (shared)' : ''}: ${esc(kOrdinal(me.place))} of ${standing.length} with ${esc(me.score)} points.</p>`
      : `<p class="big" id="my-place">You finished ${esc(kOrdinal(me.place))} of ${standing.length} with ${esc(me.score)} points; ${verb} ${esc(who)}.</p>`;
  }
  box.innerHTML = head || mine ? `<h2>${me ? 'The game is over' : 'My scores so far'}</h2>${head}${mine ? `<div id="my-breakdown">${mine}</div>` : ''}` : '';
  box.classList.toggle('hidden', !(head || mine));
}
