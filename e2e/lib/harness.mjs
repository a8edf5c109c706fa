// @ts-check
/**
 * The browser tests' rig: starts a real `spelbord serve` on a free
 * 127.0.0.1 port with a temporary database, launches headless Chromium,
 * collects console errors, saves screenshots, and plays moves through the
 * page the way a person would (clicking the board).
 */

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before } from 'node:test';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
/** The repository's root. */
export const REPO = path.resolve(here, '..', '..');
/** Where screenshots go. */
export const SHOTS = process.env.SPELBORD_SCREENSHOTS || path.join(REPO, 'target', 'screenshots');

/** Desktop and phone (portrait) window sizes. */
export const SIZES = {
  desktop: { width: 1366, height: 800 },
  phone: { width: 390, height: 844 },
};

/**
 * @typedef {{url: string, stop: () => Promise<void>, log: () => string, restart: () => Promise<void>}} Server
 */

/**
 * Starts the server: `$SPELBORD_BIN serve` (default target/release/spelbord).
 * `restart` stops it and starts it again on the same port and database.
 * @returns {Promise<Server & {restart: () => Promise<void>}>}
 */
export async function startServer() {
  const bin = process.env.SPELBORD_BIN || path.join(REPO, 'target', 'release', 'spelbord');
  const args = process.env.SPELBORD_SERVE_ARGS !== undefined ? process.env.SPELBORD_SERVE_ARGS.split(' ').filter(Boolean) : ['serve'];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spelbord-e2e-'));
  let output = '';
  /** @param {string} addr */
  const launch = (addr) => {
    const child = spawn(bin, [...args, '--addr', addr, '--db', path.join(dir, 'e2e.db'), '--rate-limit', '0', '--create-limit', '0', '--max-open-tables', '0', '--ai-workers', '1'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, RUST_LOG: process.env.RUST_LOG || 'warn' },
    });
    child.stderr.on('data', (d) => { output += d; });
    /** @type {Promise<string>} */
    const url = new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the server did not start:\n${output}`)), 20000);
      let seen = '';
      child.stdout.on('data', (d) => {
        seen += d;
        output += d;
        const m = /listening on (http:\/\/[\d.:]+)/.exec(seen);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]);
        }
      });
      child.on('exit', (code) => reject(new Error(`the server exited (${code}):\n${output}`)));
      child.on('error', (e) => reject(new Error(`the server cannot be started (${bin}): ${e.message}`)));
    });
    return { child, url };
  };
  /** @param {import('node:child_process').ChildProcess} child */
  const stop = async (child) => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => { child.on('exit', r); setTimeout(r, 8000); });
      child.kill('SIGTERM');
      await exited;
    }
  };
  let current = launch('127.0.0.1:0');
  const url = await current.url;
  return {
    url,
    log: () => output,
    restart: async () => {
      await stop(current.child);
      current = launch(url.replace('http://', ''));
      await current.url;
    },
    stop: async () => {
      await stop(current.child);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Launches headless Chromium with a fresh profile. */
export async function launchBrowser() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage',
      // Pages served by the test's own routing (SPELBORD_WEB_DIR) count as public.
      ...(process.env.SPELBORD_WEB_DIR ? ['--disable-features=LocalNetworkAccessChecks'] : [])],
  });
}

/**
 * A page that records console errors and page errors. With
 * `SPELBORD_WEB_DIR` set, the front end's files are served from that folder
 * instead of the binary (for working on them without rebuilding).
 * @param {import('playwright-core').Browser} browser
 * @param {keyof typeof SIZES} size
 * @param {{locale?: string, lang?: string}} [opts] the browser's language
 *   (`navigator.languages`), and a language chosen on the page before
 */
export async function newPage(browser, size = 'desktop', opts = {}) {
  const context = await browser.newContext({ viewport: SIZES[size], deviceScaleFactor: 1, hasTouch: size === 'phone', locale: opts.locale || 'en-US' });
  if (opts.lang) await context.addInitScript((lang) => localStorage.setItem('spelbord.lang', lang), opts.lang);
  // Other players' moves shown quickly, to keep the tests short.
  await context.addInitScript(() => { if (!localStorage.getItem('spelbord.speed')) localStorage.setItem('spelbord.speed', '"fast"'); });
  const page = await context.newPage();
  /** @type {string[]} */
  const errors = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(`console: ${m.text()}`); });
  page.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
  const webDir = process.env.SPELBORD_WEB_DIR;
  if (webDir) {
    await context.route(/^http:\/\/127\.0\.0\.1:\d+\/(?!api\/).*/, (route) => {
      const u = new URL(route.request().url());
      const isPage = u.pathname === '/' || /^\/(t|@)\/|^\/ratings(\/|$)/.test(u.pathname);
      const file = isPage ? 'index.html' : u.pathname.slice(1);
      const full = path.join(webDir, file);
      if (!fs.existsSync(full)) return route.fulfill({ status: 404, body: 'not found' });
      const type = full.endsWith('.js') ? 'text/javascript' : full.endsWith('.css') ? 'text/css' : 'text/html';
      return route.fulfill({ status: 200, contentType: type, body: fs.readFileSync(full) });
    });
  }
  return { context, page, errors };
}

/**
 * Saves a screenshot of the page as `name.png`.
 * @param {import('playwright-core').Page} page @param {string} name
 */
export async function shot(page, name) {
  fs.mkdirSync(SHOTS, { recursive: true });
  const file = path.join(SHOTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/**
 * Creates a table in the lobby: chooses the game, sets options, seats.
 * @param {import('playwright-core').Page} page
 * @param {string} base
 * @param {string} game
 * @param {Record<string, string>} options
 * @param {string[]} seats per seat: `you`, `open`, `ai` (the easiest computer) or an agent
 */
export async function createInLobby(page, base, game, options, seats) {
  await page.goto(base + '/');
  await page.click(`[data-game="${game}"]`);
  for (const [key, value] of Object.entries(options)) {
    const field = page.locator(`#opt-${key}`);
    const tag = await field.evaluate((el) => el.tagName);
    if (tag === 'SELECT') await field.selectOption(value);
    else await field.fill(value);
    await field.dispatchEvent('change');
  }
  for (const [i, choice] of seats.entries()) {
    // `ai` is the easiest computer this server offers.
    let value = choice;
    if (choice === 'ai') {
      const values = await page.locator(`#seat-${i} option`).evaluateAll((els) => els.map((e) => /** @type {HTMLOptionElement} */ (e).value));
      value = ['ai:easy', 'random'].find((v) => values.includes(v)) || values[values.length - 1];
    }
    await page.selectOption(`#seat-${i}`, value);
  }
  await page.click('[data-testid="create"]');
  await page.waitForURL(/\/t\/[0-9a-f]+/);
  await page.waitForSelector('.board-svg');
}

