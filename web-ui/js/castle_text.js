// The castle as words, for a screen reader (js/castle.js draws it): the
// list of places beside the drawing, each with who stands there, then
// each piece out of place, in hand or missing; and a piece's name as a
// button where the keyboard moves it. In the page's language.
import { characterArg, characterName } from './names.js';
import { pageLanguage, say } from './words.js';

// A piece as a button says who it is and where ("Eloïse, on floor 3").
export function pieceWords(t) {
  const c = characterArg(t.slug);
  if (t.place === 'hand') return say('page.a11y.piece-hand', { c });
  if (t.place === 'tray') return say('page.a11y.piece-off', { c });
  return say('page.a11y.piece', { c, p: { place: String(t.place) } });
}

// A character in the castle's list, with its state in words.
function tokenWords(t) {
  const c = characterArg(t.slug);
  if (t.inBox) return say('page.a11y.token-box', { c });
  switch (t.state) {
    case 'king': return say('page.a11y.token-king', { c });
    case 'candidate': return say('page.a11y.token-candidate', { c });
    case 'moved': return say('page.a11y.token-moved', { c });
    case 'uncertain': return say('page.a11y.token-uncertain', { c });
    default: return characterName(t.slug);
  }
}

// Every piece not where the referee expects it, a sentence each ("Eloïse:
// on floor 3, should be on floor 2"); null when the tokens carry no
// expectation (a review's step, a board with no game).
function outOfPlace(tokens) {
  if (!tokens.some((t) => t.want !== undefined)) return null;
  const lines = [];
  const bySlug = new Map();
  for (const t of tokens) {
    if (!bySlug.has(t.slug)) bySlug.set(t.slug, []);
    bySlug.get(t.slug).push(t);
  }
  for (const [slug, list] of bySlug) {
    const c = characterArg(slug);
    const real = list.find((t) => t.state !== 'ghost');
    const ghost = list.find((t) => t.state === 'ghost');
    const want = real ? real.want : ghost ? ghost.place : null;
    const to = want === null || want === undefined ? null : { place: String(want) };
    if (!real) {
      if (to) lines.push(say('page.a11y.out-missing', { c, to }));
    } else if (real.place === 'hand') {
      if (to) lines.push(say(real.state === 'uncertain' ? 'page.a11y.out-unclear' : 'page.a11y.out-hand', { c, to }));
    } else if (real.place === 'tray') {
      if (to) lines.push(say('page.a11y.out-off', { c, to }));
    } else if (real.state === 'moved' || (to && to.place !== real.place)) {
      const p = { place: String(real.place) };
      lines.push(to ? say('page.a11y.out-on', { c, p, to }) : say('page.a11y.out-on-off', { c, p }));
    }
  }
  return lines;
}

// The castle as text, for a screen reader (visually hidden): each place in
// order, the throne first, with who stands there; then each piece out of
// place, in hand or missing.
export function castleText(tokens, { is2024, trayTitle, showTray }) {
  const byPlace = new Map();
  for (const t of tokens) {
    if (t.state === 'ghost') continue;
    if (!byPlace.has(t.place)) byPlace.set(t.place, []);
    byPlace.get(t.place).push(t);
  }
  const places = ['6', '5', '4', '3', '2', '1', '0', ...(is2024 ? ['wc4', 'wc3', 'dungeon3', 'dungeon2', 'dungeon1'] : [])];
  const language = pageLanguage();
  const item = (text) => {
    const li = document.createElement('li');
    li.textContent = text.charAt(0).toLocaleUpperCase(language) + text.slice(1);
    return li;
  };
  const who = (list) => ({ list: list.sort((a, b) => a.slug.localeCompare(b.slug)).map((t) => ({ text: tokenWords(t) })) });
  const placeList = document.createElement('ul');
  placeList.setAttribute('aria-label', say('page.a11y.castle-list'));
  for (const place of places) {
    const list = byPlace.get(place) || [];
    const p = { place };
    placeList.append(item(list.length ? say('page.a11y.place-who', { p, who: who(list) }) : say('page.a11y.place-empty', { p })));
  }
  const hand = byPlace.get('hand') || [];
  if (hand.length) placeList.append(item(say('page.a11y.hand-who', { who: who(hand) })));
  const tray = byPlace.get('tray') || [];
  if (showTray && tray.length) placeList.append(item(say('page.a11y.tray-who', { tray: { text: trayTitle }, who: who(tray) })));
  const box = document.createElement('div');
  box.className = 'visually-hidden castle-text';
  box.append(placeList);
  const wrong = outOfPlace(tokens);
  if (wrong) {
    const out = document.createElement('ul');
    out.className = 'castle-out';
    out.setAttribute('aria-label', say('page.a11y.out-list'));
    if (wrong.length) for (const line of wrong) out.append(item(line));
    else out.append(item(say('page.a11y.all-in-place')));
    box.append(out);
  }
  return box;
}
