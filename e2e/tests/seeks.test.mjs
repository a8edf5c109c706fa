// @ts-check
/**
 * The live lobby in two (or three) browsers: a casual Tawla seek with
 * 1 min + 2 s posted by A appears in B's lobby without a reload, B accepts
 * it with one click and both land at the same table; two guests queue for
 * the same quick-pairing pool and get one table; a queue left with Cancel.
 * Screenshots of the lobby with seeks: `seeks-desktop.png`,
 * `seeks-phone.png`, `seeks-fa-desktop.png`, `seeks-fa-phone.png`.
 */

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newPage, serverAndBrowser, shot, shownMs } from '../lib/harness.mjs';

/** The server and the browser of this file's tests. */
const env = serverAndBrowser();

/**
 * Opens the lobby and waits until its socket has sent the first snapshot
 * (the seeks list is drawn and no connection line is shown).
 * @param {import('playwright-core').Page} page
 */
async function openLobby(page) {
  await page.goto(env.server.url + '/');
  await page.waitForSelector('[data-testid="seeks"]');
  await page.waitForFunction(() => document.querySelector('[data-testid="lobby-status"]')?.textContent === '');
  // A mark that a reload would wipe out.
  await page.evaluate(() => { /** @type {any} */ (window).sameLobby = true; });
}

/**
 * Posts a seek from the lobby's form.
 * @param {import('playwright-core').Page} page @param {string} game @param {string} clock a preset's id
 */
async function postSeek(page, game, clock) {
  await page.click('[data-testid="seek-form-open"]');
  await page.selectOption('#seek-game', game);
  await page.selectOption('#seek-clock', clock);
  await page.click('[data-testid="post-seek"]');
  return page.locator('[data-testid="seeks"] li.own').first();
}

/** The table's id in the page's address. @param {import('playwright-core').Page} page */
async function tableOf(page) {
  await page.waitForURL(/\/t\/[0-9a-f]+/);
  await page.waitForSelector('.board-svg');
  return /** @type {string} */ (/\/t\/([0-9a-f]+)/.exec(page.url())?.[1]);
}

test('a casual Tawla seek of 1 min + 2 s appears live in another browser, is accepted with one click, and both land at the table', async () => {
  const alice = await newPage(env.browser, 'desktop');
  const bob = await newPage(env.browser, 'desktop');
  await openLobby(alice.page);
  await openLobby(bob.page);

  const own = await postSeek(alice.page, 'tawla', '1+2');
  await own.waitFor();
  assert.match(await own.textContent() || '', /1 min \+ 2 s/);
  assert.equal(await own.locator('[data-testid="withdraw-seek"]').count(), 1, 'one\'s own seek is withdrawn, not accepted');
  const seekId = await own.getAttribute('data-seek');

  const row = bob.page.locator(`[data-testid="seeks"] li[data-seek="${seekId}"]`);
  await row.waitFor({ timeout: 5000 });
  const text = await row.textContent() || '';
  assert.match(text, /Tawla/);
  assert.match(text, /1 min \+ 2 s/);
  assert.match(text, /Casual/);
  assert.equal(await bob.page.evaluate(() => /** @type {any} */ (window).sameLobby), true, 'the seek came without a reload');
  await shot(bob.page, 'seeks-desktop');

  await row.locator('[data-testid="accept-seek"]').click();
  const [atAlice, atBob] = await Promise.all([tableOf(alice.page), tableOf(bob.page)]);
  assert.equal(atAlice, atBob, 'both at the same table');
  // Each holds a seat there (its token kept as a join keeps it).
  for (const p of [alice, bob]) {
    await p.page.waitForFunction(() => document.querySelector('.seats')?.textContent?.includes('You'));
  }
  // Both clocks are shown at 1 min + 2 s; the one of the seat to move
  // counts down on both screens, the other stands still.
  const table = await (await fetch(`${env.server.url}/api/tables/${atAlice}`)).json();
  assert.equal(table.clock.initial_s, 60);
  assert.equal(table.clock.increment_s, 2);
  const mover = table.clock.running;
  assert.ok(mover === 0 || mover === 1, `a running clock: ${JSON.stringify(table.clock)}`);
  for (const p of [alice, bob]) {
    await p.page.locator(`[data-testid="clock-${mover}"].running`).waitFor();
    const before = [await shownMs(p.page, 0), await shownMs(p.page, 1)];
    await p.page.waitForTimeout(1_500);
    const after = [await shownMs(p.page, 0), await shownMs(p.page, 1)];
    assert.ok(after[mover] <= before[mover] - 1_000, `the running clock went ${before[mover]} → ${after[mover]}`);
    assert.equal(after[1 - mover], before[1 - mover], 'the other clock stands still');
  }
  // The seek is gone from the lobby once taken.
  const carol = await newPage(env.browser, 'desktop');
  await openLobby(carol.page);
  assert.equal(await carol.page.locator(`[data-testid="seeks"] li[data-seek="${seekId}"]`).count(), 0);
  for (const p of [alice, bob, carol]) {
    assert.deepEqual(p.errors, []);
    await p.context.close();
  }
});

