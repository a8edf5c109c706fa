// @ts-check
/**
 * The Stumphög board: two rows of seven piles, Stumpen to the right, each
 * player's Hög and Ute beside him. Drawn from the viewer's side: his own
 * row (Hitom) at the bottom, the opponent's (Bortom) at the top.
 */

import { s, svgRoot, target } from '../dom.js';
import { possessive } from '../names.js';
import { listText, t } from '../i18n.js';
import { diceRow } from './dice.js';

/** @typedef {import('../types.js').ActionInfo} ActionInfo */
/** @typedef {import('../types.js').BoardContext} BoardContext */

/**
 * Where a move lands, as the server says in the move (`to`, named from the
 * mover's side): a pile, Stumpen, or past it (`over`, the opponent's Hög).
 * @param {{to?: string | {pile: {row: string, col: number}}}} m
 * @returns {string} a target id
 */
export function landing(m) {
  const to = m.to;
  if (!to) return '';
  return typeof to === 'string' ? to : pileId(to.pile);
}

/** @param {ActionInfo} a */
function moveOf(a) {
  return a.json && typeof a.json === 'object' && a.json.move ? a.json.move : null;
}

/** @param {{row: string, col: number}} m */
function pileId(m) {
  return `${m.row === 'hitom' ? 'h' : 'b'}:${m.col}`;
}

/**
 * The pick: the pile chosen, then the move chosen.
 * @typedef {{pile: string | null, action: ActionInfo | null}} StumpPick
 */

/** @returns {StumpPick} */
function emptyPick() {
  return { pile: null, action: null };
}

/** @param {BoardContext} ctx @returns {StumpPick} */
function pickOf(ctx) {
  return ctx.pick && 'pile' in ctx.pick ? ctx.pick : emptyPick();
}

/** Moves from a pile. @param {BoardContext} ctx @param {string} pile */
function movesFrom(ctx, pile) {
  return ctx.legal.filter((a) => {
    const m = moveOf(a);
    return m && pileId(m) === pile;
  });
}

/** @param {BoardContext} ctx @param {string} t @returns {StumpPick} */
function choose(ctx, t) {
  const pick = pickOf(ctx);
  if (pick.pile) {
    if (t === pick.pile) return emptyPick();
    const there = movesFrom(ctx, pick.pile).filter((a) => landing(moveOf(a)) === t);
    if (there.length > 0) {
      // Two ways to land at once is only possible past Stumpen: take the one with more stones.
      there.sort((a, b) => moveOf(b).stones - moveOf(a).stones);
      return { pile: pick.pile, action: there[0] };
    }
  }
  if (movesFrom(ctx, t).length > 0) return { pile: t, action: null };
  // Other actions (bat in / out) have their own targets.
  const other = ctx.legal.find((a) => actionTarget(a) === t);
  if (other) return { pile: null, action: other };
  return pick;
}

/** The target of a non-move action. @param {ActionInfo} a */
function actionTarget(a) {
  if (a.json && typeof a.json === 'object') {
    if ('bat_in' in a.json) return 'port';
    if ('bat_out' in a.json) return 'stumpen';
  }
  if (a.json === 'bat_in_from_opponent') return 'port-opp';
  return null;
}

/** @param {BoardContext} ctx @param {string} from @param {string} to */
function drag(ctx, from, to) {
  const picked = choose({ ...ctx, pick: emptyPick() }, from);
  if (!picked.pile) return pickOf(ctx);
  return choose({ ...ctx, pick: picked }, to);
}

/** @param {BoardContext} ctx */
function candidates(ctx) {
  const pick = pickOf(ctx);
  if (pick.action) return [pick.action];
  if (pick.pile) return movesFrom(ctx, pick.pile);
  return ctx.legal;
}

/** @param {BoardContext} ctx */
function complete(ctx) {
  return pickOf(ctx).action;
}

/** @param {BoardContext} ctx @returns {StumpPick} */
function undo(ctx) {
  const pick = pickOf(ctx);
  if (pick.action && pick.pile) return { pile: pick.pile, action: null };
  return emptyPick();
}

