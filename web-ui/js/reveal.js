// The host's form for a table that plays with its own physical Favourites
// cards: at a coronation the referee waits (status.reveal) until the host
// has entered every player's revealed card (six characters, with Banished
// the sealed one) and, with Ambition, the card each player kept. The form
// checks what it can before sending (six characters, the sealed one among
// them, nothing left out); everything else is the referee's to judge, and
// its sentence is shown above the send button. Once accepted the form goes
// away; the cards can be sent again, corrected, while the round is the same.
import { esc } from './api.js';
import { nameHtml } from './names.js';
import { sayHtml } from './words.js';
import { ambitionCardWord } from './game_words.js';
import { characterName, kAmbitionSlugs, kEditionSlugs } from './names.js';
import { say, sayOr } from './words.js';

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

  const tell = (text) => {
    nodes.message.textContent = text || '';
    nodes.message.className = 'message error';
    nodes.message.classList.toggle('hidden', !text);
  };

  function fieldsetHtml(player, characters, ask, prefill) {
    const who = `${player.name || say('page.host.player-placeholder', { n: player.player + 1 })}`;
    const whose = (code) => esc(say(code, { who: { player: who } }));
    const chosen = new Set(prefill?.favourites || []);
    const chips = characters.map((slug) => `<label class="chip"><input type="checkbox" value="${esc(slug)}"${chosen.has(slug) ? ' checked' : ''}><span>${esc(characterName(slug))}</span></label>`);
    // The seat as the table names it: the player's name, else "Seat 2".
    const legend = player.name ? nameHtml(player.name) : esc(say('seat.numbered', { seat: { seat: player.seat } }));
    const parts = [`<legend>${legend}</legend>`];
    if (ask.favourites) {
      parts.push(`<div class="chips" role="group" aria-label="${whose('page.host.reveal-six-of')}">${chips.join('')}</div>`,
        '<div class="small reveal-count" aria-live="polite"></div>');
      if (ask.banished)
        parts.push(`<label class="reveal-pick">${esc(say('page.host.reveal-sealed'))} <select data-part="banished" aria-label="${whose('page.host.reveal-sealed-of')}"></select></label>`);
    }
    if (ask.ambitions) {
      const options = kAmbitionSlugs.map((a) => `<option value="${esc(a)}"${prefill?.ambition === a ? ' selected' : ''}>${esc(ambitionCardWord(a))}</option>`);
      parts.push(`<label class="reveal-pick">${esc(say('page.host.reveal-kept'))} <select data-part="ambition" aria-label="${whose('page.host.reveal-kept-of')}"><option value="">${esc(say('page.host.reveal-choose'))}</option>${options.join('')}</select></label>`);
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
      const args = { chosen: chosen.length, size: kCardSize };
      count.textContent = full ? `✔ ${say('page.host.reveal-count', args)}` : say('page.host.reveal-count', args);
      count.classList.toggle('done', full);
    }
    const sealed = fieldset.querySelector('select[data-part="banished"]');
    if (sealed) {
      const keep = banishedPrefill ?? sealed.value;
      const options = chosen.map((slug) => `<option value="${esc(slug)}">${esc(characterName(slug))}</option>`);
      sealed.innerHTML = `<option value="">${esc(say(chosen.length ? 'page.host.reveal-one-of-six' : 'page.host.reveal-six-first'))}</option>${options.join('')}`;
      sealed.value = chosen.includes(keep) ? keep : '';
    }
  }

  function build(ask, status, prefill) {
    const players = playersOf(status);
    const characters = cardCharacters(status);
    asked = ask;
    nodes.title.textContent = say(correcting ? 'page.host.reveal-correct' : 'page.host.reveal-enter', { round: ask.round });
    nodes.intro.textContent = say(introCode(ask));
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
    tell('');
  }

  // What the host is asked to enter, in one paragraph.
  function introCode(ask) {
    if (!ask.favourites) return 'page.host.reveal-intro-ambitions';
    if (ask.ambitions) return ask.banished ? 'page.host.reveal-intro-both-banished' : 'page.host.reveal-intro-both';
    return ask.banished ? 'page.host.reveal-intro-favourites-banished' : 'page.host.reveal-intro-favourites';
  }

  // The request, or the list of what is missing (shown by each player).
  function collect() {
    const body = { round: asked.round };
    const problems = [];
    const favourites = [];
    const banished = [];
    const ambitions = [];
    // Each problem a sentence (HTML: the names isolated in <bdi>).
    for (const fieldset of nodes.players.querySelectorAll('fieldset')) {
      const who = { who: nameHtml(fieldset.dataset.name) };
      const mine = [];
      if (asked.favourites) {
        const chosen = chosenOf(fieldset);
        if (new Set(chosen).size !== kCardSize) mine.push(sayHtml('page.host.reveal-missing-six', { size: kCardSize, chosen: chosen.length }, who));
        favourites.push(chosen);
        if (asked.banished) {
          const sealed = fieldset.querySelector('select[data-part="banished"]').value;
          if (!sealed) mine.push(sayHtml('page.host.reveal-missing-seal', {}, who));
          else if (!chosen.includes(sealed)) mine.push(sayHtml('page.host.reveal-seal-not-six', {}, who));
          banished.push(sealed);
        }
      }
      if (asked.ambitions) {
        const ambition = fieldset.querySelector('select[data-part="ambition"]').value;
        if (!ambition) mine.push(sayHtml('page.host.reveal-missing-ambition', {}, who));
        ambitions.push(ambition);
      }
      const problem = fieldset.querySelector('.reveal-problem');
      problem.innerHTML = mine.join(' ');
      problem.classList.toggle('hidden', !mine.length);
      problems.push(...mine);
    }
    // The Ambition deck holds one of each card: two players cannot keep the same.
    ambitions.forEach((a, i) => {
      const first = ambitions.indexOf(a);
      if (a && first < i) {
        const names = [...nodes.players.querySelectorAll('fieldset')].map((f) => f.dataset.name);
        const problem = sayHtml('page.host.reveal-kept-twice', { card: { text: ambitionCardWord(a) } },
          { first: nameHtml(names[first]), second: nameHtml(names[i]) });
        problems.push(problem);
        const node = nodes.players.querySelectorAll('.reveal-problem')[i];
        node.innerHTML = problem;
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
      tell(say('page.host.reveal-not-sent', { n: problems.length }));
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
      tell('');
      onAccepted(say('page.host.reveal-accepted', { round: body.round }));
      render(lastStatus);
    } catch (e) {
      // The referee's own sentence, next to the form.
      tell(say('page.host.reveal-refused', { why: { text: sayOr(e.says, e.message) } }));
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
    if (canCorrect) nodes.doneText.textContent = say('page.host.reveal-in', { round: accepted.round });
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
