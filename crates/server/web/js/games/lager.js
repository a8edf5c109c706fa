// @ts-check
/**
 * The Läger board: a grid with a camp at each end, four stones and a
 * blockade per player, unplayed pieces in trays beside the board. Drawn
 * from the viewer's side: his own camp at the bottom.
 */

import { fittedText, s, svgRoot, target } from '../dom.js';
import { possessive } from '../names.js';
import { ltr, t } from '../i18n.js';

/** @typedef {import('../types.js').ActionInfo} ActionInfo */
/** @typedef {import('../types.js').BoardContext} BoardContext */

const STONES = /** @type {const} */ (['blue', 'yellow', 'black', 'white']);
const LETTER_OF = /** @type {Record<string, string>} */ ({ blue: 'B', yellow: 'Y', black: 'K', white: 'W', blockade: 'R' });
const STONE_OF = /** @type {Record<string, string>} */ ({ b: 'blue', y: 'yellow', k: 'black', w: 'white', r: 'blockade' });

/** @param {number} col 0-based @param {number} row 0-based (row 0 is "1") */
function squareName(col, row) {
  return `${String.fromCharCode(97 + col)}${row + 1}`;
}

/** @param {string} sq e.g. `c3` */
function squareXY(sq) {
  return { col: sq.charCodeAt(0) - 97, row: Number(sq.slice(1)) - 1 };
}

/**
 * The piece on a square: owner and kind, from the board strings.
 * @param {any} obs @param {number} col @param {number} row
 * @returns {{owner: number, stone: string} | null}
 */
function pieceAt(obs, col, row) {
  const line = obs.board[obs.rows - 1 - row];
  const ch = line ? line[col] : '.';
  if (!ch || ch === '.') return null;
  const lower = ch.toLowerCase();
  return { owner: ch === lower ? 1 : 0, stone: STONE_OF[lower] || '?' };
}

/**
 * An action's source (a square or a tray slot) and destination.
 * @param {ActionInfo} a
 * @returns {{from: string, to: string} | null}
 */
function endsOf(a) {
  const j = a.json;
  if (!j || typeof j !== 'object') return null;
  if (j.move) return { from: `sq:${j.move.from}`, to: `sq:${j.move.to}` };
  if (j.place) return { from: `tray:${j.place.stone}`, to: `sq:${j.place.to}` };
  if (j.blockade) return { from: 'tray:blockade', to: `sq:${j.blockade.to}` };
  return null;
}

/** @typedef {{from: string | null, action: ActionInfo | null}} LagerPick */

/** @returns {LagerPick} */
function emptyPick() {
  return { from: null, action: null };
}

/** @param {BoardContext} ctx @returns {LagerPick} */
function pickOf(ctx) {
  return ctx.pick && 'from' in ctx.pick && 'action' in ctx.pick ? ctx.pick : emptyPick();
}

/** @param {BoardContext} ctx @param {string} from */
function actionsFrom(ctx, from) {
  return ctx.legal.filter((a) => endsOf(a)?.from === from);
}

/** @param {BoardContext} ctx @param {string} t @returns {LagerPick} */
function choose(ctx, t) {
  const pick = pickOf(ctx);
  if (pick.from) {
    if (t === pick.from) return emptyPick();
    const a = actionsFrom(ctx, pick.from).find((x) => endsOf(x)?.to === t);
    if (a) return { from: pick.from, action: a };
  }
  if (actionsFrom(ctx, t).length > 0) return { from: t, action: null };
  return pick;
}

/** @param {BoardContext} ctx @param {string} from @param {string} to */
function drag(ctx, from, to) {
  const picked = choose({ ...ctx, pick: emptyPick() }, from);
  if (!picked.from) return pickOf(ctx);
  return choose({ ...ctx, pick: picked }, to);
}

/** @param {BoardContext} ctx */
function candidates(ctx) {
  const pick = pickOf(ctx);
  if (pick.action) return [pick.action];
  if (pick.from) return actionsFrom(ctx, pick.from);
  return ctx.legal;
}

/** @param {BoardContext} ctx @returns {LagerPick} */
function undo(ctx) {
  const pick = pickOf(ctx);
  return pick.action ? { from: pick.from, action: null } : emptyPick();
}

/** @param {string} id */
function sourceName(id) {
  if (id.startsWith('tray:')) {
    const kind = id.slice(5);
    return kind === 'blockade' ? t('lager.your_blockade') : t('lager.your_unplayed', { piece: t(`lager.piece.${kind}`) });
  }
  return t('lager.piece_on', { at: id.slice(3) });
}

/** @param {BoardContext} ctx */
function prompt(ctx) {
  if (ctx.legal.length === 0) return '';
  const pick = pickOf(ctx);
  if (pick.action) return t('prompt.complete', { play: ltr(pick.action.text) });
  if (pick.from) return t('lager.prompt.where', { what: sourceName(pick.from) });
  return t('lager.prompt.start');
}

