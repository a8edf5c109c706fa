// @ts-check
/**
 * The drawing of the tables board (Tawla, backgammon): 24 points, bar and
 * bear-off trays, the cube and the dice, drawn from the viewer's side (home
 * quarter bottom right, points in the viewer's numbering), turned upright
 * on a phone held so; the move being built, the one previewed and the last
 * one marked, its checkers sliding in.
 */

import { portrait, s, svgRoot, target } from '../dom.js';
import { cube, diceRow, usedDice } from './dice.js';
import * as steps from './steps.js';
import { listText, t } from '../i18n.js';
import { BAR, OFF, boardFor, colourName, currentBoard, graph, pickOf, sources, viewSeat } from './tables.js';

/** @typedef {import('../types.js').BoardContext} BoardContext */
/** @typedef {import('./tables.js').TBoard} TBoard */

/**
 * Where the board's parts are drawn, in the landscape drawing's units
 * (a phone turns it upright, see `portrait`).
 * @typedef {Object} Geometry
 * @property {number} W @property {number} H
 * @property {number} PW point width
 * @property {number} R checker radius
 * @property {number} TOP @property {number} BOTTOM the rows' outer edges
 * @property {number} POINT_LEN
 * @property {number} LEFT_X left half starts
 * @property {number} BAR_X bar starts
 * @property {number} BAR_W
 * @property {number} RIGHT_X right half starts
 * @property {number} FELT_PAD the felt beyond the points
 * @property {boolean} phone the bear-off trays in the bar column (no tray at the end)
 */

/**
 * The wide board, and the phone's: its points 100 units apart, so that
 * turned upright and 820 units wide on a 374-px screen (the board's height
 * held to 100dvh − 16rem) each point, the bar and the trays are at least
 * 44 px each way; the trays share the bar column, the cube sits between.
 * @param {boolean} phone
 * @returns {Geometry}
 */
function geometry(phone) {
  if (!phone) {
    const LEFT_X = 80;
    const PW = 70;
    const BAR_X = 500;
    const BAR_W = 80;
    return { W: 1120, H: 820, PW, R: 31, TOP: 44, BOTTOM: 820 - 44, POINT_LEN: 300, LEFT_X, BAR_X, BAR_W, RIGHT_X: BAR_X + BAR_W, FELT_PAD: 10, phone };
  }
  const PW = 100;
  const LEFT_X = 6;
  const BAR_X = LEFT_X + 6 * PW;
  const BAR_W = 100;
  const RIGHT_X = BAR_X + BAR_W;
  return { W: RIGHT_X + 6 * PW + LEFT_X, H: 820, PW, R: 36, TOP: 44, BOTTOM: 820 - 44, POINT_LEN: 310, LEFT_X, BAR_X, BAR_W, RIGHT_X, FELT_PAD: 0, phone };
}

/**
 * The phone's bar column, along the short side (landscape y): their
 * borne-off checkers, their bar, the cube, my bar, my borne-off checkers.
 * @param {Geometry} G
 */
function barColumn(G) {
  return { theirOff: [8, 196], theirBar: [196, 366], cube: [366, 454], myBar: [454, 624], myOff: [624, G.H - 8] };
}

/**
 * Where a point (viewer numbering) is drawn: its centre x and whether it
 * is on the top row.
 * @param {Geometry} G @param {number} p 1..24
 */
function pointPos(G, p) {
  const { PW, LEFT_X, BAR_X, RIGHT_X } = G;
  if (p <= 6) return { x: RIGHT_X + 6 * PW - (p - 0.5) * PW, top: false };
  if (p <= 12) return { x: BAR_X - (p - 6.5) * PW, top: false };
  if (p <= 18) return { x: LEFT_X + (p - 12.5) * PW, top: true };
  return { x: RIGHT_X + (p - 18.5) * PW, top: true };
}

/**
 * The centre y of the i-th checker on the bar: mine below the middle,
 * theirs above.
 * @param {Geometry} G @param {boolean} mine @param {number} i
 */
function barY(G, mine, i) {
  if (G.phone) {
    const column = barColumn(G);
    return mine ? column.myBar[0] + G.R + 4 + i * 30 : column.theirBar[1] - G.R - 4 - i * 30;
  }
  return mine ? G.H / 2 + 60 + i * 30 : G.H / 2 - 60 - i * 30;
}

