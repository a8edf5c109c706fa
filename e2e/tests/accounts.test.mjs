// @ts-check
/**
 * Accounts in the browser: sign up, still signed in after a reload, sign
 * out, sign in again; a wrong password and a taken name worded; the
 * profile page with its name and, on one's own, the settings (change the
 * password and sign in with the new one; delete the account, after which
 * the profile says there is no such player); a signed-in player's table
 * made with no player key and found by the session cookie. The ratings,
 * history, games and "playing now" of a profile and the leaderboards are
 * drawn from answers in the shapes the rating API is to give (the test
 * answers those routes itself while the server has none), and the real
 * leaderboard page says there are no ratings yet while `/api/ratings` is
 * 404. axe-core on every new page; screenshots of the sign-up dialog, a
 * profile and a leaderboard in English and Arabic at both sizes:
 * `accounts-{signup,profile,leaderboard}-{en,ar}-{desktop,phone}.png`.
 */

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createInLobby, newPage, serverAndBrowser, shot } from '../lib/harness.mjs';
import { seriousViolations } from '../lib/a11y.mjs';

/** The server and the browser of this file's tests. */
const env = serverAndBrowser();

/**
 * The console errors left once the browser's own lines about answers the
 * page expects (401 a wrong password, 404 no such player or no ratings
 * yet, 409 a taken name) are taken out.
 * @param {string[]} errors
 */
const unexpected = (errors) => errors.filter((e) => !/Failed to load resource: the server responded with a status of (401|404|409)/.test(e));

/**
 * Opens the dialog on a tab and sends the form.
 * @param {import('playwright-core').Page} page
 * @param {'signin' | 'signup'} tab @param {string} name @param {string} password
 */
async function submitAccount(page, tab, name, password) {
  if (!(await page.locator('[data-testid="account-dialog"]').count())) await page.click('[data-testid="sign-in"]');
  await page.click(`[data-testid="account-tab-${tab}"]`);
  await page.fill('#account-name', name);
  await page.fill('#account-password', password);
  await page.click('[data-testid="account-submit"]');
}

/** @param {import('playwright-core').Page} page @param {string} name */
async function signedInAs(page, name) {
  await page.locator('[data-testid="account-link"]').waitFor();
  assert.equal(await page.locator('[data-testid="account-link"]').textContent(), name);
  assert.equal(await page.locator('[data-testid="account-dialog"]').count(), 0, 'the dialog closed');
}

/** @param {import('playwright-core').Page} page */
async function accountError(page) {
  const box = page.locator('[data-testid="account-error"] .error-box');
  await box.waitFor();
  return (await box.textContent()) || '';
}

test('sign up, reload, sign out, sign in; a wrong password and a taken name are worded', async () => {
  const { context, page, errors } = await newPage(env.browser, 'desktop');
  await page.goto(env.server.url + '/');
  await page.waitForSelector('.game-card');
  await page.click('[data-testid="sign-in"]');
  await page.click('[data-testid="account-tab-signup"]');
  assert.deepEqual(await seriousViolations(page), [], 'the sign-up dialog');
  // The name and password rules are checked before asking the server.
  await submitAccount(page, 'signup', 'a b', 'longenough');
  assert.match(await accountError(page), /3 to 20 letters/);
  await submitAccount(page, 'signup', 'ada', 'short');
  assert.match(await accountError(page), /8 to 128 characters/);

  await submitAccount(page, 'signup', 'ada', 'correct horse');
  await signedInAs(page, 'ada');
  await page.reload();
  await signedInAs(page, 'ada');

  await page.click('[data-testid="sign-out"]');
  await page.locator('[data-testid="sign-in"]').waitFor();
  assert.equal(await page.evaluate(async () => (await (await fetch('/api/session')).json()).account), null);

  await submitAccount(page, 'signin', 'ada', 'wrong horse');
  assert.equal(await accountError(page), 'Wrong name or password.');
  await submitAccount(page, 'signin', 'ADA', 'correct horse');
  await signedInAs(page, 'ada');

  // Another browser: the name (in any case) is taken.
  const other = await newPage(env.browser, 'phone');
  await other.page.goto(env.server.url + '/');
  await submitAccount(other.page, 'signup', 'Ada', 'another password');
  assert.equal(await accountError(other.page), 'That name is taken. Choose another.');
  // Escape closes the dialog; still a guest.
  await other.page.keyboard.press('Escape');
  await other.page.locator('[data-testid="account-dialog"]').waitFor({ state: 'detached' });
  await other.page.locator('[data-testid="sign-in"]').waitFor();
  assert.deepEqual(unexpected(other.errors), []);
  await other.context.close();

  assert.deepEqual(unexpected(errors), []);
  await context.close();
});

