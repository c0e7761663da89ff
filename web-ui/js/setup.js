// The guided set-up page (issue 36): a castle configuration written from
// what the castle sees, between games (GET/POST /api/host/setup, POST
// /api/host/setup/answer, API.md). One step at a time: what to do in a
// sentence, what the castle sees now (the Castle page's health route), the
// findings with their fixes, then the INI to be written and its problems,
// and save. The host's only: without the secret kept on this device
// (setup.html#SECRET adopts it, as the host's page does) it shows nothing.
import { esc, getJson, hostToken, postJson, setHostToken } from './api.js';
import { initEnrolment } from './enrol.js';
import { setRoster } from './names.js';
import { say, sayHtml, sayOr, startWords } from './words.js';

const $ = (id) => document.getElementById(id);
const kPollMs = 300;
// Each answer's button, written out so that the words test finds every code.
const kAnswerWords = {
  nothing: 'page.setup.nothing',
  retry: 'page.setup.retry',
  skip: 'page.setup.skip',
  lit: 'page.selftest.lit',
  'not-lit': 'page.selftest.not-lit',
  done: 'page.setup.done-key',
  save: 'page.setup.save',
};
const kStepWords = {
  places: 'page.setup.step-places',
  checks: 'page.setup.step-checks',
  review: 'page.setup.step-review',
  done: 'page.setup.step-done',
};
let timer = null;
let busy = false;
let enrolling = false;  // the enrolment card follows once the page is unlocked

const code = (text) => `<code data-words-skip>${esc(text)}</code>`;

function lock(message) {
  setHostToken('');
  stopPolling();
  $('setup').classList.add('hidden');
  $('unlock').classList.remove('hidden');
  const m = $('unlock-message');
  m.textContent = message || '';
  m.className = 'message error';
  m.classList.toggle('hidden', !message);
}

function tell(text, kind = 'error') {
  const node = $('message');
  node.textContent = text || '';
  node.className = `message ${kind}`;
  node.classList.toggle('hidden', !text);
}

function failed(e) {
  if (e.status === 401) lock(sayOr(e.says, e.message));
  else tell(sayOr(e.says, e.message));
}

function answerButtons(s) {
  const answers = s.answers || [];
  const seen = (s.spot && s.spot.seenBy) || [];
  const buttons = [];
  for (const a of answers) {
    if (a === 'choose') {
      // One button per reader that saw the tag: the host says which one is the spot's.
      for (const reader of seen)
        buttons.push(`<button type="button" class="primary" data-answer="choose" data-reader="${esc(reader)}">${esc(say('page.setup.choose', { reader: { text: reader } }))}</button>`);
      continue;
    }
    const words = kAnswerWords[a];
    if (!words) continue;
    buttons.push(`<button type="button" class="${a === 'lit' || a === 'save' ? 'primary' : ''}" data-answer="${esc(a)}">${esc(say(words))}</button>`);
  }
  return buttons.join('');
}

// The castle in force (the state's `castle`): which file, simulated or this
// castle's readers, why a saved castle did not open; the switches offered
// between set-ups.
function renderCastle(castle, running) {
  const known = !!(castle && castle.file);
  $('castle-card').classList.toggle('hidden', !known);
  if (!known) return;
  const file = { text: castle.file };
  $('castle-runs').textContent = say(castle.hardware === 'real' ? 'page.setup.runs-real' : 'page.setup.runs-sim', { file });
  const problem = castle.problem ? sayOr(castle.problem.says, castle.problem.text) : '';
  $('castle-problem').textContent = problem;
  $('castle-problem').classList.toggle('hidden', !problem);
  $('use-real-box').classList.toggle('hidden', running || castle.hardware === 'real' || castle.hardwareFixed || castle.saved && !!castle.problem);
  const aside = !running && castle.saved;
  $('put-aside').classList.toggle('hidden', !aside);
  if (aside) $('put-aside').textContent = say('page.setup.put-aside', { given: { text: castle.given } });
}

function render(s) {
  const running = !!s.running;
  renderCastle(s.castle, running);
  document.body.dataset.setup = running ? s.step : (s.started ? 'over' : 'none');
  $('start-card').classList.toggle('hidden', running);
  // Tags are enrolled on the castle in force: before a set-up or after it, never during one.
  $('enrol-card').classList.toggle('hidden', running);
  $('step-card').classList.toggle('hidden', !running);
  $('end-card').classList.toggle('hidden', running || !s.started);
  const prompt = s.prompt ? sayOr(s.prompt.says, s.prompt.text) : '';
  if (!running) {
    $('end').textContent = s.started ? prompt : '';
    return;
  }
  const stepWords = kStepWords[s.step] || 'page.setup.step-places';
  $('step').textContent = s.step === 'places' && s.spot
    ? say('page.setup.progress', { step: { text: say(stepWords) }, n: s.spot.item + 1, of: s.readers })
    : say(stepWords);
  $('prompt').textContent = prompt;
  const fix = s.fix ? sayOr(s.fix.says, s.fix.text) : '';
  $('fix').textContent = fix;
  $('fix').classList.toggle('hidden', !fix);
  const key = `${s.step}/${s.spot ? `${s.spot.item}/${s.spot.outcome}` : ''}/${(s.answers || []).join(',')}/${prompt}`;
  const box = $('answers');
  if (box.dataset.key !== key) {
    box.dataset.key = key;
    box.innerHTML = answerButtons(s);
  }
  const assigned = Object.entries(s.assigned || {});
  $('sees').textContent = s.step === 'places' && s.spot && s.spot.seenBy.length
    ? say('page.setup.seen-by', { readers: { text: s.spot.seenBy.join(', ') } })
    : assigned.length ? say('page.setup.assigned', { n: assigned.length, of: s.readers }) : '';
  const findings = (s.checks && s.checks.findings) || [];
  $('findings').innerHTML = findings.map((f) => `<li class="${f.note ? 'note' : 'fault'}" data-code="${esc(f.finding.says ? f.finding.says.code : '')}">
      <b>${esc(sayOr(f.finding.says, f.finding.text))}</b>
      <div>${esc(sayOr(f.fix.says, f.fix.text))}</div></li>`).join('');
  const review = s.step === 'review';
  $('ini').classList.toggle('hidden', !review);
  if (review) $('ini').textContent = s.ini || '';
  const problems = s.problems || [];
  $('problems').classList.toggle('hidden', !review || !problems.length);
  $('problems').innerHTML = problems.map((p) => `<li>${code(p.text)}</li>`).join('');
}

