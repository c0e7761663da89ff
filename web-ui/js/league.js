// The club's league (GET /api/league..., web-ui/API.md): the standings of
// each edition, filtered by table and period; a member's games
// (league.html?member=NAME); the recent games, each opening its review
// (games.html?league=UID). The club's server may be down: the page says so
// in a sentence and offers to try again.
import { esc, getJson } from './api.js';

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(window.location.search);
const member = params.get('member');

function fail(text) {
  $('error').innerHTML = text ? `${esc(text)} <button type="button" id="retry">Try again</button>` : '';
  $('error').classList.toggle('hidden', !text);
  if (text) $('retry').addEventListener('click', () => window.location.reload());
}

function when(iso) {
  return iso ? new Date(iso).toLocaleString() : '';
}

const kEditionNames = { classic: 'Classic', online: 'Online', 2024: '2024' };
const editionName = (e) => kEditionNames[e] || e;
const statusWord = (s) => ({ complete: '✔ complete', abandoned: '✖ abandoned', incomplete: '… incomplete' }[s] || s);
const memberLink = (name) => `<a href="/league.html?member=${encodeURIComponent(name)}">${esc(name)}</a>`;
const gameLink = (g) => `<a href="/games.html?league=${encodeURIComponent(g.uid)}">${esc(g.table)} #${esc(g.local_id)}</a>`;

// A period's bounds as dates (YYYY-MM-DD, the browser's calendar).
function periodBounds() {
  const pad = (n) => String(n).padStart(2, '0');
  const day = (y, m, d) => `${y}-${pad(m)}-${pad(d)}`;
  const now = new Date();
  const y = now.getFullYear();
  const m = now.getMonth() + 1;
  switch ($('period').value) {
    case 'month': return { since: day(y, m, 1), until: m === 12 ? day(y + 1, 1, 1) : day(y, m + 1, 1) };
    case 'year': return { since: day(y, 1, 1), until: day(y + 1, 1, 1) };
    case 'last-year': return { since: day(y - 1, 1, 1), until: day(y, 1, 1) };
    case 'custom': return { since: $('since').value, until: $('until').value };
    default: return { since: '', until: '' };
  }
}

function standingsHtml(rows) {
  if (!rows.length) return '<p class="muted">No counted game in this selection.</p>';
  const body = rows.map((r) => `<tr data-member="${esc(r.name)}">
    <td data-label="Rank" class="num">${r.rank}</td><td data-label="Member">${memberLink(r.name)}</td>
    <td data-label="Games" class="num">${r.games}</td><td data-label="Wins" class="num">${r.wins}</td>
    <td data-label="Points per game" class="num">${r.points_per_game.toFixed(1)}</td>
    <td data-label="W-L-D" class="num">${r.pairwise_wins}-${r.pairwise_losses}-${r.pairwise_draws}</td>
    <td data-label="Rating" class="num"><b>${Math.round(r.rating)}</b></td></tr>`).join('');
  return `<table class="games-table league-table"><thead><tr><th class="num">Rank</th><th>Member</th><th class="num">Games</th><th class="num">Wins</th><th class="num">Points per game</th><th class="num">W-L-D</th><th class="num">Rating</th></tr></thead><tbody>${body}</tbody></table>`;
}

async function showStandings() {
  const { since, until } = periodBounds();
  const query = new URLSearchParams({ edition: $('edition').value, table: $('table').value, since, until });
  let answer;
  try {
    answer = await getJson(`/api/league/standings?${query}`);
  } catch (e) {
    fail(e.message);
    return;
  }
  fail('');
  $('standings').innerHTML = standingsHtml(answer.standings);
}

async function showRecent() {
  let answer;
  try {
    answer = await getJson('/api/league/games?limit=20');
  } catch (e) {
    fail(e.message);
    return;
  }
  $('recent-card').classList.remove('hidden');
  const rows = answer.games.map((g) => `<tr data-uid="${esc(g.uid)}"><td data-label="Game">${gameLink(g)}</td>
    <td data-label="Ended">${esc(when(g.ended_at || g.started_at))}</td><td data-label="Edition">${esc(editionName(g.edition))}</td>
    <td data-label="Status">${esc(statusWord(g.status))}</td></tr>`).join('');
  $('recent').innerHTML = rows
    ? `<table class="games-table"><thead><tr><th>Game</th><th>Ended</th><th>Edition</th><th>Status</th></tr></thead><tbody>${rows}</tbody></table>`
    : '<p class="muted">No game has reached the league yet.</p>';
}

async function showMember() {
  $('member-card').classList.remove('hidden');
  $('member-title').textContent = `${member}'s games`;
  let answer;
  try {
    answer = await getJson(`/api/league/members/${encodeURIComponent(member)}`);
  } catch (e) {
    fail(e.message);
    $('member-card').classList.add('hidden');
    return;
  }
  $('member-title').textContent = `${answer.member}'s games`;
  const rows = answer.games.map((g) => `<tr data-uid="${esc(g.uid)}"><td data-label="Game">${gameLink(g)}</td>
    <td data-label="Ended">${esc(when(g.ended_at || g.started_at))}</td><td data-label="Edition">${esc(editionName(g.edition))}</td>
    <td data-label="Score" class="num">${g.status === 'abandoned' ? statusWord(g.status) : `${g.score ?? '–'}${g.winner ? ' ★ won' : ''}`}</td></tr>`).join('');
  $('member').innerHTML = rows
    ? `<table class="games-table"><thead><tr><th>Game</th><th>Ended</th><th>Edition</th><th class="num">Score</th></tr></thead><tbody>${rows}</tbody></table>`
    : '<p class="muted">No game yet.</p>';
}

async function start() {
  let league;
  try {
    league = await getJson('/api/league');
  } catch (e) {
    fail(e.message);
    return;
  }
  $('league-line').textContent = league.database;
  if (!league.reachable) {
    fail(league.message || 'The club\'s server cannot be reached now.');
    return;
  }
  if (member) return showMember();
  const editions = league.editions.filter((e) => e.counted > 0);
  $('edition').innerHTML = (editions.length ? editions : [{ edition: 'classic' }])
    .map((e) => `<option value="${esc(e.edition)}">${esc(editionName(e.edition))}</option>`).join('');
  $('table').insertAdjacentHTML('beforeend', league.tables.map((t) => `<option value="${esc(t)}">${esc(t)}</option>`).join(''));
  $('standings-card').classList.remove('hidden');
  $('filters').addEventListener('change', () => {
    $('custom-period').classList.toggle('hidden', $('period').value !== 'custom');
    showStandings();
  });
  $('filters').addEventListener('submit', (event) => event.preventDefault());
  await showStandings();
  await showRecent();
}

start();
