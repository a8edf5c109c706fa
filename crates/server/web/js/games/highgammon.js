// @ts-check
/**
 * The square High-O Gammon board (also Tric-Trac): 28 fields round a
 * square, a rest field in each corner, each colour's start and goal points,
 * the bar in the middle, stones still to enter (Tric-Trac), the cube.
 * Turned so that the viewer's own side is at the bottom. Plays are built
 * stone by stone from the steps the server sends (see steps.js).
 */

import { s, svgRoot, target } from '../dom.js';
import { cube, diceRow, usedDice } from './dice.js';
import * as steps from './steps.js';
import { listText, ltr, t } from '../i18n.js';
import { colourName, optionLabel, optionValue } from '../names.js';

/** @typedef {import('../types.js').ActionInfo} ActionInfo */
/** @typedef {import('../types.js').BoardContext} BoardContext */
/** @typedef {import('./steps.js').Step} Step */

const FIELDS = 28;
const BAR_CODE = 29;
const IN_CODE = 30;
const OFF_CODE = 0;
const COLOURS = /** @type {Record<string, string>} */ ({ Blue: 'blue', Red: 'red', Yellow: 'yellow', Green: 'green' });

/**
 * The board a play is drawn on.
 * @typedef {{fields: number[][], bar: number[], waiting: number[], off: number[]}} HgBoard
 */

/** @param {any} obs @returns {HgBoard} */
function boardOf(obs) {
  return {
    fields: obs.fields,
    bar: obs.players.map((/** @type {any} */ p) => p.bar),
    waiting: obs.players.map((/** @type {any} */ p) => p.waiting),
    off: obs.players.map((/** @type {any} */ p) => p.off),
  };
}

/** @typedef {{steps: Step[], selected: number | null}} HgPick */

/** @returns {HgPick} */
function emptyPick() {
  return { steps: [], selected: null };
}

/** @param {BoardContext} ctx @returns {HgPick} */
function pickOf(ctx) {
  return ctx.pick && Array.isArray(ctx.pick.steps) ? ctx.pick : emptyPick();
}

/** The player to move. @param {any} obs */
function mover(obs) {
  return obs.turn && typeof obs.turn === 'object' ? obs.turn.player : obs.mover;
}

/** The legal plays made step by step, as the server sends them. @param {BoardContext} ctx */
function graph(ctx) {
  return ctx.steps || null;
}

/** @param {BoardContext} ctx @returns {HgBoard} */
function currentBoard(ctx) {
  const after = pickOf(ctx).steps.length > 0 ? steps.boardAfter(graph(ctx), pickOf(ctx).steps) : null;
  return after || boardOf(ctx.obs);
}

/** @param {string} t @returns {number | null} */
function codeOf(t) {
  if (t === 'bar') return BAR_CODE;
  if (t === 'in') return IN_CODE;
  if (t === 'off') return OFF_CODE;
  const m = /^f:(\d+)$/.exec(t);
  return m ? Number(m[1]) : null;
}

/** @param {BoardContext} ctx @param {string} t @returns {HgPick} */
function choose(ctx, t) {
  const pick = pickOf(ctx);
  const code = codeOf(t);
  if (code === null) return pick;
  if (pick.selected !== null) {
    if (code === pick.selected) return { ...pick, selected: null };
    const path = steps.destinations(graph(ctx), pick.steps, pick.selected).get(code);
    if (path) return { steps: [...pick.steps, ...path], selected: null };
  }
  const sources = new Set(steps.nextSteps(graph(ctx), pick.steps).map((st) => st.from));
  if (sources.has(code)) return { ...pick, selected: code };
  return pick;
}

/** @param {BoardContext} ctx @param {string} from @param {string} to */
function drag(ctx, from, to) {
  const picked = choose({ ...ctx, pick: { ...pickOf(ctx), selected: null } }, from);
  if (picked.selected === null) return pickOf(ctx);
  return choose({ ...ctx, pick: picked }, to);
}

/** @param {number} code */
function codeName(code) {
  return code === BAR_CODE ? 'bar' : code === IN_CODE ? 'in' : code === OFF_CODE ? 'off' : String(code);
}

