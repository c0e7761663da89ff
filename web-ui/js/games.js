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
import { breakdownHtml } from './breakdown.js';
import { showAnalysis } from './analysis_panel.js';
import { pageLanguage, say, sayOr, startWords } from './words.js';
import {
  characterArg, editionName, placeArg, playerText, playerWho, sayHtml, seatWho, statusWord, textArg, voteText,
} from './words_args.js';

const $ = (id) => document.getElementById(id);
let steps = [];
let game = null;
let shownId = null;  // the game the review shows
const leagueUid = new URLSearchParams(window.location.search).get('league');

function when(ms) {
  return ms ? new Date(ms).toLocaleString(pageLanguage()) : '';
}

// The players of a game as a list in the page's language ("Anna, Bo and Cy").
function playersText(g) {
  return say('page.games.who', { who: { list: (g.players || []).map((p) => playerWho(p.player, g.players)) } });
}

function winnersText(g) {
  const w = g.result && g.result.winners;
  if (!w || !w.length) return '';
  return w.map((p) => playerText(p, g.players)).join(' & ');
}

const gameTitle = (id) => say('page.games.game-numbered', { id: textArg(id) });

async function showList() {
  shownId = null;
  $('list').classList.remove('hidden');
  $('review').classList.add('hidden');
  $('game-line').textContent = '';
  let games;
  try {
    games = await getJson('/api/games');
  } catch (e) {
    fail(sayOr(e.says, e.message));
    return;
  }
  if (!games.length) {
    $('games').innerHTML = `<p class="muted">${esc(say('page.games.none'))}</p>`;
    return;
  }
  // data-label: a phone shows each game as a block, a cell a line with its heading (style.css).
  const label = {
    game: esc(say('page.games.col-game')), started: esc(say('page.games.col-started')), edition: esc(say('page.games.col-edition')),
    players: esc(say('page.games.col-players')), status: esc(say('page.games.col-status')), winner: esc(say('page.games.col-winner')),
  };
  const rows = [...games].reverse().map((g) => `<tr data-game="${g.id}">
      <td data-label="${label.game}"><a href="#${g.id}">${esc(gameTitle(g.id))}</a></td><td data-label="${label.started}">${esc(when(g.startedAt))}</td><td data-label="${label.edition}">${esc(editionName(g.edition))}</td>
      <td data-label="${label.players}">${esc(playersText(g))}</td><td data-label="${label.status}">${esc(statusWord(g.status))}</td><td data-label="${label.winner}">${winnersText(g) ? `★ ${esc(winnersText(g))}` : ''}</td></tr>`);
  $('games').innerHTML = `<table class="games-table"><thead><tr><th>${label.game}</th><th>${label.started}</th><th>${label.edition}</th><th>${label.players}</th><th>${label.status}</th><th>${label.winner}</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function fail(text) {
  $('error').textContent = text;
  $('error').classList.toggle('hidden', !text);
}

// One decision line in words.
function describe(line, players) {
  const [kind, v] = Object.entries(line || {})[0] || [];
  if (!kind) return '';
  const who = v && v.seat !== undefined ? seatWho(v.seat, players) : textArg('');
  switch (kind) {
    case 'setup': {
      const args = { edition: textArg(editionName(v.edition)), seats: Number(v.seats) || 0 };
      if (!v.variant || v.variant === 'none') return say('page.review.line-setup', args);
      return say('page.review.line-setup-variant', { ...args, variant: textArg(v.variant) });
    }
    case 'deal': return say('page.review.line-deal', { round: Number(v.round) || 0 });
    case 'keep': return say('page.review.line-keep', { who: playerWho(v.player, players) });
    case 'place': return say('page.review.line-place', { who, c: characterArg(v.character), p: placeArg(v.to) });
    case 'move': return say('page.review.line-move', { who, c: characterArg(v.character), p: placeArg(v.to) });
    case 'vote': return say('page.review.line-vote', { who, vote: { vote: v.card } });
    case 'pass': return say('page.review.line-pass', { who });
    case 'reshuffle': return say('page.review.line-reshuffle');
    default: return kind;
  }
}

// Steps from the daemon's timeline: after each record line, the engine's
// public view (positions, totals, the last reveal). The page draws it and
// knows no rules itself. Without a timeline (a line the engine could not
// replay) the decisions are listed without a castle, and the page says why.
function buildSteps(g) {
  const timeline = Array.isArray(g.timeline) ? g.timeline : [];
  // Why a record line does not replay: its message (timelineError_says),
  // else the daemon's English sentence.
  const why = g.timelineError_says ? { message: g.timelineError_says } : textArg(g.timelineError);
  $('approx').textContent = g.timelineError
    ? say('page.review.timeline-stops', { n: timeline.length, why })
    : say('page.review.no-timeline');
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

function outcomeWords(outcome) {
  switch (outcome) {
    case 'crowned': return say('page.review.outcome-crowned');
    case 'eliminated': return say('page.review.outcome-eliminated');
    case 'rejected': return say('page.review.outcome-rejected');
    case 'cancelled': return say('page.review.outcome-cancelled');
    default: return outcome;
  }
}

function revealHtml(r, players) {
  const vote = (who, card) => `<li class="vote-${esc(card)}">${sayHtml('page.review.vote-of', { who }, { vote: `<b>${esc(voteText(card))}</b>` })}</li>`;
  const votes = (r.votes || []).map((card, seat) => (card ? vote(seatWho(seat, players), card) : '')).join('');
  const emissary = r.emissary_vote ? vote({ message: { code: 'page.review.emissary', args: {} } }, r.emissary_vote) : '';
  const candidate = `<b>${esc(say('page.games.who', { who: characterArg(r.candidate) }))}</b>`;
  let line = candidate;
  if (r.outcome && r.outcome !== 'crowned' && r.sent_to) {
    line = sayHtml('page.review.outcome-sent', { outcome: textArg(outcomeWords(r.outcome)), p: placeArg(r.sent_to) }, { c: candidate });
  } else if (r.outcome) {
    line = sayHtml('page.review.outcome', { outcome: textArg(outcomeWords(r.outcome)) }, { c: candidate });
  }
  return `<div>${line}</div><ul class="seat-list">${votes}${emissary}</ul>`;
}

function scoresHtml(view, players) {
  const totals = view.totals;
  if (!totals) return '<span class="muted">—</span>';
  const number = new Intl.NumberFormat(pageLanguage());
  return `<table>${players.map((p) => `<tr><td>${esc(playerText(p.player, players))}</td><td class="num"><b>${esc(number.format(totals[p.player] ?? 0))}</b></td></tr>`).join('')}</table>`;
}

function showStep(i) {
  if (!steps.length) return;
  const n = Math.max(0, Math.min(steps.length - 1, i));
  const step = steps[n];
  const players = game.players || [];
  $('step').value = String(n);
  const view = step.view || {};
  const what = textArg(describe(step.line, players));
  $('step-text').textContent = step.round
    ? say('page.review.step-in-round', { n: n + 1, total: steps.length, round: Number(step.round), what })
    : say('page.review.step', { n: n + 1, total: steps.length, what });
  const edition = game.edition || 'classic';
  if (step.view) drawCastle($('castle'), { edition, tokens: tokensFromPositions(view.positions, view.candidate), trayTitle: say('page.review.tray') });
  else $('castle').innerHTML = `<p class="muted">${esc(say('page.review.no-castle'))}</p>`;
  const r = view.last_reveal;
  $('step-reveal').innerHTML = `<h2>${esc(say('page.review.last-election'))}</h2>${r ? revealHtml(r, players) : `<span class="muted">${esc(say('page.review.no-election-yet'))}</span>`}`;
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
    fail(sayOr(e.says, e.message));
    $('review').classList.add('hidden');
    return;
  }
  fail('');
  const players = game.players || [];
  const title = leagueUid
    ? say('page.review.league-title', { table: textArg(game.table), n: textArg(game.local_id) })
    : gameTitle(game.id);
  $('game-line').textContent = title;
  let result = '';
  if (game.result && game.result.totals) {
    const number = new Intl.NumberFormat(pageLanguage());
    const scores = textArg(players.map((p) => `${playerText(p.player, players)} ${number.format(game.result.totals[p.player] ?? 0)}`).join(' · '));
    const winners = (game.result.winners || []).length;
    result = `<div>${esc(winners
      ? say('page.review.final-scores-won', { scores, n: winners, winners: textArg(winnersText(game)) })
      : say('page.review.final-scores', { scores }))}</div>`;
  }
  $('summary').innerHTML = `<h2>${esc(say('page.review.summary', { title: textArg(title), edition: textArg(editionName(game.edition)), status: textArg(statusWord(game.status)) }))}</h2>
    <div class="muted">${esc(when(game.startedAt))} · ${esc(playersText(game))}</div>${result}`;
  if (game.withheld || !Array.isArray(game.record)) {
    $('controls').classList.add('hidden');
    $('summary').insertAdjacentHTML('beforeend', `<p class="big">${esc(say(game.withheld ? 'page.review.withheld' : 'page.review.no-decisions'))}</p>`);
    $('castle').innerHTML = '';
    steps = [];
    return;
  }
  $('controls').classList.remove('hidden');
  steps = buildSteps(game);
  $('step').max = String(Math.max(0, steps.length - 1));
  const list = elections(steps);
  $('elections').innerHTML = list.length
    ? `<ul class="plain">${list.map((e) => `<li><a href="#${game.id}" data-goto="${e.step}">${esc(say('page.review.step-link', { n: e.step + 1 }))}</a> ${revealHtml(e.reveal, players)}</li>`).join('')}</ul>`
    : `<span class="muted">${esc(say('page.review.no-elections'))}</span>`;
  showStep(0);
  showBreakdown(game);
  if (leagueUid) return;  // the league keeps no analysis
  // Decision k of the analysis is the record's line k: the timeline's
  // index k, shown as step k + 1 (analysis_panel.js names its links so).
  // The castle comes into view at the top; the step's words stay in the
  // controls pinned to the bottom of the screen.
  showAnalysis($('analysis'), id, {
    stillShowing: () => shownId === id && !$('review').classList.contains('hidden'),
    goto: (decision) => {
      showStep(decision);
      $('castle').scrollIntoView({ block: 'start' });
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
  card.innerHTML = html ? `<h2>${esc(say('page.review.breakdown'))}</h2><div id="review-breakdown">${html}</div>` : '';
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
  $('castle').scrollIntoView({ block: 'start' });
});
document.addEventListener('keydown', (event) => {
  if ($('review').classList.contains('hidden') || event.target.closest('input, textarea, select')) return;
  if (event.key === 'ArrowRight') showStep(Number($('step').value) + 1);
  if (event.key === 'ArrowLeft') showStep(Number($('step').value) - 1);
});
await startWords();
if (leagueUid) {
  // A league's game may be served by `vivaref club serve`, which has no castle.
  document.querySelector('header.top h1').textContent = say('page.review.league-heading');
  document.querySelector('header.top nav').innerHTML = `<a href="/league.html">${esc(say('page.nav.league'))}</a>`;
  document.title = say('page.review.league-heading');
}
window.addEventListener('hashchange', route);
await startWords(); // the shared words (names.js, castle.js, breakdown.js) need the catalog
route();
