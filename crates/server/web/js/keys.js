// @ts-check
/**
 * Choosing on the board by typing: the number or name of a point, field,
 * pile, square or card ("13", "bar", "off", "c3", "qd") chooses that
 * target when it is one of the legal choices now (a piece that can move,
 * or a destination). A prefix of a longer name waits a moment for the
 * next key.
 */

/** How long a typed prefix waits for the next key, in milliseconds. */
const WAIT_MS = 700;

/**
 * The name a target is typed by: the part of its id after the colon
 * ("p:13" is "13", "sq:c3" is "c3", "card:QD" is "qd"), or the whole id
 * ("bar", "off", "stumpen").
 * @param {string} id
 * @returns {string[]}
 */
export function typedNames(id) {
  const lower = id.toLowerCase();
  return [lower.slice(lower.lastIndexOf(':') + 1)];
}

/**
 * The targets the typed text names, and whether a longer name could still
 * follow.
 * @param {string} typed what was typed so far, in lower case
 * @param {string[]} ids the ids of the legal choices
 * @returns {{exact: string[], longer: boolean}}
 */
export function matchTyped(typed, ids) {
  const exact = ids.filter((id) => typedNames(id).includes(typed));
  const longer = ids.some((id) => typedNames(id).some((n) => n.length > typed.length && n.startsWith(typed)));
  return { exact, longer };
}

/**
 * Collects typed keys on a board and chooses the target they name.
 * @param {{choices: () => string[], choose: (id: string) => void}} board
 *   the legal choices' ids now, and choosing one
 */
export function typingChooser(board) {
  let typed = '';
  /** @type {ReturnType<typeof setTimeout> | null} */
  let timer = null;
  const reset = () => {
    typed = '';
    if (timer) clearTimeout(timer);
    timer = null;
  };
  return {
    /**
     * Takes one typed character; true when it was used.
     * @param {string} key
     */
    key(key) {
      const next = typed + key.toLowerCase();
      const ids = board.choices();
      const { exact, longer } = matchTyped(next, ids);
      if (exact.length === 0 && !longer) {
        reset();
        return false;
      }
      typed = next;
      if (timer) clearTimeout(timer);
      timer = null;
      if (exact.length === 1 && !longer) {
        reset();
        board.choose(exact[0]);
      } else if (exact.length === 1) {
        const id = exact[0];
        timer = setTimeout(() => {
          reset();
          if (board.choices().includes(id)) board.choose(id);
        }, WAIT_MS);
      } else {
        timer = setTimeout(reset, WAIT_MS);
      }
      return true;
    },
    reset,
  };
}
