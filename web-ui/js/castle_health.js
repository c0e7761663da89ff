// The Castle health page (issue 36): every reader of the castle at its
// place in the tower, live, with a state a person reads at a glance (a mark
// and a word, not only a colour) and its figures; the cross-reads; the vote
// keys' last presses. The host's only: the page asks GET /api/host/castle
// with the secret kept on this device (castle.html#SECRET adopts it, as the
// host's page does); without it, it shows nothing of the castle. Polled once
// a second (the castle's health is the host's business, and the event
// stream is public: API.md).
import { esc, getJson, hostToken, setHostToken } from './api.js';
import { characterName, floorShort, placeName, seatNumber, setRoster, voteWord } from './names.js';
import { pageLanguage, say, sayHtml, sayOr, startWords } from './words.js';

const $ = (id) => document.getElementById(id);
const kEvery = 1000;
// The tower from the top: the throne, floors 5 to 0, each side place after
// the floor it stands beside (the WCs beside 3 and 4, the dungeons beside 3, 2, 1).
const kTower = ['6', '5', '4', 'wc4', '3', 'wc3', 'dungeon3', '2', 'dungeon2', '1', 'dungeon1', '0'];
const kFloors = new Set(['0', '1', '2', '3', '4', '5', '6']);
const kMarks = { answers: '✔', failing: '⚠', silent: '✘', 'cross-reads': '⇄', clone: '◇' };
const kStateWords = {
  answers: () => say('page.castle.health.state-answers'),
  failing: () => say('page.castle.health.state-failing'),
  silent: () => say('page.castle.health.state-silent'),
  'cross-reads': () => say('page.castle.health.state-cross-reads'),
  clone: () => say('page.castle.health.state-clone'),
};
const kErrorWords = {
  'no-answer': () => say('page.castle.health.error-no-answer'),
  'wrong-version': () => say('page.castle.health.error-wrong-version'),
  protocol: () => say('page.castle.health.error-protocol'),
  bus: () => say('page.castle.health.error-bus'),
  'antenna-off': () => say('page.castle.health.error-antenna-off'),
};
let timer = null;

const code = (text) => `<code data-words-skip>${esc(text)}</code>`;
const seconds = (ms) => Math.max(0, Math.round((ms || 0) / 1000));
const listOf = (items) => new Intl.ListFormat(pageLanguage(), { type: 'conjunction' }).format(items);

function lock(message) {
  setHostToken('');
  if (timer) clearTimeout(timer);
  timer = null;
  $('health').classList.add('hidden');
  $('tower').innerHTML = '';
  $('unlock').classList.remove('hidden');
  const m = $('unlock-message');
  m.textContent = message || '';
  m.className = 'message error';
  m.classList.toggle('hidden', !message);
}

function tell(text) {
  const node = $('message');
  node.textContent = text || '';
  node.className = 'message error';
  node.classList.toggle('hidden', !text);
}

// A tag as the page names it: its character, else its UID.
const tagName = (tag) => (tag.character ? characterName(tag.character) : tag.uid);

function chipLine(chip) {
  if (!chip) return say('page.castle.health.chip-unknown');
  // A genuine chip by its model's name (a product's: "MFRC522 v2.0"); a clone by the word alone.
  const version = { text: chip.version || '?' };
  if (chip.clone) return say('page.castle.health.chip-clone', { version });
  if (!chip.model && chip.kind === 'mfrc522') return say('page.castle.health.chip-not-mfrc522', { version });
  return say('page.castle.health.chip', { model: { text: chip.model || chip.kind }, version });
}