/** @param {any} obs */
function summary(obs) {
  return `${obs.columns}×${obs.rows} · ${t('lager.sum.ply', { n: obs.plies, max: obs.max_plies })} · ${t(obs.captured === 'out' ? 'lager.sum.out' : 'lager.sum.return')}`;
}

// ---- drawing ----

/**
 * A stone or blockade.
 * @param {number} cx @param {number} cy @param {number} size
 * @param {string} stone @param {number} owner @param {boolean} flip
 * @param {string} [cls]
 */
function piece(cx, cy, size, stone, owner, flip, cls = '') {
  const r = size * 0.36;
  if (stone === 'blockade') {
    return s('g', { class: `lg-piece lg-blockade o${owner} ${cls}`.trim() },
      s('rect', { x: cx - r, y: cy - r, width: 2 * r, height: 2 * r, rx: r * 0.2, class: 'lg-block-body' }),
      s('path', { d: `M ${cx - r * 0.6} ${cy - r * 0.6} L ${cx + r * 0.6} ${cy + r * 0.6} M ${cx + r * 0.6} ${cy - r * 0.6} L ${cx - r * 0.6} ${cy + r * 0.6}`, class: 'lg-block-x' }),
    );
  }
  // Forward for South is up the board; drawn from North's side it flips.
  const up = (owner === 0) !== flip;
  const dir = up ? -1 : 1;
  return s('g', { class: `lg-piece lg-${stone} o${owner} ${cls}`.trim() },
    s('circle', { cx, cy, r: r + size * 0.06, class: 'lg-ring' }),
    s('circle', { cx, cy, r, class: 'lg-body' }),
    s('path', { d: `M ${cx - r * 0.42} ${cy + dir * r * 0.05} L ${cx} ${cy + dir * r * 0.6} L ${cx + r * 0.42} ${cy + dir * r * 0.05} Z`, class: 'lg-chevron', transform: `translate(0 ${-dir * r * 0.05})` }),
    s('text', { x: cx, y: cy - dir * r * 0.32, class: 'lg-letter', 'text-anchor': 'middle', 'dominant-baseline': 'central', 'font-size': r * 0.7 }, LETTER_OF[stone]),
  );
}

/**
 * What a drawing of the board needs, worked out once: its size and where
 * each square and tray stands (the viewer's camp at the foot), the move
 * being built, the threats, the last move and where its piece slides from.
 * @param {BoardContext} ctx
 */
function sceneOf(ctx) {
  const obs = ctx.obs;
  const me = ctx.seat === 1 ? 1 : 0;
  const flip = me === 1;
  const cols = obs.columns;
  const rows = obs.rows;
  // Wide: trays beside the board. Tall (a phone held upright): trays above and below.
  const tall = !!ctx.portrait;
  const cell = Math.floor(Math.min(96, 680 / rows, (tall ? 560 : 620) / cols));
  const bw = cols * cell;
  const bh = rows * cell;
  const bx = tall ? Math.max(60, (640 - bw) / 2) : 60;
  const by = tall ? 190 : 60;
  const trayX = bx + bw + 40;
  const W = tall ? Math.max(bx + bw + 40, 640) : trayX + 260;
  const H = tall ? by + bh + 60 + 170 : Math.max(by + bh + 60, 560);
  const pick = pickOf(ctx);
  const myTurn = ctx.legal.length > 0;
  const sources = new Set(ctx.legal.map((a) => endsOf(a)?.from).filter(Boolean));
  /** @type {Map<string, ActionInfo>} */
  const dests = new Map();
  if (pick.from) for (const a of actionsFrom(ctx, pick.from)) dests.set(/** @type {string} */ (endsOf(a)?.to), a);
  const chosen = pick.action ? endsOf(pick.action) : null;
  const preview = ctx.preview ? endsOf(ctx.preview) : null;
  const threatened = new Set(myTurn ? obs.threatened : []);
  const capturable = new Set(myTurn ? obs.capturable : []);
  const names = [ctx.names[0] || t('role.south'), ctx.names[1] || t('role.north')];

  /** Screen position of a square. @param {number} col @param {number} row */
  const pos = (col, row) => {
    const c = flip ? cols - 1 - col : col;
    const r = flip ? row : rows - 1 - row;
    return { x: bx + c * cell, y: by + r * cell };
  };

  /** A tray's box. @param {boolean} top */
  const trayBox = (top) => (tall
    ? { x: 20, y: top ? 20 : by + bh + 56, w: W - 40, h: 150 }
    : { x: trayX, y: top ? by : by + bh - 230, w: 230, h: 230 });
  const kinds = [...STONES, 'blockade'];
  /** Where a piece stands in its tray. @param {boolean} top @param {number} i its kind's index */
  const traySpot = (top, i) => {
    const box = trayBox(top);
    return {
      x: tall ? box.x + 70 + i * ((box.w - 100) / 4.6) : box.x + 36 + (i % 3) * 78,
      y: tall ? box.y + 96 : box.y + 100 + Math.floor(i / 3) * 82,
    };
  };
  // The last move: marked on the board, its piece sliding in from where it stood.
  const last = ctx.last && !pick.from ? endsOf({ text: '', json: ctx.last.json }) : null;
  /** @type {{x: number, y: number} | null} */
  let slideFrom = null;
  if (last && ctx.last && ctx.slideMs) {
    const [kind, at] = last.from.split(':');
    if (kind === 'tray') slideFrom = traySpot(ctx.last.seat !== me, kinds.indexOf(at));
    else {
      const sq = squareXY(at);
      const p = pos(sq.col, sq.row);
      slideFrom = { x: p.x + cell / 2, y: p.y + cell / 2 };
    }
  }
  return { ctx, obs, me, flip, cols, rows, tall, cell, bw, bh, bx, by, W, H, pick, myTurn, sources, dests, chosen, preview, threatened, capturable, names, pos, trayBox, kinds, traySpot, last, slideFrom };
}

