// The host's page: start a game, hand out the players' secret links as QR
// codes (each hidden once its player's page has opened), undo (saying what
// it took back, and asking first before it takes back a scoring the table
// has seen), pause, resume, abandon, enter physical Favourites cards at a
// coronation (js/reveal.js), answer the referee's question about an order
// the readers missed (issue 35). Chance by hand and tag enrolment are on the
// host's tools page (host-tools.html, js/host_tools.js). Every request carries
// the host's secret as "Authorization: Bearer": taken from the host's link
// (host.html#SECRET) and kept on this device (js/api.js). Any other device
// sees only "this page needs the host's link". The codes: js/player_codes.js.
// Every word is the catalog's (js/words.js), in this device's language.
import { esc, getJson, hostToken, liveEvents, postJson, setHostToken } from './api.js';
import { characterArg, characterName, isJester, kEditionSlugs, seatName, setRoster } from './names.js';
import { createPlayerCodes } from './player_codes.js';
import { createSeatControls } from './seat_controls.js';
import { createRevealForm } from './reveal.js';
import { say, sayHtml, sayOr, startWords } from './words.js';
import { phaseWord, stateWord } from './game_words.js';
import { createVoiceSettings } from './voice_settings.js';
import { showLanLink } from './lan_link.js';

const $ = (id) => document.getElementById(id);
const kSeats = { classic: [3, 6], online: [3, 6], 2024: [2, 8] };