function readerHtml(r) {
  const lines = [];
  const line = (text, cls = '') => lines.push(`<li class="${cls}">${esc(text)}</li>`);
  if (!r.answers)
    line(r.last_read_ms_ago === null ? say('page.castle.health.never-read') : say('page.castle.health.silent-for', { n: seconds(r.last_read_ms_ago) }), 'figure-bad');
  line(say('page.castle.health.reads', { n: r.reads_per_second }));
  line(chipLine(r.chip), r.chip && r.chip.clone ? 'figure-bad' : '');
  if (r.answers) line(r.tags.length ? say('page.castle.health.sees', { tags: { text: listOf(r.tags.map(tagName)) } }) : say('page.castle.health.sees-nothing'));
  const failed = r.failed || {};
  if (!failed.count) line(say('page.castle.health.failed-none'));
  else {
    const kind = kErrorWords[failed.kind] ? kErrorWords[failed.kind]() : failed.kind;
    line(say('page.castle.health.failed', { n: failed.count, kind: { text: kind }, s: seconds(failed.ms_ago) }), failed.recent ? 'figure-bad' : '');
    if (failed.message) lines.push(`<li class="small">${code(failed.message)}</li>`);
  }
  if (r.unknown && r.unknown.count)
    line(say('page.castle.health.unknown', { n: r.unknown.count, uids: { text: listOf(r.unknown.last) } }), 'figure-warn');
  if (r.garbled && r.garbled.count) line(say('page.castle.health.garbled', { n: r.garbled.count }), 'figure-warn');
  if (r.wiring && r.wiring.bus) {
    const wires = [r.wiring.type, r.wiring.bus, r.wiring.chip_select].filter(Boolean).join(' · ');
    lines.push(`<li class="small">${code(wires)}</li>`);
  }
  const state = kStateWords[r.state] ? r.state : 'answers';
  return `<article class="reader state-${state}" data-reader="${esc(r.name)}">
    <h4><span class="reader-name" data-words-skip>${esc(r.name)}</span>
      <span class="reader-state">${kMarks[state]} ${esc(kStateWords[state]())}</span></h4>
    <ul class="reader-figures">${lines.join('')}</ul></article>`;
}

// A place's heading, as the castle's picture labels it: "Floor 3", "Throne", "WC 4", "Dungeon 2".
function placeTitle(p) {
  if (kFloors.has(p)) return floorShort(Number(p));
  if (/^wc\d$/.test(p)) return say('page.castle.wc', { floor: Number(p.slice(2)) });
  if (/^dungeon\d$/.test(p)) return say('page.castle.dungeon', { number: Number(p.slice(7)) });
  return placeName(p);
}

function drawTower(readers) {
  const byPlace = new Map();
  for (const r of readers) {
    if (!byPlace.has(r.place)) byPlace.set(r.place, []);
    byPlace.get(r.place).push(r);
  }
  const places = kTower.filter((p) => kFloors.has(p) || byPlace.has(p));
  for (const p of byPlace.keys()) if (!places.includes(p)) places.push(p);
  $('tower').innerHTML = places.map((p) => {
    const here = byPlace.get(p) || [];
    const side = kFloors.has(p) ? 'floor' : 'side';
    return `<section class="health-place ${side}" data-place="${esc(p)}">
      <h3>${esc(placeTitle(p))}</h3>
      ${here.length ? here.map(readerHtml).join('') : `<p class="small">${esc(say('page.castle.health.no-reader'))}</p>`}
    </section>`;
  }).join('');
}

function drawSummary(report) {
  const count = (state) => report.readers.filter((r) => r.state === state).length;
  const answering = report.readers.filter((r) => r.answers).length;
  const items = [say('page.castle.health.summary', { answering, total: report.readers.length })];
  const silent = count('silent');
  if (silent) items.push(say('page.castle.health.summary-silent', { n: silent }));
  const failing = count('failing');
  if (failing) items.push(say('page.castle.health.summary-failing', { n: failing }));
  const pairs = report.cross_reads.filter((c) => c.now).length;
  if (pairs) items.push(say('page.castle.health.summary-cross', { n: pairs }));
  const clones = report.readers.filter((r) => r.chip && r.chip.clone).length;
  if (clones) items.push(say('page.castle.health.summary-clone', { n: clones }));
  $('summary').innerHTML = items.map((t, i) => `<li class="${i === 0 && !silent && !failing && !pairs ? 'all-well' : ''}">${esc(t)}</li>`).join('');
}

