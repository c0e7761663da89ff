// The game's states in the page's words, for the host's and the players'
// pages (each code written out: the catalogs' test finds every code said
// in the sources); phases, vote and Ambition cards are names.js's.
import { say } from './words.js';

const kStateCodes = {
  'no-game': 'state.no-game',
  playing: 'state.playing',
  paused: 'state.paused',
  finished: 'state.finished',
  abandoned: 'state.abandoned',
};

// "playing", "paused"; an unknown state as the daemon named it.
export function stateWord(state) {
  return kStateCodes[state] ? say(kStateCodes[state]) : String(state ?? '');
}

// The other game words are names.js's, under the names these pages use.
export { ambitionWord as ambitionCardWord, phaseWord, voteWord as voteCardWord } from './names.js';
