// The Ambition choice on a player's own page, drawn in the banner at the
// top (js/player.js): the two cards dealt, each with what it scores in a
// line; a tap picks one, and "Keep" confirms it (POST /api/player/TOKEN/keep).
// A kept card may be changed for the other one until the round's first
// placement (the same route with the other card: the engine's
// State::ambitionChangeable); after that it stands, shown in "My Ambition"
// below. The card stays on this page only: nobody else, not even the host,
// learns which one was kept.
import { esc, postJson } from './api.js';
import { ambitionCardWord } from './game_words.js';
import { say, sayOr } from './words.js';

// What each card scores, in plain words: one sentence each (a table of the
// codes written out, for the words test).
const kExplained = {
  'jester-king': 'page.player.banner.card.jester-king',
  'its-a-queen': 'page.player.banner.card.its-a-queen',
  'its-a-king': 'page.player.banner.card.its-a-king',
  'wc-0': 'page.player.banner.card.wc-0',
  'wc-1': 'page.player.banner.card.wc-1',
  'wc-2': 'page.player.banner.card.wc-2',
  'no-floors-0-1': 'page.player.banner.card.no-floors-0-1',
  'no-floors-2-3': 'page.player.banner.card.no-floors-2-3',
  'no-floors-4-5': 'page.player.banner.card.no-floors-4-5',
  'dungeons-1': 'page.player.banner.card.dungeons-1',
  'dungeons-2': 'page.player.banner.card.dungeons-2',
  'dungeons-3': 'page.player.banner.card.dungeons-3',
  'no-wc-no-dungeon': 'page.player.banner.card.no-wc-no-dungeon',
  'only-yes': 'page.player.banner.card.only-yes',
  'friend-of-the-king': 'page.player.banner.card.friend-of-the-king',
  'under-11': 'page.player.banner.card.under-11',
};

// "5 points if none of your favourites is in a WC at the coronation."
export function ambitionExplained(slug) {
  return kExplained[slug] ? say(kExplained[slug]) : '';
}

// A card as the page shows it: its name with its points, and what it scores.
function cardHtml(slug) {
  return `<span class="ambition-name">${esc(ambitionCardWord(slug))}</span><span class="ambition-why">${esc(ambitionExplained(slug))}</span>`;
}

// The kept card once it stands (the "My Ambition" card below the banner).
export function renderKeptAmbition(box, kept) {
  const signature = JSON.stringify(['kept', kept || null]);
  if (box.dataset.signature === signature) return;
  box.dataset.signature = signature;
  box.innerHTML = kept ? `<div class="ambition-kept" data-ambition="${esc(kept)}">${cardHtml(kept)}</div>` : '';
}

// What the last request answered, kept across re-renders (the page redraws
// on every status event): {kind: 'ok' | 'refused', text}; the card tapped
// and waiting for its confirmation; whether a request is on its way.
let answer = null;
let picked = null;
let sending = false;

// choices: the two cards dealt; kept: the card kept (null while choosing);
// changeable: a kept card may still be changed.
export function renderAmbitionChoice(box, { token, choices, kept, changeable, onKept }) {
  // Redrawn only when something changed: a tap must not land on a button
  // replaced by another player's status event.
  const signature = JSON.stringify([kept || null, choices, Boolean(changeable), answer, picked, sending]);
  if (box.dataset.signature === signature) return;
  box.dataset.signature = signature;
  if (!choices.length) {
    box.innerHTML = '';
    return;
  }
  if (picked && (picked === kept || !choices.includes(picked))) picked = null;
  const disabled = sending ? ' disabled' : '';
  const said = answer && answer.kind === 'ok' ? `<p class="message ok" role="status">${esc(say('page.player.kept'))}</p>` : '';
  const refused = answer && answer.kind === 'refused' ? `<p class="message error" role="alert">${esc(answer.text)}</p>` : '';
  let html;
  if (!kept) {
    // Choosing: the two cards, then the confirmation of the one tapped.
    html = `<p class="ambition-intro">${esc(say('page.player.banner.ambition-intro'))}</p>
      <div class="ambition-choices">${choices.map((c) => `<button type="button" class="ambition-keep" data-ambition="${esc(c)}" aria-pressed="${c === picked}"${disabled}>${cardHtml(c)}</button>`).join('')}</div>
      ${picked ? `<button type="button" class="primary ambition-confirm" data-ambition="${esc(picked)}"${disabled}>${esc(say('page.player.banner.keep-this', { card: { ambition: picked } }))}</button>` : `<p class="small muted">${esc(say('page.player.banner.tap-one'))}</p>`}`;
  } else {
    // Kept, and still changeable: the card, and the other one offered.
    const other = choices.find((c) => c !== kept);
    html = `<div class="ambition-kept" data-ambition="${esc(kept)}"><span class="small">${esc(say('page.player.banner.you-keep'))}</span>${cardHtml(kept)}</div>${said}
      <p class="small">${esc(say('page.player.banner.change-until'))}</p>`;
    if (other && picked === other) {
      html += `<div class="ambition-other" data-ambition="${esc(other)}">${cardHtml(other)}</div>
        <div class="ambition-actions"><button type="button" class="primary ambition-confirm" data-ambition="${esc(other)}"${disabled}>${esc(say('page.player.banner.keep-instead', { card: { ambition: other } }))}</button>
        <button type="button" class="ambition-cancel"${disabled}>${esc(say('page.player.banner.keep-cancel'))}</button></div>`;
    } else if (other) {
      html += `<button type="button" class="ambition-change" data-ambition="${esc(other)}"${disabled}>${esc(say('page.player.banner.change-to', { card: { ambition: other } }))}</button>`;
    }
  }
  box.innerHTML = html + refused;
  const redraw = () => renderAmbitionChoice(box, { token, choices, kept, changeable, onKept });
  for (const button of box.querySelectorAll('button.ambition-keep, button.ambition-change')) {
    button.addEventListener('click', () => {
      picked = button.dataset.ambition;
      answer = null;
      redraw();
    });
  }
  box.querySelector('button.ambition-cancel')?.addEventListener('click', () => {
    picked = null;
    redraw();
  });
  box.querySelector('button.ambition-confirm')?.addEventListener('click', async (event) => {
    if (sending) return;
    const card = event.currentTarget.dataset.ambition;
    sending = true;
    redraw();
    try {
      await postJson(`/api/player/${encodeURIComponent(token)}/keep`, { ambition: card });
      answer = { kind: 'ok' };
      picked = null;
    } catch (e) {
      answer = { kind: 'refused', text: say('page.player.not-kept', { why: { text: sayOr(e.says, e.message) } }) };
    }
    sending = false;
    onKept();
  });
}
