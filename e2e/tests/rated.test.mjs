// @ts-check
/**
 * A rated game in two browsers (desktop and phone): both sign up; the
 * lobby's Rated checkbox (off without an account, off with a computer
 * seat) makes a rated Tawla table; the guest who opens the invite link is
 * asked to sign up first and then takes the seat; the table shows "Rated"
 * and the accounts; they play by clicks, the cube on, until one drops a
 * double; the game-over box gives both rating changes; both profiles show
 * the game with its change and one game in the tawla pool, and the
 * leaderboard lists both among the provisional. axe-core on the rated
 * table; screenshots `rated-lobby-desktop.png`, `rated-table-{desktop,phone}.png`,
 * `rated-over-desktop.png`, `rated-profile-{en,ar}-*.png`.
 */

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newPage, playOneMove, serverAndBrowser, shot } from '../lib/harness.mjs';
import { seriousViolations } from '../lib/a11y.mjs';

/** The server and the browser of this file's tests. */
const env = serverAndBrowser();

/** Console lines about answers the pages expect (404 no ratings yet before the first game). */
const unexpected = (/** @type {string[]} */ errors) => errors.filter((e) => !/Failed to load resource: the server responded with a status of 404/.test(e));

/** @param {import('playwright-core').Page} page */
const myTurn = (page) => page.evaluate(() => {
  const bar = document.querySelector('.status-bar');
  return !!bar && bar.classList.contains('your-turn') && !document.querySelector('.controls .muted');
});

/** @param {import('playwright-core').Page} page */
const isOver = async (page) => (await page.locator('[data-testid="game-over"]').count()) > 0;

/**
 * Signs up in the open dialog (opening it from the header if need be).
 * @param {import('playwright-core').Page} page @param {string} name
 */
async function signUp(page, name) {
  if (!(await page.locator('[data-testid="account-dialog"]').count())) await page.click('[data-testid="sign-in"]');
  await page.click('[data-testid="account-tab-signup"]');
  await page.fill('#account-name', name);
  await page.fill('#account-password', 'correct horse');
  await page.click('[data-testid="account-submit"]');
  await page.locator('[data-testid="account-link"]').waitFor();
}