/** @param {string} id */
function pileName(id) {
  if (id === 'stumpen') return 'Stumpen';
  if (id === 'over') return t('sh.past_stumpen');
  const [row, col] = id.split(':');
  return `${row === 'h' ? 'Hitom' : 'Bortom'} ${col}`;
}

/** @param {BoardContext} ctx */
function prompt(ctx) {
  const pick = pickOf(ctx);
  const obs = ctx.obs;
  if (ctx.legal.length === 0) return '';
  if (pick.action) return t('prompt.complete', { play: pick.action.text });
  if (pick.pile) return t('sh.prompt.where', { pile: pileName(pick.pile) });
  // The ways to move and to bat in or out are those the legal actions have.
  const [a, b] = obs.dice || [];
  const batIn = ctx.legal.some((x) => actionTarget(x) === 'port' || actionTarget(x) === 'port-opp');
  const batOut = ctx.legal.some((x) => actionTarget(x) === 'stumpen');
  const six = batIn ? ` ${t('sh.prompt.six')}` : '';
  const dbl = batOut ? ` ${t('sh.prompt.double')}` : '';
  const way = (/** @type {{stones: number, steps: number}} */ m) => t('sh.way', { stones: t('sh.n_stones', { n: m.stones }), steps: t('sh.n_steps', { n: m.steps }) });
  const ways = [...new Map(ctx.legal.map(moveOf).filter(Boolean).map((m) => [`${m.stones}x${m.steps}`, m])).values()]
    .sort((x, y) => y.stones - x.stones);
  if (ways.length === 0) return `${t('prompt.generic')}${six}${dbl}`;
  const waysText = ways.length === 1 ? way(ways[0]) : t('sh.either', { a: way(ways[0]), b: way(ways[1]) });
  return `${t('sh.prompt.roll', { a, b, ways: waysText })}${six}${dbl}`;
}

/** @param {any} obs */
function summary(obs) {
  /** @type {import("../dom.js").Child[]} */
  const parts = [];
  if (Array.isArray(obs.dice)) parts.push(t('sum.dice', { dice: obs.dice.join('-') }));
  parts.push(t('sh.sum.turn', { n: obs.turns, max: obs.rules.turn_cap }));
  parts.push(t('sh.sum.win', { n: obs.rules.win }));
  return parts.join(' · ');
}

/** @param {ActionInfo} action */
function onBoard(action) {
  return moveOf(action) !== null;
}

// ---- drawing ----

const PILE_R = 44;

/**
 * Where things are drawn: a wide board (rows left to right, Stumpen on the
 * right) or, for a phone held upright, a tall one (rows top to bottom,
 * Stumpen below; Hitom on the left, Bortom on the right).
 * @param {boolean} tall
 */
