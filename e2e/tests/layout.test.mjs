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
import { createInLobby, newPage, playOneMove, serverAndBrowser, shot, SIZES } from '../lib/harness.mjs';

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

/**
 * How far the board's bottom edge stays above the top of the row of
 * buttons (negative: the buttons cover the board).
 * @param {import('playwright-core').Page} page
 */
async function boardAboveButtons(page) {
  return page.evaluate(() => {
    const board = /** @type {Element} */ (document.querySelector('.board-svg')).getBoundingClientRect();
    const buttons = /** @type {Element} */ (document.querySelector('.controls')).getBoundingClientRect();
    return Math.round(buttons.top - board.bottom);
  });
}

/**
 * Waits until the status bar, the board and the buttons under it have kept
 * their places and sizes for 300 ms: the first turn's lines and slides
 * may still change the status (and so the board's room) after it shows.
 * @param {import('playwright-core').Page} page
 */
async function settled(page) {
  await page.waitForFunction(() => {
    const key = ['.status-bar', '.board-svg', '.controls, .replay-controls'].map((sel) => {
      const r = document.querySelector(sel)?.getBoundingClientRect();
      return r ? `${Math.round(r.top)},${Math.round(r.height)}` : '-';
    }).join('|');
    const seen = /** @type {any} */ (window);
    const now = performance.now();
    if (seen.layoutKey !== key) {
      seen.layoutKey = key;
      seen.layoutSince = now;
      return false;
    }
    return now - seen.layoutSince >= 300;
  }, null, { polling: 50, timeout: 10000 });
}

/**
 * The smaller side, in px, of the smallest target on the board.
 * @param {import('playwright-core').Page} page
 */
async function smallestTarget(page) {
  return page.evaluate(() => Math.min(...[...document.querySelectorAll('.board-svg [data-target]')]
    .map((el) => { const r = el.getBoundingClientRect(); return Math.min(r.width, r.height); })));
}

/**
 * Adds a row like a Stumpvarning's (two lines of words) to the buttons
 * under the board, and waits until the board is fitted again (two frames).
 * @param {import('playwright-core').Page} page
 */
async function addWarningRow(page) {
  await page.evaluate(() => {
    const row = document.createElement('div');
    row.className = 'inline-prompt alarm';
    row.textContent = 'Stumpvarning! Two rows of words to make this row as tall as a warning is on a phone.';
    document.querySelector('.controls')?.prepend(row);
  });
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

/**
 * Läger's tray texts (the name, the stones in the other camp: "in Computer
 * (easy)'s camp" is long) that run past their tray's right edge.
 * @param {import('playwright-core').Page} page
 */
async function textsOutsideTrays(page) {
  return page.evaluate(() => {
    const out = [];
    for (const tray of document.querySelectorAll('.board-svg .lg-tray')) {
      const edge = tray.getBoundingClientRect().right;
      let el = tray.nextElementSibling;
      for (; el && el.tagName === 'text'; el = el.nextElementSibling) {
        const r = el.getBoundingClientRect();
        if (r.right > edge + 0.5) out.push(`${el.textContent} by ${Math.round(r.right - edge)} px`);
      }
    }
    return out;
  });
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
      if (size === 'phone') assert.ok(await boardAboveButtons(page) >= 0, `${game}: the board ends above the buttons`);
      if (game === 'lager') assert.deepEqual(await textsOutsideTrays(page), [], 'the trays hold their words');
      const fields = await outOfSight(page, 'main button, main select, main input:not([type=range]), main a.btn');
      assert.deepEqual(fields.small, [], `${game} at ${size}: tap targets of 44 px`);
      assert.deepEqual(errors, []);
      await context.close();
    });
  }
}

