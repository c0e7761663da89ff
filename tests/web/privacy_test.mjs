// Private by default, as people see it: `vivaref serve` with no host_token
// (the Quick start, the packaged configuration) makes a host secret and
// prints the host's link. At phone (390x844) and laptop (1280x800) size:
// - a second device opening /host.html sees "This page needs the host's
//   link", no controls, no code and no player's link;
// - the host's device opening the host's link sees the controls; the secret
//   leaves the address bar and /host.html opens later on that device alone;
// - the codes show one at a time, only when the host taps "Show code";
// - a player link the host renewed ("New link", a lost phone) shows the
//   "no player" message, the new one the player's cards;
// - the simulated board on a device without the link cannot press keys;
//   with the host's sim link it can, and it never names the key pressed
//   (whoever presses next at a shared laptop would see the last vote);
// - a seat the referee plays (a bot) has no code, no link and no keys:
//   the host page says "played by the referee", the host's routes refuse
//   a link or code for it, sim.html shows no keys for it and the castle
//   refuses its key presses.
//   node tests/web/privacy_test.mjs VIVAREF [ARTIFACTS]   exit 0 pass, 1 fail, 77 skipped
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { api, serveMissing, startServe } from './daemon.mjs';
import { browserOrSkip, checker, kWait, newPage, shooter, skip } from './harness.mjs';

const vivaref = process.argv[2];
const artifacts = process.argv[3] || join(tmpdir(), 'vivaref-privacy');
if (serveMissing(vivaref)) skip(serveMissing(vivaref));
const launchBrowser = await browserOrSkip();