/** @param {BoardContext} ctx */
function prompt(ctx) {
  const obs = ctx.obs;
  if (ctx.legal.length === 0) return '';
  if (obs.phase === 'colour_choice') return t('hg.prompt.colour');
  if (obs.phase === 'cube_decision') return t('hg.prompt.cube');
  if (obs.phase === 'cube_response') return t('hg.prompt.cube_offered', { n: (obs.cube || 1) * 2 });
  const pick = pickOf(ctx);
  const done = steps.completed(graph(ctx), ctx.legal, pick.steps);
  if (done) return t('prompt.complete', { play: ltr(pick.steps.map((st) => `${codeName(st.from)}/${codeName(st.to)}`).join(' ')) });
  if (pick.selected !== null) return t('hg.prompt.where', { from: codeName(pick.selected) });
  const [a, b] = obs.dice || [];
  return pick.steps.length === 0 ? t('hg.prompt.roll', { a, b, n: Math.min(a, b) }) : t('hg.prompt.next');
}

/** @param {any} obs */
function summary(obs) {
  const parts = [];
  if (Array.isArray(obs.dice)) parts.push(t('sum.dice', { dice: obs.dice.join('-') }));
  parts.push(`${optionLabel('doubles')}: ${optionValue('doubles', obs.doubles)}`);
  if (obs.scoring) parts.push(`${optionLabel('scoring')}: ${optionValue('scoring', obs.scoring)}`);
  if (obs.cube) parts.push(t('sum.stake', { n: obs.cube }));
  return parts.join(' · ');
}

// ---- drawing ----

const SIZE = 1000;

/**
 * Where the board's parts are drawn: the edge, the rest fields' corners,
 * the points' depth, width and stones. On a phone (the board 374 px wide)
 * the corners and points are shallower, so that every field is at least
 * 44 px each way and the points of two sides do not meet at a corner.
 * @typedef {{EDGE: number, CORNER: number, DEPTH: number, PW: number, R: number, SHOWN: number, phone: boolean}} Geometry
 * @param {boolean} phone
 * @returns {Geometry}
 */
function geometry(phone) {
  const EDGE = phone ? 12 : 20;
  const CORNER = phone ? 124 : 260;
  const DEPTH = CORNER;
  return { EDGE, CORNER, DEPTH, PW: (SIZE - 2 * EDGE - 2 * CORNER) / 6, R: phone ? 30 : 33, SHOWN: phone ? 2 : 4, phone };
}

/** The distance from a point's outer edge to its k-th stone. @param {Geometry} G @param {number} k */
function stoneDepth(G, k) {
  return G.phone ? G.R + 4 + k * (2 * G.R - 2) : 40 + k * (2 * G.R - 4);
}

/**
 * Where a field sits on screen for a viewer at board seat `v`: its anchor
 * on the outer edge, the inward direction, and (for points) the direction
 * along the side.
 * @param {Geometry} G
 * @param {number} r ring index 0..27
 * @param {number} v the viewer's board seat
 */
function place(G, r, v) {
  const { EDGE, CORNER, PW } = G;
  const side = Math.floor(r / 7);
  const i = r % 7; // 0..5 points, 6 the corner after them
  const q = (side - v + 4) % 4;
  const lo = EDGE + CORNER;
  if (i === 6) {
    const corners = [[SIZE - EDGE - CORNER / 2, SIZE - EDGE - CORNER / 2], [SIZE - EDGE - CORNER / 2, EDGE + CORNER / 2],
      [EDGE + CORNER / 2, EDGE + CORNER / 2], [EDGE + CORNER / 2, SIZE - EDGE - CORNER / 2]];
    const [x, y] = corners[q];
    return { x, y, rest: true, inward: [0, 0] };
  }
  const along = lo + (i + 0.5) * PW;
  switch (q) {
    case 0: return { x: along, y: SIZE - EDGE, rest: false, inward: [0, -1] };
    case 1: return { x: SIZE - EDGE, y: SIZE - along, rest: false, inward: [-1, 0] };
    case 2: return { x: SIZE - along, y: EDGE, rest: false, inward: [0, 1] };
    default: return { x: EDGE, y: along, rest: false, inward: [1, 0] };
  }
}

