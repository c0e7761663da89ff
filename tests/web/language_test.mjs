// Every page in the table's languages (issue 33): the real `vivaref serve
// --hardware=sim` with a finished 2024 game in its log (a random record
// played in by `vivaref simulate`) and a live 2024 game with Ambition,
// stopped in placement with a refused move on the castle. Each page (the
// castle's status, the host's, a player's phone, the games list, the
// finished game's review with its analysis, the league, the simulated
// board) is opened in French at a phone's size, German at a laptop's and
// Italian at a TV's. A page fails when any text a person reads (text
// nodes, a field's placeholder, a title or label) is English: an English
// catalog value that the language writes otherwise, a phrase of one, or
// an English function word ("the", "your", ...). The picker is used once
// as a person would, and the choice is kept on reload.
//   node tests/web/language_test.mjs VIVAREF [ARTIFACT_DIR]
// Exit 0 pass, 1 fail, 77 skipped (no chromium, node_modules or serve).
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { api, serveMissing, startServe } from './daemon.mjs';
import { gameDriver } from './game_driver.mjs';
import { browserOrSkip, checker, kWait, newPage, shooter, skip } from './harness.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
const [vivaref, artifacts = 'artifacts'] = process.argv.slice(2);
if (serveMissing(vivaref)) skip(serveMissing(vivaref));
const launchBrowser = await browserOrSkip();
const { check, fail, finish } = checker('web-language');
const shot = shooter(artifacts, 'language-');
const errors = [];

const catalogs = {};
for (const language of ['en', 'fr', 'de', 'it']) {
  catalogs[language] = JSON.parse(readFileSync(join(here, '..', '..', 'daemon', 'words', 'catalogs', `${language}.json`), 'utf8'));
}

const kPasses = [
  { language: 'fr', size: 'phone', options: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true } },
  { language: 'de', size: 'laptop', options: { viewport: { width: 1280, height: 800 } } },
  { language: 'it', size: 'tv', options: { viewport: { width: 1920, height: 1080 } } },
];

// English function words: none is a word of French, German or Italian, so
// one in a page's text is an English sentence the catalogs do not cover.
const kEnglishWords = ['the', 'and', 'your', 'you', 'with', 'is', 'are', 'of', 'this', 'not', 'yet', 'for', 'has',
  'have', 'from', 'will', 'when', 'what', 'which', 'who', 'its', 'must', 'cannot', 'was', 'were', 'been', 'here',
  'there', 'their', 'should', 'would', 'been', 'into', 'waiting', 'game', 'games', 'player', 'players', 'round',
  'seat', 'seats', 'floor', 'throne', 'vote', 'votes', 'score', 'scores', 'host', 'board', 'castle', 'card', 'cards'];
const kEnglishWord = new RegExp(`(^|[^\\p{L}])(${kEnglishWords.join('|')})(?=$|[^\\p{L}])`, 'iu');
// Words of that list that are also the language's own: French writes "vote"
// ("Mon vote", "cartes de vote") as English does.
const kAlsoTheirs = { fr: ['vote', 'votes'] };

// The first English word in `text` that is not also a word of `language`.
function englishWord(text, language) {
  const theirs = kAlsoTheirs[language] || [];
  for (const m of text.matchAll(new RegExp(kEnglishWord.source, 'giu'))) {
    if (!theirs.includes(m[2].toLowerCase())) return m[2];
  }
  return '';
}

// The English words that `language` writes too, as a word of its own
// catalog ("Scores" and "vote" in French, "Host" in Italian): one of them in
// a page's text is that language's word, not an English sentence.
const sharedWordsOf = new Map();
function sharedWords(language) {
  if (sharedWordsOf.has(language)) return sharedWordsOf.get(language);
  const words = new Set();
  sharedWordsOf.set(language, words);
  for (const pattern of Object.values(catalogs[language])) {
    for (const run of literalRuns(pattern)) {
      for (const word of run.toLowerCase().split(/[^\p{L}]+/u)) if (kEnglishWords.includes(word)) words.add(word);
    }
  }
  return words;
}

