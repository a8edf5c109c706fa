// @ts-check
/**
 * A plain board for a game without its own drawing: the engine's text
 * picture. Its actions are played from the list of legal moves.
 */

import { t } from '../i18n.js';
import { s, svgRoot } from '../dom.js';

/** @typedef {import('../types.js').BoardContext} BoardContext */

/** @param {BoardContext} ctx */
function render(ctx) {
  const lines = String(ctx.text || JSON.stringify(ctx.obs)).split('\n');
  const height = 40 + lines.length * 24;
  return svgRoot(1000, height, t('board.generic'),
    s('rect', { width: 1000, height, rx: 16, class: 'generic-bg' }),
    lines.map((line, i) => s('text', { x: 24, y: 36 + i * 24, class: 'generic-text' }, line)));
}

/** @type {import('../types.js').GameUI} */
export const genericUI = {
  emptyPick: () => ({}),
  render,
  choose: (ctx) => ctx.pick,
  candidates: (ctx) => ctx.legal,
  complete: () => null,
  undo: () => ({}),
  isEmpty: () => true,
  prompt: (ctx) => (ctx.legal.length ? t('prompt.generic') : ''),
  onBoard: () => false,
  summary: () => '',
};
