// A player's private page, reached by the secret link of the host's QR
// code (/player.html#TOKEN; ?token=TOKEN works too). It reads only
// GET /api/player/TOKEN: that player's favourites, hand and Ambition card,
// and the moment that concerns them (`moment`, web-ui/API.md), shown in the
// banner at the top: their turn and what to do, the refusal of their move
// with what to put back, their vote, their Ambition choice
// (js/ambition_choice.js), else who plays now. The rest of the page is below.
// The public event stream only tells it when to read again. A table with
// its own physical Favourites cards (favourites_mode "physical") gets no
// card here: the page says to keep the card in hand, and shows the votes.
// Every word is the catalog's (js/words.js), in this phone's language.
//
// Phones at the table (issue 35): a seat that votes on the phone votes here
// (js/phone_vote.js); a seat played from afar sees the castle as the board
// sees it and chooses its placement or move here (js/remote_move.js). The
// page reads its answer at least every 2.5 s besides the events (the daemon
// tells a phone that is away by its silence), and a read that fails for the
// network is tried again, the page saying it reconnects, not an error.
import { announce, announceStatus } from './announce.js';
import { esc, getJson, liveEvents } from './api.js';
import { renderAmbitionChoice, renderKeptAmbition } from './ambition_choice.js';
import { renderPlayerEnding } from './ending.js';
import { phoneVoteAnswer, renderPhoneVote } from './phone_vote.js';
import {
  followRemoteMoment, forgetRemoteAnswer, remoteSelected, renderRemoteCastle, renderRemoteChoice, shownLine,
} from './remote_move.js';
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
  $('moment').classList.add('hidden');
}

// The station's last private notice (a second key press, not counted) is
// shown for a while from when this page first saw it: the referee keeps the
// last one, and an old one would only puzzle.
const kNoticeShownMs = 20000;
let noticeSeen = { at: null, since: 0 };
let noticeTimer = null;

function showStationNotice(notice) {
  const box = $('station-notice');
  const fresh = notice && notice.at !== noticeSeen.at;
  if (fresh) noticeSeen = { at: notice.at, since: Date.now() };
  const left = notice ? kNoticeShownMs - (Date.now() - noticeSeen.since) : 0;
  box.textContent = left > 0 ? `⚠ ${sayOr(notice.says, notice.text)}` : '';
  // A key press refused on this seat's station interrupts, through the page's one announcement area.
  if (fresh && left > 0) announce(sayOr(notice.says, notice.text), { urgent: true });
  box.classList.toggle('hidden', left <= 0);
  clearTimeout(noticeTimer);
  if (left > 0) noticeTimer = setTimeout(() => showStationNotice(notice), left);
}

// The page's last answer and the last public status (the castle drawn for a
// seat played from afar).
let lastPage = null;
let lastStatus = null;

function render(page) {
  lastPage = page;
  renderPlayerEnding(undefined, page.player ?? null);
  $('error').classList.add('hidden');
  $('private').classList.remove('hidden');
  $('moment').classList.remove('hidden');
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
  if (followRemoteMoment(page.moment || null, page.step)) {
    forgetRemoteAnswer();
    announce(say('page.player.remote.done'));
  }
  renderMoment(page.moment || null, mine, page);
  renderRemote(page);
  // A bot standing in for this seat (the host's choice): the page says so.
  const standIn = page.seat_play && page.seat_play.stand_in;
  $('moment-stand-in').classList.toggle('hidden', !standIn);
  $('moment-stand-in').textContent = standIn
    ? say('page.player.stand-in', { until: { text: page.seat_play.stand_in_until === 'round' ? 'round' : 'game' } }) : '';
}

// A seat played from afar: the castle card (drawn again at each status).
function renderRemote(page = lastPage) {
  const remote = Boolean(page && page.seat_play && page.seat_play.remote);
  $('remote-castle').classList.toggle('hidden', !remote);
  if (remote) renderRemoteCastle($('remote-castle'), { status: lastStatus, selected: remoteSelected(), seat: page.seat });
}

// ---- the banner: the moment that concerns this player -------------------------------

let lastPublicLine = '';

// A refusal's "what to put back", one step a line (the daemon's words).
function restoreHtml(refusal) {
  const steps = (refusal.restore || []).map((r) => `<li>${esc(sayOr(r.do_says, r.do))}</li>`).join('');
  return steps ? `<p class="moment-put-back">${esc(say('page.player.banner.put-back'))}</p><ul class="moment-steps">${steps}</ul>` : '';
}

