// The public status page: what any screen beside the castle may show. It
// draws only the public status (GET /api/status and the "status" event):
// never a hand, a favourites card or a vote before its reveal.
import { esc, getJson, liveEvents } from './api.js';
import { drawCastle, legendHtml, tokensFromStatus } from './castle.js';
import { renderEnding } from './ending.js';
import { pageVoice } from './voice_page.js';
import { characterName, kOutcomeWords, kPhaseWords, placeName, playerName, seatName, seatNumber, setRoster, voteWord } from './names.js';

const $ = (id) => document.getElementById(id);
let renders = 0;

function seatsOf(status) {
  const seats = new Set((status.players || []).map((p) => p.seat));
  return [...seats].sort((a, b) => a - b);
}

function show(id, html) {
  const node = $(id);
  node.innerHTML = html || '';
  node.classList.toggle('hidden', !html);
}

function restoreList(moves) {
  if (!moves || !moves.length) return '';
  const items = moves.map((m) => {
    const who = `<b>${esc(characterName(m.character))}</b>`;
    if (m.to === null || m.to === undefined) return `<li>Take ${who} off the castle.</li>`;
    const from = m.seen && m.seen.startsWith('on ') ? ` from ${esc(placeName(m.seen.slice(3)))}` : '';
    return `<li>Put ${who}${from} on <b>${esc(placeName(m.to))}</b>.</li>`;
  });
  return `<ul>${items.join('')}</ul>`;
}

function renderTop(status) {
  const view = status.view || {};
  const players = status.players || [];
  const parts = [];
  if (status.game) parts.push(`Game ${status.game}`);
  if (status.edition) parts.push(status.edition === '2024' ? 'Vive le Roi! (2024)' : status.edition === 'online' ? 'online preset' : 'Viva il Re!');
  if (status.variant && status.variant !== 'none') parts.push(`variant ${status.variant}`);
  if (view.round) parts.push(`round ${view.round} of ${view.rounds}`);
  // While the cards are awaited the engine's phase is already the next deal
  // (or the game's end): say what the table is doing instead.
  if (status.reveal) parts.push('Cards to enter');
  else if (view.phase) parts.push(kPhaseWords[view.phase] || view.phase);
  if (status.state && status.state !== 'playing') parts.push(status.state.toUpperCase());
  $('game-line').textContent = parts.length ? parts.join(' · ') : 'No game yet';

  const waiting = status.state === 'no-game' ? 'No game yet: the host starts one on the Host page.' : status.waiting_for || '';
  $('waiting').textContent = waiting;
  let turn = '';
  if (view.to_act && view.to_act.length && (view.phase === 'placement' || view.phase === 'ascent')) {
    turn = `To play: ${view.to_act.map((s) => `<span class="turn-chip">▶ ${esc(seatName(s, players))}</span>`).join(' ')}`;
  }
  // A bot's move, for anyone at the table to make (the LEDs show it too).
  // The sentence itself is the waiting line above.
  if (status.bot_plan) turn = `<span id="bot-plan" class="turn-chip">▶ ${esc(seatName(status.bot_plan.seat, players))}: its destination is lit on the castle</span>`;
  $('turn').innerHTML = turn;
  $('last-action').textContent = status.last_action ? `Last: ${status.last_action}` : '';
}

// While Ambition cards are kept: who still has to tap one on their phone,
// by name. The status never says which card anyone kept.
function renderAmbitionWaiting(status) {
  const waiting = status.ambition_waiting || [];
  if (!waiting.length || (status.view || {}).phase !== 'ambition') return;
  const chips = waiting.map((w) => `<span class="turn-chip" data-player="${esc(w.player)}">… ${esc(w.name)}: to choose</span>`).join(' ');
  $('turn').innerHTML = `<span id="ambition-waiting">Still choosing an Ambition card on their phone: ${chips}</span>`;
}

function renderNotices(status) {
  const r = status.refusal;
  if (r) {
    show('refusal', `<div class="title">⚠ Not allowed: ${esc(r.message || r.code)}</div>
      <div class="small muted">Rule: ${esc(r.code)}</div>
      <div>To go on, put the board back:</div>${restoreList(r.restore)}`);
  } else show('refusal', '');
  const g = status.guidance;
  if (g) show('guidance', `<div class="title">➜ Please set the board</div>${restoreList(g.moves)}`);
  else show('guidance', '');
}

