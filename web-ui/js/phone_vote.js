// A vote from a player's phone (issue 35), drawn in the banner at the top
// of their page (js/player.js) while their seat votes on the phone
// (`moment.election.by_phone`): one button a vote card their seat holds
// (`moment.election.keys`), a tap then a confirmation, as the Ambition
// choice does; then POST /api/player/TOKEN/vote. The answer's words are
// shown ("Your vote is in."), a refusal's too ("… Your vote was not
// counted."). Which card was voted stays on this page: the answer never
// says it, and this page says only that the vote is in.
import { esc, postJson } from './api.js';
import { voteCardWord } from './game_words.js';
import { say, sayOr } from './words.js';

const kOrder = ['yes', 'no', 'stomachache'];
// A card's name without its mark, for the confirmation's sentence.
const kPlain = { yes: 'vote.yes', no: 'vote.no', stomachache: 'vote.stomachache' };

// Kept across re-renders (the page redraws on every status event): the
// card tapped and waiting for its confirmation, the last answer
// ({kind: 'ok' | 'refused', text}), whether a request is on its way, and
// the election these belong to (a new candidate starts afresh).
let picked = null;
let answer = null;
let sending = false;
let electionKey = null;

// The answer to the last vote sent, for the banner once the vote is in
// ("Your vote is in."): its text, or '' when none belongs to this election.
export function phoneVoteAnswer(election) {
  const key = JSON.stringify(election && election.candidate ? election.candidate : null);
  return key === electionKey && answer && answer.kind === 'ok' ? answer.text : '';
}

// box: the element; election: the moment's; token: this page's link;
// onVoted: called once the daemon answered (the page reads again).
export function renderPhoneVote(box, { token, election, onVoted }) {
  const key = JSON.stringify(election && election.candidate ? election.candidate : null);
  if (key !== electionKey) {
    electionKey = key;
    picked = null;
    answer = null;
  }
  const keys = [...(election.keys || [])].sort((a, b) => kOrder.indexOf(a) - kOrder.indexOf(b));
  if (picked && !keys.includes(picked)) picked = null;
  const signature = JSON.stringify([key, keys, picked, answer, sending]);
  if (box.dataset.signature === signature) return;
  box.dataset.signature = signature;
  const disabled = sending ? ' disabled' : '';
  const cards = keys.map((card) => `<button type="button" class="vote-choice vote-${esc(card)}" data-card="${esc(card)}" aria-pressed="${card === picked}"${disabled}>${esc(voteCardWord(card))}</button>`).join('');
  let html = `<div class="vote-choices">${cards}</div>`;
  if (picked) {
    html += `<div class="vote-actions"><button type="button" class="primary vote-confirm" data-card="${esc(picked)}"${disabled}>${esc(say('page.player.vote.confirm', { vote: { text: kPlain[picked] ? say(kPlain[picked]) : picked } }))}</button>
      <button type="button" class="vote-cancel"${disabled}>${esc(say('page.player.vote.cancel'))}</button></div>`;
  } else html += `<p class="small">${esc(say('page.player.vote.tap-one'))}</p>`;
  if (answer) html += `<p class="message ${answer.kind === 'ok' ? 'ok' : 'error'} vote-answer">${esc(answer.text)}</p>`;
  box.innerHTML = html;
  const redraw = () => renderPhoneVote(box, { token, election, onVoted });
  for (const button of box.querySelectorAll('button.vote-choice')) {
    button.addEventListener('click', () => {
      picked = button.dataset.card;
      answer = null;
      redraw();
      box.querySelector('button.vote-confirm')?.focus();
    });
  }
  box.querySelector('button.vote-cancel')?.addEventListener('click', () => {
    picked = null;
    redraw();
  });
  box.querySelector('button.vote-confirm')?.addEventListener('click', async (event) => {
    if (sending) return;
    const card = event.currentTarget.dataset.card;
    sending = true;
    redraw();
    try {
      const said = await postJson(`/api/player/${encodeURIComponent(token)}/vote`, { card });
      answer = { kind: 'ok', text: sayOr(said.says, said.message || '') };
      picked = null;
    } catch (e) {
      answer = { kind: 'refused', text: sayOr(e.says, e.message) };
    }
    sending = false;
    onVoted(answer);
  });
}
