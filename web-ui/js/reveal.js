// The host's form for a table that plays with its own physical Favourites
// cards: at a coronation the referee waits (status.reveal) until the host
// has entered every player's revealed card (six characters, with Banished
// the sealed one) and, with Ambition, the card each player kept. The form
// checks what it can before sending (six characters, the sealed one among
// them, nothing left out); everything else is the referee's to judge, and
// its sentence is shown above the send button. Once accepted the form goes
// away; the cards can be sent again, corrected, while the round is the same.
import { esc } from './api.js';
import { ambitionWord, characterName, kAmbitionSlugs, kEditionSlugs, seatName } from './names.js';

const kCardSize = 6;

// The characters a Favourites card can list: the game's roster without the
// Jester (no card names it).
function cardCharacters(status) {
  if (Array.isArray(status.roster) && status.roster.length)
    return status.roster.filter((c) => c && c.id && c.kind !== 'jester').map((c) => c.id);
  return (kEditionSlugs[status.edition] || kEditionSlugs.classic).filter((s) => s !== 'jester');
}

function playersOf(status) {
  return [...(status.players || [])].sort((a, b) => a.player - b.player);
}

// `nodes`: {form, title, intro, players, message, done, doneText, correct,
// cancel}; `send(body)` posts the reveal and resolves to the answer or
// throws the daemon's error; `onAccepted(text)` tells the host.
export function createRevealForm(nodes, { send, onAccepted }) {
  let shownKey = null; // what the form was built for (a change rebuilds it)
  let asked = null; // {game, round, favourites, ambitions, banished}
  let accepted = null; // {game, round, body, asked}: the cards last accepted
  let correcting = false;
  let lastStatus = {};
  let sending = false;
  // After an acceptance, a status event sent before it may still arrive:
  // that round's reveal is not shown again until a status without one.
  let suppress = null;

  const say = (text) => {
    nodes.message.textContent = text || '';
    nodes.message.className = 'message error';
    nodes.message.classList.toggle('hidden', !text);
  };

  function fieldsetHtml(player, characters, ask, prefill) {
    const who = `${player.name || `Player ${player.player + 1}`}`;
    const chosen = new Set(prefill?.favourites || []);
    const chips = characters.map((slug) => `<label class="chip"><input type="checkbox" value="${esc(slug)}"${chosen.has(slug) ? ' checked' : ''}><span>${esc(characterName(slug))}</span></label>`);
    const parts = [`<legend>${esc(seatName(player.seat, [player]))}</legend>`];
    if (ask.favourites) {
      parts.push(`<div class="chips" role="group" aria-label="${esc(who)}'s six favourites">${chips.join('')}</div>`,
        '<div class="small reveal-count" aria-live="polite"></div>');
      if (ask.banished)
        parts.push(`<label class="reveal-pick">Sealed (banished) character <select data-part="banished" aria-label="${esc(who)}'s sealed character"></select></label>`);
    }
    if (ask.ambitions) {
      const options = kAmbitionSlugs.map((a) => `<option value="${esc(a)}"${prefill?.ambition === a ? ' selected' : ''}>${esc(ambitionWord(a))}</option>`);
      parts.push(`<label class="reveal-pick">Kept Ambition card <select data-part="ambition" aria-label="${esc(who)}'s kept Ambition card"><option value="">— choose —</option>${options.join('')}</select></label>`);
    }
    parts.push('<div class="reveal-problem message error hidden"></div>');
    return `<fieldset class="reveal-player" data-player="${player.player}" data-name="${esc(who)}">${parts.join('')}</fieldset>`;
  }

  function chosenOf(fieldset) {
    return [...fieldset.querySelectorAll('.chips input:checked')].map((i) => i.value);
  }

  // Keeps one player's part consistent as the host taps: the count, the
  // other chips disabled once six are chosen, the sealed-character choices
  // limited to the six chosen.
  function refreshPlayer(fieldset, banishedPrefill) {
    const chosen = chosenOf(fieldset);
    const full = chosen.length >= kCardSize;
    for (const input of fieldset.querySelectorAll('.chips input')) {
      input.disabled = full && !input.checked;
      input.closest('.chip').classList.toggle('off', input.disabled);
    }
    const count = fieldset.querySelector('.reveal-count');
    if (count) {
      count.textContent = full ? `✔ ${chosen.length} of ${kCardSize} chosen` : `${chosen.length} of ${kCardSize} chosen`;
      count.classList.toggle('done', full);
    }
    const sealed = fieldset.querySelector('select[data-part="banished"]');
    if (sealed) {
      const keep = banishedPrefill ?? sealed.value;
      const options = chosen.map((slug) => `<option value="${esc(slug)}">${esc(characterName(slug))}</option>`);
      sealed.innerHTML = `<option value="">${chosen.length ? '— one of the six —' : '— choose the six first —'}</option>${options.join('')}`;
      sealed.value = chosen.includes(keep) ? keep : '';
    }
  }

  function build(ask, status, prefill) {
    const players = playersOf(status);
    const characters = cardCharacters(status);
    asked = ask;
    const what = [ask.favourites ? 'Favourites card' : '', ask.ambitions ? 'kept Ambition card' : ''].filter(Boolean).join(' and ');
    nodes.title.textContent = `${correcting ? 'Correct' : 'Enter'} round ${ask.round}'s cards`;
    nodes.intro.textContent = `Every player shows their ${what}. ${ask.favourites ? `Tap the six characters on each card${ask.banished ? ', then choose the one with the black seal' : ''}. ` : ''}The scores wait until the referee has them.`;
    nodes.cancel.classList.toggle('hidden', !correcting);
    nodes.players.innerHTML = players.map((p, i) => fieldsetHtml(p, characters, ask, prefill && {
      favourites: prefill.favourites?.[i], ambition: prefill.ambitions?.[i],
    })).join('');
    for (const [i, fieldset] of [...nodes.players.querySelectorAll('fieldset')].entries()) {
      refreshPlayer(fieldset, prefill?.banished?.[i]);
      fieldset.addEventListener('change', (event) => {
        if (event.target.matches('.chips input')) refreshPlayer(fieldset);
        fieldset.querySelector('.reveal-problem').classList.add('hidden');
      });
    }
    say('');
  }

  // The request, or the list of what is missing (shown by each player).
  function collect() {
    const body = { round: asked.round };
    const problems = [];
    const favourites = [];
    const banished = [];
    const ambitions = [];
    for (const fieldset of nodes.players.querySelectorAll('fieldset')) {
      const name = fieldset.dataset.name;
      const mine = [];
      if (asked.favourites) {
        const chosen = chosenOf(fieldset);
        if (new Set(chosen).size !== kCardSize) mine.push(`choose the ${kCardSize} characters on ${name}'s card (${chosen.length} chosen)`);
        favourites.push(chosen);
        if (asked.banished) {
          const sealed = fieldset.querySelector('select[data-part="banished"]').value;
          if (!sealed) mine.push(`choose the sealed character on ${name}'s card`);
          else if (!chosen.includes(sealed)) mine.push(`${name}'s sealed character must be one of the six`);
          banished.push(sealed);
        }
      }
      if (asked.ambitions) {
        const ambition = fieldset.querySelector('select[data-part="ambition"]').value;
        if (!ambition) mine.push(`choose ${name}'s kept Ambition card`);
        ambitions.push(ambition);
      }
      const problem = fieldset.querySelector('.reveal-problem');
      const text = mine.join('; ');
      problem.textContent = text ? `${text.charAt(0).toUpperCase()}${text.slice(1)}.` : '';
      problem.classList.toggle('hidden', !mine.length);
      problems.push(...mine);
    }
    // The Ambition deck holds one of each card: two players cannot keep the same.
    ambitions.forEach((a, i) => {
      const first = ambitions.indexOf(a);
      if (a && first < i) {
        const names = [...nodes.players.querySelectorAll('fieldset')].map((f) => f.dataset.name);
        const problem = `${names[first]} and ${names[i]} cannot both have kept “${ambitionWord(a)}”: the deck has one of each`;
        problems.push(problem);
        const node = nodes.players.querySelectorAll('.reveal-problem')[i];
        node.textContent = `${problem.charAt(0).toUpperCase()}${problem.slice(1)}.`;
        node.classList.remove('hidden');
      }
    });
    if (asked.favourites) body.favourites = favourites;
    if (asked.favourites && asked.banished) body.banished = banished;
    if (asked.ambitions) body.ambitions = ambitions;
    return { body, problems };
  }

  async function submit(event) {
    event.preventDefault();
    if (!asked || sending) return;
    const { body, problems } = collect();
    if (problems.length) {
      say(`Not sent: ${problems.length === 1 ? problems[0] : `${problems.length} things are missing (see each player)`}.`);
      nodes.players.querySelector('.reveal-problem:not(.hidden)')?.closest('fieldset').scrollIntoView({ block: 'center' });
      return;
    }
    sending = true;
    nodes.form.querySelector('button[type=submit]').disabled = true;
    try {
      await send(body);
      accepted = { game: lastStatus.game, round: body.round, body, asked };
      suppress = { game: accepted.game, round: body.round };
      correcting = false;
      shownKey = null;
      say('');
      onAccepted(`Round ${body.round}'s cards are in: the referee has scored the round.`);
      render(lastStatus);
    } catch (e) {
      // The referee's own sentence, next to the form.
      say(`The referee refused these cards: ${e.message}`);
      nodes.message.scrollIntoView({ block: 'nearest' });
    } finally {
      sending = false;
      nodes.form.querySelector('button[type=submit]').disabled = false;
    }
  }

  // The cards accepted can be corrected while the referee says so
  // (status.reveal_correction: through the next round, until its own
  // coronation), never once the game is over.
  function correctable(status) {
    if (!accepted || status.game !== accepted.game || !(status.state === 'playing' || status.state === 'paused')) return false;
    return !!status.reveal_correction && status.reveal_correction.round === accepted.round;
  }

  function render(input) {
    const status = input || {};
    lastStatus = status;
    if (!status.reveal) suppress = null;
    let pending = status.reveal || null;
    if (pending && suppress && suppress.game === status.game && suppress.round === pending.round) pending = null;
    if (pending) {
      correcting = false;
      const ask = { game: status.game, round: pending.round, favourites: !!pending.favourites, ambitions: !!pending.ambitions, banished: !!pending.banished };
      const key = JSON.stringify({ ask, players: playersOf(status), characters: cardCharacters(status) });
      if (key !== shownKey) {
        shownKey = key;
        build(ask, status, null);
      }
      nodes.form.classList.remove('hidden');
      nodes.done.classList.add('hidden');
      return;
    }
    if (correcting && correctable(status)) return; // the host is correcting
    correcting = false;
    shownKey = null;
    nodes.form.classList.add('hidden');
    const canCorrect = correctable(status);
    nodes.done.classList.toggle('hidden', !canCorrect);
    if (canCorrect) nodes.doneText.textContent = `Round ${accepted.round}'s cards are in.`;
  }

  nodes.form.addEventListener('submit', submit);
  nodes.correct.addEventListener('click', () => {
    if (!accepted) return;
    correcting = true;
    build(accepted.asked, lastStatus, accepted.body);
    nodes.form.classList.remove('hidden');
    nodes.done.classList.add('hidden');
    nodes.cancel.classList.remove('hidden');
    nodes.form.scrollIntoView({ block: 'start' });
  });
  nodes.cancel.addEventListener('click', () => {
    correcting = false;
    nodes.cancel.classList.add('hidden');
    render(lastStatus);
  });

  return { render };
}
