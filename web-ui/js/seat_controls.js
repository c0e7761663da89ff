// How each seat plays, on the host's page during a game (issue 35): a row a
// seat with its players' names; whether it plays from afar; what it votes
// with (its station, its players' phones, either); a bot standing in for
// the rest of the round or of the game, and the seat taken back; and for a
// seat played from afar whether its phone is there (the public status's
// `seats[].phone_away`, the daemon's `[daemon] phone_away_after`; with
// `seen_ms_ago` for how long ago it was last heard). Every change is POST /api/host/seat;
// a refusal is shown in the daemon's words. The rows come from GET
// /api/host/players, asked again when the public status's `seats` change,
// and every 3 s while a seat plays from afar (how long ago its phone was heard).
import { esc, getJson, postJson } from './api.js';
import { say, sayOr } from './words.js';

const kPollMs = 3000;
const kAwayMs = 15000;

// `box`: the card's rows; `card`: the card (hidden without a game);
// `tell(text, ok)`: the page's message line; `onHostError(e)`: a refused
// host request (401 locks the page).
export function createSeatControls(box, card, { tell, onHostError }) {
  let players = [];
  let drawn = null;
  let live = false;
  let polling = null;
  let sending = false;
  let publicSeats = []; // the public status's `seats`: phone_away by seat

  const nameOf = (p) => p.name || say('page.host.player-placeholder', { n: p.player + 1 });

  // "Phone here", "Phone away (last seen 40 s ago)", "Phone not seen yet".
  function phoneLine(seat, seatPlayers) {
    const seen = seatPlayers.map((p) => p.seen_ms_ago).filter((ms) => ms !== null && ms !== undefined);
    if (!seen.length) return { away: true, text: say('page.host.seat.phone-unseen') };
    const ms = Math.min(...seen);
    // The daemon's word when the status gave it; else the daemon's default, 15 s.
    const known = publicSeats.find((s) => s.seat === seat);
    const away = known && typeof known.phone_away === 'boolean' ? known.phone_away : ms >= kAwayMs;
    if (!away) return { away: false, text: say('page.host.seat.phone-here') };
    return { away: true, text: say('page.host.seat.phone-away', { n: Math.round(ms / 1000) }) };
  }

  function rowHtml(seat, seatPlayers) {
    const first = seatPlayers[0];
    const names = seatPlayers.map((p) => `<bdi>${esc(nameOf(p))}</bdi>`).join(', ');
    const head = `<div class="seat-head"><b>${esc(say('seat.numbered', { seat: { seat } }))}</b> · ${names}</div>`;
    if (first.bot) return `<div class="seat-row bot-seat" data-seat="${seat}">${head}<p class="small muted">${esc(say('page.host.seat.bot-from-start'))}</p></div>`;
    const remote = Boolean(first.remote);
    const votes = first.votes_by || 'station';
    const option = (v, code) => `<option value="${v}"${votes === v ? ' selected' : ''}>${esc(say(code))}</option>`;
    const standIn = first.stand_in
      ? `<p class="seat-stand-in">${esc(say('page.host.seat.stand-in'))}</p>
        <button type="button" class="seat-back primary">${esc(say('page.host.seat.take-back'))}</button>`
      : `<div class="row"><button type="button" class="seat-bot-round">${esc(say('page.host.seat.bot-round'))}</button>
        <button type="button" class="seat-bot-game">${esc(say('page.host.seat.bot-game'))}</button></div>`;
    return `<div class="seat-row${remote ? ' remote' : ''}" data-seat="${seat}">${head}
      <label class="inline"><input type="checkbox" class="seat-remote"${remote ? ' checked' : ''}> <span>${esc(say('page.host.seat.remote'))}</span></label>
      <label>${esc(say('page.host.seat.votes-with'))} <select class="seat-votes"${remote ? ' disabled' : ''}>${option('station', 'page.host.seat.votes-station')}${option('phone', 'page.host.seat.votes-phone')}${option('either', 'page.host.seat.votes-either')}</select></label>
      ${remote ? '<p class="seat-phone small"></p>' : ''}
      ${standIn}</div>`;
  }

  function bySeat() {
    const seats = new Map();
    for (const p of players) {
      if (!seats.has(p.seat)) seats.set(p.seat, []);
      seats.get(p.seat).push(p);
    }
    return [...seats.entries()].sort((a, b) => a[0] - b[0]);
  }

  // The phone lines change every poll: only their text is written again,
  // so a select being used is not replaced under the host's finger.
  function updatePhones() {
    for (const [seat, seatPlayers] of bySeat()) {
      const node = box.querySelector(`.seat-row[data-seat="${seat}"] .seat-phone`);
      if (!node) continue;
      const { away, text } = phoneLine(seat, seatPlayers);
      node.textContent = text;
      node.classList.toggle('phone-away', away);
    }
  }

  function render(answer) {
    players = answer && Array.isArray(answer.players) ? answer.players : [];
    card.classList.toggle('hidden', !live || !players.length);
    const key = JSON.stringify(players.map((p) => [p.player, p.seat, p.name, p.bot, p.stand_in, p.remote, p.votes_by]));
    if (key !== drawn) {
      drawn = key;
      box.innerHTML = bySeat().map(([seat, seatPlayers]) => rowHtml(seat, seatPlayers)).join('');
    }
    updatePhones();
  }

  async function load() {
    try {
      render(await getJson('/api/host/players', { host: true }));
    } catch (e) {
      if (e.status === 401) onHostError(e);
    }
  }

  // Asked again every few seconds only while a seat plays from afar: how
  // long ago its phone was heard; any other change comes with the status.
  function poll() {
    clearTimeout(polling);
    polling = null;
    if (!live) return;
    if (!players.some((p) => p.remote)) {
      polling = setTimeout(poll, kPollMs);
      return;
    }
    polling = setTimeout(async () => {
      await load();
      poll();
    }, kPollMs);
  }

  async function change(body) {
    if (sending) return;
    sending = true;
    try {
      const answer = await postJson('/api/host/seat', body, { host: true });
      tell(sayOr(answer.says, answer.message || ''), true);
    } catch (e) {
      onHostError(e);
      tell(sayOr(e.says, e.message), false);
    }
    sending = false;
    drawn = null; // drawn again as the daemon now says, also after a refusal
    await load();
  }

  box.addEventListener('change', (event) => {
    const row = event.target.closest('.seat-row');
    if (!row) return;
    const seat = Number(row.dataset.seat);
    if (event.target.classList.contains('seat-remote')) change({ seat, remote: event.target.checked });
    else if (event.target.classList.contains('seat-votes')) change({ seat, votes: event.target.value });
  });
  box.addEventListener('click', (event) => {
    const button = event.target.closest('button');
    const row = button && button.closest('.seat-row');
    if (!row) return;
    const seat = Number(row.dataset.seat);
    if (button.classList.contains('seat-bot-round')) change({ seat, bot: 'good', until: 'round' });
    else if (button.classList.contains('seat-bot-game')) change({ seat, bot: 'good', until: 'game' });
    else if (button.classList.contains('seat-back')) change({ seat, bot: null });
  });

  return {
    render,
    // The public status's seats: whether each remote seat's phone is away.
    setSeats(seats) {
      const next = Array.isArray(seats) ? seats : [];
      const gist = (list) => JSON.stringify(list.map((x) => [x.seat, x.votes_by, x.remote, x.stand_in, x.phone_away]));
      const changed = gist(next) !== gist(publicSeats);
      publicSeats = next;
      // A seat changed (another host's device, a round's end handing a seat
      // back) or a phone away or back: the rows asked again now.
      if (changed && live) load();
    },
    // The game's state: the rows show (and the phones are asked) while it is on.
    setState(state) {
      const on = state === 'playing' || state === 'paused';
      if (on === live) return;
      live = on;
      card.classList.toggle('hidden', !live || !players.length);
      if (live) {
        load();
        poll();
      } else {
        clearTimeout(polling);
        polling = null;
      }
    },
  };
}
