// The Ambition choice on a player's own page: one button per card dealt,
// a tap keeps it (POST /api/player/TOKEN/keep). The card stays on this page
// only: nobody else, not even the host, learns which one was kept.
import { esc, postJson } from './api.js';
import { ambitionCardWord } from './game_words.js';
import { say, sayOr } from './words.js';

// What the last tap answered, kept across re-renders (the page redraws on
// every status event): {kind: 'ok' | 'refused', text}.
let answer = null;
let sending = false;

export function renderAmbitionChoice(box, { token, choices, kept, onKept }) {
  // Redrawn only when something changed: a tap must not land on a button
  // replaced by another player's status event.
  const signature = JSON.stringify([kept || null, choices, answer, sending]);
  if (box.dataset.signature === signature) return;
  box.dataset.signature = signature;
  if (kept) {
    const confirm = answer && answer.kind === 'ok' ? `<p class="message ok" role="status">✔ ${esc(say('page.player.kept'))}</p>` : '';
    box.innerHTML = `<div class="big" data-ambition="${esc(kept)}">${esc(ambitionCardWord(kept))}</div>${confirm}`;
    return;
  }
  if (!choices.length) {
    box.innerHTML = '';
    return;
  }
  const refusal = answer && answer.kind === 'refused' ? `<p class="message error" role="alert">${esc(answer.text)}</p>` : '';
  box.innerHTML = `<p>${esc(say('page.player.keep-one'))}</p>
    <div class="ambition-choices">${choices.map((c) => `<button type="button" class="primary ambition-keep" data-ambition="${esc(c)}"${sending ? ' disabled' : ''}>${esc(ambitionCardWord(c))}</button>`).join('')}</div>${refusal}`;
  for (const button of box.querySelectorAll('button.ambition-keep')) {
    button.addEventListener('click', async () => {
      if (sending) return;
      sending = true;
      for (const b of box.querySelectorAll('button.ambition-keep')) b.disabled = true;
      try {
        await postJson(`/api/player/${encodeURIComponent(token)}/keep`, { ambition: button.dataset.ambition });
        answer = { kind: 'ok' };
      } catch (e) {
        answer = { kind: 'refused', text: say('page.player.not-kept', { why: { text: sayOr(e.says, e.message) } }) };
      }
      sending = false;
      onKept();
    });
  }
}
