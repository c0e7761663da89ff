// The parameters of the messages a page says itself (the review, the
// league, the simulated board): a character, a place, a seat, a player, a
// plain text, in the wire form words.js renders (web-ui/API.md, "A
// MESSAGE"); characterArg (names.js) and sayHtml (words.js) again, for
// the pages that import their words from here.
import { say } from './words.js';

export { characterArg } from './names.js';

export function placeArg(place) {
  return { place: String(place) };
}

export function textArg(text) {
  return { text: String(text ?? '') };
}

export function playerArg(name) {
  return { player: String(name) };
}

// A player by number in `players` ([{player, seat, name, bot}]): the name,
// or "Player 2" when there is none.
export function playerWho(player, players) {
  const p = (players || []).find((q) => q.player === player);
  if (p && p.name) return playerArg(p.name);
  return { message: { code: 'page.games.player-numbered', args: { n: Number(player) + 1 } } };
}

export function playerText(player, players) {
  return say('page.games.who', { who: playerWho(player, players) });
}

// A seat in the table's words: its players' names ("Anna & Bo"), "Seat 1"
// when nobody there is named, and "(bot)" for a seat the referee plays.
export function seatWho(seat, players) {
  const atSeat = (players || []).filter((p) => p.seat === seat);
  const names = atSeat.map((p) => p.name).filter(Boolean);
  const who = names.length === 1 ? playerArg(names[0])
    : names.length ? { list: names.map(playerArg) }
      : { message: { code: 'seat.numbered', args: { seat: { seat } } } };
  if (!atSeat.some((p) => p.bot)) return who;
  return { message: { code: 'page.games.bot-seat', args: { who } } };
}

export function seatText(seat, players) {
  return say('page.games.who', { who: seatWho(seat, players) });
}

export { sayHtml } from './words.js';

// The game's state, the same words on the games list, a review and the league.
export function statusWord(s) {
  switch (s) {
    case 'complete': return `✔ ${say('page.games.status-complete')}`;
    case 'abandoned': return `✖ ${say('page.games.status-abandoned')}`;
    case 'incomplete': return `… ${say('page.games.status-incomplete')}`;
    case 'in-progress': return `▶ ${say('page.games.status-in-progress')}`;
    default: return s || '';
  }
}

export function editionName(e) {
  switch (String(e)) {
    case 'classic': return say('page.games.edition-classic');
    case 'online': return say('page.games.edition-online');
    default: return String(e ?? '');
  }
}

// A vote card with its sign ("✔ Yes").
export function voteText(card) {
  switch (card) {
    case 'yes': return `✔ ${say('vote.yes')}`;
    case 'no': return `✘ ${say('vote.no')}`;
    case 'stomachache': return `☹ ${say('vote.stomachache')}`;
    default: return card || '';
  }
}
