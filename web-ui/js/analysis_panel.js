// The "Analysis" panel of the review page (games.html#ID): the daemon's
// analysis of a finished game (GET /api/games/ID/analysis, web-ui/API.md)
// as a chart of each player's chance to win after every decision, the three
// decisions that swung the game most, and the choices the search player
// would have made otherwise. The chart is our own small SVG: one line per
// player, each with its colour, its dash pattern and its name at the line's
// end, so it reads without colour too. Decision N of the analysis (the
// record's line N) is shown as the step the timeline shows for it, N + 1
// (the game's setup is step 1): one number for the same moment everywhere.
import { ApiError, esc, getJson } from './api.js';
import { pageLanguage, say, sayOr } from './words.js';
import { playerArg, sayHtml, textArg } from './words_args.js';

// Okabe and Ito's palette (told apart by colour-blind eyes), then more.
const kColours = ['#0072b2', '#d55e00', '#009e73', '#cc79a7', '#e69f00', '#56b4e9', '#000000', '#8a6d00', '#6a3d9a', '#b15928'];
const kDashes = ['', '8 4', '2 4', '10 3 2 3', '4 4', '12 4 2 4 2 4', '1 3', '6 2', '14 4', '3 3 8 3'];
const kPollMs = 2000;

export function playerColour(p) { return kColours[p % kColours.length]; }

// A chance as a percentage in the page's language ("31%", "31 %"): Intl's.
function percent(x) {
  return new Intl.NumberFormat(pageLanguage(), { style: 'percent', maximumFractionDigits: 0 }).format(x);
}

// The step of the review's timeline that shows decision `decision` (0: the start).
const stepOf = (decision) => decision + 1;

// The chance-to-win lines: x the steps (the first: the start), y 0..100 %;
// the three swings as numbered dashed lines. Drawn `width` CSS pixels wide
// (its card's width), so that its text keeps its size from a phone to a TV.
export function chartSvg(analysis, width = 640) {
  const names = analysis.players;
  const series = [analysis.before, ...analysis.decisions.map((d) => d.after)];
  const w = Math.max(280, Math.round(width));
  const h = Math.round(Math.min(360, Math.max(200, w * 0.42)));
  const left = 40;
  const right = 12;
  const top = 12;
  const bottom = 30;
  const n = Math.max(1, series.length - 1);
  const x = (i) => left + ((w - left - right) * i) / n;
  const y = (c) => top + (h - top - bottom) * (1 - c);
  const grid = [0, 0.25, 0.5, 0.75, 1].map((c) => `<line class="grid" x1="${left}" x2="${w - right}" y1="${y(c).toFixed(1)}" y2="${y(c).toFixed(1)}"/>`
    + `<text class="axis" x="${left - 4}" y="${(y(c) + 4).toFixed(1)}" text-anchor="end">${esc(percent(c))}</text>`).join('');
  const marks = (analysis.swings || []).map((s, k) => `<g class="swing-mark"><line x1="${x(s).toFixed(1)}" x2="${x(s).toFixed(1)}" y1="${top}" y2="${h - bottom}"/>`
    + `<text x="${x(s).toFixed(1)}" y="${h - bottom + 14}" text-anchor="middle">${k + 1}</text></g>`).join('');
  const lines = names.map((_, p) => {
    const points = series.map((e, i) => `${x(i).toFixed(1)},${y(e.win_chance[p]).toFixed(1)}`).join(' ');
    const dash = kDashes[p % kDashes.length];
    return `<polyline class="chance-line" data-player="${p}" fill="none" stroke="${playerColour(p)}" stroke-width="2.5"${dash ? ` stroke-dasharray="${dash}"` : ''} points="${points}"><title>${esc(plainPlayer(analysis, p))}</title></polyline>`;
  }).join('');
  const axis = `<text class="axis" x="${left}" y="${h - 4}">${esc(say('page.analysis.axis-start'))}</text>`
    + `<text class="axis" x="${w - right}" y="${h - 4}" text-anchor="end">${esc(say('page.analysis.axis-step', { n: stepOf(series.length - 1) }))}</text>`;
  return `<svg class="chance-chart" viewBox="0 0 ${w} ${h}" role="img" aria-label="${esc(say('page.analysis.chart-label'))}">${grid}${marks}${lines}${axis}</svg>`;
}

function legendHtml(analysis) {
  return `<ul class="chance-legend">${analysis.players.map((_, p) => {
    const dash = kDashes[p % kDashes.length];
    return `<li data-player="${p}"><svg width="36" height="12" aria-hidden="true"><line x1="1" x2="35" y1="6" y2="6" stroke="${playerColour(p)}" stroke-width="3"${dash ? ` stroke-dasharray="${dash}"` : ''}/></svg><bdi>${esc(plainPlayer(analysis, p))}</bdi></li>`;
  }).join('')}</ul>`;
}

// A link to the step that shows decision `n`, named as the timeline names it.
const decisionLink = (n) => `<a href="#" data-goto="${n}">${esc(say('page.review.step-link', { n: stepOf(n) }))}</a>`;

