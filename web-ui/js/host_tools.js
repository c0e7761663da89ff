// The host's tools that are not about starting a game (issue 34): chance by
// hand (a deal from real cards, the Emissary's pile) and tag enrolment
// (js/enrol.js). Opened as the host's page is: with the host's secret kept
// on this device (js/api.js; host-tools.html#SECRET adopts it too), any
// other device sees only "this page needs the host's link", and every
// request carries the secret, which the daemon checks (API.md).
import { esc, getJson, hostToken, postJson, setHostToken } from './api.js';
import { initEnrolment } from './enrol.js';
import { initSelfTest } from './self_test.js';
import { slugsFromNames } from './chance_words.js';
import { say, sayHtml, sayOr, startWords } from './words.js';

const $ = (id) => document.getElementById(id);
const kChanceCodes = { deal: 'page.host.chance-deal-accepted', reshuffle: 'page.host.chance-reshuffle-accepted' };
const refusalOf = (e) => sayOr(e.says, e.message);
let edition = null; // the game's edition, for the names typed in the box

function tell(text, ok) {
  const node = $('message');
  node.textContent = text;
  node.className = `message ${ok ? 'ok' : 'error'}`;
  node.classList.toggle('hidden', !text);
  if (text) node.scrollIntoView({ block: 'nearest' });
}

function lock(message) {
  setHostToken('');
  $('controls').classList.add('hidden');
  $('unlock').classList.remove('hidden');
  const m = $('unlock-message');
  m.textContent = message || '';
  m.className = 'message error';
  m.classList.toggle('hidden', !message);
}

// Whether the secret kept here opens the host's routes: asked of the
// daemon (a 401 is no); the tools are drawn only then.
async function secretAccepted() {
  const asked = hostToken();
  try {
    const status = await getJson('/api/status');
    edition = status.edition || null;
    await getJson('/api/host/players', { host: true });
    return true;
  } catch (e) {
    if (e.status !== 401) return true; // no game yet (503): the secret was accepted
    if (hostToken() === asked) lock(asked ? say('page.host.not-accepted') : '');
    return false;
  }
}

function unlocked() {
  $('unlock').classList.add('hidden');
  $('controls').classList.remove('hidden');
  if (unlocked.once) return;
  unlocked.once = true;
  initSelfTest((e) => {
    if (e.status === 401) lock(refusalOf(e));
    else tell(refusalOf(e), false);
  });
  initEnrolment((e) => {
    if (e.status === 401) lock(refusalOf(e));
    else tell(say('page.host.tags-failed', { why: { text: refusalOf(e) } }), false);
  });
}

function fillParagraphs() {
  const code = (text) => `<code data-words-skip>${esc(text)}</code>`;
  $('needs-link').innerHTML = sayHtml('page.host.needs-link', {}, { serve: code('vivaref serve'), hostLink: code('vivaref host-link') });
  $('or-type').innerHTML = sayHtml('page.host.or-type', {}, { key: code('host_token') });
  $('chance-help').innerHTML = sayHtml('page.host.chance-help', {}, {
    format: code('GAME-RECORD'),
    deal: code('{"round": 1, "favourites": [["Odessa la Contessa", ...6 names], ...]}'),
    pile: code('{"pile": ["Yes", "No", ...]}'),
  });
}

async function start() {
  await startWords();
  fillParagraphs();
  $('unlock').addEventListener('submit', async (event) => {
    event.preventDefault();
    setHostToken($('token').value.trim());
    if (await secretAccepted()) unlocked();
  });
  $('send-chance').addEventListener('click', async () => {
    let body;
    try {
      // The game's edition now (a game may have started since the page opened).
      edition = (await getJson('/api/status')).edition || edition;
    } catch {
      /* the edition the page last knew */
    }
    try {
      body = slugsFromNames(JSON.parse($('chance').value || '{}'), edition);
    } catch (e) {
      tell(say('page.host.not-json', { why: { text: e.message } }), false);
      return;
    }
    try {
      await postJson(`/api/host/${$('chance-kind').value}`, body, { host: true });
      tell(say(kChanceCodes[$('chance-kind').value]), true);
    } catch (e) {
      if (e.status === 401) lock(refusalOf(e));
      else tell(refusalOf(e), false);
    }
  });
  let info = { hostTokenRequired: false };
  try {
    info = await getJson('/api/info');
  } catch {
    /* the banner tells */
  }
  if (info.simulated) $('sim-link').classList.remove('hidden');
  if (info.hostTokenRequired && !hostToken()) lock('');
  else if (await secretAccepted()) unlocked();
}

start();
