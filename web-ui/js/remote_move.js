// A seat played from afar (issue 35), on its player's page (js/player.js):
// the castle as the board sees it (js/castle.js, from the public status the
// page receives with the live events), whose turn it is and the last thing
// done, and, when the seat is to place or move (`moment.kind` "choose", or
// "planned" once chosen: another choice replaces it until the table has
// made it), its legal choices (`moment.choices`, from the engine; nothing
// else is offered): a tap on a character, then on one of its
// destinations, then a confirmation: POST /api/player/TOKEN/plan with the
// `step` of the answer that offered them. A refusal (409) is shown in its
// words. The move is then shown at the table for anyone to make; the page
// says so, and once the table has made it, says it is done (the castle
// redrawn, the last action).
import { esc, postJson } from './api.js';
import { drawCastle, tokensFromStatus } from './castle.js';
import { characterArg, characterName, placeName, sayDaemon } from './names.js';
import { say, sayOr } from './words.js';

// Kept across re-renders: the character tapped, its destination tapped,
// the last answer ({kind, text}), whether a request is on its way, and the
// step the choices were offered for (a new position starts afresh).
let picked = null;
let pickedTo = null;
let answer = null;
let sending = false;
let offeredStep = null;
// Whether this seat had a move shown at the table, and the step it was
// shown at: once the game has moved on, the page says the move is done.
let shownAtStep = null;
let doneLine = false;

// The castle's LEDs as the status gives them ({"place-3": "on"}) as the
// drawing's lamps ({"3": "on"}).
function lamps(leds) {
  if (!leds) return null;
  const out = {};
  for (const [name, mode] of Object.entries(leds))
    if (name.startsWith('place-') && mode && mode !== 'off') out[name.slice(6)] = mode;
  return out;
}

// A place in the page's words: "floor 3", "beside the board" for a piece not
// yet placed.
function placeText(place) {
  if (place === null || place === undefined) return say('page.player.remote.off-board');
  return placeName(place);
}

// The move this seat chose, as the public status's `plan` shows it, in a
// sentence ("Shown at the table: Eloise to floor 3.").
export function shownLine(plan) {
  if (!plan || !plan.character) return say('page.player.remote.shown-any');
  const c = characterArg(plan.character);
  const to = { place: String(plan.to) };
  if (plan.action === 'move' && plan.from !== null && plan.from !== undefined) {
    return say('page.player.remote.shown-move', { c, from: { place: String(plan.from) }, to });
  }
  return say('page.player.remote.shown-place', { c, to });
}

// The castle card: the drawing, the last action, the move done (whose turn
// it is, and what the table waits for, is the banner's, just above).
export function renderRemoteCastle(card, { status, selected, seat }) {
  if (!status || !status.board) {
    card.querySelector('.remote-drawing').innerHTML = '';
    return;
  }
  // Drawn again only when something drawn changed (the page reads every
  // few seconds): the picture stays still, and a screen reader's place in it.
  const drawing = card.querySelector('.remote-drawing');
  const tokens = tokensFromStatus(status);
  const leds = lamps(status.leds);
  const signature = JSON.stringify([status.edition, tokens, leds, selected, drawing.clientWidth]);
  if (drawing.dataset.signature !== signature || !drawing.firstChild) {
    drawing.dataset.signature = signature;
    drawCastle(drawing, { edition: status.edition, tokens, leds, selected });
  }
  const last = status.last_action_says && status.last_action_says.code ? sayDaemon(status.last_action_says, status.last_action) : status.last_action || '';
  card.querySelector('.remote-last').textContent = last ? say('page.player.remote.last', { action: { text: last } }) : '';
  const plan = status.plan || status.bot_plan;
  const mine = plan && plan.seat === seat;
  card.querySelector('.remote-done').textContent = doneLine && !mine ? say('page.player.remote.done') : '';
  card.querySelector('.remote-done').classList.toggle('hidden', !(doneLine && !mine));
}

// The seat's moment changed: remembers a move shown, and says it done once
// the game has moved on past it.
export function followRemoteMoment(moment, step) {
  const kind = moment ? moment.kind : 'none';
  if (kind === 'planned') {
    shownAtStep = step;
    doneLine = false;
  } else if (shownAtStep !== null && step !== shownAtStep) {
    shownAtStep = null;
    doneLine = true;
    return true;
  } else if (kind === 'choose') doneLine = false;
  return false;
}

// The character tapped (drawn as selected on the castle), or null.
export function remoteSelected() {
  return picked;
}

