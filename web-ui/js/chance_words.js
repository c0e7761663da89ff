// The host's "Chance by hand" box takes a GAME-RECORD deal or reshuffle
// typed with the names the pages show, in the page's language: "Odessa la
// Contessa", "No WC and no dungeon (8)", "✔ Yes" or "Yes" ("Oui" in French).
// Each such string becomes the record's slug before it is sent; slugs pass
// unchanged, and an unknown word is left for the referee to refuse with its
// own sentence.
import { ambitionWord, characterName, kAmbitionSlugs, kEditionSlugs, kVoteWords } from './names.js';

function fold(text) {
  return String(text).normalize('NFKD').replace(/[\u0300-\u036f]/g, '').replace(/[–—]/g, '-').trim().toLowerCase();
}

function dictionary(edition) {
  const words = new Map();
  for (const slug of kEditionSlugs[edition] || [...kEditionSlugs.classic, ...kEditionSlugs[2024]]) {
    words.set(fold(characterName(slug)), slug);
    words.set(fold(slug), slug);
  }
  for (const slug of kAmbitionSlugs) {
    const word = ambitionWord(slug);
    words.set(fold(word), slug);
    words.set(fold(word.replace(/\s*\(\d+\)$/, '')), slug); // without its points
  }
  for (const [slug, word] of Object.entries(kVoteWords)) {
    words.set(fold(word), slug);
    words.set(fold(word.replace(/^\S+\s/, '')), slug); // without its mark
  }
  return words;
}

// A copy of `value` with every string that names a character, an Ambition
// card or a vote card replaced by its slug. Numbers and keys are kept.
export function slugsFromNames(value, edition) {
  const words = dictionary(edition);
  const walk = (v) => {
    if (typeof v === 'string') return words.get(fold(v)) || v;
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return walk(value);
}
