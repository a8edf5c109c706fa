// @ts-check
/**
 * Every game against the computer, through the page: create the table in
 * the lobby, play to the end by clicking the board, check the result
 * screen; screenshots of every board at desktop and phone sizes; a reload
 * mid-game resumes; the replay steps through the finished game; no console
 * errors anywhere.
 */

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { SIZES, createInLobby, launchBrowser, newPage, playOneMoveByKeyboard, playToEnd, shot, startServer } from '../lib/harness.mjs';

/** @type {import('../lib/harness.mjs').Server} */
let server;
/** @type {import('playwright-core').Browser} */
let browser;
/** @type {string[]} */
let gameIds = [];

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
  const res = await fetch(`${server.url}/api/games`);
  gameIds = (await res.json()).games.map((/** @type {any} */ g) => g.id);
});

after(async () => {
  if (browser) await browser.close();
  if (server) await server.stop();
});

/**
 * Options that keep each game short enough for a test, its seats, and the
 * words the game-over view may name its ending with.
 * @type {Record<string, {options: Record<string, string>, seats: string[], ending: RegExp}>}
 */
const SETUPS = {
  tawla: { options: {}, seats: ['you', 'ai'], ending: /single game|double game \(diplo\)|the mother rule|a draw/ },
  backgammon: { options: { cube: 'on' }, seats: ['you', 'ai'], ending: /single game|a gammon|a backgammon|dropped the double|a draw/ },
  'high-gammon': { options: { players: '2' }, seats: ['you', 'ai'], ending: /bore off all 9 stones first|dropped the double/ },
  'tric-trac': { options: { players: '2' }, seats: ['you', 'ai'], ending: /filled the three goal points|dropped the double/ },
  stumphog: { options: { turns: '40' }, seats: ['you', 'ai'], ending: /uttorkad|stones in Ute|turn limit/ },
  stortok: { options: { players: '3', cap: '60' }, seats: ['you', 'ai', 'ai'], ending: /the stortok|no stortok/ },
  lager: { options: { max_plies: '30' }, seats: ['you', 'ai'], ending: /camp|had no move|third time|move limit/ },
};

