// The castle as an SVG picture, shared by the status, review and simulated
// board pages. A page turns what it knows into a list of tokens (a
// character at a place, in a state) with the helpers below, then draws.
//
// Places: "0".."5" floors, "6" the throne, "wc3" "wc4" beside floors 3 and 4,
// "dungeon3" "dungeon2" "dungeon1" beside floors 3, 2, 1 (2024 only), and two
// areas that are not on the castle: "hand" (lifted, in someone's hand) and
// "tray" (off the castle: in the box or not placed yet).
//
// Token states, each with a shape or a mark and not only a colour:
//   ok        where the referee expects it
//   moved     seen here but expected elsewhere: dashed red outline and "!"
//   ghost     expected here but not here: hatched, dashed, italic, "?"
//   inhand    lifted: in the "In hand" area
//   uncertain the readers are not sure: dotted outline
//   candidate on the throne, under election: thick outline and a ♛ badge
//   king      crowned: gold with a ♛ badge
import { esc } from './api.js';
import { attachKeyboard } from './castle_keys.js';
import { castleText, pieceWords } from './castle_text.js';
import { floorShort, floorTitle, isJester, placeName, shortName } from './names.js';
import { pageLanguage, say } from './words.js';

const kTokenW = 86;
const kTokenH = 34;
const kGap = 6;
const kLabelH = 22;
const kLampRowH = 18;
const kSvgNs = 'http://www.w3.org/2000/svg';
// Dragging near the window's edge: the band that scrolls, the pause first, the step a frame.
const kEdgePx = 32;
const kEdgePauseMs = 300;
const kEdgeStepPx = 14;

export const kBoardPlaces = ['0', '1', '2', '3', '4', '5', '6'];
export const kPlaces2024 = ['wc3', 'wc4', 'dungeon1', 'dungeon2', 'dungeon3'];

// Tokens from the referee's public status: where the board shows each
// character, against where the engine expects it.
export function tokensFromStatus(status) {
  const tokens = [];
  const board = status.board || {};
  const expected = board.expected || {};
  const seen = board.seen || {};
  const view = status.view || {};
  const positions = view.positions || {};
  const candidate = status.election ? status.election.candidate : view.candidate;
  const slugs = new Set([...Object.keys(expected), ...Object.keys(seen)]);
  for (const slug of slugs) {
    const want = expected[slug] ?? null;
    const sighting = seen[slug] || null;
    // `want`: where the referee expects it (null: off the castle), for the castle's list.
    const mark = (place, state, note, inBox = false) => tokens.push({ slug, place, state, note, inBox, want });
    if (sighting && sighting.on !== undefined) {
      let state = sighting.on === want ? 'ok' : 'moved';
      if (state === 'ok' && sighting.on === '6') {
        const crowned = view.last_reveal && view.last_reveal.outcome === 'crowned' && view.last_reveal.candidate === slug;
        state = positions[slug] === 'throne-side' || (crowned && !status.election) ? 'king' : slug === candidate ? 'candidate' : 'ok';
      }
      mark(sighting.on, sighting.uncertain && state === 'ok' ? 'uncertain' : state,
        state === 'moved' ? noteOf('should-be', want) : '');
      if (want && want !== sighting.on) mark(want, 'ghost', noteOf('expected', want));
    } else if (sighting && sighting.in_hand) {
      mark('hand', 'inhand', sighting.lifted_from ? noteOf('lifted-from', sighting.lifted_from) : '');
      if (want) mark(want, 'ghost', say('page.castle.note-in-hand'));
    } else if (sighting && sighting.unclear) {
      mark('hand', 'uncertain', say('page.castle.note-unclear-where', { places: { text: orList(sighting.unclear.map(placeName)) } }));
      if (want) mark(want, 'ghost', say('page.castle.note-unclear'));
    } else if (want) {
      mark(want, 'ghost', say('page.castle.note-missing'));
    } else {
      const inBox = positions[slug] === 'box';
      mark('tray', 'ok', inBox ? say('page.castle.note-box') : '', inBox);
    }
  }
  return tokens;
}

