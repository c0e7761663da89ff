// The game's words that the host's and the players' pages draw from ids:
// phases, the game's states, vote cards with their marks, Ambition cards
// with their points. Each code is written out here (the catalogs' test
// finds every code said in the sources); the words are the catalogs'.
import { say } from './words.js';

const kPhaseCodes = {
  deal: 'phase.deal',
  ambition: 'phase.ambition',
  placement: 'phase.placement',
  ascent: 'phase.ascent',
  election: 'phase.election',
  reshuffle: 'phase.reshuffle',
  'game-over': 'phase.game-over',
};

const kStateCodes = {
  'no-game': 'state.no-game',
  playing: 'state.playing',
  paused: 'state.paused',
  finished: 'state.finished',
  abandoned: 'state.abandoned',
};

// "Placement"; an unknown phase as the daemon named it.
export function phaseWord(phase) {
  return kPhaseCodes[phase] ? say(kPhaseCodes[phase]) : String(phase ?? '');
}

// "playing", "paused"; an unknown state as the daemon named it.
export function stateWord(state) {
  return kStateCodes[state] ? say(kStateCodes[state]) : String(state ?? '');
}

// A vote card with its mark, as on the card: "✔ Yes".
const kVoteCards = { yes: ['✔', 'vote.yes'], no: ['✘', 'vote.no'], stomachache: ['☹', 'vote.stomachache'] };
export function voteCardWord(card) {
  const known = kVoteCards[card];
  return known ? `${known[0]} ${say(known[1])}` : String(card);
}

// Each Ambition card's points (engine/ids.cpp), shown beside its name.
const kAmbitionPoints = {
  'jester-king': 5,
  'its-a-queen': 3,
  'its-a-king': 3,
  'wc-0': 5,
  'wc-1': 3,
  'wc-2': 5,
  'no-floors-0-1': 5,
  'no-floors-2-3': 3,
  'no-floors-4-5': 5,
  'dungeons-1': 3,
  'dungeons-2': 5,
  'dungeons-3': 8,
  'no-wc-no-dungeon': 8,
  'only-yes': 3,
  'friend-of-the-king': 3,
  'under-11': 3,
};

// "The Jester is King (5)".
export function ambitionCardWord(slug) {
  if (!(slug in kAmbitionPoints)) return String(slug);
  return say('page.card.ambition', { card: { ambition: slug }, points: kAmbitionPoints[slug] });
}
