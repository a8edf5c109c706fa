// @ts-check
/**
 * Accessibility: axe-core finds no serious or critical violation on the
 * lobby (in English and, right to left, in Arabic), on every board at the
 * player's first turn (desktop and phone), on the game-over view and on
 * the replay.
 */

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createInLobby, newPage, serverAndBrowser, shot } from '../lib/harness.mjs';
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

// High-O Gammon's rest fields (the corners) hold stones of several players;
// the counts drawn on them are no part of a target's name (axe's
// label-content-name-mismatch read the drawn "2" and "3" together as "23",
// which the name "2 Red, 3 Blue" does not hold). The board of a live table
// is drawn again with every corner holding 2 stones of the first player and
// 3 of the second.
test('High-O Gammon: rest fields holding stones of two players', async () => {
  const { context, page, errors } = await newPage(env.browser, 'desktop');
  await createInLobby(page, env.server.url, 'high-gammon', {}, ['you', 'ai']);
  await page.waitForFunction(() => document.querySelector('.status-bar')?.classList.contains('your-turn'), null, { timeout: 60000 });
  const drawn = await page.evaluate(async () => {
    // The client's own modules, as the page loads them (a path the type check does not follow).
    const js = '/js/';
    const { uiFor } = await import(js + 'games/index.js');
    const api = await import(js + 'api.js');
    const info = await api.getTable(location.pathname.split('/').pop() || '', null);
    const obs = structuredClone(info.state.observation);
    for (const code of [7, 14, 21, 28]) obs.fields[code - 1] = obs.fields[code - 1].map((/** @type {number} */ _, /** @type {number} */ p) => (p < 2 ? p + 2 : 0));
    const svg = uiFor('high-gammon').render({ obs, legal: [], seat: 0, names: ['A', 'B'], pick: { steps: [], selected: null } });
    /** @type {Element} */ (document.querySelector('.board-wrap')).replaceChildren(svg);
    return [...svg.querySelectorAll('[data-target="f:14"]')].map((el) => el.getAttribute('aria-label'));
  });
  assert.equal(drawn.length, 1, 'the rest field 14 drawn');
  assert.match(drawn[0] || '', /2 .*3 /, `its name says both counts: ${drawn[0]}`);
  await shot(page, 'a11y-high-gammon-rest-fields');
  assert.deepEqual(await seriousViolations(page), []);
  assert.deepEqual(errors, []);
  await context.close();
});

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
