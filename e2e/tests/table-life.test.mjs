// @ts-check
/**
 * A table's life from the page: the inactivity rule chosen in the lobby and
 * shown there; resigning (after a confirmation); the creator closing a table
 * before it starts; continuing a seat on another device with its link.
 */

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createInLobby, newPage, playOneMove, serverAndBrowser, shot } from '../lib/harness.mjs';

/** The server and the browser of this file's tests. */
const env = serverAndBrowser();

/** The table as a spectator sees it, from the API. @param {string} url */
async function tableOf(url) {
  const id = /\/t\/([0-9a-f]{24})/.exec(url)?.[1];
  assert.ok(id, `a table address: ${url}`);
  const response = await fetch(`${env.server.url}/api/tables/${id}`);
  return response.json();
}

/** @param {import('playwright-core').Page} page */
const myTurn = (page) => page.waitForFunction(() => document.querySelector('.status-bar')?.classList.contains('your-turn')
  && !document.querySelector('.controls .muted'), null, { timeout: 60000 });

test('the inactivity rule is chosen when creating a table and shown in the lobby and at the table', async () => {
  const { context, page, errors } = await newPage(env.browser, 'desktop');
  await page.goto(env.server.url + '/');
  await page.click('[data-game="stumphog"]');
  await page.selectOption('[data-testid="inactivity-seconds"]', '300');
  await page.selectOption('[data-testid="inactivity-then"]', 'ai');
  await shot(page, 'lobby-inactivity-form');
  await page.selectOption('#seat-0', 'you');
  await page.selectOption('#seat-1', 'open');
  await page.click('[data-testid="create"]');
  await page.waitForURL(/\/t\/[0-9a-f]+/);
  await page.waitForSelector('.board-svg');
  const table = await tableOf(page.url());
  assert.deepEqual(table.inactivity, { seconds: 300, then: 'ai' });
  assert.equal(await page.locator('[data-testid="table-inactivity"]').textContent(),
    'Away rule: No move for 5 minutes: the computer takes over');

  await page.goto(env.server.url + '/');
  const row = page.locator('[data-testid="my-tables"] li').filter({ hasText: 'Stumphög' }).first();
  await row.waitFor();
  assert.equal(await row.locator('[data-testid="inactivity"]').textContent(), 'No move for 5 minutes: the computer takes over');
  // The lobby remembers the choice for the next table.
  assert.equal(await page.locator('[data-testid="inactivity-seconds"]').inputValue(), '300');
  await shot(page, 'lobby-inactivity-list');
  assert.deepEqual(errors, []);
  await context.close();
});

test('resigning asks first; keeping on plays on; resigning ends the game as lost for everyone', async () => {
  const alice = await newPage(env.browser, 'desktop');
  const bob = await newPage(env.browser, 'desktop');
  await createInLobby(alice.page, env.server.url, 'tawla', {}, ['you', 'open']);
  const link = await alice.page.locator('.invite input').first().inputValue();
  await bob.page.goto(link);
  await bob.page.click('[data-testid="join"]');
  await bob.page.waitForFunction(() => document.querySelector('[data-testid="conn"]')?.textContent === 'live');
  await alice.page.locator('[data-testid="resign"]').waitFor();

  // The first click only asks; "Keep playing" leaves the game as it was.
  await alice.page.click('[data-testid="resign"]');
  await alice.page.locator('[data-testid="resign-dialog"]').waitFor();
  await shot(alice.page, 'resign-confirm');
  await alice.page.click('[data-testid="resign-cancel"]');
  assert.equal(await alice.page.locator('[data-testid="resign-dialog"]').count(), 0);
  assert.equal((await tableOf(alice.page.url())).status, 'playing');

  await alice.page.click('[data-testid="resign"]');
  await alice.page.click('[data-testid="resign-confirm"]');
  await alice.page.locator('[data-testid="game-over"]').waitFor();
  assert.equal(await alice.page.locator('[data-testid="game-over"] h2').textContent(), 'You lost');
  // The table's ending (why it ended) follows the resignation's event.
  await alice.page.waitForFunction(() => /you resigned/i.test(document.querySelector('[data-testid="turn"]')?.textContent || ''));
  // The other player is told at once, over the WebSocket.
  await bob.page.locator('[data-testid="game-over"]').waitFor();
  assert.equal(await bob.page.locator('[data-testid="game-over"] h2').textContent(), 'You won!');
  await shot(bob.page, 'resigned-opponent');
  const table = await tableOf(alice.page.url());
  assert.equal(table.status, 'finished');
  assert.equal(table.ending.reason, 'resigned');
  assert.equal(table.ending.seat, 0);
  assert.equal(await alice.page.locator('[data-testid="resign"]').count(), 0, 'no resign button after the end');
  for (const who of [alice, bob]) {
    assert.deepEqual(who.errors, []);
    await who.context.close();
  }
});