function momentHtml(moment) {
  const title = (code, args) => `<p class="moment-title">${esc(say(code, args))}</p>`;
  const line = (code, args) => `<p class="moment-do">${esc(say(code, args))}</p>`;
  switch (moment.kind) {
    case 'turn':
      return title('page.player.banner.your-turn')
        + line(moment.action === 'place' ? 'page.player.banner.do-place' : 'page.player.banner.do-move');
    case 'refused': {
      const refusal = moment.refusal || {};
      // The rule's explanation, when the refusal names it (rules.html's anchors).
      const rule = refusal.rule
        ? `<p><a class="moment-rule" href="rules.html#${encodeURIComponent(refusal.rule)}">${esc(say('page.player.banner.the-rule'))}</a></p>` : '';
      return title('page.player.banner.refused')
        + `<p class="moment-why">${esc(sayOr(refusal.says, refusal.message))}</p>${restoreHtml(refusal)}${rule}`;
    }
    case 'vote': {
      const election = moment.election || {};
      const keys = election.keys || [];
      // A seat that votes on the phone votes with the buttons below (phone_vote.js).
      return title('page.player.banner.vote-now', { candidate: election.candidate || { text: '?' } })
        + (election.by_phone ? line('page.player.vote.on-phone')
          : line('page.player.banner.vote-keys', { stomachache: { text: keys.includes('stomachache') ? 'yes' : 'no' } }));
    }
    case 'voted': {
      // The phone's own answer ("Your vote is in."), never which card.
      const said = phoneVoteAnswer(moment.election);
      return title('page.player.banner.voted') + (said ? `<p class="moment-do vote-said">${esc(said)}</p>` : '') + line('page.player.banner.voted-wait');
    }
    case 'choose':
      return title('page.player.remote.your-turn')
        + line(moment.action === 'place' ? 'page.player.remote.do-place' : 'page.player.remote.do-move');
    case 'planned': {
      const plan = lastStatus && (lastStatus.plan || lastStatus.bot_plan);
      const mine = plan && moment.to_act && plan.seat === moment.to_act.seat ? plan : null;
      return `<p class="moment-title remote-shown">${esc(shownLine(mine))}</p>${line('page.player.remote.may-change')}`;
    }
    case 'ambition':
      return title('page.player.banner.choose-ambition');
    case 'paused':
      return title('page.player.banner.paused');
    case 'over':
      return title('page.player.banner.over');
    default: {
      const toAct = moment.to_act;
      if (toAct && toAct.who) {
        // A bot's move is made by anyone at the table: the move, not "nothing to do".
        const next = toAct.bot && toAct.plan_says
          ? `<p class="moment-do">${esc(sayOr(toAct.plan_says, ''))}</p>` : line('page.player.banner.nothing-to-do');
        return title(toAct.bot ? 'page.player.banner.bot-plays' : 'page.player.banner.plays', { who: toAct.who }) + next;
      }
      return title('page.player.banner.nothing-now');
    }
  }
}

// The banner for this player's moment; the Ambition choice inside it while
// the cards may be chosen or changed, else the kept card below.
function renderMoment(moment, mine, page) {
  const banner = $('moment');
  const kind = moment ? moment.kind : 'none';
  banner.dataset.moment = kind;
  banner.classList.toggle('moment-mine', ['turn', 'refused', 'vote', 'ambition', 'choose', 'planned'].includes(kind));
  banner.classList.toggle('moment-refused', kind === 'refused');
  const html = moment ? momentHtml(moment) : '';
  if ($('moment-text').dataset.html !== html) {
    $('moment-text').dataset.html = html;
    $('moment-text').innerHTML = html;
  }
  $('public').textContent = lastPublicLine;
  const ambition = moment && moment.ambition;
  const choosing = Boolean(ambition && (!ambition.kept || ambition.changeable) && (ambition.choices || []).length);
  $('moment-ambition').classList.toggle('hidden', !choosing);
  if (!choosing && $('moment-ambition').dataset.signature) {
    $('moment-ambition').innerHTML = '';
    delete $('moment-ambition').dataset.signature;
  }
  if (choosing) {
    renderAmbitionChoice($('moment-ambition'), {
      token: token(), choices: ambition.choices, kept: ambition.kept, changeable: ambition.changeable, onKept: refresh });
  }
  const kept = mine && mine.ambition;
  $('ambition-card').classList.toggle('hidden', choosing || !kept);
  renderKeptAmbition($('ambition'), choosing ? null : kept);
  // A vote on this phone: its seat votes by phone (or either) and it is still to give.
  const election = moment && moment.election;
  const voting = Boolean(kind === 'vote' && election && election.by_phone && (election.keys || []).length);
  $('moment-vote').classList.toggle('hidden', !voting);
  if (voting) {
    renderPhoneVote($('moment-vote'), {
      token: token(), election, onVoted: (said) => { announce(said.text, { urgent: said.kind !== 'ok' }); refresh(); } });
  }
  // A seat played from afar, to place or move: its legal choices.
  const remoteChoosing = Boolean(moment && (kind === 'choose' || kind === 'planned') && (moment.choices || []).length);
  $('moment-remote').classList.toggle('hidden', !remoteChoosing);
  if (remoteChoosing) {
    renderRemoteChoice($('moment-remote'), {
      token: token(), moment, step: page ? page.step : null,
      onSent: (said) => { announce(said.text, { urgent: said.kind !== 'ok' }); refresh(); },
      onPick: () => renderRemote(),
    });
  }
}

