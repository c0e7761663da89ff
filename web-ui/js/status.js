// The public status page: what any screen beside the castle may show. It
// draws only the public status (GET /api/status and the "status" event):
// never a hand, a favourites card or a vote before its reveal.
import { announceStatus } from './announce.js';
import { esc, getJson, liveEvents } from './api.js';
import { drawCastle, legendHtml, tokensFromStatus } from './castle.js';
import { coronationMoment, playerMarked } from './coronation.js';
import { renderEnding } from './ending.js';
import { followTable, pageLanguage, say, sayHtml, startWords } from './words.js';
import {
  characterArg, characterName, nameHtml, outcomeWord, phaseWord, placeName, sayDaemon, seatHtml, setRoster, variantWord, voteWord, withKinds,
} from './names.js';
import { pageVoice } from './voice_page.js';
import './teach.js'; // a table that teaches: the first-time rule, drawn after each render

const $ = (id) => document.getElementById(id);
let renders = 0;

function seatsOf(status) {
  const seats = new Set((status.players || []).map((p) => p.seat));
  return [...seats].sort((a, b) => a - b);
}

// Whether a seat plays from afar (the status's `seats`, issue 35).
function remoteSeat(seat, status) {
  return (status.seats || []).some((s) => s.seat === seat && s.remote);
}

// A seat as a chip names it: "Ann", or "Ann (from afar)" for a seat played from afar.
function seatChip(seat, status) {
  const who = seatHtml(seat, status.players || []);
  return remoteSeat(seat, status) ? sayHtml('page.status.from-afar', {}, { seat: who }) : who;
}

function show(id, html) {
  const node = $(id);
  node.innerHTML = html || '';
  node.classList.toggle('hidden', !html);
}

// A step of a list, as a sentence: its first letter a capital.
function sentence(text) {
  const language = pageLanguage();
  return text ? text.charAt(0).toLocaleUpperCase(language) + text.slice(1) : '';
}

// What to put back or set, one step a line: the daemon's words for each
// step (`do_says`), else the page's own.
function restoreList(moves) {
  if (!moves || !moves.length) return '';
  const items = moves.map((m) => {
    if (m.do_says && m.do_says.code) return `<li>${esc(sentence(sayDaemon(m.do_says, m.do)))}</li>`;
    const c = { html: `<b>${esc(characterName(m.character))}</b>` };
    if (m.to === null || m.to === undefined) return `<li>${sayHtml('page.status.take-off', { c })}</li>`;
    const to = { place: String(m.to) };
    if (m.seen && m.seen.startsWith('on ')) return `<li>${sayHtml('page.status.put-from', { c, from: { place: m.seen.slice(3) }, to })}</li>`;
    return `<li>${sayHtml('page.status.put-on', { c, to })}</li>`;
  });
  return `<ul>${items.join('')}</ul>`;
}

// The game line's parts: "Game 3 · Vive le Roi! (2024) · round 1 of 2 · Placement".
function editionWords(edition) {
  if (edition === '2024') return say('page.words.edition-2024');
  if (edition === 'online') return say('page.words.edition-online');
  return say('page.words.edition-classic');
}

// The game's state in words; never the API's own word ("no-game", "finished").
const kStateWords = {
  paused: () => say('page.status.state-paused'),
  finished: () => say('page.status.state-finished'),
  abandoned: () => say('page.status.state-abandoned'),
  'no-game': () => say('page.status.state-no-game'),
};

