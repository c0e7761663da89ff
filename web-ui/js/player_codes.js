// The players' secret links on the host's page, one code at a time: each
// player has a card with their name and seat; "Show code" fetches that
// player's QR code (an SVG the daemon makes with libqrencode, GET
// /api/host/players/P/qr.svg) and shows it alone, hiding any other, so a
// player scans only their own. The code gets out of the way once it has
// done its work (issue 34): the daemon says when a player's page has opened
// (`opened`, `opened_ms` in GET /api/host/players, asked every 1.5 s while
// some link has not opened yet), and a code shown for a player whose page
// then opens is hidden, their card saying when it opened, with "Show the
// code again". At the game's end no code stays on screen. "New link"
// replaces a lost phone's link (POST /api/host/new-link): the old link then
// opens nobody's page. A seat the referee plays (a bot) has no link and no
// code: its card says so.
import { esc, getHostBlob, getJson, postJson } from './api.js';
import { pageLanguage, say, sayOr } from './words.js';

const kPollMs = 1500;

// `grid`: the element holding the cards. `say(text, ok)`: the page's message
// line. `onHostError(e)`: a refused host request (401 locks the page).
export function createPlayerCodes(grid, { say: tell, onHostError }) {
  let players = [];
  let shownUrl = null; // the object URL of the code shown
  let shown = null; // {player, waitsForOpen}: the code on screen
  let gameOver = false;
  let polling = null;

  const figureOf = (player) => grid.querySelector(`figure[data-player="${player}"]`);
  const nameOf = (p) => p.name || say('page.host.player-placeholder', { n: p.player + 1 });
  // A player in a sentence: isolated, so a name in any script keeps the sentence's order.
  const who = (p) => ({ player: nameOf(p) });
  const refusalOf = (e) => sayOr(e.says, e.message);
  const showLabel = (p) => say(p && p.opened ? 'page.host.show-again' : 'page.host.show-code');

  function hide() {
    for (const img of grid.querySelectorAll('img.qr')) img.remove();
    for (const button of grid.querySelectorAll('button.show-code')) {
      const p = players.find((q) => q.player === Number(button.closest('figure').dataset.player));
      button.textContent = showLabel(p);
      button.setAttribute('aria-expanded', 'false');
    }
    if (shownUrl) URL.revokeObjectURL(shownUrl);
    shownUrl = null;
    shown = null;
    document.body.dataset.codeShown = '';
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
      const now = players.find((q) => q.player === player) || p;
      shownUrl = URL.createObjectURL(blob);
      const img = document.createElement('img');
      img.className = 'qr';
      img.src = shownUrl;
      img.alt = say('page.host.qr-alt', { who: who(p) });
      img.width = 220;
      img.height = 220;
      figure.insertBefore(img, figure.querySelector('figcaption'));
      const button = figure.querySelector('button.show-code');
      button.textContent = say('page.host.hide-code');
      button.setAttribute('aria-expanded', 'true');
      // Shown again for a page already open: the host hides it (or the game's end).
      shown = { player, waitsForOpen: !now.opened };
      document.body.dataset.codeShown = String(player);
      poll();
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

  // "Page opened at 20:14", in the page's language.
  function openedLine(p) {
    const time = new Date(p.opened_ms).toLocaleTimeString(pageLanguage(), { hour: '2-digit', minute: '2-digit' });
    return say('page.host.opened-at', { time: { text: time } });
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
      if (answer.game > newestGame) gameOver = false;
      newestGame = answer.game;
    }
    const next = answer && Array.isArray(answer.players) ? answer.players : [];
    const key = JSON.stringify(next.map((p) => [p.player, p.seat, p.name, p.bot, p.token, p.path, p.opened]));
    if (key === drawn && grid.querySelector('figure')) return;
    const sameLinks = drawn !== null && JSON.stringify(JSON.parse(drawn).map((row) => row.slice(0, 6))) === JSON.stringify(JSON.parse(key).map((row) => row.slice(0, 6)));
    drawn = key;
    // The code on screen: kept across a redraw for another player's news,
    // hidden once its own player's page has opened.
    const before = shown;
    const keptImg = before && sameLinks ? grid.querySelector('img.qr') : null;
    const nowOpened = before && next.find((p) => p.player === before.player)?.opened;
    if (keptImg) keptImg.remove();
    if (shownUrl && !keptImg) URL.revokeObjectURL(shownUrl);
    shownUrl = keptImg ? shownUrl : null;
    shown = null;
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
      return `<figure data-player="${p.player}"${p.opened ? ' class="opened"' : ''}>
        <figcaption><bdi>${esc(nameOf(p))}</bdi> <span class="small muted">${esc(say('page.host.seat-caption', { seat: { seat: p.seat } }))}</span>
          ${p.opened ? `<span class="opened-line small">${esc(openedLine(p))}</span>` : ''}
          <details><summary class="small">${esc(say('page.host.the-link'))}</summary><a class="small player-link" data-words-skip href="${esc(url)}" target="_blank" rel="noopener">${esc(url)}</a></details>
        </figcaption>
        <div class="row">
          <button type="button" class="show-code${p.opened ? '' : ' primary'}" aria-expanded="false">${esc(showLabel(p))}</button>
          <button type="button" class="new-link">${esc(say('page.host.new-link'))}</button>
        </div>
      </figure>`;
    }).join('');
    if (keptImg && !(before.waitsForOpen && nowOpened) && !gameOver) {
      const figure = figureOf(before.player);
      if (figure) {
        figure.insertBefore(keptImg, figure.querySelector('figcaption'));
        const button = figure.querySelector('button.show-code');
        button.textContent = say('page.host.hide-code');
        button.setAttribute('aria-expanded', 'true');
        shown = before;
        return;
      }
    }
    if (shownUrl) URL.revokeObjectURL(shownUrl);
    shownUrl = null;
    document.body.dataset.codeShown = '';
    if (before && before.waitsForOpen && nowOpened) {
      const p = players.find((q) => q.player === before.player);
      tell(say('page.host.opened-hidden', { who: who(p) }), true);
    }
  }

  // While a person's link has not opened yet, the players are asked again.
  function poll() {
    clearTimeout(polling);
    polling = null;
    if (gameOver || !players.some((p) => !p.bot && !p.opened)) return;
    polling = setTimeout(async () => {
      polling = null;
      try {
        render(await getJson('/api/host/players', { host: true }));
      } catch (e) {
        if (e.status === 401) {
          onHostError(e);
          return;
        }
      }
      poll();
    }, kPollMs);
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

  // The game is over (finished, abandoned): no code stays on screen.
  function setGameOver(over) {
    if (over && !gameOver) hide();
    gameOver = over;
    if (over) {
      clearTimeout(polling);
      polling = null;
    } else if (!polling) poll();
  }

  return {
    render(answer) {
      render(answer);
      poll();
    },
    hide,
    setGameOver,
  };
}
