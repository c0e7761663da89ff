// A player's private page, reached by the secret link of the host's QR
// code (/player.html#TOKEN; ?token=TOKEN works too). It reads only
// GET /api/player/TOKEN: that player's favourites, hand and Ambition card;
// the Ambition card is kept here with a tap (js/ambition_choice.js).
// The public event stream only tells it when to read again. A table with
// its own physical Favourites cards (favourites_mode "physical") gets no
// card here: the page says to keep the card in hand, and shows the votes.
// Every word is the catalog's (js/words.js), in this phone's language.
import { announceStatus } from './announce.js';
import { esc, getJson, liveEvents } from './api.js';
import { renderAmbitionChoice } from './ambition_choice.js';
import { renderPlayerEnding } from './ending.js';
import { phaseWord, stateWord, voteCardWord } from './game_words.js';
import { characterName, nameHtml, setRoster } from './names.js';
import { say, sayHtml, sayOr, startWords } from './words.js';

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
  box.textContent = left > 0 ? `⚠ ${sayOr(notice.says, notice.text)}` : '';
  box.classList.toggle('hidden', left <= 0);
  clearTimeout(noticeTimer);
  if (left > 0) noticeTimer = setTimeout(() => showStationNotice(notice), left);
}

function render(page) {
  renderPlayerEnding(undefined, page.player ?? null);
  $('error').classList.add('hidden');
  $('private').classList.remove('hidden');
  const mine = page.private || {};
  if (page.name) $('who').innerHTML = sayHtml('page.player.whose-cards', {}, { who: nameHtml(page.name) });
  else $('who').textContent = say('page.player.my-cards');
  document.title = page.name ? `vivaref — ${page.name}` : say('page.player.title');
  const line = {
    game: { text: page.game === undefined || page.game === null ? '?' : String(page.game) },
    seat: page.seat === undefined || page.seat === null ? { text: '?' } : { seat: page.seat },
  };
  $('game-line').textContent = page.state && page.state !== 'playing'
    ? say('page.player.game-line-state', { ...line, state: { text: stateWord(page.state) } })
    : say('page.player.game-line', line);
  const physical = page.favourites_mode === 'physical';
  $('own-card').classList.toggle('hidden', !physical);
  $('own-card').textContent = physical ? say('page.player.own-card') : '';
  $('favourites').classList.toggle('hidden', physical);
  const favourites = mine.favourites || [];
  $('favourites').innerHTML = physical ? '' : favourites.length
    ? favourites.map((slug) => `<li data-character="${esc(slug)}">♥ ${esc(characterName(slug))}</li>`).join('')
    : `<li class="muted">${esc(say('page.player.not-dealt'))}</li>`;
  $('banished').innerHTML = mine.banished
    ? `<p>${sayHtml('page.player.banished', {}, { character: `<b>${esc(characterName(mine.banished))}</b>` })}</p>` : '';
  const hand = mine.hand || {};
  const order = ['yes', 'no', 'stomachache'];
  $('hand').innerHTML = Object.entries(hand)
    .sort(([a], [b]) => order.indexOf(a) - order.indexOf(b))
    .map(([card, count]) => `<div class="vote-card vote-${esc(card)}" data-card="${esc(card)}">${esc(voteCardWord(card))}<br><span class="big">× ${count}</span></div>`)
    .join('');
  $('own-vote').textContent = mine.own_vote ? say('page.player.own-vote', { vote: { text: voteCardWord(mine.own_vote) } }) : '';
  showStationNotice(page.station_notice);
  const choices = mine.ambition_choices || [];
  const showAmbition = !physical && (mine.ambition || choices.length);
  $('ambition-card').classList.toggle('hidden', !showAmbition);
  if (showAmbition) renderAmbitionChoice($('ambition'), { token: token(), choices, kept: mine.ambition, onKept: refresh });
}

async function refresh() {
  const t = token();
  if (!t) {
    fail(say('page.player.needs-link'));
    return;
  }
  try {
    render(await getJson(`/api/player/${encodeURIComponent(t)}`));
  } catch (e) {
    fail(e.status === 404 ? say('page.player.no-such-link') : sayOr(e.says, e.message));
  }
}

function callCode(reveal) {
  if (!reveal || !(reveal.favourites || reveal.ambitions)) return '';
  if (reveal.favourites && reveal.ambitions) return 'page.player.show-both';
  return reveal.favourites ? 'page.player.show-favourites' : 'page.player.show-ambition';
}

function onStatus(status) {
  setRoster(status.roster);
  announceStatus(status);
  const view = status.view || {};
  renderPlayerEnding(status);
  // What the whole table sees, in a line: the call for the cards at a
  // coronation with the table's own cards, then the phase, round and wait.
  const call = callCode(status.reveal);
  const args = { phase: { text: view.phase ? phaseWord(view.phase) : '' }, round: view.round || 0,
    waiting: { text: sayOr(status.waiting_says, status.waiting_for) } };
  const line = say(view.round ? 'page.player.public-round' : 'page.player.public', args);
  $('public').textContent = status.state === 'no-game' ? say('page.player.no-game') : call ? `${say(call)} ${line}` : line;
  refresh();
}

await startWords();
window.addEventListener('hashchange', refresh);
await startWords(); // the shared words (names.js, ending.js) need the catalog
refresh();
// A station's private notice changes no public status: its own event says to look.
liveEvents({ status: onStatus, private: refresh }, $('banner'));
