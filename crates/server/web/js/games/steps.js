// @ts-check
/**
 * Building a dice play checker by checker, for every game whose plays are
 * lists of single steps `{from, to, die}` (Tawla, backgammon, High-O Gammon,
 * Tric-Trac).
 *
 * The engine lists each resulting position once, in one order of its steps.
 * A person may play the same steps in another order, or move one checker
 * with the dice the other way round (24/23 23/21 for 24/22 22/21). So each
 * legal play is expanded into its *variants*: the orders of its steps (and,
 * for one checker using two different dice, the other path), each checked
 * step by step on a local board. The steps chosen so far are then a prefix
 * of some variants, and those variants say which steps may come next.
 */

/** @typedef {import('../types.js').ActionInfo} ActionInfo */
/** @typedef {{from: number, to: number, die: number}} Step */

/**
 * @template B
 * @typedef {Object} StepBoard  A game's local board for checking steps.
 * @property {(board: B, from: number) => boolean} canStart whether the mover
 *   has a checker to move at `from`
 * @property {(board: B, step: Step) => boolean} canLand whether a step may
 *   land on its `to`
 * @property {(board: B, step: Step) => B} apply the board after a step (a copy)
 * @property {(from: number, die: number) => number} advance where a die takes
 *   a checker from `from` (the off code when it leaves the board)
 * @property {boolean} keepDiceOrder whether the dice must be played in the
 *   listed order (High-O Gammon: the smaller number first)
 */

/**
 * @typedef {Object} Variant  One way of playing a legal action step by step.
 * @property {ActionInfo} action the legal action (sent when confirmed)
 * @property {Step[]} seq its steps in this order
 */

/**
 * The steps of an action, or null when it is not a play of steps.
 * @param {ActionInfo} action
 * @returns {Step[] | null}
 */
export function stepsOf(action) {
  const play = action.json && typeof action.json === 'object' ? action.json.play : undefined;
  return Array.isArray(play) ? play : null;
}

/** @param {Step} a @param {Step} b */
export function sameStep(a, b) {
  return a.from === b.from && a.to === b.to && a.die === b.die;
}

/** @param {Step[]} seq */
function seqKey(seq) {
  return seq.map((s) => `${s.from}/${s.to}/${s.die}`).join(' ');
}

/**
 * Every order of `items` (at most 4 items, so at most 24 orders).
 * @template T
 * @param {T[]} items
 * @returns {T[][]}
 */
function permutations(items) {
  if (items.length <= 1) return [items.slice()];
  /** @type {T[][]} */
  const out = [];
  items.forEach((item, i) => {
    const rest = items.slice(0, i).concat(items.slice(i + 1));
    for (const p of permutations(rest)) out.push([item, ...p]);
  });
  return out;
}

/**
 * The same checker path with the two dice the other way round, when a
 * two-step play moves one checker with two different dice.
 * @template B
 * @param {Step[]} play
 * @param {StepBoard<B>} rules
 * @returns {Step[] | null}
 */
function swappedPath(play, rules) {
  if (play.length !== 2) return null;
  const [a, b] = play;
  if (a.die === b.die || b.from !== a.to) return null;
  const middle = rules.advance(a.from, b.die);
  if (middle === b.to) return null;
  const end = rules.advance(middle, a.die);
  if (end !== b.to) return null;
  return [
    { from: a.from, to: middle, die: b.die },
    { from: middle, to: b.to, die: a.die },
  ];
}

/**
 * Whether a sequence of steps can be played in this order on `board`.
 * @template B
 * @param {B} board
 * @param {Step[]} seq
 * @param {StepBoard<B>} rules
 */
function playable(board, seq, rules) {
  let b = board;
  for (const step of seq) {
    if (!rules.canStart(b, step.from) || !rules.canLand(b, step)) return false;
    b = rules.apply(b, step);
  }
  return true;
}

/**
 * Every variant of every legal play on `board`. The engine's own order of
 * each play is always kept, even if the local check would refuse it.
 * @template B
 * @param {ActionInfo[]} legal
 * @param {B} board
 * @param {StepBoard<B>} rules
 * @returns {Variant[]}
 */
export function variantsOf(legal, board, rules) {
  /** @type {Variant[]} */
  const out = [];
  for (const action of legal) {
    const play = stepsOf(action);
    if (!play || play.length === 0) continue;
    const seen = new Set([seqKey(play)]);
    out.push({ action, seq: play });
    const bases = [play];
    const swapped = rules.keepDiceOrder ? null : swappedPath(play, rules);
    if (swapped) bases.push(swapped);
    for (const base of bases) {
      for (const seq of permutations(base)) {
        const key = seqKey(seq);
        if (seen.has(key)) continue;
        seen.add(key);
        if (rules.keepDiceOrder && seq.some((s, i) => s.die !== play[i].die)) continue;
        if (playable(board, seq, rules)) out.push({ action, seq });
      }
    }
  }
  return out;
}

/**
 * The variants that begin with the steps chosen so far.
 * @param {Variant[]} variants
 * @param {Step[]} pending
 */
export function matching(variants, pending) {
  return variants.filter(
    (v) => v.seq.length >= pending.length && pending.every((s, i) => sameStep(s, v.seq[i])),
  );
}

/**
 * The steps that may come next, one per (from, to, die).
 * @param {Variant[]} variants
 * @param {Step[]} pending
 * @returns {Step[]}
 */
export function nextSteps(variants, pending) {
  /** @type {Map<string, Step>} */
  const next = new Map();
  for (const v of matching(variants, pending)) {
    const s = v.seq[pending.length];
    if (s) next.set(`${s.from}/${s.to}/${s.die}`, s);
  }
  return [...next.values()];
}

/**
 * Where the checker at `from` may go next, each destination with the
 * steps that take it there (one step, or several in a row by one checker;
 * the fewest steps, then the smallest dice, win).
 * @param {Variant[]} variants
 * @param {Step[]} pending
 * @param {number} from
 * @returns {Map<number, Step[]>}
 */
export function destinations(variants, pending, from) {
  /** @type {Map<number, Step[]>} */
  const found = new Map();
  /** @param {Step[]} path @param {number} at */
  const walk = (path, at) => {
    const options = nextSteps(variants, [...pending, ...path])
      .filter((s) => s.from === at)
      .sort((a, b) => a.die - b.die);
    for (const step of options) {
      const longer = [...path, step];
      const known = found.get(step.to);
      if (!known || known.length > longer.length) found.set(step.to, longer);
      // A checker borne off goes no further.
      if (step.to !== at && longer.length < 4 && !isOff(step.to)) walk(longer, step.to);
    }
  };
  walk([], from);
  return found;
}

/** @param {number} to */
function isOff(to) {
  return to === 0;
}

/**
 * The legal action named in full by the steps chosen so far, if any.
 * @param {Variant[]} variants
 * @param {Step[]} pending
 * @returns {ActionInfo | null}
 */
export function completed(variants, pending) {
  if (pending.length === 0) return null;
  const done = matching(variants, pending).filter((v) => v.seq.length === pending.length);
  return done.length > 0 ? done[0].action : null;
}

/**
 * The legal actions (of any kind) that agree with the steps chosen so far.
 * @param {ActionInfo[]} legal
 * @param {Variant[]} variants
 * @param {Step[]} pending
 * @returns {ActionInfo[]}
 */
export function agreeing(legal, variants, pending) {
  if (pending.length === 0) return legal;
  const actions = new Set(matching(variants, pending).map((v) => v.action));
  return legal.filter((a) => actions.has(a));
}
