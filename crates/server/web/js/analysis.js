// @ts-check
/**
 * The computer's analysis of a finished game in its replay: the "Analyse"
 * button (the server analyses in the background; this polls until done),
 * the marks in the move list, an SVG chart of each player's chance to win
 * over the game (a click jumps to that position), the error rates per
 * player, and on the board the best action beside the one played.
 */

import * as api from './api.js';
import { h, s, replace } from './dom.js';
import { ltr, t } from './i18n.js';
import { colourName, seatRole } from './names.js';

/**
 * @typedef {{index: number, player: number, cube: boolean, played: string, best: string,
 *   played_rating: number | null, best_rating: number | null, loss: number | null,
 *   mark: 'doubtful' | 'bad' | 'very_bad' | null, chance: number | null}} Decision
 * @typedef {{player: number, name: string, colour?: string | null, moves: number, move_error_rate: number,
 *   cube_decisions: number, cube_error_rate: number, doubtful: number, bad: number,
 *   very_bad: number, luck: number | null}} PlayerFigures
 * @typedef {{game: string, analyser: string, judge?: 'deep' | 'quick' | 'custom', unit: string, decisions: Decision[],
 *   players: PlayerFigures[]}} Analysis
 */

/** The marks as players write them. */
const SYMBOL = { doubtful: '?!', bad: '?', very_bad: '??' };
/** A colour per player for the chart. */
const COLOURS = ['#9c3d24', '#1f5a40', '#2d5c9c', '#b3821e'];
/** The chart's picture (viewBox units) and its plot inside the axes. */
const PLOT = { W: 320, H: 170, left: 52, right: 310, top: 8, bottom: 136 };
/** How often the status of a queued analysis is read (ms). */
const POLL = 1000;

/** @param {number | null} x */
const rating = (x) => (x === null || x === undefined ? '–' : (x >= 0 ? '+' : '') + x.toFixed(3));

/**
 * The analysis panel of a replay.
 * @param {string} tableId
 * @param {{finished: boolean, steps: any[]}} replay
 * @param {string[]} names the players' names
 * @param {(step: number) => void} go jumps the replay to a step
 * @returns {{element: HTMLElement, markList: (list: HTMLElement) => void,
 *   show: (step: number, board: HTMLElement) => void, start: () => void, stop: () => void}}
 */
export function analysisPanel(tableId, replay, names, go) {
  const last = replay.steps.length - 1;
  const body = h('div', { 'data-testid': 'analysis' });
  const element = h('div', { class: 'panel analysis' }, h('h2', {}, t('analysis.title')), body);
  /** @type {Analysis | null} */
  let analysis = null;
  /** @type {Map<number, Decision>} decisions by the step that shows them */
  const byStep = new Map();
  /** @type {HTMLElement | null} */
  let list = null;
  /** @type {SVGElement | null} */
  let cursor = null;
  let current = last;

  /** @param {Analysis} a */
  const show = (a) => {
    analysis = a;
    byStep.clear();
    for (const d of a.decisions) byStep.set(d.index + 1, d);
    const chart = chanceChart(a, last, current, names, go);
    cursor = chart.cursor;
    replace(body,
      chart.svg,
      playersTable(a, names),
      h('p', { class: 'small muted', 'data-testid': 'analysis-judge' }, t(a.unit === 'equity' ? 'analysis.by.equity' : 'analysis.by.win_chance', { judge: t(`analysis.judge.${a.judge || 'custom'}`) })));
    if (list) markList(list);
    draw();
  };
  const status = analysisStatus(tableId, replay.finished, body, show);

  /** Puts the marks in the move list. @param {HTMLElement} el */
  const markList = (el) => {
    list = el;
    for (const li of el.querySelectorAll('li')) {
      const d = byStep.get(Number(li.getAttribute('data-at')));
      li.querySelector('.move-mark')?.remove();
      if (!d || !d.mark) continue;
      li.append(h('span', { class: `move-mark mark-${d.mark}`, 'data-testid': 'move-mark',
        title: t('analysis.mark_title', { mark: t(`analysis.mark.${d.mark}`), loss: (d.loss ?? 0).toFixed(3), best: ltr(d.best) }) }, ` ${SYMBOL[d.mark]}`));
    }
  };

  /** @type {HTMLElement | null} */
  let board = null;
  /** Moves the chart's cursor to the step shown, and notes the best action on the board. */
  const draw = () => {
    const at = PLOT.left + (last > 0 ? (current / last) * (PLOT.right - PLOT.left) : 0);
    if (cursor) for (const k of ['x1', 'x2']) cursor.setAttribute(k, String(at));
    if (!board || !analysis) return;
    board.querySelector('.best-note')?.remove();
    const d = byStep.get(current);
    if (d) board.append(bestNote(d));
  };

  return {
    element,
    markList,
    /** Shows the analysis of the step on the board. */
    show: (step, el) => {
      current = step;
      board = el;
      draw();
    },
    /** Reads where the analysis stands; with `?analyse` in the address, asks for it. */
    start: () => {
      if (new URLSearchParams(window.location.search).has('analyse') && replay.finished) {
        status.ask();
        return;
      }
      status.read();
    },
    stop: () => status.stop(),
  };
}

