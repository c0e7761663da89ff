// The simulated board: anyone can play the whole referee in a browser.
// Characters are moved with POST /api/sim/put and /api/sim/lift, vote keys
// pressed with /api/sim/press; the board and every LED come from the "sim"
// event (GET /api/sim/state). The public status only adds whose turn it is
// and what the referee says. A vote is secret: a press is told without its
// key and only for a moment (the next person at the board would read it),
// and a seat the referee plays has no keys at all.
import { esc, getJson, liveEvents, postJson } from './api.js';
import { attachBoardInteraction, drawCastle, tokensFromSimBoard } from './castle.js';
import { characterName, kEditionSlugs, placeName, seatName, setRoster } from './names.js';
import { startWords } from './words.js';

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

function say(text, ok) {
  const node = $('message');
  node.textContent = text;
  node.className = `message ${ok ? 'ok' : 'error'}`;
  node.classList.toggle('hidden', !text);
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
    trayTitle: 'Off the castle',
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

function lampHtml(mode, label) {
  const m = mode || 'off';
  return `<span class="lamp ${esc(m)}" title="${esc(label)}: ${esc(m)}">${esc(label)} ${esc(m)}</span>`;
}

// A lamp's span, changed in place only where it differs.
function setLamp(node, mode, label) {
  const m = mode || 'off';
  const cls = `lamp ${m}`;
  if (node.className !== cls) node.className = cls;
  if (node.textContent !== `${label} ${m}`) {
    node.textContent = `${label} ${m}`;
    node.title = `${label}: ${m}`;
  }
}

// The stations are built once for a set of seats and keys, then updated in
// place: a button is never replaced under a finger or a mouse on its way to it.
let stationsShape = '';
function drawStations() {
  const leds = (sim && sim.leds) || {};
  const players = (status && status.players) || [];
  const keys = edition() === '2024' ? ['yes', 'no', 'stomachache'] : ['yes', 'no'];
  const words = { yes: '✔ Yes', no: '✘ No', stomachache: '☹ Stomach' };
  const seatList = seats();
  const bots = botSeats();
  const box = $('stations');
  const shape = JSON.stringify([seatList, keys, [...bots]]);
  if (shape !== stationsShape) {
    stationsShape = shape;
    box.innerHTML = seatList.map((s) => {
      const row = bots.has(s)
        ? '<div class="small muted">No keys: played by the referee.</div>'
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
    if (name.textContent !== seatName(s, players)) name.textContent = seatName(s, players);
    setLamp(station.querySelector('[data-lamp="turn"]'), leds[`turn-${s}`], 'turn');
    setLamp(station.querySelector('[data-lamp="vote"]'), leds[`station-${s}`], 'vote');
  }
  const all = Object.keys(leds).sort();
  $('leds').innerHTML = all.length ? all.map((name) => lampHtml(leds[name], name)).join(' ') : 'No LED lit.';
}

function drawStatus() {
  if (!status) return;
  setRoster(status.roster);
  $('game-line').textContent = status.game ? `Game ${status.game} · ${status.state}` : 'No game yet';
  $('waiting').textContent = status.state === 'no-game' ? 'No game yet: start one on the Host page.' : status.waiting_for || '';
  const r = status.refusal;
  $('refusal-line').textContent = r ? `Not allowed: ${r.message} To go on: ${(r.restore || []).map((m) => m.to ? `${characterName(m.character)} back on ${placeName(m.to)}` : `${characterName(m.character)} off the castle`).join('; ')}.` : '';
  $('refusal-line').classList.toggle('hidden', !r);
  const g = status.guidance;
  $('guidance-line').textContent = g ? `➜ Set the board: ${(g.moves || []).map((m) => m.to ? `${characterName(m.character)} to ${placeName(m.to)}` : `${characterName(m.character)} off the castle`).join('; ')}.` : '';
  $('guidance-line').classList.toggle('hidden', !g);
}

async function move(slug, place) {
  try {
    if (place === 'tray') await postJson('/api/sim/lift', { character: slug });
    else await postJson('/api/sim/put', { character: slug, place });
    say(place === 'tray' ? `${characterName(slug)} lifted off the castle.` : `${characterName(slug)} put on ${placeName(place)}.`, true);
  } catch (e) {
    say(e.message, false);
  }
}

async function press(station, key) {
  try {
    await postJson('/api/sim/press', { station, key });
    // Never the key: it is the seat's secret vote.
    const text = `${seatName(station, (status && status.players) || [])}: key pressed.`;
    say(text, true);
    clearTimeout(pressShown);
    pressShown = setTimeout(() => {
      if ($('message').textContent === text) say('', true);
    }, kPressShownMs);
  } catch (e) {
    say(e.message, false);
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
    if (slug) say(`${characterName(slug)} selected: tap a place.`, true);
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

start();