/**
 * A stone; `from` is where it slides in from (absolute), when it does.
 * @param {Geometry} G
 * @param {number} cx @param {number} cy @param {string} colour @param {string} [cls]
 * @param {{x: number, y: number, ms: number} | null} [from]
 */
function stone(G, cx, cy, colour, cls = '', from = null) {
  const R = G.R;
  const style = from ? `--dx: ${Math.round(from.x - cx)}px; --dy: ${Math.round(from.y - cy)}px; --slide-ms: ${from.ms}ms` : null;
  return s('g', { class: `hg-stone hg-${colour} ${cls}${from ? ' arrived' : ''}`.trim(), style },
    s('circle', { cx, cy, r: R, class: 'hg-stone-body' }),
    s('circle', { cx, cy, r: R * 0.6, class: 'hg-stone-ring' }));
}

/**
 * Where a stone on a field stands, roughly (the bar and the stones to enter
 * are in the middle). @param {Geometry} G @param {number} code @param {number} v the viewer's side
 */
function spot(G, code, v) {
  if (code < 1 || code > FIELDS) return { x: SIZE / 2, y: SIZE / 2 };
  const pos = place(G, code - 1, v);
  const d = stoneDepth(G, 0);
  return { x: pos.x + pos.inward[0] * d, y: pos.y + pos.inward[1] * d };
}

/**
 * Where the last move's stones slide in from, per field they landed on:
 * the steps of one stone (5/9 9/12) make one slide; stones borne off
 * just leave.
 * @param {Geometry} G @param {Step[]} play @param {number} v @param {number} ms
 * @returns {Map<number, {x: number, y: number, ms: number}>}
 */
function slidesOf(G, play, v, ms) {
  /** @type {{from: number, to: number}[]} */
  const paths = [];
  for (const st of play) {
    const before = paths.find((p) => p.to === st.from);
    if (before) before.to = st.to;
    else paths.push({ from: st.from, to: st.to });
  }
  const out = new Map();
  for (const { from, to } of paths) {
    if (to >= 1 && to <= FIELDS && from !== to) out.set(to, { ...spot(G, from, v), ms });
  }
  return out;
}

/**
 * What a drawing of the board needs, worked out once: the viewer's side,
 * the stones, the sources and destinations of the move being built, the
 * last move (marked, sliding in), the start and goal marks.
 * @param {BoardContext} ctx
 */
function sceneOf(ctx) {
  const obs = ctx.obs;
  const G = geometry(!!ctx.portrait);
  const players = /** @type {any[]} */ (obs.players);
  const me = ctx.seat !== null && ctx.seat < players.length ? ctx.seat : 0;
  const v = players[me].seat;
  const pick = pickOf(ctx);
  const myTurn = ctx.legal.length > 0 && steps.stepsOf(ctx.legal[0]) !== null;
  const b = currentBoard(ctx);
  const srcs = myTurn ? new Set(steps.nextSteps(graph(ctx), pick.steps).map((st) => st.from)) : new Set();
  const dests = myTurn && pick.selected !== null ? steps.destinations(graph(ctx), pick.steps, pick.selected) : new Map();
  const moved = new Set(pick.steps.map((st) => st.to));
  const preview = ctx.preview ? steps.stepsOf(ctx.preview) || [] : [];
  const previewTo = new Set(preview.map((st) => st.to));
  // The last move on the board (absolute codes, as every player writes them).
  const lastPlay = ctx.last && pick.steps.length === 0 && ctx.last.json ? steps.stepsOf({ text: '', json: ctx.last.json }) || [] : [];
  const lastTo = new Set(lastPlay.map((st) => st.to));
  const lastFrom = new Set(lastPlay.map((st) => st.from));
  /** @param {number} code */
  const lastClass = (code) => (lastTo.has(code) ? ' last-to' : lastFrom.has(code) ? ' last-from' : '');
  const colourOf = (/** @type {number} */ p) => COLOURS[players[p].colour] || 'blue';
  const m = mover(obs);
  const slides = ctx.slideMs && ctx.last ? slidesOf(G, lastPlay, v, ctx.slideMs) : new Map();
  const slider = ctx.last ? ctx.last.seat : -1;
  /** Start and goal marks by ring index. @type {Map<number, string[]>} */
  const marks = new Map();
  players.forEach((p, i) => {
    const add = (/** @type {number} */ r, /** @type {string} */ t) => marks.set(r, [...(marks.get(r) || []), `${t}:${colourOf(i)}`]);
    add(p.start - 1, 'start');
    for (const g of p.goal) add(g - 1, 'goal');
  });
  return { obs, G, players, me, v, pick, myTurn, b, srcs, dests, moved, previewTo, lastClass, colourOf, m, slides, slider, marks };
}