/**
 * A checker; `slide` is where it comes from (relative), when it slides in.
 * @param {Geometry} G
 * @param {number} cx @param {number} cy @param {number} seat @param {string} [cls]
 * @param {Slide | null} [slide]
 */
function checker(G, cx, cy, seat, cls = '', slide = null) {
  const R = G.R;
  const style = slide ? `--dx: ${slide.dx}px; --dy: ${slide.dy}px; --slide-ms: ${slide.ms}ms` : null;
  return s('g', { class: `checker c${seat} ${cls}${slide ? ' arrived' : ''}`.trim(), style },
    s('circle', { cx, cy, r: R - 1, class: 'checker-body' }),
    s('circle', { cx, cy, r: R * 0.62, class: 'checker-ring' }),
  );
}

/**
 * The centre y of the i-th checker of a stack (0 at the edge).
 * @param {Geometry} G @param {boolean} top @param {number} i @param {number} [shift]
 */
function slotY(G, top, i, shift = 0) {
  const d = G.R + i * (2 * G.R - 2) + shift;
  return top ? G.TOP + d : G.BOTTOM - d;
}

/**
 * A checker sliding in: from `dx`, `dy` away, over `ms` milliseconds.
 * @typedef {{dx: number, dy: number, ms: number}} Slide
 */

/**
 * @param {Geometry} G
 * @param {number} count
 * @param {number} seat
 * @param {number} cx
 * @param {boolean} top
 * @param {{shift?: number, highlight?: string, slides?: Map<number, Slide>}} [opts]
 *   `slides`: the checkers (by slot) that slide in
 */
function stack(G, count, seat, cx, top, opts = {}) {
  const shown = Math.min(count, 5);
  /** @type {import("../dom.js").Child[]} */
  const items = [];
  for (let i = 0; i < shown; i++) {
    const last = i === shown - 1;
    const slide = opts.slides ? opts.slides.get(i) || null : null;
    items.push(checker(G, cx, slotY(G, top, i, opts.shift || 0), seat, last && opts.highlight ? opts.highlight : '', slide));
  }
  if (count > 5) {
    const y = slotY(G, top, 4, opts.shift || 0);
    items.push(s('text', { x: cx, y, class: `stack-count c${seat}`, 'dominant-baseline': 'central', 'text-anchor': 'middle' }, String(count)));
  }
  return items;
}

/**
 * What a drawing of the board needs, worked out once: the viewer's side,
 * the checkers, the move being built and the one previewed, the last move
 * (marked, and its step shown sliding in).
 * @param {BoardContext} ctx
 */
function sceneOf(ctx) {
  const obs = ctx.obs;
  const G = geometry(!!ctx.portrait);
  const me = viewSeat(ctx);
  const them = 1 - me;
  const pick = pickOf(ctx);
  const myTurn = ctx.legal.length > 0 && steps.stepsOf(ctx.legal[0]) !== null;
  const b = currentBoard(ctx);
  const srcs = myTurn ? sources(ctx) : new Set();
  const dests = myTurn && pick.selected !== null
    ? steps.destinations(graph(ctx), pick.steps, pick.selected)
    : new Map();
  const lastSteps = new Set(pick.steps.map((st) => st.to));
  const preview = ctx.preview ? steps.stepsOf(ctx.preview) : null;
  const previewTo = new Set((preview || []).map((st) => st.to));
  const previewFrom = new Set((preview || []).map((st) => st.from));
  /** A count of one side's checkers in words. @param {number} n @param {number} seat */
  const checkers = (n, seat) => t(seat === 0 ? 'tb.n_white' : 'tb.n_black', { n });
  // The last move on the board, in the viewer's numbering.
  const lastPlay = ctx.last && pick.steps.length === 0 && ctx.last.json ? steps.stepsOf({ text: '', json: ctx.last.json }) || [] : [];
  /** @param {number} p */
  const viewed = (p) => (ctx.last && ctx.last.seat !== me && p >= 1 && p <= 24 ? 25 - p : p);
  const lastTo = new Set(lastPlay.map((st) => viewed(st.to)));
  const lastFrom = new Set(lastPlay.map((st) => viewed(st.from)));
  // A played move shown step by step: the checker of the step shown slides in.
  const shownStep = ctx.frame && ctx.slideMs && ctx.last ? lastPlay[ctx.frame.step - 1] : null;
  const slides = shownStep && ctx.frame && ctx.last
    ? stepSlide(G, boardFor({ board: ctx.frame.boards[ctx.frame.step - 1] }, me), b,
      { from: viewed(shownStep.from), to: viewed(shownStep.to) }, ctx.last.seat === me, ctx.slideMs || 0)
    : new Map();

  const TRAY_X = G.RIGHT_X + 6 * G.PW + 20;
  const column = barColumn(G);
  return { ctx, obs, G, me, them, pick, b, srcs, dests, lastSteps, previewTo, previewFrom, checkers, lastTo, lastFrom, slides, TRAY_X, column };
}

