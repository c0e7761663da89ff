// The game log: the list of games (GET /api/games) and one finished game
// (GET /api/games/ID, games.html#ID) as a timeline to step through, the
// castle redrawn at each step, each election's votes and the scores. A game
// in progress shows its summary only (its decisions hold the hands). A
// finished game's analysis (analysis_panel.js) is shown below the castle.
// games.html?league=UID reviews a game of the club's league instead (GET
// /api/league/games/UID, the same shape, built from its record): no
// analysis, and the page links back to the league.
import { esc, getJson } from './api.js';
import { drawCastle, tokensFromPositions } from './castle.js';
import { characterName, kOutcomeWords, placeName, playerName, seatName, voteWord } from './names.js';
import { breakdownHtml } from './breakdown.js';
import { showAnalysis } from './analysis_panel.js';
import { startWords } from './words.js';

const $ = (id) => document.getElementById(id);
let steps = [];
let game = null;
let shownId = null;  // the game the review shows
const leagueUid = new URLSearchParams(window.location.search).get('league');

function when(ms) {
  return ms ? new Date(ms).toLocaleString() : '';
}

function statusWord(s) {
  return { complete: '✔ complete', abandoned: '✖ abandoned', incomplete: '… incomplete', 'in-progress': '▶ in progress' }[s] || s;
}

function playersText(g) {
  return (g.players || []).map((p) => p.name || `Player ${p.player + 1}`).join(', ');
}

function winnersText(g) {
  const w = g.result && g.result.winners;
  if (!w || !w.length) return '';
  return w.map((p) => playerName(p, g.players)).join(' & ');
}

