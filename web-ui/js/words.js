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
import { menuInfo, trimMenu } from './nav.js';

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
    if ('character' in v) return v.kind === 'jester' ? this.say('character.jester') : v.name || v.character;
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

// The language this device chose with a picker, if it chose one.
function deviceChoice(shipped, storage = globalThis.localStorage) {
  const chosen = storage?.getItem?.(kChosenKey);
  return chosen && shipped.includes(chosen) ? chosen : '';
}

// ---- the page's words ------------------------------------------------------------

// The words this page speaks, set once by startWords before the page draws.
let active = new Words('en', {}, {});
let wordsLoaded = null;
// The page's words once startWords has loaded them (for modules that draw
// before or beside the page's own script: the voice's controls).
export const wordsReady = new Promise((resolve) => {
  wordsLoaded = resolve;
});
let shipped = ['en'];
let sharedScreen = false;

// A message ({code, args}) or a bare code in the page's language.
export function say(message, args) {
  return active.say(args ? { code: message, args } : message);
}

// A sentence with HTML inside it (a link, a bold word, a name in <bdi>),
// still one sentence of the catalog in every language: the parameters
// named in `html`, or given as {html: "..."}, are put in as that HTML;
// everything else is escaped. Each is said as a mark no catalog writes,
// then the mark is replaced.
export function sayHtml(code, args = {}, html = {}) {
  const marks = new Map();
  const all = {};
  const mark = (name, value) => {
    const m = String.fromCharCode(0xe000 + marks.size);
    marks.set(m, value);
    all[name] = { text: m };
  };
  for (const [name, value] of Object.entries(args)) {
    if (value && typeof value === 'object' && 'html' in value) mark(name, value.html);
    else all[name] = value;
  }
  for (const [name, value] of Object.entries(html)) mark(name, value);
  let out = escapeHtml(say(code, all));
  for (const [m, value] of marks) out = out.split(m).join(value);
  return out;
}

function escapeHtml(text) {
  return String(text ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
}

// The daemon's message when it sent one, else the text beside it (an older
// daemon's, or one that has no message for it).
export function sayOr(says, text) {
  return says && says.code ? active.say(says) : text || '';
}

export function pageLanguage() {
  return active.language;
}

async function catalogOf(language) {
  const response = await fetch(`/api/words/${encodeURIComponent(language)}`);
  if (!response.ok) throw new Error(`no words in ${language}`);
  return response.json();
}

// Loads the page's language and puts its words in the page: a personal
// page (a phone, the host's device) speaks the device's language; a shared
// screen (the status page by the castle) the table's, unless this device
// chose one with the picker. Then every element marked data-words="CODE"
// gets that code's words, data-words-title / -placeholder / -aria-label its
// attributes, and the header gets the picker.
export async function startWords({ shared = false } = {}) {
  sharedScreen = shared;
  const menu = menuInfo(); // js/nav.js: the menu without what does not apply
  let index = { languages: ['en'], table: 'en' };
  try {
    const response = await fetch('/api/words', { cache: 'no-store' });
    if (response.ok) index = await response.json();
  } catch {
    // An unreachable daemon: the page says so in English, the words it has.
  }
  shipped = Array.isArray(index.languages) && index.languages.length ? index.languages : ['en'];
  const table = shipped.includes(index.table) ? index.table : 'en';
  const language = deviceChoice(shipped) || (shared ? table : deviceLanguage(shipped));
  try {
    const [catalog, english] = await Promise.all([
      catalogOf(language),
      language === 'en' ? Promise.resolve(null) : catalogOf('en'),
    ]);
    active = new Words(language, catalog, english || catalog);
  } catch {
    active = new Words('en', {}, {});
  }
  document.documentElement.lang = active.language;
  translate(document);
  trimMenu(await menu);
  installPicker();
  wordsLoaded(active);
  return active;
}

// A shared screen follows the table's language when the host changes it,
// unless this device chose its own.
export function followTable(table) {
  if (!sharedScreen || !table || table === active.language) return;
  if (deviceChoice(shipped) || !shipped.includes(table)) return;
  globalThis.location?.reload();
}

const kAttributes = ['title', 'placeholder', 'aria-label'];

// Puts the words in every marked element under root (the page, or a part
// a script has just drawn).
export function translate(root) {
  for (const node of root.querySelectorAll('[data-words]')) node.textContent = say(node.dataset.words);
  for (const attribute of kAttributes) {
    for (const node of root.querySelectorAll(`[data-words-${attribute}]`)) {
      node.setAttribute(attribute, say(node.getAttribute(`data-words-${attribute}`)));
    }
  }
}

// Each language named in its own words ("Français", "Deutsch"), by the
// browser's Intl.DisplayNames.
function languageName(language) {
  try {
    const name = new Intl.DisplayNames([language], { type: 'language' }).of(language) || language;
    return name.charAt(0).toLocaleUpperCase(language) + name.slice(1);
  } catch {
    return language;
  }
}

// The picker, at the end of the page's header: choosing reloads the page
// in that language and keeps the choice on this device.
function installPicker() {
  const header = document.querySelector('header.top');
  if (!header || header.querySelector('.language-picker') || shipped.length < 2) return;
  const picker = document.createElement('select');
  picker.className = 'language-picker';
  picker.setAttribute('aria-label', say('page.language'));
  picker.title = say('page.language');
  for (const language of shipped) {
    const option = document.createElement('option');
    option.value = language;
    option.lang = language;
    option.textContent = languageName(language);
    option.selected = language === active.language;
    picker.append(option);
  }
  picker.addEventListener('change', () => {
    chooseLanguage(picker.value);
    globalThis.location.reload();
  });
  header.append(picker);
}