function englishWordIn(text, language) {
  const shared = sharedWords(language);
  const all = new RegExp(kEnglishWord.source, 'giu');
  for (const m of text.matchAll(all)) if (!shared.has(m[2].toLowerCase())) return m[2];
  return '';
}

// The literal runs of a pattern: its text outside arguments and inside
// plural or select branches, split at the arguments.
function literalRuns(pattern) {
  const runs = [];
  let at = 0;
  const text = (inBranch) => {
    let run = '';
    while (at < pattern.length) {
      const c = pattern[at];
      if (c === '}' && inBranch) break;
      if (c === '{') {
        runs.push(run);
        run = '';
        argument();
      } else {
        run += c === '#' && inBranch ? ' ' : c;
        at += 1;
      }
    }
    runs.push(run);
  };
  const argument = () => {
    at += 1;
    while (at < pattern.length && pattern[at] !== ',' && pattern[at] !== '}') at += 1;
    if (pattern[at] === '}') {
      at += 1;
      return;
    }
    at += 1;
    while (at < pattern.length && pattern[at] !== ',') at += 1;  // the type
    at += 1;
    for (;;) {
      while (/\s/.test(pattern[at] || '')) at += 1;
      if (at >= pattern.length || pattern[at] === '}') break;
      while (at < pattern.length && pattern[at] !== '{') at += 1;  // a branch's key
      at += 1;
      text(true);
      at += 1;
    }
    at += 1;
  };
  text(false);
  return runs.map((r) => r.trim()).filter(Boolean);
}

// What an English catalog says that `language` says otherwise: whole values
// (no argument) and phrases (runs of two words and ten letters or more).
function englishOnly(language) {
  const theirs = catalogs[language];
  const theirText = Object.values(theirs).join('\n');
  const whole = new Set();
  const phrases = new Set();
  const same = new Set();  // a whole value the language writes as English does ("Host" in Italian)
  for (const [code, pattern] of Object.entries(catalogs.en)) {
    if (theirs[code] === pattern) {
      if (!pattern.includes('{')) same.add(pattern);
      continue;
    }
    if (!pattern.includes('{') && !theirText.includes(pattern)) whole.add(pattern);
    for (const run of literalRuns(pattern)) {
      if (run.length >= 10 && /\s/.test(run) && !theirText.includes(run)) phrases.add(run);
    }
  }
  return { whole, phrases: [...phrases], same };
}

// What a person reads on the page: its text nodes, and the placeholders,
// titles and labels of its elements; not the picker's language names.
async function readable(page) {
  return page.evaluate(() => {
    const out = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!parent || parent.closest('script, style, .language-picker, [data-words-skip]')) continue;
      const text = node.textContent.replace(/[\u2066-\u2069]/g, '').trim();
      if (text) out.push({ text, where: parent.id || parent.className || parent.tagName });
    }
    for (const el of document.querySelectorAll('[placeholder], [title], [aria-label]')) {
      if (el.closest('.language-picker')) continue;
      for (const attribute of ['placeholder', 'title', 'aria-label']) {
        const value = el.getAttribute(attribute);
        if (value && value.trim()) out.push({ text: value.trim(), where: `${el.id || el.tagName}@${attribute}` });
      }
    }
    out.push({ text: document.title, where: 'title' });
    return out;
  });
}

// The English a page shows in `language`, as "text (where)" lines; the
// names of the players and characters are nobody's language.
function englishOn(texts, language, names) {
  const { whole, phrases, same } = englishOnly(language);
  const found = [];
  for (const { text, where } of texts) {
    if (same.has(text)) continue;
    let plain = text;
    for (const name of names) plain = plain.split(name).join(' ');
    const why = whole.has(text) ? 'an English catalog value'
      : phrases.find((p) => plain.includes(p)) ? `the English phrase "${phrases.find((p) => plain.includes(p))}"`
        : englishWordIn(plain, language) ? `the English word "${englishWordIn(plain, language)}"` : '';
    if (why) found.push(`"${text.slice(0, 90)}" (${where}): ${why}`);
  }
  return found;
}

