// The players' secret links on the host's page, one code at a time: each
// player has a card with their name and seat; "Show code" fetches that
// player's QR code (an SVG the daemon makes with libqrencode, GET
// /api/host/players/P/qr.svg) and shows it alone, hiding any other, so a
// player scans only their own. "New link" replaces a lost phone's link
// (POST /api/host/new-link): the old link then opens nobody's page. A seat
// the referee plays (a bot) has no link and no code: its card says so.
import { esc, getHostBlob, postJson } from './api.js';
import { say, sayOr } from './words.js';

// `grid`: the element holding the cards. `say(text, ok)`: the page's message
// line. `onHostError(e)`: a refused host request (401 locks the page).
export function createPlayerCodes(grid, { say: tell, onHostError }) {
  let players = [];
  let shownUrl = null; // the object URL of the code shown

  const figureOf = (player) => grid.querySelector(`figure[data-player="${player}"]`);
  const nameOf = (p) => p.name || say('page.host.player-placeholder', { n: p.player + 1 });
  // A player in a sentence: isolated, so a name in any script keeps the sentence's order.
  const who = (p) => ({ player: nameOf(p) });
  const refusalOf = (e) => sayOr(e.says, e.message);

  function hide() {
    for (const img of grid.querySelectorAll('img.qr')) img.remove();
    for (const button of grid.querySelectorAll('button.show-code')) {
      button.textContent = say('page.host.show-code');
      button.setAttribute('aria-expanded', 'false');
    }
    if (shownUrl) URL.revokeObjectURL(shownUrl);
    shownUrl = null;
  }

  async function show(player) {
    hide();
    const p = players.find((q) => q.player === player);
    if (!p) return;
    try {
      const blob = await getHostBlob(`/api/host/players/${player}/qr.svg`);
      hide();
      // The cards may have been drawn again meanwhile: look the player up now.
      const figure = figureOf(player);
      if (!figure) return;
      const button = figure.querySelector('button.show-code');
      shownUrl = URL.createObjectURL(blob);
      const img = document.createElement('img');
      img.className = 'qr';
      img.src = shownUrl;
      img.alt = say('page.host.qr-alt', { who: who(p) });
      img.width = 220;
      img.height = 220;
      img.style.display = 'block';
      img.style.margin = '0.4rem auto';
      figure.insertBefore(img, figure.querySelector('figcaption'));
      button.textContent = say('page.host.hide-code');
      button.setAttribute('aria-expanded', 'true');
    } catch (e) {
      onHostError(e);
      tell(say('page.host.code-failed', { who: who(p), why: { text: refusalOf(e) } }), false);
    }
  }

  async function newLink(player) {
    const p = players.find((q) => q.player === player);
    if (!p) return;
    if (!window.confirm(say('page.host.confirm-new-link', { who: who(p) }))) return;
    try {
      render(await postJson('/api/host/new-link', { player }, { host: true }));
      tell(say('page.host.new-link-done', { who: who(p) }), true);
      await show(player);
    } catch (e) {
      onHostError(e);
      tell(refusalOf(e), false);
    }
  }

  let drawn = null; // what the cards show, to leave a shown code alone when nothing changed
  // The newest game whose links were drawn. Game numbers only grow: an
  // answer for an older game that arrives late (the players asked for
  // before "New game" was pressed, answered after it) is not drawn over
  // the new game's links.
  let newestGame = 0;
  function render(answer) {
    if (answer && Number.isInteger(answer.game)) {
      if (answer.game < newestGame) return;
      newestGame = answer.game;
    }
    const next = answer && Array.isArray(answer.players) ? answer.players : [];
    const key = JSON.stringify(next.map((p) => [p.player, p.seat, p.name, p.bot, p.token, p.path]));
    if (key === drawn && grid.querySelector('figure')) return;
    drawn = key;
    hide();
    players = next;
    if (!players.length) {
      grid.innerHTML = `<span class="muted">${esc(say('page.host.links-empty'))}</span>`;
      return;
    }
    grid.innerHTML = players.map((p) => {
      if (p.bot) {
        return `<figure data-player="${p.player}" class="bot-seat">
        <figcaption><bdi>${esc(nameOf(p))}</bdi> <span class="small muted">${esc(say('page.host.seat-caption', { seat: { seat: p.seat } }))}</span></figcaption>
        <p class="small muted">${esc(say('page.host.bot-no-code'))}</p>
      </figure>`;
      }
      const url = new URL(p.path || `/player.html#${p.token}`, window.location.origin).href;
      return `<figure data-player="${p.player}">
        <figcaption><bdi>${esc(nameOf(p))}</bdi> <span class="small muted">${esc(say('page.host.seat-caption', { seat: { seat: p.seat } }))}</span>
          <details><summary class="small">${esc(say('page.host.the-link'))}</summary><a class="small player-link" data-words-skip href="${esc(url)}" target="_blank" rel="noopener">${esc(url)}</a></details>
        </figcaption>
        <div class="row">
          <button type="button" class="show-code primary" aria-expanded="false">${esc(say('page.host.show-code'))}</button>
          <button type="button" class="new-link">${esc(say('page.host.new-link'))}</button>
        </div>
      </figure>`;
    }).join('');
  }

  grid.addEventListener('click', (event) => {
    const button = event.target.closest('button');
    const figure = button && button.closest('figure[data-player]');
    if (!figure) return;
    const player = Number(figure.dataset.player);
    if (button.classList.contains('show-code')) {
      if (figure.querySelector('img.qr')) hide();
      else show(player);
    } else if (button.classList.contains('new-link')) newLink(player);
  });

  return { render, hide };
}
