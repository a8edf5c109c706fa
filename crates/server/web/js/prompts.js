// @ts-check
/**
 * The dialogs over a table's board (the invitation to take a seat, the end
 * of the game with score, rematch, replay and record), the cube's question
 * inline under the board, and the copyable invite link.
 */

import { h } from './dom.js';
import * as store from './store.js';
import { actionLabel, seatColour, seatPerson, seatRole, shortName, signed } from './names.js';
import { outcomeText, paysText } from './events.js';

/** @typedef {import('./types.js').ActionInfo} ActionInfo */
/** @typedef {import('./types.js').SeatInfo} SeatInfo */
/** @typedef {{game: string, obs: any, seats: SeatInfo[], seat: number | null}} People */

/** The seats with the best positive score. @param {number[]} returns */
function winnersOf(returns) {
  const best = Math.max(...returns);
  return returns.map((r, i) => (r === best && best > 0 ? i : -1)).filter((i) => i >= 0);
}

/**
 * The result in a few words ("you win", "a draw").
 * @param {People} people @param {number[]} returns
 */
export function resultText(people, returns) {
  const winners = winnersOf(returns);
  if (winners.length === 0) return 'a draw';
  return winners.map((i) => (i === people.seat ? 'you win' : `${shortName(people.seats[i], people.seat, people.seats)} wins`)).join(', ');
}

/**
 * The cube's question, inline under the board, when the only legal actions
 * are cube actions (roll or double; take or drop), else nothing.
 * @param {ActionInfo[]} legal @param {any} obs @param {(a: ActionInfo) => void} play
 */
export function cubePrompt(legal, obs, play) {
  const cubeActs = legal.filter((a) => ['double', 'roll', 'take', 'drop'].includes(a.json));
  if (cubeActs.length === 0 || cubeActs.length !== legal.length) return null;
  const stake = obs.cube || 1;
  const responding = cubeActs.some((a) => a.json === 'drop');
  const title = responding ? `Your opponent doubles to ${stake * 2}` : 'Double before you roll?';
  const text = responding
    ? `Take, and play on for ${stake * 2} points; or drop, and lose ${stake} now.`
    : `The stake is ${stake}. Double it, or just roll.`;
  return h('div', { class: 'inline-prompt', role: 'group', 'aria-label': title, 'data-testid': 'cube-prompt' },
    h('div', { class: 'inline-text' }, h('strong', {}, title), ' ', h('span', { class: 'small' }, text)),
    cubeActs.map((a) => h('button', {
      class: `btn ${a.json === 'drop' ? '' : 'primary'}`,
      onclick: () => play(a),
    }, a.json === 'double' ? `Double to ${stake * 2}` : actionLabel(a))));
}

/**
 * The invitation to take an open seat (from an invite link).
 * @param {People} people @param {number} seat
 * @param {{join: () => void, watch: () => void}} on
 */
export function joinDialog(people, seat, on) {
  const nameInput = h('input', { type: 'text', value: store.playerName(), placeholder: 'Your name', 'aria-label': 'Your name', maxlength: 40 });
  const role = seatRole(people.game, seat, people.obs);
  return h('div', { class: 'prompt', role: 'dialog', 'aria-label': 'Join the table' },
    h('h2', {}, 'You are invited'),
    h('p', {}, `Take the ${role} seat in this game of ${people.game}.`),
    h('div', { class: 'row' }, nameInput),
    h('div', { class: 'row' },
      h('button', { class: 'btn primary', 'data-testid': 'join', onclick: () => { store.setPlayerName(nameInput.value.trim()); on.join(); } }, 'Join the game'),
      h('button', { class: 'btn', onclick: on.watch }, 'Just watch')));
}

/**
 * The end of the game: who won, how the game ended in its own terms, each
 * seat's score (with what each pays, in High-O Gammon), and what next.
 * @param {People} people @param {number[]} returns
 * @param {any} outcome the server's outcome (ending, winner, loser) of a game played out, or
 *   `{early}`: how a game that ended early ended, in words
 * @param {{rematch: () => void, replay: () => void, replayPath: string, recordUrl: string,
 *   recordName: string, dismiss: () => void}} on
 */
