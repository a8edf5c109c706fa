// @ts-check
/**
 * The tables board (Tawla, backgammon): 24 points, bar and bear-off tray,
 * in the viewer's numbering. Plays are built checker by checker from the
 * steps the server sends; see steps.js. Drawn by tablesdraw.js.
 */

import * as steps from './steps.js';
import { listText, ltr, t } from '../i18n.js';
import { render } from './tablesdraw.js';

/** @typedef {import('../types.js').ActionInfo} ActionInfo */
/** @typedef {import('../types.js').BoardContext} BoardContext */
/** @typedef {import('./steps.js').Step} Step */

/** The bar as a step's source. */
export const BAR = 25;
/** Off the board as a step's destination. */
export const OFF = 0;

/**
 * A board in one player's numbering (points 1..24, index 0 unused): `me`
 * is that player, `them` the other.
 * @typedef {Object} TBoard
 * @property {number[]} me checkers on top of each point
 * @property {number[]} them
 * @property {number[]} under a pinned checker under the top: 1 mine, -1 theirs, 0 none
 * @property {number} meBar
 * @property {number} themBar
 * @property {number} meOff
 * @property {number} themOff
 */

/**
 * The board in `who`'s numbering.
 * @param {any} obs a TablesView
 * @param {number} who seat 0 or 1
 * @returns {TBoard}
 */
export function boardFor(obs, who) {
  const sign = who === 0 ? 1 : -1;
  const b = obs.board;
  /** @type {TBoard} */
  const board = {
    me: new Array(25).fill(0),
    them: new Array(25).fill(0),
    under: new Array(25).fill(0),
    meBar: b.bar[who],
    themBar: b.bar[1 - who],
    meOff: b.off[who],
    themOff: b.off[1 - who],
  };
  for (let p = 1; p <= 24; p++) {
    const i = who === 0 ? p - 1 : 24 - p;
    const top = b.top[i] * sign;
    const under = (b.under ? b.under[i] : 0) * sign;
    board.me[p] = Math.max(top, 0);
    board.them[p] = Math.max(-top, 0);
    board.under[p] = Math.sign(under);
  }
  return board;
}

/**
 * The pick: steps chosen so far and the selected source.
 * @typedef {{steps: Step[], selected: number | null}} TablesPick
 */

/** @returns {TablesPick} */
function emptyPick() {
  return { steps: [], selected: null };
}

/** The seat whose numbering the board is drawn in. @param {BoardContext} ctx */
export function viewSeat(ctx) {
  return ctx.seat === 1 ? 1 : 0;
}

/** The legal plays made step by step, as the server sends them. @param {BoardContext} ctx */
export function graph(ctx) {
  return ctx.steps || null;
}

/** @param {BoardContext} ctx @returns {TablesPick} */
export function pickOf(ctx) {
  return ctx.pick && Array.isArray(ctx.pick.steps) ? ctx.pick : emptyPick();
}

/** The board after the steps chosen so far. @param {BoardContext} ctx */
export function currentBoard(ctx) {
  const after = pickOf(ctx).steps.length > 0 ? steps.boardAfter(graph(ctx), pickOf(ctx).steps) : null;
  return boardFor(after ? { ...ctx.obs, board: after } : ctx.obs, viewSeat(ctx));
}

/** Sources of next steps. @param {BoardContext} ctx */
export function sources(ctx) {
  return new Set(steps.nextSteps(graph(ctx), pickOf(ctx).steps).map((st) => st.from));
}

/** @param {number} p */
function pointName(p) {
  return p === BAR ? t('tb.the_bar') : p === OFF ? t('tb.off') : t('tb.point_n', { p });
}

/** @param {string} t @returns {number | null} */
function parseTarget(t) {
  if (t === 'bar') return BAR;
  if (t === 'off') return OFF;
  const m = /^p:(\d+)$/.exec(t);
  return m ? Number(m[1]) : null;
}

/**
 * @param {BoardContext} ctx
 * @param {string} t
 * @returns {TablesPick}
 */