/** @typedef {ReturnType<typeof sceneOf>} Scene */

/**
 * The board: its frame, the fields round it, the centre.
 * @param {BoardContext} ctx
 * @returns {SVGSVGElement}
 */
function render(ctx) {
  const S = sceneOf(ctx);
  const { G, obs, players, me } = S;
  const { EDGE, DEPTH } = G;
  /** @type {import('../dom.js').Child[]} */
  const layers = [];
  layers.push(s('rect', { x: 0, y: 0, width: SIZE, height: SIZE, rx: 26, class: 'frame' }));
  layers.push(s('rect', { x: EDGE, y: EDGE, width: SIZE - 2 * EDGE, height: SIZE - 2 * EDGE, rx: 10, class: 'hg-ring' }));
  layers.push(s('rect', { x: EDGE + DEPTH + 32, y: EDGE + DEPTH + 32, width: SIZE - 2 * (EDGE + DEPTH + 32), height: SIZE - 2 * (EDGE + DEPTH + 32), rx: 14, class: 'hg-centre' }));

  // The fields' numbers and stone counts, drawn over the fields but outside
  // their targets: a target's name says them in words (axe's
  // label-content-name-mismatch fails a name that lacks its drawn digits).
  /** @type {import('../dom.js').Child[]} */
  const drawnText = [];
  for (let r = 0; r < FIELDS; r++) layers.push(...field(S, r, drawnText));
  layers.push(s('g', { 'aria-hidden': 'true' }, drawnText));
  layers.push(...centre(S));
  const label = t(obs.game === 'tric-trac' ? 'hg.board_trictrac' : 'hg.board', { colour: colourName(players[me].colour) });
  const svg = svgRoot(SIZE, SIZE, label, layers);
  if (G.phone) svg.classList.add('hg-phone');
  return svg;
}

/**
 * One field (a point or a rest field in a corner) as a target: its shape,
 * marks and stones, and a name that says them; the numbers drawn on it go
 * to `drawnText`.
 * @param {Scene} S @param {number} r ring index 0..27 @param {import('../dom.js').Child[]} drawnText
 * @returns {import('../dom.js').Child[]}
 */
function field(S, r, drawnText) {
  const { G, players, pick, srcs, dests, marks } = S;
  const { CORNER } = G;
  const code = r + 1;
  const pos = place(G, r, S.v);
  const counts = S.b.fields[r];
  const isSrc = srcs.has(code);
  const isDest = dests.has(code);
  const selected = pick.selected === code;
  const fieldMarks = marks.get(r) || [];
  /** @type {Field} */
  const f = { code, pos, counts, isSrc, isDest, selected, fieldMarks };
  const parts = pos.rest ? restField(S, f, drawnText) : pointField(S, f, r, drawnText);
  const who = counts.map((n, p) => (n > 0 ? t('hg.n_stones', { n, colour: colourName(players[p].colour) }) : '')).filter(Boolean).join(', ') || t('board.empty');
  const markText = fieldMarks.map((mk) => { const [k, col] = mk.split(':'); return t(k === 'start' ? 'hg.start_of' : 'hg.goal_of', { colour: colourName(col) }); }).join(', ');
  const label = `${t(pos.rest ? 'hg.rest_field' : 'hg.field', { code })}${markText ? ` (${markText})` : ''}: ${who}${isSrc ? t('board.can_move') : ''}${isDest ? t('board.dest') : ''}`;
  const out = [target(`f:${code}`, label, {
    class: `pt${isSrc || isDest ? ' can-pick' : ''}`,
    'data-drag': isSrc ? 'yes' : null,
    'data-state': isDest ? 'dest' : selected ? 'selected' : isSrc ? 'src' : null,
  }, parts)];
  if (pos.rest) out.push(s('text', { x: pos.x, y: pos.y + CORNER / 2 - 22, class: 'hg-rest-num', 'text-anchor': 'middle' }, t('hg.rest_short', { code })));
  return out;
}

