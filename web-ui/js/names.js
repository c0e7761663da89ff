// Words for what the JSON names by id: characters, places, seats, cards,
// phases, in the page's language (js/words.js: the catalogs' `page.words.*`,
// `place.*`, `vote.*`, `ambition.*`, `phase.*`, `outcome.*` codes). Every
// page draws after startWords, so these speak its language.
import { esc } from './api.js';
import { say, sayHtml, sayOr } from './words.js';

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

// A person's name as HTML, isolated from the text around it (<bdi>): a name
// in Arabic or Hebrew cannot reorder the sentence, and copies as written.
export function nameHtml(name) {
  return `<bdi>${esc(name)}</bdi>`;
}

// Characters keep their names in every language; the Jester is the Jester
// in the page's language.
export function characterName(slug) {
  if (!slug) return '?';
  if (isJester(slug)) return say('character.jester');
  const known = roster.get(slug);
  if (known && known.name) return known.name;
  return slug.charAt(0).toUpperCase() + slug.slice(1);
}

// A character as a message parameter ({c} in a pattern).
export function characterArg(slug) {
  const known = roster.get(slug);
  return { character: slug || '?', name: characterName(slug), kind: isJester(slug) ? 'jester' : (known && known.kind) || 'man' };
}

// A daemon's message ({code, args}) with each character's kind filled in
// from the roster where the message left it out: the Jester is then named
// in the page's language, and a language agrees with a woman or a man.
export function withKinds(message) {
  const fill = (v) => {
    if (!v || typeof v !== 'object') return v;
    if (Array.isArray(v)) return v.map(fill);
    if ('character' in v && !v.kind) return { ...v, kind: isJester(v.character) ? 'jester' : roster.get(v.character)?.kind || v.kind };
    if ('list' in v) return { ...v, list: fill(v.list) };
    if ('message' in v) return { ...v, message: withKinds(v.message) };
    return v;
  };
  if (!message || !message.args) return message;
  return { ...message, args: Object.fromEntries(Object.entries(message.args).map(([k, v]) => [k, fill(v)])) };
}

// The daemon's message in the page's language when it sent one, else its
// English text (words.js sayOr, with the roster's kinds).
export function sayDaemon(says, text) {
  return sayOr(says && says.code ? withKinds(says) : says, text);
}

