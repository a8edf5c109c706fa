// @ts-check
/**
 * Dates in the page's language (Western digits, as the client writes its
 * numbers) and the line chart (SVG) of a rating's history: dates on x,
 * the rating on y with its deviation as a band, axes with ticks and labels.
 */

import { s } from './dom.js';
import { language, t } from './i18n.js';

/**
 * A time from the server (unix seconds, milliseconds or an ISO date) in
 * milliseconds; NaN when it is none of them.
 * @param {number | string | null | undefined} v
 * @returns {number}
 */
export function toMs(v) {
  if (typeof v === 'number') return v < 1e12 ? v * 1000 : v;
  if (typeof v === 'string') return /^\d+$/.test(v) ? toMs(Number(v)) : Date.parse(v);
  return NaN;
}

/**
 * A date in words of the page's language ("12 March 2025"), or "" when
 * there is none.
 * @param {number | string | null | undefined} v
 * @param {Intl.DateTimeFormatOptions} [style]
 */
export function dateText(v, style = { dateStyle: 'medium' }) {
  const ms = toMs(v);
  if (!Number.isFinite(ms)) return '';
  try {
    return new Intl.DateTimeFormat(language(), { ...style, numberingSystem: 'latn' }).format(new Date(ms));
  } catch {
    return new Date(ms).toISOString().slice(0, 10);
  }
}

/** A rating as written (Western digits, no decimals). @param {number} n */
export function ratingText(n) {
  return String(Math.round(n));
}

/**
 * Round steps between `lo` and `hi`, about `count` of them.
 * @param {number} lo @param {number} hi @param {number} count
 */
function niceTicks(lo, hi, count) {
  const raw = (hi - lo) / Math.max(1, count);
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * mag).find((m) => m >= raw) || 10 * mag;
  const out = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + 1e-9; v += step) out.push(v);
  return out;
}

const PAD = { left: 56, right: 18, top: 14, bottom: 44 };

/**
 * The chart of a pool's rating over time.
 * @param {import('./types.js').RatingPoint[]} history
 * @param {string} label the chart's accessible name
 * @param {boolean} [narrow] drawn for a phone (a narrower picture, its
 *   words as large, three dates)
 * @returns {SVGElement}
 */
export function ratingChart(history, label, narrow = false) {
  const W = narrow ? 360 : 640;
  const H = narrow ? 240 : 260;
  const dates = narrow ? 3 : 5;
  const points = history
    .map((p) => ({ x: toMs(p.at), y: Number(p.rating), d: Math.max(0, Number(p.deviation) || 0) }))
    .filter((p) => Number.isFinite(p.x) && Number.isFinite(p.y))
    .sort((a, b) => a.x - b.x);
  const DAY = 86400000;
  let x0 = Math.min(...points.map((p) => p.x));
  let x1 = Math.max(...points.map((p) => p.x));
  if (!(x1 > x0)) { x0 -= DAY; x1 += DAY; }
  let y0 = Math.min(...points.map((p) => p.y - p.d));
  let y1 = Math.max(...points.map((p) => p.y + p.d));
  if (!(y1 > y0)) { y0 -= 50; y1 += 50; }
  const yTicks = niceTicks(y0, y1, 5);
  y0 = Math.min(y0, yTicks[0]);
  y1 = Math.max(y1, yTicks[yTicks.length - 1]);
  const px = (/** @type {number} */ x) => PAD.left + ((x - x0) / (x1 - x0)) * (W - PAD.left - PAD.right);
  const py = (/** @type {number} */ y) => H - PAD.bottom - ((y - y0) / (y1 - y0)) * (H - PAD.top - PAD.bottom);
  const long = x1 - x0 > 300 * DAY;
  const xTicks = Array.from({ length: dates }, (_, i) => x0 + ((x1 - x0) * i) / (dates - 1));
  const tickStyle = /** @type {Intl.DateTimeFormatOptions} */ (long ? { year: 'numeric', month: 'short' } : { month: 'short', day: 'numeric' });
  const line = points.map((p, i) => `${i ? 'L' : 'M'} ${px(p.x).toFixed(1)} ${py(p.y).toFixed(1)}`).join(' ');
  const band = points.length
    ? `M ${points.map((p) => `${px(p.x).toFixed(1)} ${py(p.y + p.d).toFixed(1)}`).join(' L ')} L ${points.slice().reverse().map((p) => `${px(p.x).toFixed(1)} ${py(p.y - p.d).toFixed(1)}`).join(' L ')} Z`
    : '';
  const bottom = H - PAD.bottom;
  return s('svg', { viewBox: `0 0 ${W} ${H}`, class: 'rating-chart', role: 'img', 'aria-label': label },
    s('title', {}, label),
    // Grid and the y axis's ticks (ratings).
    yTicks.map((v) => [
      s('line', { class: 'chart-grid', x1: PAD.left, x2: W - PAD.right, y1: py(v), y2: py(v) }),
      s('text', { class: 'chart-tick', x: PAD.left - 6, y: py(v) + 4, 'text-anchor': 'end' }, ratingText(v)),
    ]),
    // The x axis's ticks (dates).
    xTicks.map((v, i) => [
      s('line', { class: 'chart-axis', x1: px(v), x2: px(v), y1: bottom, y2: bottom + 5 }),
      s('text', { class: 'chart-tick', x: px(v), y: bottom + 18, 'text-anchor': i === 0 ? 'start' : i === dates - 1 ? 'end' : 'middle' }, dateText(v, tickStyle)),
    ]),
    s('line', { class: 'chart-axis', x1: PAD.left, x2: PAD.left, y1: PAD.top, y2: bottom }),
    s('line', { class: 'chart-axis', x1: PAD.left, x2: W - PAD.right, y1: bottom, y2: bottom }),
    s('text', { class: 'chart-label', x: 14, y: (PAD.top + bottom) / 2, transform: `rotate(-90 14 ${(PAD.top + bottom) / 2})`, 'text-anchor': 'middle' }, t('profile.chart.rating')),
    s('text', { class: 'chart-label', x: (PAD.left + W - PAD.right) / 2, y: H - 4, 'text-anchor': 'middle' }, t('profile.chart.date')),
    band && s('path', { class: 'chart-band', d: band }),
    s('path', { class: 'chart-line', d: line }),
    points.map((p) => s('circle', { class: 'chart-dot', cx: px(p.x), cy: py(p.y), r: 3 })));
}