/** @typedef {ReturnType<typeof sceneOf>} Scene */

/**
 * The board: frame, points, bar, trays, cube and dice; turned upright on a
 * phone held so.
 * @param {BoardContext} ctx
 * @returns {SVGSVGElement}
 */
export function render(ctx) {
  const S = sceneOf(ctx);
  const { obs, G, me } = S;
  const layers = [...surface(S)];
  for (let p = 1; p <= 24; p++) layers.push(...point(S, p));
  layers.push(...bar(S), ...trays(S), ...cubeAndDice(S));
  const label = t(obs.game === 'tawla' ? 'tb.board_tawla' : 'tb.board_backgammon', { who: colourName(me) });
  const svg = svgRoot(G.W, G.H, label, layers);
  return ctx.portrait ? portrait(svg) : svg;
}

/**
 * The frame, the felt of both halves, the bar and the trays.
 * @param {Scene} S
 * @returns {import('../dom.js').Child[]}
 */
function surface(S) {
  const { G, TRAY_X, column } = S;
  const { W, H, PW, TOP, BOTTOM, LEFT_X, BAR_X, BAR_W, RIGHT_X, FELT_PAD } = G;
  /** @type {import('../dom.js').Child[]} */
  const layers = [];
  layers.push(s('rect', { x: 0, y: 0, width: W, height: H, rx: 22, class: 'frame' }));
  layers.push(s('rect', { x: LEFT_X - FELT_PAD, y: TOP - 6, width: 6 * PW + 2 * FELT_PAD, height: BOTTOM - TOP + 12, rx: 6, class: 'felt' }));
  layers.push(s('rect', { x: RIGHT_X - FELT_PAD, y: TOP - 6, width: 6 * PW + 2 * FELT_PAD, height: BOTTOM - TOP + 12, rx: 6, class: 'felt' }));
  if (G.phone) {
    // The bar column holds the trays at its ends, the bar between.
    layers.push(s('rect', { x: BAR_X + 4, y: column.theirBar[0], width: BAR_W - 8, height: column.myBar[1] - column.theirBar[0], rx: 6, class: 'bar' }));
    for (const [y0, y1] of [column.theirOff, column.myOff]) layers.push(s('rect', { x: BAR_X + 4, y: y0, width: BAR_W - 8, height: y1 - y0, rx: 6, class: 'tray' }));
  } else {
    layers.push(s('rect', { x: BAR_X + 8, y: TOP - 6, width: BAR_W - 16, height: BOTTOM - TOP + 12, rx: 6, class: 'bar' }));
    layers.push(s('rect', { x: TRAY_X, y: TOP - 6, width: W - TRAY_X - 14, height: BOTTOM - TOP + 12, rx: 6, class: 'tray' }));
  }
  return layers;
}

/**
 * A point as a target: its checkers (a pinned one under them), the marks of
 * the move being built, the last move and a hint; its number in the frame.
 * @param {Scene} S @param {number} p
 * @returns {import('../dom.js').Child[]}
 */