// Board targets on a phone, measured at the first turn: every target of
// every board (the tables games' points, bar and tray, High-O Gammon's and
// Tric-Trac's fields and the stones to enter, Stumphög's piles, Läger's
// squares and tray stones, Stortok's hand cards and pile) is at least 44 px
// each way (a finger needs both: the targets stand in rows and columns),
// and no two overlap (a tap lands on one target only).
// Stortok's 1858 version deals all 52 cards: two players hold 26 each,
// four rows of cards on a phone.
/** @type {{game: string, name: string, options: Record<string, string>, seats: string[]}[]} */
const BOARDS = [
  ...Object.entries(GAMES).map(([game, seats]) => ({ game, name: game, options: {}, seats })),
  { game: 'stortok', name: 'stortok-long-hand', options: { players: '2', version: '1858' }, seats: ['you', 'ai'] },
];

for (const { game, name, options, seats } of BOARDS) {
  test(`phone: ${name}: every board target at least 44 × 44 px, none overlapping`, async () => {
    const { context, page, errors } = await newPage(env.browser, 'phone');
    await createInLobby(page, env.server.url, game, options, seats);
    // The first turn (in Stumphög it may offer only a button to bat in).
    await page.waitForFunction(() => document.querySelector('.status-bar')?.classList.contains('your-turn')
      && document.querySelectorAll('.controls button').length > 0, null, { timeout: 60000 });
    await page.evaluate(() => window.scrollTo(0, 0));
    await settled(page);
    const measure = () => page.evaluate(() => {
      const boxes = [...document.querySelectorAll('.board-svg [data-target]')]
        .map((el) => ({ id: el.getAttribute('data-target'), r: el.getBoundingClientRect() }));
      const small = boxes.filter(({ r }) => r.width < 44 || r.height < 44)
        .map(({ id, r }) => `${id} ${Math.round(r.width)}×${Math.round(r.height)}`);
      // Boxes that share an edge touch; an overlap is more than half a pixel.
      const overlaps = [];
      for (let i = 0; i < boxes.length; i++) {
        for (let j = i + 1; j < boxes.length; j++) {
          const a = boxes[i].r;
          const b = boxes[j].r;
          const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
          const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
          if (w > 0.5 && h > 0.5) overlaps.push(`${boxes[i].id} and ${boxes[j].id} by ${Math.round(w)}×${Math.round(h)}`);
        }
      }
      return { count: boxes.length, small, overlaps };
    });
    const seen = await measure();
    await shot(page, `targets-${name}-phone`);
    assert.ok(seen.count >= (name === 'stortok' ? 5 : 10), `${name}: ${seen.count} targets`);
    if (name === 'stortok-long-hand') assert.ok(await page.locator('.board-svg .st-hand-card').count() >= 26, 'a hand of 26 cards');
    assert.deepEqual(seen.small, [], `${name}: targets under 44 px`);
    assert.deepEqual(seen.overlaps, [], `${name}: targets overlapping`);
    // The buttons under the board may take more rows (a warning, several
    // actions off the board): the board gives up room, but its targets stay
    // at least 44 px (the page scrolls instead).
    await addWarningRow(page);
    await addWarningRow(page);
    await shot(page, `targets-${name}-phone-rows`);
    assert.deepEqual((await measure()).small, [], `${name}: targets under 44 px with the buttons taking more rows`);
    assert.deepEqual(errors, []);
    await context.close();
  });
}

