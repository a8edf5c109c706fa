// @ts-check
/**
 * The tables positions the server sends and those the page draws, side by
 * side: the server sends with each play the positions it passed through
 * (`action.boards`); the page should draw exactly those, never one of its
 * own making. For a viewer in seat 0 (White), whose numbering is the
 * server's.
 */

/**
 * A position in words: each point's checkers (`3w`, `2b`, `-` for none,
 * `/b` for a pinned black checker under), then White's bar and both sides'
 * borne-off checkers.
 * @param {{top: number[], under?: number[], bar: number[], off: number[]}} board
 *   a board as the server sends it (index i is White's point i + 1)
 */
export function boardText(board) {
  const points = board.top.map((top, i) => {
    const under = board.under ? board.under[i] : 0;
    const on = top > 0 ? `${top}w` : top < 0 ? `${-top}b` : '-';
    return `${on}${under > 0 ? '/w' : under < 0 ? '/b' : ''}`;
  });
  return `${points.join(' ')} | bar ${board.bar[0]} | off ${board.off[0]}-${board.off[1]}`;
}

/**
 * Collects, for a page about to open a table as White, the positions the
 * server sends with each play (by version) and, in the page, every position
 * the tables board draws (`window.drawnBoards`: version and the position in
 * `boardText`'s words, read from the board's targets as a person's screen
 * reader would).
 * @param {import('playwright-core').Page} page
 * @returns {Promise<Map<number, {seat: number, boards: any[]}>>} filled as events come
 */
export async function watchPositions(page) {
  /** @type {Map<number, {seat: number, boards: any[]}>} */
  const sent = new Map();
  page.on('websocket', (ws) => ws.on('framereceived', ({ payload }) => {
    const m = JSON.parse(String(payload));
    if (m.type === 'event' && m.action && Array.isArray(m.action.boards)) sent.set(m.version, { seat: m.action.seat, boards: m.action.boards });
  }));
  await page.addInitScript(() => {
    /** @type {{v: number, board: string}[]} */
    const drawn = [];
    // @ts-ignore
    window.drawnBoards = drawn;
    /** @param {string} label */
    const count = (label) => Number((/(\d+)/.exec(label) || ['', '0'])[1]);
    new MutationObserver(() => {
      const wrap = document.querySelector('.board-wrap');
      const points = [];
      for (let p = 1; p <= 24; p++) {
        const label = wrap?.querySelector(`[data-target="p:${p}"]`)?.getAttribute('aria-label');
        if (!label) return;
        const m = /: (\d+) (white|black)/.exec(label);
        const pin = /pinning a (white|black)/.exec(label);
        points.push(`${m ? `${m[1]}${m[2][0]}` : '-'}${pin ? `/${pin[1][0]}` : ''}`);
      }
      const bar = count(wrap?.querySelector('[data-target="bar"]')?.getAttribute('aria-label') || '');
      const mine = count(wrap?.querySelector('[data-target="off"]')?.getAttribute('aria-label') || '');
      const theirs = count(wrap?.querySelector('[role="img"][aria-label^="Borne off"]')?.getAttribute('aria-label') || '');
      const board = `${points.join(' ')} | bar ${bar} | off ${mine}-${theirs}`;
      const v = Number(wrap?.getAttribute('data-version'));
      const last = drawn[drawn.length - 1];
      if (!last || last.v !== v || last.board !== board) drawn.push({ v, board });
    }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-version'] });
  });
  return sent;
}

/**
 * The positions drawn at each version, in order, each once.
 * @param {import('playwright-core').Page} page
 * @returns {Promise<Map<number, string[]>>}
 */
export async function drawnByVersion(page) {
  // @ts-ignore
  const drawn = /** @type {{v: number, board: string}[]} */ (await page.evaluate(() => window.drawnBoards));
  /** @type {Map<number, string[]>} */
  const out = new Map();
  for (const { v, board } of drawn) {
    const seen = out.get(v) || [];
    if (seen[seen.length - 1] !== board) seen.push(board);
    out.set(v, seen);
  }
  return out;
}

/**
 * Checks that each play the computer (seat 1) made was drawn step by step
 * with exactly the positions the server sent with it, in order (a pass
 * with the one position); gives how many plays were checked.
 * @param {Map<number, {seat: number, boards: any[]}>} sent
 * @param {Map<number, string[]>} drawn
 * @param {(actual: any, expected: any, message: string) => void} equal
 */
export function checkPlaysDrawn(sent, drawn, equal) {
  let checked = 0;
  for (const [v, { seat, boards }] of sent) {
    if (seat !== 1 || !drawn.has(v)) continue;
    const expected = (boards.length > 1 ? boards.slice(1) : boards).map(boardText);
    equal(drawn.get(v), expected, `the play at version ${v}, step by step`);
    checked += 1;
  }
  return checked;
}
