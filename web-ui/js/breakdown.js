// Why each round scored what it did: the status's `score_breakdown` (one
// entry per round already scored; a round in progress is never in it) drawn
// as one table per coronation, a row per player, a cell per favourite with
// where it stood and its points, then the kept Ambition card, the other
// lines and the total. Used by the status page, the player's page (their own
// rows) and the review page. The words are the page's (names.js, the
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

function lineCell(line) {
  const pts = `<span class="bd-points">${esc(signed(line.points))}</span>`;
  if (line.kind === 'favourite')
    return `<td class="bd-line" data-points="${line.points}">♥ ${esc(who(line))} <span class="muted">${esc(where(line))}</span> ${pts}</td>`;
  if (line.kind === 'banished')
    return `<td class="bd-line bd-off" data-points="${line.points}">${esc(who(line))} <span class="muted">${esc(say('page.breakdown.banished'))}</span> ${pts}</td>`;
  if (line.kind === 'ambition') {
    const card = line.ambition_card ? { ambition: line.ambition_card } : { text: line.name || '' };
    const met = `<span class="muted">${esc(line.met ? say('page.breakdown.met') : say('page.breakdown.not-met'))}</span>`;
    return `<td class="bd-line bd-ambition" data-points="${line.points}">${sayHtml('page.breakdown.ambition', { card })} ${met} ${pts}</td>`;
  }
  if (line.kind === 'rule33') return `<td class="bd-line" data-points="${line.points}">${esc(say('page.breakdown.rule33'))} ${pts}</td>`;
  if (line.kind === 'team_pawn') return `<td class="bd-line" data-points="${line.points}">${esc(say('page.breakdown.team-pawn'))} ${pts}</td>`;
  return `<td class="bd-line" data-points="${line.points}">${esc(line.name)} ${pts}</td>`;
}

function sheetRow(labelHtml, sheet, width, extra = '') {
  const cells = (sheet.lines || []).map(lineCell);
  while (cells.length < width) cells.push('<td></td>');
  return `<tr${extra}><th scope="row">${labelHtml}</th>${cells.join('')}<td class="num bd-total" data-total="${sheet.total}"><b>${esc(sheet.total)}</b></td></tr>`;
}

// `only`: a player index to show that player's rows alone (their own page).
export function breakdownHtml(rounds, { only = null, players = [] } = {}) {
  if (!rounds || !rounds.length) return '';
  const parts = rounds.map((round) => {
    const tables = (round.coronations || []).map((k, i) => {
      const sheets = (k.players || []).filter((s) => only === null || s.player === only);
      const width = Math.max(1, ...sheets.map((s) => (s.lines || []).length), k.emissary ? k.emissary.lines.length : 0);
      const crown = players.find((p) => p.seat === k.crown);
      const king = k.king ? characterArg(k.king) : { text: k.king_name || '' };
      const by = crown && crown.name ? { html: nameHtml(crown.name) } : { text: say('page.breakdown.seat', { seat: { seat: k.crown } }) };
      const several = round.coronations.length > 1;
      let title;
      if (crown) title = sayHtml(several ? 'page.breakdown.coronation-n-by' : 'page.breakdown.coronation-by', { n: i + 1, king, by });
      else title = sayHtml(several ? 'page.breakdown.coronation-n' : 'page.breakdown.coronation', { n: i + 1, king });
      const jester = k.jester_king ? `<p class="small bd-jester">${esc(say('page.breakdown.jester-king'))}</p>` : '';
      const rows = sheets.map((s) => sheetRow(s.name ? nameHtml(s.name) : esc(playerName(s.player, players)), s, width, ` data-player="${s.player}"`));
      if (k.emissary && only === null) rows.push(sheetRow(esc(say('page.end.the-emissary')), k.emissary, width, ' data-emissary="1"'));
      return `<div class="bd-coronation"><h4>${title}</h4>${jester}<div class="bd-scroll" tabindex="0"><table class="bd-table"><tbody>${rows.join('')}</tbody></table></div></div>`;
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
