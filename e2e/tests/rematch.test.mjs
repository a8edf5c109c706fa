// @ts-check
/**
 * A rematch takes every player of the finished table along: one player
 * asks, the other is told on his open page and takes his kept seat with one
 * click, the computer sits in its seat again, and a spectator is offered
 * the new table to watch; nobody needs a new invite link.
 */

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { seriousViolations } from '../lib/a11y.mjs';
import { createInLobby, newPage, serverAndBrowser, shot } from '../lib/harness.mjs';

/** The server and the browser of this file's tests. */
const env = serverAndBrowser();

/** @param {string} url */
const tableId = (url) => /** @type {string} */ (new URL(url).pathname.split('/')[2]);

/** @param {string} id */
const tableOf = async (id) => (await fetch(`${env.server.url}/api/tables/${id}`)).json();

test('a rematch asked for by one player brings the other and offers the spectator to watch', async () => {
  const alice = await newPage(env.browser, 'desktop');
  const bob = await newPage(env.browser, 'phone');
  const carol = await newPage(env.browser, 'desktop');
  await createInLobby(alice.page, env.server.url, 'stortok', { players: '3' }, ['you', 'open', 'ai']);
  const link = await alice.page.locator('.invite input').first().inputValue();
  const oldId = tableId(alice.page.url());
  await bob.page.goto(link);
  await bob.page.click('[data-testid="join"]');
  await bob.page.waitForFunction(() => document.querySelector('[data-testid="conn"]')?.textContent === 'live');
  await carol.page.goto(`${env.server.url}/t/${oldId}`);
  await carol.page.waitForFunction(() => document.querySelector('[data-testid="conn"]')?.textContent === 'live');

  // Alice resigns; everyone sees the end.
  await alice.page.click('[data-testid="resign"]');
  await alice.page.click('[data-testid="resign-confirm"]');
  for (const who of [alice, bob, carol]) await who.page.locator('[data-testid="game-over"]').waitFor();
  assert.equal(await carol.page.locator('[data-testid="rematch"]').count(), 0, 'a spectator has no rematch to ask for');

  // Alice asks for the rematch and lands at the new table in her seat.
  await alice.page.click('[data-testid="rematch"]');
  await alice.page.waitForURL((u) => /^\/t\/[0-9a-f]+$/.test(u.pathname) && !u.pathname.includes(oldId));
  const newId = tableId(alice.page.url());
  await alice.page.waitForSelector('.board-svg');
  await alice.page.locator('[data-testid="rematch-kept"]').waitFor();
  assert.equal(await alice.page.locator('.invite').count(), 0, 'no invite link: the seat is kept for Bob');

  // Bob, on the old table's page, is told who asked and joins with a click.
  const offer = bob.page.locator('[data-testid="rematch-offer"]');
  await offer.waitFor();
  assert.match(await offer.textContent() || '', /asks for a rematch/);
  assert.equal(await bob.page.locator('[data-testid="rematch"]').textContent(), 'Join the rematch');
  await shot(bob.page, 'rematch-offer-phone');
  assert.deepEqual(await seriousViolations(bob.page), []);
  await bob.page.click('[data-testid="rematch"]');
  await bob.page.waitForURL((u) => u.pathname === `/t/${newId}`);
  await bob.page.waitForFunction(() => document.querySelector('[data-testid="conn"]')?.textContent === 'live');

  // The new table: both people in their old seats, the computer in its own.
  const table = await tableOf(newId);
  assert.equal(table.rematch_of, oldId);
  assert.equal(table.status, 'playing');
  assert.deepEqual(table.seats.map((/** @type {any} */ s) => s.kind), ['human', 'human', 'ai']);
  await alice.page.waitForFunction(() => !document.querySelector('[data-testid="game-over"]') && document.querySelector('.seats'));

  // Carol is offered the new table to watch.
  const watch = carol.page.locator('[data-testid="watch-rematch"]');
  await watch.waitFor();
  assert.match(await carol.page.locator('[data-testid="rematch-offer"]').textContent() || '', /play again/);
  await shot(carol.page, 'rematch-spectator-desktop');
  await watch.click();
  await carol.page.waitForURL((u) => u.pathname === `/t/${newId}`);
  await carol.page.waitForSelector('.board-svg');
  assert.equal(await carol.page.locator('[data-testid="join"]').count(), 0);
  await shot(alice.page, 'rematch-desktop');

  for (const who of [alice, bob, carol]) {
    assert.deepEqual(who.errors, []);
    await who.context.close();
  }
});
