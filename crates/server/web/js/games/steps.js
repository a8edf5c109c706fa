// @ts-check
/**
 * Building a dice play checker by checker, for every game whose plays are
 * lists of single steps `{from, to, die}` (Tawla, backgammon, High-O Gammon,
 * Tric-Trac).
 *
 * The server sends, beside the legal actions, the turn made step by step:
 * the positions a play passes through (`boards`, the start first), the
 * single steps between them (`moves`) in every order the rules allow, and
 * where each legal play ends (`ends`). The client only follows it: it
 * knows no rule of any game.
 */

/** @typedef {import('../types.js').ActionInfo} ActionInfo */
/** @typedef {{from: number, to: number, die: number}} Step */
/** @typedef {{at: number, from: number, to: number, die: number, next: number}} StepMove */
/**
 * @typedef {{boards: any[], moves: StepMove[], ends: {at: number, action: number}[]}} StepGraph
 *   The legal plays made step by step, as the server sends them.
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

/**
 * The position reached by the steps chosen so far, or null when they are
 * not the beginning of any legal play.
 * @param {StepGraph | null | undefined} graph
 * @param {Step[]} pending
 * @returns {number | null}
 */
export function positionAfter(graph, pending) {
  if (!graph) return null;
  let at = 0;
  for (const st of pending) {
    const m = graph.moves.find((mv) => mv.at === at && sameStep(mv, st));
    if (!m) return null;
    at = m.next;
  }
  return at;
}

/**
 * The board after the steps chosen so far (in the observation's own form),
 * or null when there is none.
 * @param {StepGraph | null | undefined} graph
 * @param {Step[]} pending
 */
export function boardAfter(graph, pending) {
  const at = positionAfter(graph, pending);
  return graph && at !== null ? graph.boards[at] : null;
}

/**
 * The steps that may come next.
 * @param {StepGraph | null | undefined} graph
 * @param {Step[]} pending
 * @returns {Step[]}
 */
export function nextSteps(graph, pending) {
  const at = positionAfter(graph, pending);
  if (!graph || at === null) return [];
  return graph.moves.filter((m) => m.at === at).map(({ from, to, die }) => ({ from, to, die }));
}

/**
 * Where the checker at `from` may go next, each destination with the
 * steps that take it there (one step, or several in a row by one checker;
 * the fewest steps, then the smallest dice, win).
 * @param {StepGraph | null | undefined} graph
 * @param {Step[]} pending
 * @param {number} from
 * @returns {Map<number, Step[]>}
 */
export function destinations(graph, pending, from) {
  /** @type {Map<number, Step[]>} */
  const found = new Map();
  const start = positionAfter(graph, pending);
  if (!graph || start === null) return found;
  /** @type {{at: number, from: number, path: Step[]}[]} */
  let frontier = [{ at: start, from, path: [] }];
  // Breadth first: fewer steps are found first.
  while (frontier.length > 0) {
    /** @type {{at: number, from: number, path: Step[]}[]} */
    const next = [];
    for (const f of frontier) {
      const options = graph.moves.filter((m) => m.at === f.at && m.from === f.from).sort((a, b) => a.die - b.die);
      for (const m of options) {
        const path = [...f.path, { from: m.from, to: m.to, die: m.die }];
        if (!found.has(m.to)) found.set(m.to, path);
        if (m.to !== f.from && path.length < 4) next.push({ at: m.next, from: m.to, path });
      }
    }
    frontier = next;
  }
  return found;
}

/**
 * The legal action named in full by the steps chosen so far, if any.
 * @param {StepGraph | null | undefined} graph
 * @param {ActionInfo[]} legal
 * @param {Step[]} pending
 * @returns {ActionInfo | null}
 */
export function completed(graph, legal, pending) {
  if (pending.length === 0) return null;
  const at = positionAfter(graph, pending);
  if (!graph || at === null) return null;
  const end = graph.ends.find((e) => e.at === at);
  return end ? legal[end.action] || null : null;
}

/**
 * The legal actions (of any kind) that agree with the steps chosen so far.
 * @param {StepGraph | null | undefined} graph
 * @param {ActionInfo[]} legal
 * @param {Step[]} pending
 * @returns {ActionInfo[]}
 */
export function agreeing(graph, legal, pending) {
  if (pending.length === 0) return legal;
  const start = positionAfter(graph, pending);
  if (!graph || start === null) return [];
  const reach = new Set([start]);
  // Positions are listed before those they lead to.
  for (const m of [...graph.moves].sort((a, b) => a.at - b.at)) {
    if (reach.has(m.at)) reach.add(m.next);
  }
  const actions = new Set(graph.ends.filter((e) => reach.has(e.at)).map((e) => e.action));
  return legal.filter((_, i) => actions.has(i));
}