function geometry(tall) {
  if (!tall) {
    const colX = (/** @type {number} */ c) => 150 + (c - 1) * 100 + (c >= 5 ? 26 : 0);
    return {
      tall, W: 1040, H: 700,
      pile: (/** @type {'h' | 'b'} */ row, /** @type {number} */ c) => ({ x: colX(c), y: row === 'h' ? 485 : 215 }),
      colLabel: (/** @type {'h' | 'b'} */ row, /** @type {number} */ c) => ({ x: colX(c), y: row === 'h' ? 485 + PILE_R + 44 : 215 - PILE_R - 30 }),
      rowLabel: (/** @type {'h' | 'b'} */ row) => ({ x: 42, y: (row === 'h' ? 485 : 215) + 6, anchor: 'start' }),
      stumpen: { x: 936, y: 350 },
      board: { x: 30, y: 110, w: 980, h: 480 },
      hemma: { x: colX(5) - 58, y: 122, w: colX(7) - colX(5) + 116, h: 456 },
      zones: { borta: { x: (colX(1) + colX(4)) / 2, y: 356 }, hemma: { x: (colX(5) + colX(7)) / 2, y: 356 } },
      port: { x: colX(1), y: 320 },
      track: `M ${colX(7)} 485 L ${colX(1)} 485 C ${colX(1) - 80} 485 ${colX(1) - 80} 215 ${colX(1)} 215 L ${colX(7)} 215 C ${936 - 40} 215 936 290 936 298`,
      arrows: [[colX(3) + 52, 547, -1, 0], [colX(3) + 52, 153, 1, 0]],
      dice: { x: colX(4) + 52, y: 350 },
      strip: (/** @type {boolean} */ top) => ({ y: top ? 56 : 644, nameX: 60, hogX: 430, uteX: 640, boxW: 190, warnX: 900 }),
    };
  }
  const colY = (/** @type {number} */ c) => 200 + (c - 1) * 100 + (c >= 5 ? 26 : 0);
  return {
    tall, W: 700, H: 1200,
    pile: (/** @type {'h' | 'b'} */ row, /** @type {number} */ c) => ({ x: row === 'h' ? 200 : 500, y: colY(c) }),
    colLabel: (/** @type {'h' | 'b'} */ row, /** @type {number} */ c) => ({ x: row === 'h' ? 122 : 578, y: colY(c) + 8 }),
    rowLabel: (/** @type {'h' | 'b'} */ row) => ({ x: row === 'h' ? 200 : 500, y: 144, anchor: 'middle' }),
    stumpen: { x: 350, y: 985 },
    board: { x: 40, y: 118, w: 620, h: 964 },
    hemma: { x: 110, y: colY(5) - 58, w: 480, h: colY(7) - colY(5) + 116 },
    zones: { borta: { x: 350, y: (colY(2) + colY(3)) / 2 }, hemma: { x: 350, y: colY(6) + 6 } },
    port: { x: 350, y: colY(1) + 8 },
    track: `M 200 ${colY(7)} L 200 ${colY(1)} C 200 ${colY(1) - 80} 500 ${colY(1) - 80} 500 ${colY(1)} L 500 ${colY(7)} C 500 ${colY(7) + 60} 420 ${985 - 40} 412 ${985 - 30}`,
    arrows: [[262, colY(3) + 50, 0, -1], [438, colY(3) + 50, 0, 1]],
    dice: { x: 350, y: colY(4) + 50 },
    strip: (/** @type {boolean} */ top) => ({ y: top ? 56 : 1144, nameX: 40, hogX: 300, uteX: 490, boxW: 170, warnX: 350 }),
  };
}

/** Deterministic pebble positions in a heap. */
const HEAP = [
  [0, 0], [-14, 6], [14, 6], [0, 14], [-8, -12], [9, -12], [-20, -6], [20, -6], [-13, 18], [13, 18],
  [0, -22], [-24, 10], [24, 10], [-5, 24], [6, -2], [-18, -18], [18, -18], [0, 28],
];

/**
 * A heap of stones with its count.
 * @param {number} cx @param {number} cy @param {number} n @param {number} [scale]
 */
function heap(cx, cy, n, scale = 1) {
  const shown = Math.min(n, HEAP.length);
  /** @type {import("../dom.js").Child[]} */
  const out = [];
  for (let i = shown - 1; i >= 0; i--) {
    const [dx, dy] = HEAP[i];
    out.push(s('ellipse', { cx: cx + dx * scale, cy: cy + dy * scale - 4, rx: 10 * scale, ry: 8 * scale, class: `pebble pebble-${i % 3}` }));
  }
  out.push(s('text', { x: cx, y: cy + 40 * scale + 8, class: 'pile-count', 'text-anchor': 'middle' }, String(n)));
  return out;
}

/**
 * The last move on the board in the viewer's terms (the other side's
 * Hitom is his Bortom): the pile it left, where it landed (a pile,
 * `stumpen`, or a Hög: `over-me`, `over-them`) and how many stones.
 * @param {BoardContext} ctx @param {number} me
 * @returns {{from: string, to: string, stones: number} | null}
 */
