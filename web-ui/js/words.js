// What the daemon says, in the reader's language. A message is a code and
// typed parameters ({"code": "refusal.floor-full", "args": {"floor": 4,
// "limit": 4}}, web-ui/API.md); the words are the daemon's catalogs
// (GET /api/words/LANG), ICU MessageFormat patterns, rendered here as the
// daemon renders them for the voice and `vivaref show`
// (daemon/words/words.hpp), with the browser's Intl for plurals, numbers
// and lists. A test renders every example in both and compares.
//
// Written by hand because no browser formats ICU MessageFormat and nothing
// may be downloaded: this reads the part of the syntax the catalogs use
// ({name}, {name, plural, ...} with # and =N, {name, select, ...}); an
// apostrophe is always a letter (the catalogs write ’).

const FSI = '\u2068';  // first strong isolate: a name cannot reorder the sentence
const PDI = '\u2069';
// Unicode's Bidi_Control characters, taken out of a name before it is
// isolated (a PDI inside would end the isolate early), as the daemon does
// (daemon/words/name_text.hpp).
const BIDI_CONTROLS = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;

// ---- the patterns ----------------------------------------------------------------

// A pattern as a list of parts: strings, {arg}, {arg, plural|select, cases}.
function parse(pattern) {
  let at = 0;
  function parts(inPlural, closing) {
    const out = [];
    let text = '';
    while (at < pattern.length) {
      const c = pattern[at];
      if (c === '}' && closing) break;
      if (c === '{') {
        if (text) out.push(text);
        text = '';
        at += 1;
        out.push(argument());
      } else if (c === '#' && inPlural) {
        if (text) out.push(text);
        text = '';
        out.push({ hash: true });
        at += 1;
      } else {
        text += c;
        at += 1;
      }
    }
    if (text) out.push(text);
    return out;
  }
  function word() {
    while (/\s/.test(pattern[at] || '')) at += 1;
    const start = at;
    while (at < pattern.length && !/[\s,{}]/.test(pattern[at])) at += 1;
    return pattern.slice(start, at);
  }
  function expect(c) {
    while (/\s/.test(pattern[at] || '')) at += 1;
    if (pattern[at] !== c) throw new Error(`"${c}" expected at ${at} in: ${pattern}`);
    at += 1;
  }
  function argument() {
    const name = word();
    while (/\s/.test(pattern[at] || '')) at += 1;
    if (pattern[at] === '}') {
      at += 1;
      return { arg: name };
    }
    expect(',');
    const type = word();
    expect(',');
    const cases = {};
    for (;;) {
      while (/\s/.test(pattern[at] || '')) at += 1;
      if (pattern[at] === '}') break;
      const key = word();
      expect('{');
      cases[key] = parts(type === 'plural', true);
      expect('}');
    }
    at += 1;
    if (type !== 'plural' && type !== 'select') throw new Error(`"${type}" is not plural or select in: ${pattern}`);
    return { arg: name, type, cases };
  }
  return parts(false, false);
}

// ---- a language ------------------------------------------------------------------

// The words of one language: its catalog (code -> pattern) and English's
// for a code it lacks.
export class Words {
  constructor(language, catalog, english) {
    this.language = language;
    this.catalog = catalog || {};
    this.english = english || this.catalog;
    this.parsed = new Map();
    this.plurals = new Intl.PluralRules(language);
    this.numbers = new Intl.NumberFormat(language);
    this.lists = new Intl.ListFormat(language, { type: 'conjunction', style: 'long' });
  }

  // A message ({code, args}) or a bare code in this language; a code no
  // catalog has shows as "[code]".
  say(message) {
    const m = typeof message === 'string' ? { code: message, args: {} } : message;
    if (!m || !m.code) return '';
    const pattern = this.catalog[m.code] ?? this.english[m.code];
    if (pattern === undefined) return `[${m.code}]`;
    let parts = this.parsed.get(m.code);
    if (!parts) {
      parts = parse(pattern);
      this.parsed.set(m.code, parts);
    }
    return this.render(parts, this.values(m.args || {}), null);
  }