async function showList() {
  shownId = null;
  $('list').classList.remove('hidden');
  $('review').classList.add('hidden');
  $('game-line').textContent = '';
  let games;
  try {
    games = await getJson('/api/games');
  } catch (e) {
    fail(e.message);
    return;
  }
  if (!games.length) {
    $('games').innerHTML = '<p class="muted">No game has been logged yet.</p>';
    return;
  }
  // data-label: a phone shows each game as a block, a cell a line with its heading (style.css).
  const rows = [...games].reverse().map((g) => `<tr data-game="${g.id}">
      <td data-label="Game"><a href="#${g.id}">Game ${g.id}</a></td><td data-label="Started">${esc(when(g.startedAt))}</td><td data-label="Edition">${esc(g.edition)}</td>
      <td data-label="Players">${esc(playersText(g))}</td><td data-label="Status">${esc(statusWord(g.status))}</td><td data-label="Winner">${winnersText(g) ? `★ ${esc(winnersText(g))}` : ''}</td></tr>`);
  $('games').innerHTML = `<table class="games-table"><thead><tr><th>Game</th><th>Started</th><th>Edition</th><th>Players</th><th>Status</th><th>Winner</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function fail(text) {
  $('error').textContent = text;
  $('error').classList.toggle('hidden', !text);
}

// One decision line in words.
function describe(line, players) {
  const [kind, v] = Object.entries(line || {})[0] || [];
  if (!kind) return '';
  const seat = v && v.seat !== undefined ? seatName(v.seat, players) : '';
  switch (kind) {
    case 'setup': return `The game is set up: ${v.edition}, ${v.seats} seats${v.variant && v.variant !== 'none' ? `, ${v.variant}` : ''}.`;
    case 'deal': return `Round ${v.round}: the favourites are dealt.`;
    case 'keep': return `${playerName(v.player, players)} keeps an Ambition card.`;
    case 'place': return `${seat} places ${characterName(v.character)} on ${placeName(v.to)}.`;
    case 'move': return `${seat} moves ${characterName(v.character)} to ${placeName(v.to)}.`;
    case 'vote': return `${seat} votes ${voteWord(v.card)}.`;
    case 'pass': return `${seat} cannot move and passes.`;
    case 'reshuffle': return "The Emissary's pile is shuffled.";
    default: return kind;
  }
}

// Steps from the daemon's timeline: after each record line, the engine's
// public view (positions, totals, the last reveal). The page draws it and
// knows no rules itself. Without a timeline (a line the engine could not
// replay) the decisions are listed without a castle, and the page says why.
function buildSteps(g) {
  const timeline = Array.isArray(g.timeline) ? g.timeline : [];
  $('approx').textContent = g.timelineError
    ? `The castle cannot be drawn past step ${timeline.length}: ${g.timelineError}`
    : 'The castle cannot be drawn: the daemon sent no timeline for this game.';
  $('approx').classList.toggle('hidden', !g.timelineError && timeline.length > 0);
  const steps = timeline.map((t) => ({ line: t.line, view: t.view || {} }));
  for (const line of (g.record || []).slice(steps.length)) steps.push({ line, view: null });
  // The round a line was decided in: the view before it (the view after a
  // round's crowning vote is already the next round's), and a deal's own.
  steps.forEach((step, i) => {
    const before = i > 0 && steps[i - 1].view ? steps[i - 1].view.round : undefined;
    step.round = step.line && step.line.deal ? step.line.deal.round : before;
  });
  return steps;
}

// Each election once, at the step that revealed it.
function elections(stepList) {
  const out = [];
  let last = null;
  stepList.forEach((t, i) => {
    const r = t.view && t.view.last_reveal;
    const key = JSON.stringify(r || null);
    if (r && key !== last) out.push({ step: i, reveal: r });
    last = key;
  });
  return out;
}

function revealHtml(r, players) {
  const votes = (r.votes || []).map((card, seat) => card
    ? `<li class="vote-${esc(card)}">${esc(seatName(seat, players))}: <b>${esc(voteWord(card))}</b></li>` : '').join('');
  const emissary = r.emissary_vote ? `<li class="vote-${esc(r.emissary_vote)}">Emissary: <b>${esc(voteWord(r.emissary_vote))}</b></li>` : '';
  const outcome = r.outcome ? `: ${esc(kOutcomeWords[r.outcome] || r.outcome)}${r.outcome !== 'crowned' && r.sent_to ? ` → ${esc(placeName(r.sent_to))}` : ''}` : '';
  return `<div><b>${esc(characterName(r.candidate))}</b>${outcome}</div><ul class="seat-list">${votes}${emissary}</ul>`;
}

function scoresHtml(view, players) {
  const totals = view.totals;
  if (!totals) return '<span class="muted">—</span>';
  return `<table>${players.map((p) => `<tr><td>${esc(playerName(p.player, players))}</td><td class="num"><b>${totals[p.player] ?? 0}</b></td></tr>`).join('')}</table>`;
}

function showStep(i) {
  if (!steps.length) return;
  const n = Math.max(0, Math.min(steps.length - 1, i));
  const step = steps[n];
  const players = game.players || [];
  $('step').value = String(n);
  const view = step.view || {};
  $('step-text').textContent = `Step ${n + 1} of ${steps.length}${step.round ? ` · round ${step.round}` : ''}: ${describe(step.line, players)}`;
  const edition = game.edition || 'classic';
  if (step.view) drawCastle($('castle'), { edition, tokens: tokensFromPositions(view.positions, view.candidate), trayTitle: 'Off the castle (box or not placed)' });
  else $('castle').innerHTML = '<p class="muted">No castle at this step.</p>';
  const r = view.last_reveal;
  $('step-reveal').innerHTML = `<h2>Last election at this step</h2>${r ? revealHtml(r, players) : '<span class="muted">None in this round so far.</span>'}`;
  $('step-scores').innerHTML = scoresHtml(view, players);
  document.body.dataset.step = String(n);
}

async function showGame(id) {
  shownId = id;
  $('analysis').classList.add('hidden');
  $('list').classList.add('hidden');
  $('review').classList.remove('hidden');
  try {
    game = await getJson(leagueUid ? `/api/league/games/${encodeURIComponent(id)}` : `/api/games/${encodeURIComponent(id)}`);
  } catch (e) {
    fail(e.message);
    $('review').classList.add('hidden');
    return;
  }
  fail('');
  const players = game.players || [];
  const title = leagueUid ? `League game ${game.table} #${game.local_id}` : `Game ${game.id}`;
  $('game-line').textContent = title;
  const result = game.result && game.result.totals
    ? `<div>Final scores: ${players.map((p) => `${esc(playerName(p.player, players))} ${game.result.totals[p.player] ?? 0}`).join(' · ')}${winnersText(game) ? ` — ★ winner: ${esc(winnersText(game))}` : ''}</div>` : '';
  $('summary').innerHTML = `<h2>${esc(title)}: ${esc(game.edition)} · ${esc(statusWord(game.status))}</h2>
    <div class="muted">${esc(when(game.startedAt))} · ${esc(playersText(game))}</div>${result}`;
  if (game.withheld || !Array.isArray(game.record)) {
    $('controls').classList.add('hidden');
    $('summary').insertAdjacentHTML('beforeend', `<p class="big">${game.withheld ? 'This game is still being played: its decisions are shown once it is over.' : 'No decisions logged.'}</p>`);
    $('castle').innerHTML = '';
    steps = [];
    return;
  }
  $('controls').classList.remove('hidden');
  steps = buildSteps(game);
  $('step').max = String(Math.max(0, steps.length - 1));
  const list = elections(steps);
  $('elections').innerHTML = list.length
    ? `<ul class="plain">${list.map((e) => `<li><a href="#${game.id}" data-goto="${e.step}">Step ${e.step + 1}</a> ${revealHtml(e.reveal, players)}</li>`).join('')}</ul>`
    : '<span class="muted">No election.</span>';
  showStep(0);
  showBreakdown(game);
  if (leagueUid) return;  // the league keeps no analysis
  // Decision k of the analysis is the record's line k: step k of the timeline.
  showAnalysis($('analysis'), id, {
    stillShowing: () => shownId === id && !$('review').classList.contains('hidden'),
    goto: (decision) => {
      showStep(decision);
      $('step-text').scrollIntoView({ block: 'nearest' });
    },
  });
}

