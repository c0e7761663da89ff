// The simulated board: anyone can play the whole referee in a browser.
// Characters are moved with POST /api/sim/put and /api/sim/lift, vote keys
// pressed with /api/sim/press; the board and every LED come from the "sim"
// event (GET /api/sim/state). The public status only adds whose turn it is
// and what the referee says. A vote is secret: a press is told without its
// key and only for a moment (the next person at the board would read it),
// and a seat the referee plays has no keys at all.
import { announce, announceStatus } from './announce.js';
import { esc, getJson, liveEvents, postJson } from './api.js';
import { attachBoardInteraction, drawCastle, tokensFromSimBoard } from './castle.js';
import { kEditionSlugs, setRoster } from './names.js';
import { say as sayWords, sayOr, startWords } from './words.js';
import { characterArg, placeArg, seatText, textArg, voteText } from './words_args.js';

const $ = (id) => document.getElementById(id);
let sim = null;
let status = null;
let interaction = null;
let pendingDraw = false;
let selected = null;
let lastShown = '';
// How long "Anna: key pressed." stays: long enough to see the press was
// taken, gone before the next person comes to the board.
const kPressShownMs = 3000;
let pressShown = null;

// The page's line of news, also said by the page's announcement area
// (a refusal interrupts; the rest waits its turn).
function say(text, ok) {
  const node = $('message');
  node.textContent = text;
  node.className = `message ${ok ? 'ok' : 'error'}`;
  node.classList.toggle('hidden', !text);
  announce(text, { urgent: !ok });
}

function edition() {
  return (status && status.edition) || 'classic';
}

function slugs() {
  const expected = status && status.board && status.board.expected;
  if (expected && Object.keys(expected).length) return Object.keys(expected);
  return kEditionSlugs[edition()] || kEditionSlugs.classic;
}

// "place-3" -> "3": the place LEDs are drawn on the castle.
function placeLeds() {
  const out = {};
  const leds = (sim && sim.leds) || {};
  for (const place of ['0', '1', '2', '3', '4', '5', '6', 'wc3', 'wc4', 'dungeon1', 'dungeon2', 'dungeon3'])
    out[place] = leds[`place-${place}`] || 'off';
  return out;
}

function drawBoard() {
  if (interaction && interaction.busy()) {
    pendingDraw = true;
    return;
  }
  pendingDraw = false;
  const expected = status && status.board ? status.board.expected : null;
  drawCastle($('castle'), {
    edition: edition(),
    tokens: tokensFromSimBoard(sim ? sim.board : {}, slugs(), expected),
    leds: placeLeds(),
    selected,
    trayTitle: sayWords('page.sim.tray'),
  });
  document.body.dataset.simNow = sim ? String(sim.now) : '';
}

// The seats the referee plays: no keys there.
function botSeats() {
  const players = (status && status.players) || [];
  return new Set(players.filter((p) => p.bot).map((p) => p.seat));
}

function seats() {
  const players = (status && status.players) || [];
  if (!players.length) return [0, 1, 2, 3];
  return [...new Set(players.map((p) => p.seat))].sort((a, b) => a - b);
}

// An LED's state in words ("on", "blinking").
function modeWords(mode) {
  switch (mode) {
    case 'on': return sayWords('page.sim.led-on');
    case 'blink': return sayWords('page.sim.led-blink');
    case 'pulse': return sayWords('page.sim.led-pulse');
    case 'hint': return sayWords('teach.led-hint');
    case 'off': return sayWords('page.sim.led-off');
    default: return mode;
  }
}

// An LED by its name (drivers/leds/led_names.cpp: place-3, turn-0, station-0) in words.
function ledWords(name) {
  const [, family, which] = /^(place|turn|station)-(.+)$/.exec(name) || [];
  if (family === 'place') return sayWords('page.games.who', { who: placeArg(which) });
  if (family === 'turn') return sayWords('page.sim.led-turn', { seat: { seat: Number(which) } });
  if (family === 'station') return sayWords('page.sim.led-vote', { seat: { seat: Number(which) } });
  return name;
}

function lampHtml(mode, name) {
  const m = mode || 'off';
  const text = sayWords('page.sim.lamp', { led: textArg(ledWords(name)), mode: textArg(modeWords(m)) });
  return `<span class="lamp ${esc(m)}" data-led="${esc(name)}" title="${esc(text)}">${esc(text)}</span>`;
}

// A lamp's span, changed in place only where it differs.
function setLamp(node, mode, label) {
  const m = mode || 'off';
  const cls = `lamp ${m}`;
  if (node.className !== cls) node.className = cls;
  const text = sayWords('page.sim.lamp', { led: textArg(label), mode: textArg(modeWords(m)) });
  if (node.textContent !== text) {
    node.textContent = text;
    node.title = text;
  }
}

// A key's name without its sign, for its button's accessible name.
const kKeyNames = { yes: () => sayWords('vote.yes'), no: () => sayWords('vote.no'), stomachache: () => sayWords('vote.stomachache') };

