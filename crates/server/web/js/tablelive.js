// @ts-check
/**
 * The table's live updates: the server's messages over the WebSocket, the
 * pace at which their moves are shown (slides, steps, pauses), a match
 * game's end held until the player goes on, and the moves before the page
 * opened.
 */

import * as api from './api.js';
import * as store from './store.js';
import { toast } from './toast.js';
import { isWarning, matchGameEnded } from './events.js';
import { ltr, t } from './i18n.js';
import { renderBoard, renderStatus } from './tableboard.js';
import { renderLog } from './tablepanel.js';

/** @typedef {import('./table.js').TableView} TableView */

/**
 * Shows the move at `version` step by step, over `ms` in all, from the
 * positions the server sent with it (`boards`, the one before it first),
 * where the game draws them; the first step is drawn by the next render.
 * `framesDone` settles once the last step is drawn (or another position
 * replaced the move's).
 * @param {TableView} tv
 * @param {number} version @param {any[] | undefined} boards @param {number} ms
 */
export function startFrames(tv, version, boards, ms) {
  const steps = Array.isArray(boards) ? boards.length - 1 : 0;
  if (!tv.ui.withBoard || steps < 1 || ms <= 0) {
    tv.frame = null;
    return;
  }
  const frame = { version, boards: /** @type {any[]} */ (boards), step: 1, ms: Math.round(ms / steps) };
  tv.frame = frame;
  tv.framesDone = new Promise((done) => {
    const next = () => {
      if (tv.frame !== frame || tv.shownVersion() !== version || frame.step >= steps) {
        if (tv.frame === frame) tv.frame = null;
        done(undefined);
        return;
      }
      frame.step += 1;
      tv.slideVersion = tv.view.version;
      renderBoard(tv);
      setTimeout(next, frame.ms);
    };
    setTimeout(next, frame.ms);
  });
}

/**
 * The moves before this page opened, with who made them and their
 * events; in a match, the last game's final position and result again
 * if the player had not gone on from it.
 * @param {TableView} tv
 */
export async function loadEarlierMoves(tv) {
  if (tv.table.hidden_information && tv.view.turn.kind !== 'over') return;
  /** @type {any[]} */
  let steps;
  try {
    steps = (await api.getReplay(tv.table.id, tv.seat)).steps || [];
  } catch {
    // Not available yet: the log starts now.
    return;
  }
  for (const step of steps) {
    if (step.version === 0 || tv.log.has(step.version)) continue;
    tv.log.set(step.version, { seat: step.seat, auto: step.auto, text: step.text ?? undefined, json: step.json, events: step.events || [] });
  }
  resumeBetween(tv, steps);
  renderLog(tv);
}

/**
 * After a reload in a match: the last game that ended, if the player has
 * not gone on from it (here, or by moving in the next game), is shown
 * again with its result until he does.
 * @param {TableView} tv
 * @param {any[]} steps the replay's steps
 */
export function resumeBetween(tv, steps) {
  if (tv.between || tv.held || tv.isOver()) return;
  for (let i = steps.length - 1; i > 0; i--) {
    const before = steps[i - 1].state.observation;
    const after = steps[i].state.observation;
    const lines = matchGameEnded(tv.game, before, after, (p) => tv.who(p));
    if (lines.length === 0) continue;
    const version = steps[i].version;
    const movedSince = steps.slice(i + 1).some((st) => st.seat === tv.seat && tv.seat !== null && !st.auto);
    if (store.wentOn(tv.table.id) >= version || movedSince || version <= tv.gameStart) {
      tv.gameStart = Math.max(tv.gameStart, version);
      return;
    }
    tv.held = holdBetween(tv, lines, finalPosition(before, steps[i], after), version).then(() => { tv.held = null; });
    return;
  }
}

/**
 * Shows a finished match game's final position and result until the
 * player goes on, and remembers that he did.
 * @param {TableView} tv
 * @param {string[]} lines @param {any} obs @param {number} version
 */
export async function holdBetween(tv, lines, obs, version) {
  await new Promise((resolve) => {
    tv.between = { lines, obs, version, go: () => resolve(undefined) };
    tv.render();
  });
  store.setWentOn(tv.table.id, version);
  tv.between = null;
  tv.gameStart = version;
  tv.render();
}

/**
 * Opens the table's WebSocket with `token` (null: to watch), resuming after
 * the version `since` gives.
 * @param {TableView} tv @param {string | null} token @param {() => number | null} since
 */
export function connect(tv, token, since) {
  return new api.TableSocket(tv.table.id, token, {
    onMessage: (m) => onMessage(tv, m),
    onStatus: (st) => onStatus(tv, st),
    since,
  });
}

