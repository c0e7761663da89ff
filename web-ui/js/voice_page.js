// "Speak on this screen": the status page on a TV or a laptop says the
// referee's lines aloud with the browser's own voices (the Web Speech API),
// in the table's language. The daemon decides what is said and when (the
// "spoken" event: each line a message, rendered here with words.js, or the
// withdrawal of a line made stale, web-ui/API.md), so this screen says what
// the castle's speaker says. Browsers speak only after a tap on the page:
// the toggle is that tap, and it is not remembered across loads.
import { getJson } from './api.js';
import { Words, wordsReady } from './words.js';

const kQueue = 3; // as the castle's speaker: a line behind three others is old news

// ---- the catalogs ---------------------------------------------------------------

const catalogs = new Map();

// The words of `language` (English's for a code it lacks), fetched once.
export async function loadWords(language) {
  if (!catalogs.has(language)) {
    const loading = (async () => {
      const english = await getJson('/api/words/en');
      const own = language === 'en' ? english : await getJson(`/api/words/${encodeURIComponent(language)}`);
      return new Words(language, own, english);
    })();
    // A catalog that could not be fetched is asked for again next time.
    loading.catch(() => catalogs.delete(language));
    catalogs.set(language, loading);
  }
  return catalogs.get(language);
}

// The words this page reads in (words.js: the device's choice, else the
// table's on a shared screen or the browser's languages on a personal one).
export function deviceWords() {
  return wordsReady;
}

// ---- the lines, spoken one at a time -----------------------------------------

export class PageVoice {
  // `speech`: window.speechSynthesis (a test gives its own); `Utterance`:
  // SpeechSynthesisUtterance's constructor.
  constructor(speech, Utterance, wordsOf = loadWords) {
    this.speech = speech;
    this.Utterance = Utterance;
    this.wordsOf = wordsOf;
    this.on = false;
    this.tableOn = false;
    this.volume = 0.8;
    this.lastId = null; // the lines up to it were said before this page listened
    this.waiting = []; // {key, text, language}
    this.current = null; // the line being said: {key, utterance}
    this.said = []; // for the browser test: the texts said, in order
  }

  // The event stream (re)connected: its first spoken event is old news,
  // lines made while it was down included.
  reconnected() {
    this.lastId = null;
  }

  setOn(on) {
    this.on = on;
    if (!on) this.silence();
  }

  onStatus(status) {
    const voice = (status && status.voice) || {};
    this.tableOn = !!voice.enabled;
    if (typeof voice.volume === 'number') this.volume = Math.max(0, Math.min(1, voice.volume / 100));
    if (!this.tableOn) this.silence();
  }

  // The "spoken" event: {id, lines: [{id, key, language, says} | {id, key, cancel: true}]}.
  async onSpoken(data) {
    if (!data || typeof data.id !== 'number') return;
    if (this.lastId === null) {
      this.lastId = data.id; // old news: said before this page listened
      return;
    }
    const fresh = (data.lines || []).filter((line) => line.id > this.lastId);
    this.lastId = Math.max(this.lastId, data.id);
    for (const line of fresh) {
      if (line.cancel) {
        this.withdraw(line.key);
        continue;
      }
      if (!this.on || !this.tableOn) continue;
      let words;
      try {
        words = await this.wordsOf(line.language || 'en');
      } catch {
        continue; // no words for it (the daemon away): not said
      }
      this.queue({ key: line.key, text: words.say(line.says), language: line.language || 'en' });
    }
  }

  queue(line) {
    // A newer line of a key replaces one still waiting; a full queue drops its oldest.
    this.waiting = this.waiting.filter((w) => w.key !== line.key);
    this.waiting.push(line);
    while (this.waiting.length > kQueue) this.waiting.shift();
    this.next();
  }

  withdraw(key) {
    this.waiting = this.waiting.filter((w) => w.key !== key);
    if (this.current && this.current.key === key) {
      this.current = null;
      this.speech.cancel();
      this.next();
    }
  }

  silence() {
    this.waiting = [];
    if (this.current) {
      this.current = null;
      this.speech.cancel();
    }
  }

  next() {
    if (this.current || !this.waiting.length) return;
    const line = this.waiting.shift();
    const utterance = new this.Utterance(line.text.replace(/[\u2066-\u2069]/g, ''));
    utterance.lang = line.language;
    utterance.volume = this.volume;
    const voices = (this.speech.getVoices && this.speech.getVoices()) || [];
    const voice = voices.find((v) => String(v.lang).toLowerCase().startsWith(line.language));
    if (voice) utterance.voice = voice;
    const current = { key: line.key, utterance };
    const done = () => {
      if (this.current !== current) return;
      this.current = null;
      this.next();
    };
    utterance.onend = done;
    utterance.onerror = done;
    this.current = current;
    this.said.push(line.text);
    document.body.dataset.voiceSaid = String(this.said.length);
    this.speech.speak(utterance);
  }
}

// ---- the toggle on the status page -----------------------------------------------

function mount(container) {
  const speech = globalThis.speechSynthesis;
  const Utterance = globalThis.SpeechSynthesisUtterance;
  const voice = new PageVoice(speech, Utterance);
  const label = document.createElement('label');
  label.className = 'inline voice-here';
  const box = document.createElement('input');
  box.type = 'checkbox';
  box.id = 'speak-here';
  const text = document.createElement('span');
  const hint = document.createElement('span');
  hint.className = 'small muted';
  hint.id = 'speak-here-hint';
  label.append(box, ' ', text);
  container.append(label, ' ', hint);

  let words = null;
  const draw = () => {
    if (!words) return;
    text.textContent = words.say('voice.ui.speak-here');
    if (!speech || !Utterance) hint.textContent = words.say('voice.ui.cannot-speak');
    else hint.textContent = box.checked && !voice.tableOn ? words.say('voice.ui.voice-off') : '';
  };
  deviceWords()
    .then((w) => {
      words = w;
      draw();
    })
    .catch(() => {}); // no catalog (the daemon away): the toggle stays unlabelled
  if (!speech || !Utterance) box.disabled = true;
  box.addEventListener('change', () => {
    // This tap is what lets the browser speak: a silent line now.
    if (box.checked && speech) speech.speak(new Utterance(''));
    voice.setOn(box.checked);
    draw();
  });
  window.addEventListener('vivaref:rendered', (event) => {
    voice.onStatus(event.detail.status);
    draw();
  });
  return voice;
}

const container = globalThis.document && document.getElementById('voice-here');
// The status page's voice: status.js passes it the "spoken" events.
export const pageVoice = container ? mount(container) : null;
