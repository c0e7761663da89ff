// A coronation's moment on the status page: when a King is crowned and the
// game goes on, a panel says who is crowned, who brought them to the throne,
// the round's points and the standings, before the castle is cleared for the
// next round. Drawn from the public status only: the last reveal, the scored
// rounds (`view.finished_rounds`, `score_breakdown`) and the clearing guidance.
//
// How long it holds (web-ui/README.md, "A coronation's moment"): while the
// castle still stands as the crowning left it (no piece taken off yet: the
// clearing's guidance lists as many as it `started_with`), and at least
// kMinHoldMs from when this page first showed it, so a quick hand does not
// take it away before anyone has read it. A page opened after the first
// piece came off shows the clearing instead.
import { esc } from './api.js';
import { characterArg, playerHtml, seatHtml } from './names.js';
import { say, sayHtml } from './words.js';

export const kMinHoldMs = 6000;

let seen = null; // {key, at, fromStart}: when this page first saw the moment, and whether the castle was untouched then

// The last coronation of the round just scored, if the status is right
// after it: the round scored (not waiting for the cards), the game not
// over, the next round dealt but not begun. (The new round's view has no
// `last_reveal` any more: the breakdown says who was crowned.)
function latestCoronation(status) {
  const view = status.view || {};
  if (status.state !== 'playing' && status.state !== 'paused') return null;
  if (status.reveal || (status.standing || []).length) return null;
  const rounds = status.score_breakdown || [];
  const round = rounds[rounds.length - 1];
  if (!round || Number(round.round) !== Number(view.round) - 1) return null;
  const coronations = round.coronations || [];
  const crowning = coronations[coronations.length - 1];
  if (!crowning) return null;
  // Between rounds: the castle to clear, or the next deal or Ambition cards awaited.
  const between = status.guidance || ['deal', 'ambition', 'reshuffle'].includes(view.phase);
  if (!between) return null;
  return { round, crowning, index: coronations.length };
}

// Whether the castle still stands as the crowning left it: the clearing's
// guidance has as many pieces to take off as it began with (`started_with`).
// Before the deal there is no guidance yet: nothing has been cleared.
function untouched(status) {
  const g = status.guidance;
  if (!g) return (status.view || {}).phase === 'deal';
  const left = (g.moves || []).length;
  return left > 0 && left >= (g.started_with ?? left);
}

// {html, heldFor} when the moment is to be shown now, else null; `heldFor`:
// ms until it ends by itself (null: until the castle changes). `now` in ms.
export function coronationMoment(status, now = performance.now()) {
  const found = latestCoronation(status || {});
  if (!found) {
    seen = null;
    return null;
  }
  const key = `${status.game}:${found.round.round}:${found.index}`;
  const standing = untouched(status);
  // A page opened once the clearing has begun does not show the moment.
  if (!seen || seen.key !== key) seen = { key, at: now, fromStart: standing };
  if (standing) return { html: momentHtml(status, found), heldFor: null };
  const rest = kMinHoldMs - (now - seen.at);
  if (seen.fromStart && rest > 0) return { html: momentHtml(status, found), heldFor: rest };
  return null;
}

// A player's name with "(bot)" for a seat the referee plays.
export function playerMarked(player, players) {
  const p = (players || []).find((q) => q.player === player);
  const html = playerHtml(player, players);
  return p && p.bot ? sayHtml('page.words.bot-seat', { seat: { html } }) : html;
}

function momentHtml(status, { round, crowning }) {
  const view = status.view || {};
  const players = status.players || [];
  const scored = (view.finished_rounds || []).find((r) => r.round === round.round) || {};
  const points = scored.scores || [];
  const totals = view.totals || [];
  const rows = players.map((p) => ({ p, points: points[p.player] ?? 0, total: totals[p.player] ?? 0 }))
    .sort((a, b) => b.total - a.total || a.p.player - b.p.player);
  let place = 0;
  const body = rows.map((r, i) => {
    if (i === 0 || rows[i - 1].total !== r.total) place = i + 1;
    const plus = r.points > 0 ? `+${r.points}` : String(r.points);
    return `<tr data-player="${r.p.player}"><td class="num">${esc(say('page.end.place', { n: place }))}</td><td>${playerMarked(r.p.player, players)}</td>`
      + `<td class="num moment-points" data-points="${r.points}">${esc(plus)}</td><td class="num"><b>${esc(r.total)}</b></td></tr>`;
  });
  if (view.emissary_total !== undefined) {
    const e = scored.emissary_score ?? 0;
    body.push(`<tr data-emissary="1"><td></td><td>${esc(say('page.end.the-emissary'))}</td><td class="num moment-points">${esc(e > 0 ? `+${e}` : String(e))}</td><td class="num"><b>${esc(view.emissary_total)}</b></td></tr>`);
  }
  // A round of several coronations (a royal couple): every one crowned, in order.
  const kings = (round.coronations || []).filter((k) => k.king).map((k) => characterArg(k.king));
  const head = kings.length > 1
    ? sayHtml('page.status.moment.crowned-several', { kings: { list: kings } })
    : sayHtml('page.status.moment.crowned', { c: characterArg(crowning.king) });
  const by = kings.length <= 1 && crowning.crown !== undefined && crowning.crown !== null
    ? `<div class="moment-by">${sayHtml('page.status.moment.by', { seat: { html: seatHtml(crowning.crown, players) } })}</div>` : '';
  return `<div class="moment-head">♛ <span id="moment-king">${head}</span></div>${by}
    <table class="moment-table"><thead><tr><th></th><th>${esc(say('page.status.player'))}</th>`
    + `<th class="num">${esc(say('page.status.moment.round-points', { round: Number(round.round) }))}</th><th class="num">${esc(say('page.status.total'))}</th></tr></thead>`
    + `<tbody>${body.join('')}</tbody></table>`;
}
