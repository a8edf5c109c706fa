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
import { listText, t } from './i18n.js';
import { gameNameById } from './names.js';

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
  if (winners.length === 0) return t('result.draw');
  const others = winners.filter((i) => i !== people.seat).map((i) => shortName(people.seats[i], people.seat, people.seats));
  if (winners.length === 1) return others.length ? t('result.wins', { who: others[0] }) : t('result.you_win');
  return others.length < winners.length ? t('result.you_win_shared', { others: listText(others) }) : t('result.win_shared', { who: listText(others), n: others.length });
}

/**
 * The game-over title: who won (several winners named together, as when a
 * player of three resigns), or that the viewer lost, or a draw.
 * @param {People} people @param {number[]} winners @param {number | null} sole the outcome's winner, if any
 */
function overTitle(people, winners, sole) {
  const { seats, seat } = people;
  const won = winners.length !== 1 && sole !== null ? [sole] : winners;
  if (won.length === 0) return t('over.draw');
  if (seat !== null && !won.includes(seat)) return t('over.you_lost');
  const others = won.filter((i) => i !== seat).map((i) => seatPerson(seats[i], seat, seats));
  if (won.length === 1) return others.length ? t('over.won', { who: others[0] }) : t('over.you_won');
  return others.length < won.length ? t('over.you_won_shared', { others: listText(others) }) : t('over.won_shared', { who: listText(others), n: others.length });
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
  const title = responding ? t('cube.offered', { n: stake * 2 }) : t('cube.ask');
  const text = responding
    ? t('cube.offered_text', { n: stake * 2, stake })
    : t('cube.ask_text', { n: stake });
  return h('div', { class: 'inline-prompt', role: 'group', 'aria-label': title, 'data-testid': 'cube-prompt' },
    h('div', { class: 'inline-text' }, h('strong', {}, title), ' ', h('span', { class: 'small' }, text)),
    cubeActs.map((a) => h('button', {
      class: `btn ${a.json === 'drop' ? '' : 'primary'}`,
      onclick: () => play(a),
    }, a.json === 'double' ? t('cube.double_to', { n: stake * 2 }) : actionLabel(a))));
}

/**
 * The invitation to take an open seat (from an invite link).
 * @param {People} people @param {number} seat
 * @param {{join: () => void, watch: () => void}} on
 */
export function joinDialog(people, seat, on) {
  const nameInput = h('input', { type: 'text', value: store.playerName(), placeholder: t('join.name'), 'aria-label': t('join.name'), maxlength: 40 });
  const role = seatRole(people.game, seat, people.obs);
  return h('div', { class: 'prompt', role: 'dialog', 'aria-label': t('join.label') },
    h('h2', {}, t('join.title')),
    h('p', {}, t('join.text', { role, game: gameNameById(people.game) })),
    h('div', { class: 'row' }, nameInput),
    h('div', { class: 'row' },
      h('button', { class: 'btn primary', 'data-testid': 'join', onclick: () => { store.setPlayerName(nameInput.value.trim()); on.join(); } }, t('join.join')),
      h('button', { class: 'btn', onclick: on.watch }, t('join.watch'))));
}

/**
 * The end of the game: who won, how the game ended in its own terms, each
 * seat's score (with what each pays, in High-O Gammon), and what next.
 * @param {People} people @param {number[]} returns
 * @param {any} outcome the server's outcome (ending, winner, loser) of a game played out, or
 *   `{early}`: how a game that ended early ended, in words
 * @param {{rematch: (() => void) | null, rematchOffer: string | null, watchRematch: string | null,
 *   watch: () => void, replay: () => void, replayPath: string, recordUrl: string,
 *   recordName: string, dismiss: () => void, extra?: Node | null,
 *   analyse?: (() => void) | null, analysePath?: string}} on
 *   `rematch` for a player of the table (null for a spectator); `rematchOffer`
 *   says that a rematch was asked for; `watchRematch` its address; `extra`
 *   stands under the scores (a rated game's rating changes); `analyse` (a
 *   game played out) opens the replay and asks for the computer's review
 */