// A token's note about a place, one sentence each.
function noteOf(what, place) {
  if (place === null || place === undefined) return say('page.castle.note-off');
  const p = { place: String(place) };
  if (what === 'should-be') return say('page.castle.note-should-be', { p });
  if (what === 'expected') return say('page.castle.note-expected', { p });
  return say('page.castle.note-lifted-from', { p });
}

// "floor 2 or floor 3", by the browser's rules for the page's language.
function orList(items) {
  try {
    return new Intl.ListFormat(pageLanguage(), { type: 'disjunction' }).format(items);
  } catch {
    return items.join(' / ');
  }
}

// Tokens from an engine view's positions ({slug: "3" | "box" | "reserve" | ...}).
export function tokensFromPositions(positions, candidate) {
  const tokens = [];
  for (const [slug, place] of Object.entries(positions || {})) {
    if (place === 'box' || place === 'reserve' || place === null) {
      tokens.push({ slug, place: 'tray', state: 'ok', note: place === 'box' ? say('page.castle.note-box') : '', inBox: place === 'box' });
    } else if (place === 'throne-side') {
      tokens.push({ slug, place: '6', state: 'king' });
    } else {
      // On the throne: the candidate while the election runs, else the King.
      tokens.push({ slug, place, state: place !== '6' ? 'ok' : slug === candidate ? 'candidate' : 'king' });
    }
  }
  return tokens;
}

// Tokens from the simulated castle's board ({place: [slug...]}); every
// other character of `slugs` is off the castle. `expected` (optional,
// {slug: place|null}) marks the characters not where the referee wants them.
export function tokensFromSimBoard(board, slugs, expected) {
  const tokens = [];
  const onBoard = new Set();
  for (const [place, list] of Object.entries(board || {})) {
    for (const slug of list) {
      onBoard.add(slug);
      const want = expected ? expected[slug] ?? null : place;
      tokens.push({ slug, place, state: want === place ? 'ok' : 'moved', note: '', want: expected ? want : undefined });
    }
  }
  for (const slug of slugs) {
    if (onBoard.has(slug)) continue;
    const want = expected ? expected[slug] ?? null : null;
    tokens.push({ slug, place: 'tray', state: want ? 'moved' : 'ok', note: '', want: expected ? want : undefined });
  }
  return tokens;
}

function el(name, attrs = {}, text) {
  const node = document.createElementNS(kSvgNs, name);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== null) node.setAttribute(k, String(v));
  if (text !== undefined) node.textContent = text;
  return node;
}

function bandHeight(count, perRow, tokenH = kTokenH) {
  return kLabelH + Math.max(1, Math.ceil(count / perRow)) * (tokenH + kGap) + 4;
}

// Tokens a floor's row holds: 4, unless the picture would then be drawn at
// under 3/4 of its size (a 2024 castle on a phone): then 2, and a floor
// takes two rows.
export function tokensPerRow(container, edition) {
  const available = container && container.clientWidth;
  if (!available) return 4;
  const side = edition === '2024' ? 2 * (kTokenW + 16) + 8 : 0;
  const wide = 4 * kTokenW + 3 * kGap + 16 + 16 + side;
  return available / wide >= 0.75 ? 4 : 2;
}

const kLampGlyph = { off: '○', on: '●', blink: '◐', pulse: '◎', hint: '◍' };

// The width of a band's label, in the drawing's units (its CSS font),
// measured once a text: the castle is planned several ways a draw.
let measureContext = null;
const labelWidths = new Map();
function labelWidth(text) {
  if (labelWidths.has(text)) return labelWidths.get(text);
  if (!measureContext) measureContext = document.createElement('canvas').getContext('2d');
  let width = text.length * 10;
  if (measureContext) {
    measureContext.font = 'bold 15px "DejaVu Sans", "Liberation Sans", Arial, sans-serif';
    width = measureContext.measureText(text).width;
  }
  if (labelWidths.size > 200) labelWidths.clear();
  labelWidths.set(text, width);
  return width;
}

