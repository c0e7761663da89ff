// The host page's tag enrolment (GET/POST /api/host/enrol): the daemon asks
// for one character at a time and records the tag that appears alone on the
// castle; this shows who is asked for, what was seen, the refusals, and the
// registry saved. On the simulated castle nobody can put a piece down, so
// the page plays the demo: it puts the asked character's tag on the
// daemon's demo place (POST /api/sim/put) and lifts it once taken.
import { esc, getJson, postJson } from './api.js';
import { say, sayHtml, sayOr, translate } from './words.js';

const $ = (id) => document.getElementById(id);
const kPollMs = 250;
const kMarks = {
  asking: '→', enrolled: '✔', kept: '✔', skipped: '⤼', done: '★',
  'tag-of-another': '✘', 'one-at-a-time': '✘', 'unusable-tag': '✘', 'reader-fault': '⚠', 'reader-back': '✔',
};
const kRefusals = new Set(['tag-of-another', 'one-at-a-time', 'unusable-tag', 'reader-fault']);

let onFailure = () => {};
let polling = null;
let state = null;
let demoOn = []; // slugs the demo put down and has not lifted yet

// For the browser test: how many pieces the demo has down (0: it is idle).
function setDemoOn(list) {
  demoOn = list;
  document.body.dataset.demoOn = String(list.length);
}

async function call(body) {
  try {
    return await postJson('/api/host/enrol', body, { host: true });
  } catch (e) {
    onFailure(e);
    throw e;
  }
}

function render(s) {
  state = s;
  const running = !!s.running;
  $('enrol-live').classList.toggle('hidden', !running);
  $('enrol-start').disabled = running;
  document.body.dataset.enrolling = running ? 'yes' : 'no';
  const asking = s.asking;
  // Where to put it: the daemon's `where` names the enrolment reader when
  // the castle has one (serve_command.cpp), else any floor.
  const onReader = /reader/.test(s.where || '');
  $('enrol-asking').innerHTML = asking
    ? sayHtml(onReader ? 'page.host.enrol-asking-reader' : 'page.host.enrol-asking', {}, { character: `<b>${esc(asking.name)}</b>` })
    : '';
  $('enrol-asking').dataset.character = asking ? asking.character : '';
  const sim = !!s.demoPlace;
  $('enrol-demo').classList.toggle('hidden', !sim);
  $('enrol-auto-row').classList.toggle('hidden', !sim);
  const counts = { enrolled: s.enrolled || 0, kept: s.kept || 0, skipped: s.skipped || 0, refused: s.refused || 0 };
  const set = { text: s.edition === '2024' ? '2024' : say('page.host.set-classic') };
  const summary = s.tags !== undefined
    ? say('page.host.enrol-summary-tags', { ...counts, tags: s.tags, set, registry: { text: s.registry } })
    : say('page.host.enrol-summary', counts);
  $('enrol-summary').innerHTML = esc(s.finished ? `${summary} ${say('page.host.enrol-finished')}` : summary)
    + (s.saveProblem ? `<div class="message error">${esc(say('page.host.enrol-not-saved', { why: { text: s.saveProblem } }))}</div>` : '');
  $('enrol-events').innerHTML = [...(s.events || [])].reverse().map((e) => `<li class="enrol-${esc(e.kind)}${kRefusals.has(e.kind) ? ' refused' : ''}" data-kind="${esc(e.kind)}">
      <span aria-hidden="true">${kMarks[e.kind] || '·'}</span> ${esc(sayOr(e.says, e.message))}</li>`).join('');
}

async function demoStep() {
  if (!state || !state.demoPlace) return;
  const asking = state.running && state.asking ? state.asking.character : null;
  // Lift what the demo put that is no longer asked for (taken, skipped, stopped).
  for (const slug of demoOn.filter((s) => s !== asking)) {
    setDemoOn(demoOn.filter((s) => s !== slug));
    await postJson('/api/sim/lift', { character: slug }).catch(() => {});
  }
  if (asking && $('enrol-auto').checked && !demoOn.includes(asking)) await demoPut(asking);
}

