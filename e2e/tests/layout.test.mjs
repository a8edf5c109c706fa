// @ts-check
/**
 * Layout at a laptop's 1366×800 and a phone's 390×844: the lobby's main
 * button, and at the player's first turn in every game the move buttons
 * (Confirm, Undo, Hint, the actions off the board), are on the screen
 * without scrolling; buttons and fields are at least 44 px tall to tap.
 * Screenshots of every board at both sizes: `layout-{game}-{size}.png`.
 */

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createInLobby, newPage, serverAndBrowser, shot, SIZES } from '../lib/harness.mjs';

/** The server and the browser of this file's tests. */
const env = serverAndBrowser();

/** @type {Record<string, string[]>} */
const GAMES = {
  tawla: ['you', 'ai'],
  backgammon: ['you', 'ai'],
  'high-gammon': ['you', 'ai'],
  'tric-trac': ['you', 'ai'],
  stumphog: ['you', 'ai'],
  stortok: ['you', 'ai', 'ai'],
  lager: ['you', 'ai'],
};

/**
 * The elements matching `selector` that are shown but not wholly inside
 * the window as it stands (unscrolled), and those under 44 px tall.
 * @param {import('playwright-core').Page} page @param {string} selector
 */
async function outOfSight(page, selector) {
  return page.evaluate((sel) => {
    const out = [];
    const small = [];
    for (const el of document.querySelectorAll(sel)) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 && r.height === 0) continue;
      const name = `${el.tagName.toLowerCase()} "${(el.textContent || el.getAttribute('aria-label') || '').trim().slice(0, 30)}"`;
      if (r.top < 0 || r.left < 0 || r.bottom > window.innerHeight || r.right > window.innerWidth) out.push(`${name} at ${Math.round(r.top)}–${Math.round(r.bottom)}`);
      if (r.height < 44) small.push(`${name} ${Math.round(r.height)} px`);
    }
    return { out, small, scrolled: window.scrollY };
  }, selector);
}

for (const size of /** @type {const} */ (['desktop', 'phone'])) {
  test(`${size}: the lobby's main button is on the screen`, async () => {
    const { context, page, errors } = await newPage(env.browser, size);
    await page.goto(env.server.url + '/');
    await page.waitForSelector('.game-card');
    const seen = await outOfSight(page, '[data-testid="create"]');
    assert.deepEqual(seen.out, [], 'the Create button is in sight');
    assert.deepEqual(seen.small, []);
    assert.deepEqual(errors, []);
    await context.close();
  });

  for (const [game, seats] of Object.entries(GAMES)) {
    test(`${size}: ${game}: every move button in sight at the first turn, big enough to tap`, async () => {
      const { context, page, errors } = await newPage(env.browser, size);
      await createInLobby(page, env.server.url, game, {}, seats);
      await page.waitForFunction(() => document.querySelector('.status-bar')?.classList.contains('your-turn')
        && document.querySelectorAll('.controls button').length > 0, null, { timeout: 60000 });
      // Buttons that would move: choose a piece, so that Undo and Confirm show.
      const src = page.locator('.board-svg [data-state="src"]');
      if (await src.count()) await src.first().focus();
      await page.evaluate(() => window.scrollTo(0, 0));
      const seen = await outOfSight(page, '.controls button, .controls select');
      await shot(page, `layout-${game}-${size}`);
      assert.ok(await page.locator('.controls button').count() > 0);
      assert.deepEqual(seen.out, [], `${game} at ${size}: move buttons in sight`);
      const fields = await outOfSight(page, 'main button, main select, main input:not([type=range]), main a.btn');
      assert.deepEqual(fields.small, [], `${game} at ${size}: tap targets of 44 px`);
      assert.deepEqual(errors, []);
      await context.close();
    });
  }
}

// Board targets on a phone, measured: Stumphög's piles and Läger's squares
// and tray stones are at least 44 px each way.
for (const game of ['stumphog', 'lager']) {
  test(`phone: ${game}: every board target at least 44 × 44 px`, async () => {
    const { context, page, errors } = await newPage(env.browser, 'phone');
    await createInLobby(page, env.server.url, game, {}, GAMES[game]);
    await page.waitForFunction(() => document.querySelector('.status-bar')?.classList.contains('your-turn')
      && document.querySelector('.board-svg [data-state="src"]'), null, { timeout: 60000 });
    const small = await page.evaluate(() => [...document.querySelectorAll('.board-svg [data-target]')]
      .map((el) => ({ id: el.getAttribute('data-target'), r: el.getBoundingClientRect() }))
      .filter(({ r }) => r.width < 44 || r.height < 44)
      .map(({ id, r }) => `${id} ${Math.round(r.width)}×${Math.round(r.height)}`));
    assert.ok(await page.locator('.board-svg [data-target]').count() > 10);
    assert.deepEqual(small, [], `${game}: targets under 44 px`);
    assert.deepEqual(errors, []);
    await context.close();
  });
}