// Where everything goes, without drawing: the bands (places) and the
// tokens. Two choices make the same castle fit boxes of other shapes:
//   labels  "above": a floor's title on a line over its pieces;
//           "beside": in a column on its left, the floor a row of pieces;
//   off     "below": in hand and off the castle under the castle, full width;
//           a number: in a column of that many pieces a row on the right.
function planCastle({ is2024, byPlace, perRow, labels, off, showTray, leds, tokenH, titles, keyboard }) {
  const bands = [];
  const placed = [];
  const sideW = is2024 ? kTokenW + 16 : 0;
  const beside = labels === 'beside';
  const labelW = beside ? Math.ceil(Math.max(...[6, 5, 4, 3, 2, 1, 0].map((f) => labelWidth(titles.short(f))))) + 14 + (leds ? 24 : 0) : 0;
  const centerW = labelW + perRow * kTokenW + (perRow - 1) * kGap + 16;
  const x0 = sideW + 8;
  const castleW = x0 + centerW + (is2024 ? 8 + sideW : 8);
  const put = (list, x, y, w, rowLength, top) => list.forEach((t, i) => {
    const tw = Math.min(kTokenW, (w - 16 - (rowLength - 1) * kGap) / rowLength);
    placed.push({ t, x: x + 8 + (i % rowLength) * (tw + kGap), y: y + top + Math.floor(i / rowLength) * (tokenH + kGap), w: tw });
  });
  const band = (place, x, y, w, h, title, cls, side = false) => bands.push({ place, x, y, w, h, title, cls, side, beside: beside && !side });
  let y = 4 + 34; // the roof
  for (let floor = 6; floor >= 0; --floor) {
    const place = String(floor);
    const list = byPlace.get(place) || [];
    const rows = Math.max(1, Math.ceil(list.length / perRow));
    let h = beside ? 6 + rows * (tokenH + kGap) : bandHeight(list.length, perRow, tokenH);
    if (is2024 && floor >= 1 && floor <= 4) h = Math.max(h, kLabelH + tokenH + kGap + (leds ? kLampRowH + 4 : 4));
    band(place, x0, y, centerW, h, beside || perRow < 4 ? titles.short(floor) : titles.long(floor), floor === 6 ? 'throne' : 'floor');
    if (beside) put(list, x0 + labelW, y, centerW - labelW, perRow, (h - rows * (tokenH + kGap) + kGap) / 2);
    else put(list, x0, y, centerW, perRow, kLabelH);
    if (is2024) {
      const side = (name, x, title, cls) => {
        band(name, x, y, sideW - 4, h, title, cls, true);
        put(byPlace.get(name) || [], x - 4, y, sideW + 4, 1, kLabelH);
      };
      if (floor === 3 || floor === 4) side(`wc${floor}`, x0 + centerW + 8, titles.wc(floor), 'side');
      if (floor >= 1 && floor <= 3) side(`dungeon${floor}`, 4, titles.dungeon(floor), 'dungeon');
    }
    y += h + 4;
  }
  const castleH = y;
  // Off the castle: in hand, then the tray.
  const hand = byPlace.get('hand') || [];
  const tray = byPlace.get('tray') || [];
  let offX = 4;
  let offW = castleW - 8;
  let offY = castleH;
  if (off !== 'below') {
    offX = castleW + 4;
    offW = Math.max(off * (kTokenW + kGap) - kGap + 16, ...[hand.length ? titles.hand : '', showTray ? titles.tray : ''].map((t) => Math.ceil(labelWidth(t)) + 16));
    offY = 4;
  }
  const offRow = off === 'below' ? Math.floor((offW - 8) / (kTokenW + kGap)) : off;
  if (hand.length) {
    offY += off === 'below' ? 8 : 0;
    const h = bandHeight(hand.length, offRow, tokenH);
    band('hand', offX, offY, offW, h, titles.hand, 'hand', true);
    put(hand, offX, offY, offW, offRow, kLabelH);
    offY += h + 4;
  }
  if (showTray) {
    offY += 8;
    // Empty, on a picture nobody plays on: its title alone.
    const h = !tray.length && !keyboard ? kLabelH + 8 : bandHeight(tray.length, offRow, tokenH);
    band('tray', offX, offY, offW, h, titles.tray, 'tray', true);
    put(tray, offX, offY, offW, offRow, kLabelH);
    offY += h + 4;
  }
  const width = off === 'below' ? castleW : offX + offW + 4;
  return { bands, placed, width, height: Math.max(castleH, offY) + 4, castleW, tokenH };
}

