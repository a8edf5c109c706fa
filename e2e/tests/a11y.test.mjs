// @ts-check
/**
 * Accessibility: axe-core finds no serious or critical violation on the
 * lobby (in English and, right to left, in Arabic), on every board at the
 * player's first turn (desktop and phone), on the game-over view and on
 * the replay.
 */

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createInLobby, newPage, serverAndBrowser } from '../lib/harness.mjs';
import { seriousViolations } from '../lib/a11y.mjs';

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

for (const lang of ['en', 'ar']) {
  test(`the lobby (${lang})`, async () => {
    const { context, page, errors } = await newPage(env.browser, 'desktop', { lang });
    await page.goto(env.server.url + '/');
    await page.waitForSelector('.game-card');
    assert.deepEqual(await seriousViolations(page), []);
    assert.deepEqual(errors, []);
    await context.close();
  });
}

for (const size of /** @type {const} */ (['desktop', 'phone'])) {
  test(`every board at the first turn (${size})`, async () => {
    const { context, page, errors } = await newPage(env.browser, size);
    for (const [game, seats] of Object.entries(GAMES)) {
      await createInLobby(page, env.server.url, game, {}, seats);
      await page.waitForFunction(() => document.querySelector('.status-bar')?.classList.contains('your-turn')
        && document.querySelectorAll('.controls button').length > 0, null, { timeout: 60000 });
      const src = page.locator('.board-svg [data-state="src"]');
      if (await src.count()) await src.first().focus();
      assert.deepEqual(await seriousViolations(page), [], `${game} at ${size}`);
    }
    assert.deepEqual(errors, []);
    await context.close();
  });
}

test('the game-over view and the replay', async () => {
  const { context, page, errors } = await newPage(env.browser, 'desktop');
  await createInLobby(page, env.server.url, 'backgammon', {}, ['you', 'ai']);
  await page.waitForFunction(() => document.querySelector('.status-bar')?.classList.contains('your-turn'), null, { timeout: 60000 });
  await page.click('[data-testid="resign"]');
  assert.deepEqual(await seriousViolations(page), [], 'the question before resigning');
  await page.click('[data-testid="resign-confirm"]');
  await page.locator('[data-testid="game-over"]').waitFor();
  assert.deepEqual(await seriousViolations(page), [], 'game over');
  await page.locator('[data-testid="game-over"] a', { hasText: 'Replay' }).click();
  await page.waitForSelector('[data-testid="replay-pos"]');
  await page.waitForFunction(() => !/checking/.test(document.querySelector('[data-testid="dice"]')?.textContent || 'checking'));
  assert.deepEqual(await seriousViolations(page), [], 'replay');
  assert.deepEqual(errors, []);
  await context.close();
});
