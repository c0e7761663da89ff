// The host's page: start a game, hand out the players' secret links as QR
// codes, undo, pause, resume, abandon, enter physical Favourites cards at a
// coronation (js/reveal.js), enrol tags (js/enrol.js). Every request carries
// the host's secret as "Authorization: Bearer": taken from the host's link
// (host.html#SECRET) and kept on this device (js/api.js). Any other device
// sees only "this page needs the host's link". The codes: js/player_codes.js.
// Every word is the catalog's (js/words.js), in this device's language.
import { esc, getJson, hostToken, liveEvents, postJson, setHostToken } from './api.js';
import { initEnrolment } from './enrol.js';
import { slugsFromNames } from './chance_words.js';
import { seatName, setRoster } from './names.js';
import { createPlayerCodes } from './player_codes.js';
import { createRevealForm } from './reveal.js';
import { say, sayHtml, sayOr, startWords } from './words.js';
import { phaseWord, stateWord } from './game_words.js';
import { createVoiceSettings } from './voice_settings.js';

const $ = (id) => document.getElementById(id);
const kSeats = { classic: [3, 6], online: [3, 6], 2024: [2, 8] };

const kBotCodes = { casual: 'page.host.by-casual', good: 'page.host.by-good', strong: 'page.host.by-strong' };
const kDoneCodes = {
  undo: 'page.host.done-undo', pause: 'page.host.done-pause', resume: 'page.host.done-resume', abandon: 'page.host.done-abandon',
};
const kChanceCodes = { deal: 'page.host.chance-deal-accepted', reshuffle: 'page.host.chance-reshuffle-accepted' };

// The daemon's refusal in this page's words (its message when it sent one).
const refusalOf = (e) => sayOr(e.says, e.message);

function tell(text, ok) {
  const node = $('message');
  node.textContent = text;
  node.className = `message ${ok ? 'ok' : 'error'}`;
  node.classList.toggle('hidden', !text);
  if (text) node.scrollIntoView({ block: 'nearest' });
}

function edition() {
  return document.querySelector('input[name=edition]:checked').value;
}

function teamsOn() {
  const v = $('variant').value;
  return edition() === '2024' && (v === 'teams' || v === 'team-pawn');
}

// Players per seat: one each, or the "2,2,1" of the teams field.
function playersPerSeat() {
  const seats = Number($('seats').value) || 0;
  if (!teamsOn()) return new Array(seats).fill(1);
  const counts = $('teams').value.split(',').map((s) => Number(s.trim())).filter((n) => n > 0);
  while (counts.length < seats) counts.push(1);
  return counts.slice(0, seats);
}

function refreshForm() {
  const ed = edition();
  const [lo, hi] = kSeats[ed];
  $('seats').min = lo;
  $('seats').max = hi;
  $('seats-hint').textContent = say('page.host.seats-range', { low: lo, high: hi });
  $('options-2024').disabled = ed !== '2024';
  $('options-2024').classList.toggle('muted', ed !== '2024');
  $('teams-row').classList.toggle('hidden', !teamsOn());
  const seats = Number($('seats').value) || 0;
  const kept = [...$('names').querySelectorAll('input')].map((i) => i.value);
  const keptBots = [...$('names').querySelectorAll('select.seat-bot')].map((i) => i.value);
  const per = playersPerSeat();
  let player = 0;
  const rows = [];
  per.forEach((count, seat) => {
    for (let k = 0; k < count; ++k, ++player) {
      const value = kept[player] ?? '';
      const label = count > 1
        ? say('page.host.seat-player-name', { seat: { seat }, n: k + 1 })
        : say('page.host.seat-name', { seat: { seat } });
      rows.push(`<label>${esc(label)}
        <input type="text" class="player-name" data-player="${player}" maxlength="40" value="${esc(value)}" placeholder="${esc(playerPlaceholder(player))}"${clubMembers.length ? ' list="club-members" autocomplete="off"' : ''}></label>`);
    }
    // Any seat may be a bot: the referee plays it, and anyone at the table makes its moves.
    const bot = keptBots[seat] ?? '';
    const option = (v, text) => `<option value="${v}"${bot === v ? ' selected' : ''}>${esc(text)}</option>`;
    rows.push(`<label class="small">${esc(say('page.host.played-by', { seat: { seat } }))} <select class="seat-bot" data-seat="${seat}">
      ${option('', say('page.host.by-people'))}${Object.entries(kBotCodes).map(([v, code]) => option(v, say(code))).join('')}</select></label>`);
  });
  $('names').innerHTML = rows.join('');
  const first = $('first').value;
  $('first').innerHTML = Array.from({ length: seats }, (_, s) => `<option value="${s}">${esc(say('seat.numbered', { seat: { seat: s } }))}</option>`).join('');
  if (first && Number(first) < seats) $('first').value = first;
}