function point(S, p) {
  const { ctx, G, me, them, pick, b, srcs, dests, lastSteps, previewTo, previewFrom, checkers, lastTo, lastFrom, slides } = S;
  const { H, PW, R, TOP, BOTTOM, POINT_LEN } = G;
  const { x, top } = pointPos(G, p);
  const baseY = top ? TOP : BOTTOM;
  const tipY = top ? TOP + POINT_LEN : BOTTOM - POINT_LEN;
  const dark = p % 2 === 0;
  const isDest = dests.has(p);
  const isSrc = srcs.has(p);
  const selected = pick.selected === p;
  const mine = b.me[p];
  const theirs = b.them[p];
  const pinned = b.under[p];
  /** @type {import("../dom.js").Child[]} */
  const parts = [];
  parts.push(s('path', {
    d: `M ${x - PW / 2 + 2} ${baseY} L ${x + PW / 2 - 2} ${baseY} L ${x} ${tipY} Z`,
    class: `point ${dark ? 'point-dark' : 'point-light'}${isDest ? ' dest' : ''}${previewTo.has(p) ? ' preview' : ''}${lastTo.has(p) ? ' last-to' : lastFrom.has(p) ? ' last-from' : ''}`,
  }));
  // Hit area covering the whole half column.
  parts.push(s('rect', { x: x - PW / 2, y: top ? TOP : H / 2, width: PW, height: H / 2 - TOP, class: 'hit' }));
  const shift = pinned !== 0 ? 26 : 0;
  if (pinned !== 0) {
    const pinnedSeat = pinned === 1 ? me : them;
    parts.push(checker(G, x, slotY(G, top, 0), pinnedSeat, 'pinned'));
  }
  const hl = selected ? 'selected' : isSrc ? 'src' : (lastSteps.has(p) ? 'moved' : (previewFrom.has(p) ? 'preview-src' : ''));
  const slid = slides.get(p);
  if (mine > 0) parts.push(stack(G, mine, me, x, top, { shift, highlight: hl, slides: ctx.last && ctx.last.seat === me ? slid : undefined }));
  if (theirs > 0) parts.push(stack(G, theirs, them, x, top, { shift, slides: ctx.last && ctx.last.seat !== me ? slid : undefined }));
  if (isDest) {
    // Where the checker will stand: on the board the server sent for the
    // steps that take it there (on a pinned checker, or alone after a hit).
    const board = steps.boardAfter(graph(ctx), [...pick.steps, ...(dests.get(p) || [])]);
    const after = board ? boardFor({ board }, me) : null;
    if (after) {
      const y = slotY(G, top, Math.min(after.me[p], 5) - 1, after.under[p] !== 0 ? 26 : 0);
      parts.push(s('circle', { cx: x, cy: y, r: R * 0.55, class: 'dest-marker' }));
    }
  }
  const who = mine > 0 ? checkers(mine, me) : theirs > 0 ? checkers(theirs, them) : t('board.empty');
  const pin = pinned !== 0 ? t(pinned === 1 ? (me === 0 ? 'tb.pinning_white' : 'tb.pinning_black') : (them === 0 ? 'tb.pinning_white' : 'tb.pinning_black')) : '';
  const label = `${t('tb.point', { p, who })}${pin}${isSrc ? t('board.can_move') : ''}${isDest ? t('board.dest') : ''}`;
  return [target(`p:${p}`, label, {
    class: `pt${isDest ? ' is-dest' : ''}${isSrc ? ' is-src' : ''}${selected ? ' is-selected' : ''}`,
    'data-drag': isSrc ? 'yes' : null,
    'data-state': isDest ? 'dest' : selected ? 'selected' : isSrc ? 'src' : null,
  }, parts),
  // Point number in the frame.
  s('text', { x, y: top ? 30 : H - 14, class: 'point-label', 'text-anchor': 'middle' }, String(p))];
}

/**
 * The bar: my checkers in the lower half (a target when they must enter),
 * theirs in the upper.
 * @param {Scene} S
 * @returns {import('../dom.js').Child[]}
 */