// Why each round scored what it did (the daemon's score_breakdown, breakdown.js).
function showBreakdown(game) {
  let card = document.getElementById('review-breakdown-card');
  if (!card) {
    card = document.createElement('div');
    card.id = 'review-breakdown-card';
    card.className = 'card';
    $('review').append(card);
  }
  const html = breakdownHtml(game.score_breakdown, { players: game.players || [] });
  card.innerHTML = html ? `<h2>Why the rounds scored</h2><div id="review-breakdown">${html}</div>` : '';
  card.classList.toggle('hidden', !html);
}

function route() {
  if (leagueUid) return showGame(leagueUid);
  const id = window.location.hash.replace(/^#/, '');
  if (id) showGame(id);
  else showList();
}

$('first').addEventListener('click', () => showStep(0));
$('prev').addEventListener('click', () => showStep(Number($('step').value) - 1));
$('next').addEventListener('click', () => showStep(Number($('step').value) + 1));
$('last').addEventListener('click', () => showStep(steps.length - 1));
$('step').addEventListener('input', () => showStep(Number($('step').value)));
$('elections').addEventListener('click', (event) => {
  const link = event.target.closest('[data-goto]');
  if (!link) return;
  event.preventDefault();
  showStep(Number(link.dataset.goto));
});
document.addEventListener('keydown', (event) => {
  if ($('review').classList.contains('hidden') || event.target.closest('input, textarea, select')) return;
  if (event.key === 'ArrowRight') showStep(Number($('step').value) + 1);
  if (event.key === 'ArrowLeft') showStep(Number($('step').value) - 1);
});
if (leagueUid) {
  // A league's game may be served by `vivaref club serve`, which has no castle.
  document.querySelector('header.top h1').textContent = 'League game';
  document.querySelector('header.top nav').innerHTML = '<a href="/league.html">League</a>';
}
window.addEventListener('hashchange', route);
await startWords(); // the shared words (names.js, castle.js, breakdown.js) need the catalog
route();