function lastMoveSeen(ctx, me) {
  const m = ctx.last && ctx.last.json && typeof ctx.last.json === 'object' ? ctx.last.json.move : null;
  if (!ctx.last || !m) return null;
  const mine = ctx.last.seat === me;
  const flip = (/** @type {string} */ id) => (mine ? id : id.replace(/^[hb]/, (r) => (r === 'h' ? 'b' : 'h')));
  const to = landing(m);
  return {
    from: flip(pileId(m)),
    to: to === 'over' ? (mine ? 'over-them' : 'over-me') : to === 'stumpen' ? to : flip(to),
    stones: m.stones,
  };
}

/**
 * What a drawing of the board needs, worked out once: whose side is whose,
 * the move being built (its pile and where it can land), the bats, the
 * last move.
 * @param {BoardContext} ctx
 */
function sceneOf(ctx) {
  const obs = ctx.obs;
  const G = geometry(!!ctx.portrait);
  const me = ctx.seat === 1 ? 1 : 0;
  const them = 1 - me;
  const pick = pickOf(ctx);
  const mover = obs.turn && typeof obs.turn === 'object' ? obs.turn.player : null;
  const myTurn = ctx.legal.length > 0;
  const sources = new Set(ctx.legal.map(moveOf).filter(Boolean).map(pileId));
  /** @type {Map<string, ActionInfo[]>} */
  const dests = new Map();
  if (pick.pile) {
    for (const a of movesFrom(ctx, pick.pile)) {
      const to = landing(moveOf(a));
      dests.set(to, [...(dests.get(to) || []), a]);
    }
  }
  const chosen = pick.action ? moveOf(pick.action) : null;
  const chosenTo = chosen ? landing(chosen) : null;
  const preview = ctx.preview && moveOf(ctx.preview) ? moveOf(ctx.preview) : null;
  const batIn = ctx.legal.filter((a) => actionTarget(a) === 'port');
  const batOut = ctx.legal.filter((a) => actionTarget(a) === 'stumpen');
  const last = lastMoveSeen(ctx, me);
  return { obs, G, me, them, pick, mover, myTurn, sources, dests, chosenTo, preview, batIn, batOut, last, names: ctx.names, slideMs: ctx.slideMs };
}

/** @typedef {ReturnType<typeof sceneOf>} Scene */

/**
 * The board: the table, the piles, Stumpen, each side's Hög and Ute, the
 * bats, the last move travelling, the dice.
 * @param {BoardContext} ctx
 * @returns {SVGSVGElement}
 */
function render(ctx) {
  const S = sceneOf(ctx);
  const { obs, G, me, them, mover, names } = S;
  const layers = [
    ...background(G), ...pits(S), ...stumpen(S),
    // The opponent's side at the top, mine at the bottom.
    ...sidePiles(S, them, true), ...sidePiles(S, me, false),
    ...overTarget(S), ...portTarget(S), ...travel(S),
  ];
  if (Array.isArray(obs.dice)) {
    layers.push(diceRow(G.dice.x, G.dice.y, 54, obs.dice, [false, false], { dark: mover === 1, roll: true,
      label: t('board.rolled', { who: ctx.names[mover] || t('role.player', { n: mover + 1 }), dice: listText(obs.dice.map(String)) }) }));
  }
  return svgRoot(G.W, G.H, t(G.tall ? 'sh.board_tall' : 'sh.board', { who: names[me] || t('role.player', { n: me + 1 }) }), layers);
}

/**
 * The table, the board, Hemma shaded, the zones' names and the mover's track.
 * @param {ReturnType<typeof geometry>} G
 * @returns {import('../dom.js').Child[]}
 */