function bar(S) {
  const { G, me, them, pick, b, srcs, column } = S;
  const { H, BOTTOM, BAR_X, BAR_W } = G;
  /** @type {import('../dom.js').Child[]} */
  const layers = [];
  const barX = BAR_X + BAR_W / 2;
  const barParts = [];
  const myBarAt = G.phone ? column.myBar : [H / 2 + 20, BOTTOM];
  for (let i = 0; i < Math.min(b.meBar, 4); i++) barParts.push(checker(G, barX, barY(G, true, i), me, i === Math.min(b.meBar, 4) - 1 && srcs.has(BAR) ? (pick.selected === BAR ? 'selected' : 'src') : ''));
  if (b.meBar > 4) barParts.push(s('text', { x: barX, y: barY(G, true, 3), class: `stack-count c${me}`, 'text-anchor': 'middle', 'dominant-baseline': 'central' }, String(b.meBar)));
  layers.push(target('bar', `${t('tb.bar', { n: b.meBar })}${srcs.has(BAR) ? t('tb.must_enter') : ''}`,
    { class: 'bar-target', 'data-drag': srcs.has(BAR) ? 'yes' : null, 'data-state': pick.selected === BAR ? 'selected' : srcs.has(BAR) ? 'src' : null },
    s('rect', { x: BAR_X, y: myBarAt[0], width: BAR_W, height: myBarAt[1] - myBarAt[0], class: 'hit' }), barParts));
  for (let i = 0; i < Math.min(b.themBar, 4); i++) layers.push(checker(G, barX, barY(G, false, i), them));
  if (b.themBar > 0) layers.push(s('text', { x: barX, y: barY(G, false, 3), class: `stack-count c${them}`, 'text-anchor': 'middle', 'dominant-baseline': 'central' }, String(b.themBar)));
  return layers;
}

/**
 * The bear-off trays with the checkers borne off and their counts: mine at
 * the bottom (a target to bear off to), theirs at the top; on a phone at
 * the ends of the bar column.
 * @param {Scene} S
 * @returns {import('../dom.js').Child[]}
 */
function trays(S) {
  const { G, me, them, b, dests, TRAY_X, column } = S;
  const { W, H, TOP, BOTTOM, BAR_X, BAR_W } = G;
  /** @type {import('../dom.js').Child[]} */
  const layers = [];
  // Bear-off tray: mine at the bottom, theirs at the top (on a phone at
  // the ends of the bar column).
  const tray = G.phone
    ? { x: BAR_X, w: BAR_W, mine: column.myOff, theirs: column.theirOff, pitch: 12, h: 9, inset: 12 }
    : { x: TRAY_X, w: W - TRAY_X - 14, mine: [H / 2 + 4, BOTTOM], theirs: [TOP, H / 2], pitch: 19, h: 16, inset: 10 };
  /** @param {number} n @param {number} seat @param {boolean} top */
  const offStack = (n, seat, top) => {
    /** @type {import("../dom.js").Child[]} */
    const out = [];
    for (let i = 0; i < n; i++) {
      const y = top ? tray.theirs[0] + 4 + i * tray.pitch : tray.mine[1] - 4 - tray.h - i * tray.pitch;
      out.push(s('rect', { x: tray.x + tray.inset, y, width: tray.w - 2 * tray.inset, height: tray.h, rx: 5, class: `off-checker c${seat}` }));
    }
    return out;
  };
  const offDest = dests.has(OFF);
  layers.push(target('off', `${t('tb.off_yours', { n: b.meOff })}${offDest ? t('board.dest') : ''}`, { class: `off-target${offDest ? ' is-dest' : ''}`, 'data-state': offDest ? 'dest' : null },
    s('rect', { x: tray.x, y: tray.mine[0], width: tray.w, height: tray.mine[1] - tray.mine[0], class: `hit${offDest ? ' dest-tray' : ''}` }),
    offStack(b.meOff, me, false)));
  layers.push(s('g', { role: 'img', 'aria-label': t('tb.off_theirs', { n: b.themOff }) }, offStack(b.themOff, them, true)));
  if (G.phone) {
    // Turned upright, each count stands in its tray.
    layers.push(s('text', { x: tray.x + tray.w / 2, y: (tray.theirs[0] + tray.theirs[1]) / 2, class: 'tray-label', 'text-anchor': 'middle', 'dominant-baseline': 'central' }, t('tb.n_off', { n: b.themOff })));
    layers.push(s('text', { x: tray.x + tray.w / 2, y: (tray.mine[0] + tray.mine[1]) / 2, class: 'tray-label', 'text-anchor': 'middle', 'dominant-baseline': 'central' }, t('tb.n_off', { n: b.meOff })));
  } else {
    layers.push(s('text', { x: tray.x + tray.w / 2, y: H / 2 - 8, class: 'tray-label', 'text-anchor': 'middle' }, t('tb.n_off', { n: b.themOff })));
    layers.push(s('text', { x: tray.x + tray.w / 2, y: H / 2 + 22, class: 'tray-label', 'text-anchor': 'middle' }, t('tb.n_off', { n: b.meOff })));
  }
  return layers;
}