/**
 * What the page shows now: my turn, game over, or waiting.
 * @param {import('playwright-core').Page} page
 */
async function phase(page) {
  return page.evaluate(() => {
    if (document.querySelector('[data-testid="game-over"]')) return 'over';
    if (document.querySelector('[data-testid="next-game"]')) return 'mine';
    const bar = document.querySelector('.status-bar');
    if (bar && bar.classList.contains('your-turn') && !document.querySelector('.controls .muted')) return 'mine';
    return 'wait';
  });
}

/**
 * Clicks a board target where a person would: on a part of it that is not
 * covered by another (cards in a hand overlap). When the board is drawn
 * again between finding the target and clicking it (a move shown, a slide
 * ended), the target is found again, as a person would see it again; one
 * covered everywhere (on a phone, by the buttons at the foot of the
 * screen) is scrolled to the middle of the screen first.
 * @param {import('playwright-core').Page} page
 * @param {import('playwright-core').Locator} target
 */
export async function clickTarget(page, target) {
  for (let tries = 1; ; tries++) {
    try {
      await target.scrollIntoViewIfNeeded({ timeout: 10000 });
      const point = await target.evaluate((el) => {
        const r = el.getBoundingClientRect();
        for (let fy = 0.5; fy > 0.05; fy -= 0.15) {
          for (const fx of [0.5, 0.3, 0.15, 0.08, 0.7, 0.85]) {
            const x = r.left + r.width * fx;
            const y = r.top + r.height * fy;
            const hit = document.elementFromPoint(x, y);
            if (hit && hit.closest('[data-target]') === el) return { x, y };
          }
        }
        return null;
      }, null, { timeout: 10000 });
      if (!point) throw new Error('the target is covered everywhere');
      await page.mouse.click(point.x, point.y);
      return;
    } catch (e) {
      const covered = String(e).includes('covered everywhere');
      if (tries >= 5 || !(covered || String(e).includes('not attached'))) throw e;
      // Covered (on a phone the buttons at the foot of the screen may lie
      // over the board's foot): scroll it to the middle, as a person would.
      if (covered) await target.evaluate((el) => el.scrollIntoView({ block: 'center' })).catch(() => {});
      await page.waitForTimeout(100);
    }
  }
}

/**
 * Plays one move through the page by clicking the board: a destination if
 * one is shown, else a movable piece, and Confirm once the move is whole;
 * buttons for actions off the board (pass, pick up, the cube).
 * @param {import('playwright-core').Page} page
 * @param {() => number} random a number in [0, 1)
 */
