// @ts-check
/**
 * Clocks at the table: a table made in the lobby with a time control shows
 * every seat's clock; the clock of the seat to move counts down and the
 * other's does not; in low time the running clock warns (a screenshot is
 * saved as `clock-low-time`).
 */

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newPage, serverAndBrowser, shot, shownMs } from '../lib/harness.mjs';

/** The server and the browser of this file's tests. */
const env = serverAndBrowser();

/** @param {string} url */
const tableId = (url) => /** @type {string} */ (new URL(url).pathname.split('/')[2]);

/** @param {string} id */
const tableOf = async (id) => (await fetch(`${env.server.url}/api/tables/${id}`)).json();


test('the clock of the seat to move counts down and the other does not', async () => {
  const alice = await newPage(env.browser, 'desktop');
  const bob = await newPage(env.browser, 'phone');
  await alice.page.goto(env.server.url + '/');
  await alice.page.click('[data-game="tawla"]');
  // The lobby's "1 min + 2 s".
  const options = await alice.page.locator('#clock option').allTextContents();
  const index = options.findIndex((o) => o === '1 min + 2 s');
  assert.ok(index >= 0, `a 1 min + 2 s choice among ${options.join(', ')}`);
  await alice.page.selectOption('#clock', String(index));
  await alice.page.selectOption('#seat-1', 'open');
  await alice.page.click('[data-testid="create"]');
  await alice.page.waitForURL(/\/t\/[0-9a-f]+/);
  const id = tableId(alice.page.url());
  const link = await alice.page.locator('.invite input').first().inputValue();
  await bob.page.goto(link);
  await bob.page.click('[data-testid="join"]');
  await bob.page.waitForFunction(() => document.querySelector('[data-testid="conn"]')?.textContent === 'live');

  const table = await tableOf(id);
  assert.equal(table.clock.initial_s, 60);
  assert.equal(table.clock.increment_s, 2);
  const mover = table.state.turn.seat;
  assert.equal(table.clock.running, mover);
  const other = 1 - mover;
  for (const who of [alice, bob]) {
    await who.page.locator(`[data-testid="clock-${mover}"].running`).waitFor();
    assert.match(await who.page.locator('[data-testid="clock-control"]').textContent() || '', /1 min \+ 2 s/);
  }
  const before = [await shownMs(alice.page, mover), await shownMs(alice.page, other)];
  await alice.page.waitForTimeout(2_200);
  const after = [await shownMs(alice.page, mover), await shownMs(alice.page, other)];
  assert.ok(after[0] <= before[0] - 1_000, `the running clock went ${before[0]} → ${after[0]}`);
  assert.equal(after[1], before[1], 'the other clock stands still');
  assert.equal(after[1], 60_000);
  // Bob's phone shows the same running clock, within a second.
  assert.ok(Math.abs(await shownMs(bob.page, mover) - after[0]) <= 1_000);
  assert.deepEqual(alice.errors, []);
  assert.deepEqual(bob.errors, []);
  await alice.context.close();
  await bob.context.close();
});

test('a clock in low time warns, and the flag ends the game on time', async () => {
  const post = async (/** @type {string} */ path, /** @type {any} */ body) => {
    const r = await fetch(`${env.server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return r.json();
  };
  const created = await post('/api/tables', { game: 'backgammon', clock: { initial_s: 12, delay_s: 1 } });
  const seat0 = await post(`/api/tables/${created.id}/join`, { seat: 0, name: 'Ada' });
  await post(`/api/tables/${created.id}/join`, { seat: 1, name: 'Bo' });
  const started = Date.now();
  const viewer = await newPage(env.browser, 'desktop');
  await viewer.page.goto(`${env.server.url}/t/${created.id}?seat=0#token=${seat0.token}`);
  await viewer.page.waitForFunction(() => document.querySelector('[data-testid="conn"]')?.textContent === 'live');
  const mover = (await tableOf(created.id)).state.turn.seat;
  const low = viewer.page.locator(`[data-testid="clock-${mover}"].low`);
  await low.waitFor({ timeout: 8_000 });
  assert.ok(Date.now() - started >= 2_500, 'not low before 10 s are left (after the delay)');
  await viewer.page.waitForTimeout(1_500);
  await shot(viewer.page, 'clock-low-time');
  const flagged = viewer.page.locator('[data-testid="game-over"]');
  await flagged.waitFor({ timeout: 12_000 });
  assert.match(await viewer.page.locator('body').textContent() || '', /ran out of time/);
  const ended = await tableOf(created.id);
  assert.equal(ended.ending.reason, 'time');
  assert.equal(ended.ending.seat, mover);
  assert.deepEqual(viewer.errors, []);
  await viewer.context.close();
});
