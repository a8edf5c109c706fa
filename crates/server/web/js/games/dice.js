// @ts-check
/** Dice and the doubling cube, drawn in SVG. */

import { listText, t } from '../i18n.js';
import { s } from '../dom.js';

/** Pip positions on a die face, in thirds of its size. */
const PIPS = /** @type {Record<number, [number, number][]>} */ ({
  1: [[1, 1]],
  2: [[0, 0], [2, 2]],
  3: [[0, 0], [1, 1], [2, 2]],
  4: [[0, 0], [2, 0], [0, 2], [2, 2]],
  5: [[0, 0], [2, 0], [1, 1], [0, 2], [2, 2]],
  6: [[0, 0], [2, 0], [0, 1], [2, 1], [0, 2], [2, 2]],
});

/**
 * One die.
 * @param {number} x left
 * @param {number} y top
 * @param {number} size side length
 * @param {number} value 1..6
 * @param {{used?: boolean, dark?: boolean, roll?: boolean}} [opts] faded when
 *   used; dark for the second player; `roll` animates it as freshly rolled
 */
export function die(x, y, size, value, opts = {}) {
  const step = size / 4;
  const r = size * 0.09;
  const cls = ['die', opts.dark ? 'die-dark' : 'die-light', opts.used ? 'die-used' : '', opts.roll ? 'die-roll' : '']
    .filter(Boolean)
    .join(' ');
  return s('g', { class: cls, transform: `translate(${x} ${y})`, 'aria-hidden': 'true' },
    s('g', { class: 'die-body', style: `transform-origin: ${size / 2}px ${size / 2}px` },
      s('rect', { x: 0, y: 0, width: size, height: size, rx: size * 0.18, class: 'die-face' }),
      (PIPS[value] || []).map(([cx, cy]) =>
        s('circle', { cx: step * (cx + 1), cy: step * (cy + 1), r, class: 'die-pip' })),
    ),
  );
}

/**
 * A row of dice, centred on (cx, cy), with an accessible summary.
 * @param {number} cx
 * @param {number} cy
 * @param {number} size
 * @param {number[]} values
 * @param {boolean[]} used which dice are used up
 * @param {{dark?: boolean, roll?: boolean, label?: string}} [opts]
 */
export function diceRow(cx, cy, size, values, used, opts = {}) {
  const gap = size * 0.25;
  const width = values.length * size + (values.length - 1) * gap;
  const x0 = cx - width / 2;
  return s('g', { class: 'dice', role: 'img', 'aria-label': opts.label || t('board.dice', { dice: listText(values.map(String)) }) },
    values.map((v, i) => die(x0 + i * (size + gap), cy - size / 2, size, v,
      { used: used[i], dark: opts.dark, roll: opts.roll })),
  );
}

/**
 * Which of the dice `values` the used `dice` take up (each used value
 * marks one die with that value; a die bigger than needed to bear off is
 * marked as given).
 * @param {number[]} values
 * @param {number[]} dice
 */
export function usedDice(values, dice) {
  const used = values.map(() => false);
  for (const d of dice) {
    const i = values.findIndex((v, j) => v === d && !used[j]);
    if (i >= 0) used[i] = true;
  }
  return used;
}

/**
 * The doubling cube.
 * @param {number} cx
 * @param {number} cy
 * @param {number} size
 * @param {number} value shown as 64 when 1 (the custom for an unused cube)
 * @param {string} label
 */
export function cube(cx, cy, size, value, label) {
  return s('g', { class: 'cube', role: 'img', 'aria-label': label, transform: `translate(${cx - size / 2} ${cy - size / 2})` },
    s('rect', { width: size, height: size, rx: size * 0.14, class: 'cube-face' }),
    s('text', { x: size / 2, y: size / 2, class: 'cube-text', 'dominant-baseline': 'central', 'text-anchor': 'middle',
      'font-size': size * (value >= 10 ? 0.45 : 0.55) }, String(value === 1 ? 64 : value)),
  );
}
