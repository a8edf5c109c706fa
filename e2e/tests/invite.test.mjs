// @ts-check
/**
 * Two people play each other through an invite link, each in his own
 * browser context, while a third watches; the running table shows in the
 * creator's lobby; no console errors.
 */

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createInLobby, newPage, playOneMove, serverAndBrowser, shot } from '../lib/harness.mjs';

/** The server and the browser of this file's tests. */
const env = serverAndBrowser();

/** @param {import('playwright-core').Page} page */
const myTurn = (page) => page.evaluate(() => {
  const bar = document.querySelector('.status-bar');
  return !!bar && bar.classList.contains('your-turn') && !document.querySelector('.controls .muted');
});

/** @param {import('playwright-core').Page} page */
const isOver = async (page) => (await page.locator('[data-testid="game-over"]').count()) > 0;

test('two browsers play Läger to the end through an invite link, a third watches', async () => {
  const alice = await newPage(env.browser, 'desktop');
  const bob = await newPage(env.browser, 'phone');
  const carol = await newPage(env.browser, 'desktop');
  await createInLobby(alice.page, env.server.url, 'lager', { max_plies: '20' }, ['you', 'open']);
  const link = await alice.page.locator('.invite input').first().inputValue();
  assert.match(link, /\/t\/[0-9a-f]+\?seat=1$/);
  await shot(alice.page, 'invite-desktop');

  // Bob opens the link and takes the seat.
  await bob.page.goto(link);
  await bob.page.click('[data-testid="join"]');
  await bob.page.waitForFunction(() => !document.querySelector('[data-testid="join"]') && document.querySelector('[data-testid="conn"]')?.textContent === 'live');
  // Alice sees that the seat is taken.
  await alice.page.waitForFunction(() => !document.querySelector('.invite'));

  // Carol watches without a seat.
  await carol.page.goto(link.replace(/\?seat=1$/, ''));
  await carol.page.waitForSelector('.board-svg');
  assert.match(await carol.page.locator('.seats').locator('..').locator('h2').textContent() || '', /watching/);

  let seed = 3;
  const random = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
  let plies = 0;
  let waits = 0;
  // max_plies=20: the game ends within 20 plies.
  while (!(await isOver(alice.page)) && plies <= 20) {
    const mover = (await myTurn(alice.page)) ? alice : (await myTurn(bob.page)) ? bob : null;
    if (!mover) {
      waits += 1;
      assert.ok(waits < 1200, 'neither player could move');
      await alice.page.waitForTimeout(50);
      continue;
    }
    waits = 0;
    await playOneMove(mover.page, random);
    plies += 1;
    if (plies === 6) {
      await shot(bob.page, 'invite-phone');
      await shot(carol.page, 'spectator-desktop');
    }
    if (plies === 4) {
      // The server restarts: every page reconnects and the game goes on.
      await env.server.restart();
      for (const who of [alice, bob, carol]) {
        await who.page.waitForFunction(() => document.querySelector('[data-testid="conn"]')?.textContent === 'live', null, { timeout: 30000 });
        // While the server was down, the browser reported the failed reconnection attempts.
        const kept = who.errors.filter((e) => !/WebSocket connection to .* failed|ERR_CONNECTION_REFUSED/.test(e));
        who.errors.splice(0, who.errors.length, ...kept);
      }
    }
  }
  assert.ok(await isOver(alice.page), 'the game ended');
  await bob.page.locator('[data-testid="game-over"]').waitFor();
  await carol.page.locator('[data-testid="game-over"]').waitFor();
  assert.ok(plies >= 2, 'both played');
  const aliceLog = await alice.page.locator('.log li').count();
  assert.ok(aliceLog >= plies, 'every move is in the log');

  for (const who of [alice, bob, carol]) {
    assert.deepEqual(who.errors, []);
    await who.context.close();
  }
});

test("a player's running tables show in the lobby", async () => {
  const { context, page, errors } = await newPage(env.browser, 'desktop');
  await createInLobby(page, env.server.url, 'stumphog', {}, ['you', 'open']);
  await page.goto(env.server.url + '/');
  await page.waitForSelector('[data-testid="my-tables"] li');
  assert.ok(await page.locator('[data-testid="my-tables"] li').filter({ hasText: 'Stumphög' }).count() >= 1);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a dice game waiting for its second player says whom it waits for, not that it rolls', async () => {
  const alice = await newPage(env.browser, 'desktop');
  await createInLobby(alice.page, env.server.url, 'backgammon', {}, ['you', 'open']);
  await alice.page.locator('.invite input').first().waitFor();
  const bar = alice.page.locator('.status-bar');
  await alice.page.waitForFunction(() => /Waiting for a player/.test(document.querySelector('.status-bar')?.textContent || ''), null, { timeout: 10000 });
  assert.doesNotMatch(await bar.textContent() || '', /rolling/);
  assert.deepEqual(alice.errors, []);
  await alice.context.close();
});
