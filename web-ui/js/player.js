// A player's private page, reached by the secret link of the host's QR
// code (/player.html#TOKEN; ?token=TOKEN works too). It reads only
// GET /api/player/TOKEN: that player's favourites, hand and Ambition card;
// the Ambition card is kept here with a tap (js/ambition_choice.js).
// The public event stream only tells it when to read again. A table with
// its own physical Favourites cards (favourites_mode "physical") gets no
// card here: the page says to keep the card in hand, and shows the votes.
import { esc, getJson, liveEvents } from './api.js';
import { renderAmbitionChoice } from './ambition_choice.js';
import { renderPlayerEnding } from './ending.js';
import { characterName, kPhaseWords, seatNumber, setRoster, voteWord } from './names.js';
import { startWords } from './words.js';

const $ = (id) => document.getElementById(id);

function token() {
  const hash = window.location.hash.replace(/^#/, '');
  if (hash) return decodeURIComponent(hash);
  return new URLSearchParams(window.location.search).get('token') || '';
}

function fail(text) {
  $('error').textContent = text;
  $('error').classList.remove('hidden');
  $('private').classList.add('hidden');
}

// The station's last private notice (a second key press, not counted) is
// shown for a while from when this page first saw it: the referee keeps the
// last one, and an old one would only puzzle.
const kNoticeShownMs = 20000;
let noticeSeen = { at: null, since: 0 };
let noticeTimer = null;

function showStationNotice(notice) {
  const box = $('station-notice');
  if (notice && notice.at !== noticeSeen.at) noticeSeen = { at: notice.at, since: Date.now() };
  const left = notice ? kNoticeShownMs - (Date.now() - noticeSeen.since) : 0;
  box.textContent = left > 0 ? `⚠ ${notice.text}` : '';
  box.classList.toggle('hidden', left <= 0);
  clearTimeout(noticeTimer);
  if (left > 0) noticeTimer = setTimeout(() => showStationNotice(notice), left);
}

function render(page) {
  renderPlayerEnding(undefined, page.player ?? null);
  $('error').classList.add('hidden');
  $('private').classList.remove('hidden');
  const mine = page.private || {};
  $('who').textContent = page.name ? `${page.name}'s cards` : 'My cards';
  document.title = `vivaref — ${page.name || 'my cards'}`;
  $('game-line').textContent = `Game ${page.game ?? '?'} · seat ${page.seat === undefined || page.seat === null ? '?' : seatNumber(page.seat)}${page.state && page.state !== 'playing' ? ` · ${page.state}` : ''}`;
  const physical = page.favourites_mode === 'physical';
  $('own-card').classList.toggle('hidden', !physical);
  $('own-card').textContent = physical ? 'You play with your own Favourites card: keep it hidden until the coronation.' : '';
  $('favourites').classList.toggle('hidden', physical);
  const favourites = mine.favourites || [];
  $('favourites').innerHTML = physical ? '' : favourites.length
    ? favourites.map((slug) => `<li data-character="${esc(slug)}">♥ ${esc(characterName(slug))}</li>`).join('')
    : '<li class="muted">Not dealt yet.</li>';
  $('banished').innerHTML = mine.banished ? `<p>Banished: <b>${esc(characterName(mine.banished))}</b></p>` : '';
  const hand = mine.hand || {};
  const order = ['yes', 'no', 'stomachache'];
  $('hand').innerHTML = Object.entries(hand)
    .sort(([a], [b]) => order.indexOf(a) - order.indexOf(b))
    .map(([card, count]) => `<div class="vote-card vote-${esc(card)}" data-card="${esc(card)}">${esc(voteWord(card))}<br><span class="big">× ${count}</span></div>`)
    .join('');
  $('own-vote').textContent = mine.own_vote ? `My vote in this election: ${voteWord(mine.own_vote)}` : '';
  showStationNotice(page.station_notice);
  const choices = mine.ambition_choices || [];
  const showAmbition = !physical && (mine.ambition || choices.length);
  $('ambition-card').classList.toggle('hidden', !showAmbition);
  if (showAmbition) renderAmbitionChoice($('ambition'), { token: token(), choices, kept: mine.ambition, onKept: refresh });
}

async function refresh() {
  const t = token();
  if (!t) {
    fail('This page needs your secret link: scan your code on the host\'s screen.');
    return;
  }
  try {
    render(await getJson(`/api/player/${encodeURIComponent(t)}`));
  } catch (e) {
    fail(e.status === 404 ? 'This link belongs to no player of the current game. Scan your code again.' : e.message);
  }
}

function onStatus(status) {
  setRoster(status.roster);
  const view = status.view || {};
  const r = status.reveal;
  const what = r ? [r.favourites ? 'Favourites card' : '', r.ambitions ? 'kept Ambition card' : ''].filter(Boolean).join(' and ') : '';
  const call = what ? `Show your ${what} now: the host is entering the cards. ` : '';
  renderPlayerEnding(status);
  $('public').textContent = status.state === 'no-game' ? 'No game.' : `${call}${kPhaseWords[view.phase] || ''}${view.round ? ` · round ${view.round}` : ''} — ${status.waiting_for || ''}`;
  refresh();
}

window.addEventListener('hashchange', refresh);
await startWords(); // the shared words (names.js, ending.js) need the catalog
refresh();
// A station's private notice changes no public status: its own event says to look.
liveEvents({ status: onStatus, private: refresh }, $('banner'));
