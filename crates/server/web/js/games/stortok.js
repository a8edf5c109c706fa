// @ts-check
/**
 * The Stortok card table: the viewer's hand at the bottom, the other
 * players round the table with their hand sizes and the cards known to be
 * in their hands, the pile in the middle, the stock with the turned trump,
 * and the two trump suits.
 */

import { s, svgRoot, target } from '../dom.js';
import { t } from '../i18n.js';
import { optionLabel, optionValue } from '../names.js';

/** @typedef {import('../types.js').ActionInfo} ActionInfo */
/** @typedef {import('../types.js').BoardContext} BoardContext */

const SUITS = /** @type {Record<string, {sym: string, name: string, red: boolean}>} */ ({
  C: { sym: '♣', name: 'clubs', red: false },
  D: { sym: '♦', name: 'diamonds', red: true },
  H: { sym: '♥', name: 'hearts', red: true },
  S: { sym: '♠', name: 'spades', red: false },
});
const RANK_NAMES = /** @type {Record<string, string>} */ ({ A: 'ace', K: 'king', Q: 'queen', J: 'jack' });

/** @param {string} card e.g. `10H` */
export function parseCard(card) {
  return { rank: card.slice(0, -1), suit: card.slice(-1) };
}

/** @param {string} card */
export function cardName(card) {
  const { rank, suit } = parseCard(card);
  const suitName = SUITS[suit] ? t(`card.suit.${SUITS[suit].name}`) : suit;
  return t('card.name', { rank: RANK_NAMES[rank] ? t(`card.rank.${RANK_NAMES[rank]}`) : rank, suit: suitName });
}

/** @param {string} card */
function cardShort(card) {
  const { rank, suit } = parseCard(card);
  return `${rank}${SUITS[suit]?.sym || suit}`;
}

/** @param {ActionInfo} a @returns {string | null} */
function playedCard(a) {
  return a.json && typeof a.json === 'object' && typeof a.json.play === 'string' ? a.json.play : null;
}

/** @typedef {{card: string | null}} CardPick */

/** @returns {CardPick} */
function emptyPick() {
  return { card: null };
}

/** @param {BoardContext} ctx @returns {CardPick} */
function pickOf(ctx) {
  return ctx.pick && 'card' in ctx.pick ? ctx.pick : emptyPick();
}

/** @param {BoardContext} ctx @param {string} t @returns {CardPick} */
function choose(ctx, t) {
  const pick = pickOf(ctx);
  const m = /^card:(.+)$/.exec(t);
  if (!m) return pick;
  if (pick.card === m[1]) return emptyPick();
  if (ctx.legal.some((a) => playedCard(a) === m[1])) return { card: m[1] };
  return pick;
}

/** @param {BoardContext} ctx @param {string} from @param {string} to */
function drag(ctx, from, to) {
  return to === 'pile' ? choose({ ...ctx, pick: emptyPick() }, from) : pickOf(ctx);
}

/** @param {BoardContext} ctx */
function candidates(ctx) {
  const card = pickOf(ctx).card;
  return card ? ctx.legal.filter((a) => playedCard(a) === card) : ctx.legal;
}

/** @param {BoardContext} ctx */
function complete(ctx) {
  const card = pickOf(ctx).card;
  return card ? ctx.legal.find((a) => playedCard(a) === card) || null : null;
}

/** @param {BoardContext} ctx */
function prompt(ctx) {
  const obs = ctx.obs;
  if (ctx.legal.length === 0) return '';
  const card = pickOf(ctx).card;
  if (card) return t('st.prompt.play', { card: cardName(card) });
  const top = obs.table.length > obs.trick_start ? obs.table[obs.table.length - 1] : null;
  const canPlay = ctx.legal.some((a) => playedCard(a));
  if (!top) return t('st.prompt.lead');
  if (!canPlay) return t('st.prompt.must_pick_up', { card: cardName(top) });
  return t('st.prompt.beat', { card: cardName(top) });
}

/** @param {any} obs */
function summary(obs) {
  const parts = [`${optionLabel('version')}: ${optionValue('version', String(obs.version))}`];
  if (obs.high_trump) parts.push(t('st.sum.trumps', { high: SUITS[obs.high_trump].sym, low: SUITS[obs.low_trump].sym }));
  parts.push(t('st.sum.stock', { n: obs.stock + (obs.turned_in_stock ? 1 : 0) }));
  return parts.join(' · ');
}

