// @ts-check
/**
 * Unit tests of building a dice play checker by checker (no browser): the
 * engine lists each play once, in one order; a person may make the same
 * play in another order or with the dice the other way round.
 */

import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as steps from '../../crates/server/web/js/games/steps.js';
import { boardFor, tableRules } from '../../crates/server/web/js/games/tables.js';

/**
 * A Tawla observation with `top` given as {point index: count} (positive:
 * White, player 0; negative: Black).
 * @param {Record<number, number>} top @param {number[]} dice
 */
function tawla(top, dice) {
  const board = { top: new Array(24).fill(0), under: new Array(24).fill(0), bar: [0, 0], off: [0, 0] };
  for (const [i, n] of Object.entries(top)) board.top[Number(i)] = n;
  return { game: 'tawla', board, dice, phase: 'moving', turn: { player: 0 } };
}

/** @param {string} text */
function play(text) {
  const list = text.split(' ').map((part) => {
    const [from, to, die] = part.split('/').map((x) => (x === 'off' ? 0 : Number(x)));
    return { from, to, die };
  });
  return { text, json: { play: list } };
}

test('a checker may use the dice the other way round (24/23 23/21 for 24/22 22/21)', () => {
  const obs = tawla({ 23: 15, 0: -15 }, [2, 1]);
  const legal = [play('24/22/2 22/21/1'), play('24/22/2 24/23/1')];
  const v = steps.variantsOf(legal, boardFor(obs, 0), tableRules);
  const dests = steps.destinations(v, [], 24);
  assert.deepEqual([...dests.keys()].sort((a, b) => a - b), [21, 22, 23]);
  assert.equal(dests.get(21)?.length, 2, '21 is two steps away');
  const first = /** @type {steps.Step[]} */ (dests.get(23));
  const then = steps.nextSteps(v, first);
  assert.ok(then.some((s) => s.from === 23 && s.to === 21), 'the checker on 23 may go on to 21');
  assert.ok(then.some((s) => s.from === 24 && s.to === 22), 'or another checker 24/22');
  assert.equal(steps.completed(v, [...first, { from: 23, to: 21, die: 2 }]), legal[0]);
  assert.equal(steps.completed(v, first), null, 'one step is not a whole play');
});

test('the other path is refused when its middle point is blocked', () => {
  // Black holds White's point 22 (index 21): 24/23 23/21 is the only way to 21.
  const obs = tawla({ 23: 14, 21: -2, 0: -13 }, [2, 1]);
  const legal = [play('24/23/1 23/21/2')];
  const v = steps.variantsOf(legal, boardFor(obs, 0), tableRules);
  const dests = steps.destinations(v, [], 24);
  assert.ok(!dests.has(22), 'no landing on a blocked point');
  assert.deepEqual(dests.get(21), [{ from: 24, to: 23, die: 1 }, { from: 23, to: 21, die: 2 }]);
});

test('steps may be made in any order', () => {
  const obs = tawla({ 23: 13, 12: 2, 0: -15 }, [6, 5]);
  const legal = [play('24/18/6 13/8/5')];
  const v = steps.variantsOf(legal, boardFor(obs, 0), tableRules);
  assert.equal(steps.completed(v, [{ from: 13, to: 8, die: 5 }, { from: 24, to: 18, die: 6 }]), legal[0]);
  assert.deepEqual(steps.agreeing(legal, v, [{ from: 13, to: 8, die: 5 }]), legal);
  assert.deepEqual(steps.agreeing(legal, v, [{ from: 13, to: 7, die: 6 }]), []);
});

test('bearing off prefers the smallest die that does it', () => {
  const obs = tawla({ 2: 1, 0: -15 }, [6, 5]);
  const legal = [play('3/off/5 '.trim()), play('3/off/6')];
  // Only one checker: either die bears it off.
  const v = steps.variantsOf(legal, boardFor(obs, 0), tableRules);
  const dests = steps.destinations(v, [], 3);
  assert.deepEqual(dests.get(0), [{ from: 3, to: 0, die: 5 }]);
});

test('Tawla pins: a lone checker hit is pinned under the mover, not sent to the bar', () => {
  const obs = tawla({ 23: 15, 21: -1, 0: -14 }, [2, 1]);
  const board = tableRules.apply(boardFor(obs, 0), { from: 24, to: 22, die: 2 });
  assert.equal(board.me[22], 1);
  assert.equal(board.them[22], 0);
  assert.equal(board.under[22], -1);
  assert.equal(board.themBar, 0);
  assert.equal(tableRules.canLand(board, { from: 24, to: 22, die: 2 }), true, 'more may land on top');
  const freed = tableRules.apply(board, { from: 22, to: 21, die: 1 });
  assert.equal(freed.them[22], 1, 'the pinned checker is free again');
});

test("a play is built in the second player's own numbering", () => {
  // Black (player 1) has 15 on his point 24, which is index 0.
  const obs = { ...tawla({ 23: 15, 0: -15 }, [3, 1]), turn: { player: 1 } };
  const b = boardFor(obs, 1);
  assert.equal(b.me[24], 15);
  assert.equal(b.them[1], 15);
});