// A box whose size the page's layout gives (the status page's and the wide
// simulated board's: css/style.css places the SVG absolutely in it): its
// size in CSS pixels, else null (a box as tall as the drawing).
function givenBox(container) {
  if (!container || !container.clientWidth || !container.clientHeight) return null;
  if (getComputedStyle(container).position !== 'relative') return null;
  return { w: container.clientWidth, h: container.clientHeight };
}

// Draws the castle into `container` (its content is replaced). Options:
//   edition   "classic" | "online" | "2024" (2024 adds WCs and dungeons)
//   tokens    from the helpers above
//   leds      {place: "off"|"on"|"blink"|"pulse"} drawn as lamps (simulated board)
//   selected  a slug drawn as selected (tap-to-select)
//   trayTitle the off-castle area's title
//   showTray  false hides the off-castle area
//   perRow    tokens in a floor's row (default: tokensPerRow(container, edition))
// In a box the layout sizes (givenBox), the drawing takes the shape that
// draws it largest there: floors' titles beside their pieces or above
// them, the pieces off the castle below it or in a column beside it (a
// TV's or a phone's status page then reads at 24 px and 12 px at least).
// Where the keyboard can move the pieces and the box grows with the
// drawing (a phone), the pieces are at least 44 px tall.
export function drawCastle(container, { edition = 'classic', tokens = [], leds = null, selected = null,
  trayTitle = say('page.castle.off'), showTray = true, perRow = tokensPerRow(container, edition) } = {}) {
  const is2024 = edition === '2024';
  const byPlace = new Map();
  for (const t of tokens) {
    if (!byPlace.has(t.place)) byPlace.set(t.place, []);
    byPlace.get(t.place).push(t);
  }
  for (const list of byPlace.values()) list.sort((a, b) => (a.state === 'ghost') - (b.state === 'ghost') || a.slug.localeCompare(b.slug));
  const titles = {
    long: floorTitle, short: floorShort, tray: trayTitle, hand: say('page.castle.in-hand'),
    wc: (floor) => say('page.castle.wc', { floor }), dungeon: (number) => say('page.castle.dungeon', { number }),
  };
  const keyboard = Boolean(container.castleKeyboard);
  const base = { is2024, byPlace, perRow, showTray, leds, tokenH: kTokenH, titles, keyboard };
  let plan = planCastle({ ...base, labels: 'above', off: 'below' });
  const box = givenBox(container);
  if (box) {
    const scale = (p) => Math.min(box.w / p.width, box.h / p.height);
    for (const row of [4, 3, 2]) {
      for (const labels of ['above', 'beside']) {
        for (const off of ['below', 1, 2, 3]) {
          const other = planCastle({ ...base, perRow: row, labels, off });
          if (scale(other) > scale(plan) * 1.03) plan = other;
        }
      }
    }
  } else if (keyboard && container.clientWidth && kTokenH * (container.clientWidth / plan.width) < 44) {
    plan = planCastle({ ...base, tokenH: Math.ceil(44 / (container.clientWidth / plan.width)) + 1, labels: 'above', off: 'below' });
  }
  const { tokenH } = plan;

  // A screen reader reads the castle as the list of places beside it
  // (castleText): the drawing itself is hidden from it, unless its pieces
  // can be moved from the keyboard (attachBoardInteraction): then it is a
  // group of buttons, one a piece.
  const svg = el('svg', keyboard
    ? { xmlns: kSvgNs, role: 'group', 'aria-label': say('page.castle.label'), class: 'castle' }
    : { xmlns: kSvgNs, 'aria-hidden': 'true', class: 'castle' });
  const defs = el('defs');
  const pattern = el('pattern', { id: 'hatch', width: 8, height: 8, patternUnits: 'userSpaceOnUse', patternTransform: 'rotate(45)' });
  pattern.append(el('rect', { width: 8, height: 8, fill: '#eeeeee' }), el('rect', { width: 4, height: 8, fill: '#c8c8c8' }));
  defs.append(pattern);
  svg.append(defs);

  // The roof, with the throne room under it.
  const roofH = 34;
  const x0 = (is2024 ? kTokenW + 16 : 0) + 8;
  const roofW = plan.castleW - x0 - (is2024 ? kTokenW + 24 : 8);
  svg.append(el('polygon', { class: 'roof', points: `${x0},${4 + roofH} ${x0 + roofW / 2},4 ${x0 + roofW},${4 + roofH}` }));
  svg.append(el('text', { x: x0 + roofW / 2, y: 4 + roofH - 8, 'text-anchor': 'middle', fill: '#fff', 'font-size': 18 }, '♛'));

  for (const b of plan.bands) {
    const { place, x, y, w, h, cls } = b;
    const g = el('g', { class: 'place', 'data-place': place });
    g.append(el('rect', { class: `band ${cls}`, x, y, width: w, height: h, rx: 6, 'data-place': place }));
    g.append(b.beside
      ? el('text', { class: 'band-label', x: x + 8, y: y + h / 2, 'dominant-baseline': 'middle' }, b.title)
      : el('text', { class: 'band-label', x: x + 8, y: y + 16 }, b.title));
    if (leds && leds[place] !== undefined) {
      // The lamp: its shape says its mode (○ off, ● on, ◐ blink, ◎ pulse), its colour too.
      const mode = leds[place] || 'off';
      let cx = x + w - 12;
      let cy = b.side ? y + h - 11 : y + 11;
      if (b.beside) {
        cx = x + 8 + labelWidth(b.title) + 14;
        cy = y + h / 2;
      }
      const lamp = el('g', { class: `led ${mode}`, 'data-led': place, 'data-mode': mode });
      lamp.append(el('title', {}, say('page.castle.led', { p: { place: String(place) }, mode: { text: mode } })));
      lamp.append(el('circle', { cx, cy, r: 10 }));
      lamp.append(el('text', { x: cx, y: cy + 1, class: 'lamp-glyph' }, kLampGlyph[mode] || '?'));
      g.append(lamp);
    }
    svg.append(g);
  }
  for (const { t, x, y, w } of plan.placed) svg.append(drawToken(t, x, y, w, tokenH, t.slug === selected, keyboard));
  svg.setAttribute('viewBox', `0 0 ${plan.width} ${plan.height}`);
  // Scaled into a box of another shape (a page that fits the screen): at the top, centred.
  svg.setAttribute('preserveAspectRatio', 'xMidYMin meet');
  // A redraw keeps the keyboard's focus on the piece it was on.
  const active = document.activeElement;
  const focused = active && container.contains(active) ? active.getAttribute('data-slug') : null;
  container.replaceChildren(svg, castleText(tokens, { is2024, trayTitle, showTray }));
  container.castleBands = plan.bands.map(({ place, x, y, w, h }) => ({ place, x, y, w, h }));
  if (focused) {
    const again = svg.querySelector(`g.token[tabindex][data-slug="${CSS.escape(focused)}"]`);
    if (again) again.focus({ preventScroll: true });
  }
  return svg;
}