test('a guest\'s table against the computer is his account\'s once he signs up', async () => {
  const { context, page, errors } = await newPage(env.browser, 'desktop');
  await createInLobby(page, env.server.url, 'tawla', {}, ['you', 'ai']);
  const table = /\/t\/([0-9a-f]+)/.exec(page.url())?.[1];
  assert.ok(table);
  /** @type {any[]} */
  const bodies = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && new URL(r.url()).pathname === '/api/accounts') bodies.push(JSON.parse(r.postData() || '{}'));
  });
  await submitAccount(page, 'signup', 'gus', 'guest no more');
  await signedInAs(page, 'gus');
  assert.equal(typeof bodies[0]?.player, 'string', 'the guest\'s key is sent');
  const mine = await page.evaluate(async () => (await (await fetch('/api/players/me/tables')).json()).tables.map((/** @type {any} */ t) => t.id));
  assert.deepEqual(mine, [table], 'the table is the account\'s, found by the cookie');
  assert.deepEqual(unexpected(errors), []);
  await context.close();
});

test('the profile, a password change, a table played signed in, deleting the account', async () => {
  const { context, page, errors } = await newPage(env.browser, 'desktop');
  await page.goto(env.server.url + '/');
  await submitAccount(page, 'signup', 'bea', 'first password');
  await signedInAs(page, 'bea');

  // The name links to the profile: name, member since, the settings.
  await page.click('[data-testid="account-link"]');
  await page.waitForURL(/\/@\/bea$/);
  assert.equal(await page.locator('[data-testid="profile-name"]').textContent(), 'bea');
  assert.match(await page.locator('[data-testid="member-since"]').textContent() || '', /^Member since .*\d{4}/);
  await page.locator('[data-testid="settings"]').waitFor();
  assert.deepEqual(await seriousViolations(page), [], 'one\'s own profile');

  // Someone else sees the profile without the settings.
  const guest = await newPage(env.browser, 'phone');
  await guest.page.goto(env.server.url + '/@/bea');
  await guest.page.locator('[data-testid="profile-name"]').waitFor();
  assert.equal(await guest.page.locator('[data-testid="settings"]').count(), 0);
  await guest.page.goto(env.server.url + '/@/nobody_here');
  await guest.page.locator('[data-testid="no-such-player"]').waitFor();
  assert.equal(await guest.page.locator('[data-testid="no-such-player"]').textContent(), 'No such player');
  assert.deepEqual(await seriousViolations(guest.page), [], 'no such player');
  assert.deepEqual(unexpected(guest.errors), []);
  await guest.context.close();

  // Change the password: a wrong old one is worded; then the new one signs in.
  await page.fill('#old-password', 'not my password');
  await page.fill('#new-password', 'second password');
  await page.click('[data-testid="password-form"] button[type="submit"]');
  await page.locator('[data-testid="password-message"] .error-box').waitFor();
  assert.equal(await page.locator('[data-testid="password-message"]').textContent(), 'Wrong password.');
  await page.fill('#old-password', 'first password');
  await page.fill('#new-password', 'second password');
  await page.click('[data-testid="password-form"] button[type="submit"]');
  await page.locator('[data-testid="password-message"] .ok-box').waitFor();
  await page.click('[data-testid="sign-out"]');
  await page.locator('[data-testid="sign-in"]').waitFor();
  assert.equal(await page.locator('[data-testid="settings"]').count(), 0, 'the settings go with the session');
  await submitAccount(page, 'signin', 'bea', 'first password');
  assert.equal(await accountError(page), 'Wrong name or password.');
  await submitAccount(page, 'signin', 'bea', 'second password');
  await signedInAs(page, 'bea');

  // A table against the computer, created signed in: no player key is
  // sent; the seat is the account's; the lobby finds it by the cookie.
  /** @type {any[]} */
  const bodies = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && /\/api\/tables(\/[0-9a-f]+\/join)?$/.test(new URL(r.url()).pathname)) bodies.push(JSON.parse(r.postData() || '{}'));
  });
  await createInLobby(page, env.server.url, 'tawla', {}, ['you', 'ai']);
  const table = /\/t\/([0-9a-f]+)/.exec(page.url())?.[1];
  assert.ok(table);
  assert.equal(bodies.length, 2, 'created and joined');
  for (const body of bodies) assert.equal(body.player, undefined, 'no player key when signed in');
  const mine = await page.evaluate(async () => (await (await fetch('/api/players/me/tables')).json()).tables.map((/** @type {any} */ t) => t.id));
  assert.ok(mine.includes(table), 'the table is the account\'s');
  const seats = await page.evaluate(async (id) => (await (await fetch(`/api/tables/${id}`)).json()).seats, table);
  assert.equal(seats[0].account, 'bea');
  await page.goto(env.server.url + '/');
  await page.locator('.table-list li').first().waitFor();
  // "Playing now" on the profile, where the server gives the list.
  await page.goto(env.server.url + '/@/bea');
  await page.locator('[data-testid="profile-name"]').waitFor();
  const profile = await page.evaluate(async () => (await fetch('/api/players/bea')).json());
  if (Array.isArray(profile.playing)) {
    await page.locator(`[data-testid="profile-playing"] a[href="/t/${table}"]`).waitFor();
  }

  // Delete the account: the password, a question, then no such player.
  await page.fill('#delete-password', 'second password');
  await page.click('[data-testid="delete-account"]');
  await page.locator('[data-testid="delete-confirm"]').waitFor();
  assert.deepEqual(await seriousViolations(page), [], 'the question');
  await page.click('[data-testid="delete-confirm"]');
  await page.locator('[data-testid="no-such-player"]').waitFor();
  await page.locator('[data-testid="sign-in"]').waitFor();
  assert.equal(await page.evaluate(async () => (await fetch('/api/players/bea')).status), 404);

  assert.deepEqual(unexpected(errors), []);
  await context.close();
});