  // The parameters as ICU sees them: numbers stay numbers, the rest words;
  // a place brings NAME_to, NAME_from, NAME_on (with its preposition),
  // NAME_kind and NAME_number beside it.
  values(args) {
    const out = {};
    for (const [name, v] of Object.entries(args)) {
      if (typeof v === 'number') out[name] = v;
      else if (v && typeof v === 'object' && 'seat' in v) out[name] = Number(v.seat) + 1;
      else out[name] = this.value(v);
      if (v && typeof v === 'object' && 'character' in v) out[`${name}_kind`] = v.kind || 'man';
      if (v && typeof v === 'object' && 'place' in v) {
        const p = placeParts(String(v.place));
        out[`${name}_kind`] = p.kind;
        out[`${name}_number`] = p.number;
        for (const form of ['to', 'from', 'on']) {
          const args = p.numberName ? { [p.numberName]: p.number } : {};
          out[`${name}_${form}`] = this.say({ code: `place.${form}.${p.kind}`, args });
        }
      }
    }
    return out;
  }

  value(v) {
    if (typeof v === 'number') return String(v);
    if (!v || typeof v !== 'object') return '';
    if ('seat' in v) return String(Number(v.seat) + 1);
    if ('character' in v) return v.name || v.character;
    if ('player' in v) return FSI + String(v.player).replace(BIDI_CONTROLS, '') + PDI;
    if ('text' in v) return String(v.text);
    if ('place' in v) {
      const p = placeParts(String(v.place));
      const args = p.numberName ? { [p.numberName]: p.number } : {};
      return this.say({ code: p.code, args });
    }
    if ('vote' in v) return this.say(`vote.${v.vote}`);
    if ('ambition' in v) return this.say(`ambition.${v.ambition}`);
    if ('list' in v) return this.lists.format((v.list || []).map((item) => this.value(item)));
    if ('message' in v) return this.say(v.message);
    return '';
  }

  render(parts, values, number) {
    let out = '';
    for (const part of parts) {
      if (typeof part === 'string') out += part;
      else if (part.hash) out += number === null ? '#' : this.numbers.format(number);
      else if (!part.type) {
        const v = values[part.arg];
        out += v === undefined ? `{${part.arg}}` : typeof v === 'number' ? this.numbers.format(v) : v;
      } else if (part.type === 'plural') {
        const n = Number(values[part.arg]);
        const branch = part.cases[`=${n}`] || part.cases[this.plurals.select(n)] || part.cases.other || [];
        out += this.render(branch, values, n);
      } else {
        const key = String(values[part.arg]);
        out += this.render(part.cases[key] || part.cases.other || [], values, number);
      }
    }
    return out;
  }
}

// "3" -> floor 3, "6" -> the throne, "wc3" -> WC 3, "dungeon1" -> dungeon 1.
function placeParts(name) {
  if (/^[0-5]$/.test(name)) return { kind: 'floor', code: 'place.floor', numberName: 'floor', number: Number(name) };
  if (name === '6') return { kind: 'throne', code: 'place.throne', numberName: '', number: 0 };
  if (/^wc\d$/.test(name)) return { kind: 'wc', code: 'place.wc', numberName: 'floor', number: Number(name.slice(2)) };
  if (/^dungeon\d$/.test(name)) {
    return { kind: 'dungeon', code: 'place.dungeon', numberName: 'number', number: Number(name.slice(7)) };
  }
  return { kind: name, code: `place.${name}`, numberName: '', number: 0 };
}

// ---- which language, on this device --------------------------------------------

const kChosenKey = 'vivaref.language';

// The shipped language that best serves this device: its choice if it made
// one, else the browser's preferred languages, else English.
export function deviceLanguage(shipped, storage = globalThis.localStorage, preferred = globalThis.navigator?.languages) {
  const chosen = storage?.getItem?.(kChosenKey);
  if (chosen && shipped.includes(chosen)) return chosen;
  for (const tag of preferred || []) {
    const primary = String(tag).toLowerCase().split(/[-_]/)[0];
    if (shipped.includes(primary)) return primary;
  }
  return 'en';
}

export function chooseLanguage(language, storage = globalThis.localStorage) {
  storage?.setItem?.(kChosenKey, language);
}