// "Step 58: Anna votes No. Bruno's chance to win went from 31% to 78%."
// A decision's words (`says`; the daemon's English `text` from an analysis
// kept before it had them), and the search player's choice likewise.
const decisionWords = (d) => sayOr(d.says, d.text);
const preferredWords = (d) => sayOr(d.review.preferred_says, d.review.preferred);
// A player's name, or "Player 2" in the reader's words.
const playerWords = (analysis, p) => sayOr((analysis.players_says || [])[p], analysis.players[p]);
// The same without the isolates words.js puts around a name, for an
// element of its own (the chart's <title>, the legend's <bdi>).
const plainPlayer = (analysis, p) => playerWords(analysis, p).replace(/[\u2068\u2069]/g, '');

function swingsHtml(analysis) {
  const list = (analysis.swings || []).map((s, k) => {
    const d = analysis.decisions[s - 1];
    const before = s > 1 ? analysis.decisions[s - 2].after : analysis.before;
    const p = d.swing_player;
    const named = (analysis.players_says || [])[p] ? textArg(playerWords(analysis, p)) : playerArg(analysis.players[p]);
    const args = { what: textArg(decisionWords(d)), who: named,
      from: textArg(percent(before.win_chance[p])), to: textArg(percent(d.after.win_chance[p])) };
    return `<li data-swing="${k + 1}">${sayHtml('page.analysis.swing', args, { decision: decisionLink(s) })}</li>`;
  });
  return list.length ? `<ol class="swings">${list.join('')}</ol>` : `<p class="muted">${esc(say('page.analysis.no-swing'))}</p>`;
}

// Each decision of a person (not a bot's seat) where the search player
// would have chosen otherwise, worth at least the analysis's `worth_telling`.
function preferencesHtml(analysis) {
  const worth = (analysis.settings && analysis.settings.worth_telling) || 0.03;
  const told = analysis.decisions.filter((d) => d.review && !d.review.bot && d.review.gain >= worth);
  // A difference of two chances: percentage points.
  const worthPoints = textArg(say('page.analysis.points', { n: Math.round(100 * worth) }));
  if (!told.length) return `<p class="muted">${esc(say('page.analysis.agreed', { worth: worthPoints }))}</p>`;
  const items = told.map((d) => {
    // The gain is a difference of two chances: percentage points, never the game's points.
    const gain = Math.round(100 * d.review.gain);
    const args = { what: textArg(decisionWords(d)), played: textArg(percent(d.review.played_chance)),
      chance: textArg(percent(d.review.preferred_chance)) };
    const html = { decision: decisionLink(d.decision), preferred: `<b>${esc(preferredWords(d))}</b>`,
      gain: `<b>${esc(say('page.analysis.gain-points', { n: gain }))}</b>` };
    return `<li data-decision="${d.decision}">${sayHtml('page.analysis.preferred', args, html)}</li>`;
  });
  return `<p class="small muted">${esc(say('page.analysis.preferred-intro', { n: told.length, worth: worthPoints }))}</p>`
    + `<ul class="plain preferences">${items.join('')}</ul>`;
}

// Fills `card` with game `id`'s analysis; while it is waiting or being
// made, says so and asks again every two seconds (until `stillShowing()`
// says the page moved on). `goto(decision)` shows that decision's step.
export async function showAnalysis(card, id, { stillShowing, goto }) {
  let answer;
  try {
    answer = await getJson(`/api/games/${encodeURIComponent(id)}/analysis`);
  } catch (e) {
    // A game in progress (409) is never analysed: the panel stays away.
    card.classList.toggle('hidden', e instanceof ApiError && e.status === 409);
    card.innerHTML = `<h2>${esc(say('page.analysis.heading'))}</h2><p class="muted">${esc(sayOr(e.says, e.message))}</p>`;
    card.dataset.status = 'error';
    return;
  }
  card.classList.remove('hidden');
  card.dataset.status = answer.status;
  if (answer.status !== 'analysed') {
    // failed and damaged: the daemon's sentence (answer.message).
    const words = {
      waiting: () => say('page.analysis.waiting'),
      analysing: () => say('page.analysis.analysing', { done: textArg(percent(answer.progress || 0)) }),
    }[answer.status]?.() || answer.message || answer.status;
    card.innerHTML = `<h2>${esc(say('page.analysis.heading'))}</h2><p class="analysis-status">${esc(words)}</p>`;
    if ((answer.status === 'waiting' || answer.status === 'analysing') && !answer.message)
      setTimeout(() => { if (stillShowing()) showAnalysis(card, id, { stillShowing, goto }); }, kPollMs);
    return;
  }
  const s = answer.settings || {};
  card.innerHTML = `<h2>${esc(say('page.analysis.heading'))}</h2>
    <p class="small muted">${esc(say('page.analysis.explained', { rollouts: Number(s.rollouts) || 0 }))}</p>
    <div class="chart-wrap"></div>${legendHtml(answer)}
    <h3>${esc(say('page.analysis.swings'))}</h3>${swingsHtml(answer)}
    <h3>${esc(say('page.analysis.otherwise'))}</h3>${preferencesHtml(answer)}`;
  const wrap = card.querySelector('.chart-wrap');
  let drawnFor = 0;
  const draw = () => {
    const width = wrap.clientWidth;
    if (!width || width === drawnFor) return;
    drawnFor = width;
    wrap.innerHTML = chartSvg(answer, width);
  };
  draw();
  new ResizeObserver(draw).observe(wrap);
  card.onclick = (event) => {
    const link = event.target.closest('[data-goto]');
    if (!link) return;
    event.preventDefault();
    goto(Number(link.dataset.goto));
  };
}