/** @typedef {{code: number, pos: ReturnType<typeof place>, counts: number[], isSrc: boolean, isDest: boolean, selected: boolean, fieldMarks: string[]}} Field */

/**
 * A rest field's circle and stones (up to four colours, side by side).
 * @param {Scene} S @param {Field} f @param {import('../dom.js').Child[]} drawnText
 */
function restField(S, f, drawnText) {
  const { G, m, moved, slider, slides, previewTo, lastClass, colourOf } = S;
  const { CORNER, R } = G;
  const { code, pos, counts, isSrc, isDest, selected } = f;
  /** @type {import('../dom.js').Child[]} */
  const parts = [];
  parts.push(s('circle', { cx: pos.x, cy: pos.y, r: CORNER / 2 - 14, class: `hg-rest${isDest ? ' dest' : ''}${previewTo.has(code) ? ' preview' : ''}${lastClass(code)}` }));
  parts.push(s('rect', { x: pos.x - CORNER / 2, y: pos.y - CORNER / 2, width: CORNER, height: CORNER, class: 'hit' }));
  const present = counts.map((n, p) => ({ n, p })).filter((x) => x.n > 0);
  present.forEach(({ n, p }, k) => {
    const o = G.phone ? 24 : 30;
    const off = present.length === 1 ? [[0, 0]] : [[-o, -o], [o, -o], [-o, o], [o, o]];
    const [dx, dy] = off[k] || [0, 0];
    const hl = p === m && isSrc ? (selected ? 'selected' : 'src') : moved.has(code) && p === m ? 'moved' : '';
    parts.push(stone(G, pos.x + dx, pos.y + dy, colourOf(p), hl, p === slider ? slides.get(code) : null));
    if (n > 1) drawnText.push(s('text', { x: pos.x + dx, y: pos.y + dy, class: 'hg-count', 'text-anchor': 'middle', 'dominant-baseline': 'central' }, String(n)));
  });
  if (isDest) parts.push(s('circle', { cx: pos.x, cy: pos.y, r: R * 0.6, class: 'dest-marker' }));
  return parts;
}

/**
 * A point: its triangle and hit area, start and goal marks on its outer
 * edge, its stones (a count over the last shown where there are more).
 * @param {Scene} S @param {Field} f @param {number} r @param {import('../dom.js').Child[]} drawnText
 */
