// @ts-check
/**
 * The table's board column: whose turn it is, the board, the dialogs over it
 * (game over, resign, join, closed) and the row of prompts and buttons under it.
 */

import * as api from './api.js';
import * as prompts from './prompts.js';
import { fitToRoom, h, replace } from './dom.js';
import { actionLabel, seatRole, shortName } from './names.js';
import { turnChime } from './sound.js';
import { ltr, t } from './i18n.js';
import { account } from './account.js';
import { signInDialog } from './rated.js';
import { askHints, confirmMove, join, rematch, resign, send, undo } from './tableactions.js';

/** @typedef {import('./table.js').TableView} TableView */

/** Whose turn, in words. @param {TableView} tv */
export function turnText(tv) {
  const turn = tv.view.turn;
  if (tv.ending) return { main: endingText(tv), sub: '' };
  if (tv.between) return { main: t('table.game_over'), sub: '' };
  if (turn.kind === 'over') return { main: t('turn.over', { result: resultText(tv) }), sub: '' };
  // Before the game starts (an open seat), the first roll or deal waits for it.
  const open = tv.status === 'waiting' ? tv.seats.findIndex((s) => s && s.kind === 'open') : -1;
  if (turn.kind === 'chance' && open >= 0) return waitingText(tv, open);
  if (turn.kind === 'chance') return { main: t('turn.chance'), sub: '' };
  const seat = tv.seats[turn.seat];
  const role = seatRole(tv.game, turn.seat, tv.view.observation);
  if (turn.seat === tv.seat) {
    return { main: t('turn.yours', { role }), sub: tv.ui.prompt(tv.ctx()) };
  }
  if (seat && seat.kind === 'ai') return { main: t('turn.thinking', { who: shortName(seat, tv.seat, tv.seats) }), sub: t('turn.to_move', { who: role }) };
  if (seat && seat.kind === 'open') return waitingText(tv, turn.seat);
  return { main: t('turn.to_move', { who: seat ? shortName(seat, tv.seat, tv.seats) : role }), sub: role };
}

/** The status while `seat` is open: who is awaited, and the invitation. @param {TableView} tv @param {number} seat */
function waitingText(tv, seat) {
  const role = seatRole(tv.game, seat, tv.view.observation);
  return { main: t('turn.waiting', { role }), sub: t(tv.table.rematch_of ? 'invite.kept' : 'turn.send_invite') };
}

/** Draws the status bar: whose turn, what to do, the connection. @param {TableView} tv */
export function renderStatus(tv) {
  const turn = turnText(tv);
  const mine = tv.myTurn();
  const summary = tv.ui.summary(tv.between ? tv.between.obs : tv.view.observation);
  const connText = tv.conn === 'open' ? t('conn.live') : tv.conn === 'refused' ? t('conn.watching') : t('conn.reconnecting');
  tv.statusBar.className = `status-bar${mine ? ' your-turn' : ''}`;
  document.title = mine ? `● ${t('title.your_turn')} · spelbord` : `${t('title.table')} · spelbord`;
  // The sound (if the player wants it) when the turn comes, not on opening the page.
  if (mine && tv.wasMine === false) turnChime();
  tv.wasMine = mine;
  replace(tv.statusBar,
    h('span', { class: 'turn-dot', 'aria-hidden': 'true' }),
    h('div', { style: 'flex: 1' },
      h('div', { class: 'status-text', 'data-testid': 'turn' }, turn.main),
      turn.sub ? h('div', { class: 'status-sub', 'data-testid': 'prompt' }, turn.sub) : null,
      summary ? h('div', { class: 'status-sub' }, summary) : null),
    h('span', { class: `conn${tv.conn === 'open' ? '' : ' bad'}`, 'data-testid': 'conn', title: t('conn.title') }, connText));
}

