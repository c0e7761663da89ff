// The end of a game: the winner moment on the status page (a banner over the
// top of the screen with the winner and every final place and score), the
// per-round breakdown card below the scores, and on a player's page their
// place, score and the winner with their own breakdown. It reads only the
// public status's `standing` and `score_breakdown` (web-ui/API.md).
import { esc } from './api.js';
import { breakdownHtml } from './breakdown.js';
import { characterArg, nameHtml } from './names.js';
import { sayHtml } from './words.js';
import { say } from './words.js';

function node(id, make) {
  let n = document.getElementById(id);
  if (!n) {
    n = make();
    n.id = id;
  }
  return n;
}

// "1st", "1er", "1.", "1º": a place in the page's language.
const kOrdinal = (n) => say('page.end.place', { n: Number(n) });

export function winnerNames(standing) {
  return standing.filter((s) => s.winner).map((s) => s.name);
}

// A standing's name as HTML, with "(bot)" for a seat the referee plays.
function markedName(name, player, players) {
  const p = (players || []).find((q) => q.player === player);
  return p && p.bot ? sayHtml('page.words.bot-seat', { seat: { html: nameHtml(name) } }) : nameHtml(name);
}

// The winners' names, isolated, as one list in the page's language.
function namesHtml(names) {
  return { list: names.map((_, i) => ({ text: `\u0002${i}\u0002` })) };
}

function withNames(html, names, marked = nameHtml) {
  return html.replace(/\u0002(\d+)\u0002/g, (_, i) => marked(names[Number(i)], Number(i)));
}

// The winner moment's line, as HTML.
function headline(status) {
  const standing = status.standing || [];
  const names = winnerNames(standing);
  if (!names.length) {
    const e = status.view && status.view.emissary_total;
    return esc(e !== undefined ? say('page.end.emissary-wins-with', { score: e }) : say('page.end.emissary-wins'));
  }
  const winners = standing.filter((s) => s.winner);
  const score = winners[0].result;
  const marked = (name, i) => markedName(name, winners[i].player, status.players);
  if (names.length === 1) return sayHtml('page.end.wins', { who: { html: marked(names[0], 0) }, score });
  return withNames(sayHtml('page.end.share', { who: namesHtml(names), score }), names, marked);
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
    const rows = standing.map((s) => `<li data-player="${s.player}" class="${s.winner ? 'winner' : ''}"><span class="place">${esc(kOrdinal(s.place))}</span> <span class="who">${markedName(s.name, s.player, status.players)}</span> <span class="score" data-score="${s.score}">${esc(s.score)}</span>${s.result !== s.score ? ` <span class="muted small">${esc(say('page.end.team', { score: s.result }))}</span>` : ''}</li>`);
    const e = status.view && status.view.emissary_total;
    if (e !== undefined) rows.push(`<li data-emissary="1"><span class="place"></span> <span class="who">${esc(say('page.end.the-emissary'))}</span> <span class="score">${esc(e)}</span></li>`);
    // The last coronation, which ended the game: its moment is this one.
    const rounds = status.score_breakdown || [];
    const last = rounds.length ? (rounds[rounds.length - 1].coronations || []).slice(-1)[0] : null;
    const crowned = last && last.king ? `<div class="winner-crowned" id="winner-crowned">${sayHtml('page.status.moment.crowned', { c: characterArg(last.king) })}</div>` : '';
    moment.innerHTML = `${crowned}<div class="winner-head">♛ <span id="winner-line">${headline(status)}</span></div><ol class="winner-places">${rows.join('')}</ol><button type="button" class="winner-close">${esc(say('page.end.hide'))}</button>`;
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
  card.innerHTML = html ? `<h2>${esc(say('page.end.why'))}</h2><div id="breakdown">${html}</div>` : '';
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
    const args = { place: { text: kOrdinal(me.place) }, of: standing.length, score: me.score };
    let line;
    if (me.winner) line = esc(say(winners.length > 1 ? 'page.end.you-shared' : 'page.end.you-won', args));
    else if (!winners.length) line = esc(say('page.end.you-finished-emissary', args));
    else {
      // Each winner with their result: "Ann (24)".
      const names = winners.map((w) => `\u0002${winners.indexOf(w)}\u0002`);
      const who = { list: winners.map((w, i) => ({ text: say('page.end.name-score', { who: { text: names[i] }, score: w.result }) })) };
      line = withNames(esc(say('page.end.you-finished', { ...args, n: winners.length, who })), winners.map((w) => w.name),
        (name, i) => markedName(name, winners[i].player, status.players));
    }
    head = `<p class="big" id="my-place">${line}</p>`;
  }
  box.innerHTML = head || mine ? `<h2>${esc(me ? say('page.end.over') : say('page.end.so-far'))}</h2>${head}${mine ? `<div id="my-breakdown">${mine}</div>` : ''}` : '';
  box.classList.toggle('hidden', !(head || mine));
}