// ---- drawing ----

/** The wide table's size; a phone held upright gets a tall one. */
const WIDE = { W: 1040, H: 800 };
const TALL = { W: 700, H: 1150 };
const CW = 84;
const CH = 120;
/** On a tall table, how low the pile's target reaches when a long hand's rows stack below it. */
const STACKED_PILE_BOTTOM = 676;

/**
 * A face-up card.
 * @param {string} card
 * @param {number} x @param {number} y
 * @param {{cls?: string, scale?: number, rotate?: number, height?: number}} [opts]
 *   `height`: only the card's top part this high (a back row of a long hand)
 */
function cardFace(card, x, y, opts = {}) {
  const { rank, suit } = parseCard(card);
  const info = SUITS[suit] || { sym: suit, red: false };
  const k = opts.scale || 1;
  const w = CW * k;
  const h = Math.min(opts.height ?? CH * k, CH * k);
  // The middle pip, raised to stay inside a card's top part.
  const pipY = Math.min((CH * k) / 2 + 16 * k, h - 14 * k);
  const rot = opts.rotate ? ` rotate(${opts.rotate} ${w / 2} ${h / 2})` : '';
  return s('g', { class: `card ${info.red ? 'red' : 'black'} ${opts.cls || ''}`.trim(), transform: `translate(${x} ${y})${rot}` },
    s('rect', { width: w, height: h, rx: 8 * k, class: 'card-face' }),
    s('text', { x: 7 * k, y: 22 * k, class: 'card-rank', 'font-size': 20 * k }, rank),
    s('text', { x: 7 * k, y: 42 * k, class: 'card-suit', 'font-size': 18 * k }, info.sym),
    pipY > 60 * k ? s('text', { x: w / 2, y: pipY, class: 'card-pip', 'font-size': 46 * k, 'text-anchor': 'middle' }, info.sym) : null,
  );
}

/**
 * A face-down card.
 * @param {number} x @param {number} y @param {number} [scale] @param {number} [rotate]
 */
function cardBack(x, y, scale = 1, rotate = 0) {
  const w = CW * scale;
  const h = CH * scale;
  return s('g', { class: 'card back', transform: `translate(${x} ${y})${rotate ? ` rotate(${rotate} ${w / 2} ${h / 2})` : ''}` },
    s('rect', { width: w, height: h, rx: 8 * scale, class: 'card-back' }),
    s('rect', { x: 6 * scale, y: 6 * scale, width: w - 12 * scale, height: h - 12 * scale, rx: 5 * scale, class: 'card-back-inner' }),
  );
}

/**
 * What a drawing of the table needs, worked out once: its size, where
 * each player sits, the cards that can be played, and how my hand's rows
 * are laid out.
 * @param {BoardContext} ctx
 */
function sceneOf(ctx) {
  const obs = ctx.obs;
  const tall = !!ctx.portrait;
  const { W, H } = tall ? TALL : WIDE;
  const n = obs.players;
  const me = ctx.seat === null ? 0 : ctx.seat;
  const pick = pickOf(ctx);
  const playable = new Set(ctx.legal.map(playedCard).filter(Boolean));
  const previewCard = ctx.preview ? playedCard(ctx.preview) : null;
  /** Where player `p` sits (the viewer at the foot). @param {number} p */
  const seatAt = (p) => {
    const k = (p - me + n) % n;
    if (k === 0) return { x: W / 2, y: H - CH - 44 };
    // The others sit round the far side, clockwise: the next player on my left.
    const angle = Math.PI + (k * Math.PI) / n;
    return { x: W / 2 + Math.cos(angle) * (W / 2 - (tall ? 110 : 150)), y: (tall ? 260 : 250) + Math.sin(angle) * (tall ? 130 : 120) };
  };
  const ty = tall ? 480 : H / 2;
  // My hand's rows. One row on a wide table. On a tall one (a phone) the
  // cards are larger, in rows of up to seven side by side, each at least
  // 44 px wide there; two rows stand apart below the pile. From three rows
  // (15 cards) on, the pile moves up and the rows share the room below it:
  // a back row shows its cards' top part only, each still 44 px tall up to
  // four rows (28 cards); a longer hand's back rows are shorter.
  const hand = obs.hand || [];
  const handScale = tall ? 96 / CW : 1;
  const hw = CW * handScale;
  const hh = CH * handScale;
  const perRow = tall ? 7 : Math.max(hand.length, 1);
  const rowsOfHand = Math.max(1, Math.ceil(hand.length / perRow));
  const stacked = tall && rowsOfHand >= 3;
  const frontY = H - hh - 44;
  const rowPitch = stacked ? Math.min(hh + 40, Math.floor((frontY - STACKED_PILE_BOTTOM) / (rowsOfHand - 1))) : hh + 40;
  return { ctx, obs, tall, W, H, n, me, pick, playable, previewCard, seatAt, ty, hand, handScale, hw, hh, perRow, rowsOfHand, stacked, frontY, rowPitch };
}

