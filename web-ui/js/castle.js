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
    const mark = (place, state, note, inBox = false) => tokens.push({ slug, place, state, note, inBox });
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
      tokens.push({ slug, place, state: want === place ? 'ok' : 'moved', note: '' });
    }
  }
  for (const slug of slugs) {
    if (onBoard.has(slug)) continue;
    const want = expected ? expected[slug] ?? null : null;
    tokens.push({ slug, place: 'tray', state: want ? 'moved' : 'ok', note: '' });
  }
  return tokens;
}

function el(name, attrs = {}, text) {
  const node = document.createElementNS(kSvgNs, name);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== null) node.setAttribute(k, String(v));
  if (text !== undefined) node.textContent = text;
  return node;
}

function bandHeight(count, perRow) {
  return kLabelH + Math.max(1, Math.ceil(count / perRow)) * (kTokenH + kGap) + 4;
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

// Draws the castle into `container` (its content is replaced). Options:
//   edition   "classic" | "online" | "2024" (2024 adds WCs and dungeons)
//   tokens    from the helpers above
//   leds      {place: "off"|"on"|"blink"|"pulse"} drawn as lamps (simulated board)
//   selected  a slug drawn as selected (tap-to-select)
//   trayTitle the off-castle area's title
//   showTray  false hides the off-castle area
//   perRow    tokens in a floor's row (default: tokensPerRow(container, edition))
export function drawCastle(container, { edition = 'classic', tokens = [], leds = null, selected = null,
  trayTitle = say('page.castle.off'), showTray = true, perRow = tokensPerRow(container, edition) } = {}) {
  const is2024 = edition === '2024';
  const centerW = perRow * kTokenW + (perRow - 1) * kGap + 16;
  const sideW = is2024 ? kTokenW + 16 : 0;
  const x0 = sideW + 8;
  const width = x0 + centerW + (is2024 ? 8 + sideW : 8);
  const byPlace = new Map();
  for (const t of tokens) {
    if (!byPlace.has(t.place)) byPlace.set(t.place, []);
    byPlace.get(t.place).push(t);
  }
  for (const list of byPlace.values()) list.sort((a, b) => (a.state === 'ghost') - (b.state === 'ghost') || a.slug.localeCompare(b.slug));

  const svg = el('svg', { xmlns: kSvgNs, role: 'img', 'aria-label': say('page.castle.label'), class: 'castle' });
  const defs = el('defs');
  const pattern = el('pattern', { id: 'hatch', width: 8, height: 8, patternUnits: 'userSpaceOnUse', patternTransform: 'rotate(45)' });
  pattern.append(el('rect', { width: 8, height: 8, fill: '#eeeeee' }), el('rect', { width: 4, height: 8, fill: '#c8c8c8' }));
  defs.append(pattern);
  svg.append(defs);

  let y = 4;
  // The roof, with the throne room under it.
  const roofH = 34;
  svg.append(el('polygon', { class: 'roof', points: `${x0},${y + roofH} ${x0 + centerW / 2},${y} ${x0 + centerW},${y + roofH}` }));
  svg.append(el('text', { x: x0 + centerW / 2, y: y + roofH - 8, 'text-anchor': 'middle', fill: '#fff', 'font-size': 18 }, '♛'));
  y += roofH;

  const bands = [];
  const drawBand = (place, x, yy, w, h, title, cls) => {
    const g = el('g', { class: 'place', 'data-place': place });
    g.append(el('rect', { class: `band ${cls}`, x, y: yy, width: w, height: h, rx: 6, 'data-place': place }));
    g.append(el('text', { class: 'band-label', x: x + 8, y: yy + 16 }, title));
    if (leds && leds[place] !== undefined) {
      // The lamp: its shape says its mode (○ off, ● on, ◐ blink, ◎ pulse), its colour too.
      const mode = leds[place] || 'off';
      const side = cls === 'side' || cls === 'dungeon';
      const cx = x + w - 12;
      const cy = side ? yy + h - 11 : yy + 11;
      const lamp = el('g', { class: `led ${mode}`, 'data-led': place, 'data-mode': mode });
      lamp.append(el('title', {}, say('page.castle.led', { p: { place: String(place) }, mode: { text: mode } })));
      lamp.append(el('circle', { cx, cy, r: 9 }));
      lamp.append(el('text', { x: cx, y: cy + 1, class: 'lamp-glyph' }, kLampGlyph[mode] || '?'));
      g.append(lamp);
    }
    svg.append(g);
    bands.push({ place, x, y: yy, w, h });
    return g;
  };
  const drawTokens = (list, x, yy, w, perRow) => {
    list.forEach((t, i) => {
      const col = i % perRow;
      const row = Math.floor(i / perRow);
      const tw = Math.min(kTokenW, (w - 16 - (perRow - 1) * kGap) / perRow);
      const tx = x + 8 + col * (tw + kGap);
      const ty = yy + kLabelH + row * (kTokenH + kGap);
      svg.append(drawToken(t, tx, ty, tw, t.slug === selected));
    });
  };

  // Throne and floors 5..0, with the 2024 side places beside them.
  for (let floor = 6; floor >= 0; --floor) {
    const place = String(floor);
    const list = byPlace.get(place) || [];
    let h = bandHeight(list.length, perRow);
    if (is2024 && floor >= 1 && floor <= 4) h = Math.max(h, kLabelH + kTokenH + kGap + (leds ? kLampRowH + 4 : 4));
    drawBand(place, x0, y, centerW, h, perRow < 4 ? floorShort(floor) : floorTitle(floor), floor === 6 ? 'throne' : 'floor');
    drawTokens(list, x0, y, centerW, perRow);
    if (is2024) {
      const side = (name, x, title, cls) => {
        drawBand(name, x, y, sideW - 4, h, title, cls);
        drawTokens(byPlace.get(name) || [], x - 4, y, sideW + 4, 1);
      };
      if (floor === 3 || floor === 4) side(`wc${floor}`, x0 + centerW + 8, say('page.castle.wc', { floor }), 'side');
      if (floor >= 1 && floor <= 3) side(`dungeon${floor}`, 4, say('page.castle.dungeon', { number: floor }), 'dungeon');
    }
    y += h + 4;
  }
  // Off the castle: in hand, then the tray.
  const hand = byPlace.get('hand') || [];
  if (hand.length) {
    y += 8;
    const h = bandHeight(hand.length, Math.floor((width - 16) / (kTokenW + kGap)));
    drawBand('hand', 4, y, width - 8, h, say('page.castle.in-hand'), 'hand');
    drawTokens(hand, 4, y, width - 8, Math.floor((width - 16) / (kTokenW + kGap)));
    y += h + 4;
  }
  if (showTray) {
    y += 8;
    const tray = byPlace.get('tray') || [];
    const perRow = Math.floor((width - 16) / (kTokenW + kGap));
    const h = kLabelH + Math.max(1, Math.ceil(tray.length / perRow)) * (kTokenH + kGap) + 4;
    drawBand('tray', 4, y, width - 8, h, trayTitle, 'tray');
    drawTokens(tray, 4, y, width - 8, perRow);
    y += h + 4;
  }
  svg.setAttribute('viewBox', `0 0 ${width} ${y + 4}`);
  // Scaled into a box of another shape (a page that fits the screen): at the top, centred.
  svg.setAttribute('preserveAspectRatio', 'xMidYMin meet');
  container.replaceChildren(svg);
  container.castleBands = bands;
  return svg;
}

function drawToken(t, x, y, w, selected) {
  const classes = ['token', t.state];
  if (selected) classes.push('selected');
  if (isJester(t.slug)) classes.push('jester');
  const g = el('g', { class: classes.join(' '), 'data-slug': t.slug, 'data-place': t.place, 'data-state': t.state, transform: `translate(${x},${y})` });
  const title = el('title', {}, t.note ? say('page.castle.token-note', { c: { text: shortName(t.slug) }, note: { text: t.note } }) : shortName(t.slug));
  g.append(title);
  g.append(el('rect', { width: w, height: kTokenH, rx: isJester(t.slug) ? 17 : 7 }));
  let label = shortName(t.slug);
  if (t.inBox) label = `▣ ${label}`;
  g.append(el('text', { x: w / 2, y: kTokenH / 2 + 1 }, label));
  const badge = { moved: '!', ghost: '?', inhand: '↑', uncertain: '~', king: '♛', candidate: '♛' }[t.state];
  if (badge) {
    g.append(el('circle', { class: `badge-bg ${t.state}`, cx: w - 3, cy: 3, r: 9 }));
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
// tap it then tap a place (easier on a phone). `onMove(slug, place)` is
// called with place "tray" for off the castle. Survives redraws: it listens
// on the container. Returns {busy(), selected(), clear()}.
export function attachBoardInteraction(container, onMove, onSelect = () => {}) {
  let drag = null;
  let selected = null;

  const tokenOf = (target) => target.closest && target.closest('g.token');
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
    busy: () => drag !== null,
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