/** Draws the board, keeping the focus on the target that had it. @param {TableView} tv @param {string} [focusTarget] the target to keep focused */
export function renderBoard(tv, focusTarget) {
  const active = /** @type {Element | null} */ (document.activeElement);
  const keep = focusTarget || (active && active.getAttribute && active.getAttribute('data-target'));
  const svg = tv.ui.render(tv.ctx());
  tv.boardBox.className = `board-wrap game-${tv.game}${Date.now() - tv.rolledAt < 900 ? ' just-rolled' : ''}${tv.myTurn() ? ' my-turn' : ''}`;
  tv.boardBox.dataset.version = String(tv.view.version);
  replace(tv.boardBox, svg);
  // The slide plays once; later drawings of this position stand still.
  if (tv.slideVersion === tv.view.version) tv.slideVersion = -1;
  if (keep) {
    const again = /** @type {SVGElement | null} */ (tv.boardBox.querySelector(`[data-target="${CSS.escape(keep)}"]`));
    if (again && active && (active === document.body || !document.contains(active))) again.focus();
  }
  renderOverlay(tv);
}

/**
 * On a phone, holds the board to the room between the status bar and the
 * buttons (which stay at the foot of the screen), so that they never
 * cover its bottom strip, however many rows they take; but never so
 * small that a target is under 44 px to tap (then the page scrolls).
 * @param {TableView} tv
 */
export function fitBoard(tv) {
  fitToRoom(tv.boardBox, tv.controls, 44);
}

/** Draws the dialog over the board, if any: closed, resign, game over, sign in, join. @param {TableView} tv */
export function renderOverlay(tv) {
  const turn = tv.view.turn;
  const legal = tv.myTurn() ? tv.view.legal || [] : [];
  const people = { game: tv.game, obs: tv.view.observation, seats: tv.seats, seat: tv.seat };
  if (tv.ending && !tv.ending.returns && !tv.overDismissed) {
    replace(tv.overlay, prompts.closedDialog(endingText(tv), {
      lobby: () => { tv.close(); tv.nav.go('/'); },
      dismiss: () => { tv.overDismissed = true; renderOverlay(tv); },
    }));
    return;
  }
  if (tv.confirmingResign && !tv.isOver()) {
    replace(tv.overlay, prompts.resignDialog({
      resign: () => resign(tv),
      cancel: () => { tv.confirmingResign = false; renderOverlay(tv); },
    }));
    return;
  }
  if (tv.isOver() && !tv.overDismissed) {
    const replayPath = `/t/${tv.table.id}?replay`;
    replace(tv.overlay, prompts.gameOverDialog(people, tv.view.returns || tv.ending?.returns || [], tv.ending ? { early: endingText(tv) } : tv.view.outcome, {
      rematch: tv.seat !== null && tv.token ? () => rematch(tv) : null,
      rematchOffer: rematchOffer(tv),
      watchRematch: tv.rematchId ? `/t/${tv.rematchId}` : null,
      watch: () => { if (tv.rematchId) { tv.close(); tv.nav.go(`/t/${tv.rematchId}`); } },
      replay: () => { tv.close(); tv.nav.go(replayPath); },
      replayPath,
      // A game played out (not closed early) can be reviewed.
      analyse: tv.ending ? null : () => { tv.close(); tv.nav.go(`${replayPath}&analyse`); },
      analysePath: `${replayPath}&analyse`,
      recordUrl: api.recordUrl(tv.table.id),
      recordName: `${tv.game}-${tv.table.id}.json`,
      dismiss: () => { tv.overDismissed = true; renderOverlay(tv); },
      extra: tv.rated ? tv.rated.overBox(tv.seats, (s) => s.account || '') : null,
    }));
    return;
  }
  if (tv.seat === null && tv.invitedSeat !== null && tv.table.rated && !account() && tv.seats[tv.invitedSeat]?.kind === 'open') {
    const seat = tv.invitedSeat;
    replace(tv.overlay, signInDialog(tv.table, seat, seatRole(tv.game, seat, tv.view.observation), () => { tv.invitedSeat = null; renderOverlay(tv); }));
    return;
  }
  if (tv.seat === null && tv.invitedSeat !== null && tv.seats[tv.invitedSeat]?.kind === 'open') {
    const seat = tv.invitedSeat;
    replace(tv.overlay, prompts.joinDialog(people, seat, {
      join: () => join(tv, seat),
      watch: () => { tv.invitedSeat = null; renderOverlay(tv); },
    }));
    return;
  }
  replace(tv.overlay);
}

/** Who asked for the rematch, in words, when another player did. @param {TableView} tv */
export function rematchOffer(tv) {
  if (!tv.rematchId) return null;
  const by = tv.rematchBy;
  if (tv.seat === null) return t('over.rematch_started');
  if (by === null || by === tv.seat) return t('over.rematch_made');
  return t('over.rematch_asked', { who: shortName(tv.seats[by], tv.seat, tv.seats) });
}