/** @typedef {ReturnType<typeof sceneOf>} Scene */

/**
 * The table: the other players round it, the stock and the trumps, the
 * pile, my hand.
 * @param {BoardContext} ctx
 * @returns {SVGSVGElement}
 */
function render(ctx) {
  const S = sceneOf(ctx);
  const { tall, W, H, n, me } = S;
  /** @type {import('../dom.js').Child[]} */
  const layers = [];
  layers.push(s('rect', { x: 0, y: 0, width: W, height: H, rx: 24, class: 'st-room' }));
  layers.push(tall
    ? s('ellipse', { cx: W / 2, cy: 480, rx: W / 2 - 24, ry: 420, class: 'st-table' })
    : s('ellipse', { cx: W / 2, cy: H / 2 - 50, rx: W / 2 - 30, ry: H / 2 - 120, class: 'st-table' }));

  // Players round the table (not the viewer).
  for (let k = 1; k < n; k++) layers.push(otherSeat(S, (me + k) % n));
  layers.push(stock(S), ...trumps(S), ...pile(S), ...myHand(S));
  return svgRoot(W, H, t('st.board', { n, who: ctx.names[me] || t('role.player', { n: me + 1 }) }), layers);
}

/**
 * A player round the table: his hand's backs fanned, his name and count,
 * the cards known to be in his hand.
 * @param {Scene} S @param {number} p
 */
function otherSeat(S, p) {
  const { ctx, obs, seatAt } = S;
  const { x: cx, y: cy } = seatAt(p);
  const size = obs.hand_sizes[p];
  const toMove = obs.phase !== 'over' && obs.to_move === p;
  const name = ctx.names[p] || t('role.player', { n: p + 1 });
  const out = obs.phase !== 'over' && size === 0;
  /** @type {import("../dom.js").Child[]} */
  const parts = [];
  const fan = Math.min(size, 8);
  for (let i = 0; i < fan; i++) parts.push(cardBack(cx - 40 + (i - fan / 2) * 9, cy - 70, 0.62, (i - fan / 2) * 4));
  parts.push(s('rect', { x: cx - 92, y: cy + 4, width: 184, height: 50, rx: 12, class: `st-seat${toMove ? ' to-move' : ''}` }));
  parts.push(s('text', { x: cx, y: cy + 25, class: 'st-seat-name', 'text-anchor': 'middle' }, `${name}${p === 0 ? ` (${t('st.dealer')})` : ''}`));
  parts.push(s('text', { x: cx, y: cy + 45, class: 'st-seat-info', 'text-anchor': 'middle' },
    out ? t('st.out') : t('st.n_cards', { n: size })));
  const known = obs.known[p] || [];
  known.slice(0, 10).forEach((/** @type {string} */ c, /** @type {number} */ i) => parts.push(cardFace(c, cx - 96 + i * 19, cy + 60, { scale: 0.42, cls: 'known' })));
  if (known.length > 10) parts.push(s('text', { x: cx + 110, y: cy + 90, class: 'st-seat-info' }, `+${known.length - 10}`));
  const knownText = known.length ? t('st.known', { cards: known.map(cardShort).join(' ') }) : '';
  return s('g', { role: 'img', 'aria-label': `${name}: ${out ? t('st.out_of_game') : t('st.n_cards', { n: size })}${toMove ? t('st.to_move') : ''}${knownText}` }, parts);
}

/**
 * The stock, with the turned trump beneath it while it is there.
 * @param {Scene} S
 */
