// The rules page (rules.html): each rule the referee applies, one section
// an id (the `rule` of a refusal, the status's `teach`). Its words are the
// catalogs' (data-words); once they are in the page's language the section
// a link points at (rules.html#election) is scrolled to again, since the
// translated text moved it.
import { startWords } from './words.js';

function showTarget() {
  const id = decodeURIComponent(window.location.hash.slice(1));
  const section = id && document.getElementById(id);
  if (!section) return;
  section.scrollIntoView({ block: 'start' });
  document.body.dataset.rule = id;
}

async function start() {
  await startWords();
  showTarget();
  window.addEventListener('hashchange', showTarget);
  document.body.dataset.ready = '1';
}

start();
