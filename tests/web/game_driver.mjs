// Driving a game on the simulated castle from a browser test: the public
// status read until a condition holds, a piece put down and waited for,
// the referee's guidance followed (the engine moved pieces). Every
// /api/sim request carries the host token (the simulated castle is the
// host's).
import { api } from './daemon.mjs';
import { kWait } from './harness.mjs';

export function gameDriver(server) {
  const { url } = server;
  const token = server.hostToken;
  const status = async () => (await api(url, '/api/status')).json;
  const waitStatus = async (pred, what, timeout = kWait) => {
    const end = Date.now() + timeout;
    let last = null;
    while (Date.now() < end) {
      last = await status();
      if (pred(last)) return last;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`timed out waiting for ${what}; last status: ${JSON.stringify(last).slice(0, 600)}`);
  };
  const sim = (what, body) => api(url, `/api/sim/${what}`, { method: 'POST', body, token });
  const host = (what, body = {}) => api(url, `/api/host/${what}`, { method: 'POST', body, token });
  // Puts a piece where the referee expects it next and waits until accepted.
  const play = async (slug, place, label) => {
    const answer = await sim('put', { character: slug, place });
    if (answer.status !== 200) throw new Error(`${label}: /api/sim/put answered ${answer.status} ${answer.text}`);
    return waitStatus((s) => s.board && s.board.expected[slug] === place && !s.refusal, `${label} accepted`);
  };
  // Follows the referee's guidance (pieces the engine moved) until none is left.
  const followGuidance = async () => {
    let s = await status();
    for (let round = 0; s.guidance && round < 10; ++round) {
      for (const m of s.guidance.moves || []) {
        if (m.to === null || m.to === undefined) await sim('lift', { character: m.character });
        else await sim('put', { character: m.character, place: m.to });
      }
      const before = JSON.stringify(s.guidance);
      s = await waitStatus((x) => JSON.stringify(x.guidance) !== before, 'the guidance followed');
    }
    return s;
  };
  return { status, waitStatus, sim, host, play, followGuidance };
}