// What the castle sees now (the Castle page's route): the readers that see
// a tag, and how many answer nothing, while the host puts tags and checks.
function renderLive(report) {
  const seeing = (report.readers || []).filter((r) => r.tags && r.tags.length);
  // A reader not yet asked since the castle was (re)built is not counted as silent.
  const silent = (report.readers || []).filter((r) => !r.answers && r.scans > 0).length;
  const lines = [seeing.length
    ? say('page.setup.live-sees', { readers: { text: seeing.map((r) => r.name).join(', ') } })
    : say('page.setup.live-nothing')];
  if (silent) lines.push(say('page.setup.live-silent', { n: silent }));
  $('live').textContent = lines.join(' ');
}

async function refresh() {
  timer = null;
  try {
    const s = await getJson('/api/host/setup', { host: true });
    $('unlock').classList.add('hidden');
    $('setup').classList.remove('hidden');
    if (!enrolling) {
      enrolling = true;
      initEnrolment(failed);
    }
    render(s);
    const live = s.running && s.step !== 'review';
    $('live').classList.toggle('hidden', !live);
    if (live) renderLive(await getJson('/api/host/castle', { host: true }));
    if (s.running) timer = setTimeout(refresh, kPollMs);
  } catch (e) {
    failed(e);
  }
}

function stopPolling() {
  if (timer) clearTimeout(timer);
  timer = null;
}

async function act(path, body) {
  if (busy) return;
  busy = true;
  try {
    tell('');
    render(await postJson(path, body, { host: true }));
  } catch (e) {
    failed(e);
  } finally {
    busy = false;
  }
  stopPolling();
  refresh();
}

const sleep = (ms) => new Promise((resolve) => { setTimeout(resolve, ms); });

// The service restarts on a castle that needs other devices
// (castle.config.restarting): the page waits for the referee to go, then to
// answer again (at most a minute), and shows the castle it came back on.
async function waitForRestart(says) {
  stopPolling();
  tell(`${says} ${say('page.setup.waiting')}`, 'ok');
  // Nothing to press meanwhile: the castle it comes back on is shown then.
  for (const id of ['use-real-box', 'put-aside', 'start-card', 'enrol-card']) $(id).classList.add('hidden');
  let gone = false;
  for (let i = 0; i < 120; i += 1) {
    await sleep(500);
    try {
      await getJson('/api/host/setup', { host: true });
      if (gone || i >= 20) break;  // back, or it never went (not under systemd)
    } catch (e) {
      if (e.status === 401) break;
      gone = true;
    }
  }
  tell(says, 'ok');
  refresh();
}

// "Use this castle's readers" and "put the saved castle aside": between set-ups,
// the castle in force switched; what came of it said above the steps.
async function switchCastle(action) {
  if (busy) return;
  busy = true;
  let restarting = null;
  try {
    tell('');
    const answer = await postJson('/api/host/setup', { action }, { host: true });
    // What was written (saved, or put aside), then what the castle runs on now.
    const wrote = answer.save || answer.putAside;
    const says = [wrote && wrote.says ? sayOr(wrote.says, '') : '', answer.says ? sayOr(answer.says, '') : '']
      .filter(Boolean).join(' ');
    if (answer.restarting) restarting = says;
    else tell(says, 'ok');
  } catch (e) {
    failed(e);
  } finally {
    busy = false;
  }
  if (restarting !== null) waitForRestart(restarting);
  else {
    stopPolling();
    refresh();
  }
}

async function start() {
  await startWords();
  $('needs-link').innerHTML = sayHtml('page.host.needs-link', {}, { serve: code('vivaref serve'), hostLink: code('vivaref host-link') });
  $('or-type').innerHTML = sayHtml('page.host.or-type', {}, { key: code('host_token') });
  $('unlock').addEventListener('submit', (event) => {
    event.preventDefault();
    setHostToken($('token').value.trim());
    refresh();
  });
  $('start-in-force').addEventListener('click', () => act('/api/host/setup', { from: 'in-force' }));
  $('start-example').addEventListener('click', () => act('/api/host/setup', { from: 'example' }));
  $('stop').addEventListener('click', () => act('/api/host/setup', { action: 'stop' }));
  $('use-real').addEventListener('click', () => switchCastle('use-real'));
  $('put-aside').addEventListener('click', () => switchCastle('put-aside'));
  $('answers').addEventListener('click', (ev) => {
    const button = ev.target.closest('button[data-answer]');
    if (!button) return;
    const body = { answer: button.dataset.answer };
    if (button.dataset.reader) body.reader = button.dataset.reader;
    act('/api/host/setup/answer', body);
  });
  try {
    const [info, status] = await Promise.all([getJson('/api/info'), getJson('/api/status')]);
    if (info.simulated) $('sim-link').classList.remove('hidden');
    setRoster(status.roster);
  } catch {
    /* the names fall back to the slugs' */
  }
  if (!hostToken()) lock('');
  else refresh();
}

start();
