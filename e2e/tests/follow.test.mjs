// @ts-check
/**
 * Following the game: the computer's moves are shown one after another
 * (every position is drawn, none skipped), its last move is marked on the
 * board, the tab title says when it is your turn, and notices replace each
 * other instead of piling up.
 */

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createInLobby, newPage, playOneMove, playOneMoveByKeyboard, serverAndBrowser, shot } from '../lib/harness.mjs';
import { boardText, checkPlaysDrawn, drawnByVersion, watchPositions } from '../lib/positions.mjs';

/** The server and the browser of this file's tests. */
const env = serverAndBrowser();

test('the computer\'s moves: every position drawn in turn, its plays step by step with the server\'s positions, its checkers sliding in, the last one marked, the title cue', async () => {
  const { context, page, errors } = await newPage(env.browser, 'desktop');
  const sent = await watchPositions(page);
  await page.addInitScript(() => {
    localStorage.setItem('spelbord.speed', '"normal"');
    /** @type {number[]} */
    const seen = [];
    // @ts-ignore
    window.seenVersions = seen;
    /** @type {string[]} */
    const slides = [];
    // @ts-ignore
    window.slides = slides;
    new MutationObserver(() => {
      const v = document.querySelector('.board-wrap')?.getAttribute('data-version');
      if (v && seen[seen.length - 1] !== Number(v)) {
        seen.push(Number(v));
        // A checker that slides in: its animation and where it starts.
        const moving = document.querySelector('.board-svg .checker.arrived');
        if (moving) slides.push(`${getComputedStyle(moving).animationName} ${moving.getAttribute('style')}`);
      }
    }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-version'] });
  });
  await createInLobby(page, env.server.url, 'tawla', {}, ['you', 'ai']);
  const myTurn = () => page.waitForFunction(() => document.querySelector('.status-bar')?.classList.contains('your-turn')
    && !document.querySelector('.controls .muted'), null, { timeout: 60000 });
  for (let turn = 0; turn < 3; turn++) {
    await myTurn();
    await playOneMoveByKeyboard(page);
  }
  await myTurn();
  // @ts-ignore
  const seen = /** @type {number[]} */ (await page.evaluate(() => window.seenVersions));
  const first = seen.findIndex((v, i) => i > 0 && v > seen[i - 1]);
  const live = seen.slice(first - 1);
  for (let i = 1; i < live.length; i++) {
    assert.equal(live[i], live[i - 1] + 1, `every position is drawn in turn: ${live.join(',')}`);
  }
  // The computer's checkers slid in from where they stood.
  // @ts-ignore
  const slides = /** @type {string[]} */ (await page.evaluate(() => window.slides));
  assert.ok(slides.length >= 3, `a slide for each of the computer's moves: ${slides.join(' | ')}`);
  // A play of n steps shows each step for 450 / n ms, its checker sliding in.
  assert.ok(slides.every((x) => /^slide-in --dx: -?\d+px; --dy: -?\d+px; --slide-ms: (450|225|150|113)ms/.test(x)), slides.join(' | '));
  assert.ok(slides.some((x) => !/--dx: 0px; --dy: 0px/.test(x)), 'a slide moves');
  // Each of the computer's plays was drawn step by step with exactly the
  // positions the server sent with it, none of the page's own making.
  const plays = checkPlaysDrawn(sent, await drawnByVersion(page), assert.deepEqual);
  assert.ok(plays >= 3, `the computer's plays were checked: ${plays}`);
  // The computer's last move is marked on the board.
  assert.ok(await page.locator('.board-svg .point.last-to').count() >= 1, 'the last move is marked');
  assert.match(await page.title(), /Your turn/);
  // The log numbers moves by turn and gives the computer's in my numbering:
  // Black's checkers all start on my point 1.
  const moves = await page.locator('[data-testid="log-move"]').allTextContents();
  const theirs = moves.filter((m) => m.startsWith('Computer'));
  assert.ok(theirs.length >= 3, moves.join(' | '));
  assert.match(theirs[0], /^Computer \(easy\): 1\//, 'the computer\'s first move from my point 1');
  const numbers = await page.locator('[data-testid="log-move"]').evaluateAll((els) => els.map((e) => Number(e.getAttribute('value'))));
  assert.deepEqual(numbers, numbers.map((_, i) => i + 1), 'moves numbered by turn');
  await shot(page, 'tawla-last-move');
  assert.ok(await page.locator('[data-testid="toast"]').count() <= 1, 'one notice at a time');
  // A notice never covers the move log.
  await page.evaluate(async (url) => (await import(url)).toast('A notice long enough to take a second row in its box here'), '/js/toast.js');
  const covered = await page.evaluate(() => {
    const a = document.querySelector('[data-testid="toast"]')?.getBoundingClientRect();
    const b = document.querySelector('.log')?.getBoundingClientRect();
    if (!a || !b) return 'no notice or no log';
    const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
    const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
    return w > 0 && h > 0 ? `${Math.round(w)}×${Math.round(h)} px` : '';
  });
  assert.equal(covered, '', 'the notice covers the move log');
  assert.deepEqual(errors, []);
  await context.close();
});

test('at the instant speed the computer\'s moves are drawn in place', async () => {
  const { context, page, errors } = await newPage(env.browser, 'desktop');
  await page.addInitScript(() => {
    localStorage.setItem('spelbord.speed', '"instant"');
    // @ts-ignore
    window.slid = 0;
    new MutationObserver(() => {
      // @ts-ignore
      if (document.querySelector('.board-svg .checker.arrived')) window.slid += 1;
    }).observe(document, { subtree: true, childList: true });
  });
  await createInLobby(page, env.server.url, 'backgammon', { cube: 'off' }, ['you', 'ai']);
  const myTurn = () => page.waitForFunction(() => document.querySelector('.status-bar')?.classList.contains('your-turn')
    && !document.querySelector('.controls .muted'), null, { timeout: 60000 });
  for (let turn = 0; turn < 2; turn++) {
    await myTurn();
    await playOneMove(page, () => 0.5);
  }
  await myTurn();
  assert.equal(await page.locator('[data-testid="speed"]').inputValue(), 'instant');
  // @ts-ignore
  assert.equal(await page.evaluate(() => window.slid), 0, 'nothing slides');
  assert.ok(await page.locator('.board-svg .point.last-to').count() >= 1, 'the last move is still marked');
  assert.deepEqual(errors, []);
  await context.close();
});

/**
 * The other games: what slides in and what marks the last move.
 * @type {{game: string, options: Record<string, string>, moving: string, marked: string, what: string}[]}
 */
const FOLLOWED = [
  { game: 'high-gammon', options: { players: '2' }, moving: '.hg-stone.arrived', marked: '.last-to', what: 'stones slide from field to field' },
  { game: 'stumphog', options: {}, moving: '.sh-travel.arrived', marked: '.sh-pit.last-to', what: 'stones travel from pile to pile' },
  { game: 'lager', options: {}, moving: '.lg-travel.arrived', marked: '.lg-square.last-to', what: 'pieces slide from tray or square' },
  { game: 'stortok', options: { players: '2' }, moving: '.card-travel.arrived', marked: '.card-travel .top-card', what: 'cards travel from hand to pile' },
];

for (const f of FOLLOWED) {
  test(`${f.game}: the computer's ${f.what}, and its last move is marked`, async () => {
    const { context, page, errors } = await newPage(env.browser, 'desktop');
    await page.addInitScript(({ moving, marked }) => {
      localStorage.setItem('spelbord.speed', '"normal"');
      /** @type {string[]} */
      const slides = [];
      // @ts-ignore
      window.slides = slides;
      // @ts-ignore
      window.marked = 0;
      new MutationObserver(() => {
        // @ts-ignore
        if (document.querySelector(`.board-svg ${marked}`)) window.marked += 1;
        for (const el of document.querySelectorAll(`.board-svg ${moving}`)) {
          const line = `${getComputedStyle(el).animationName} ${el.getAttribute('style')}`;
          if (slides[slides.length - 1] !== line) slides.push(line);
        }
      }).observe(document, { subtree: true, childList: true });
    }, { moving: f.moving, marked: f.marked });
    await createInLobby(page, env.server.url, f.game, f.options, ['you', 'ai']);
    const myTurn = () => page.waitForFunction(() => document.querySelector('.status-bar')?.classList.contains('your-turn')
      && !document.querySelector('.controls .muted'), null, { timeout: 60000 });
    let seed = 5;
    const random = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
    // Three turns, and up to five more while the computer has not moved a
    // piece yet (the dice may leave it only passes: Stumphög).
    // @ts-ignore
    const seen = async () => (await page.evaluate(() => window.slides.length)) > 0;
    for (let turn = 0; turn < 8 && (turn < 3 || !(await seen())); turn++) {
      await myTurn();
      await playOneMove(page, random);
    }
    await myTurn();
    // @ts-ignore
    const slides = /** @type {string[]} */ (await page.evaluate(() => window.slides));
    assert.ok(slides.length >= 1, 'the computer\'s move was animated');
    assert.ok(slides.every((x) => /^[a-z-]+ --dx: -?\d+px; --dy: -?\d+px; --slide-ms: 450ms/.test(x) && !x.startsWith('none')), slides.join(' | '));
    assert.ok(slides.some((x) => !/--dx: 0px; --dy: 0px/.test(x)), 'a slide moves');
    // @ts-ignore
    assert.ok(await page.evaluate(() => window.marked) >= 1, 'the last move is marked');
    await shot(page, `${f.game}-last-move`);
    assert.deepEqual(errors, []);
    await context.close();
  });
}

test('a match: the final position of a game (the server\'s) stays on the board with the score until Next game, also after a reload, and the next game\'s moves wait', async () => {
  const { context, page, errors } = await newPage(env.browser, 'desktop');
  const sent = await watchPositions(page);
  /** The position the board shows, and the last one the server sent with the move at its version. */
  const finalPositions = async () => {
    const v = Number(await page.locator('.board-wrap').getAttribute('data-version'));
    const drawn = (await drawnByVersion(page)).get(v) || [];
    const boards = sent.get(v)?.boards || [];
    return { drawn: drawn[drawn.length - 1], sent: boards.length ? boardText(boards[boards.length - 1]) : 'none' };
  };
  await createInLobby(page, env.server.url, 'backgammon', { match: '5' }, ['you', 'ai']);
  let seed = 11;
  const random = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
  const between = page.locator('[data-testid="next-game"]');
  for (let moves = 0; moves < 300 && !(await between.count()); moves++) {
    await page.waitForFunction(() => document.querySelector('[data-testid="next-game"]')
      || (document.querySelector('.status-bar')?.classList.contains('your-turn') && !document.querySelector('.controls .muted')), null, { timeout: 60000 });
    if (await between.count()) break;
    await playOneMove(page, random);
  }
  // The game was played out (no cube): one side has borne off all fifteen,
  // and the board shows it beside the result and the match score (once the
  // last play has been shown step by step).
  const offCounts = () => page.locator('.board-svg .tray-label').allTextContents();
  await page.waitForFunction(() => [...document.querySelectorAll('.board-svg .tray-label')].some((e) => e.textContent === '15 off'));
  assert.ok((await offCounts()).includes('15 off'), (await offCounts()).join(' | '));
  const shown = await finalPositions();
  assert.equal(shown.drawn, shown.sent, 'the final position is the last the server sent with the move');
  // The computer's plays were drawn with the server's positions, step by step.
  assert.ok(checkPlaysDrawn(sent, await drawnByVersion(page), assert.deepEqual) > 0, 'the computer\'s plays were checked');
  assert.match(await page.locator('[data-testid="between-games"]').textContent() || '', /The match, to 5/);
  assert.equal(await page.locator('[data-testid="hint"], form.notation:visible').count(), 0, 'nothing to play meanwhile: no Hint, no notation box');
  await shot(page, 'match-final-position');
  // The next game begins only when the player goes on: its opening roll is
  // not in the log yet.
  const openings = async () => (await page.locator('.log li').allTextContents()).filter((x) => /the roll for the start/.test(x)).length;
  await page.waitForTimeout(500);
  assert.ok((await offCounts()).includes('15 off'), 'the final position stays');
  assert.equal(await openings(), 1, `only the first game's opening roll: ${(await page.locator('.log li').allTextContents()).slice(-4).join(' | ')}`);
  // A reload keeps the final position, the score and Next game.
  await page.reload();
  await between.waitFor({ timeout: 20000 });
  assert.ok((await offCounts()).includes('15 off'), `the final position after a reload: ${(await offCounts()).join(' | ')}`);
  const reloaded = await finalPositions();
  assert.equal(reloaded.drawn, shown.sent, 'after a reload the final position is again the server\'s (from the replay)');
  assert.match(await page.locator('[data-testid="between-games"]').textContent() || '', /The match, to 5/);
  await page.waitForFunction(() => document.querySelectorAll('.log li[data-testid="log-move"]').length > 0);
  assert.equal(await openings(), 1, 'no opening roll of the next game after a reload either');
  await shot(page, 'match-final-position-reloaded');
  await between.click();
  await page.waitForFunction(() => ![...document.querySelectorAll('.board-svg .tray-label')].some((e) => e.textContent === '15 off'));
  assert.equal(await page.locator('[data-testid="between-games"]').count(), 0);
  assert.equal(await openings(), 2, 'the next game\'s opening roll once the player goes on');
  // Gone on: a reload shows the next game.
  await page.reload();
  await page.waitForFunction(() => document.querySelectorAll('.log li[data-testid="log-move"]').length > 0);
  await page.waitForTimeout(500);
  assert.equal(await between.count(), 0, 'no Next game again after going on');
  assert.ok(!(await offCounts()).includes('15 off'));
  assert.deepEqual(errors, []);
  await context.close();
});

test('the computer\'s move stays on screen for the chosen pause before the next roll replaces it', async () => {
  const { page, errors } = await newPage(env.browser, 'desktop');
  await page.addInitScript(() => {
    localStorage.setItem('spelbord.speed', '"normal"');
    /** Each drawn position: when, and what the log's last line was then. @type {{v: number, at: number, last: string}[]} */
    const drawn = [];
    // @ts-ignore
    window.drawn = drawn;
    new MutationObserver(() => {
      const v = Number(document.querySelector('.board-wrap')?.getAttribute('data-version'));
      if (!v || (drawn.length && drawn[drawn.length - 1].v === v)) return;
      const li = document.querySelector('.log li:last-child');
      const last = !li ? '' : li.classList.contains('chance') ? 'chance' : li.querySelector('.who')?.textContent?.startsWith('You') ? 'me' : 'other';
      drawn.push({ v, at: performance.now(), last });
    }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-version'] });
  });
  await createInLobby(page, env.server.url, 'tawla', {}, ['you', 'ai']);
  let seed = 7;
  const random = () => { seed = (seed * 16807) % 2147483647; return seed / 2147483647; };
  /** @type {{v: number, at: number, last: string}[]} */
  let drawn = [];
  for (let moves = 0; moves < 12; moves++) {
    await page.waitForFunction(() => document.querySelector('.status-bar')?.classList.contains('your-turn')
      || document.querySelector('[data-testid="game-over"]'), null, { timeout: 60000 });
    if (await page.locator('[data-testid="game-over"]').count()) break;
    await playOneMove(page, random);
    // @ts-ignore
    drawn = await page.evaluate(() => window.drawn);
    const pairs = drawn.slice(1).filter((d, i) => drawn[i].last === 'other' && d.last === 'chance');
    if (pairs.length >= 3) break;
  }
  // Every roll drawn after the computer's move came at least the pause
  // (750 ms at "normal") after that move was drawn.
  const gaps = drawn.slice(1).flatMap((d, i) => (drawn[i].last === 'other' && d.last === 'chance' ? [d.at - drawn[i].at] : []));
  assert.ok(gaps.length >= 2, `the computer moved and my rolls followed: ${JSON.stringify(drawn)}`);
  for (const gap of gaps) assert.ok(gap >= 700, `the computer's move stayed ${Math.round(gap)} ms: ${gaps.map(Math.round)}`);
  assert.deepEqual(errors, []);
});
