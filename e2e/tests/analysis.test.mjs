// @ts-check
/**
 * The computer's analysis of a finished game in its replay: "Analyse" on
 * the finished table leads there and asks the server; the move list shows
 * the marks; the chart of the chances is drawn, with its axes, their
 * labels and the scale of the chance to win, and a click on it jumps to
 * that position; the board shows the best action beside the one played;
 * the judge is said in words; the panel in Swedish, Persian and Greek.
 */

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newPage, serverAndBrowser, shot } from '../lib/harness.mjs';

/** The server and the browser of this file's tests. */
const env = serverAndBrowser();

/** A backgammon game the server's greedy AI (`ai:medium`) plays out against itself (shorter than random play, so quicker to judge); its id. */
async function finishedGame() {
  const res = await fetch(`${env.server.url}/api/tables`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ game: 'backgammon', seats: ['ai:medium', 'ai:medium'] }),
  });
  assert.equal(res.status, 201);
  const { id } = await res.json();
  for (let i = 0; i < 600; i++) {
    const table = await (await fetch(`${env.server.url}/api/tables/${id}`)).json();
    if (table.state.turn.kind === 'over') return id;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the AI game did not finish in a minute');
}

test('a finished game is analysed: marks in the move list, the chart of chances, the best action on the board', async () => {
  const id = await finishedGame();
  const { context, page, errors } = await newPage(env.browser, 'desktop');
  await page.goto(`${env.server.url}/t/${id}`);
  // "Analyse" on the game-over box.
  const over = page.locator('[data-testid="game-over"] [data-testid="over-analyse"]');
  await over.waitFor();
  await shot(page, 'analysis-game-over');
  await over.click();
  await page.waitForURL(/\?replay&analyse/);
  const chart = page.locator('[data-testid="chance-chart"]');
  // The deep judge (two plies and rollouts) takes one to two minutes of a
  // quiet core for a game, more on a busy one: a deadline, not a timing.
  await chart.waitFor({ timeout: 600000 });
  // The scale of the chance to win, 0 to 100 %, and the axes' labels.
  assert.deepEqual(await chart.locator('[data-testid="chart-y-tick"]').allTextContents(), ['0%', '25%', '50%', '75%', '100%']);
  assert.deepEqual(await chart.locator('.chart-label').allTextContents(), ['Chance to win', 'Move']);
  // The judge in words, never an agent spec.
  const judge = await page.locator('[data-testid="analysis-judge"]').textContent() || '';
  assert.match(judge, /^Judged by the computer, deep;/);
  assert.doesNotMatch(judge, /net|ply/);
  // A line per player, through the decisions.
  const lines = chart.locator('polyline');
  assert.equal(await lines.count(), 2);
  const points = (await lines.first().getAttribute('points') || '').trim().split(' ');
  assert.ok(points.length > 5, `${points.length} points`);

  const analysis = await (await fetch(`${env.server.url}/api/tables/${id}/analysis`)).json();
  assert.equal(analysis.status, 'done');
  const marked = analysis.analysis.decisions.filter((/** @type {any} */ d) => d.mark);
  // Random play is bad play: the analyser marks some of it, and so does the list.
  assert.ok(marked.length > 0, 'random play earns marks');
  assert.equal(await page.locator('[data-testid="move-mark"]').count(), marked.length);
  const first = marked[0];
  const li = page.locator(`li[data-at="${first.index + 1}"] [data-testid="move-mark"]`);
  assert.equal(await li.textContent(), ` ${{ doubtful: '?!', bad: '?', very_bad: '??' }[/** @type {'doubtful'} */ (first.mark)]}`);
  assert.equal(await page.locator('[data-testid="analysis-players"] tr').count(), 3);
  // Each player by seat (colour) and name: two computers are told apart.
  const seats = await page.locator('[data-testid="analysis-seat"]').allTextContents();
  assert.match(seats[0], /White · /);
  assert.match(seats[1], /Black · /);

  // A click in the chart jumps to the position at that place. The click is
  // placed relative to the chart (Playwright scrolls it into view first). A
  // step is narrower than a pixel of the chart in a long game (and the
  // browser rounds the click to whole pixels), so the position may be one
  // off; the move list's link then goes to the marked move exactly.
  const box = await chart.boundingBox();
  assert.ok(box);
  const steps = Number(await page.locator('input[type=range]').getAttribute('max'));
  assert.ok(steps > 0, `${steps} steps`);
  const target = first.index + 1;
  // The plot's place in the chart, as fractions of its width.
  const [left, width] = (await chart.getAttribute('data-plot') || '').split(' ').map(Number);
  const x = Math.min(box.width - 1, Math.max(1, (left + (target / steps) * width) * box.width));
  await chart.click({ position: { x, y: box.height / 2 } });
  const near = await page.waitForFunction((t) => {
    const m = /(\d+) of/.exec(document.querySelector('[data-testid="replay-pos"]')?.textContent || '');
    return m !== null && Math.abs(Number(m[1]) - t) <= 1;
  }, target, { timeout: 5000 }).then(() => true, () => false);
  assert.ok(near, `the chart's click went to "${await page.locator('[data-testid="replay-pos"]').textContent()}", not near ${target} of ${steps}`);
  await page.locator(`li[data-at="${target}"] a`).click();
  await page.waitForFunction((t) => document.querySelector('[data-testid="replay-pos"]')?.textContent === `Move ${t} of ${document.querySelector('input[type=range]')?.getAttribute('max')}`, target);
  // The board shows the move played with its mark, and the best one beside it.
  const note = page.locator('[data-testid="best-note"]');
  await note.waitFor();
  assert.match(await note.textContent() || '', new RegExp(`Played: ${first.played.replace(/[*/]/g, '\\$&')}`));
  assert.equal(await page.locator('[data-testid="best-action"]').textContent(), first.best);
  await shot(page, 'analysis-desktop');
  assert.deepEqual(errors, []);
  await context.close();

  // On a phone, in Swedish, the panel and chart fit too; the replay reads
  // the stored analysis.
  const phone = await newPage(env.browser, 'phone');
  await phone.context.addInitScript(() => localStorage.setItem('spelbord.lang', 'sv'));
  await phone.page.goto(`${env.server.url}/t/${id}?replay`);
  await phone.page.locator('[data-testid="chance-chart"]').waitFor();
  assert.equal(await phone.page.locator('.analysis h2').textContent(), 'Analys');
  assert.equal(await phone.page.locator('[data-testid="analysis-players"] th').nth(1).textContent(), 'felfrekvens');
  assert.match(await phone.page.locator('[data-testid="analysis-judge"]').textContent() || '', /^Bedömt av datorn, djupt;/);
  assert.equal(await phone.page.locator('[data-testid="chance-chart"] .chart-label').first().textContent(), 'Vinstchans');
  // The chart fits the phone's width.
  const phoneBox = await phone.page.locator('[data-testid="chance-chart"]').boundingBox();
  assert.ok(phoneBox && phoneBox.x >= 0 && phoneBox.x + phoneBox.width <= 400, JSON.stringify(phoneBox));
  await shot(phone.page, 'analysis-phone-sv');
  assert.deepEqual(phone.errors, []);
  await phone.context.close();

  // Every language says the judge and labels the axes in its own words.
  for (const [lang, judgeWords, chance] of [['de', 'Computer, gründlich', 'Gewinnchance'], ['fa', 'رایانه، عمیق', 'شانس برد'],
    ['ar', 'الحاسوب، بعمق', 'فرصة الفوز'], ['el', 'ο υπολογιστής, σε βάθος', 'Πιθανότητα νίκης']]) {
    const other = await newPage(env.browser, lang === 'el' ? 'desktop' : 'phone');
    await other.context.addInitScript((l) => localStorage.setItem('spelbord.lang', l), lang);
    await other.page.goto(`${env.server.url}/t/${id}?replay`);
    await other.page.locator('[data-testid="chance-chart"]').waitFor();
    assert.ok((await other.page.locator('[data-testid="analysis-judge"]').textContent() || '').includes(judgeWords), lang);
    assert.equal(await other.page.locator('[data-testid="chance-chart"] .chart-label').first().textContent(), chance, lang);
    if (lang === 'fa') await shot(other.page, 'analysis-phone-fa');
    assert.deepEqual(other.errors, [], lang);
    await other.context.close();
  }
});

test('an unfinished game offers no analysis', async () => {
  const res = await fetch(`${env.server.url}/api/tables`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ game: 'backgammon', seats: ['open', 'ai:random'] }),
  });
  const { id } = await res.json();
  const { context, page, errors } = await newPage(env.browser, 'desktop');
  await page.goto(`${env.server.url}/t/${id}?replay`);
  await page.locator('[data-testid="analysis"]').getByText('once it is over').waitFor();
  assert.equal(await page.locator('[data-testid="analyse"]').count(), 0);
  assert.deepEqual(errors, []);
  await context.close();
});