function choose(ctx, t) {
  const pick = pickOf(ctx);
  const point = parseTarget(t);
  if (point === null) return pick;
  const srcs = sources(ctx);
  if (pick.selected !== null) {
    if (point === pick.selected) return { ...pick, selected: null };
    const dests = steps.destinations(graph(ctx), pick.steps, pick.selected);
    const path = dests.get(point);
    if (path) return { steps: [...pick.steps, ...path], selected: null };
  }
  if (srcs.has(point)) return { ...pick, selected: point };
  return pick;
}

/**
 * @param {BoardContext} ctx
 * @param {string} from
 * @param {string} to
 */
function drag(ctx, from, to) {
  const picked = choose({ ...ctx, pick: { ...pickOf(ctx), selected: null } }, from);
  if (picked.selected === null) return pickOf(ctx);
  return choose({ ...ctx, pick: picked }, to);
}

/** @param {BoardContext} ctx */
function candidates(ctx) {
  return steps.agreeing(graph(ctx), ctx.legal, pickOf(ctx).steps);
}

/** @param {BoardContext} ctx */
function complete(ctx) {
  return steps.completed(graph(ctx), ctx.legal, pickOf(ctx).steps);
}

/** @param {BoardContext} ctx @returns {TablesPick} */
function undo(ctx) {
  const pick = pickOf(ctx);
  if (pick.selected !== null) return { ...pick, selected: null };
  return { steps: pick.steps.slice(0, -1), selected: null };
}

/** @param {number} seat */
export function colourName(seat) {
  return seat === 0 ? t('role.white') : t('role.black');
}

/** @param {BoardContext} ctx */
function prompt(ctx) {
  const obs = ctx.obs;
  const pick = pickOf(ctx);
  if (ctx.legal.length === 0) return '';
  if (obs.phase === 'cube_decision') return t('tb.prompt.cube');
  if (obs.phase === 'cube_response') return t('tb.prompt.cube_offered', { n: obs.cube * 2 });
  if (complete(ctx)) {
    return t('prompt.complete', { play: ltr(pick.steps.map((st) => `${stepText(st)}`).join(' ')) });
  }
  if (pick.selected !== null) return t('tb.prompt.where', { from: pointName(pick.selected) });
  const left = listText((obs.dice || []).map(String));
  if (pick.steps.length === 0) {
    return currentBoard(ctx).meBar > 0 ? t('tb.prompt.roll_bar', { dice: left }) : t('tb.prompt.roll', { dice: left });
  }
  return t('tb.prompt.next');
}

/** @param {Step} st */
export function stepText(st) {
  const p = (/** @type {number} */ n) => (n === BAR ? 'bar' : n === OFF ? 'off' : String(n));
  return `${p(st.from)}/${p(st.to)}`;
}

/** @param {any} obs */
function summary(obs) {
  /** @type {import("../dom.js").Child[]} */
  const parts = [];
  if (Array.isArray(obs.dice)) parts.push(t('sum.dice', { dice: obs.dice.join('-') }));
  if (obs.board && obs.board.pips) {
    const [white, black] = obs.board.pips;
    parts.push(t('tb.sum.pips', { white, black }));
  }
  if (obs.cube_enabled) parts.push(t('sum.stake', { n: obs.cube }));
  if (obs.match_to > 0) parts.push(`${t('tb.sum.match', { to: obs.match_to, a: obs.score[0], b: obs.score[1] })}${obs.crawford_game ? ` (${t('tb.sum.crawford')})` : ''}`);
  return parts.join(' · ');
}

/** @param {ActionInfo} action */
function onBoard(action) {
  return steps.stepsOf(action) !== null && steps.stepsOf(action)?.length !== 0;
}

/** @type {import('../types.js').GameUI} */
export const tablesUI = {
  emptyPick,
  render,
  choose,
  drag,
  candidates,
  complete,
  undo,
  isEmpty: (ctx) => pickOf(ctx).steps.length === 0 && pickOf(ctx).selected === null,
  prompt,
  onBoard,
  summary,
  withBoard: (obs, board) => ({ ...obs, board }),
};