/** @typedef {ReturnType<typeof sceneOf>} Scene */

/**
 * The board: its squares, their coordinates, and each side's tray (the
 * opponent's at the top, mine at the bottom).
 * @param {BoardContext} ctx
 * @returns {SVGSVGElement}
 */
function render(ctx) {
  const S = sceneOf(ctx);
  const { me, cols, rows, bx, by, bw, bh, W, H, names } = S;
  /** @type {import("../dom.js").Child[]} */
  const layers = [];
  layers.push(s('rect', { x: 0, y: 0, width: W, height: H, rx: 22, class: 'lg-table' }));
  layers.push(s('rect', { x: bx - 14, y: by - 14, width: bw + 28, height: bh + 28, rx: 10, class: 'lg-frame' }));
  for (let row = 0; row < rows; row++) {
    for (let col = 0; col < cols; col++) layers.push(square(S, col, row));
  }
  layers.push(...coordinates(S), tray(S, 1 - me, true), tray(S, me, false));
  return svgRoot(W, H, t('lager.board', { cols, rows, who: names[me] }), layers);
}

/**
 * A square as a target: its piece (sliding in when it just moved), the
 * marks of the move being built, threats, and its name in words.
 * @param {Scene} S @param {number} col @param {number} row
 */
function square(S, col, row) {
  const { ctx, obs, flip, rows, cell, pick, myTurn, sources, dests, chosen, preview, threatened, capturable, names, pos, last, slideFrom } = S;
  const { x, y } = pos(col, row);
  const name = squareName(col, row);
  const id = `sq:${name}`;
  const camp = row === 0 ? 0 : row === rows - 1 ? 1 : -1;
  const p = pieceAt(obs, col, row);
  const isSrc = myTurn && sources.has(id);
  const dest = dests.get(id);
  const isChosen = chosen && (chosen.to === id);
  const isFrom = pick.from === id || (chosen && chosen.from === id);
  const isPreview = preview && (preview.to === id || preview.from === id);
  const cls = ['lg-square', (row + col) % 2 ? 'dark' : 'light', camp === 0 ? 'camp0' : camp === 1 ? 'camp1' : '',
    dest ? 'dest' : '', isChosen ? 'chosen' : '', isPreview ? 'preview' : '',
    last && last.to === id ? 'last-to' : last && last.from === id ? 'last-from' : ''].filter(Boolean).join(' ');
  const parts = [s('rect', { x, y, width: cell, height: cell, class: cls })];
  if (threatened.has(name) && !p) parts.push(s('circle', { cx: x + cell / 2, cy: y + cell / 2, r: cell * 0.09, class: 'lg-threat' }));
  if (p) {
    const pc = isFrom ? 'selected' : isSrc ? 'src' : capturable.has(name) ? 'capturable' : '';
    const drawn = piece(x + cell / 2, y + cell / 2, cell, p.stone, p.owner, flip, pc);
    if (slideFrom && last && last.to === id) {
      const style = `--dx: ${Math.round(slideFrom.x - x - cell / 2)}px; --dy: ${Math.round(slideFrom.y - y - cell / 2)}px; --slide-ms: ${ctx.slideMs}ms`;
      parts.push(s('g', { class: 'lg-travel arrived', style }, drawn));
    } else parts.push(drawn);
  }
  if (dest) parts.push(s('circle', { cx: x + cell / 2, cy: y + cell / 2, r: cell * 0.2, class: 'dest-marker' }));
  const what = p ? possessive(names[p.owner], t(`lager.piece.${p.stone}`)) : t('board.empty');
  const campText = camp >= 0 ? ` (${possessive(names[camp], t('lager.camp'))})` : '';
  const extra = isSrc ? t('board.can_move') : dest ? t('board.dest_move', { move: dest.text }) : capturable.has(name) ? t('lager.can_knock_out') : threatened.has(name) ? t('lager.threatened') : '';
  return target(id, `${name}${campText}: ${what}${extra}`,
    { class: `lg-sq${isSrc || dest ? ' can-pick' : ''}`, 'data-drag': isSrc ? 'yes' : null, 'data-state': dest ? 'dest' : isFrom ? 'selected' : isSrc ? 'src' : null }, parts);
}