const kSizes = [
  ['phone', { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true }],
  ['laptop', { viewport: { width: 1280, height: 800 } }],
];
const kBotSeat = 3;
const { check, fail, finish } = checker('web-privacy');
const shot = shooter(artifacts, 'privacy-');
const errors = [];
// No host_token: serve makes its secret, as on a fresh Pi.
const server = await startServe(vivaref, { hostToken: '' });
const { browser, close } = await launchBrowser();
try {
  const { url } = server;
  const secret = server.hostToken;
  check(/^[0-9a-f]{64}$/.test(secret), 'serve made a host secret of 64 hex digits');
  check(server.log().includes(`/host.html#${secret}`), 'serve printed the host\'s link with the secret');
  check((await api(url, '/api/host/players')).status === 401, 'the players\' links need the host\'s secret');

  for (const [size, device] of kSizes) {
    // --- the host's device, from the host's link ------------------------------
    const host = await newPage(browser, device, errors);
    host.on('dialog', (d) => d.accept());
    await host.goto(server.hostLink);
    await host.locator('#controls').waitFor({ state: 'visible', timeout: kWait });
    check(await host.locator('#unlock').isHidden(), `${size}: the host's link opens the host's controls`);
    check(!host.url().includes(secret), `${size}: the secret is taken out of the address bar (${host.url()})`);
    await host.goto(`${url}/host.html`);
    await host.locator('#controls').waitFor({ state: 'visible', timeout: kWait });
    check(true, `${size}: /host.html opens again on the host's device without the link`);

    // A game of four, started from the form; the referee plays seat 4.
    await host.fill('#seats', '4');
    await host.locator('#seats').dispatchEvent('input');
    const names = ['Anna', 'Bruno', 'Chiara', 'Dario'];
    for (let i = 0; i < 4; ++i) await host.fill(`input.player-name[data-player="${i}"]`, names[i]);
    await host.selectOption(`select.seat-bot[data-seat="${kBotSeat}"]`, 'casual');
    await host.click('#new-game button[type=submit]');
    await host.locator('#links figure').nth(3).waitFor({ timeout: kWait });
    check(await host.locator('#links img.qr').count() === 0, `${size}: no code shows before the host taps one`);
    await host.locator('#links figure[data-player="0"] button.show-code').click();
    await host.locator('#links figure[data-player="0"] img.qr').waitFor({ timeout: kWait });
    await host.locator('#links figure[data-player="1"] button.show-code').click();
    await host.locator('#links figure[data-player="1"] img.qr').waitFor({ timeout: kWait });
    check(await host.locator('#links img.qr').count() === 1, `${size}: one code at a time (Bruno's shows, Anna's is hidden)`);
    const shown = await host.locator('#links figure[data-player="1"] img.qr').boundingBox();
    check(shown && shown.width >= 150 && shown.x >= 0 && shown.x + shown.width <= device.viewport.width, `${size}: the code is large and on screen (${shown && Math.round(shown.width)} px)`);
    await shot(host, `${size}-host-one-code`, { fullPage: false });
    await host.locator('#links figure[data-player="1"] button.show-code').click();
    check(await host.locator('#links img.qr').count() === 0, `${size}: "Hide code" hides it`);
    const links = [];
    for (let p = 0; p < 3; ++p) links.push(await host.locator(`#links figure[data-player="${p}"] a.player-link`).getAttribute('href'));

    // --- the bot's seat: no code, no link, on the page or from the host's routes ---
    const botCard = host.locator(`#links figure[data-player="${kBotSeat}"]`);
    check((await botCard.innerText()).includes('played by the referee')
      && await botCard.locator('button, a, img').count() === 0,
    `${size}: the host page shows Dario's seat as played by the referee, with no "Show code", no link, no code ("${(await botCard.innerText()).replace(/\s+/g, ' ')}")`);
    await shot(host, `${size}-host-bot-seat`, { fullPage: false });
    const listed = (await api(url, '/api/host/players', { token: secret })).json;
    const botEntry = listed.players.find((p) => p.seat === kBotSeat);
    let botPage = null;
    if (botEntry.token) {
      // A token for the bot's player (one handed out before) must open nothing.
      botPage = await newPage(browser, device, errors);
      await botPage.goto(`${url}/player.html#${botEntry.token}`);
      await botPage.locator('#error:not(.hidden), #private:not(.hidden)').first().waitFor({ timeout: kWait });
    }
    check(botEntry.bot === 'casual' && !botEntry.token && !botEntry.path
      && (!botPage || await botPage.locator('#private').isHidden()),
    `${size}: the host's routes give the bot's player no link, and no link opens its cards (${JSON.stringify(botEntry)})`);
    if (botPage) await botPage.context().close();
    const renewBot = await api(url, '/api/host/new-link', { method: 'POST', token: secret, body: { player: kBotSeat } });
    const botCode = await api(url, `/api/host/players/${kBotSeat}/qr.svg`, { token: secret });
    check(renewBot.status === 409 && renewBot.json && renewBot.json.error === 'bot-seat' && botCode.status === 409 && botCode.json && botCode.json.error === 'bot-seat',
      `${size}: a new link or a code for the bot's player is refused (${renewBot.status} ${renewBot.text}; ${botCode.status})`);

    // --- another device: no controls, no codes, no links ----------------------
    const other = await newPage(browser, device, errors);
    await other.goto(`${url}/host.html`);
    await other.locator('#unlock').waitFor({ state: 'visible', timeout: kWait });
    const otherText = await other.locator('body').innerText();
    check(otherText.includes('This page needs the host’s link'), `${size}: another device is told the page needs the host's link`);
    check(await other.locator('#controls').isHidden(), `${size}: another device sees no host controls`);
    const html = await other.content();
    check(await other.locator('img.qr, a.player-link, #links figure').count() === 0 && links.every((l) => !html.includes(new URL(l).hash.slice(1))),
      `${size}: another device gets no code and no player's link`);
    await shot(other, `${size}-other-device`, { fullPage: false });
    // A wrong secret typed in unlocks nothing.
    await other.fill('#token', '0'.repeat(64));
    await other.click('#unlock button[type=submit]');
    await other.locator('#unlock-message:not(.hidden)').waitFor({ timeout: kWait });
    check(await other.locator('#controls').isHidden(), `${size}: a guessed secret unlocks nothing`);

    // --- the simulated board: keys from another device are refused ------------
    const board = await newPage(browser, device, errors);
    await board.goto(`${url}/sim.html`);
    const key = board.locator('#stations button[data-station="0"][data-key="yes"]');
    await key.waitFor({ timeout: kWait });
    await key.click();
    await board.locator('#message.error').waitFor({ timeout: kWait });
    check(/host[’']s link/.test(await board.locator('#message').innerText()), `${size}: a key pressed on the board without the link is refused, saying it needs the host's link`);
    const hostBoard = await newPage(browser, device, errors);
    await hostBoard.goto(server.simLink);
    const hostKey = hostBoard.locator('#stations button[data-station="0"][data-key="yes"]');
    await hostKey.waitFor({ timeout: kWait });
    await hostKey.click();
    await hostBoard.locator('#message.ok').waitFor({ timeout: kWait });
    const pressed = await hostBoard.locator('#message').innerText();
    check(!/yes|✔/i.test(pressed) && pressed.includes('key pressed'), `${size}: the board opened from the host's sim link presses keys, and says so without naming the key ("${pressed}")`);
    const gone = await hostBoard.locator('#message').waitFor({ state: 'hidden', timeout: 6000 }).then(() => true, () => false);
    check(gone, `${size}: even "key pressed" goes away after a moment, before the next person comes to the board`);
    const botStation = hostBoard.locator(`#stations .station[data-station="${kBotSeat}"]`);
    await botStation.filter({ hasText: 'Dario' }).waitFor({ timeout: kWait });
    check(await botStation.locator('button').count() === 0 && (await botStation.innerText()).includes('played by the referee'),
      `${size}: the simulated board shows no keys for the bot's seat ("${(await botStation.innerText()).replace(/\s+/g, ' ')}")`);
    const botKey = await api(url, '/api/sim/press', { method: 'POST', token: secret, body: { station: kBotSeat, key: 'no' } });
    check(botKey.status === 409 && botKey.json && botKey.json.error === 'bot-seat', `${size}: the castle refuses a key of the bot's seat (${botKey.status} ${botKey.text})`);
    await shot(hostBoard, `${size}-sim-bot-seat`, { fullPage: false });
    await shot(board, `${size}-sim-refused`, { fullPage: false });

    // --- a lost phone: the host gives Chiara a new link -------------------------
    const phone = await newPage(browser, device, errors);
    await phone.goto(links[2]);
    await phone.locator('#private:not(.hidden)').waitFor({ timeout: kWait });
    check(true, `${size}: Chiara's link opens her cards`);
    await host.locator('#links figure[data-player="2"] button.new-link').click();
    await host.locator('#links figure[data-player="2"] img.qr').waitFor({ timeout: kWait });
    const renewed = await host.locator('#links figure[data-player="2"] a.player-link').getAttribute('href');
    check(renewed !== links[2] && (await host.locator('#message').innerText()).includes('new link'), `${size}: "New link" gives Chiara a new link and shows its code`);
    await phone.reload();
    await phone.locator('#error:not(.hidden)').waitFor({ timeout: kWait });
    check((await phone.locator('#error').innerText()).includes('belongs to no player') && await phone.locator('#private').isHidden(),
      `${size}: the old link shows the "no player" message and no cards`);
    await shot(phone, `${size}-revoked-link`, { fullPage: false });
    const fresh = await newPage(browser, device, errors);
    await fresh.goto(renewed);
    await fresh.locator('#private:not(.hidden)').waitFor({ timeout: kWait });
    check(true, `${size}: the new link opens Chiara's cards`);
    check((await api(url, `/api/player/${new URL(links[2]).hash.slice(1)}`)).status === 404, `${size}: the API answers 404 for the old link`);
    for (const page of [host, other, board, hostBoard, phone, fresh]) await page.context().close();
    await api(url, '/api/host/abandon', { method: 'POST', token: secret, body: {} });
  }
  check(errors.length === 0, `no script error in the pages: ${errors.join('; ')}`);
} catch (e) {
  fail(e);
} finally {
  await close();
  await server.stop();
}
finish();
