// The self-test panel (issue 36): "Check the castle" between games
// (GET/POST /api/host/self-test, POST /api/host/self-test/answer,
// API.md). The daemon walks the castle: every reader asked, each LED lit
// alone (the host answers lit, not lit or skip), each vote key pressed when
// asked, with the full check a tag over each reader in turn; this shows the
// question of the moment, the buttons that answer it and the findings with
// their fixes, in the page's language. A page includes it with a
// <section id="self-test-card"> (drawn here) and initSelfTest(onFailure).
import { esc, getJson, postJson } from './api.js';
import { say, sayOr, translate } from './words.js';

const $ = (id) => document.getElementById(id);
const kPollMs = 300;
// Each answer's button, written out so that the words test finds every code.
const kAnswerWords = {
  lit: 'page.selftest.lit',
  'not-lit': 'page.selftest.not-lit',
  skip: 'page.selftest.skip',
};
const kDoneWords = { keys: 'page.selftest.done-key', tags: 'page.selftest.done-tag' };
const kStepWords = {
  readers: 'page.selftest.step-readers',
  leds: 'page.selftest.step-leds',
  keys: 'page.selftest.step-keys',
  tags: 'page.selftest.step-tags',
  done: 'page.selftest.step-done',
};

let onFailure = () => {};
let polling = null;
let busy = false;

function draw(card) {
  card.innerHTML = `
    <h2 data-words="page.selftest.title">Check the castle</h2>
    <p class="small" data-words="page.selftest.help">Between games: every reader is asked, each LED is lit alone in turn, each vote key is pressed when asked. Each fault found is named with its fix.</p>
    <div class="row">
      <label class="inline"><input type="checkbox" id="self-test-full"> <span data-words="page.selftest.full">with a tag over each reader in turn (the full check)</span></label>
      <button type="button" id="self-test-start" class="primary" data-words="page.selftest.start">Check the castle</button>
    </div>
    <div id="self-test-live" class="hidden">
      <div id="self-test-step" class="small"></div>
      <div id="self-test-prompt" class="big" aria-live="polite"></div>
      <div id="self-test-answers" class="row"></div>
      <div class="row"><button type="button" id="self-test-stop" data-words="page.selftest.stop">■ Stop the check</button></div>
    </div>
    <div id="self-test-result" class="hidden">
      <div id="self-test-end" class="big" aria-live="polite"></div>
      <ul id="self-test-findings" class="self-test-findings"></ul>
    </div>`;
  translate(card);
}

function render(s) {
  const running = !!s.running;
  document.body.dataset.selfTest = running ? s.step : (s.started ? 'over' : 'none');
  $('self-test-live').classList.toggle('hidden', !running);
  $('self-test-start').disabled = running;
  $('self-test-full').disabled = running;
  const prompt = s.prompt ? sayOr(s.prompt.says, s.prompt.text) : '';
  if (running) {
    const step = say(kStepWords[s.step] || 'page.selftest.step-readers');
    $('self-test-step').textContent = s.items > 0
      ? say('page.selftest.progress', { step: { text: step }, n: s.item + 1, of: s.items })
      : step;
    $('self-test-prompt').textContent = prompt;
    const answers = s.answers || [];
    const key = `${s.step}/${s.item}/${answers.join(',')}/${prompt}`;
    const box = $('self-test-answers');
    if (box.dataset.key !== key) {
      box.dataset.key = key;
      box.innerHTML = answers.map((a) => {
        // While the castle is to be cleared before the next tag: go on, or end the tag walk.
        const lifting = s.step === 'tags' && s.prompt && s.prompt.says && s.prompt.says.code === 'castle.walk.tag-lift';
        const words = lifting ? (a === 'done' ? 'page.selftest.done-lift' : 'page.selftest.skip-lift')
          : a === 'done' ? kDoneWords[s.step] || 'page.selftest.done-key' : kAnswerWords[a];
        return `<button type="button" class="${a === 'lit' ? 'primary' : ''}" data-answer="${esc(a)}">${esc(say(words))}</button>`;
      }).join('');
    }
  }
  // Faults first, notes (a clone chip) after them.
  const findings = [...(s.findings || [])].sort((a, b) => Number(a.note) - Number(b.note));
  $('self-test-result').classList.toggle('hidden', !s.started || (running && findings.length === 0));
  $('self-test-end').textContent = running ? '' : prompt;
  $('self-test-findings').innerHTML = findings.map((f) => `<li class="${f.note ? 'note' : 'fault'}" data-code="${esc(f.finding.says ? f.finding.says.code : '')}">
      <b>${f.note ? `${esc(say('page.selftest.note'))} ` : ''}${esc(sayOr(f.finding.says, f.finding.text))}</b>
      <div>${esc(sayOr(f.fix.says, f.fix.text))}</div></li>`).join('');
}

async function refresh() {
  try {
    const s = await getJson('/api/host/self-test', { host: true });
    render(s);
    if (!s.running) stopPolling();
  } catch (e) {
    stopPolling();
    onFailure(e);
  }
}

function startPolling() {
  if (!polling) polling = setInterval(refresh, kPollMs);
}
function stopPolling() {
  if (polling) clearInterval(polling);
  polling = null;
}

async function act(path, body) {
  if (busy) return;
  busy = true;
  try {
    render(await postJson(path, body, { host: true }));
    startPolling();
  } catch (e) {
    onFailure(e);
  } finally {
    busy = false;
  }
}

// Draws the panel in <section id="self-test-card"> and follows a check
// already running (another device started it). `failure(e)`: a request
// refused (e.status, e.says, e.message).
export function initSelfTest(failure) {
  onFailure = failure || onFailure;
  const card = $('self-test-card');
  if (!card) return;
  draw(card);
  $('self-test-start').addEventListener('click', () => act('/api/host/self-test', { full: $('self-test-full').checked }));
  $('self-test-stop').addEventListener('click', () => act('/api/host/self-test', { action: 'stop' }));
  $('self-test-answers').addEventListener('click', (ev) => {
    const button = ev.target.closest('button[data-answer]');
    if (button) act('/api/host/self-test/answer', { answer: button.dataset.answer });
  });
  // The host page's "Check the castle" link opens the tools at this panel.
  if (new URLSearchParams(window.location.search).get('check') === 'castle') card.scrollIntoView({ block: 'start' });
  refresh().then(() => {
    if (document.body.dataset.selfTest !== 'none' && document.body.dataset.selfTest !== 'over') startPolling();
  });
}