// A finished 2024 game in the log before serve starts: game 1 for the
// games list and the review.
function importFinishedGame(db) {
  const record = spawnSync(vivaref, ['random-record', '--edition', '2024', '--seats', '3', '--seed', '11'], { encoding: 'utf8', maxBuffer: 64 << 20 });
  if (record.status !== 0) throw new Error(`random-record: ${record.stderr}`);
  const trace = spawnSync(vivaref, ['trace', 'from-record', '-'], { input: record.stdout, encoding: 'utf8', maxBuffer: 64 << 20 });
  if (trace.status !== 0) throw new Error(`trace from-record: ${trace.stderr}`);
  const sim = spawnSync(vivaref, ['simulate', '--db', db, '--epoch', '1750000000000', '-'], { input: trace.stdout, encoding: 'utf8', maxBuffer: 64 << 20 });
  if (sim.status !== 0) throw new Error(`simulate: ${sim.stderr}`);
}

const { browser, close } = await launchBrowser();
let server = null;
try {
  server = await startServe(vivaref, { edition: '2024', prepare: importFinishedGame });
  const { url } = server;
  const token = server.hostToken;
  const { status, waitStatus: until } = gameDriver(server);
  const games = (await api(url, '/api/games')).json;
  const finished = (games.games || games).find((g) => g.finished || g.result || g.state === 'finished') || (games.games || games)[0];
  check(Boolean(finished), `the log holds the imported game: ${JSON.stringify(games).slice(0, 200)}`);

  const names = ['Anna', 'Bruno', 'Chiara'];
  const started = await api(url, '/api/host/new-game', { method: 'POST', token,
    body: { setup: { edition: '2024', seats: 3, first: 0, rounds: 1, options: { ambition: true } }, players: names } });
  if (started.status !== 200) throw new Error(`new-game: ${started.text}`);
  const players = (await api(url, '/api/host/players', { token })).json.players;
  await until((s) => s.view && s.view.phase === 'ambition', 'the Ambition phase');
  // The first phone keeps its card later, on its page; the others now.
  for (const p of players.slice(1)) {
    const own = (await api(url, `/api/player/${p.token}`)).json;
    await api(url, `/api/player/${p.token}/keep`, { method: 'POST', body: { ambition: own.private.ambition_choices[0] } });
  }
  // The characters' names (the status's roster), but the Jester's: the pages say its title in each language.
  const roster = (await status()).roster || [];
  const characterNames = roster.filter((c) => c.kind !== 'jester').map((c) => c.name).filter(Boolean);
  // The finished game's players are named by `vivaref simulate` ("Player 1"): names, not words.
  const finishedNames = ((await api(url, `/api/games/${finished.id || finished.game || 1}`)).json.players || []).map((p) => p.name).filter(Boolean);

  const analysed = async (id) => {
    for (let i = 0; i < 240; i += 1) {
      const a = await api(url, `/api/games/${id}/analysis`);
      if (a.json && a.json.status === 'analysed') return;
      if (a.json && (a.json.status === 'failed' || a.json.status === 'damaged')) throw new Error(`the analysis: ${a.text}`);
      await new Promise((r) => { setTimeout(r, 500); });
    }
    throw new Error('the finished game was not analysed within 120 s');
  };
  const visit = async (page, path, ready, label, pass) => {
    await page.goto(`${url}${path}`);
    await page.waitForFunction(() => document.documentElement.lang && document.documentElement.lang !== '', null, { timeout: kWait });
    if (ready) await page.locator(ready).first().waitFor({ timeout: kWait });
    await page.waitForTimeout(250);
    const lang = await page.evaluate(() => document.documentElement.lang);
    check(lang === pass.language, `${label} (${pass.language}, ${pass.size}): the page is in ${pass.language} (lang=${lang})`);
    const english = englishOn(await readable(page), pass.language, [...names, ...finishedNames, ...characterNames]);
    check(!english.length, `${label} (${pass.language}, ${pass.size}): no English text${english.length ? `:\n    ${english.join('\n    ')}` : ''}`);
    await shot(page, `${pass.language}-${label}`, { fullPage: false });
  };

  for (const [n, pass] of kPasses.entries()) {
    const page = await newPage(browser, pass.options, errors);
    await page.context().addInitScript((language) => localStorage.setItem('vivaref.language', language), pass.language);
    if (n === 1) {
      // A refused move on the castle: a piece put on the throne in placement.
      // First the board as guided (the Jester) and the first phone's card
      // kept (its page was seen choosing), so that placement starts.
      const dealt = await status();
      for (const m of (dealt.guidance && dealt.guidance.moves) || []) {
        await api(url, '/api/sim/put', { method: 'POST', token, body: { character: m.character, place: m.to } });
      }
      const first = (await api(url, `/api/player/${players[0].token}`)).json;
      await api(url, `/api/player/${players[0].token}/keep`, { method: 'POST', body: { ambition: first.private.ambition_choices[0] } });
      await until((x) => x.view && x.view.phase === 'placement' && !x.guidance, 'placement');
      const s = await status();
      const piece = (s.roster || []).map((c) => c.id).find((id) => !(s.board && s.board.expected && s.board.expected[id]));
      await api(url, '/api/sim/put', { method: 'POST', token, body: { character: piece, place: '6' } });
      await until((x) => x.refusal, 'a refusal');
    }
    await visit(page, '/', '#castle svg, #castle *', 'status', pass);
    await visit(page, `/host.html#${token}`, '#links figure', 'host', pass);
    await visit(page, '/host-tools.html', '#enrol-card h2', 'host-tools', pass);
    await visit(page, '/castle.html', 'article.reader', 'castle', pass);
    await visit(page, '/setup.html', '#start-in-force', 'setup', pass);
    await visit(page, players[0].path, 'main', 'player', pass);
    await visit(page, '/games.html', 'main', 'games', pass);
    // The review shows the analysis, which serve's background analysis makes in slices while the table is
    // quiet (some 20 s under ASan): waited for here, not raced against the page's timeout.
    if (n === 0) await analysed(finished.id || finished.game || 1);
    await visit(page, `/games.html#${finished.id || finished.game || 1}`, 'ul.chance-legend', 'review', pass);
    await visit(page, '/league.html', 'main', 'league', pass);
    await visit(page, `/sim.html#${token}`, '#stations button', 'sim', pass);  // the host's link, as serve prints it
    await visit(page, '/rules.html#election', 'body[data-ready]', 'rules', pass);
    await page.context().close();
  }

  // The picker, as a person uses it: English by default on an English
  // browser's phone page, Italian once chosen, still Italian on reload.
  const phone = await newPage(browser, { ...kPasses[0].options, locale: 'en-US' }, errors);
  await phone.goto(`${url}${players[1].path}`);
  await phone.locator('select.language-picker').waitFor({ timeout: kWait });
  check((await phone.evaluate(() => document.documentElement.lang)) === 'en', 'an English browser\'s phone shows English first');
  await phone.selectOption('select.language-picker', 'it');
  await phone.waitForFunction(() => document.documentElement.lang === 'it', null, { timeout: kWait });
  await phone.reload();
  await phone.locator('select.language-picker').waitFor({ timeout: kWait });
  const kept = await phone.evaluate(() => document.documentElement.lang);
  check(kept === 'it', `the picker's Italian is kept on reload (lang=${kept})`);
  check(!errors.length, `no script error: ${errors.join(' | ')}`);
} catch (e) {
  fail(e);
} finally {
  await close();
  if (server) await server.stop();
}
finish();