function drawCross(report) {
  const pairs = [...report.cross_reads].sort((a, b) => (b.now - a.now) || (a.last_ms_ago - b.last_ms_ago));
  $('cross').innerHTML = pairs.length
    ? pairs.map((c) => {
        const args = { a: { text: c.readers[0] }, b: { text: c.readers[1] }, tag: { text: tagName(c.tag) }, n: c.count, s: seconds(c.last_ms_ago) };
        const text = say(c.now ? 'page.castle.health.pair-now' : 'page.castle.health.pair-before', args);
        return `<li class="${c.now ? 'pair-now' : 'pair-before'}" data-pair="${esc(c.readers.join(' '))}">${esc(text)}</li>`;
      }).join('')
    : `<li>${esc(say('page.castle.health.cross-none'))}</li>`;
}

function keyLine(seat, key, press, line, down) {
  const args = { seat: { seat }, key: { text: voteWord(key) }, n: press ? press.presses : 0, s: seconds(press && press.pressed_ms_ago) };
  let text = say(args.n ? 'page.castle.health.key-pressed' : 'page.castle.health.key-never', args);
  // A key that reads pressed now: held, or stuck (a stuck key never gives a press).
  if (down) text = say('page.castle.health.key-down', { seat: { seat }, key: { text: voteWord(key) } });
  return `<li data-key="${seatNumber(seat)}-${esc(key)}" class="${down ? 'key-down' : ''}">${esc(text)}${line ? ` ${code(line)}` : ''}</li>`;
}

function drawKeys(report) {
  const items = [];
  for (const station of report.stations || [])
    for (const [key, k] of Object.entries(station.keys || {})) items.push(keyLine(station.seat, key, k, k.line, k.down));
  const configured = new Set((report.stations || []).map((s) => s.seat));
  const downs = new Set((report.keys_down || []).map((k) => `${k.seat}-${k.key}`));
  for (const p of report.presses || []) if (!configured.has(p.seat)) items.push(keyLine(p.seat, p.key, p, '', downs.has(`${p.seat}-${p.key}`)));
  if (report.every_seat) items.unshift(`<li class="small">${esc(say('page.castle.health.keys-every-seat'))}</li>`);
  if (!items.length) items.push(`<li>${esc(say('page.castle.health.keys-none'))}</li>`);
  $('keys').innerHTML = items.join('');
}

function draw(report) {
  drawSummary(report);
  drawTower(report.readers);
  drawCross(report);
  drawKeys(report);
  document.body.dataset.ready = '1';
}

// One look, then the next a second after it answered.
async function follow() {
  timer = null;
  try {
    draw(await getJson('/api/host/castle', { host: true }));
    tell('');
    $('unlock').classList.add('hidden');
    $('health').classList.remove('hidden');
  } catch (e) {
    if (e.status === 401) {
      lock(sayOr(e.says, e.message));
      return;
    }
    // 429 (this address guessed wrong secrets lately): the secret kept here may be right; asked again.
    tell(say('page.castle.health.failed-to-read', { why: { text: sayOr(e.says, e.message) } }));
  }
  timer = setTimeout(follow, kEvery);
}

function fillParagraphs() {
  $('needs-link').innerHTML = sayHtml('page.host.needs-link', {}, { serve: code('vivaref serve'), hostLink: code('vivaref host-link') });
  $('or-type').innerHTML = sayHtml('page.host.or-type', {}, { key: code('host_token') });
}

async function start() {
  await startWords();
  fillParagraphs();
  $('unlock').addEventListener('submit', (event) => {
    event.preventDefault();
    setHostToken($('token').value.trim());
    if (!timer) follow();
  });
  try {
    const [info, status] = await Promise.all([getJson('/api/info'), getJson('/api/status')]);
    if (info.simulated) $('sim-link').classList.remove('hidden');
    setRoster(status.roster);
  } catch {
    /* the names fall back to the slugs' */
  }
  if (!hostToken()) lock('');
  else follow();
}

start();