function renderTop(status) {
  const view = status.view || {};
  const players = status.players || [];
  const parts = [];
  if (status.game) parts.push(say('page.status.game', { game: { text: String(status.game) } })); // an id: no digit grouping
  if (status.edition) parts.push(editionWords(status.edition));
  if (status.variant && status.variant !== 'none') parts.push(say('page.status.variant', { variant: { text: variantWord(status.variant) } }));
  if (view.round) parts.push(say('page.status.round-of', { round: view.round, rounds: view.rounds }));
  // While the cards are awaited the engine's phase is already the next deal
  // (or the game's end): say what the table is doing instead.
  if (status.reveal) parts.push(say('page.status.cards-to-enter'));
  else if (view.phase && !(view.phase === 'game-over' && status.state === 'finished')) parts.push(phaseWord(view.phase));
  if (status.state && status.state !== 'playing' && kStateWords[status.state]) parts.push(kStateWords[status.state]());
  $('game-line').textContent = parts.length ? parts.join(' · ') : say('page.status.no-game');

  const waiting = status.state === 'no-game' ? say('page.status.no-game-start') : sayDaemon(status.waiting_says, status.waiting_for);
  $('waiting').textContent = waiting;
  // The game waits for a phone that stopped answering (issue 35): the
  // headline says it ("Waiting for Ann’s phone.") and stands out.
  $('waiting').classList.toggle('phone-away', Boolean(status.waiting_phone));
  let turn = '';
  // While the castle is being set (or cleared) the headline says who acts: everyone.
  if (!status.guidance && view.to_act && view.to_act.length && (view.phase === 'placement' || view.phase === 'ascent')) {
    const chips = view.to_act.map((s) => `<span class="turn-chip">▶ ${seatChip(s, status)}</span>`).join(' ');
    turn = sayHtml('page.status.to-play', { seats: { html: chips } });
  }
  // A bot's move, or one chosen from afar, for anyone at the table to make
  // (the LEDs show it too). The sentence itself is the waiting line above.
  const plan = status.plan || status.bot_plan; // `bot_plan`: its name before issue 35
  if (plan) turn = `<span id="bot-plan" class="turn-chip">▶ ${sayHtml('page.status.bot-lit', { seat: { html: seatChip(plan.seat, status) } })}</span>`;
  // The referee asks the host an order the readers missed (issue 35): the
  // table sees the question; the answer is the host's, on the host page.
  if (status.order_question) turn = `<span id="order-question">${esc(sayDaemon(status.order_question.says, status.order_question.text))}</span>`;
  $('turn').innerHTML = turn;
  const last = status.last_action_says && status.last_action_says.code ? { message: withKinds(status.last_action_says) } : { text: status.last_action || '' };
  $('last-action').textContent = status.last_action || last.message ? say('page.status.last', { action: last }) : '';
}

// While Ambition cards are kept: who still has to tap one on their phone,
// by name. The status never says which card anyone kept.
function renderAmbitionWaiting(status) {
  const waiting = status.ambition_waiting || [];
  if (!waiting.length || (status.view || {}).phase !== 'ambition') return;
  const chips = waiting.map((w) => `<span class="turn-chip" data-player="${esc(w.player)}">… ${sayHtml('page.status.to-choose', { who: { html: nameHtml(w.name) } })}</span>`).join(' ');
  $('turn').innerHTML = `<span id="ambition-waiting">${sayHtml('page.status.still-choosing', { chips: { html: chips } })}</span>`;
}

function renderNotices(status, held) {
  const r = status.refusal;
  if (r) {
    const why = r.says && r.says.code ? { message: withKinds(r.says) } : { text: r.message || r.code };
    show('refusal', `<div class="title">${sayHtml('page.status.not-allowed', { why })}</div>
      <div class="small muted">${sayHtml('page.status.rule', { code: { html: `<code data-words-skip>${esc(r.code)}</code>` } })}</div>
      <div>${esc(say('page.status.put-back'))}</div>${restoreList(r.restore)}`);
  } else show('refusal', '');
  const g = status.guidance;
  const moves = (g && g.moves) || [];
  const takeOff = moves.filter((m) => m.to === null || m.to === undefined);
  if (!g || held) show('guidance', '');
  else if (takeOff.length > 1) {
    // The castle cleared for a new round: one line and the count left, not a
    // line a piece; a piece to put somewhere (2024's Jester) keeps its line.
    const rest = moves.filter((m) => !takeOff.includes(m));
    show('guidance', `<div class="title" id="clear-castle">${esc(say('page.status.moment.clear', { n: takeOff.length }))}</div>${restoreList(rest)}`);
  } else show('guidance', `<div class="title">${esc(say('page.status.set-board'))}</div>${restoreList(moves)}`);
}

