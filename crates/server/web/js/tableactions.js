// @ts-check
/**
 * What the player does at a table: building a move on the board, sending it
 * (or its notation), hints, the keys, taking a seat, the rematch, resigning,
 * closing the table and the seat's link.
 */

import * as api from './api.js';
import * as store from './store.js';
import { t } from './i18n.js';
import { errorText } from './errors.js';
import { guestKey } from './account.js';
import { signInFirst } from './rated.js';
import { renderBoard, renderControls, renderStatus } from './tableboard.js';
import { renderHints, sortedHints } from './tablepanel.js';

/** @typedef {import('./table.js').TableView} TableView */

/**
 * Chooses a board target.
 * @param {TableView} tv
 * @param {string} t
 * @param {boolean} [focus] keep the focus on it (false: the page keeps
 *   it, so that Enter confirms after typing)
 */
export function choose(tv, t, focus = true) {
  if (!tv.myTurn()) return;
  tv.pick = tv.ui.choose(tv.ctx(), t);
  tv.preview = null;
  renderBoard(tv, focus ? t : undefined);
  renderControls(tv);
  renderStatus(tv);
}

/** Moves a piece by dragging it from one target to another. @param {TableView} tv @param {string} from @param {string} to */
export function drag(tv, from, to) {
  if (!tv.myTurn() || !tv.ui.drag) return;
  tv.pick = tv.ui.drag(tv.ctx(), from, to);
  renderBoard(tv);
  renderControls(tv);
  renderStatus(tv);
}

/** Takes back the last step of the move being built. @param {TableView} tv */
export function undo(tv) {
  tv.pick = tv.ui.undo(tv.ctx());
  tv.render();
}

/** Sends the move built on the board. @param {TableView} tv */
export function confirmMove(tv) {
  const action = tv.ui.complete(tv.ctx());
  if (action) send(tv, { json: action.json });
}

/** Sends an action (as JSON, or in notation) at the version shown. @param {TableView} tv @param {{json?: any, action?: string}} body */
export async function send(tv, body) {
  if (!tv.token || tv.busy) return;
  tv.busy = true;
  tv.error = '';
  renderControls(tv);
  try {
    const at = tv.view.version;
    const res = await api.act(tv.table.id, tv.token, at, body);
    for (const a of res.actions) tv.addLog(a.version, a, undefined);
    // Live, the events show the answers one after another; otherwise jump.
    tv.sentAt = at;
    if (tv.conn !== 'open') tv.setView(res.state);
    tv.notationInput.value = '';
  } catch (e) {
    if (e instanceof api.ApiError && (e.code === 'stale_version' || e.code === 'not_your_turn')) {
      tv.error = t('table.moved_on');
      tv.socket.resync();
    } else {
      tv.error = errorText(e);
    }
  } finally {
    tv.busy = false;
    tv.render();
  }
}

/** Sends the move typed in the notation box. @param {TableView} tv */
export function sendNotation(tv) {
  const text = tv.notationInput.value.trim();
  if (!text) return;
  if (!tv.myTurn()) {
    tv.error = t('table.not_your_turn');
    renderControls(tv);
    return;
  }
  send(tv, { action: text });
}

/** Asks the computer for hints on this position. @param {TableView} tv */
export async function askHints(tv) {
  if (!tv.token) return;
  tv.hintError = '';
  tv.hints = null;
  tv.hintsVersion = tv.view.version;
  renderHints(tv, true);
  try {
    const res = await api.getHints(tv.table.id, tv.token);
    if (tv.view.version !== tv.hintsVersion) return;
    tv.hints = sortedHints(res.hints);
  } catch (e) {
    tv.hintError = e instanceof api.ApiError && e.status === 404 && e.code !== 'not_found'
      ? t('hints.unavailable')
      : errorText(e);
  }
  renderHints(tv, false);
}