export async function playOneMove(page, random) {
  for (let clicks = 0; clicks < 20; clicks++) {
    if ((await phase(page)) !== 'mine') return;
    const next = page.locator('[data-testid="next-game"]');
    if (await next.count()) {
      // A game of a match ended: go on to the next.
      await next.click();
      return;
    }
    const confirm = page.locator('[data-testid="confirm"]:not([disabled])');
    if (await confirm.count()) {
      await confirm.click();
      return;
    }
    const prompt = page.locator('[data-testid="cube-prompt"] button.primary, .prompt button.primary');
    if (await prompt.count()) {
      await prompt.first().click();
      return;
    }
    const dests = page.locator('.board-svg [data-state="dest"]');
    const srcs = page.locator('.board-svg [data-state="src"]');
    const nd = await dests.count();
    const ns = await srcs.count();
    const actions = page.locator('[data-testid="action"]');
    const na = await actions.count();
    if (nd > 0) await clickTarget(page, dests.nth(Math.floor(random() * nd)));
    else if (ns > 0 && (na === 0 || random() < 0.85)) await clickTarget(page, srcs.nth(Math.floor(random() * ns)));
    else if (na > 0) {
      await actions.nth(Math.floor(random() * na)).click();
      return;
    } else {
      await page.waitForTimeout(50);
    }
  }
  throw new Error('could not complete a move by clicking');
}

/**
 * Plays until the game is over (the result dialog shows), within a limit.
 * @param {import('playwright-core').Page} page
 * @param {{seed?: number, maxMoves?: number, onMove?: (n: number) => Promise<void>,
 *   custom?: (n: number) => Promise<boolean>}} [opts] `custom` may play move n
 *   itself (returning true)
 * @returns {Promise<number>} moves played
 */
export async function playToEnd(page, opts = {}) {
  let seed = opts.seed || 1;
  const random = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  const max = opts.maxMoves || 400;
  let moves = 0;
  for (;;) {
    await page.waitForFunction(() => {
      if (document.querySelector('[data-testid="game-over"]') || document.querySelector('[data-testid="next-game"]')) return true;
      const bar = document.querySelector('.status-bar');
      return !!bar && bar.classList.contains('your-turn') && !document.querySelector('.controls .muted');
    }, null, { timeout: 60000 });
    if ((await phase(page)) === 'over') return moves;
    if (!(opts.custom && (await opts.custom(moves + 1)))) await playOneMove(page, random);
    moves += 1;
    if (opts.onMove) await opts.onMove(moves);
    if (moves > max) throw new Error(`no end after ${max} moves`);
  }
}

/**
 * Plays one move with the keyboard only: focus a board target, press
 * Enter; Confirm is a button reached the same way.
 * @param {import('playwright-core').Page} page
 */
export async function playOneMoveByKeyboard(page) {
  for (let presses = 0; presses < 20; presses++) {
    const confirm = page.locator('[data-testid="confirm"]:not([disabled])');
    if (await confirm.count()) {
      await confirm.focus();
      await page.keyboard.press('Enter');
      return;
    }
    const next = page.locator('.board-svg [data-state="dest"], .board-svg [data-state="src"]');
    const dest = page.locator('.board-svg [data-state="dest"]');
    const target = (await dest.count()) ? dest.first() : next.first();
    if (!(await target.count())) throw new Error('nothing to choose with the keyboard');
    await target.focus();
    await page.keyboard.press('Enter');
  }
  throw new Error('could not complete a move with the keyboard');
}

/**
 * Starts the server and a browser before a test file's tests and stops them
 * after them; the object returned holds both once they have started.
 * @returns {{server: Server & {restart: () => Promise<void>}, browser: import('playwright-core').Browser}}
 */
export function serverAndBrowser() {
  const env = /** @type {{server: Server & {restart: () => Promise<void>}, browser: import('playwright-core').Browser}} */ ({});
  before(async () => {
    env.server = await startServer();
    env.browser = await launchBrowser();
  });
  after(async () => {
    if (env.browser) await env.browser.close();
    if (env.server) await env.server.stop();
  });
  return env;
}

/**
 * The clock text of `seat` as shown on `page` (`m:ss`, `0:09.5`), in
 * milliseconds.
 * @param {import('playwright-core').Page} page @param {number} seat
 */
export async function shownMs(page, seat) {
  const text = (await page.locator(`[data-testid="clock-${seat}"]`).textContent()) || '';
  const parts = text.trim().split(':').map(Number);
  return parts.reduce((acc, p) => acc * 60 + p, 0) * 1000;
}