function pointField(S, f, r, drawnText) {
  const { G, m, moved, slider, slides, previewTo, lastClass, colourOf } = S;
  const { DEPTH, PW, R } = G;
  const { code, pos, counts, isSrc, isDest, selected, fieldMarks } = f;
  /** @type {import('../dom.js').Child[]} */
  const parts = [];
  const [ix, iy] = pos.inward;
  const px = -iy;
  const py = ix;
  const tip = [pos.x + ix * DEPTH, pos.y + iy * DEPTH];
  const a = [pos.x + px * (PW / 2 - 3), pos.y + py * (PW / 2 - 3)];
  const c = [pos.x - px * (PW / 2 - 3), pos.y - py * (PW / 2 - 3)];
  const dark = r % 2 === 0;
  parts.push(s('path', { d: `M ${a[0]} ${a[1]} L ${c[0]} ${c[1]} L ${tip[0]} ${tip[1]} Z`, class: `point ${dark ? 'point-dark' : 'point-light'}${isDest ? ' dest' : ''}${previewTo.has(code) ? ' preview' : ''}${lastClass(code)}` }));
  // The hit area: the point's whole width and depth.
  const ends = [[pos.x + px * PW / 2, pos.y + py * PW / 2], [pos.x - px * PW / 2 + ix * DEPTH, pos.y - py * PW / 2 + iy * DEPTH]];
  const hx = Math.min(ends[0][0], ends[1][0]);
  const hy = Math.min(ends[0][1], ends[1][1]);
  parts.push(s('rect', { x: hx, y: hy, width: Math.abs(ends[0][0] - ends[1][0]), height: Math.abs(ends[0][1] - ends[1][1]), class: 'hit' }));
  // Start and goal marks on the outer edge.
  fieldMarks.forEach((mark, k) => {
    const [kind, colour] = mark.split(':');
    const mx = pos.x + ix * 6 + px * (k * 16 - 8 * (fieldMarks.length - 1));
    const my = pos.y + iy * 6 + py * (k * 16 - 8 * (fieldMarks.length - 1));
    parts.push(kind === 'start'
      ? s('path', { d: `M ${mx - 8} ${my - 8} L ${mx + 8} ${my} L ${mx - 8} ${my + 8} Z`, class: `hg-mark hg-${colour}`, transform: `rotate(${Math.atan2(py, px) * 180 / Math.PI + 180} ${mx} ${my})` })
      : s('rect', { x: mx - 7, y: my - 7, width: 14, height: 14, rx: 3, class: `hg-mark hg-${colour}` }));
  });
  const owner = counts.findIndex((n) => n > 0);
  if (owner >= 0) {
    const n = counts[owner];
    const shown = Math.min(n, G.SHOWN);
    for (let k = 0; k < shown; k++) {
      const d = stoneDepth(G, k);
      const last = k === shown - 1;
      const hl = last && owner === m && isSrc ? (selected ? 'selected' : 'src') : last && moved.has(code) && owner === m ? 'moved' : '';
      parts.push(stone(G, pos.x + ix * d, pos.y + iy * d, colourOf(owner), hl, last && owner === slider ? slides.get(code) : null));
    }
    if (n > G.SHOWN) {
      const d = stoneDepth(G, G.SHOWN - 1);
      drawnText.push(s('text', { x: pos.x + ix * d, y: pos.y + iy * d, class: 'hg-count', 'text-anchor': 'middle', 'dominant-baseline': 'central' }, String(n)));
    }
  }
  if (isDest) {
    const k = Math.min(owner >= 0 ? counts[owner] : 0, G.SHOWN - 1);
    const d = stoneDepth(G, k);
    parts.push(s('circle', { cx: pos.x + ix * d, cy: pos.y + iy * d, r: R * 0.55, class: 'dest-marker' }));
  }
  // The field's number, just inside the tip.
  drawnText.push(s('text', { x: pos.x + ix * (DEPTH + 16), y: pos.y + iy * (DEPTH + 16), class: 'hg-num', 'text-anchor': 'middle', 'dominant-baseline': 'central' }, String(code)));
  return parts;
}

/**
 * The centre: each colour's bar and stones to enter or borne off, the
 * source of stones to enter and the tray to bear off to (on the player's
 * turn), the dice and the cube.
 * @param {Scene} S
 * @returns {import('../dom.js').Child[]}
 */