function background(G) {
  const { W, H } = G;
  /** @type {import('../dom.js').Child[]} */
  const layers = [];
  layers.push(s('rect', { x: 0, y: 0, width: W, height: H, rx: 24, class: 'sh-table' }));
  layers.push(s('rect', { x: G.board.x, y: G.board.y, width: G.board.w, height: G.board.h, rx: 22, class: 'sh-board' }));
  // Hemma is shaded.
  layers.push(s('rect', { x: G.hemma.x, y: G.hemma.y, width: G.hemma.w, height: G.hemma.h, rx: 16, class: 'sh-hemma' }));
  layers.push(s('text', { x: G.zones.hemma.x, y: G.zones.hemma.y, class: 'sh-zone', 'text-anchor': 'middle' }, 'Hemma'));
  layers.push(s('text', { x: G.zones.borta.x, y: G.zones.borta.y, class: 'sh-zone', 'text-anchor': 'middle' }, 'Borta'));
  // The mover's track, as a faint arrowed path.
  layers.push(s('path', { d: G.track, class: 'sh-track' }));
  for (const [x, y, dx, dy] of G.arrows) {
    layers.push(s('path', {
      d: `M ${x - 20 * dx} ${y - 20 * dy} L ${x + 20 * dx} ${y + 20 * dy} M ${x + 10 * dx - 8 * dy} ${y + 10 * dy - 8 * dx} L ${x + 20 * dx} ${y + 20 * dy} L ${x + 10 * dx + 8 * dy} ${y + 10 * dy + 8 * dx}`,
      class: 'sh-arrow',
    }));
  }
  return layers;
}

/**
 * A pile as a target: its stones, what the move being built does with it,
 * and its name in words.
 * @param {Scene} S @param {'h' | 'b'} row @param {number} col @param {number} count
 */
function pile(S, row, col, count) {
  const { G, pick, myTurn, sources, dests, chosenTo, preview, last } = S;
  const id = `${row}:${col}`;
  const { x, y } = G.pile(row, col);
  const isSrc = myTurn && sources.has(id);
  const isSel = pick.pile === id;
  const dest = dests.get(id);
  const isChosenTo = chosenTo === id;
  const isPreview = preview && (pileId(preview) === id || landing(preview) === id);
  const lastCls = last && !pick.pile ? (last.to === id ? 'last-to' : last.from === id ? 'last-from' : '') : '';
  const cls = ['sh-pit', isSrc ? 'src' : '', isSel ? 'selected' : '', dest ? 'dest' : '', isChosenTo ? 'chosen' : '', isPreview ? 'preview' : '', lastCls]
    .filter(Boolean).join(' ');
  const rowName = row === 'h' ? 'Hitom' : 'Bortom';
  const extra = isSel ? t('board.selected') : isSrc ? t('board.can_move') : dest ? t('board.dest_move', { move: dest.map((a) => a.text).join(' / ') }) : '';
  const label = `${rowName} ${col}${col === 1 ? ' (Port)' : ''}: ${t('sh.n_stones', { n: count })}${extra}`;
  /** @type {import("../dom.js").Child[]} */
  const parts = [
    // The target reaches to the middle between piles: 44 px or more on a phone.
    s('rect', { x: x - 50, y: y - 50, width: 100, height: 100, class: 'hit' }),
    s('circle', { cx: x, cy: y, r: PILE_R, class: cls }),
    heap(x, y - 4, count, 0.9),
  ];
  if (dest) {
    const side = row === 'h' ? 1 : -1;
    parts.push(s('text', G.tall
      ? { x: x + side * (PILE_R + 12), y: y + 7, class: 'sh-dest-label', 'text-anchor': side > 0 ? 'start' : 'end' }
      : { x, y: y - PILE_R - 10, class: 'sh-dest-label', 'text-anchor': 'middle' },
    dest.map((a) => `+${moveOf(a).stones}`).join(' / ')));
  }
  return target(id, label, { class: `sh-pile${isSrc || dest ? ' can-pick' : ''}`, 'data-drag': isSrc ? 'yes' : null, 'data-state': dest ? 'dest' : isSel ? 'selected' : isSrc ? 'src' : null }, parts);
}

/**
 * The two rows of seven piles with their numbers, the rows' names and the Port.
 * @param {Scene} S
 * @returns {import('../dom.js').Child[]}
 */
