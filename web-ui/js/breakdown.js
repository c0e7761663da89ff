// Why each round scored what it did: the status's `score_breakdown` (one
// entry per round already scored; a round in progress is never in it) drawn
// per coronation as one block per player (their name and total, then a line
// per favourite with where it stood and its points, the kept Ambition card
// and the other lines), stacked so that it never scrolls sideways. Used by
// the status page, the player's page (their own block) and the review page. The words are the page's (names.js, the
// catalogs' page.breakdown.*), drawn from each line's slugs; the daemon's
// English (`name`, `where`) only where a line has no slug.
import { esc } from './api.js';
import { characterArg, characterName, nameHtml, placeName, playerName } from './names.js';
import { sayHtml } from './words.js';
import { say } from './words.js';

// The styles of the breakdown and the winner moment (css/ending.css).
(function loadStyle() {
  if (document.getElementById('ending-css')) return;
  const link = document.createElement('link');
  link.id = 'ending-css';
  link.rel = 'stylesheet';
  link.href = '/css/ending.css';
  document.head.appendChild(link);
})();

function signed(points) {
  return points > 0 ? `+${points}` : String(points);
}

function who(line) {
  return line.character ? characterName(line.character) : line.name || '';
}

function where(line) {
  return line.place !== undefined && line.place !== null ? placeName(line.place) : line.where || '';
}

// One line of a sheet: what scored, where, and its points at the right.
function lineItem(line) {
  const pts = `<span class="bd-points">${esc(signed(line.points))}</span>`;
  const item = (cls, html) => `<li class="bd-line${cls}" data-points="${line.points}"><span class="bd-what">${html}</span> ${pts}</li>`;
  if (line.kind === 'favourite') return item('', `♥ ${esc(who(line))} <span class="muted">${esc(where(line))}</span>`);
  if (line.kind === 'banished') return item(' bd-off', `${esc(who(line))} <span class="muted">${esc(say('page.breakdown.banished'))}</span>`);
  if (line.kind === 'ambition') {
    const card = line.ambition_card ? { ambition: line.ambition_card } : { text: line.name || '' };
    const met = `<span class="muted">${esc(line.met ? say('page.breakdown.met') : say('page.breakdown.not-met'))}</span>`;
    return item(' bd-ambition', `${sayHtml('page.breakdown.ambition', { card })} ${met}`);
  }
  if (line.kind === 'rule33') return item('', esc(say('page.breakdown.rule33')));
  if (line.kind === 'team_pawn') return item('', esc(say('page.breakdown.team-pawn')));
  return item('', esc(line.name));
}

// A player's sheet as one block: the name and the total on top, a line a
// reason under it. Stacked (no table as wide as the favourites), so it fits
// a phone, a laptop's column and a TV's without sideways scrolling.
function sheetBlock(labelHtml, sheet, extra = '') {
  const lines = (sheet.lines || []).map(lineItem).join('');
  return `<div class="bd-sheet"${extra}><div class="bd-head"><span class="bd-who">${labelHtml}</span> `
    + `<span class="bd-total" data-total="${sheet.total}">${esc(say('page.breakdown.total', { points: Number(sheet.total) }))}</span></div>`
    + `<ul class="bd-lines">${lines}</ul></div>`;
}

// A player's name, with "(bot)" for a seat the referee plays.
function sheetLabel(sheet, players) {
  const label = sheet.name ? nameHtml(sheet.name) : esc(playerName(sheet.player, players));
  const p = players.find((q) => q.player === sheet.player);
  return p && p.bot ? sayHtml('page.words.bot-seat', { seat: { html: label } }) : label;
}

// `only`: a player index to show that player's rows alone (their own page).
export function breakdownHtml(rounds, { only = null, players = [] } = {}) {
  if (!rounds || !rounds.length) return '';
  const parts = rounds.map((round) => {
    const tables = (round.coronations || []).map((k, i) => {
      const sheets = (k.players || []).filter((s) => only === null || s.player === only);
      const crown = players.find((p) => p.seat === k.crown);
      const king = k.king ? characterArg(k.king) : { text: k.king_name || '' };
      const by = crown && crown.name ? { html: nameHtml(crown.name) } : { text: say('page.breakdown.seat', { seat: { seat: k.crown } }) };
      const several = round.coronations.length > 1;
      let title;
      if (crown) title = sayHtml(several ? 'page.breakdown.coronation-n-by' : 'page.breakdown.coronation-by', { n: i + 1, king, by });
      else title = sayHtml(several ? 'page.breakdown.coronation-n' : 'page.breakdown.coronation', { n: i + 1, king });
      const jester = k.jester_king ? `<p class="small bd-jester">${esc(say('page.breakdown.jester-king'))}</p>` : '';
      const blocks = sheets.map((s) => sheetBlock(sheetLabel(s, players), s, ` data-player="${s.player}"`));
      if (k.emissary && only === null) blocks.push(sheetBlock(esc(say('page.end.the-emissary')), k.emissary, ' data-emissary="1"'));
      return `<div class="bd-coronation"><h4>${title}</h4>${jester}<div class="bd-sheets">${blocks.join('')}</div></div>`;
    });
    const given = (round.compensation || []).map((c, p) => ({ c, p })).filter(({ c, p }) => c && (only === null || p === only));
    const comp = given.length
      ? `<p class="small">${esc(say('page.breakdown.compensation', {
        given: { list: given.map(({ c, p }) => ({ text: say('page.breakdown.name-points', { who: { text: playerName(p, players) }, points: c }) })) },
      }))}</p>` : '';
    return `<section class="bd-round" data-round="${round.round}"><h3>${esc(say('page.breakdown.round', { round: Number(round.round) }))}</h3>${tables.join('')}${comp}</section>`;
  });
  return parts.join('');
}