export function gameOverDialog(people, returns, outcome, on) {
  const { game, obs, seats, seat } = people;
  const winners = winnersOf(returns);
  const sole = outcome && outcome.winner !== null && outcome.winner !== undefined ? outcome.winner : null;
  let title = 'Draw';
  if (winners.length === 1) title = winners[0] === seat ? 'You won!' : `${seatPerson(seats[winners[0]], seat, seats)} won`;
  else if (sole !== null) title = sole === seat ? 'You won!' : `${seatPerson(seats[sole], seat, seats)} won`;
  if (seat !== null && (winners.length > 0 || sole !== null) && !winners.includes(seat) && sole !== seat) title = 'You lost';
  const who = (/** @type {number} */ p) => (p === seat ? 'You' : seatRole(game, p, obs));
  const how = outcome && outcome.early ? [`${outcome.early}.`] : outcomeText(game, outcome, obs, returns, who);
  const breakdown = returns.map((_, i) => paysText(obs, i));
  const detailed = breakdown.some((x) => x);
  const rows = returns.map((r, i) => h('tr', {},
    h('td', {}, h('span', { class: 'swatch inline', style: `background:${seatColour(game, i, obs)}` }), seatRole(game, i, obs)),
    h('td', {}, seatPerson(seats[i], seat, seats)),
    h('td', { class: r > 0 ? 'win' : r < 0 ? 'lose' : '' }, signed(r)),
    detailed ? h('td', { class: 'small', 'data-testid': 'pays' }, breakdown[i] || (i === sole ? 'the winner' : '')) : null));
  return h('div', { class: 'prompt over', role: 'dialog', 'aria-label': 'Game over', 'data-testid': 'game-over' },
    h('h2', {}, title),
    how.length ? h('div', { class: 'ending', 'data-testid': 'ending' }, how.map((line) => h('p', {}, line))) : null,
    h('table', { class: 'score-table' }, h('tr', {}, h('th', {}, 'Seat'), h('th', {}, 'Player'), h('th', {}, 'Score'), detailed ? h('th', {}, 'How') : null), rows),
    h('div', { class: 'row' },
      h('button', { class: 'btn primary', onclick: on.rematch, 'data-testid': 'rematch' }, 'Rematch'),
      h('a', { class: 'btn', href: on.replayPath, onclick: (/** @type {MouseEvent} */ e) => { e.preventDefault(); on.replay(); } }, 'Replay'),
      h('a', { class: 'btn', href: on.recordUrl, download: on.recordName }, 'Download record'),
      h('button', { class: 'btn', onclick: on.dismiss }, 'See the board')));
}

/**
 * Asks before resigning.
 * @param {{resign: () => void, cancel: () => void}} on
 */
export function resignDialog(on) {
  return h('div', { class: 'prompt', role: 'dialog', 'aria-label': 'Resign', 'data-testid': 'resign-dialog' },
    h('h2', {}, 'Resign this game?'),
    h('p', {}, 'You lose the game now, and it ends for everyone at the table.'),
    h('div', { class: 'row' },
      h('button', { class: 'btn danger', 'data-testid': 'resign-confirm', onclick: on.resign }, 'Resign'),
      h('button', { class: 'btn primary', 'data-testid': 'resign-cancel', onclick: on.cancel }, 'Keep playing')));
}

/**
 * A table that ended without a result (closed, or nobody came).
 * @param {string} text @param {{lobby: () => void, dismiss: () => void}} on
 */
export function closedDialog(text, on) {
  return h('div', { class: 'prompt over', role: 'dialog', 'aria-label': 'Table closed', 'data-testid': 'table-closed' },
    h('h2', {}, 'Table closed'), h('p', {}, text),
    h('div', { class: 'row' },
      h('button', { class: 'btn primary', onclick: on.lobby }, 'Back to the lobby'),
      h('button', { class: 'btn', onclick: on.dismiss }, 'See the board')));
}

/**
 * A copyable invite link.
 * @param {string} url @param {string} role
 */
export function invite(url, role) {
  return copyLink(url, role, 'copy-invite', `Invite link for ${role}`, 'invite');
}

/**
 * A link in a read-only field with a Copy button.
 * @param {string} url @param {string} label a badge before it
 * @param {string} testId the Copy button's `data-testid`
 * @param {string} aria the field's accessible name
 * @param {string} cls the box's class
 */
export function copyLink(url, label, testId, aria, cls) {
  const input = h('input', { type: 'text', readonly: true, value: url, 'aria-label': aria });
  const button = h('button', { class: 'btn small', 'data-testid': testId }, 'Copy');
  button.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(url);
    } catch {
      input.select();
      document.execCommand('copy');
    }
    button.textContent = 'Copied';
    setTimeout(() => { button.textContent = 'Copy'; }, 1500);
  });
  return h('div', { class: `${cls} link-box` }, h('span', { class: 'badge' }, label), input, button);
}
