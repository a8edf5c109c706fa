// @ts-check
/**
 * Unit tests of building a dice play checker by checker (no browser): the
 * server sends the legal plays made step by step (positions, the steps
 * between them, where each play ends); the client only follows that graph.
 */

import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as steps from '../../crates/server/web/js/games/steps.js';
import { boardFor } from '../../crates/server/web/js/games/tables.js';

/**
 * Backgammon 2-1 with checkers on 24 only (as the server would send it):
 * 24/22/2 22/21/1, the same by 23 (24/23/1 23/21/2), and 24/22/2 24/23/1
 * in either order. Positions: 0 start, 1 after 24/22, 2 after 24/23,
 * 3 on 21, 4 on 22 and 23.
 * @type {import('../../crates/server/web/js/games/steps.js').StepGraph}
 */
const graph = {
  boards: ['start', 'on 22', 'on 23', 'on 21', 'on 22 and 23'],
  moves: [
    { at: 0, from: 24, to: 22, die: 2, next: 1 },
    { at: 0, from: 24, to: 23, die: 1, next: 2 },
    { at: 1, from: 22, to: 21, die: 1, next: 3 },
    { at: 1, from: 24, to: 23, die: 1, next: 4 },
    { at: 2, from: 23, to: 21, die: 2, next: 3 },
    { at: 2, from: 24, to: 22, die: 2, next: 4 },
  ],
  ends: [{ at: 3, action: 0 }, { at: 4, action: 1 }],
};

/** @param {string} text */
function play(text) {
  const list = text.split(' ').map((part) => {
    const [from, to, die] = part.split('/').map((x) => (x === 'off' ? 0 : Number(x)));
    return { from, to, die };
  });
  return { text, json: { play: list } };
}

const legal = [play('24/22/2 22/21/1'), play('24/22/2 24/23/1')];

test('a checker may go on with the next die: the destinations, fewest steps first', () => {
  const dests = steps.destinations(graph, [], 24);
  assert.deepEqual([...dests.keys()].sort((a, b) => a - b), [21, 22, 23]);
  assert.deepEqual(dests.get(21), [{ from: 24, to: 23, die: 1 }, { from: 23, to: 21, die: 2 }], 'the smaller die first');
  assert.deepEqual(dests.get(22), [{ from: 24, to: 22, die: 2 }]);
});

test('steps may be made in any order the graph has, and name their play', () => {
  const by23 = [{ from: 24, to: 23, die: 1 }, { from: 23, to: 21, die: 2 }];
  assert.equal(steps.completed(graph, legal, by23), legal[0]);
  assert.equal(steps.completed(graph, legal, by23.slice(0, 1)), null, 'one step is not a whole play');
  const other = [{ from: 24, to: 23, die: 1 }, { from: 24, to: 22, die: 2 }];
  assert.equal(steps.completed(graph, legal, other), legal[1]);
  assert.deepEqual(steps.agreeing(graph, legal, [{ from: 24, to: 22, die: 2 }]), legal);
  assert.deepEqual(steps.agreeing(graph, legal, [{ from: 24, to: 20, die: 4 }]), [], 'a step the graph lacks');
});

test('the board after the steps so far is the one the server sent', () => {
  assert.equal(steps.boardAfter(graph, []), 'start');
  assert.equal(steps.boardAfter(graph, [{ from: 24, to: 23, die: 1 }]), 'on 23');
  assert.equal(steps.boardAfter(graph, [{ from: 23, to: 21, die: 2 }]), null);
  assert.deepEqual(steps.nextSteps(graph, [{ from: 24, to: 23, die: 1 }]).map((s) => `${s.from}/${s.to}`), ['23/21', '24/22']);
});

test('without a graph nothing can be chosen', () => {
  assert.deepEqual(steps.nextSteps(null, []), []);
  assert.equal(steps.destinations(undefined, [], 24).size, 0);
  assert.equal(steps.completed(null, legal, [{ from: 24, to: 22, die: 2 }]), null);
});

test("a board is drawn in the second player's own numbering", () => {
  // Black (player 1) has 15 on his point 24, which is index 0.
  const board = { top: new Array(24).fill(0), under: new Array(24).fill(0), bar: [0, 0], off: [0, 0] };
  board.top[23] = 15;
  board.top[0] = -15;
  const b = boardFor({ game: 'tawla', board }, 1);
  assert.equal(b.me[24], 15);
  assert.equal(b.them[1], 15);
});