// The stations are built once for a set of seats and keys, then updated in
// place: a button is never replaced under a finger or a mouse on its way to it.
let stationsShape = '';
function drawStations() {
  const leds = (sim && sim.leds) || {};
  const players = (status && status.players) || [];
  const keys = edition() === '2024' ? ['yes', 'no', 'stomachache'] : ['yes', 'no'];
  // A key's short words (the station's buttons are narrow).
  const words = { yes: esc(voteText('yes')), no: esc(voteText('no')), stomachache: esc(`☹ ${sayWords('page.sim.key-stomachache')}`) };
  const seatList = seats();
  const bots = botSeats();
  const box = $('stations');
  const shape = JSON.stringify([seatList, keys, [...bots]]);
  if (shape !== stationsShape) {
    stationsShape = shape;
    box.innerHTML = seatList.map((s) => {
      const row = bots.has(s)
        ? `<div class="small muted">${esc(sayWords('page.sim.bot-no-keys'))}</div>`
        : `<div class="row">${keys.map((k) => `<button type="button" data-station="${s}" data-key="${k}">${words[k]}</button>`).join('')}</div>`;
      return `<div class="station" data-station="${s}">
      <div><b class="station-name"></b></div>
      <div><span class="lamp" data-lamp="turn"></span> <span class="lamp" data-lamp="vote"></span></div>
      ${row}
    </div>`;
    }).join('');
  }
  for (const s of seatList) {
    const station = box.querySelector(`.station[data-station="${s}"]`);
    const name = station.querySelector('.station-name');
    if (name.textContent !== seatText(s, players)) name.textContent = seatText(s, players);
    // Each key says whose it is ("Seat 2 (Bruno): Yes"): three rows of Yes/No look alike to a screen reader.
    const named = players.some((p) => p.seat === s && p.name);
    for (const button of station.querySelectorAll('button[data-key]')) {
      const key = { text: kKeyNames[button.dataset.key] ? kKeyNames[button.dataset.key]() : button.dataset.key };
      const label = named
        ? sayWords('page.a11y.station-key', { seat: { seat: s }, who: textArg(seatText(s, players)), key })
        : sayWords('page.a11y.station-key-unnamed', { seat: { seat: s }, key });
      if (button.getAttribute('aria-label') !== label) button.setAttribute('aria-label', label);
    }
    setLamp(station.querySelector('[data-lamp="turn"]'), leds[`turn-${s}`], sayWords('page.sim.lamp-turn'));
    setLamp(station.querySelector('[data-lamp="vote"]'), leds[`station-${s}`], sayWords('page.sim.lamp-vote'));
  }
  const all = Object.keys(leds).sort();
  $('leds').innerHTML = all.length ? all.map((name) => lampHtml(leds[name], name)).join(' ') : esc(sayWords('page.sim.no-led'));
}

function drawStatus() {
  if (!status) return;
  setRoster(status.roster);
  $('game-line').textContent = status.game
    ? sayWords('page.sim.game-line', { id: textArg(status.game), state: textArg(stateWords(status.state)) })
    : sayWords('page.sim.no-game');
  $('waiting').textContent = status.state === 'no-game' ? sayWords('page.sim.no-game-start') : sayOr(status.waiting_says, status.waiting_for);
  // The refusal and its steps, and the guidance: the referee's messages.
  const r = status.refusal;
  $('refusal-line').textContent = r ? sayWords('page.sim.refused', { why: textArg(sayOr(r.text_says, r.text || r.message)) }) : '';
  $('refusal-line').classList.toggle('hidden', !r);
  const g = status.guidance;
  $('guidance-line').textContent = g ? sayWords('page.sim.guidance', { steps: textArg(sayOr(g.says, g.text)) }) : '';
  $('guidance-line').classList.toggle('hidden', !g);
}

function stateWords(state) {
  switch (state) {
    case 'playing': return sayWords('page.sim.state-playing');
    case 'paused': return sayWords('page.sim.state-paused');
    case 'finished': return sayWords('page.sim.state-finished');
    case 'abandoned': return sayWords('page.sim.state-abandoned');
    default: return state || '';
  }
}

async function move(slug, place) {
  try {
    if (place === 'tray') await postJson('/api/sim/lift', { character: slug });
    else await postJson('/api/sim/put', { character: slug, place });
    say(place === 'tray'
      ? sayWords('page.sim.lifted', { c: characterArg(slug) })
      : sayWords('page.sim.put', { c: characterArg(slug), p: placeArg(place) }), true);
  } catch (e) {
    say(sayOr(e.says, e.message), false);
  }
}

async function press(station, key) {
  try {
    await postJson('/api/sim/press', { station, key });
    // Never the key: it is the seat's secret vote.
    const text = sayWords('page.sim.key-pressed', { who: textArg(seatText(station, (status && status.players) || [])) });
    say(text, true);
    clearTimeout(pressShown);
    pressShown = setTimeout(() => {
      if ($('message').textContent === text) say('', true);
    }, kPressShownMs);
  } catch (e) {
    say(sayOr(e.says, e.message), false);
  }
}

async function start() {
  await startWords(); // the shared words (names.js, castle.js) need the catalog
  let info = null;
  try {
    info = await getJson('/api/info');
  } catch {
    /* shown by the banner */
  }
  if (info && !info.simulated) {
    $('not-sim').classList.remove('hidden');
    return;
  }
  interaction = attachBoardInteraction($('castle'), (slug, place) => move(slug, place), (slug) => {
    selected = slug;
    drawBoard();
    if (slug) say(sayWords('page.sim.selected', { c: characterArg(slug) }), true);
  });
  document.addEventListener('pointerup', () => setTimeout(() => pendingDraw && drawBoard(), 0));
  $('stations').addEventListener('click', (event) => {
    const button = event.target.closest('button[data-key]');
    if (!button) return;
    // A key left focused (its ring) would show the next person which was pressed.
    button.blur();
    press(Number(button.dataset.station), button.dataset.key);
  });
  liveEvents({
    status: (s) => {
      status = s;
      announceStatus(s); // the referee's refusals, elections and votes, as on the status page
      drawStatus();
      drawBoard();
      drawStations();
    },
    sim: (s) => {
      // The state carries the castle's clock: redraw only when what it shows changed.
      const shown = JSON.stringify([s.board, s.leds]);
      if (shown === lastShown) return;
      lastShown = shown;
      sim = s;
      drawBoard();
      drawStations();
    },
  }, $('banner'));
  drawBoard();
  drawStations();
}

await startWords();
start();