function pits(S) {
  const { obs, G, me, them } = S;
  /** @type {import('../dom.js').Child[]} */
  const layers = [];
  for (let c = 1; c <= 7; c++) {
    layers.push(pile(S, 'b', c, obs.rows[them][c - 1]));
    layers.push(pile(S, 'h', c, obs.rows[me][c - 1]));
    for (const row of /** @type {const} */ (['b', 'h'])) {
      const l = G.colLabel(row, c);
      layers.push(s('text', { x: l.x, y: l.y, class: 'sh-col', 'text-anchor': 'middle' }, String(c)));
    }
  }
  for (const row of /** @type {const} */ (['b', 'h'])) {
    const l = G.rowLabel(row);
    layers.push(s('text', { x: l.x, y: l.y, class: 'sh-row', 'text-anchor': l.anchor }, row === 'h' ? 'Hitom' : 'Bortom'));
  }
  layers.push(s('text', { x: G.port.x, y: G.port.y, class: 'sh-port', 'text-anchor': 'middle' }, 'Port'));
  return layers;
}

/**
 * Stumpen, a target where stones land or are batted out from, with its title.
 * @param {Scene} S
 * @returns {import('../dom.js').Child[]}
 */
function stumpen(S) {
  const { obs, G, myTurn, dests, chosenTo, batOut } = S;
  /** @type {import('../dom.js').Child[]} */
  const layers = [];
  const { x: sx, y: sy } = G.stumpen;
  const stDest = dests.get('stumpen');
  const isChosen = chosenTo === 'stumpen';
  const canBatOut = myTurn && batOut.length > 0;
  const cls = ['sh-stumpen', stDest ? 'dest' : '', isChosen ? 'chosen' : '', canBatOut ? 'src' : ''].filter(Boolean).join(' ');
  layers.push(target('stumpen', `Stumpen: ${t('sh.n_stones', { n: obs.stumpen })}${stDest ? t('board.dest') : ''}${canBatOut ? t('sh.can_bat_out') : ''}`,
    { class: stDest || canBatOut ? 'can-pick' : '', 'data-state': stDest ? 'dest' : null },
    s('circle', { cx: sx, cy: sy, r: 62, class: cls }),
    heap(sx, sy - 8, obs.stumpen, 1.1),
  ));
  // Its title stands above it, outside the target, whose name says it.
  layers.push(s('text', { x: sx, y: sy - 78, class: 'sh-label', 'text-anchor': 'middle' }, 'Stumpen'));
  return layers;
}

/**
 * A side's name, Hög and Ute (and its Stumpvarning), in its strip (`top`:
 * the opponent's).
 * @param {Scene} S @param {number} p @param {boolean} top
 */
function sidePiles(S, p, top) {
  const { obs, G, them, mover, dests, chosenTo, names } = S;
  const st = G.strip(top);
  const y = st.y;
  const name = names[p] || t('role.player', { n: p + 1 });
  const warn = obs.stumpvarning[p];
  const overDest = p === them && (dests.has('over') || chosenTo === 'over');
  /** @type {import("../dom.js").Child[]} */
  const out = [
    s('text', { x: st.nameX, y: y + 7, class: 'sh-name', 'text-anchor': 'start' }, `${name}${mover === p ? ' ◀' : ''}`),
    s('g', { role: 'img', 'aria-label': `${possessive(name, 'Hög')}: ${t('sh.n_stones', { n: obs.hog[p] })}` },
      s('rect', { x: st.hogX, y: y - 34, width: st.boxW, height: 68, rx: 14, class: `sh-side${overDest ? ' dest' : ''}` }),
      s('text', { x: st.hogX + 18, y: y + 7, class: 'sh-side-label' }, 'Hög'),
      s('text', { x: st.hogX + st.boxW - 18, y: y + 9, class: 'sh-side-count', 'text-anchor': 'end' }, String(obs.hog[p]))),
    s('g', { role: 'img', 'aria-label': `${possessive(name, 'Ute')}: ${t('sh.n_stones', { n: obs.ute[p] })}${warn ? ', Stumpvarning' : ''}` },
      s('rect', { x: st.uteX, y: y - 34, width: st.boxW, height: 68, rx: 14, class: `sh-side ute${warn ? ' warn' : ''}` }),
      s('text', { x: st.uteX + 18, y: y + 7, class: 'sh-side-label' }, 'Ute'),
      s('text', { x: st.uteX + st.boxW - 18, y: y + 9, class: 'sh-side-count', 'text-anchor': 'end' }, String(obs.ute[p]))),
  ];
  if (warn) out.push(s('text', { x: st.warnX, y: G.tall ? (top ? y + 58 : y - 46) : y + 7, class: 'sh-warn', 'text-anchor': 'middle' }, 'Stumpvarning!'));
  return out;
}