function centre(S) {
  const { G, obs, players, pick, srcs, dests, myTurn, b, m, colourOf } = S;
  /** @type {import('../dom.js').Child[]} */
  const layers = [];
  const cx = SIZE / 2;
  const cy = SIZE / 2;
  /** @type {import('../dom.js').Child[]} */
  const rows = [];
  players.forEach((p, i) => {
    const y = G.phone ? cy - 130 + i * 44 : cy - 50 + i * 30;
    rows.push(s('circle', { cx: cx - (G.phone ? 240 : 160), cy: y, r: G.phone ? 14 : 10, class: `hg-stone-body hg-${colourOf(i)}-fill` }));
    const bits = [t('hg.bar_short', { n: b.bar[i] })];
    if (obs.game === 'tric-trac') bits.push(t('hg.enter_short', { n: b.waiting[i] }));
    else bits.push(t('hg.off_short', { n: b.off[i] }));
    if (!p.active) bits.push(t('hg.out'));
    rows.push(s('text', { x: cx - (G.phone ? 215 : 142), y: y + (G.phone ? 10 : 6), class: `hg-centre-text${i === m ? ' to-move' : ''}` }, `${colourName(p.colour)}: ${bits.join(' · ')}`));
  });
  layers.push(s('g', { role: 'img', 'aria-label': players.map((p, i) => `${colourName(p.colour)}: ${t('hg.on_bar', { n: b.bar[i] })}, ${obs.game === 'tric-trac' ? t('hg.to_enter', { n: b.waiting[i] }) : t('hg.borne_off', { n: b.off[i] })}`).join('; ') }, rows));
  // The stones to enter and the tray to bear off to: on a phone big enough
  // to tap.
  const src = G.phone ? { x: cx - 230, y: cy + 40, w: 220, h: 130 } : { x: cx - 170, y: cy + 72, w: 150, h: 76 };
  const tray = G.phone ? { x: cx + 10, w: 180 } : { x: cx + 10, w: 120 };
  if (myTurn) {
    const barSrc = srcs.has(BAR_CODE);
    const inSrc = srcs.has(IN_CODE);
    if (barSrc || inSrc) {
      const code = barSrc ? 'bar' : 'in';
      const sel = pick.selected === (barSrc ? BAR_CODE : IN_CODE);
      // The name starts with the words shown on it ("bar 2").
      const shown = barSrc ? t('hg.bar_short', { n: b.bar[m] }) : t('hg.in_short', { n: b.waiting[m] });
      layers.push(target(code, `${shown}: ${barSrc ? t('hg.bar_enter') : t('hg.in_enter')}`,
        { class: 'can-pick', 'data-drag': 'yes', 'data-state': sel ? 'selected' : 'src' },
        s('rect', { x: src.x, y: src.y, width: src.w, height: src.h, rx: 12, class: `hg-source${sel ? ' selected' : ''}` }),
        stone(G, src.x + 42, src.y + src.h / 2, colourOf(m), sel ? 'selected' : 'src'),
        s('text', { x: src.x + src.w * 0.67, y: src.y + src.h / 2 + 7, class: 'hg-centre-text', 'text-anchor': 'middle' }, shown)));
    }
    if (dests.has(OFF_CODE)) {
      layers.push(target('off', t('hg.bear_off_dest'), { class: 'can-pick', 'data-state': 'dest' },
        s('rect', { x: tray.x, y: src.y, width: tray.w, height: src.h, rx: 12, class: 'hg-source dest' }),
        s('text', { x: tray.x + tray.w / 2, y: src.y + src.h / 2 + 7, class: 'hg-centre-text', 'text-anchor': 'middle' }, t('hg.bear_off'))));
    }
  }
  if (Array.isArray(obs.dice)) {
    const values = obs.dice.slice();
    const used = usedDice(values, pick.steps.map((st) => st.die));
    layers.push(diceRow(cx, G.phone ? cy - 200 : cy - 120, G.phone ? 76 : 56, values, used, { roll: true, label: t('board.rolled', { who: colourName(players[m].colour), dice: listText(values.map(String)) }) }));
  }
  if (obs.cube) layers.push(cube(G.phone ? cx + 260 : cx + 170, cy + 105, G.phone ? 64 : 50, obs.cube, t('sum.stake_label', { n: obs.cube })));
  return layers;
}

/** @param {ActionInfo} action */
function onBoard(action) {
  const st = steps.stepsOf(action);
  return st !== null && st.length > 0;
}

/** @type {import('../types.js').GameUI} */
export const highgammonUI = {
  emptyPick,
  render,
  choose,
  drag,
  candidates: (ctx) => steps.agreeing(graph(ctx), ctx.legal, pickOf(ctx).steps),
  complete: (ctx) => steps.completed(graph(ctx), ctx.legal, pickOf(ctx).steps),
  undo: (ctx) => {
    const pick = pickOf(ctx);
    return pick.selected !== null ? { ...pick, selected: null } : { steps: pick.steps.slice(0, -1), selected: null };
  },
  isEmpty: (ctx) => pickOf(ctx).steps.length === 0 && pickOf(ctx).selected === null,
  prompt,
  onBoard,
  summary,
};
