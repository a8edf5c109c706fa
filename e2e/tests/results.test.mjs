// @ts-check
/**
 * The game-over view's words for every way a game can end (no browser):
 * each ending the engine knows (read from crates/engine/src/outcome.rs, so
 * that a new one without words fails here) is named in its game's terms.
 */

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { REPO } from '../lib/harness.mjs';
import { outcomeText, paysText } from '../../crates/server/web/js/events.js';

/** The engine's endings, as their JSON names. */
function engineEndings() {
  const src = fs.readFileSync(path.join(REPO, 'crates/engine/src/outcome.rs'), 'utf8');
  const body = /pub enum Ending \{([\s\S]*?)\n\}/.exec(src);
  assert.ok(body, 'the Ending enum is found');
  return [...body[1].matchAll(/^\s{4}([A-Z]\w*),/gm)].map((m) => m[1].replace(/(?<!^)([A-Z])/g, '_$1').toLowerCase());
}

/** Per ending: a game it occurs in, and the words that must name it. @type {Record<string, [string, RegExp]>} */
const WORDS = {
  single: ['backgammon', /single game, 1 point/],
  gammon: ['backgammon', /a gammon, 2 points/],
  backgammon: ['backgammon', /a backgammon, 3 points/],
  mother: ['tawla', /pinned Black's mother .*the mother rule, 2 points/],
  both_mothers: ['tawla', /Both mothers are pinned: a draw/],
  dead_position: ['tawla', /can ever move again: a draw/],
  dropped: ['backgammon', /Black dropped the double/],
  match: ['tawla', /White won the match to 5, 5–3\..*The last game: White pinned/s],
  borne_off: ['high-gammon', /bore off all 9 stones/],
  goal_points: ['tric-trac', /filled the three goal points/],
  dried_out: ['stumphog', /Black dried out \(uttorkad\)/],
  both_dried_out: ['stumphog', /Both players dried out/],
  ute_threshold: ['stumphog', /White has 41 stones in Ute, more than 40/],
  turn_cap: ['stumphog', /turn limit is reached: a draw/],
  camp: ['lager', /White has two stones in Black's camp/],
  no_move: ['lager', /Black had no move/],
  repetition: ['lager', /third time: a draw/],
  stortok: ['stortok', /Black is left holding cards: the stortok/],
  resigned: ['backgammon', /Black resigned: White wins, 1 point\./],
};

const who = (/** @type {number} */ p) => (p === 0 ? 'White' : 'Black');

test('every ending the engine knows is named in its game\'s own terms', () => {
  const endings = engineEndings();
  assert.ok(endings.length >= 18, endings.join(','));
  for (const ending of endings) {
    const words = WORDS[ending];
    assert.ok(words, `words for the ending ${ending}`);
    const [game, expected] = words;
    const draw = /both_|dead_|turn_cap|repetition/.test(ending);
    const outcome = { ending, winner: draw || ending === 'stortok' ? null : 0, loser: draw ? null : 1 };
    const obs = { match_to: 5, score: [5, 3], last_ending: 'mother', last_game: [0, 2], ute: [41, 3], rules: { win: 41 }, cube_enabled: false, cube: 1 };
    const returns = { single: [1, -1], gammon: [2, -2], backgammon: [3, -3], mother: [2, -2], dropped: [4, -4] }[ending] || [1, -1];
    const text = outcomeText(game, outcome, obs, returns, who).join(' ');
    assert.match(text, expected, `${ending}: ${text}`);
  }
});

test('Tawla names its two-point win, and the cube\'s part in the points', () => {
  const text = outcomeText('tawla', { ending: 'gammon', winner: 1, loser: 0 }, { cube_enabled: true, cube: 2 }, [-4, 4], who).join(' ');
  assert.match(text, /^Black bore off all 15 checkers before White bore off any: a double game \(diplo\), 4 points \(the cube stands at 2\)\.$/);
});

test('High-O Gammon: what each loser pays, and why', () => {
  const obs = {
    game: 'high-gammon', scoring: 'points', winner: 0,
    players: [{ pays: 0, short_of_goal: 0, bar: 0 }, { pays: 28, short_of_goal: 5, bar: 1 }, { pays: 0, short_of_goal: 0, bar: 0, dropped_at: null }],
  };
  assert.equal(paysText(obs, 0), '');
  assert.equal(paysText(obs, 1), 'pays 28: 5 stones short of the goal points × 4, 1 stone on the bar × 8');
  assert.equal(paysText(obs, 2), 'pays 0: every stone home');
  assert.equal(paysText({ ...obs, scoring: 'cube', players: [{}, { pays: 4, dropped_at: 4 }] }, 1), 'dropped out at stake 4, pays 4');
  assert.equal(paysText({ ...obs, scoring: 'traditional', players: [{}, { pays: 2 }] }, 1), 'pays 2: double (none borne off)');
});

test('events speak to the viewer as "you"', async () => {
  const { eventText } = await import('../../crates/server/web/js/events.js');
  const you = (/** @type {number} */ p) => (p === 0 ? 'You' : 'Blue');
  assert.equal(eventText({ kind: 'won', fields: { winner: 0 } }, you), 'You have won');
  assert.equal(eventText({ kind: 'won', fields: { winner: 1 } }, you), 'Blue has won');
  assert.equal(eventText({ kind: 'roll_again', fields: { player: 0 } }, you), 'You rolled a double and roll again');
  assert.equal(eventText({ kind: 'hit', fields: { by: 1, victim: 0, field: 7 } }, you), 'Blue hits you on 7');
  assert.equal(eventText({ kind: 'pick_up', fields: { player: 0, cards: 3 } }, you), 'You pick up 3 cards');
});

test('a game of a match that ends is told with the score; the match going on', async () => {
  const { matchGameEnded } = await import('../../crates/server/web/js/events.js');
  const before = { match_to: 5, score: [0, 0], last_game: null, phase: 'moving' };
  const after = { match_to: 5, score: [0, 2], last_game: [1, 2], last_ending: 'mother', phase: 'rolling', cube: 1 };
  assert.deepEqual(matchGameEnded('tawla', before, after, who), [
    "Black pinned White's mother (the last checker on its starting point): the mother rule, 2 points.",
    'The match, to 5: White 0, Black 2.',
  ]);
  assert.deepEqual(matchGameEnded('tawla', after, { ...after, phase: 'moving' }, who), [], 'nothing while a game goes on');
  assert.deepEqual(matchGameEnded('tawla', before, { ...before, match_to: 0 }, who), [], 'nothing outside a match');
});

test('moves in the viewer\'s terms: the other side\'s points and rows turned, hits and pins said', async () => {
  const { moveInViewersTerms } = await import('../../crates/server/web/js/events.js');
  assert.equal(moveInViewersTerms('backgammon', '8/2* 6/2', true), '17/23* 19/23 (hits)');
  assert.equal(moveInViewersTerms('backgammon', 'bar/22 6/off', true), 'bar/3 19/off');
  assert.equal(moveInViewersTerms('tawla', '13/7* 9/3*', false), '13/7* 9/3* (pins 2)');
  assert.equal(moveInViewersTerms('stumphog', '2 stones 3 steps from Bortom 1', true), '2 stones 3 steps from Hitom 1');
  assert.equal(moveInViewersTerms('stumphog', '2 stones 3 steps from Bortom 1', false), '2 stones 3 steps from Bortom 1');
  assert.equal(moveInViewersTerms('lager', 'a1-a2', true), 'a1-a2');
});

test('Stumphög\'s moves worded from their JSON in the viewer\'s language, the other side\'s rows turned', async () => {
  const { stumphogMoveText } = await import('../../crates/server/web/js/events.js');
  const move = { move: { stones: 2, steps: 3, row: 'bortom', col: 1 } };
  assert.equal(stumphogMoveText(move, false), '2 stones 3 steps from Bortom 1');
  assert.equal(stumphogMoveText(move, true), '2 stones 3 steps from Hitom 1');
  assert.equal(stumphogMoveText({ bat_in: 4 }, false), 'Bat in 4');
  assert.equal(stumphogMoveText('pass', true), 'Pass');
  assert.equal(stumphogMoveText({ play: [] }, true), null);
  // The catalogue sets the page's language: a stand-in page, no browser.
  // @ts-ignore
  globalThis.document = { documentElement: {} };
  const i18n = await import('../../crates/server/web/js/i18n.js');
  await i18n.setLanguage('sv');
  try {
    assert.equal(stumphogMoveText({ move: { stones: 1, steps: 2, row: 'hitom', col: 7 } }, false), '1 sten 2 steg från Hitom 7');
  } finally {
    await i18n.setLanguage('en');
  }
});

test('several winners are named together in the result, never called a draw', async () => {
  const { resultText } = await import('../../crates/server/web/js/prompts.js');
  /** @type {import('../../crates/server/web/js/types.js').SeatInfo[]} */
  const seats = [{ seat: 0, kind: 'human', name: 'Ada' }, { seat: 1, kind: 'human', name: 'Bo' }, { seat: 2, kind: 'ai', agent: 'ai:easy' }];
  const people = (/** @type {number | null} */ seat) => ({ game: 'high-gammon', obs: {}, seats, seat });
  assert.equal(resultText(people(null), [-1, 0.5, 0.5]), 'Bo and Computer (easy) win');
  assert.equal(resultText(people(1), [-1, 0.5, 0.5]), 'you and Computer (easy) win');
  assert.equal(resultText(people(null), [1, -1, 0]), 'Ada wins');
  assert.equal(resultText(people(null), [0, 0, 0]), 'a draw');
});

test('an opening roll is said as the roll for the start, also High-O Gammon\'s of three colours', async () => {
  const { chanceText } = await import('../../crates/server/web/js/events.js');
  assert.equal(chanceText('open 5-3'), '5-3 (the roll for the start)');
  assert.equal(chanceText('open B3 R6 Y4'), 'B3 R6 Y4 (the roll for the start)');
  assert.equal(chanceText('6-4'), '6-4');
});