async function demoPut(slug) {
  setDemoOn([...demoOn, slug]);
  try {
    await postJson('/api/sim/put', { character: slug, place: state.demoPlace });
  } catch (e) {
    onFailure(e);
  }
}

async function refresh() {
  try {
    render(await getJson('/api/host/enrol', { host: true }));
    await demoStep();
  } catch (e) {
    if (e.status === 404) $('enrol-card').classList.add('hidden'); // a daemon without enrolment
    else onFailure(e);
  }
  clearTimeout(polling);
  polling = state && (state.running || demoOn.length) ? setTimeout(refresh, kPollMs) : null;
}

// The card's inside, drawn into the page's empty #enrol-card: the host's
// tools page and the set-up page show the same card, written once here (in
// English, then in the page's words by data-words, as the pages' own markup).
const kCard = `
  <h2 data-words="page.host.tags">Tags</h2>
  <p class="small" data-words="page.host.tags-help">Each piece carries a tag; the castle learns which is which once per set of pieces, between games. It asks for one character at a time: put that piece down alone, anywhere on the castle. A tag already enrolled to another character, or two new tags at once, are refused. The registry is saved after each tag.</p>
  <div class="row">
    <label><span data-words="page.host.set">Set</span> <select id="enrol-edition"><option value="classic" data-words="page.host.set-classic">classic</option><option value="2024">2024</option></select></label>
    <label class="inline"><input type="checkbox" id="enrol-missing"> <span data-words="page.host.only-missing">only characters without a tag</span></label>
    <button type="button" id="enrol-start" class="primary" data-words="page.host.enrol-start">Start enrolling</button>
  </div>
  <div id="enrol-live" class="hidden">
    <div id="enrol-asking" class="big" aria-live="polite"></div>
    <div class="row">
      <button type="button" id="enrol-demo" class="hidden" data-words="page.host.enrol-demo">Put it down (simulated castle)</button>
      <label class="inline hidden" id="enrol-auto-row"><input type="checkbox" id="enrol-auto"> <span data-words="page.host.enrol-auto">put every piece down for me</span></label>
      <button type="button" id="enrol-skip" data-words="page.host.enrol-skip">⤼ Skip this character</button>
      <button type="button" id="enrol-stop" data-words="page.host.enrol-stop">■ Stop and save</button>
    </div>
  </div>
  <div id="enrol-summary" class="small"></div>
  <ol id="enrol-events" class="enrol-events"></ol>
`;

// `failure(error)`: how the host page shows a refused request.
export function initEnrolment(failure) {
  onFailure = failure;
  const card = $('enrol-card');
  if (!card.childElementCount) {
    card.innerHTML = kCard;
    translate(card);
  }
  $('enrol-start').addEventListener('click', async () => {
    const body = { action: 'start', edition: $('enrol-edition').value };
    if ($('enrol-missing').checked) body.missing = true;
    try {
      render(await call(body));
      refresh();
    } catch {
      /* said by onFailure */
    }
  });
  for (const action of ['skip', 'stop']) {
    $(`enrol-${action}`).addEventListener('click', async () => {
      try {
        render(await call({ action }));
        refresh();
      } catch {
        /* said */
      }
    });
  }
  $('enrol-demo').addEventListener('click', async () => {
    if (state && state.asking && !demoOn.includes(state.asking.character)) await demoPut(state.asking.character);
  });
  $('enrol-auto').addEventListener('change', () => demoStep());
  getJson('/api/host/enrol', { host: true }).then((s) => {
    $('enrol-edition').value = s.edition === '2024' ? '2024' : 'classic';
    render(s);
    if (s.running) refresh();
  }).catch((e) => {
    if (e.status === 404) $('enrol-card').classList.add('hidden');
  });
}