function stock(S) {
  const { obs, tall, H } = S;
  const stockX = tall ? 70 : 110;
  const stockY = tall ? 380 : H / 2 - 90;
  const stockParts = [];
  if (obs.turned && obs.turned_in_stock) stockParts.push(cardFace(obs.turned, stockX + 44, stockY + 14, { rotate: 90, scale: 0.9 }));
  for (let i = 0; i < Math.min(obs.stock, 6); i++) stockParts.push(cardBack(stockX - i * 2, stockY - i * 2, 0.9));
  stockParts.push(s('text', { x: stockX + 38, y: stockY + CH + 26, class: 'st-label', 'text-anchor': 'middle' },
    obs.stock === 0 && !obs.turned_in_stock ? t('st.stock_empty') : `${t('st.stock', { n: obs.stock })}${obs.turned_in_stock ? ` + ${t('st.trump')}` : ''}`));
  return s('g', { role: 'img', 'aria-label': `${t('st.stock_label', { n: obs.stock })}${obs.turned && obs.turned_in_stock ? t('st.turned_beneath', { card: cardName(obs.turned) }) : ''}` }, stockParts);
}

/**
 * The high and low trumps.
 * @param {Scene} S
 * @returns {import('../dom.js').Child[]}
 */
function trumps(S) {
  const { obs, W, ty } = S;
  /** @type {import('../dom.js').Child[]} */
  const layers = [];
  if (obs.high_trump) {
    const hi = SUITS[obs.high_trump];
    const lo = SUITS[obs.low_trump];
    layers.push(s('g', { role: 'img', 'aria-label': t('st.trumps_label', { high: t(`card.suit.${hi.name}`), low: t(`card.suit.${lo.name}`) }) },
      s('rect', { x: W - 250, y: ty - 90, width: 170, height: 92, rx: 12, class: 'st-trumps' }),
      s('text', { x: W - 235, y: ty - 58, class: 'st-trump-label' }, t('st.high_trump')),
      s('text', { x: W - 100, y: ty - 56, class: `st-trump-sym ${hi.red ? 'red' : 'black'}`, 'text-anchor': 'end' }, hi.sym),
      s('text', { x: W - 235, y: ty - 16, class: 'st-trump-label' }, t('st.low_trump')),
      s('text', { x: W - 100, y: ty - 14, class: `st-trump-sym ${lo.red ? 'red' : 'black'}`, 'text-anchor': 'end' }, lo.sym)));
  }
  return layers;
}

/**
 * The pile: earlier tricks stacked, the current trick fanned, the top card
 * marked, the card just played travelling in; a target that names it; the
 * cards set aside.
 * @param {Scene} S
 * @returns {import('../dom.js').Child[]}
 */
function pile(S) {
  const { ctx, obs, tall, W, H, seatAt, ty, stacked } = S;
  /** @type {import('../dom.js').Child[]} */
  const layers = [];
  // The pile: earlier tricks stacked, the current trick fanned, the top card marked.
  const table = obs.table || [];
  /** @type {import("../dom.js").Child[]} */
  const pileParts = [];
  const trickStart = Math.min(obs.trick_start, table.length);
  const older = table.slice(0, trickStart);
  const current = table.slice(trickStart);
  const px = W / 2 - 150;
  const py = stacked ? STACKED_PILE_BOTTOM - 165 : tall ? 580 : H / 2 - 110;
  older.slice(-6).forEach((/** @type {string} */ c, /** @type {number} */ i) => pileParts.push(cardFace(c, px - 40 + i * 5, py - 6 + i * 3, { cls: 'old', scale: 0.9, rotate: -12 + i * 3 })));
  // The card just played travels from its player's seat to the pile.
  const justPlayed = ctx.last && ctx.slideMs ? playedCard({ text: '', json: ctx.last.json }) : null;
  current.forEach((/** @type {string} */ c, /** @type {number} */ i) => {
    const isTop = i === current.length - 1;
    const x = px + 60 + i * 34;
    const y = py + (i % 2) * 8;
    const face = cardFace(c, x, y, { cls: isTop ? 'top-card' : '' });
    if (isTop && ctx.last && justPlayed === c) {
      const from = seatAt(ctx.last.seat);
      const style = `--dx: ${Math.round(from.x - CW / 2 - x)}px; --dy: ${Math.round(from.y - y)}px; --slide-ms: ${ctx.slideMs}ms`;
      pileParts.push(s('g', { class: 'card-travel arrived', style }, face));
    } else pileParts.push(face);
  });
  const topCard = table.length ? table[table.length - 1] : null;

  const pileLabel = table.length === 0 ? t('st.table_empty')
    : `${t('st.table', { n: table.length })}${older.length ? ` (${t('st.earlier', { n: older.length })})` : ''}; ${t('st.on_top', { card: cardName(/** @type {string} */ (topCard)) })}${obs.last !== null && obs.last !== undefined ? t('st.played_by', { who: ctx.names[obs.last] || t('role.player', { n: obs.last + 1 }) }) : ''}`;
  // The cards are the picture; the target over them carries the name.
  layers.push(s('g', { class: 'st-pile-cards' }, pileParts));
  layers.push(target('pile', pileLabel, { class: 'st-pile' }, s('rect', { x: px - 60, y: py - 30, width: 420, height: 190, class: 'hit' })));
  if (table.length === 0) layers.push(s('text', { x: W / 2, y: py + 70, class: 'st-empty', 'text-anchor': 'middle' }, t('st.empty_table')));
  if (obs.discarded && obs.discarded.length) {
    layers.push(s('text', { x: W - 165, y: ty + 30, class: 'st-label', 'text-anchor': 'middle' }, t('st.set_aside', { n: obs.discarded.length })));
  }
  return layers;
}