/**
 * The cube and the dice.
 * @param {Scene} S
 * @returns {import('../dom.js').Child[]}
 */
function cubeAndDice(S) {
  const { obs, G, me, pick } = S;
  const { H, PW, TOP, BOTTOM, LEFT_X, BAR_X, BAR_W, RIGHT_X } = G;
  /** @type {import('../dom.js').Child[]} */
  const layers = [];
  // Cube, at the left edge (on a phone in the bar column): middle when
  // centred, towards its owner.
  if (obs.cube_enabled) {
    const owner = obs.cube_owner;
    const centred = owner === null || owner === undefined;
    const cy = G.phone
      ? (centred ? H / 2 : owner === me ? H / 2 + 16 : H / 2 - 16)
      : (centred ? H / 2 : owner === me ? BOTTOM - 40 : TOP + 40);
    const key = centred ? 'cube.label_middle' : owner === me ? 'cube.label_yours' : 'cube.label_theirs';
    layers.push(cube(G.phone ? BAR_X + BAR_W / 2 : 40, cy, G.phone ? 56 : 50, obs.cube, t(key, { n: obs.cube })));
  }

  // Dice: on the right half for my roll, the left half for theirs.
  if (Array.isArray(obs.dice)) {
    const mover = obs.turn && typeof obs.turn === 'object' ? obs.turn.player : null;
    const values = Array.isArray(obs.dice_to_play) ? obs.dice_to_play : obs.dice.slice();
    const used = usedDice(values, pick.steps.map((st) => st.die));
    const cx = mover === me ? RIGHT_X + 3 * PW : LEFT_X + 3 * PW;
    layers.push(diceRow(cx, H / 2, G.phone ? 66 : 58, values, used, { dark: mover === 1, roll: true,
      label: t('board.rolled', { who: colourName(mover), dice: listText(obs.dice.map(String)) }) }));
  }
  return layers;
}

/**
 * The slide of one step of the last move, shown on its own: its checker
 * slides from the top of its stack on the board before the step (`before`)
 * to the top of its stack on the board after it (`b`), both as the server
 * drew them; a checker borne off just leaves. `step` is in the viewer's
 * numbering. Per destination point, per slot of the mover's stack there.
 * @param {Geometry} G
 * @param {TBoard} before @param {TBoard} b @param {{from: number, to: number}} step
 * @param {boolean} moverIsMe @param {number} ms
 * @returns {Map<number, Map<number, Slide>>}
 */
function stepSlide(G, before, b, step, moverIsMe, ms) {
  const { from, to } = step;
  /** @type {Map<number, Map<number, Slide>>} */
  const out = new Map();
  const count = (/** @type {TBoard} */ board, /** @type {number} */ p) => (moverIsMe ? board.me[p] : board.them[p]);
  if (to < 1 || to > 24 || count(b, to) === 0) return out;
  const slot = Math.min(count(b, to), 5) - 1;
  const dest = pointPos(G, to);
  const destY = slotY(G, dest.top, slot, b.under[to] !== 0 ? 26 : 0);
  let src = { x: G.BAR_X + G.BAR_W / 2, y: barY(G, moverIsMe, 0) };
  if (from >= 1 && from <= 24) {
    const at = pointPos(G, from);
    src = { x: at.x, y: slotY(G, at.top, Math.max(Math.min(count(before, from), 5) - 1, 0), before.under[from] !== 0 ? 26 : 0) };
  }
  out.set(to, new Map([[slot, { dx: Math.round(src.x - dest.x), dy: Math.round(src.y - destY), ms }]]));
  return out;
}