const kBotCodes = { casual: 'page.host.by-casual', good: 'page.host.by-good', strong: 'page.host.by-strong' };
const kDoneCodes = {
  undo: 'page.host.done-undo', pause: 'page.host.done-pause', resume: 'page.host.done-resume', abandon: 'page.host.done-abandon',
};

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
  const kept = [...$('names').querySelectorAll('input.player-name')].map((i) => i.value);
  const keptBots = [...$('names').querySelectorAll('select.seat-bot')].map((i) => i.value);
  const keptVotes = [...$('names').querySelectorAll('select.seat-votes')].map((i) => i.value);
  const keptRemote = [...$('names').querySelectorAll('input.seat-remote')].map((i) => i.checked);
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
        <input type="text" class="player-name" data-player="${player}" maxlength="40" value="${esc(value)}" placeholder="${esc(playerPlaceholder(player))}"${clubMembers.length ? ' list="club-members" autocomplete="off"' : ''}></label>
        <span class="name-clash hidden" id="name-clash-${player}" role="status"></span>`);
    }
    // Any seat may be a bot: the referee plays it, and anyone at the table makes its moves.
    const bot = keptBots[seat] ?? '';
    const option = (v, text) => `<option value="${v}"${bot === v ? ' selected' : ''}>${esc(text)}</option>`;
    rows.push(`<label class="small">${esc(say('page.host.played-by', { seat: { seat } }))} <select class="seat-bot" data-seat="${seat}">
      ${option('', say('page.host.by-people'))}${Object.entries(kBotCodes).map(([v, code]) => option(v, say(code))).join('')}</select></label>`);
    // Issue 35: what the seat votes with (unset: the table's default, its
    // station where the castle has one, else the phone), and from afar.
    const votes = keptVotes[seat] ?? '';
    const voteOption = (v, code) => `<option value="${v}"${votes === v ? ' selected' : ''}>${esc(say(code))}</option>`;
    rows.push(`<span class="seat-play"><label class="small">${esc(say('page.host.seat.votes-with'))} <select class="seat-votes" data-seat="${seat}">
      ${voteOption('', 'page.host.seat.votes-default')}${voteOption('station', 'page.host.seat.votes-station')}${voteOption('phone', 'page.host.seat.votes-phone')}${voteOption('either', 'page.host.seat.votes-either')}</select></label>
      <label class="inline small"><input type="checkbox" class="seat-remote" data-seat="${seat}"${keptRemote[seat] ? ' checked' : ''}> <span>${esc(say('page.host.seat.remote'))}</span></label></span>`);
  });
  $('names').innerHTML = rows.join('');
  const first = $('first').value;
  $('first').innerHTML = Array.from({ length: seats }, (_, s) => `<option value="${s}">${esc(say('seat.numbered', { seat: { seat: s } }))}</option>`).join('');
  if (first && Number(first) < seats) $('first').value = first;
  flagNames();
}

// A name as the table compares it: case, accents and spaces aside (the
// daemon's words::looseNameKey, near enough for a flag as one types).
function looseName(text) {
  return String(text).normalize('NFKD').replace(/\p{Mn}/gu, '').toLowerCase().replace(/\s+/g, ' ').trim();
}

// The character a player's name reads as, in the edition chosen: its id,
// its whole name, or (but for the Jester) its name's first word; else null.
function characterNamed(name) {
  const key = looseName(name);
  if (!key) return null;
  for (const slug of kEditionSlugs[edition()] || []) {
    const whole = characterName(slug);
    const keys = [slug, whole];
    if (!isJester(slug)) keys.push(whole.split(/\s+/)[0]);
    if (keys.some((k) => looseName(k) === key)) return slug;
  }
  return null;
}

// Each name that is also a character's is flagged beside its box: a
// warning, not a refusal (REFEREE-NOTES.md, "Players' names").
function flagNames() {
  for (const input of $('names').querySelectorAll('input.player-name')) {
    const flag = $(`name-clash-${input.dataset.player}`);
    const slug = characterNamed(input.value);
    flag.classList.toggle('hidden', !slug);
    if (slug) {
      flag.textContent = say('name.is-character', { player: { player: input.value.trim() }, character: characterArg(slug) });
      input.setAttribute('aria-describedby', flag.id);
    } else {
      flag.textContent = '';
      input.removeAttribute('aria-describedby');
    }
  }
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
  // How each seat votes and whether it plays from afar: only what the host set (issue 35).
  const botSeats = new Set(bots.map((b) => b.seat));
  const seats = [];
  for (const select of $('names').querySelectorAll('select.seat-votes')) {
    const seat = Number(select.dataset.seat);
    const remote = $('names').querySelector(`input.seat-remote[data-seat="${seat}"]`)?.checked;
    if (botSeats.has(seat) || (!select.value && !remote)) continue;
    const entry = { seat };
    if (select.value) entry.votes = select.value;
    if (remote) entry.remote = true;
    seats.push(entry);
  }
  if (seats.length) body.seats = seats;
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
let seatControls = null;
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
  if (seatControls) seatControls.render(answer);
}

async function loadLinks() {
  try {
    showLinks(await getJson('/api/host/players', { host: true }));
    loadMembers();
    return true;
  } catch (e) {
    if (e.status === 401) {
      // An answer to a request made before the secret now kept (the page's
      // first look, before the host typed it) says nothing about that one.
      if (e.staleSecret) return false;
      lock(hostToken() ? say('page.host.not-accepted') : '');
      return false;
    }
    showLinks(null); // no game yet
    return true;
  }
}

// A 401: the secret kept here is not (or no longer) the host's. Said in
// the page's words unless the daemon sent its own message.
function lockRefused(e) {
  if (e.staleSecret) return; // a refusal of the secret before this one (api.js)
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
    onStatus.voice = createVoiceSettings($('voice-card'), (e) => (e.status === 401 ? lockRefused(e) : say(e.message, false)));
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
  // A game over (or abandoned): no code stays on screen, and no question about undo.
  const over = ['finished', 'abandoned', 'no-game'].includes(status.state);
  if (codes) codes.setGameOver(over);
  if (seatControls) {
    seatControls.setSeats(status.seats);
    seatControls.setState(status.state);
  }
  if (over) askUndo(null);
  showOrderQuestion(over ? null : status.order_question);
  const players = status.players || [];
  document.body.dataset.players = players.map((p) => seatName(p.seat, players)).join('|');
}

// The paragraphs whose commands and keys stay as written, in <code>.
function fillParagraphs() {
  const code = (text) => `<code data-words-skip>${esc(text)}</code>`;
  $('needs-link').innerHTML = sayHtml('page.host.needs-link', {}, { serve: code('vivaref serve'), hostLink: code('vivaref host-link') });
  $('or-type').innerHTML = sayHtml('page.host.or-type', {}, { key: code('host_token') });
}

// Undo: the daemon says what it took back ("Undone: Bruno’s vote on ...").
// One that would take back a scoring the table has seen is answered
// "needs-confirmation": the page asks (in the page, beside the buttons) and
// sends it again with "confirm": true only when the host says so.
async function undo(confirm) {
  askUndo(null);
  try {
    const answer = await host('undo', confirm ? { confirm: true } : {});
    tell(sayOr(answer.says, say(kDoneCodes.undo)), true);
  } catch (e) {
    if (e.code === 'needs-confirmation' && !confirm) askUndo(refusalOf(e));
    else tell(refusalOf(e), false);
  }
}

// The order the readers missed, or none (null): the referee's question and
// one button per answer, each saying who did what (REFEREE-NOTES.md, "When
// the readers are late"). Built again only when the question changes, so a
// status update does not take the host's focus away.
function showOrderQuestion(question) {
  $('order-question').classList.toggle('hidden', !question);
  const key = question ? JSON.stringify(question.answers.map((a) => a.characters)) : '';
  if (key === showOrderQuestion.key) return;
  showOrderQuestion.key = key;
  const answers = $('order-answers');
  answers.textContent = '';
  $('order-question-text').textContent = question ? sayOr(question.says, question.text) : '';
  if (!question) return;
  for (const answer of question.answers) {
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'order-answer';
    button.dataset.characters = answer.characters.join(' ');
    button.textContent = sayOr(answer.says, answer.text);
    button.addEventListener('click', async () => {
      try {
        const done = await host('order', { characters: answer.characters });
        tell(sayOr(done.says, done.message), true);
      } catch (e) {
        tell(refusalOf(e), false);
      }
    });
    answers.append(button);
  }
  $('order-question').scrollIntoView({ block: 'nearest' });
}

// The question about an undo, or none (null).
function askUndo(question) {
  const box = $('undo-confirm');
  box.classList.toggle('hidden', question === null);
  $('undo-confirm-text').textContent = question || '';
  if (question !== null) {
    tell('', true);
    $('undo-confirm-no').focus();
    box.scrollIntoView({ block: 'nearest' });
  }
}

async function start() {
  await startWords();
  showLanLink(); // opened at 127.0.0.1: the link phones open instead (lan_link.js)
  fillParagraphs();
  codes = createPlayerCodes($('links'), { say: tell, onHostError: (e) => { if (e.status === 401) lockRefused(e); } });
  seatControls = createSeatControls($('seat-rows'), $('seats-card'), { tell, onHostError: (e) => { if (e.status === 401) lockRefused(e); } });
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
      // Started, with a word about a player named as a character.
      const warning = answer.warning_says || answer.warning ? sayOr(answer.warning_says, answer.warning) : '';
      $('message-warning').textContent = warning;
      $('message-warning').classList.toggle('hidden', !warning);
      $('links-card').scrollIntoView({ block: 'start' });
    } catch (e) {
      tell(refusalOf(e), false);
    }
  });
  $('names').addEventListener('input', flagNames);
  $('undo-confirm-yes').addEventListener('click', () => undo(true));
  const keepGame = () => {
    askUndo(null);
    tell(say('page.host.undo-kept'), true);
  };
  $('undo-confirm-no').addEventListener('click', keepGame);
  // Escape answers the question as the safe button does: nothing undone.
  $('undo-confirm').addEventListener('keydown', (event) => {
    if (event.key === 'Escape') keepGame();
  });
  for (const button of document.querySelectorAll('button[data-request]')) {
    button.addEventListener('click', async () => {
      const request = button.dataset.request;
      if (request === 'undo') {
        await undo(false);
        return;
      }
      askUndo(null);
      if (request === 'abandon' && !window.confirm(say('page.host.confirm-abandon'))) return;
      try {
        await host(request, {});
        tell(say(kDoneCodes[request]), true);
      } catch (e) {
        tell(refusalOf(e), false);
      }
    });
  }
  let info = { hostTokenRequired: false };
  try {
    info = await getJson('/api/info');
  } catch {
    /* the banner tells */
  }
  if (info.simulated) $('sim-link').classList.remove('hidden');
  if (info.hostTokenRequired && !hostToken()) lock('');
  else if (await loadLinks()) unlocked();
  // At each (re)connection the links are asked again with the next status:
  // after a restart they are the same, save when the daemon could not read
  // the ones it kept and made new ones (issue 35).
  liveEvents({ status: onStatus, open: () => { onStatus.linksFor = null; } }, $('banner'));
}

start();