// A short label that fits a token on the castle picture.
export function shortName(slug) {
  const words = characterName(slug).split(/\s+/);
  // "The Jester" -> "Jester", "Le Bouffon" -> "Bouffon": an article alone names nobody.
  const first = words.length > 1 && /^(the|il|lo|la|le|l'|l’|der|die|das)$/i.test(words[0]) ? words[1] : words[0];
  return first.length > 9 ? `${first.slice(0, 8)}…` : first;
}

export function isJester(slug) {
  const known = roster.get(slug);
  return known ? known.kind === 'jester' : slug === 'jester';
}

// A place in words: "floor 3", "the throne", "WC 4", "dungeon 2".
export function placeName(place) {
  if (place === null || place === undefined) return say('page.words.off-castle');
  const p = String(place);
  if (/^[0-5]$/.test(p)) return say('place.floor', { floor: Number(p) });
  if (p === '6') return say('place.throne');
  if (p === 'throne-side') return say('place.throne-side');
  if (/^wc\d$/.test(p)) return say('place.wc', { floor: Number(p.slice(2)) });
  if (/^dungeon\d$/.test(p)) return say('place.dungeon', { number: Number(p.slice(7)) });
  if (p === 'box') return say('place.box');
  if (p === 'reserve') return say('page.words.not-placed');
  return p;
}

// The floors' titles (the rulebooks' names of their people).
const kFloorTitles = [
  () => say('page.words.floor-0'),
  () => say('page.words.floor-1'),
  () => say('page.words.floor-2'),
  () => say('page.words.floor-3'),
  () => say('page.words.floor-4'),
  () => say('page.words.floor-5'),
];

// "Floor 3 · Officers", or "Throne".
export function floorTitle(floor) {
  if (floor === 6) return say('page.words.throne');
  return say('page.words.floor-title', { floor, people: { text: kFloorTitles[floor] ? kFloorTitles[floor]() : '' } });
}

// "Floor 3" alone (a narrow castle).
export function floorShort(floor) {
  return floor === 6 ? say('page.words.throne') : say('page.words.floor-short', { floor });
}

// A seat in the table's words: its players' names ("Anna", "Anna & Bo"),
// or "Seat 1" when nobody there is named. The API, the referee and the LEDs
// (turn-0, station-0) count seats from 0; people count from 1.
export function seatNumber(seat) {
  return Number(seat) + 1;
}

function seatWords(seat, players, named) {
  const atSeat = (players || []).filter((p) => p.seat === seat);
  const names = atSeat.map((p) => p.name).filter(Boolean);
  // A seat the referee plays says so wherever it is named.
  const bot = atSeat.some((p) => p.bot);
  if (!names.length) return { names: '', bot };
  return { names: names.map(named).join(' & '), bot };
}

export function seatName(seat, players) {
  const { names, bot } = seatWords(seat, players, (n) => n);
  const base = names || say('seat.numbered', { seat: { seat } });
  return bot ? say('page.words.bot-seat', { seat: { text: base } }) : base;
}

// The same as HTML, each name isolated.
export function seatHtml(seat, players) {
  const { names, bot } = seatWords(seat, players, nameHtml);
  const base = names || esc(say('seat.numbered', { seat: { seat } }));
  return bot ? sayHtml('page.words.bot-seat', { seat: { html: base } }) : base;
}

export function playerName(player, players) {
  const p = (players || []).find((q) => q.player === player);
  return p && p.name ? p.name : say('page.words.player-numbered', { n: player + 1 });
}

export function playerHtml(player, players) {
  const p = (players || []).find((q) => q.player === player);
  return p && p.name ? nameHtml(p.name) : esc(say('page.words.player-numbered', { n: player + 1 }));
}

// A table of words read when used, so that it speaks the page's language:
// {key: () => words}.
function wordTable(entries) {
  const out = {};
  for (const [key, words] of Object.entries(entries)) Object.defineProperty(out, key, { get: words, enumerable: true });
  return out;
}

const kVoteMarks = { yes: '✔', no: '✘', stomachache: '☹' };
const kVoteNames = wordTable({
  yes: () => say('vote.yes'),
  no: () => say('vote.no'),
  stomachache: () => say('vote.stomachache'),
});
// "✔ Yes", "✘ No", "☹ Stomachache", in the page's language.
export const kVoteWords = wordTable(Object.fromEntries(Object.keys(kVoteMarks).map((card) => [card, () => voteWord(card)])));
export function voteWord(card) {
  return kVoteMarks[card] ? `${kVoteMarks[card]} ${kVoteNames[card]}` : card;
}

export const kPhaseWords = wordTable({
  deal: () => say('phase.deal'),
  ambition: () => say('phase.ambition'),
  placement: () => say('phase.placement'),
  ascent: () => say('phase.ascent'),
  election: () => say('phase.election'),
  reshuffle: () => say('phase.reshuffle'),
  'game-over': () => say('phase.game-over'),
});
export function phaseWord(phase) {
  return kPhaseWords[phase] || phase || '';
}

// The 2024 variants by the setup's name ("emissary", "team-pawn").
export const kVariantWords = wordTable({
  emissary: () => say('page.words.variant-emissary'),
  'royal-couple': () => say('page.words.variant-royal-couple'),
  teams: () => say('page.words.variant-teams'),
  'team-pawn': () => say('page.words.variant-team-pawn'),
});
export function variantWord(variant) {
  return kVariantWords[variant] || variant || '';
}

export const kOutcomeWords = wordTable({
  crowned: () => say('outcome.crowned'),
  eliminated: () => say('outcome.eliminated'),
  rejected: () => say('outcome.rejected'),
  cancelled: () => say('outcome.cancelled'),
});
export function outcomeWord(outcome) {
  return kOutcomeWords[outcome] || outcome || '';
}

// Each Ambition card's points (engine/ids.cpp), in the engine's order.
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
// Every Ambition card, in the engine's order (engine/ids.cpp).
export const kAmbitionSlugs = Object.keys(kAmbitionPoints);

// "The Jester is King (5)".
export function ambitionWord(slug) {
  if (!(slug in kAmbitionPoints)) return slug;
  return say('page.words.ambition-points', { card: { ambition: slug }, points: kAmbitionPoints[slug] });
}
