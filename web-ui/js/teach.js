// A table that teaches, on the status page: the first time in a game that a
// rule comes into play, the public status's `teach` ({rule, says}) explains
// it in two lines — the rule's name, then what it does — with a link to the
// rule on rules.html. Drawn after each render of the status page (it
// listens for status.js's `vivaref:rendered`), in a card of its own above
// the castle; hidden when the status has no `teach` (teaching off, or the
// moment is over).
import { announce } from './announce.js';
import { esc } from './api.js';
import { sayDaemon } from './names.js';
import { say } from './words.js';

// Each rule id's name (rules.html's headings), written out so that every
// code appears in the sources.
const kRuleTitles = {
  placement: 'teach.rule.placement.title',
  move: 'teach.rule.move.title',
  'floor-full': 'teach.rule.floor-full.title',
  wc: 'teach.rule.wc.title',
  dungeon: 'teach.rule.dungeon.title',
  election: 'teach.rule.election.title',
  stomachache: 'teach.rule.stomachache.title',
  jester: 'teach.rule.jester.title',
  'rule-33': 'teach.rule.rule-33.title',
  ambition: 'teach.rule.ambition.title',
  turns: 'teach.rule.turns.title',
  'one-move': 'teach.rule.one-move.title',
  'in-hand': 'teach.rule.in-hand.title',
  pieces: 'teach.rule.pieces.title',
};

// The rule's name in the page's language ("" for an id this page does not know).
export function ruleTitle(rule) {
  const code = kRuleTitles[rule];
  return code ? say(code) : '';
}

// The link to a rule's explanation: rules.html#ID.
export function ruleHref(rule) {
  return `/rules.html#${encodeURIComponent(rule)}`;
}

function card() {
  let node = document.getElementById('teach');
  if (node) return node;
  node = document.createElement('div');
  node.id = 'teach';
  node.className = 'card notice teach hidden';
  const now = document.querySelector('.status-now');
  if (now) now.append(node);
  else document.body.append(node);
  return node;
}

export function renderTeach(status) {
  const teach = status && status.teach;
  const node = card();
  if (!teach || !teach.rule) {
    node.classList.add('hidden');
    node.innerHTML = '';
    delete node.dataset.rule;
    return;
  }
  const title = ruleTitle(teach.rule) || say('teach.card-label');
  const html = `<div class="teach-title"><b>${esc(title)}</b> · <span class="small">${esc(say('teach.card-label'))}</span></div>`
    + `<div class="teach-says">${esc(sayDaemon(teach.says, ''))} <a href="${esc(ruleHref(teach.rule))}">${esc(say('teach.more'))}</a></div>`;
  if (node.innerHTML !== html) node.innerHTML = html;
  // Heard once, calmly, when a new rule is explained (the page's one announcement area).
  if (node.dataset.rule !== teach.rule) announce(`${title}. ${sayDaemon(teach.says, '')}`);
  node.dataset.rule = teach.rule;
  node.classList.remove('hidden');
}

window.addEventListener('vivaref:rendered', (event) => renderTeach(event.detail && event.detail.status));