/**
 * Where the move being built can go over to the opponent's Hög.
 * @param {Scene} S
 * @returns {import('../dom.js').Child[]}
 */
function overTarget(S) {
  const { G, dests } = S;
  if (!dests.has('over')) return [];
  const st = G.strip(true);
  const gain = `Hög +${dests.get('over')?.map((a) => moveOf(a).stones).join('/')}`;
  return [target('over', `${gain}: ${t('sh.over_dest')}`, { class: 'can-pick', 'data-state': 'dest' },
    s('rect', { x: st.hogX, y: st.y - 34, width: st.boxW, height: 68, rx: 14, class: 'sh-side dest' }),
    s('text', { x: st.hogX + st.boxW / 2, y: st.y + 7, class: 'sh-side-label', 'text-anchor': 'middle' }, gain))];
}

/**
 * The Port: the ring round it shows where batted-in stones go; the
 * bat-in target stands beside it, at the word Port, so that it does not
 * overlap the pile's own target.
 * @param {Scene} S
 * @returns {import('../dom.js').Child[]}
 */
function portTarget(S) {
  const { G, myTurn, batIn } = S;
  if (!myTurn || batIn.length === 0) return [];
  const port = G.pile('h', 1);
  return [
    s('circle', { cx: port.x, cy: port.y, r: PILE_R + 10, class: 'sh-batin', 'aria-hidden': 'true' }),
    target('port', t('sh.bat_in_port', { n: batIn[0].json.bat_in }), { class: 'can-pick' },
      s('rect', { x: G.port.x - 50, y: G.port.y - 50, width: 100, height: 100, rx: 14, class: 'sh-batin-box' })),
  ];
}

/**
 * The last move's stones travel from their pile to where they landed.
 * @param {Scene} S
 * @returns {import('../dom.js').Child[]}
 */
function travel(S) {
  const { G, last, slideMs } = S;
  /** @type {import('../dom.js').Child[]} */
  const layers = [];
  if (!last || !slideMs) return layers;
  const spot = (/** @type {string} */ id) => {
    if (id === 'stumpen') return G.stumpen;
    if (id === 'over-me' || id === 'over-them') {
      const st = G.strip(id === 'over-them');
      return { x: st.hogX + st.boxW / 2, y: st.y };
    }
    const [row, col] = id.split(':');
    return G.pile(/** @type {'h' | 'b'} */ (row), Number(col));
  };
  const from = spot(last.from);
  const to = spot(last.to);
  const style = `--dx: ${Math.round(from.x - to.x)}px; --dy: ${Math.round(from.y - to.y)}px; --slide-ms: ${slideMs}ms`;
  layers.push(s('g', { class: 'sh-travel arrived', style, 'aria-hidden': 'true' },
    heap(to.x, to.y - 4, last.stones, 0.9).slice(0, -1)));
  return layers;
}

/** @type {import('../types.js').GameUI} */
export const stumphogUI = {
  emptyPick,
  render,
  choose,
  drag,
  candidates,
  complete,
  undo,
  isEmpty: (ctx) => !pickOf(ctx).pile && !pickOf(ctx).action,
  prompt,
  onBoard,
  summary,
};