describe('each game against the computer', () => {
  test('the lobby lists every game and looks right', async () => {
    for (const size of /** @type {const} */ (['desktop', 'phone'])) {
      const { context, page, errors } = await newPage(browser, size);
      await page.goto(server.url + '/');
      await page.waitForSelector('.game-card');
      const shown = await page.locator('.game-card').evaluateAll((els) => els.map((e) => e.getAttribute('data-game')));
      assert.deepEqual(shown, gameIds);
      await shot(page, `lobby-${size}`);
      assert.deepEqual(errors, []);
      await context.close();
    }
  });

  for (const id of Object.keys(SETUPS)) {
    test(`${id}: play a whole game against the computer`, async () => {
      // A game renamed or dropped from the catalogue fails here.
      assert.ok(gameIds.includes(id), `${id} is not in this server's catalogue`);
      const setup = SETUPS[id];
      const { context, page, errors } = await newPage(browser, 'desktop');
      await createInLobby(page, server.url, id, setup.options, setup.seats);
      const tableUrl = page.url();
      let reloaded = false;
      let phoneShot = false;
      let typed = false;
      let promptShot = false;
      let hinted = false;
      const moves = await playToEnd(page, {
        seed: 7,
        custom: async (n) => {
          if (!promptShot && (await page.locator('[data-testid="cube-prompt"]').count())) {
            // The cube's question stands inline under the board, not over it.
            // Both boxes are read in one script turn: a re-render between two
            // separate reads would measure a detached element.
            const seen = await page.evaluate(() => {
              const board = document.querySelector('.board-svg')?.getBoundingClientRect();
              const prompt = document.querySelector('[data-testid="cube-prompt"]');
              const box = prompt?.getBoundingClientRect();
              if (!board || !prompt || !box) return null;
              return { text: prompt.textContent || '', boardBottom: board.bottom, top: box.top, bottom: box.bottom };
            });
            if (seen) {
              promptShot = true;
              assert.match(seen.text, /[Dd]ouble/);
              assert.ok(seen.top >= seen.boardBottom - 1, 'the cube prompt is below the board');
              assert.ok(seen.bottom <= SIZES.desktop.height, 'the cube prompt is in sight');
              await shot(page, `${id}-prompt`);
            }
          }
          if (n === 1) {
            // Every board element a person can choose has an accessible name.
            const names = await page.locator('.board-svg [data-target]').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') || ''));
            assert.ok(names.length > 0 && names.every((x) => x.length > 3), 'board targets are named');
            assert.ok((await page.locator('.board-svg').getAttribute('aria-label') || '').length > 10, 'the board is named');
            // The first move by keyboard alone.
            if (await page.locator('.board-svg [data-state="src"]').count()) {
              await playOneMoveByKeyboard(page);
              return true;
            }
          }
          if (n === 2) {
            // The second move typed in notation, as listed among the legal moves.
            const texts = await page.locator('.action-list .btn').allTextContents();
            if (texts.length > 0) {
              const before = await page.locator('.log li').count();
              await page.fill('input[name="move"]', texts[texts.length - 1]);
              await page.press('input[name="move"]', 'Enter');
              await page.waitForFunction((b) => document.querySelectorAll('.log li').length > b, before);
              typed = true;
              return true;
            }
          }
          if (n === 3) {
            // A hint: the computer's best moves, each with its chance to win.
            await page.click('[data-testid="hint"]');
            const first = page.locator('[data-testid="hints"] li').first();
            await first.waitFor({ timeout: 20000 });
            assert.match(await first.textContent() || '', /\d+%/);
            await first.locator('button').first().hover();
            hinted = true;
            if (id === 'tawla') await shot(page, 'tawla-hint');
          }
          return false;
        },
        onMove: async (n) => {
          if (n === 3) {
            await shot(page, `${id}-desktop`);
            // A reload mid-game resumes the same game, still ours to play.
            const before = await page.locator('.log li').count();
            await page.reload();
            await page.waitForSelector('.board-svg');
            await page.waitForFunction(() => document.querySelector('[data-testid="conn"]')?.textContent === 'live');
            assert.equal(page.url(), tableUrl);
            assert.ok(await page.locator('.seats li').filter({ hasText: 'You' }).count() >= 1, 'still seated after a reload');
            if (!(await page.locator('[data-testid="game-over"]').count()) && !(/hidden/.test(id))) {
              assert.ok((await page.locator('.log li').count()) >= Math.min(before, 1));
            }
            if (id !== 'stortok') {
              // After the reload the log still says who made each move.
              await page.waitForFunction(() => document.querySelectorAll('[data-testid="log-move"]').length >= 2);
              const movers = await page.locator('[data-testid="log-move"]').evaluateAll((els) => els.map((e) => e.querySelector('.who')?.textContent || ''));
              assert.ok(movers.every((w) => /^(You|Computer.*): $/.test(w)), `who moved: ${movers.join('|')}`);
            }
            reloaded = true;
          }
          if (n === 4 && !phoneShot) {
            phoneShot = true;
            await page.setViewportSize(SIZES.phone);
            await page.waitForTimeout(200);
            await shot(page, `${id}-phone`);
            await page.setViewportSize(SIZES.desktop);
          }
        },
      });
      assert.ok(moves > 0, 'at least one move was played');
      const over = page.locator('[data-testid="game-over"]');
      await over.waitFor();
      const title = await over.locator('h2').textContent();
      assert.match(title || '', /You won!|You lost|Draw|won/);
      assert.ok(await over.locator('.score-table tr').count() >= 3, 'a score row per player');
      // How the game ended, in the game's own terms.
      assert.match(await over.locator('[data-testid="ending"]').textContent() || '', setup.ending);
      if (id === 'high-gammon') {
        // What the loser pays, and why.
        assert.match((await over.locator('[data-testid="pays"]').allTextContents()).join(' '), /pays \d+/);
      }
      await shot(page, `${id}-over`);
      assert.ok(reloaded || moves < 3, 'the reload was tried');
      assert.ok(typed || moves < 2, 'a move was typed in notation');
      assert.ok(hinted || moves < 3, 'hints were shown');

      // The replay of the finished game steps back and forth.
      await page.click('.prompt a:has-text("Replay")');
      await page.waitForSelector('[data-testid="replay-pos"]');
      const last = await page.locator('[data-testid="replay-pos"]').textContent();
      await page.click('[data-testid="replay-prev"]');
      const previous = await page.locator('[data-testid="replay-pos"]').textContent();
      assert.notEqual(previous, last);
      await page.click('[data-testid="replay-next"]');
      assert.equal(await page.locator('[data-testid="replay-pos"]').textContent(), last);
      await shot(page, `${id}-replay`);
      const href = await page.locator('[data-testid="download"]').getAttribute('href');
      const record = await (await fetch(server.url + href)).json();
      assert.equal(record.game, id);
      assert.ok(Array.isArray(record.actions) && record.actions.length > 0);
      if (id === 'lager') {
        // A rematch opens a new table with the same seats.
        await page.goto(tableUrl);
        await page.click('[data-testid="rematch"]');
        await page.waitForURL((u) => /\/t\/[0-9a-f]+$/.test(u.pathname) && u.href !== tableUrl);
        await page.waitForSelector('.board-svg');
        assert.equal(await page.locator('[data-testid="game-over"]').count(), 0);
      }
      if (id === 'backgammon') assert.ok(promptShot, 'the cube prompt was seen');
      assert.deepEqual(errors, []);
      await context.close();
    });
  }
});