// A table with physical Favourites cards: at a coronation the referee waits
// for the host to enter the cards the players show; the totals are those
// before that coronation until then.
function renderCardsCall(status) {
  const r = status.reveal;
  if (!r) {
    show('reveal-pending', '');
    return;
  }
  const what = [r.favourites ? 'Favourites cards' : '', r.ambitions ? 'kept Ambition cards' : ''].filter(Boolean).join(' and ') || 'cards';
  show('reveal-pending', `<div class="title">♥ Show your ${esc(what)}: the host is entering them</div>
    <div>Round ${esc(r.round)} is over. The scores below are those before this coronation: scores after the cards are entered.</div>`);
}

function renderElection(status) {
  const e = status.election;
  const players = status.players || [];
  if (!e) {
    show('election', '');
    return;
  }
  const voted = new Set(e.voted || []);
  const seats = seatsOf(status);
  const chips = seats.map((s) => voted.has(s)
    ? `<li class="voted" data-seat="${s}" data-voted="yes">✔ ${esc(seatName(s, players))}: voted</li>`
    : `<li class="to-vote" data-seat="${s}" data-voted="no">… ${esc(seatName(s, players))}: to vote</li>`);
  show('election', `<h2>♛? Election</h2>
    <div class="big">${esc(characterName(e.candidate))} is on the throne</div>
    <div class="muted">Moved there by ${esc(seatName(e.crown_holder, players))}. Votes stay secret until the last one is in.</div>
    <ul class="seat-list" id="voters">${chips.join('')}</ul>`);
}

function renderReveal(status) {
  const view = status.view || {};
  const r = view.last_reveal;
  const players = status.players || [];
  if (!r) {
    show('reveal', '');
    return;
  }
  const votes = (r.votes || []).map((card, seat) =>
    `<li class="vote-${esc(card)}" data-seat="${seat}" data-card="${esc(card)}">${esc(seatName(seat, players))}: <b>${esc(voteWord(card))}</b></li>`);
  if (r.emissary_vote) votes.push(`<li class="vote-${esc(r.emissary_vote)}">Emissary: <b>${esc(voteWord(r.emissary_vote))}</b></li>`);
  const where = r.outcome === 'crowned' ? '' : ` → ${esc(placeName(r.sent_to))}`;
  show('reveal', `<h2>Last election: the votes</h2>
    <div class="big" id="reveal-outcome">${esc(characterName(r.candidate))}: ${esc(kOutcomeWords[r.outcome] || r.outcome)}${where}</div>
    <ul class="seat-list">${votes.join('')}</ul>`);
}

function renderScores(status) {
  const view = status.view || {};
  const players = status.players || [];
  if (!players.length) {
    $('scores').textContent = 'No game yet.';
    return;
  }
  const rounds = view.finished_rounds || [];
  const winners = new Set(view.winners || []);
  const pending = status.reveal;
  const totalHead = pending ? `Total before round ${esc(pending.round)}'s cards` : 'Total';
  const head = `<tr><th>Player</th>${rounds.map((r) => `<th class="num">R${r.round}</th>`).join('')}<th class="num">${totalHead}</th></tr>`;
  const rows = players.map((p) => {
    const cells = rounds.map((r) => `<td class="num">${r.scores ? r.scores[p.player] ?? '' : ''}</td>`).join('');
    const total = view.totals ? view.totals[p.player] ?? 0 : 0;
    const mark = winners.has(p.player) && !pending ? ' ★ winner' : '';
    return `<tr><td>${esc(playerName(p.player, players))} <span class="muted small">seat ${seatNumber(p.seat)}</span>${mark}</td>${cells}<td class="num"><b>${total}</b></td></tr>`;
  });
  if (view.emissary_total !== undefined)
    rows.push(`<tr><td>Emissary</td>${rounds.map((r) => `<td class="num">${r.emissary_score ?? ''}</td>`).join('')}<td class="num"><b>${view.emissary_total}</b></td></tr>`);
  const kings = rounds.filter((r) => r.kings && r.kings.length).map((r) => `Round ${r.round}: ♛ ${r.kings.map(characterName).join(', ')}`);
  // Favourites cards are public once revealed at scoring.
  const cards = (view.revealed_favourites || []).map((card, p) => card && card.favourites
    ? `<li>${esc(playerName(p, players))}: ${esc(card.favourites.map(characterName).join(', '))}${card.banished ? ` (banished: ${esc(characterName(card.banished))})` : ''}</li>` : '');
  const wait = pending ? `<div class="provisional" id="scores-provisional">⚠ Not final: scores after the cards are entered.</div>` : '';
  $('scores').innerHTML = `${wait}<table${pending ? ' class="provisional-table"' : ''}>${head}${rows.join('')}</table>${kings.length ? `<div class="small">${esc(kings.join(' · '))}</div>` : ''}${
    cards.join('') ? `<div class="small"><b>Favourites, revealed:</b><ul class="plain">${cards.join('')}</ul></div>` : ''}`;
}