// "Player 3": a player's name when the host leaves it empty.
function playerPlaceholder(player) {
  return say('page.host.player-placeholder', { n: player + 1 });
}

function setupFromForm() {
  const ed = edition();
  const setup = { edition: ed, seats: Number($('seats').value), first: Number($('first').value || 0) };
  if ($('rounds').value) setup.rounds = Number($('rounds').value);
  if (ed === '2024') {
    const options = {};
    if ($('ambition').checked) options.ambition = true;
    if ($('banished').checked) options.banished = true;
    if (Object.keys(options).length) setup.options = options;
    if ($('variant').value !== 'none') setup.variant = $('variant').value;
    if (teamsOn()) {
      let player = 0;
      setup.teams = playersPerSeat().map((count) => Array.from({ length: count }, () => player++));
    }
  }
  const players = [...$('names').querySelectorAll('input.player-name')].map((i, n) => i.value.trim() || playerPlaceholder(n));
  const body = { setup, players };
  // A name picked from the club's list seats that member; any other is a guest.
  if (clubMembers.length) {
    const members = players.map((name) => clubMembers.find((m) => m.name === name)?.id ?? null);
    if (members.some((m) => m !== null)) body.members = members;
  }
  const bots = [...$('names').querySelectorAll('select.seat-bot')]
    .filter((b) => b.value)
    .map((b) => ({ seat: Number(b.dataset.seat), strength: b.value }));
  if (bots.length) body.bots = bots;
  // Sent only for physical cards: "dealt" is the daemon's default.
  if (document.querySelector('input[name=favourites]:checked').value === 'physical') body.favourites = 'physical';
  return body;
}

async function host(request, body = {}) {
  try {
    const answer = await postJson(`/api/host/${request}`, body, { host: true });
    return answer;
  } catch (e) {
    if (e.status === 401) lockRefused(e);
    throw e;
  }
}

let codes = null;
// The club's members as the table cached them ([club]): the host's only.
let clubMembers = [];

async function loadMembers() {
  try {
    const answer = await getJson('/api/host/members', { host: true });
    clubMembers = answer.club ? answer.members || [] : [];
  } catch {
    clubMembers = [];
  }
  $('club-members').innerHTML = clubMembers.map((m) => `<option value="${esc(m.name)}"></option>`).join('');
  $('members-hint').classList.toggle('hidden', !clubMembers.length);
  for (const input of $('names').querySelectorAll('input.player-name')) {
    if (clubMembers.length) input.setAttribute('list', 'club-members');
    else input.removeAttribute('list');
  }
}

function showLinks(answer) {
  codes.render(answer);
}

async function loadLinks() {
  const asked = hostToken();
  try {
    showLinks(await getJson('/api/host/players', { host: true }));
    loadMembers();
    return true;
  } catch (e) {
    if (e.status === 401) {
      // An answer to a request made before the secret now kept (the page's
      // first look, before the host typed it) says nothing about that one.
      if (hostToken() !== asked) return false;
      lock(asked ? say('page.host.not-accepted') : '');
      return false;
    }
    showLinks(null); // no game yet
    return true;
  }
}

// A 401: the secret kept here is not (or no longer) the host's. Said in
// the page's words unless the daemon sent its own message.
function lockRefused(e) {
  lock(e.says ? refusalOf(e) : say('page.host.not-accepted'));
}

function lock(message) {
  setHostToken('');
  if (codes) codes.hide();
  $('links').innerHTML = '';
  $('controls').classList.add('hidden');
  $('unlock').classList.remove('hidden');
  const m = $('unlock-message');
  m.textContent = message || '';
  m.className = 'message error';
  m.classList.toggle('hidden', !message);
}

function unlocked() {
  $('unlock').classList.add('hidden');
  $('controls').classList.remove('hidden');
  if (!unlocked.once) {
    unlocked.once = true;
    initEnrolment((e) => {
      if (e.status === 401) lockRefused(e);
      else tell(say('page.host.tags-failed', { why: { text: refusalOf(e) } }), false);
    });
    onStatus.voice = createVoiceSettings($('voice-card'), (e) => (e.status === 401 ? lock(e.message) : say(e.message, false)));
  }
}

let revealForm = null;