test('two guests queue for the same quick-pairing pool and get one table; Cancel leaves the queue', async () => {
  const carol = await newPage(env.browser, 'phone');
  await openLobby(carol.page);
  const pool = carol.page.locator('[data-testid="pools"] [data-pool]').first();
  await pool.waitFor();
  const poolId = /** @type {string} */ (await pool.getAttribute('data-pool'));
  await pool.click();
  await carol.page.waitForSelector('[data-testid="cancel-queue"]');
  assert.equal(await pool.getAttribute('aria-pressed'), 'true');
  await carol.page.click('[data-testid="cancel-queue"]');
  await carol.page.waitForFunction(() => !document.querySelector('[data-testid="cancel-queue"]'));
  assert.equal(await pool.isEnabled(), true, 'the pools can be chosen again');

  const alice = await newPage(env.browser, 'desktop');
  const bob = await newPage(env.browser, 'phone');
  await openLobby(alice.page);
  await openLobby(bob.page);
  await alice.page.click(`[data-pool="${poolId}"]`);
  await alice.page.waitForSelector('[data-testid="cancel-queue"]');
  await bob.page.click(`[data-pool="${poolId}"]`);
  const [atAlice, atBob] = await Promise.all([tableOf(alice.page), tableOf(bob.page)]);
  assert.equal(atAlice, atBob, 'one table for the two');
  assert.equal(carol.page.url(), env.server.url + '/', 'the one who cancelled was not paired');
  for (const p of [alice, bob, carol]) {
    assert.deepEqual(p.errors, []);
    await p.context.close();
  }
});

test('the lobby with seeks on a phone and in Persian: seeks and quick pairing near the top, the filter remembered', async () => {
  const poster = await newPage(env.browser, 'desktop');
  await openLobby(poster.page);
  await (await postSeek(poster.page, 'tawla', '1+2')).waitFor();
  await poster.page.selectOption('#seek-game', 'backgammon');
  await poster.page.selectOption('#seek-clock', 'd12');
  await poster.page.click('[data-testid="post-seek"]');
  await poster.page.locator('[data-testid="seeks"] li.own').nth(1).waitFor();

  for (const [size, lang] of /** @type {const} */ ([['phone', 'en'], ['phone', 'fa'], ['desktop', 'fa']])) {
    const viewer = await newPage(env.browser, size, { lang });
    await openLobby(viewer.page);
    await viewer.page.locator('[data-testid="seeks"] [data-testid="accept-seek"]').nth(1).waitFor();
    if (lang === 'fa') assert.equal(await viewer.page.evaluate(() => document.documentElement.dir), 'rtl');
    const top = await viewer.page.locator('.seeks-panel').evaluate((el) => el.getBoundingClientRect().top);
    const pairingTop = await viewer.page.locator('.pairing-panel').evaluate((el) => el.getBoundingClientRect().top);
    assert.ok(top < 900 && pairingTop < 600, `seeks at ${top} px and quick pairing at ${pairingTop} px from the top`);
    await shot(viewer.page, lang === 'en' ? `seeks-${size}` : `seeks-${lang}-${size}`);
    // Only Tawla's seeks, remembered over a reload.
    await viewer.page.click('[data-filter="tawla"]');
    await viewer.page.waitForFunction(() => document.querySelectorAll('[data-testid="seeks"] [data-testid="accept-seek"]').length === 1);
    await viewer.page.reload();
    await viewer.page.waitForSelector('[data-testid="seeks"] [data-testid="accept-seek"]');
    assert.equal(await viewer.page.isChecked('[data-filter="tawla"]'), true);
    assert.equal(await viewer.page.locator('[data-testid="seeks"] [data-testid="accept-seek"]').count(), 1);
    assert.deepEqual(viewer.errors, []);
    await viewer.context.close();
  }
  for (let left = 2; left > 0; left--) {
    await poster.page.locator('[data-testid="withdraw-seek"]').first().click();
    await poster.page.waitForFunction((n) => document.querySelectorAll('[data-testid="withdraw-seek"]').length === n - 1, left);
  }
  assert.deepEqual(poster.errors, []);
  await poster.context.close();
});