// On a phone the buttons stay at the foot of the screen; when they take
// more rows (a Stumpvarning, the bat-in and pass buttons beside Undo and
// Confirm), the board shrinks to end above them instead of running under
// them (Stumphög's bottom strip was cut off), down to the size at which its
// targets are 44 px; below that the page scrolls. A row like the
// Stumpvarning's is added to the buttons here.
test('phone: stumphog: the board ends above the buttons when they take more rows', async () => {
  const { context, page, errors } = await newPage(env.browser, 'phone');
  await createInLobby(page, env.server.url, 'stumphog', {}, GAMES.stumphog);
  await page.waitForFunction(() => document.querySelector('.status-bar')?.classList.contains('your-turn')
    && document.querySelectorAll('.controls button').length > 0, null, { timeout: 60000 });
  await page.evaluate(() => window.scrollTo(0, 0));
  await settled(page);
  assert.ok(await boardAboveButtons(page) >= 0, 'at the first turn: the board ends above the buttons');
  const before = await page.evaluate(() => document.querySelector('.board-svg')?.getBoundingClientRect().height);
  await addWarningRow(page);
  const after = await page.evaluate(() => document.querySelector('.board-svg')?.getBoundingClientRect().height || 0);
  assert.ok(after < (before || 0), `the board shrank (${before} px to ${after} px)`);
  const gap = await boardAboveButtons(page);
  if (gap < 0) {
    // Not room enough for targets of 44 px: the board is held at that size
    // (no larger), and scrolling the page by what is missing shows all of it
    // above the buttons, which stay at the foot of the screen.
    const smallest = await smallestTarget(page);
    assert.ok(smallest >= 44 && smallest < 46, `a board under the buttons is at its smallest (targets ${smallest} px)`);
    await page.evaluate((dy) => window.scrollBy(0, dy), -gap);
    const top = await page.evaluate(() => document.querySelector('.board-svg')?.getBoundingClientRect().top || 0);
    assert.ok(top >= 0, `scrolled by ${-gap} px, the board's top in sight (${top} px)`);
  }
  assert.ok(await boardAboveButtons(page) >= 0, 'more rows: the board ends above the buttons');
  const seen = await outOfSight(page, '.controls button');
  assert.deepEqual(seen.out, [], 'the buttons in sight');
  await shot(page, 'layout-stumphog-phone-rows');
  assert.deepEqual(errors, []);
  await context.close();
});

// The replay on a phone: the board is held to the room above the step
// buttons, which stay on the screen without scrolling.
for (const game of ['tawla', 'stumphog', 'lager']) {
  test(`phone: ${game}: the replay's board ends above its step buttons, all in sight`, async () => {
    const { context, page, errors } = await newPage(env.browser, 'phone');
    await createInLobby(page, env.server.url, game, {}, GAMES[game]);
    let seed = 3;
    const random = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
    for (let turn = 0; turn < 2; turn++) {
      await page.waitForFunction(() => document.querySelector('.status-bar')?.classList.contains('your-turn')
        && document.querySelectorAll('.controls button').length > 0, null, { timeout: 60000 });
      await playOneMove(page, random);
    }
    await page.goto(page.url().replace(/\?.*$/, '') + '?replay');
    await page.locator('[data-testid="replay-pos"]').waitFor();
    await page.evaluate(() => window.scrollTo(0, 0));
    await settled(page);
    const gap = () => page.evaluate(() => {
      const board = /** @type {Element} */ (document.querySelector('.board-svg')).getBoundingClientRect();
      const buttons = /** @type {Element} */ (document.querySelector('.replay-controls')).getBoundingClientRect();
      return Math.round(buttons.top - board.bottom);
    });
    assert.deepEqual((await outOfSight(page, '.replay-controls button, .replay-controls input')).out, [], `${game}: the replay's step buttons in sight`);
    assert.ok(await gap() >= 0, `${game}: the board ends above the step buttons (${await gap()} px)`);
    // A caption of several lines (a move with its events) leaves the board
    // less room, not the buttons.
    await page.evaluate(() => {
      const line = document.createElement('div');
      line.className = 'status-sub';
      line.textContent = 'Computer 2 (easy) (Black): 20/16 16/12 12/8 8/4* — Black pins White on 4; a long line of events that takes three or four rows of words on a phone held upright.';
      document.querySelector('.status-bar > div')?.append(line);
    });
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    await shot(page, `layout-replay-${game}-phone`);
    assert.deepEqual((await outOfSight(page, '.replay-controls button, .replay-controls input')).out, [], `${game}: the step buttons in sight under a long caption`);
    assert.ok(await gap() >= 0, `${game}: the board ends above the step buttons under a long caption (${await gap()} px)`);
    assert.deepEqual(errors, []);
    await context.close();
  });
}
