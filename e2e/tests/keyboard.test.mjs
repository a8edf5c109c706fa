// @ts-check
/**
 * Keyboard play: a whole move is made by typing the names of the legal
 * choices (a point's number, a square, a card) and Enter, in a few keys
 * per piece, with no mouse; the arrow keys step through the legal
 * choices; the keys are explained on the page. Also the optional sound
 * when the turn comes.
 */

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createInLobby, newPage, serverAndBrowser } from '../lib/harness.mjs';

/** The server and the browser of this file's tests. */
const env = serverAndBrowser();

/** @param {import('playwright-core').Page} page */
async function waitForMyTurn(page) {
  await page.waitForFunction(() => document.querySelector('.status-bar')?.classList.contains('your-turn')
    && !document.querySelector('.controls .muted'), null, { timeout: 60000 });
}

/**
 * Plays one move by typing only: the first destination's name when
 * destinations show, else the first movable piece's, then Enter once the
 * move is whole. Returns the keys pressed, or null when the turn offers
 * no choice on the board at all.
 * @param {import('playwright-core').Page} page
 */
async function playByTyping(page) {
  await page.evaluate(() => /** @type {HTMLElement | null} */ (document.activeElement)?.blur());
  let keys = 0;
  for (let round = 0; round < 12; round++) {
    if (await page.locator('[data-testid="confirm"]:not([disabled])').count()) {
      await page.keyboard.press('Enter');
      return keys + 1;
    }
    const id = await page.evaluate(() => {
      const pick = (/** @type {string} */ sel) => document.querySelector(`.board-svg [data-target]${sel}`)?.getAttribute('data-target');
      return pick('[data-state="dest"]') || pick('[data-state="src"]') || null;
    });
    // A first turn that offers only buttons (Stortok's pick-up): no board choice to type.
    if (!id && round === 0) return null;
    assert.ok(id, 'a legal choice on the board');
    const name = id.slice(id.lastIndexOf(':') + 1).toLowerCase();
    const before = await page.evaluate(() => document.querySelector('.status-sub')?.textContent);
    await page.keyboard.type(name);
    keys += name.length;
    // A name that begins a longer one is taken after a short wait.
    await page.waitForFunction((was) => document.querySelector('.status-sub')?.textContent !== was, before, { timeout: 3000 });
  }
  throw new Error('no whole move after 12 choices');
}

/** @type {Record<string, string[]>} */
const GAMES = {
  tawla: ['you', 'ai'],
  'high-gammon': ['you', 'ai'],
  stortok: ['you', 'ai'],
  lager: ['you', 'ai'],
};

for (const [game, seats] of Object.entries(GAMES)) {
  test(`${game}: a whole move typed in a few keys, no mouse`, async () => {
    const { context, page, errors } = await newPage(env.browser, 'desktop');
    const moves = () => page.locator('[data-testid="log-move"]').filter({ hasText: 'You:' }).count();
    let mine = 0;
    let keys = null;
    // A new table (a new deal) when the first turn has nothing on the board to type.
    for (let table = 0; table < 6 && keys === null; table++) {
      await createInLobby(page, env.server.url, game, {}, seats);
      await waitForMyTurn(page);
      mine = await moves();
      keys = await playByTyping(page);
    }
    assert.ok(keys !== null, `${game}: a first turn with a choice on the board`);
    await page.waitForFunction((n) => document.querySelectorAll('[data-testid="log-move"]').length > 0
      && [...document.querySelectorAll('[data-testid="log-move"]')].filter((li) => li.textContent?.startsWith('You:')).length > n, mine, { timeout: 20000 });
    // Up to two keys a name and Enter: a Tawla play of two checkers is 9 at most.
    assert.ok(keys <= 10, `${game}: ${keys} keys`);
    assert.deepEqual(errors, []);
    await context.close();
  });
}

test('the arrow keys step through the legal choices; the keys are explained', async () => {
  const { context, page, errors } = await newPage(env.browser, 'desktop');
  await createInLobby(page, env.server.url, 'backgammon', {}, ['you', 'ai']);
  await waitForMyTurn(page);
  assert.match(await page.locator('[data-testid="keys-help"]').textContent() || '', /type a point's number/);
  await page.locator('.board-svg [data-state="src"]').first().focus();
  const seen = new Set();
  for (let i = 0; i < 6; i++) {
    const state = await page.evaluate(() => document.activeElement?.getAttribute('data-state'));
    assert.ok(state === 'src' || state === 'dest' || state === 'selected', `focus on a legal choice, not ${state}`);
    seen.add(await page.evaluate(() => document.activeElement?.getAttribute('data-target')));
    await page.keyboard.press('ArrowRight');
  }
  assert.ok(seen.size >= 2, 'the arrows move between choices');
  assert.deepEqual(errors, []);
  await context.close();
});

test('a sound when the turn comes: off by default, on when chosen', async () => {
  const { context, page, errors } = await newPage(env.browser, 'desktop');
  await page.addInitScript(() => {
    /** @type {number[]} */
    const tones = [];
    // @ts-ignore
    window.tones = tones;
    const node = () => ({ connect: (/** @type {any} */ n) => n || node(), start: () => {}, stop: () => {},
      frequency: { value: 0 }, gain: { setValueAtTime() {}, exponentialRampToValueAtTime() {} } });
    // @ts-ignore
    window.AudioContext = class {
      constructor() { this.currentTime = 0; this.destination = node(); }
      createOscillator() { const o = node(); o.start = () => tones.push(o.frequency.value); return o; }
      createGain() { return node(); }
    };
  });
  await createInLobby(page, env.server.url, 'backgammon', {}, ['you', 'ai']);
  await waitForMyTurn(page);
  assert.equal(await page.locator('[data-testid="sound"]').isChecked(), false, 'off by default');
  await playByTyping(page);
  await waitForMyTurn(page);
  // @ts-ignore
  assert.deepEqual(await page.evaluate(() => window.tones), [], 'no sound unless chosen');
  await page.locator('[data-testid="sound"]').check();
  await playByTyping(page);
  await waitForMyTurn(page);
  // @ts-ignore
  assert.deepEqual(await page.evaluate(() => window.tones), [660, 880]);
  assert.deepEqual(errors, []);
  await context.close();
});