/** The result in a few words. @param {TableView} tv */
export function resultText(tv) {
  return prompts.resultText({ game: tv.game, obs: tv.view.observation, seats: tv.seats, seat: tv.seat }, tv.view.returns || []);
}

/** How the table ended early, in words. @param {TableView} tv */
export function endingText(tv) {
  const e = tv.ending;
  if (!e) return '';
  const who = e.seat === null || e.seat === undefined ? '' : e.seat === tv.seat ? t('name.you') : shortName(tv.seats[e.seat], tv.seat, tv.seats);
  const you = e.seat === tv.seat;
  switch (e.reason) {
    case 'resigned': return t(you ? 'early.resigned.you' : 'early.resigned', { who });
    case 'forfeit': return t(you ? 'early.forfeit.you' : 'early.forfeit', { who });
    case 'time': return t(you ? 'early.time.you' : 'early.time', { who });
    case 'closed': return t('early.closed');
    default: return t('early.abandoned');
  }
}

/** Draws the prompts and buttons under the board, the error and the notation box. @param {TableView} tv */
export function renderControls(tv) {
  const mine = tv.myTurn();
  const ctx = tv.ctx();
  const legal = mine ? tv.view.legal || [] : [];
  const complete = mine ? tv.ui.complete(ctx) : null;
  const offBoard = legal.filter((a) => !tv.ui.onBoard(a) && !['double', 'roll', 'take', 'drop'].includes(a.json));
  const parts = [];
  // The cube's question and a Stumpvarning stand in this row, beside the
  // buttons under the board, never over it.
  parts.push(prompts.cubePrompt(legal, tv.view.observation, (a) => send(tv, { json: a.json })));
  if (tv.between) {
    const between = tv.between;
    parts.push(h('div', { class: 'inline-prompt', role: 'status', 'data-testid': 'between-games' },
      h('div', { class: 'inline-text' }, h('strong', {}, `${t('table.game_over')} `), between.lines.join(' ')),
      h('button', { class: 'btn primary', 'data-testid': 'next-game', onclick: () => between.go() }, t('table.next_game'))));
  }
  if (tv.banner) {
    parts.push(h('div', { class: 'inline-prompt alarm', role: 'alert', 'data-testid': 'warning' }, h('span', {}, tv.banner),
      h('button', { class: 'btn small', onclick: () => { tv.banner = null; renderControls(tv); } }, t('table.ok'))));
  }
  if (mine && legal.some((a) => tv.ui.onBoard(a))) {
    parts.push(h('button', { class: 'btn', 'data-testid': 'undo', disabled: tv.ui.isEmpty(ctx), onclick: () => undo(tv), title: t('table.undo_key') }, `↶ ${t('table.undo')}`));
    parts.push(h('button', { class: 'btn good', 'data-testid': 'confirm', disabled: !complete, onclick: () => confirmMove(tv), title: t('table.confirm_key') }, `✓ ${t('table.confirm')}`));
  }
  for (const a of offBoard) {
    parts.push(h('button', { class: 'btn primary', 'data-testid': 'action', 'data-action': a.text, onclick: () => send(tv, { json: a.json }) }, actionLabel(a)));
  }
  parts.push(h('span', { class: 'grow' }));
  if (tv.seat !== null && !tv.isOver() && !tv.between) {
    parts.push(h('button', { class: 'btn', 'data-testid': 'hint', disabled: !mine, onclick: () => askHints(tv), title: t('table.hint_key') }, t('table.hint')));
  }
  if (tv.busy) parts.push(h('span', { class: 'muted small' }, t('table.sending')));
  replace(tv.controls, parts);
  replace(tv.errorBox, tv.error ? h('div', { class: 'error-box', 'data-testid': 'error' }, tv.error) : null);
  tv.notationForm.style.display = tv.seat === null || tv.isOver() || tv.between ? 'none' : '';
  tv.keysHelp.style.display = tv.notationForm.style.display;
  const example = legal.find((a) => a.text.length < 24);
  tv.notationInput.placeholder = example ? t('table.notation_example', { move: ltr(example.text) }) : t('table.notation_plain');
}