// The page reads its answer at least this often (a heartbeat: the daemon
// tells a remote seat's phone that is away by its silence, `[daemon]
// phone_away_after`), and again this soon after a read that failed.
const kHeartbeatMs = 2500;
const kRetryMs = 1500;
let heartbeat = null;
let reading = false;
let readAgain = false;
let reconnecting = false;
// A link the daemon said belongs to no player (revoked, or a new game's):
// not asked again, so a forgotten page does not knock on the door every few
// seconds (the daemon throttles wrong secrets by address). A new link in
// the address (hashchange) is asked at once.
let deadLink = null;
// Asked too often (429): the page waits longer before asking again.
const kThrottledMs = 15000;

// A read that failed for the network (the daemon restarting, the Wi-Fi
// gone): the page keeps what it showed and says it reconnects (the banner
// the event stream uses, in the same words), not an error.
function showReconnecting(on) {
  const banner = $('banner');
  if (on && !reconnecting) {
    const text = say('page.api.reconnecting');
    if (banner.textContent !== text) announce(text);
    banner.textContent = text;
    banner.classList.remove('hidden');
  } else if (!on && reconnecting && banner.textContent === say('page.api.reconnecting')) {
    banner.textContent = '';
    banner.classList.add('hidden');
  }
  reconnecting = on;
  document.body.dataset.reconnecting = on ? 'yes' : '';
}

async function refresh() {
  const t = token();
  if (!t) {
    fail(say('page.player.needs-link'));
    return;
  }
  if (t === deadLink) return;
  if (reading) {
    readAgain = true;
    return;
  }
  reading = true;
  clearTimeout(heartbeat);
  let next = kHeartbeatMs;
  try {
    const page = await getJson(`/api/player/${encodeURIComponent(t)}`);
    showReconnecting(false);
    render(page);
  } catch (e) {
    // No answer, or a daemon starting or stopping (502/503 from a proxy or
    // the log): tried again soon, the page as it was.
    if (e.status === 0 || e.status === 502 || e.status === 504 || (e.status === 503 && e.code !== 'log-unwritable')) {
      showReconnecting(true);
      next = kRetryMs;
    } else {
      showReconnecting(false);
      fail(e.status === 404 ? say('page.player.no-such-link') : sayOr(e.says, e.message));
      if (e.status === 404) deadLink = t;
      if (e.status === 429) next = kThrottledMs;
    }
  }
  reading = false;
  if (deadLink !== t) heartbeat = setTimeout(refresh, next);
  document.body.dataset.reads = String(Number(document.body.dataset.reads || 0) + 1);
  if (readAgain) {
    readAgain = false;
    refresh();
  }
}

function callCode(reveal) {
  if (!reveal || !(reveal.favourites || reveal.ambitions)) return '';
  if (reveal.favourites && reveal.ambitions) return 'page.player.show-both';
  return reveal.favourites ? 'page.player.show-favourites' : 'page.player.show-ambition';
}

function onStatus(status) {
  lastStatus = status;
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
  lastPublicLine = status.state === 'no-game' ? say('page.player.no-game') : call ? `${say(call)} ${line}` : line;
  $('public').textContent = lastPublicLine;
  refresh();
}

await startWords();
window.addEventListener('hashchange', refresh);
await startWords(); // the shared words (names.js, ending.js) need the catalog
refresh();
// A station's private notice changes no public status: its own event says to look.
liveEvents({ status: onStatus, private: refresh }, $('banner'));
