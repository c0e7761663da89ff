// The host's page: start a game, hand out the players' secret links as QR
// codes, undo, pause, resume, abandon, enter physical Favourites cards at a
// coronation (js/reveal.js), enrol tags (js/enrol.js). Every request carries
// the host's secret as "Authorization: Bearer": taken from the host's link
// (host.html#SECRET) and kept on this device (js/api.js). Any other device
// sees only "this page needs the host's link". The codes: js/player_codes.js.
import { esc, getJson, hostToken, liveEvents, postJson, setHostToken } from './api.js';
import { initEnrolment } from './enrol.js';
import { slugsFromNames } from './chance_words.js';
import { kPhaseWords, seatName, setRoster } from './names.js';
import { createPlayerCodes } from './player_codes.js';
import { createRevealForm } from './reveal.js';
import { createVoiceSettings } from './voice_settings.js';

const $ = (id) => document.getElementById(id);
const kSeats = { classic: [3, 6], online: [3, 6], 2024: [2, 8] };

function say(text, ok) {
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
  $('seats-hint').textContent = `${lo} to ${hi}`;
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
      rows.push(`<label>Seat ${seat + 1}${count > 1 ? `, player ${k + 1}` : ''}: name
        <input type="text" class="player-name" data-player="${player}" maxlength="40" value="${esc(value)}" placeholder="Player ${player + 1}"${clubMembers.length ? ' list="club-members" autocomplete="off"' : ''}></label>`);
    }
    // Any seat may be a bot: the referee plays it, and anyone at the table makes its moves.
    const bot = keptBots[seat] ?? '';
    const option = (v, text) => `<option value="${v}"${bot === v ? ' selected' : ''}>${text}</option>`;
    rows.push(`<label class="small">Seat ${seat + 1} is played by <select class="seat-bot" data-seat="${seat}">
      ${option('', 'people')}${option('casual', 'a bot: casual')}${option('good', 'a bot: good')}${option('strong', 'a bot: strong')}</select></label>`);
  });
  $('names').innerHTML = rows.join('');
  const first = $('first').value;
  $('first').innerHTML = Array.from({ length: seats }, (_, s) => `<option value="${s}">Seat ${s + 1}</option>`).join('');
  if (first && Number(first) < seats) $('first').value = first;
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
  const players = [...$('names').querySelectorAll('input.player-name')].map((i, n) => i.value.trim() || `Player ${n + 1}`);
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
    if (e.status === 401) lock(e.message);
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
      lock(asked ? 'That secret was not accepted: open the host\'s link again.' : '');
      return false;
    }
    showLinks(null); // no game yet
    return true;
  }
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
      if (e.status === 401) lock(e.message);
      else say(`Tags: ${e.message}`, false);
    });
    onStatus.voice = createVoiceSettings($('voice-card'), (e) => (e.status === 401 ? lock(e.message) : say(e.message, false)));
  }
}

let revealForm = null;

function onStatus(status) {
  if (onStatus.voice) onStatus.voice.render(status);
  setRoster(status.roster);
  onStatus.edition = status.edition;
  if (revealForm) revealForm.render(status);
  const view = status.view || {};
  const parts = [];
  if (status.game) parts.push(`Game ${status.game}`);
  if (status.state) parts.push(status.state);
  if (view.round) parts.push(`round ${view.round}/${view.rounds}`);
  if (status.reveal) parts.push('Cards to enter');
  else if (view.phase) parts.push(kPhaseWords[view.phase] || view.phase);
  $('game-line').textContent = parts.join(' · ');
  $('now').textContent = status.state === 'no-game' ? 'No game yet.' : status.waiting_for || parts.join(' · ');
  if (status.game && status.game !== onStatus.linksFor) {
    onStatus.linksFor = status.game;
    loadLinks();
  }
  const players = status.players || [];
  document.body.dataset.players = players.map((p) => seatName(p.seat, players)).join('|');
}

async function start() {
  codes = createPlayerCodes($('links'), { say, onHostError: (e) => { if (e.status === 401) lock(e.message); } });
  refreshForm();
  revealForm = createRevealForm({
    form: $('reveal-form'), title: $('reveal-title'), intro: $('reveal-intro'), players: $('reveal-players'),
    message: $('reveal-message'), done: $('reveal-done'), doneText: $('reveal-done-text'),
    correct: $('reveal-correct'), cancel: $('reveal-cancel'),
  }, {
    send: (body) => host('reveal', body),
    onAccepted: (text) => say(text, true),
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
    try {
      const answer = await host('new-game', body);
      showLinks(answer);
      onStatus.linksFor = answer.game;
      say(`Game ${answer.game} started. Each player scans their own code below.`, true);
      $('links-card').scrollIntoView({ block: 'start' });
    } catch (e) {
      say(e.message, false);
    }
  });
  for (const button of document.querySelectorAll('button[data-request]')) {
    button.addEventListener('click', async () => {
      const request = button.dataset.request;
      if (request === 'abandon' && !window.confirm('Abandon this game? It stays in the log as abandoned.')) return;
      try {
        const answer = await host(request, {});
        say(`${request}: done${answer && answer.message ? ` — ${answer.message}` : ''}.`, true);
      } catch (e) {
        say(`${request}: ${e.message}`, false);
      }
    });
  }
  $('send-chance').addEventListener('click', async () => {
    let body;
    try {
      body = slugsFromNames(JSON.parse($('chance').value || '{}'), onStatus.edition);
    } catch (e) {
      say(`That is not JSON: ${e.message}`, false);
      return;
    }
    try {
      await host($('chance-kind').value, body);
      say(`${$('chance-kind').value}: accepted.`, true);
    } catch (e) {
      say(e.message, false);
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