function renderHealth(status) {
  const log = status.log || {};
  const readers = status.readers || {};
  const items = [];
  if (!log.kept) items.push('<li class="health-bad">The game is not being logged.</li>');
  else if (log.durable === false || log.problem)
    items.push(`<li class="health-bad">${esc(status.log_problem || `Game log: ${log.problem || 'not written to disk'}`)}${log.waiting ? ` (${log.waiting} rows waiting in memory)` : ''}</li>`);
  else items.push('<li class="health-ok">Game log: every action saved to disk.</li>');
  const faulty = readers.faulty || [];
  if (faulty.length) {
    const blind = (readers.blind_places || []).map(placeName).join(', ');
    items.push(`<li class="health-bad">Faulty readers: ${esc(faulty.join(', '))}${blind ? `; moves touching ${esc(blind)} wait` : ''}</li>`);
  } else items.push('<li class="health-ok">Readers: all answering.</li>');
  if (readers.unknown_tags) items.push(`<li class="health-bad">${readers.unknown_tags} unknown tag(s) on the castle.</li>`);
  const club = status.club;
  if (club) {
    const when = (ms) => (ms ? new Date(ms).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' }) : '');
    const games = (n) => `${n} game${n === 1 ? '' : 's'}`;
    if (!club.waiting) items.push(`<li class="health-ok" id="club-health">Club (table ${esc(club.table)} at ${esc(club.server)}): every ended game sent${club.last_success_ms ? `, last at ${when(club.last_success_ms)}` : ''}.</li>`);
    else items.push(`<li class="health-bad" id="club-health">Club (table ${esc(club.table)} at ${esc(club.server)}): ${games(club.waiting)} wait to be sent${club.last_error ? ` (last try ${when(club.last_attempt_ms)}: ${esc(club.last_error)})` : ''}${club.next_try_ms ? `; next try ${when(club.next_try_ms)}` : ''}.</li>`);
  }
  $('health').innerHTML = `<ul class="plain">${items.join('')}</ul>`;
}

export function render(status) {
  if (!status || typeof status !== 'object') return;
  setRoster(status.roster);
  renderTop(status);
  renderAmbitionWaiting(status);
  renderNotices(status);
  renderCardsCall(status);
  renderElection(status);
  renderReveal(status);
  renderScores(status);
  const mode = status.favourites_mode;
  $('favourites-mode').textContent = mode === 'physical' ? "Favourites cards: the players' own, revealed at each coronation." : mode === 'dealt' ? 'Favourites cards: dealt by the referee.' : '';
  renderHealth(status);
  renderEnding(status);
  if (status.board) {
    drawCastle($('castle'), { edition: status.edition, tokens: tokensFromStatus(status) });
  } else {
    $('castle').innerHTML = '';
  }
  // For the browser tests and the latency benchmark: when and what was drawn.
  renders += 1;
  document.body.dataset.renders = String(renders);
  document.body.dataset.state = status.state || '';
  window.dispatchEvent(new CustomEvent('vivaref:rendered', { detail: { at: performance.now(), status } }));
}

async function start() {
  $('legend').innerHTML = legendHtml();
  $('legend-more').innerHTML = legendHtml(); // a phone's: below the first screen
  try {
    const info = await getJson('/api/info');
    if (info.simulated) $('sim-link').classList.remove('hidden');
  } catch {
    /* the event stream's banner says the daemon is away */
  }
  liveEvents({
    status: render,
    spoken: (lines) => pageVoice && pageVoice.onSpoken(lines),
    open: () => pageVoice && pageVoice.reconnected(),
  }, $('banner'));
}

start();