// The coronation's moment (js/coronation.js) first in the "now" column; the
// clearing's line waits under it. Drawn again when its hold ends.
let momentTimer = null;
let lastStatus = null;
function renderMoment(status) {
  const moment = coronationMoment(status);
  show('coronation', moment ? moment.html : '');
  document.body.classList.toggle('coronation-moment', Boolean(moment));
  clearTimeout(momentTimer);
  if (moment && moment.heldFor !== null) momentTimer = setTimeout(() => render(lastStatus), moment.heldFor + 50);
  return Boolean(moment);
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
  const cards = r.favourites && r.ambitions ? 'both' : r.favourites ? 'favourites' : r.ambitions ? 'ambitions' : 'other';
  show('reveal-pending', `<div class="title">${esc(say('page.status.show-cards', { cards: { text: cards } }))}</div>
    <div>${esc(say('page.status.cards-round', { round: Number(r.round) }))}</div>`);
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
    ? `<li class="voted" data-seat="${s}" data-voted="yes">✔ ${sayHtml('page.status.voted', { seat: { html: seatChip(s, status) } })}</li>`
    : `<li class="to-vote" data-seat="${s}" data-voted="no">… ${sayHtml('page.status.to-vote', { seat: { html: seatChip(s, status) } })}</li>`);
  show('election', `<h2>${esc(say('page.status.election'))}</h2>
    <div class="big">${esc(say('page.status.on-throne', { c: characterArg(e.candidate) }))}</div>
    <div class="muted">${sayHtml('page.status.moved-by', { seat: { html: seatHtml(e.crown_holder, players) } })}</div>
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
    `<li class="vote-${esc(card)}" data-seat="${seat}" data-card="${esc(card)}">${sayHtml('page.status.seat-vote', { seat: { html: seatHtml(seat, players) }, vote: { html: `<b>${esc(voteWord(card))}</b>` } })}</li>`);
  if (r.emissary_vote) votes.push(`<li class="vote-${esc(r.emissary_vote)}">${sayHtml('page.status.emissary-vote', { vote: { html: `<b>${esc(voteWord(r.emissary_vote))}</b>` } })}</li>`);
  const outcome = { text: outcomeWord(r.outcome) };
  const line = r.outcome === 'crowned' || !r.sent_to
    ? say('page.status.outcome', { c: characterArg(r.candidate), outcome })
    : say('page.status.outcome-to', { c: characterArg(r.candidate), outcome, to: { text: placeName(r.sent_to) } });
  show('reveal', `<h2>${esc(say('page.status.last-election'))}</h2>
    <div class="big" id="reveal-outcome">${esc(line)}</div>
    <ul class="seat-list">${votes.join('')}</ul>`);
}

function renderScores(status) {
  const view = status.view || {};
  const players = status.players || [];
  if (!players.length) {
    $('scores').textContent = say('page.status.no-game-yet');
    return;
  }
  const rounds = view.finished_rounds || [];
  const winners = new Set(view.winners || []);
  const pending = status.reveal;
  const totalHead = pending ? say('page.status.total-before', { round: Number(pending.round) }) : say('page.status.total');
  const head = `<tr><th>${esc(say('page.status.player'))}</th>${rounds.map((r) => `<th class="num">${esc(say('page.status.round-short', { round: r.round }))}</th>`).join('')}<th class="num">${esc(totalHead)}</th></tr>`;
  const rows = players.map((p) => {
    const cells = rounds.map((r) => `<td class="num">${r.scores ? r.scores[p.player] ?? '' : ''}</td>`).join('');
    const total = view.totals ? view.totals[p.player] ?? 0 : 0;
    const mark = winners.has(p.player) && !pending ? ` ${esc(say('page.status.winner'))}` : '';
    return `<tr data-player="${p.player}"><td>${playerMarked(p.player, players)} <span class="muted small">${esc(say('page.status.seat-small', { seat: { seat: p.seat } }))}</span>${mark}</td>${cells}<td class="num"><b>${total}</b></td></tr>`;
  });
  if (view.emissary_total !== undefined)
    rows.push(`<tr><td>${esc(say('page.words.emissary'))}</td>${rounds.map((r) => `<td class="num">${r.emissary_score ?? ''}</td>`).join('')}<td class="num"><b>${view.emissary_total}</b></td></tr>`);
  const kings = rounds.filter((r) => r.kings && r.kings.length)
    .map((r) => say('page.status.round-kings', { round: r.round, kings: { list: r.kings.map(characterArg) } }));
  // Favourites cards are public once revealed at scoring.
  const cards = (view.revealed_favourites || []).map((card, p) => {
    if (!card || !card.favourites) return '';
    const who = { html: playerMarked(p, players) };
    const characters = { list: card.favourites.map(characterArg) };
    return `<li>${card.banished
      ? sayHtml('page.status.revealed-banished', { who, characters, banished: characterArg(card.banished) })
      : sayHtml('page.status.revealed', { who, characters })}</li>`;
  });
  const wait = pending ? `<div class="provisional" id="scores-provisional">${esc(say('page.status.not-final'))}</div>` : '';
  $('scores').innerHTML = `${wait}<table${pending ? ' class="provisional-table"' : ''}>${head}${rows.join('')}</table>${kings.length ? `<div class="small">${esc(kings.join(' · '))}</div>` : ''}${
    cards.join('') ? `<div class="small"><b>${esc(say('page.status.favourites-revealed'))}</b><ul class="plain">${cards.join('')}</ul></div>` : ''}`;
}

function renderHealth(status) {
  const log = status.log || {};
  const readers = status.readers || {};
  const items = [];
  if (!log.kept) items.push(`<li class="health-bad">${esc(say('page.status.log-off'))}</li>`);
  else if (log.durable === false || log.problem) {
    const problem = status.log_problem
      ? status.log_problem
      : log.problem ? say('page.status.log-problem', { problem: { text: log.problem } }) : say('page.status.log-not-on-disk');
    const waiting = log.waiting ? ` ${say('page.status.log-waiting', { n: log.waiting })}` : '';
    items.push(`<li class="health-bad">${esc(problem + waiting)}</li>`);
  } else items.push(`<li class="health-ok">${esc(say('page.status.log-ok'))}</li>`);
  const faulty = readers.faulty || [];
  if (faulty.length) {
    const blind = (readers.blind_places || []).map((p) => ({ place: String(p) }));
    const list = { list: faulty.map((f) => ({ text: String(f) })) };
    items.push(`<li class="health-bad">${esc(blind.length
      ? say('page.status.readers-faulty-blind', { readers: list, places: { list: blind } })
      : say('page.status.readers-faulty', { readers: list }))}</li>`);
  } else items.push(`<li class="health-ok">${esc(say('page.status.readers-ok'))}</li>`);
  if (readers.unknown_tags) items.push(`<li class="health-bad">${esc(say('page.status.unknown-tags', { n: readers.unknown_tags }))}</li>`);
  const club = status.club;
  if (club) {
    const when = (ms) => (ms ? new Date(ms).toLocaleTimeString(pageLanguage(), { hour: '2-digit', minute: '2-digit' }) : '');
    const where = { table: { text: String(club.table ?? '') }, server: { text: String(club.server ?? '') } };
    let line;
    if (!club.waiting) {
      line = club.last_success_ms
        ? say('page.status.club-sent-at', { ...where, time: { text: when(club.last_success_ms) } })
        : say('page.status.club-sent', where);
    } else {
      line = say('page.status.club-waiting', { ...where, n: club.waiting });
      if (club.last_error) line += ` ${say('page.status.club-last-try', { time: { text: when(club.last_attempt_ms) }, error: { text: String(club.last_error) } })}`;
      if (club.next_try_ms) line += ` ${say('page.status.club-next-try', { time: { text: when(club.next_try_ms) } })}`;
    }
    items.push(`<li class="${club.waiting ? 'health-bad' : 'health-ok'}" id="club-health">${esc(line)}</li>`);
  }
  $('health').innerHTML = `<ul class="plain">${items.join('')}</ul>`;
}

// The castle's LEDs as the status gives them ({"place-3": "on"}), as
// drawCastle's lamps ({"3": "on"}): only those not off. Null from a daemon
// that sends none (no lamps drawn); otherwise an object even when empty, so
// the picture keeps one layout as lamps come and go.
function litPlaces(leds) {
  if (!leds) return null;
  const out = {};
  for (const [name, mode] of Object.entries(leds))
    if (name.startsWith('place-') && mode && mode !== 'off') out[name.slice(6)] = mode;
  return out;
}

export function render(status) {
  if (!status || typeof status !== 'object') return;
  setRoster(status.roster);
  renderTop(status);
  renderAmbitionWaiting(status);
  lastStatus = status;
  const held = renderMoment(status);
  renderNotices(status, held);
  renderCardsCall(status);
  renderElection(status);
  renderReveal(status);
  renderScores(status);
  const mode = status.favourites_mode;
  $('favourites-mode').textContent = mode === 'physical' ? say('page.status.favourites-physical') : mode === 'dealt' ? say('page.status.favourites-dealt') : '';
  renderHealth(status);
  renderEnding(status);
  if (status.board) {
    drawCastle($('castle'), { edition: status.edition, tokens: tokensFromStatus(status), leds: litPlaces(status.leds) });
  } else {
    $('castle').innerHTML = '';
  }
  announceStatus(status);
  // The host chose another table language: a shared screen follows it.
  followTable(status.language);
  // For the browser tests and the latency benchmark: when and what was drawn.
  renders += 1;
  document.body.dataset.renders = String(renders);
  document.body.dataset.state = status.state || '';
  window.dispatchEvent(new CustomEvent('vivaref:rendered', { detail: { at: performance.now(), status } }));
}

async function start() {
  await startWords({ shared: true });
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