function drawToken(t, x, y, w, tokenH, selected, keyboard) {
  const classes = ['token', t.state];
  if (selected) classes.push('selected');
  if (isJester(t.slug)) classes.push('jester');
  const g = el('g', { class: classes.join(' '), 'data-slug': t.slug, 'data-place': t.place, 'data-state': t.state, transform: `translate(${x},${y})` });
  if (keyboard && t.state !== 'ghost') {
    // A piece takes the keyboard's focus: Enter or Space picks it up (attachBoardInteraction).
    g.setAttribute('tabindex', '0');
    g.setAttribute('role', 'button');
    g.setAttribute('aria-label', pieceWords(t));
  }
  const title = el('title', {}, t.note ? say('page.castle.token-note', { c: { text: shortName(t.slug) }, note: { text: t.note } }) : shortName(t.slug));
  g.append(title);
  g.append(el('rect', { width: w, height: tokenH, rx: isJester(t.slug) ? 17 : 7 }));
  let label = shortName(t.slug);
  if (t.inBox) label = `▣ ${label}`;
  g.append(el('text', { x: w / 2, y: tokenH / 2 + 1 }, label));
  const badge = { moved: '!', ghost: '?', inhand: '↑', uncertain: '~', king: '♛', candidate: '♛' }[t.state];
  if (badge) {
    g.append(el('circle', { class: `badge-bg ${t.state}`, cx: w - 3, cy: 3, r: 10 }));
    g.append(el('text', { class: 'badge-fg', x: w - 3, y: 4 }, badge));
  }
  return g;
}

