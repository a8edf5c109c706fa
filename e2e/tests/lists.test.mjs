// @ts-check
/**
 * Strangers: a table its creator shows in the lobby is in the list of open
 * tables; a second browser takes its open seat from there; once every seat
 * is taken it moves to the live games, where a third browser watches it. A
 * table not shown stays out of both lists.
 */

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newPage, serverAndBrowser, shot } from '../lib/harness.mjs';

/** The server and the browser of this file's tests. */
const env = serverAndBrowser();

/**
 * Creates a Tawla table with an open seat, shown in the lobby or not;
 * returns its id.
 * @param {import('playwright-core').Page} page @param {boolean} listed
 */
async function createTawla(page, listed) {
  await page.goto(env.server.url + '/');
  await page.click('[data-game="tawla"]');
  await page.selectOption('#seat-0', 'you');
  await page.selectOption('#seat-1', 'open');
  await page.setChecked('[data-testid="listed"]', listed);
  await page.click('[data-testid="create"]');
  await page.waitForURL(/\/t\/[0-9a-f]+/);
  return /** @type {string} */ (/\/t\/([0-9a-f]+)/.exec(page.url())?.[1]);
}

test('an open table shown in the lobby is joined by a stranger, then watched as a live game', async () => {
  const alice = await newPage(env.browser, 'desktop');
  const hidden = await createTawla(alice.page, false);
  const shown = await createTawla(alice.page, true);

  const bob = await newPage(env.browser, 'desktop');
  await bob.page.goto(env.server.url + '/');
  const row = bob.page.locator(`[data-testid="open-tables"] li[data-table="${shown}"]`);
  await row.waitFor();
  assert.equal(await bob.page.locator(`[data-testid="open-tables"] li[data-table="${hidden}"]`).count(), 0, 'a table not shown is not listed');
  assert.match(await row.textContent() || '', /Tawla/);
  await shot(bob.page, 'lists-open');
  await row.locator('[data-testid="join-listed"]').click();
  await bob.page.click('[data-testid="join"]');
  await bob.page.waitForFunction(() => document.querySelector('.seats')?.textContent?.includes('You'));

  const carol = await newPage(env.browser, 'desktop');
  await carol.page.goto(env.server.url + '/');
  const live = carol.page.locator(`[data-testid="live-tables"] li[data-table="${shown}"]`);
  await live.waitFor();
  assert.equal(await carol.page.locator(`[data-testid="open-tables"] li[data-table="${shown}"]`).count(), 0, 'no longer open');
  await live.locator('[data-testid="watch-listed"]').click();
  await carol.page.waitForSelector('.board-svg');
  assert.match(await carol.page.locator('.seats').locator('..').locator('h2').textContent() || '', /watching/);
  for (const p of [alice, bob, carol]) {
    assert.deepEqual(p.errors, []);
    await p.context.close();
  }
});
