// The club's league (GET /api/league..., web-ui/API.md): the standings of
// each edition, filtered by table and period; a member's games
// (league.html?member=NAME); the recent games, each opening its review
// (games.html?league=UID). The club's server may be down: the page says so
// in a sentence and offers to try again.
import { ApiError, esc, getJson } from './api.js';
import { pageLanguage, say, sayOr, startWords } from './words.js';
import { editionName, playerArg, statusWord } from './words_args.js';

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(window.location.search);
const member = params.get('member');

function fail(text) {
  $('error').innerHTML = text ? `${esc(text)} <button type="button" id="retry">${esc(say('page.league.try-again'))}</button>` : '';
  $('error').classList.toggle('hidden', !text);
  if (text) $('retry').addEventListener('click', () => window.location.reload());
}

// A failed request in the page's words where the page knows the case (a
// castle that shows no league); else the daemon's sentence.
function failWith(e) {
  if (e instanceof ApiError && e.code === 'no-league') fail(say('page.league.no-league'));
  else fail(sayOr(e.says, e.message));
}

function when(iso) {
  return iso ? new Date(iso).toLocaleString(pageLanguage()) : '';
}

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
  if (!rows.length) return `<p class="muted">${esc(say('page.league.no-counted-game'))}</p>`;
  const language = pageLanguage();
  const count = new Intl.NumberFormat(language);
  const perGame = new Intl.NumberFormat(language, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
  // A rating is written whole and without grouping, as players quote it ("1523").
  const rating = new Intl.NumberFormat(language, { maximumFractionDigits: 0, useGrouping: false });
  const label = {
    rank: esc(say('page.league.col-rank')), member: esc(say('page.league.col-member')), games: esc(say('page.league.col-games')),
    wins: esc(say('page.league.col-wins')), perGame: esc(say('page.league.col-points-per-game')), wld: esc(say('page.league.col-wld')),
    rating: esc(say('page.league.col-rating')),
  };
  const body = rows.map((r) => `<tr data-member="${esc(r.name)}">
    <td data-label="${label.rank}" class="num">${esc(count.format(r.rank))}</td><td data-label="${label.member}">${memberLink(r.name)}</td>
    <td data-label="${label.games}" class="num">${esc(count.format(r.games))}</td><td data-label="${label.wins}" class="num">${esc(count.format(r.wins))}</td>
    <td data-label="${label.perGame}" class="num">${esc(perGame.format(r.points_per_game))}</td>
    <td data-label="${label.wld}" class="num">${r.pairwise_wins}-${r.pairwise_losses}-${r.pairwise_draws}</td>
    <td data-label="${label.rating}" class="num"><b>${esc(rating.format(Math.round(r.rating)))}</b></td></tr>`).join('');
  return `<table class="games-table league-table"><thead><tr><th class="num">${label.rank}</th><th>${label.member}</th><th class="num">${label.games}</th><th class="num">${label.wins}</th><th class="num">${label.perGame}</th><th class="num">${label.wld}</th><th class="num">${label.rating}</th></tr></thead><tbody>${body}</tbody></table>`;
}

const gameLabels = () => ({
  game: esc(say('page.league.col-game')), ended: esc(say('page.league.col-ended')), edition: esc(say('page.league.col-edition')),
  status: esc(say('page.league.col-status')), score: esc(say('page.league.col-score')),
});

async function showStandings() {
  const { since, until } = periodBounds();
  const query = new URLSearchParams({ edition: $('edition').value, table: $('table').value, since, until });
  let answer;
  try {
    answer = await getJson(`/api/league/standings?${query}`);
  } catch (e) {
    failWith(e);
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
    failWith(e);
    return;
  }
  $('recent-card').classList.remove('hidden');
  const label = gameLabels();
  const rows = answer.games.map((g) => `<tr data-uid="${esc(g.uid)}"><td data-label="${label.game}">${gameLink(g)}</td>
    <td data-label="${label.ended}">${esc(when(g.ended_at || g.started_at))}</td><td data-label="${label.edition}">${esc(editionName(g.edition))}</td>
    <td data-label="${label.status}">${esc(statusWord(g.status))}</td></tr>`).join('');
  $('recent').innerHTML = rows
    ? `<table class="games-table"><thead><tr><th>${label.game}</th><th>${label.ended}</th><th>${label.edition}</th><th>${label.status}</th></tr></thead><tbody>${rows}</tbody></table>`
    : `<p class="muted">${esc(say('page.league.no-game-reached'))}</p>`;
}

async function showMember() {
  $('member-card').classList.remove('hidden');
  $('member-title').textContent = say('page.league.member-games', { who: playerArg(member) });
  let answer;
  try {
    answer = await getJson(`/api/league/members/${encodeURIComponent(member)}`);
  } catch (e) {
    failWith(e);
    $('member-card').classList.add('hidden');
    return;
  }
  $('member-title').textContent = say('page.league.member-games', { who: playerArg(answer.member) });
  const label = gameLabels();
  const score = (g) => {
    if (g.status === 'abandoned') return esc(statusWord(g.status));
    if (g.score === null || g.score === undefined) return '–';
    if (g.winner) return esc(say('page.league.score-won', { n: Number(g.score) }));
    return esc(new Intl.NumberFormat(pageLanguage()).format(Number(g.score)));
  };
  const rows = answer.games.map((g) => `<tr data-uid="${esc(g.uid)}"><td data-label="${label.game}">${gameLink(g)}</td>
    <td data-label="${label.ended}">${esc(when(g.ended_at || g.started_at))}</td><td data-label="${label.edition}">${esc(editionName(g.edition))}</td>
    <td data-label="${label.score}" class="num">${score(g)}</td></tr>`).join('');
  $('member').innerHTML = rows
    ? `<table class="games-table"><thead><tr><th>${label.game}</th><th>${label.ended}</th><th>${label.edition}</th><th class="num">${label.score}</th></tr></thead><tbody>${rows}</tbody></table>`
    : `<p class="muted">${esc(say('page.league.no-game-yet'))}</p>`;
}

async function start() {
  let league;
  try {
    league = await getJson('/api/league');
  } catch (e) {
    failWith(e);
    return;
  }
  $('league-line').textContent = league.database;
  if (!league.reachable) {
    // league.message: the daemon's sentence (why the club's server cannot be read).
    fail(sayOr(league.says, league.message) || say('page.league.unreachable'));
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

await startWords();
start();