/** Takes a message from the table's WebSocket. @param {TableView} tv @param {any} m */
export function onMessage(tv, m) {
  // The clocks run in real time: taken at once, not when the queue shows the event.
  if (m.clock !== undefined) tv.clocks.update(m.clock);
  switch (m.type) {
    case 'welcome':
      tv.seats = m.seats;
      tv.status = m.status;
      if (typeof m.viewer === 'object' && m.viewer) tv.seat = m.viewer.seat;
      break;
    case 'event':
      tv.queue.push(m);
      // The shown position is no longer the table's: no decision on it.
      if (tv.pumping) tv.render();
      pump(tv);
      return;
    case 'sync':
      tv.queue = [];
      tv.seats = m.seats;
      tv.status = m.status;
      tv.ending = m.ending || null;
      tv.rematchId = m.rematch || tv.rematchId;
      tv.setView(m.state);
      break;
    case 'seats':
      tv.seats = m.seats;
      tv.status = m.status;
      break;
    case 'rematch':
      tv.rematchId = m.rematch;
      tv.rematchBy = m.by;
      // The offer comes back into view, also after "See the board".
      tv.overDismissed = false;
      break;
    case 'error':
      tv.error = t('error.refused');
      break;
    default:
      return;
  }
  tv.render();
}

/**
 * Shows the queued events one after another: after a move by someone
 * else (or chance) a pause of the chosen speed, so that each can be
 * followed; the moved pieces stay marked until the next move.
 * @param {TableView} tv
 */
export async function pump(tv) {
  if (tv.pumping) return;
  tv.pumping = true;
  try {
    while (tv.queue.length > 0) {
      if (tv.held) await tv.held;
      // A move shown step by step shows every step before the next event.
      if (tv.framesDone) await tv.framesDone;
      tv.framesDone = null;
      // What was shown last stays for its pause, however late the next
      // event comes (the computer's move is not replaced by your roll at
      // once); a sync may empty the queue meanwhile.
      // An action of my seat (mine, or the server's for me) is not held
      // back; nor is anything after a chance event.
      const next = tv.queue[0];
      const mine = next.action && next.action.seat === tv.seat;
      const wait = mine ? 0 : tv.shownUntil - Date.now();
      if (wait > 0) {
        await new Promise((r) => setTimeout(r, wait));
        continue;
      }
      const m = tv.queue.shift();
      if (m.version <= tv.view.version) {
        tv.addLog(m.version, m.action, m.events);
        continue;
      }
      tv.addLog(m.version, m.action, m.events);
      noticeEvents(tv, m);
      if (m.version > tv.view.version + 1) {
        tv.queue = [];
        tv.socket.resync();
        break;
      }
      const before = tv.view.observation;
      tv.setView(m.state);
      if (m.state.turn.kind === 'over') tv.status = 'finished';
      // Moves by others, and the server's forced moves for me, are shown
      // one at a time: the pieces slide in, then a pause.
      const shown = m.action && (m.action.seat !== tv.seat || m.action.auto);
      const pause = store.SPEED_PAUSE[store.speed()];
      const chance = m.action && (m.action.seat === null || m.action.seat === undefined);
      tv.slideMs = shown && !chance ? Math.round(pause * 0.6) : 0;
      tv.slideVersion = m.version;
      startFrames(tv, m.version, m.action && m.action.boards, tv.slideMs);
      tv.render();
      // A game of a match ended: its result and the score stay until the
      // player goes on; the next game's moves wait meanwhile.
      const ended = matchGameEnded(tv.game, before, m.state.observation, (p) => tv.who(p));
      if (ended.length > 0) await holdBetween(tv, ended, finalPosition(before, m.action, m.state.observation), m.version);
      tv.shownUntil = shown && !chance && pause > 0 ? Date.now() + pause : 0;
      if (chance && pause > 0 && tv.queue.length > 0) {
        await new Promise((r) => setTimeout(r, pause / 3));
      }
    }
  } finally {
    tv.pumping = false;
  }
}

/** Toasts and banners for events and the server's own moves for me. @param {any} m @param {TableView} tv */
export function noticeEvents(tv, m) {
  if (m.version <= tv.noticed) return;
  tv.noticed = m.version;
  for (const e of m.events || []) {
    if (isWarning(e)) {
      tv.banner = tv.eventText(e);
    }
  }
  const a = m.action;
  if (a && a.seat === tv.seat && a.auto && tv.seat !== null) {
    toast(a.text === 'pass' ? t('table.auto_pass') : t('table.auto_move', { move: ltr(a.text) }));
  }
}

/** The connection's state: shown; refused, the seat is given up and the table watched. @param {TableView} tv @param {'connecting' | 'open' | 'closed' | 'refused'} st */
export function onStatus(tv, st) {
  tv.conn = st;
  if (st === 'refused') {
    tv.token = null;
    tv.seat = null;
    tv.socket.close();
    tv.socket = connect(tv, null, () => null);
  }
  renderStatus(tv);
}

/**
 * The final position of a match game that `action` ended: the server
 * begins the next game in the same action, so the observation before it
 * with the last of the positions the move passed through (`boards`, as the
 * server sent them with it; none for a dropped double), and the new score.
 * @param {any} before the observation before the action
 * @param {{boards?: any[]} | null | undefined} action
 * @param {any} after the observation after it (the next game's start)
 */
export function finalPosition(before, action, after) {
  const boards = action && Array.isArray(action.boards) ? action.boards : [];
  const board = boards.length > 0 ? boards[boards.length - 1] : before.board;
  return { ...before, score: after.score, board };
}
