// The host page's voice block: the table's language (what the shared
// screens show and the referee says: POST /api/host/language) and the
// referee's voice (on/off, volume, which moments speak: POST
// /api/host/voice), with the castle's speaker's state. Each change is sent
// at once; the status ("language", "voice") redraws it, so two hosts' pages
// agree. Words from the catalogs (voice.ui.*, voice.moment.*) in this
// device's language.
import { getJson, postJson } from './api.js';
import { deviceWords } from './voice_page.js';

// The moments as the daemon names them, with their words.
const kMoments = [
  ['refusal', 'voice.moment.refusal'],
  ['election', 'voice.moment.election'],
  ['round', 'voice.moment.round'],
  ['winner', 'voice.moment.winner'],
  ['bot', 'voice.moment.bot'],
  ['reader', 'voice.moment.reader'],
  ['teach', 'voice.moment.teach'],
];

// A language by its own name ("Français"), whatever this page's language.
function ownName(language) {
  try {
    const name = new Intl.DisplayNames([language], { type: 'language' }).of(language);
    return name.charAt(0).toLocaleUpperCase(language) + name.slice(1);
  } catch {
    return language;
  }
}

// Fills `container` (the host page's voice card); `onFailure(error)` gets
// what the daemon refused (a 401 locks the page). Returns {render(status)}.
export function createVoiceSettings(container, onFailure) {
  let words = null;
  let last = null;
  let languages = ['en', 'fr', 'de', 'it'];
  container.innerHTML = `
    <h2 id="voice-title"></h2>
    <label><span id="voice-language-label"></span> <select id="voice-language"></select></label>
    <label class="inline"><input type="checkbox" id="voice-enabled"> <span id="voice-enabled-label"></span></label>
    <label><span id="voice-volume-label"></span> <input type="range" id="voice-volume" min="0" max="100" step="5"></label>
    <fieldset><legend id="voice-moments-label"></legend><div id="voice-moments"></div></fieldset>
    <p id="voice-speaker" class="small"></p>`;
  const $ = (id) => container.querySelector(`#${id}`);
  for (const [name] of kMoments) {
    const label = document.createElement('label');
    label.className = 'inline';
    label.innerHTML = `<input type="checkbox" id="voice-moment-${name}" value="${name}"> <span></span>`;
    $('voice-moments').append(label);
  }

  const send = async (path, body) => {
    try {
      render(await postJson(path, body, { host: true }), true);
    } catch (e) {
      onFailure(e);
      if (last) render(last); // back to what the daemon holds
    }
  };
  $('voice-language').addEventListener('change', (e) => send('/api/host/language', { language: e.target.value }));
  $('voice-enabled').addEventListener('change', (e) => send('/api/host/voice', { enabled: e.target.checked }));
  $('voice-volume').addEventListener('change', (e) => send('/api/host/voice', { volume: Number(e.target.value) }));
  $('voice-moments').addEventListener('change', () => {
    const moments = kMoments.map(([name]) => name).filter((name) => $(`voice-moment-${name}`).checked);
    send('/api/host/voice', { moments });
  });

  function drawWords() {
    if (!words) return;
    $('voice-title').textContent = words.say('voice.ui.title');
    $('voice-language-label').textContent = words.say('voice.ui.language');
    $('voice-enabled-label').textContent = words.say('voice.ui.enabled');
    $('voice-volume-label').textContent = words.say('voice.ui.volume');
    $('voice-moments-label').textContent = words.say('voice.ui.moments');
    for (const [name, code] of kMoments) $(`voice-moment-${name}`).nextElementSibling.textContent = words.say(code);
  }

  // `part`: an answer of one route (the language's or the voice's) or the status.
  function render(part, answer = false) {
    const status = answer ? { ...(last || {}), ...(part.language ? { language: part.language } : { voice: part }) } : part;
    last = status;
    const select = $('voice-language');
    if (select.options.length !== languages.length) {
      select.innerHTML = languages.map((l) => `<option value="${l}">${ownName(l)}</option>`).join('');
    }
    if (status.language && document.activeElement !== select) select.value = status.language;
    const voice = status.voice;
    if (!voice) return;
    $('voice-enabled').checked = !!voice.enabled;
    if (document.activeElement !== $('voice-volume')) $('voice-volume').value = String(voice.volume);
    const on = new Set(voice.moments || []);
    for (const [name] of kMoments) $(`voice-moment-${name}`).checked = on.has(name);
    if (!words) return;
    const speaker = $('voice-speaker');
    if (voice.problem) speaker.textContent = words.say({ code: 'voice.ui.speaker-failed', args: { problem: { text: voice.problem } } });
    else if (voice.speaker === 'none') speaker.textContent = words.say('voice.ui.speaker-none');
    else speaker.textContent = words.say('voice.ui.speaker-ok');
    speaker.classList.toggle('error', !!voice.problem);
  }

  deviceWords()
    .then((w) => {
      words = w;
      drawWords();
      if (last) render(last);
    })
    .catch(() => {}); // no catalog (the daemon away): the controls stay unlabelled
  // The status as it is now (the page's event stream may have sent it before this block was made).
  getJson('/api/status')
    .then((status) => {
      if (!last) render(status);
    })
    .catch(() => {});
  getJson('/api/words')
    .then((w) => {
      if (Array.isArray(w.languages) && w.languages.length) languages = w.languages;
      if (last) render(last);
    })
    .catch(() => {});
  return { render: (status) => render(status) };
}
