// Words for what the JSON names by id: characters, places, seats, cards.

// The characters of each edition, by slug (GAME-RECORD identifiers): the
// simulated board shows them before any game has started.
export const kEditionSlugs = {
  classic: ['alighiero', 'beatrice', 'clemente', 'dario', 'ernesto', 'fiorello', 'gavino', 'irina', 'leonardo',
    'merlino', 'natale', 'odessa', 'piero'],
  2024: ['eloise', 'ouaf', 'caius', 'foidvo', 'jeanne', 'merlin', 'victoria', 'leonardo', 'romeo', 'bridget',
    'agathe', 'gontran', 'blanche', 'jester'],
};
kEditionSlugs.online = kEditionSlugs.classic;

// A roster from the status ([{id, name, kind}]) when the daemon sends one.
let roster = new Map();
export function setRoster(list) {
  if (!Array.isArray(list)) return;
  roster = new Map(list.filter((c) => c && c.id).map((c) => [c.id, c]));
}

export function characterName(slug) {
  if (!slug) return '?';
  const known = roster.get(slug);
  if (known && known.name) return known.name;
  if (slug === 'jester') return 'Jester';
  return slug.charAt(0).toUpperCase() + slug.slice(1);
}

// A short label that fits a token on the castle picture.
export function shortName(slug) {
  const words = characterName(slug).split(/\s+/);
  // "The Jester" -> "Jester": an article alone names nobody.
  const first = words.length > 1 && /^(the|il|lo|la|le|l')$/i.test(words[0]) ? words[1] : words[0];
  return first.length > 9 ? `${first.slice(0, 8)}…` : first;
}

export function isJester(slug) {
  const known = roster.get(slug);
  return known ? known.kind === 'jester' : slug === 'jester';
}

const kFloorNames = ['Servants', 'Craftsmen', 'Traders', 'Officers', 'Dignitaries', 'Nobles'];

export function placeName(place) {
  if (place === null || place === undefined) return 'off the castle';
  const p = String(place);
  if (/^[0-5]$/.test(p)) return `floor ${p}`;
  if (p === '6') return 'the throne';
  if (p === 'throne-side') return 'beside the throne';
  if (p.startsWith('wc')) return `WC ${p.slice(2)}`;
  if (p.startsWith('dungeon')) return `dungeon ${p.slice(7)}`;
  if (p === 'box') return 'the box';
  if (p === 'reserve') return 'not placed yet';
  return p;
}

export function floorTitle(floor) {
  return floor === 6 ? 'Throne' : `Floor ${floor} · ${kFloorNames[floor]}`;
}

// A seat in the table's words: its players' names ("Anna", "Anna & Bo"),
// or "Seat 1" when nobody there is named. The API, the referee and the LEDs
// (turn-0, station-0) count seats from 0; people count from 1.
export function seatNumber(seat) {
  return Number(seat) + 1;
}

export function seatName(seat, players) {
  const atSeat = (players || []).filter((p) => p.seat === seat);
  const names = atSeat.map((p) => p.name).filter(Boolean);
  // A seat the referee plays says so wherever it is named.
  const bot = atSeat.some((p) => p.bot) ? ' (bot)' : '';
  return (names.length ? names.join(' & ') : `Seat ${seatNumber(seat)}`) + bot;
}

export function playerName(player, players) {
  const p = (players || []).find((q) => q.player === player);
  return p && p.name ? p.name : `Player ${player + 1}`;
}

export const kVoteWords = { yes: '✔ Yes', no: '✘ No', stomachache: '☹ Stomachache' };
export function voteWord(card) {
  return kVoteWords[card] || card;
}

export const kPhaseWords = {
  deal: 'Dealing',
  ambition: 'Choosing Ambition cards',
  placement: 'Placement',
  ascent: 'Ascent',
  election: 'Election',
  reshuffle: "Shuffling the Emissary's pile",
  'game-over': 'Game over',
};

export const kOutcomeWords = {
  crowned: 'crowned King',
  eliminated: 'eliminated',
  rejected: 'rejected',
  cancelled: 'cancelled',
};

const kAmbitionWords = {
  'jester-king': 'The Jester is King (5)',
  'its-a-queen': "It's a Queen (3)",
  'its-a-king': "It's a King (3)",
  'wc-0': '0 favourites in a WC (5)',
  'wc-1': '1 favourite in a WC (3)',
  'wc-2': '2 favourites in a WC (5)',
  'no-floors-0-1': 'No favourite on floors 0–1 (5)',
  'no-floors-2-3': 'No favourite on floors 2–3 (3)',
  'no-floors-4-5': 'No favourite on floors 4–5 (5)',
  'dungeons-1': '1 favourite in the dungeons (3)',
  'dungeons-2': '2 favourites in the dungeons (5)',
  'dungeons-3': '3 favourites in the dungeons (8)',
  'no-wc-no-dungeon': 'No WC and no dungeon (8)',
  'only-yes': 'Only Yes votes (3)',
  'friend-of-the-king': 'Friend of the King (3)',
  'under-11': 'Under 11 (3)',
};
// Every Ambition card, in the engine's order (engine/ids.cpp).
export const kAmbitionSlugs = Object.keys(kAmbitionWords);

export function ambitionWord(slug) {
  return kAmbitionWords[slug] || slug;
}