/**
 * Where a table's analysis stands, in `body`: the Analyse button, asking,
 * queued or running (read again every second until done), failed; done, it
 * is handed to `done`.
 * @param {string} tableId @param {boolean} finished whether the game is over (else nothing to analyse)
 * @param {HTMLElement} body @param {(a: Analysis) => void} done
 */
function analysisStatus(tableId, finished, body, done) {
  /** @type {ReturnType<typeof setTimeout> | null} */
  let timer = null;
  let stopped = false;

  const button = h('button', { class: 'btn small', 'data-testid': 'analyse', onclick: () => ask() }, t('analysis.analyse'));
  const idle = (/** @type {string} */ note) => replace(body,
    h('p', { class: 'small muted' }, note), finished ? button : null);

  /** @param {string} text */
  const waiting = (text) => replace(body, h('p', { class: 'small', 'data-testid': 'analysis-status' }, text));

  /** Reads the status until the analysis is done. */
  const poll = async () => {
    timer = null;
    if (stopped) return;
    try {
      take(await api.getAnalysis(tableId));
    } catch (e) {
      idle(t('analysis.unreadable', { reason: e instanceof Error ? e.message : String(e) }));
    }
  };

  /** @param {{status: string, analysis?: Analysis}} answer */
  const take = (answer) => {
    if (stopped) return;
    if (answer.status === 'done' && answer.analysis) {
      done(answer.analysis);
    } else if (answer.status === 'queued' || answer.status === 'running') {
      waiting(t(answer.status === 'queued' ? 'analysis.queued' : 'analysis.running'));
      timer = setTimeout(poll, POLL);
    } else if (answer.status === 'failed') {
      idle(t('analysis.failed'));
    } else {
      idle(t(finished ? 'analysis.intro' : 'analysis.not_over'));
    }
  };

  const ask = async () => {
    waiting(t('analysis.asking'));
    try {
      take(await api.requestAnalysis(tableId));
    } catch (e) {
      const busy = e instanceof api.ApiError && e.code === 'analysis_busy';
      idle(busy ? t('analysis.busy') : t('analysis.none', { reason: e instanceof Error ? e.message : String(e) }));
    }
  };

  return {
    /** Asks the server to analyse the game. */
    ask,
    /** Reads where the analysis stands. */
    read: () => {
      waiting(t('analysis.reading'));
      poll();
    },
    /** Stops reading. */
    stop: () => {
      stopped = true;
      if (timer) clearTimeout(timer);
    },
  };
}

/**
 * The chart of each player's chance to win over the game, with the marked
 * decisions and a cursor at step `current`; a click jumps (`go`) to the
 * step under it.
 * @param {Analysis} a @param {number} last the last step @param {number} current
 * @param {string[]} names @param {(step: number) => void} go
 * @returns {{svg: SVGElement, cursor: SVGElement}}
 */