function onStatus(status) {
  if (!onStatus.teachingSet && 'teaching_default' in status) { $('teaching').checked = Boolean(status.teaching_default); onStatus.teachingSet = true; }
  if (onStatus.voice) onStatus.voice.render(status);
  setRoster(status.roster);
  onStatus.edition = status.edition;
  if (revealForm) revealForm.render(status);
  const view = status.view || {};
  // A line of labels, each the catalog's: "Game 3 · playing · round 1/3 · Placement".
  const parts = [];
  if (status.game) parts.push(say('page.host.game', { game: { text: String(status.game) } }));
  if (status.state) parts.push(stateWord(status.state));
  if (view.round) parts.push(say('page.host.round', { round: view.round, rounds: view.rounds }));
  if (status.reveal) parts.push(say('page.host.cards-to-enter'));
  else if (view.phase) parts.push(phaseWord(view.phase));
  $('game-line').textContent = parts.join(' · ');
  $('now').textContent = status.state === 'no-game' ? say('page.host.no-game')
    : sayOr(status.waiting_says, status.waiting_for) || parts.join(' · ');
  if (status.game && status.game !== onStatus.linksFor) {
    onStatus.linksFor = status.game;
    loadLinks();
  }
  const players = status.players || [];
  document.body.dataset.players = players.map((p) => seatName(p.seat, players)).join('|');
}

// The paragraphs whose commands and keys stay as written, in <code>.
function fillParagraphs() {
  const code = (text) => `<code data-words-skip>${esc(text)}</code>`;
  $('needs-link').innerHTML = sayHtml('page.host.needs-link', {}, { serve: code('vivaref serve'), hostLink: code('vivaref host-link') });
  $('or-type').innerHTML = sayHtml('page.host.or-type', {}, { key: code('host_token') });
  $('chance-help').innerHTML = sayHtml('page.host.chance-help', {}, {
    format: code('GAME-RECORD'),
    deal: code('{"round": 1, "favourites": [["Odessa la Contessa", ...6 names], ...]}'),
    pile: code('{"pile": ["Yes", "No", ...]}'),
  });
}

async function start() {
  await startWords();
  fillParagraphs();
  codes = createPlayerCodes($('links'), { say: tell, onHostError: (e) => { if (e.status === 401) lockRefused(e); } });
  refreshForm();
  revealForm = createRevealForm({
    form: $('reveal-form'), title: $('reveal-title'), intro: $('reveal-intro'), players: $('reveal-players'),
    message: $('reveal-message'), done: $('reveal-done'), doneText: $('reveal-done-text'),
    correct: $('reveal-correct'), cancel: $('reveal-cancel'),
  }, {
    send: (body) => host('reveal', body),
    onAccepted: (text) => tell(text, true),
  });
  for (const input of document.querySelectorAll('input[name=edition]')) input.addEventListener('change', refreshForm);
  for (const id of ['seats', 'variant', 'teams']) $(id).addEventListener('input', refreshForm);

  $('unlock').addEventListener('submit', async (event) => {
    event.preventDefault();
    setHostToken($('token').value.trim());
    if (await loadLinks()) unlocked();
  });
  $('new-game').addEventListener('submit', async (event) => {
    event.preventDefault();
    const body = setupFromForm();
    body.teaching = $('teaching').checked; // a table that teaches (teach.js, REFEREE-NOTES.md)
    try {
      const answer = await host('new-game', body);
      showLinks(answer);
      onStatus.linksFor = answer.game;
      tell(say('page.host.started', { game: { text: String(answer.game) } }), true);
      $('links-card').scrollIntoView({ block: 'start' });
    } catch (e) {
      tell(refusalOf(e), false);
    }
  });
  for (const button of document.querySelectorAll('button[data-request]')) {
    button.addEventListener('click', async () => {
      const request = button.dataset.request;
      if (request === 'abandon' && !window.confirm(say('page.host.confirm-abandon'))) return;
      try {
        await host(request, {});
        tell(say(kDoneCodes[request]), true);
      } catch (e) {
        tell(refusalOf(e), false);
      }
    });
  }
  $('send-chance').addEventListener('click', async () => {
    let body;
    try {
      body = slugsFromNames(JSON.parse($('chance').value || '{}'), onStatus.edition);
    } catch (e) {
      tell(say('page.host.not-json', { why: { text: e.message } }), false);
      return;
    }
    try {
      await host($('chance-kind').value, body);
      tell(say(kChanceCodes[$('chance-kind').value]), true);
    } catch (e) {
      tell(refusalOf(e), false);
    }
  });

  let info = { hostTokenRequired: false };
  try {
    info = await getJson('/api/info');
  } catch {
    /* the banner tells */
  }
  if (info.simulated) $('sim-link').classList.remove('hidden');
  if (info.hostTokenRequired && !hostToken()) lock('');
  else if (await loadLinks()) unlocked();
  liveEvents({ status: onStatus }, $('banner'));
}

start();