/**
 * My hand, each card a target (lifted when it can be played or is chosen),
 * and my name and count below it; a watcher sees the first player's count.
 * @param {Scene} S
 * @returns {import('../dom.js').Child[]}
 */
function myHand(S) {
  const { ctx, obs, tall, W, H, me, pick, playable, previewCard, hand, handScale, hw, perRow, rowsOfHand, stacked, frontY, rowPitch } = S;
  /** @type {import('../dom.js').Child[]} */
  const layers = [];
  // My hand.
  const avail = W - (tall ? 20 : 120);
  /** @param {number} i */
  const spot = (i) => {
    const row = Math.floor(i / perRow);
    const inRow = Math.min(perRow, hand.length - row * perRow);
    const k = i - row * perRow;
    const step = inRow > 1 ? Math.min(hw + 8, (avail - hw) / (inRow - 1)) : 0;
    const x0 = W / 2 - ((inRow - 1) * step + hw) / 2;
    return { x: x0 + k * step, y: frontY - (rowsOfHand - 1 - row) * rowPitch, back: row < rowsOfHand - 1 };
  };
  const myTurn = ctx.legal.length > 0;
  hand.forEach((/** @type {string} */ c, /** @type {number} */ i) => {
    const can = myTurn && playable.has(c);
    const sel = pick.card === c;
    // Stacked rows stand still (a lifted card would cover the row above);
    // the card's outline says that it can be played or is chosen.
    const lift = stacked ? 0 : sel ? 34 : can ? 12 : 0;
    const at = spot(i);
    const cls = [can ? 'playable' : myTurn ? 'unplayable' : '', sel ? 'selected' : '', previewCard === c ? 'preview' : ''].filter(Boolean).join(' ');
    // The name begins with the card's corner as drawn ("Q♦").
    layers.push(target(`card:${c}`, `${cardShort(c)}, ${cardName(c)}${sel ? t('board.selected') : can ? t('st.can_beat') : ''}`,
      { class: `st-hand-card${can ? ' can-pick' : ''}`, 'data-drag': can ? 'yes' : null, 'data-state': sel ? 'selected' : can ? 'src' : null },
      cardFace(c, at.x, at.y - lift, { cls, scale: handScale, height: stacked && at.back ? rowPitch - 4 : undefined })));
  });
  if (ctx.seat !== null) {
    const toMove = obs.phase !== 'over' && obs.to_move === me;
    layers.push(s('text', { x: W / 2, y: H - 14, 'text-anchor': 'middle', class: `st-me${toMove ? ' to-move' : ''}` },
      `${ctx.names[me] || t('name.you')}${me === 0 ? ` (${t('st.dealer')})` : ''} · ${t('st.n_cards', { n: hand.length })}${toMove ? ` · ${t('st.your_turn')}` : ''}`));
  } else {
    layers.push(s('text', { x: W / 2, y: H - 70, class: 'st-label', 'text-anchor': 'middle' }, t('st.watching', { who: ctx.names[0] || t('role.player', { n: 1 }), n: obs.hand_sizes[0] })));
  }
  return layers;
}

/** @param {ActionInfo} action */
function onBoard(action) {
  return playedCard(action) !== null;
}

/** @type {import('../types.js').GameUI} */
export const stortokUI = {
  emptyPick,
  render,
  choose,
  drag,
  candidates,
  complete,
  undo: () => emptyPick(),
  isEmpty: (ctx) => !pickOf(ctx).card,
  prompt,
  onBoard,
  summary,
};