test('a rated Tawla game between two accounts, from the lobby to the leaderboard', async () => {
  const started = Date.now();
  const alice = await newPage(env.browser, 'desktop');
  const bob = await newPage(env.browser, 'phone');
  const base = env.server.url;

  // The Rated checkbox needs an account.
  await alice.page.goto(base + '/');
  await alice.page.click('[data-game="tawla"]');
  assert.ok(await alice.page.locator('[data-testid="rated"]').isDisabled(), 'no account: no rated game');
  assert.match(await alice.page.locator('[data-testid="rated-help"]').textContent() || '', /need an account/);
  await signUp(alice.page, 'amira');
  await alice.page.click('[data-game="tawla"]');
  // A computer seat: no rated game either.
  const computer = await alice.page.locator('#seat-1 option').evaluateAll((els) => els.map((e) => /** @type {HTMLOptionElement} */ (e).value).find((v) => v.startsWith('ai') || v === 'random'));
  await alice.page.selectOption('#seat-1', /** @type {string} */ (computer));
  assert.ok(await alice.page.locator('[data-testid="rated"]').isDisabled(), 'a computer seat: no rated game');
  assert.match(await alice.page.locator('[data-testid="rated-help"]').textContent() || '', /only between people/);
  await alice.page.selectOption('#seat-1', 'open');
  assert.ok(!(await alice.page.locator('[data-testid="rated"]').isChecked()), 'off by default');
  await alice.page.check('[data-testid="rated"]');
  await shot(alice.page, 'rated-lobby-desktop');
  // The cube on (same pool): the game ends when a double is dropped.
  await alice.page.selectOption('#opt-cube', 'on');
  await alice.page.click('[data-testid="create"]');
  await alice.page.waitForURL(/\/t\/[0-9a-f]+/);
  await alice.page.waitForSelector('.board-svg');
  await alice.page.locator('[data-testid="rated-mark"]').waitFor();
  assert.equal(await alice.page.locator('.seats a.seat-name').first().getAttribute('href'), '/@/amira');
  const link = await alice.page.locator('.invite input').first().inputValue();
  assert.match(link, /\/t\/[0-9a-f]+\?seat=1$/);
  const tableId = /** @type {RegExpExecArray} */ (/\/t\/([0-9a-f]+)/.exec(link))[1];
  const table = await (await alice.page.request.get(`${base}/api/tables/${tableId}`)).json();
  assert.equal(table.rated, true);
  assert.equal(table.seats[0].account, 'amira');

  // The guest opens the link: a rated game asks him to sign in or up, then he has the seat.
  await bob.page.goto(link);
  await bob.page.locator('[data-testid="rated-join"]').waitFor();
  assert.equal(await bob.page.locator('[data-testid="join"]').count(), 0, 'no seat for a guest');
  await bob.page.click('[data-testid="rated-sign-up"]');
  await signUp(bob.page, 'boulos');
  await bob.page.waitForFunction(() => !document.querySelector('[data-testid="rated-join"]') && document.querySelector('[data-testid="conn"]')?.textContent === 'live'
    && document.querySelectorAll('.seats a.seat-name').length === 2);
  await alice.page.waitForFunction(() => !document.querySelector('.invite') && document.querySelectorAll('.seats a.seat-name').length === 2);
  assert.deepEqual(await alice.page.locator('.seats a.seat-name').evaluateAll((els) => els.map((e) => e.getAttribute('href'))), ['/@/amira', '/@/boulos']);
  await bob.page.locator('[data-testid="rated-mark"]').waitFor();
  await shot(alice.page, 'rated-table-desktop');
  await shot(bob.page, 'rated-table-phone');
  assert.deepEqual(await seriousViolations(alice.page), [], 'the rated table (desktop)');
  assert.deepEqual(await seriousViolations(bob.page), [], 'the rated table (phone)');

  // Play by clicks; from the sixth move on, the player to roll doubles and the other drops.
  let seed = 5;
  const random = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
  let plies = 0;
  let waits = 0;
  while (!(await isOver(alice.page)) && plies <= 60) {
    const mover = (await myTurn(alice.page)) ? alice : (await myTurn(bob.page)) ? bob : null;
    if (!mover) {
      waits += 1;
      assert.ok(waits < 1200, 'neither player could move');
      await alice.page.waitForTimeout(50);
      continue;
    }
    waits = 0;
    const cube = mover.page.locator('[data-testid="cube-prompt"]');
    if (await cube.count()) {
      const drop = cube.getByRole('button', { name: /Drop/ });
      const pick = (await drop.count()) ? drop : cube.getByRole('button', { name: plies >= 6 ? /Double/ : /Roll/ });
      await pick.click();
      await mover.page.waitForFunction(() => !document.querySelector('[data-testid="cube-prompt"]'));
    } else {
      await playOneMove(mover.page, random);
    }
    plies += 1;
  }
  await alice.page.locator('[data-testid="game-over"]').waitFor();
  await bob.page.locator('[data-testid="game-over"]').waitFor();

  // The game-over box says both rating changes once the server has rated the game.
  for (const who of [alice, bob]) {
    await who.page.waitForFunction(() => document.querySelectorAll('[data-testid="rating-changes"] li').length === 2, null, { timeout: 30000 });
    const lines = await who.page.locator('[data-testid="rating-changes"] li').allTextContents();
    assert.match(lines.join('\n'), /amira [+−-]\d+ → \d+/);
    assert.match(lines.join('\n'), /boulos [+−-]\d+ → \d+/);
  }
  await shot(alice.page, 'rated-over-desktop');
  // The seats now show the ratings from the table's body (provisional: `?`).
  await alice.page.waitForFunction(() => document.querySelectorAll('[data-testid="seat-rating"]').length === 2);
  assert.match(await alice.page.locator('[data-testid="seat-rating"]').first().textContent() || '', /^\d+\?$/);

  // Both profiles: the game with its rating change, one game in the tawla pool.
  for (const [who, name] of /** @type {const} */ ([[alice, 'amira'], [bob, 'boulos']])) {
    const profile = await (await who.page.request.get(`${base}/api/players/${name}`)).json();
    const game = profile.games.find((/** @type {any} */ g) => g.table === tableId);
    assert.ok(game && typeof game.rating_change === 'number', `${name}: the game with a rating change`);
    assert.equal(profile.ratings.tawla.games, 1);
    await who.page.goto(`${base}/@/${name}`);
    await who.page.locator('[data-testid="profile-games"] li').first().waitFor();
    assert.match(await who.page.locator('[data-testid="profile-games"] li').first().textContent() || '', /\([+−-]\d+\)/);
    const row = who.page.locator('[data-testid="profile-ratings"] tbody tr');
    assert.equal(await row.count(), 1);
    assert.match(await row.first().locator('th').textContent() || '', /Tawla/);
    const cells = await row.first().locator('td').allTextContents();
    assert.match(cells[0], /^\d+\?$/, 'a provisional rating');
    assert.equal(cells[2], '1', 'one game');
  }
  await shot(alice.page, 'rated-profile-en-desktop');
  await shot(bob.page, 'rated-profile-en-phone');
  await bob.page.selectOption('[data-testid="language"]', 'ar');
  await bob.page.waitForFunction(() => document.documentElement.dir === 'rtl' && !!document.querySelector('[data-testid="profile-games"] li'));
  await shot(bob.page, 'rated-profile-ar-phone');
  await alice.page.selectOption('[data-testid="language"]', 'ar');
  await alice.page.waitForFunction(() => document.documentElement.dir === 'rtl' && !!document.querySelector('[data-testid="profile-games"] li'));
  await shot(alice.page, 'rated-profile-ar-desktop');
  await alice.page.selectOption('[data-testid="language"]', 'en');

  // The leaderboard lists both, provisional.
  await alice.page.goto(`${base}/ratings/tawla`);
  await alice.page.locator('[data-testid="provisional"]').waitFor();
  const names = await alice.page.locator('[data-testid="provisional"] tbody th a').allTextContents();
  assert.deepEqual([...names].sort(), ['amira', 'boulos']);

  // A pool that is not a game's id is named from the pool list.
  const named = await alice.page.evaluate(async () => {
    const file = '/js/ratings.js';
    const m = await import(file);
    await m.loadPools();
    return [m.poolName('tawla'), m.poolName('backgammon-match')];
  });
  assert.deepEqual(named, ['Tawla / Mahbusa (Plakoto)', 'Backgammon matches (any length)']);

  for (const who of [alice, bob]) {
    assert.deepEqual(unexpected(who.errors), []);
    await who.context.close();
  }
  console.log(`rated game: ${plies} moves, ${((Date.now() - started) / 1000).toFixed(1)} s`);
});