test('the leaderboards say there are no ratings while the server keeps none', async () => {
  const { context, page, errors } = await newPage(env.browser, 'phone');
  const status = await (await fetch(env.server.url + '/api/ratings')).status;
  await page.goto(env.server.url + '/ratings');
  if (status === 404) {
    await page.locator('[data-testid="no-ratings"]').waitFor();
    assert.equal(await page.locator('[data-testid="no-ratings"]').textContent(), 'There are no ratings yet.');
    await page.goto(env.server.url + '/ratings/backgammon');
    await page.locator('[data-testid="no-ratings"]').waitFor();
  } else {
    assert.equal(status, 200);
    await page.locator('[data-testid="pools"], [data-testid="no-ratings"]').first().waitFor();
  }
  assert.deepEqual(await seriousViolations(page), []);
  assert.deepEqual(unexpected(errors), []);
  await context.close();
});

// ---- the rating API's shapes, answered by the test ----

const DAY = 86400;
const NOW = Math.floor(Date.UTC(2025, 5, 1) / 1000);

/** A profile's rating parts, in the shapes the rating API is to give. */
const RATED = {
  ratings: {
    backgammon: { rating: 1623.4, deviation: 61.2, games: 48, provisional: false },
    tawla: { rating: 1502, deviation: 180, games: 4, provisional: true },
  },
  history: {
    backgammon: [0, 9, 20, 33, 41, 60, 77, 95, 118, 140].map((d, i) => ({
      at: NOW - (140 - d) * DAY, rating: 1500 + [0, 22, 8, 41, 63, 55, 80, 102, 96, 123.4][i], deviation: 200 - i * 15,
    })),
  },
  games: [
    { table: '0123456789abcdef01234567', game: 'backgammon', finished_at: NOW - DAY, opponents: ['Computer (hard)'], place: 1, players: 2, rating_change: 12.6 },
    { table: '0123456789abcdef01234568', game: 'stortok', finished_at: NOW - 3 * DAY, opponents: ['ada', 'ceyda'], place: 2, players: 3, rating_change: null },
  ],
  playing: [{ table: '0123456789abcdef01234569', game: 'tawla' }],
};

const POOLS = {
  pools: [
    { pool: 'backgammon', game: 'backgammon', description: 'Single games and matches', players: 3 },
    { pool: 'tawla', game: 'tawla', description: 'Tawla, all variants', players: 1 },
  ],
};

/** @param {string} me */
const board = (me) => ({
  pool: 'backgammon',
  players: [
    { rank: 1, name: me, rating: 1623.4, deviation: 61.2, games: 48, last_played: NOW - DAY },
    { rank: 2, name: 'ada', rating: 1580, deviation: 70, games: 31, last_played: NOW - 9 * DAY },
  ],
  provisional: [{ name: 'ceyda', rating: 1490, deviation: 230, games: 3, last_played: NOW - 2 * DAY }],
});