export function gameOverDialog(people, returns, outcome, on) {
  const { game, obs, seats, seat } = people;
  const winners = winnersOf(returns);
  const sole = outcome && outcome.winner !== null && outcome.winner !== undefined ? outcome.winner : null;
  const title = overTitle(people, winners, sole);
  const who = (/** @type {number} */ p) => (p === seat ? t('name.you') : seatRole(game, p, obs));
  const how = outcome && outcome.early ? [`${outcome.early}.`] : outcomeText(game, outcome, obs, returns, who);
  const breakdown = returns.map((_, i) => paysText(obs, i));
  const detailed = breakdown.some((x) => x);
  const rows = returns.map((r, i) => h('tr', {},
    h('td', {}, h('span', { class: 'swatch inline', style: `background:${seatColour(game, i, obs)}` }), seatRole(game, i, obs)),
    h('td', {}, seatPerson(seats[i], seat, seats)),
    h('td', { class: r > 0 ? 'win' : r < 0 ? 'lose' : '' }, signed(r)),
    detailed ? h('td', { class: 'small', 'data-testid': 'pays' }, breakdown[i] || (i === sole ? t('over.the_winner') : '')) : null));
  return h('div', { class: 'prompt over', role: 'dialog', 'aria-label': t('over.label'), 'data-testid': 'game-over' },
    h('h2', {}, title),
    how.length ? h('div', { class: 'ending', 'data-testid': 'ending' }, how.map((line) => h('p', {}, line))) : null,
    h('table', { class: 'score-table' }, h('tr', {}, h('th', {}, t('over.seat')), h('th', {}, t('over.player')), h('th', {}, t('over.score')), detailed ? h('th', {}, t('over.how')) : null), rows),
    on.extra || null,
    on.rematchOffer ? h('p', { class: 'rematch-offer', role: 'status', 'data-testid': 'rematch-offer' }, on.rematchOffer) : null,
    h('div', { class: 'row' },
      on.rematch
        ? h('button', { class: 'btn primary', onclick: on.rematch, 'data-testid': 'rematch' }, t(on.rematchOffer ? 'over.rematch_join' : 'over.rematch'))
        : null,
      !on.rematch && on.watchRematch
        ? h('a', { class: 'btn primary', href: on.watchRematch, 'data-testid': 'watch-rematch', onclick: (/** @type {MouseEvent} */ e) => { e.preventDefault(); on.watch(); } }, t('over.rematch_watch'))
        : null,
      h('a', { class: 'btn', href: on.replayPath, onclick: (/** @type {MouseEvent} */ e) => { e.preventDefault(); on.replay(); } }, t('over.replay')),
      on.analyse
        ? h('a', { class: 'btn', href: on.analysePath, 'data-testid': 'over-analyse', onclick: (/** @type {MouseEvent} */ e) => { e.preventDefault(); on.analyse?.(); } }, t('analysis.analyse'))
        : null,
      h('a', { class: 'btn', href: on.recordUrl, download: on.recordName }, t('over.download')),
      h('button', { class: 'btn', onclick: on.dismiss }, t('over.see_board'))));
}

/**
 * Asks before resigning.
 * @param {{resign: () => void, cancel: () => void}} on
 */
export function resignDialog(on) {
  return h('div', { class: 'prompt', role: 'dialog', 'aria-label': t('resign.label'), 'data-testid': 'resign-dialog' },
    h('h2', {}, t('resign.title')),
    h('p', {}, t('resign.text')),
    h('div', { class: 'row' },
      h('button', { class: 'btn danger', 'data-testid': 'resign-confirm', onclick: on.resign }, t('resign.label')),
      h('button', { class: 'btn primary', 'data-testid': 'resign-cancel', onclick: on.cancel }, t('resign.keep'))));
}

/**
 * A table that ended without a result (closed, or nobody came).
 * @param {string} text @param {{lobby: () => void, dismiss: () => void}} on
 */
export function closedDialog(text, on) {
  return h('div', { class: 'prompt over', role: 'dialog', 'aria-label': t('closed.title'), 'data-testid': 'table-closed' },
    h('h2', {}, t('closed.title')), h('p', {}, text),
    h('div', { class: 'row' },
      h('button', { class: 'btn primary', onclick: on.lobby }, t('closed.lobby')),
      h('button', { class: 'btn', onclick: on.dismiss }, t('over.see_board'))));
}

/**
 * A copyable invite link.
 * @param {string} url @param {string} role
 */
export function invite(url, role) {
  return copyLink(url, role, 'copy-invite', t('invite.link_for', { role }), 'invite');
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
  const button = h('button', { class: 'btn small', 'data-testid': testId }, t('copy.copy'));
  button.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(url);
    } catch {
      input.select();
      document.execCommand('copy');
    }
    button.textContent = t('copy.copied');
    setTimeout(() => { button.textContent = t('copy.copy'); }, 1500);
  });
  return h('div', { class: `${cls} link-box` }, h('span', { class: 'badge' }, label), input, button);
}