// The place under a point given in client coordinates, or null.
export function placeAt(container, clientX, clientY) {
  const svg = container.querySelector('svg');
  if (!svg || !container.castleBands) return null;
  const point = clientToSvg(svg, clientX, clientY);
  // Side places are drawn after the floor they sit beside: search from the end.
  for (let i = container.castleBands.length - 1; i >= 0; --i) {
    const b = container.castleBands[i];
    if (point.x >= b.x && point.x <= b.x + b.w && point.y >= b.y && point.y <= b.y + b.h) return b.place;
  }
  return null;
}

function clientToSvg(svg, clientX, clientY) {
  const pt = svg.createSVGPoint();
  pt.x = clientX;
  pt.y = clientY;
  const m = svg.getScreenCTM();
  return m ? pt.matrixTransform(m.inverse()) : { x: 0, y: 0 };
}

// Drag a character to a place (pointer events: mouse, pen and touch), or
// tap it then tap a place (easier on a phone), or from the keyboard
// (js/castle_keys.js: Tab, Enter, the arrow keys, Enter). `onMove(slug,
// place)` is called with place "tray" for off the castle. Survives redraws:
// it listens on the container. Returns {busy(), selected(), clear()}; busy
// while a piece is dragged or held from the keyboard (the page then keeps
// its redraw for later).
export function attachBoardInteraction(container, onMove, onSelect = () => {}) {
  let drag = null;
  let selected = null;
  const tokenOf = (target) => target.closest && target.closest('g.token');

  const keys = attachKeyboard(container, onMove, (slug) => {
    if (slug) selected = null;
    else onSelect(null); // the page redraws what it kept for later
  });
  container.addEventListener('pointerdown', (event) => {
    const token = tokenOf(event.target);
    if (!token || token.dataset.state === 'ghost') return;
    event.preventDefault();
    const svg = container.querySelector('svg');
    const start = clientToSvg(svg, event.clientX, event.clientY);
    drag = { slug: token.dataset.slug, token, svg, start, startClient: [event.clientX, event.clientY], moved: false,
      base: token.getAttribute('transform'), pointerId: event.pointerId };
    try {
      container.setPointerCapture(event.pointerId);
    } catch {
      /* not every pointer can be captured */
    }
  });
  // The held piece follows the pointer; the place under it is outlined.
  const dragTo = (clientX, clientY) => {
    const p = clientToSvg(drag.svg, clientX, clientY);
    drag.token.classList.add('dragging');
    drag.token.setAttribute('transform', `${drag.base} translate(${p.x - drag.start.x},${p.y - drag.start.y})`);
    drag.svg.append(drag.token); // on top
    for (const r of container.querySelectorAll('rect.band')) r.classList.remove('drop-target');
    const place = placeAt(container, clientX, clientY);
    if (place) {
      const rect = container.querySelector(`rect.band[data-place="${place}"]`);
      if (rect) rect.classList.add('drop-target');
    }
  };
  // A piece held still near the window's top or bottom edge scrolls the
  // page (a drag cannot scroll it otherwise): after a short pause there, so
  // a quick drop near an edge stays where it was aimed.
  const edgeScroll = () => {
    if (!drag || !drag.edge) return;
    const { dir, since } = drag.edge;
    if (performance.now() - since >= kEdgePauseMs) {
      const scroller = document.scrollingElement;
      const before = scroller.scrollTop;
      scroller.scrollTop += dir * kEdgeStepPx;
      if (scroller.scrollTop !== before) dragTo(drag.lastClient[0], drag.lastClient[1]);
    }
    drag.edge.frame = requestAnimationFrame(edgeScroll);
  };
  const stopEdge = () => {
    if (drag && drag.edge) cancelAnimationFrame(drag.edge.frame);
    if (drag) drag.edge = null;
  };
  container.addEventListener('pointermove', (event) => {
    if (!drag || event.pointerId !== drag.pointerId) return;
    const dx = event.clientX - drag.startClient[0];
    const dy = event.clientY - drag.startClient[1];
    if (!drag.moved && Math.hypot(dx, dy) < 8) return;
    drag.moved = true;
    drag.lastClient = [event.clientX, event.clientY];
    dragTo(event.clientX, event.clientY);
    const dir = event.clientY < kEdgePx ? -1 : event.clientY > window.innerHeight - kEdgePx ? 1 : 0;
    if (!dir) stopEdge();
    else if (!drag.edge || drag.edge.dir !== dir) {
      stopEdge();
      drag.edge = { dir, since: performance.now(), frame: requestAnimationFrame(edgeScroll) };
    }
  });
  const finish = (event, cancelled) => {
    if (!drag || event.pointerId !== drag.pointerId) return;
    stopEdge();
    const { slug, moved, token, base } = drag;
    drag = null;
    for (const r of container.querySelectorAll('rect.band')) r.classList.remove('drop-target');
    if (cancelled) {
      token.setAttribute('transform', base);
      token.classList.remove('dragging');
      return;
    }
    if (moved) {
      const place = placeAt(container, event.clientX, event.clientY);
      token.setAttribute('transform', base);
      token.classList.remove('dragging');
      selected = null;
      onSelect(null);
      if (place && place !== 'hand') onMove(slug, place);
    } else {
      selected = selected === slug ? null : slug;
      onSelect(selected);
    }
  };
  container.addEventListener('pointerup', (event) => finish(event, false));
  container.addEventListener('pointercancel', (event) => finish(event, true));
  // Tap on a place with a character selected: move it there.
  container.addEventListener('click', (event) => {
    if (!selected || tokenOf(event.target)) return;
    const place = placeAt(container, event.clientX, event.clientY);
    if (!place || place === 'hand') return;
    const slug = selected;
    selected = null;
    onSelect(null);
    onMove(slug, place);
  });
  return {
    busy: () => drag !== null || keys.held(),
    selected: () => selected,
    clear: () => {
      selected = null;
      onSelect(null);
    },
  };
}

// What the tokens' marks mean.
export function legendHtml() {
  return `<div class="legend" aria-label="${esc(say('page.castle.legend'))}">
    <span>${esc(say('page.castle.legend-ok'))}</span>
    <span class="l-moved">${esc(say('page.castle.legend-moved'))}</span>
    <span class="l-ghost">${esc(say('page.castle.legend-ghost'))}</span>
    <span class="l-hand">${esc(say('page.castle.legend-hand'))}</span>
    <span>${esc(say('page.castle.legend-marks'))}</span></div>`;
}
