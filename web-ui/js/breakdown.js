// Why each round scored what it did: the status's `score_breakdown` (one
// entry per round already scored; a round in progress is never in it) drawn
// as one table per coronation, a row per player, a cell per favourite with
// where it stood and its points, then the kept Ambition card, the other
// lines and the total. Used by the status page, the player's page (their own
// rows) and the review page. Words come from the daemon ("floor 3", names).
import { esc } from './api.js';

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

function lineCell(line) {
  const pts = `<span class="bd-points">${esc(signed(line.points))}</span>`;
  if (line.kind === 'favourite')
    return `<td class="bd-line" data-points="${line.points}">♥ ${esc(line.name)} <span class="muted">${esc(line.where)}</span> ${pts}</td>`;
  if (line.kind === 'banished')
    return `<td class="bd-line bd-off" data-points="${line.points}">${esc(line.name)} <span class="muted">banished</span> ${pts}</td>`;
  if (line.kind === 'ambition')
    return `<td class="bd-line bd-ambition" data-points="${line.points}">Ambition: ${esc(line.name)} <span class="muted">${line.met ? 'met' : 'not met'}</span> ${pts}</td>`;
  return `<td class="bd-line" data-points="${line.points}">${esc(line.name)} ${pts}</td>`;
}

function sheetRow(label, sheet, width, extra = '') {
  const cells = (sheet.lines || []).map(lineCell);
  while (cells.length < width) cells.push('<td></td>');
  return `<tr${extra}><th scope="row">${esc(label)}</th>${cells.join('')}<td class="num bd-total" data-total="${sheet.total}"><b>${esc(sheet.total)}</b></td></tr>`;
}

// `only`: a player index to show that player's rows alone (their own page).
export function breakdownHtml(rounds, { only = null, players = [] } = {}) {
  if (!rounds || !rounds.length) return '';
  const parts = rounds.map((round) => {
    const tables = (round.coronations || []).map((k, i) => {
      const sheets = (k.players || []).filter((s) => only === null || s.player === only);
      const width = Math.max(1, ...sheets.map((s) => (s.lines || []).length), k.emissary ? k.emissary.lines.length : 0);
      const crown = players.find((p) => p.seat === k.crown);
      const title = `${(round.coronations.length > 1 ? `Coronation ${i + 1}: ` : '')}♛ ${k.king_name}${crown ? `, brought to the throne by ${crown.name || `seat ${k.crown + 1}`}` : ''}`;
      const jester = k.jester_king ? '<p class="small bd-jester">The Jester is King: floors and dungeons score reversed, the throne 0.</p>' : '';
      const rows = sheets.map((s) => sheetRow(s.name, s, width, ` data-player="${s.player}"`));
      if (k.emissary && only === null) rows.push(sheetRow('The Emissary', k.emissary, width, ' data-emissary="1"'));
      return `<div class="bd-coronation"><h4>${esc(title)}</h4>${jester}<div class="bd-scroll"><table class="bd-table"><tbody>${rows.join('')}</tbody></table></div></div>`;
    });
    const comp = (round.compensation || []).some((c, p) => c && (only === null || p === only))
      ? `<p class="small">Compensation at the deal (3 points to a seat that places one character): ${(round.compensation || [])
        .map((c, p) => (c && (only === null || p === only) ? `${esc((players.find((q) => q.player === p) || {}).name || `Player ${p + 1}`)} +${c}` : ''))
        .filter(Boolean).join(', ')}</p>` : '';
    return `<section class="bd-round" data-round="${round.round}"><h3>Round ${esc(round.round)}</h3>${tables.join('')}${comp}</section>`;
  });
  return parts.join('');
}