/**
 * The columns' letters below the board and the rows' numbers beside it.
 * @param {Scene} S
 * @returns {import('../dom.js').Child[]}
 */
function coordinates(S) {
  const { cols, rows, cell, bh, bx, by, pos } = S;
  /** @type {import('../dom.js').Child[]} */
  const layers = [];
  for (let col = 0; col < cols; col++) {
    const { x } = pos(col, 0);
    layers.push(s('text', { x: x + cell / 2, y: by + bh + 38, class: 'lg-coord', 'text-anchor': 'middle' }, String.fromCharCode(97 + col)));
  }
  for (let row = 0; row < rows; row++) {
    const { y } = pos(0, row);
    layers.push(s('text', { x: bx - 32, y: y + cell / 2 + 6, class: 'lg-coord', 'text-anchor': 'middle' }, String(row + 1)));
  }
  return layers;
}

/**
 * A side's tray: its name and stones in the opponent's camp, and each of
 * its pieces in hand, played or out (mine to place a target).
 * @param {Scene} S @param {number} p @param {boolean} top
 */
function tray(S, p, top) {
  const { obs, me, flip, tall, pick, myTurn, sources, names, trayBox, kinds, traySpot } = S;
  const pv = obs.players[p];
  const box = trayBox(top);
  const mover = obs.turn && typeof obs.turn === 'object' ? obs.turn.player : null;
  const parts = [
    s('rect', { x: box.x, y: box.y, width: box.w, height: box.h, rx: 14, class: `lg-tray${mover === p ? ' to-move' : ''}` }),
    // Long names are squeezed into the tray (its CSS sizes: 20 and 14 px).
    fittedText({ x: box.x + 16, y: box.y + 30, class: 'lg-tray-name' }, `${names[p]}${mover === p ? ' ◀' : ''}`, box.w - 32, 20),
    fittedText({ x: box.x + 16, y: box.y + 54, class: 'lg-tray-info' }, t('lager.in_camp', { camp: possessive(names[1 - p], t('lager.camp')), n: pv.in_opponent_camp }), box.w - 32, 14),
  ];
  kinds.forEach((kind, i) => {
    const where = pv[kind];
    const { x: cx, y: cy } = traySpot(top, i);
    const id = `tray:${kind}`;
    const mine = p === me;
    const isSrc = mine && myTurn && sources.has(id);
    const isSel = mine && pick.from === id;
    const status = where === 'unplayed' ? t('lager.in_hand') : where === 'out' ? t('lager.out') : t('lager.on', { at: where });
    const cls = where === 'unplayed' ? (isSel ? 'selected' : isSrc ? 'src' : '') : 'played';
    const drawn = piece(cx, cy, 64, kind, p, flip, cls);
    const label = s('text', { x: cx, y: cy + 36, class: 'lg-tray-info', 'text-anchor': 'middle' }, status);
    if (mine && isSrc) {
      parts.push(target(id, `${possessive(t('name.you'), t(`lager.piece.${kind}`))}: ${status}, ${t(`lager.moves.${kind}`)}${isSel ? t('board.selected') : t('lager.can_place')}`,
        { class: 'can-pick', 'data-drag': 'yes', 'data-state': isSel ? 'selected' : 'src' }, s('rect', { x: cx - (tall ? 42 : 34), y: cy - 34, width: tall ? 84 : 68, height: 82, class: 'hit' }), drawn), label);
    } else {
      parts.push(s('g', { role: 'img', 'aria-label': `${possessive(names[p], t(`lager.piece.${kind}`))}: ${status}` }, drawn, label));
    }
  });
  return parts;
}

/** @param {ActionInfo} action */
function onBoard(action) {
  return endsOf(action) !== null;
}

/** @type {import('../types.js').GameUI} */
export const lagerUI = {
  emptyPick,
  render,
  choose,
  drag,
  candidates,
  complete: (ctx) => pickOf(ctx).action,
  undo,
  isEmpty: (ctx) => !pickOf(ctx).from && !pickOf(ctx).action,
  prompt,
  onBoard,
  summary,
};

export { squareXY };