/**
 * Answers the rating routes with the shapes above, and adds the rating
 * parts to the real profile of `me`.
 * @param {import('playwright-core').BrowserContext} context @param {string} me @param {boolean} bare
 */
async function answerRatings(context, me, bare) {
  await context.route(/\/api\/players\/[^/]+$/, async (route) => {
    const real = await route.fetch();
    if (real.status() !== 200) return route.fulfill({ response: real });
    const body = await real.json();
    return route.fulfill({ response: real, json: body.name === me ? { ...body, ...RATED } : body });
  });
  // The pools as the bare list in phones, wrapped in {pools} on desktops: the page takes either.
  // The pools wrapped in `{pools}`, or (`bare`) the list itself: the page takes either.
  await context.route(/\/api\/ratings$/, (route) => route.fulfill({ json: bare ? POOLS.pools : POOLS }));
  await context.route(/\/api\/ratings\/backgammon$/, (route) => route.fulfill({ json: board(me) }));
}

for (const lang of ['en', 'ar']) {
  for (const size of /** @type {const} */ (['desktop', 'phone'])) {
    test(`sign-up, profile and leaderboard drawn in ${lang} (${size})`, async () => {
      const { context, page, errors } = await newPage(env.browser, size, { lang });
      const me = lang === 'ar' ? `نور_${size}` : `nora_${size}`;
      await answerRatings(context, me, size === 'phone');
      await page.goto(env.server.url + '/');
      await page.waitForSelector('.game-card');
      await page.click('[data-testid="sign-in"]');
      await page.click('[data-testid="account-tab-signup"]');
      await page.fill('#account-name', me);
      await page.fill('#account-password', 'a good password');
      await shot(page, `accounts-signup-${lang}-${size}`);
      await page.click('[data-testid="account-submit"]');
      await signedInAs(page, me);

      // The profile with ratings, a chart, games and a game being played.
      await page.click('[data-testid="account-link"]');
      await page.locator('[data-testid="profile-ratings"]').waitFor();
      assert.equal(decodeURIComponent(new URL(page.url()).pathname), `/@/${me}`);
      const cells = await page.locator('[data-testid="profile-ratings"] tbody tr').evaluateAll((rows) => rows.map((r) => [...r.children].map((c) => c.textContent)));
      assert.deepEqual(cells.map((r) => r.slice(1)), [['1623', '±61', '48'], ['1502?', '±180', '4']]);
      const chart = page.locator('svg.rating-chart');
      assert.equal(await chart.count(), 1);
      assert.equal(await chart.locator('circle').count(), 10);
      assert.ok(await chart.locator('text.chart-tick').count() >= 8, 'ticks on both axes');
      assert.equal(await page.locator('[data-testid="profile-games"] li').count(), 2);
      assert.equal(await page.locator('[data-testid="profile-games"] a[href="/t/0123456789abcdef01234567?replay&analyse"]').count(), 1);
      assert.equal(await page.locator('[data-testid="profile-playing"] a[href="/t/0123456789abcdef01234569"]').count(), 1);
      await page.locator('[data-testid="settings"]').waitFor();
      const text = await page.evaluate(() => document.body.innerText);
      assert.doesNotMatch(text, /\b(profile|settings|ratings|account)\.[a-z_.]+/, 'no catalogue key shows');
      assert.deepEqual(await seriousViolations(page), [], `profile ${lang} ${size}`);
      await shot(page, `accounts-profile-${lang}-${size}`);

      // The leaderboards: the pools, then one pool's two tables.
      await page.goto(env.server.url + '/ratings');
      await page.locator('[data-testid="pools"] li').first().waitFor();
      assert.equal(await page.locator('[data-testid="pools"] li').count(), 2);
      assert.deepEqual(await seriousViolations(page), [], `pools ${lang} ${size}`);
      await page.click('[data-testid="pools"] a[href="/ratings/backgammon"]');
      await page.locator('[data-testid="leaderboard"]').waitFor();
      assert.equal(await page.locator('[data-testid="leaderboard"] tbody tr').count(), 2);
      assert.equal(await page.locator(`[data-testid="leaderboard"] a[href="/@/${encodeURIComponent(me)}"]`).count(), 1);
      assert.match(await page.locator('[data-testid="provisional"] tbody tr').first().textContent() || '', /1490\?/);
      assert.deepEqual(await seriousViolations(page), [], `leaderboard ${lang} ${size}`);
      await shot(page, `accounts-leaderboard-${lang}-${size}`);

      assert.deepEqual(unexpected(errors), []);
      await context.close();
    });
  }
}
