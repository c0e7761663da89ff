// Moving the castle's pieces from the keyboard (js/castle.js draws them;
// a piece that can be moved takes the focus, drawCastle with
// `container.castleKeyboard`): Tab to a piece, Enter or Space picks it up,
// the arrow keys (Home, End, or a floor's digit, 6 the throne) walk the
// places in the castle list's order, the place outlined, Enter or Space puts it
// down there, Escape puts it back; each step is announced (js/announce.js).
import { announce } from './announce.js';
import { characterArg, placeName } from './names.js';
import { say } from './words.js';

// The order the arrow keys walk: the throne, floors 5 to 0, the WCs, the
// dungeons, off the castle (not "in hand": a piece is never put there).
const kOrder = ['6', '5', '4', '3', '2', '1', '0', 'wc4', 'wc3', 'dungeon3', 'dungeon2', 'dungeon1', 'tray'];

// Listens on `container` (survives redraws). `onMove(slug, place)` as for a
// drag ("tray": off the castle); `onHeld(slug)` when a piece is picked up,
// `onHeld(null)` when it is put down or back. Returns {held()}: whether a
// piece is held (the page keeps its redraws for later meanwhile).
export function attachKeyboard(container, onMove, onHeld) {
  let held = null; // {slug, from, places, at}
  container.castleKeyboard = true;
  const placeWords = (place) => placeName(place === 'tray' ? null : place); // "off the castle" for the tray
  const showHeld = () => {
    for (const r of container.querySelectorAll('rect.band')) r.classList.remove('drop-target');
    for (const g of container.querySelectorAll('g.token.held')) g.classList.remove('held', 'selected');
    if (!held) return;
    const token = container.querySelector(`g.token[tabindex][data-slug="${CSS.escape(held.slug)}"]`);
    if (token) token.classList.add('held', 'selected');
    const rect = container.querySelector(`rect.band[data-place="${held.places[held.at]}"]`);
    if (rect) rect.classList.add('drop-target');
  };
  const release = () => {
    held = null;
    showHeld();
    onHeld(null);
  };
  container.addEventListener('keydown', (event) => {
    const key = event.key;
    if (held) {
      const last = held.places.length - 1;
      let at = held.at;
      if (key === 'ArrowUp' || key === 'ArrowLeft') at = Math.max(0, at - 1);
      else if (key === 'ArrowDown' || key === 'ArrowRight') at = Math.min(last, at + 1);
      else if (key === 'Home') at = 0;
      else if (key === 'End') at = last;
      else if (/^[0-6]$/.test(key) && held.places.includes(key)) at = held.places.indexOf(key);
      else if (key === 'Escape') {
        const c = characterArg(held.slug);
        release();
        announce(say('page.a11y.cancelled', { c }));
        event.preventDefault();
        return;
      } else if (key === 'Enter' || key === ' ') {
        const { slug, from } = held;
        const place = held.places[held.at];
        event.preventDefault();
        release();
        if (place === from) announce(say('page.a11y.cancelled', { c: characterArg(slug) }));
        else onMove(slug, place);
        return;
      } else return;
      event.preventDefault();
      if (at !== held.at) {
        held.at = at;
        showHeld();
      }
      announce(placeWords(held.places[held.at]));
      return;
    }
    const token = event.target.closest && event.target.closest('g.token');
    if (!token || !token.hasAttribute('tabindex') || (key !== 'Enter' && key !== ' ')) return;
    event.preventDefault();
    // The places the drawing has, in the castle's list's order (js/castle_text.js).
    const drawn = new Set((container.castleBands || []).map((b) => b.place));
    const places = kOrder.filter((p) => drawn.has(p));
    const from = token.dataset.place;
    held = { slug: token.dataset.slug, from, places, at: Math.max(0, places.indexOf(from)) };
    onHeld(held.slug);
    showHeld();
    announce(say('page.a11y.picked', { c: characterArg(held.slug), where: { text: placeWords(held.places[held.at]) } }));
  });
  return { held: () => held !== null };
}