/** Takes an open seat, then opens the table as its player. @param {TableView} tv @param {number} seat */
export async function join(tv, seat) {
  // A rated table's seats are for accounts: sign in first.
  if (signInFirst(tv.table, seat)) return;
  const name = store.playerName();
  try {
    // The key makes a retried join (its answer lost) return the same seat;
    // the seed is this seat's share in the dice (docs/server.md).
    const body = { seat, name: name || undefined, player: guestKey(), key: store.newSecret(16), seed: store.newSecret(8) };
    const res = await api.joinTable(tv.table.id, body).catch((e) => {
      if (e instanceof api.ApiError) throw e;
      return api.joinTable(tv.table.id, body);
    });
    store.rememberSeat(tv.table.id, res.seat, res.token);
    tv.close();
    tv.nav.go(`/t/${tv.table.id}`);
  } catch (e) {
    tv.error = errorText(e);
    tv.render();
  }
}

/**
 * Asks for the rematch (or takes up the one another player asked for):
 * the same table again, the computers in their seats, every player of
 * this table kept his seat there; then takes this seat in it.
 * @param {TableView} tv
 */
export async function rematch(tv) {
  const token = tv.token;
  if (!token) return;
  try {
    let id = tv.rematchId;
    if (!id) {
      id = (await api.rematch(tv.table.id, token, store.playerKey())).rematch;
      // Asked for here (unless another player asked a moment before):
      // this player may close it while the others have not come.
      store.rememberCreated(id);
    }
    if (!store.seatsAt(id).length) {
      // The key makes a retried join (its answer lost) return the same seat.
      const body = { rematch_token: token, name: store.playerName() || undefined, player: guestKey(), key: store.newSecret(16), seed: store.newSecret(8) };
      const res = await api.joinTable(id, body).catch((e) => {
        if (e instanceof api.ApiError) throw e;
        return api.joinTable(id, body);
      });
      store.rememberSeat(id, res.seat, res.token);
    }
    tv.close();
    tv.nav.go(`/t/${id}`);
  } catch (e) {
    tv.error = errorText(e);
    tv.render();
  }
}

/** Resigns tv seat (after the confirmation): the game ends, tv seat loses. @param {TableView} tv */
export async function resign(tv) {
  if (!tv.token) return;
  tv.confirmingResign = false;
  try {
    const table = await api.resign(tv.table.id, tv.token);
    tv.ending = table.ending || tv.ending;
    tv.status = table.status;
  } catch (e) {
    tv.error = errorText(e);
  }
  tv.render();
}

/** Closes the table before it starts (its creator only). @param {TableView} tv */
export async function closeTable(tv) {
  try {
    const table = await api.closeTable(tv.table.id, guestKey());
    tv.ending = table.ending || tv.ending;
    tv.status = table.status;
  } catch (e) {
    tv.error = errorText(e);
  }
  tv.render();
}

/** Fetches the link that continues tv seat on another device, and shows it. @param {TableView} tv */
export async function showSeatLink(tv) {
  if (!tv.token) return;
  try {
    const link = await api.seatLink(tv.table.id, tv.token);
    tv.seatUrl = `${location.origin}${link.url}`;
  } catch (e) {
    tv.error = errorText(e);
  }
  tv.render();
}

/** The table's keys: Enter confirms, Escape undoes, letters pick targets, h asks for hints. @param {TableView} tv @param {KeyboardEvent} e */
export function onKey(tv, e) {
  const target = /** @type {HTMLElement | null} */ (e.target);
  if (target && (target.tagName === 'INPUT' || target.tagName === 'SELECT' || target.tagName === 'TEXTAREA')) return;
  if (e.key === 'Enter' && !(target && target.closest('[data-target][data-state], [data-target].can-pick, button, a'))) {
    if (tv.myTurn() && tv.ui.complete(tv.ctx())) {
      e.preventDefault();
      confirmMove(tv);
    }
  } else if ((e.key === 'Escape' || e.key === 'Backspace') && tv.myTurn() && !tv.ui.isEmpty(tv.ctx())) {
    e.preventDefault();
    undo(tv);
  } else if (e.key.length === 1 && /[0-9a-z]/i.test(e.key) && !e.ctrlKey && !e.metaKey && !e.altKey && tv.myTurn()
    && !(target && target.closest('button, a')) && tv.typing.key(e.key)) {
    e.preventDefault();
  } else if (e.key === 'h' && tv.myTurn()) {
    askHints(tv);
  }
}