// box: the element in the banner; moment: the player's; step: from the
// same answer; token: this page's link; onSent(answer): the daemon answered.
export function renderRemoteChoice(box, { token, moment, step, onSent, onPick }) {
  const choices = (moment && moment.choices) || [];
  if (step !== offeredStep) {
    offeredStep = step;
    // A new position: a choice tapped for the old one no longer stands.
    if (picked && !choices.some((c) => c.character === picked)) picked = null;
    if (pickedTo && !choices.some((c) => c.character === picked && String(c.to) === pickedTo)) pickedTo = null;
  }
  const signature = JSON.stringify([choices, step, picked, pickedTo, answer, sending]);
  if (box.dataset.signature === signature) return;
  box.dataset.signature = signature;
  if (!choices.length) {
    box.innerHTML = answer ? `<p class="message ${answer.kind === 'ok' ? 'ok' : 'error'} remote-answer">${esc(answer.text)}</p>` : '';
    return;
  }
  const disabled = sending ? ' disabled' : '';
  // One button a character, in the order the engine gives them.
  const pieces = [...new Set(choices.map((c) => c.character))];
  let html = `<p class="small remote-step">${esc(say('page.player.remote.pick-piece'))}</p><div class="remote-pieces">${pieces.map((slug) => {
    const from = choices.find((c) => c.character === slug).from;
    // Beside the board (a placement): the name alone; on the castle, where it stands.
    const where = from === null || from === undefined ? '' : ` <span class="small">${esc(placeText(from))}</span>`;
    return `<button type="button" class="remote-piece" data-character="${esc(slug)}" aria-pressed="${slug === picked}"${disabled}><b>${esc(characterName(slug))}</b>${where}</button>`;
  }).join('')}</div>`;
  if (picked) {
    const places = choices.filter((c) => c.character === picked).map((c) => String(c.to));
    html += `<p class="small remote-step">${esc(say('page.player.remote.pick-place', { c: characterArg(picked) }))}</p><div class="remote-places">${places.map((to) => `<button type="button" class="remote-to" data-to="${esc(to)}" aria-pressed="${to === pickedTo}"${disabled}>${esc(placeText(to))}</button>`).join('')}</div>`;
  }
  if (picked && pickedTo) {
    const choice = choices.find((c) => c.character === picked && String(c.to) === pickedTo);
    const args = { c: characterArg(picked), to: { place: pickedTo } };
    const label = choice && choice.action === 'move' && choice.from !== null && choice.from !== undefined
      ? say('page.player.remote.confirm-move', { ...args, from: { place: String(choice.from) } })
      : say('page.player.remote.confirm-place', args);
    html += `<div class="remote-actions"><button type="button" class="primary remote-confirm"${disabled}>${esc(label)}</button>
      <button type="button" class="remote-cancel"${disabled}>${esc(say('page.player.remote.cancel'))}</button></div>`;
  }
  if (answer) html += `<p class="message ${answer.kind === 'ok' ? 'ok' : 'error'} remote-answer">${esc(answer.text)}</p>`;
  box.innerHTML = html;
  const redraw = () => renderRemoteChoice(box, { token, moment, step, onSent, onPick });
  for (const button of box.querySelectorAll('button.remote-piece')) {
    button.addEventListener('click', () => {
      picked = button.dataset.character === picked ? null : button.dataset.character;
      pickedTo = null;
      answer = null;
      redraw();
      onPick();
      box.querySelector('button.remote-to')?.focus();
    });
  }
  for (const button of box.querySelectorAll('button.remote-to')) {
    button.addEventListener('click', () => {
      pickedTo = button.dataset.to;
      answer = null;
      redraw();
      box.querySelector('button.remote-confirm')?.focus();
    });
  }
  box.querySelector('button.remote-cancel')?.addEventListener('click', () => {
    picked = null;
    pickedTo = null;
    redraw();
    onPick();
  });
  box.querySelector('button.remote-confirm')?.addEventListener('click', async () => {
    if (sending || !picked || !pickedTo) return;
    sending = true;
    redraw();
    try {
      const said = await postJson(`/api/player/${encodeURIComponent(token)}/plan`, { character: picked, to: pickedTo, step });
      answer = { kind: 'ok', text: sayOr(said.says, said.message || '') };
      picked = null;
      pickedTo = null;
    } catch (e) {
      answer = { kind: 'refused', text: sayOr(e.says, e.message) };
    }
    sending = false;
    onPick();
    onSent(answer);
  });
}

// The answer shown once the position has changed is old news: forgotten.
export function forgetRemoteAnswer() {
  answer = null;
}