test('a player of three resigns in High-O Gammon: he leaves as a dropper and the two others play on', async () => {
  const alice = await newPage(env.browser, 'desktop');
  const bob = await newPage(env.browser, 'desktop');
  await createInLobby(alice.page, env.server.url, 'high-gammon', { players: '3' }, ['you', 'open', 'ai']);
  const link = await alice.page.locator('.invite input').first().inputValue();
  await bob.page.goto(link);
  await bob.page.fill('[role="dialog"] input[type="text"]', 'Bob');
  await bob.page.click('[data-testid="join"]');
  await bob.page.waitForFunction(() => document.querySelector('[data-testid="conn"]')?.textContent === 'live');
  await alice.page.locator('[data-testid="resign"]').waitFor();
  await alice.page.click('[data-testid="resign"]');
  await alice.page.click('[data-testid="resign-confirm"]');
  // The game's rule (HG-17's dropper): the resigner is out, the game goes on.
  const url = new URL(alice.page.url());
  const id = url.pathname.split('/')[2];
  await alice.page.waitForFunction(async (table) => {
    const t = await (await fetch(`/api/tables/${table}`)).json();
    return t.state.observation.players[0].active === false;
  }, id);
  const table = await (await fetch(`${env.server.url}/api/tables/${id}`)).json();
  assert.equal(table.status, 'playing', 'Bob and the computer play on');
  assert.equal(table.ending, null);
  // Bob's move list says it, in words.
  await bob.page.waitForFunction(() => [...document.querySelectorAll('[data-testid="log-move"]')].some((li) => /Guest: resigns/.test(li.textContent || '')));
  await shot(bob.page, 'resigned-three-players');
  for (const who of [alice, bob]) {
    assert.deepEqual(who.errors, []);
    await who.context.close();
  }
});

test('the creator closes a table before it starts; nobody else sees the button', async () => {
  const alice = await newPage(env.browser, 'desktop');
  const bob = await newPage(env.browser, 'phone');
  await createInLobby(alice.page, env.server.url, 'lager', {}, ['you', 'open']);
  const link = await alice.page.locator('.invite input').first().inputValue();
  await bob.page.goto(link);
  await bob.page.locator('[data-testid="join"]').waitFor();
  await bob.page.click('text=Just watch');
  assert.equal(await bob.page.locator('[data-testid="close-table"]').count(), 0, 'only the creator may close');

  await alice.page.locator('[data-testid="close-table"]').waitFor();
  assert.equal(await alice.page.locator('[data-testid="resign"]').count(), 0, 'nothing to resign before the start');
  await shot(alice.page, 'close-table-button');
  await alice.page.click('[data-testid="close-table"]');
  await alice.page.locator('[data-testid="table-closed"]').waitFor();
  await shot(alice.page, 'table-closed');
  const table = await tableOf(alice.page.url());
  assert.equal(table.status, 'finished');
  assert.equal(table.ending.reason, 'closed');
  // The watcher is told too, and can no longer join.
  await bob.page.locator('[data-testid="table-closed"]').waitFor();
  assert.equal(await bob.page.locator('.seats button', { hasText: 'Join' }).count(), 0);
  await shot(bob.page, 'table-closed-phone');
  for (const who of [alice, bob]) {
    assert.deepEqual(who.errors, []);
    await who.context.close();
  }
});

test('"Continue on another device" gives a link that plays the same seat elsewhere', async () => {
  const desk = await newPage(env.browser, 'desktop');
  const phone = await newPage(env.browser, 'phone');
  await createInLobby(desk.page, env.server.url, 'tawla', {}, ['you', 'ai']);
  await desk.page.click('[data-testid="seat-link"]');
  const field = desk.page.locator('.seat-url input');
  await field.waitFor();
  const url = await field.inputValue();
  assert.match(url, /\/t\/[0-9a-f]{24}\?seat=0#token=[0-9a-f]{64}$/);
  await shot(desk.page, 'seat-link');

  // The phone opens the link: it holds seat 0 (not a spectator), the token
  // leaves the address bar, and it plays a move there.
  await phone.page.goto(url);
  await phone.page.waitForSelector('.board-svg');
  assert.doesNotMatch(phone.page.url(), /token/);
  assert.doesNotMatch(await phone.page.locator('.seats').locator('..').locator('h2').textContent() || '', /watching/);
  await myTurn(phone.page);
  let seed = 5;
  const random = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
  const before = Number(await phone.page.locator('.board-wrap').getAttribute('data-version'));
  await playOneMove(phone.page, random);
  // The desktop sees the move made on the phone.
  await desk.page.waitForFunction((v) => Number(document.querySelector('.board-wrap')?.getAttribute('data-version')) > v, before);
  await shot(phone.page, 'seat-link-phone');
  for (const who of [desk, phone]) {
    assert.deepEqual(who.errors, []);
    await who.context.close();
  }
});