function chanceChart(a, last, current, names, go) {
  const { W, H, left, right, top, bottom } = PLOT;
  const x = (/** @type {number} */ step) => left + (last > 0 ? (step / last) * (right - left) : 0);
  const y = (/** @type {number} */ p) => bottom - p * (bottom - top);
  // Each player's line runs through his own decisions: his chance after
  // each of his moves, always measured with the other side to roll.
  /** @type {[number, number][][]} */
  const lines = a.players.map(() => []);
  for (const d of a.decisions) {
    if (d.chance === null || d.chance === undefined) continue;
    lines[d.player]?.push([d.index + 1, d.chance]);
  }
  const moves = last > 0 ? [0, Math.round(last / 2), last] : [0];
  const cursor = s('line', { x1: x(current), x2: x(current), y1: top, y2: bottom, class: 'chart-cursor', stroke: '#6f655b', 'stroke-width': 1 });
  const svg = s('svg', { viewBox: `0 0 ${W} ${H}`, class: 'chance-chart', 'data-testid': 'chance-chart', role: 'img',
    'aria-label': t('analysis.chart'), direction: 'ltr', 'data-plot': `${left / W} ${(right - left) / W}` },
  s('rect', { x: left, y: top, width: right - left, height: bottom - top, fill: '#fffdf8', stroke: '#ddd2bf' }),
  // The scale of the chance to win, 0 to 100 %, with a line at 50 %.
  [0, 0.25, 0.5, 0.75, 1].map((v) => [
    s('line', { class: 'chart-grid', x1: left, x2: right, y1: y(v), y2: y(v), 'stroke-dasharray': v === 0.5 ? '4 3' : null }),
    s('text', { class: 'chart-tick', x: left - 4, y: y(v) + 4, 'text-anchor': 'end', 'data-testid': 'chart-y-tick' }, `${Math.round(v * 100)}%`),
  ]),
  moves.map((m, i) => s('text', { class: 'chart-tick', x: x(m), y: bottom + 14,
    'text-anchor': i === 0 ? 'start' : i === moves.length - 1 ? 'end' : 'middle' }, String(m))),
  s('line', { class: 'chart-axis', x1: left, x2: left, y1: top, y2: bottom }),
  s('line', { class: 'chart-axis', x1: left, x2: right, y1: bottom, y2: bottom }),
  s('text', { class: 'chart-label', x: 10, y: (top + bottom) / 2, transform: `rotate(-90 10 ${(top + bottom) / 2})`, 'text-anchor': 'middle' }, t('analysis.axis.chance')),
  s('text', { class: 'chart-label', x: (left + right) / 2, y: H - 3, 'text-anchor': 'middle' }, t('analysis.axis.move')),
  lines.map((pts, p) => s('polyline', { points: pts.map(([st, c]) => `${x(st).toFixed(1)},${y(c).toFixed(1)}`).join(' '),
    fill: 'none', stroke: COLOURS[p % COLOURS.length], 'stroke-width': 2, 'data-player': p })),
  a.decisions.filter((d) => d.mark && d.chance !== null).map((d) => s('circle', {
    cx: x(d.index + 1), cy: y(/** @type {number} */ (d.chance)), r: d.mark === 'very_bad' ? 4 : 3,
    fill: COLOURS[d.player % COLOURS.length], class: `chart-mark mark-${d.mark}` },
  s('title', {}, `${names[d.player]}: ${d.played} ${SYMBOL[d.mark || 'doubtful']}`))),
  cursor);
  svg.addEventListener('click', (e) => {
    const box = svg.getBoundingClientRect();
    const at = ((e.clientX - box.left) / box.width) * W;
    const step = Math.round(((at - left) / (right - left)) * last);
    go(Math.max(0, Math.min(last, step)));
  });
  return { svg, cursor };
}

/** The players' error rates and marks. @param {Analysis} a @param {string[]} names */
function playersTable(a, names) {
  return h('table', { class: 'small analysis-players', 'data-testid': 'analysis-players' },
    h('tr', {}, h('th', {}, ''), h('th', {}, t('analysis.error_rate')), h('th', { title: t('analysis.mark.doubtful') }, '?!'), h('th', { title: t('analysis.mark.bad') }, '?'), h('th', { title: t('analysis.mark.very_bad') }, '??')),
    a.players.map((p) => h('tr', {},
      h('td', { 'data-testid': 'analysis-seat' }, h('span', { style: `color: ${COLOURS[p.player % COLOURS.length]}` }, '● '),
        `${p.colour ? colourName(p.colour) : seatRole(a.game, p.player)} · ${names[p.player] || p.name}`),
      h('td', { title: t('analysis.rate_title', { n: p.moves }) }, (1000 * p.move_error_rate).toFixed(1)),
      h('td', {}, p.doubtful), h('td', {}, p.bad), h('td', {}, p.very_bad))));
}

/** The action played beside the best one, with their ratings. @param {Decision} d */
function bestNote(d) {
  const best = d.best === d.played;
  return h('div', { class: 'best-note', 'data-testid': 'best-note' },
    h('div', {}, h('b', {}, `${t('analysis.played')} `), ltr(d.played), d.mark ? h('span', { class: `move-mark mark-${d.mark}` }, ` ${SYMBOL[d.mark]}`) : null,
      ' ', h('span', { class: 'muted' }, rating(d.played_rating))),
    best ? h('div', { class: 'muted' }, t('analysis.same'))
      : h('div', {}, h('b', {}, `${t('analysis.best')} `), h('span', { 'data-testid': 'best-action' }, ltr(d.best)), ' ', h('span', { class: 'muted' }, rating(d.best_rating))));
}
