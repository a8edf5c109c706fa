// @ts-check
/**
 * The table view: the board, whose turn it is, building and confirming a
 * move, buttons for the other actions, a notation box, hints, the move log,
 * prompts (cube, Stumpvarning), game over with a rematch, invites and
 * spectators. Live updates come over the table's WebSocket.
 *
 * This module holds the view's state and what it derives from it; the rest
 * is in its parts: tablelive.js (the server's messages, and the pace at
 * which they are shown), tableactions.js (what the player does),
 * tableboard.js (the board column: status, board, prompts, buttons) and
 * tablepanel.js (the side column: seats, invites, hints, moves, info).
 */

import * as api from './api.js';
import * as store from './store.js';
import { h, replace } from './dom.js';
import { uiFor } from './games/index.js';
import { seatRole, shortName } from './names.js';
import { attachBoardInput } from './input.js';
import { typingChooser } from './keys.js';
import { SeatClocks } from './clock.js';
import { eventText } from './events.js';
import { t } from './i18n.js';
import { errorText } from './errors.js';
import { TableRatings, joinAfterSignIn } from './rated.js';
import { connect, loadEarlierMoves } from './tablelive.js';
import { choose, drag, join, onKey, sendNotation } from './tableactions.js';
import { fitBoard, renderBoard, renderControls, renderStatus } from './tableboard.js';
import { renderAllMoves, renderHints, renderInfo, renderInvites, renderLog, renderSeatMenu, renderSeats } from './tablepanel.js';

export { finalPosition } from './tablelive.js';
export { equityText, sortedHints } from './tablepanel.js';

/** @typedef {import('./types.js').TableInfo} TableInfo */
/** @typedef {import('./types.js').StateView} StateView */
/** @typedef {import('./types.js').ActionInfo} ActionInfo */
/** @typedef {import('./types.js').Hint} Hint */
/** @typedef {import('./events.js').GameEvent} GameEvent */
/** @typedef {{seat: number | null | undefined, auto?: boolean, hidden?: boolean, text?: string, json?: any, events: GameEvent[]}} LogEntry */
/** @typedef {{go: (path: string) => void}} Nav */

/**
 * Shows a table.
 * @param {HTMLElement} root
 * @param {string} tableId
 * @param {URLSearchParams} params `seat=N` for an invite
 * @param {Nav} nav
 * @returns {Promise<() => void>} a function that leaves the view
 */
export async function showTable(root, tableId, params, nav) {
  replace(root, h('p', { class: 'muted' }, t('table.loading')));
  let token = store.seatsAt(tableId)[0]?.token || null;
  /** @type {TableInfo} */
  let table;
  try {
    table = await api.getTable(tableId, token);
  } catch (e) {
    if (e instanceof api.ApiError && e.status === 401) {
      token = null;
      table = await api.getTable(tableId, null);
    } else {
      replace(root, h('div', { class: 'error-box' }, t('table.open_failed', { reason: errorText(e) })),
        h('p', {}, h('a', { href: '/' }, t('closed.lobby'))));
      return () => {};
    }
  }
  const view = new TableView(root, table, token, params, nav);
  return () => view.close();
}

/** One open table: its state, the page's parts, and the setup that ties them together. */
export class TableView {
  // ---- the page's parts (built once, filled by tableboard.js and tablepanel.js) ----

  statusBar = h('div', { class: 'status-bar', role: 'status', 'aria-live': 'polite' });
  boardBox = h('div', { class: 'board-wrap' });
  overlay = h('div');
  controls = h('div', { class: 'controls' });
  errorBox = h('div', { role: 'alert' });
  notationInput = h('input', { type: 'text', name: 'move', placeholder: t('table.notation_placeholder'), 'aria-label': t('table.notation_label'), autocomplete: 'off', spellcheck: 'false' });
  notationForm = h('form', { class: 'notation', onsubmit: (/** @type {Event} */ e) => { e.preventDefault(); sendNotation(this); } },
    this.notationInput, h('button', { class: 'btn', type: 'submit' }, t('table.play')));
  keysHelp = h('p', { class: 'small muted keys-help', 'data-testid': 'keys-help' }, t('keys.help'));
  seatsBox = h('div', { class: 'panel' });
  seatMenu = h('div');
  invitesBox = h('div');
  hintsBox = h('div', { class: 'panel' });
  // Focusable, so that the moves can be scrolled with the keyboard.
  logList = h('ol', { class: 'log', 'aria-label': t('table.moves_so_far'), tabindex: 0 });
  allMoves = h('div', { class: 'action-list' });
  infoBox = h('div', { class: 'panel small' });

  // ---- what the player is doing ----

  /** Asking to resign: the confirmation is shown. */
  confirmingResign = false;
  /** The link that continues this seat elsewhere, once asked for. @type {string | null} */
  seatUrl = null;
  /** @type {ActionInfo | null} */
  preview = null;
  /** @type {Hint[] | null} */
  hints = null;
  hintsVersion = -1;
  hintError = '';
  busy = false;
  /** The version a move was sent at: not ours to play again. @type {number | null} */
  sentAt = null;
  error = '';
  conn = 'connecting';
  overDismissed = false;
  /** @type {string | null} */
  banner = null;
  /** The seat that asked for the rematch, when told here. @type {number | null} */
  rematchBy = null;

  // ---- what is shown, and when ----

  /** @type {Map<number, LogEntry>} */
  log = new Map();
  /** Whether it was the player's turn at the last drawing (null: not drawn yet). @type {boolean | null} */
  wasMine = null;
  /** Events waiting to be shown, one after another. @type {any[]} */
  queue = [];
  /** Until when (ms since the epoch) the last shown event stays before the next. */
  shownUntil = 0;
  pumping = false;
  /**
   * A game of the match just ended (at `version`): its result and its
   * final position (`obs`), shown until the player goes on.
   * @type {{lines: string[], obs: any, version: number, go: () => void} | null}
   */
  between = null;
  /** Held after a reload until the player goes on from the last match game: the next game's moves wait. @type {Promise<void> | null} */
  held = null;
  /** The version at which the game on the board began (a match's next game): no earlier move is marked. */
  gameStart = 0;
  /** The version whose move slides in, and over how long (ms). */
  slideVersion = -1;
  slideMs = 0;
  /**
   * The move at `version` shown step by step: the positions it passed
   * through as the server sent them, the step on the board, and each
   * step's time (ms).
   * @type {{version: number, boards: any[], step: number, ms: number} | null}
   */
  frame = null;
  /** Settles when the move shown step by step has shown its last step. @type {Promise<void> | null} */
  framesDone = null;
  rolledAt = 0;

  // ---- the page's listeners ----

  /** Picks a board target by typing its name. */
  typing = typingChooser({
    choices: () => (this.myTurn()
      ? [...this.boardBox.querySelectorAll('[data-target][data-state="src"], [data-target][data-state="dest"], [data-target].can-pick')]
        .map((el) => /** @type {string} */ (el.getAttribute('data-target')))
      : []),
    choose: (id) => choose(this, id, false),
  });
  keyHandler = (/** @type {KeyboardEvent} */ e) => onKey(this, e);
  /** Whether the board was drawn for a phone held upright. @type {boolean | undefined} */
  wasPortrait = undefined;
  resizeHandler = () => {
    if (this.ctx().portrait !== this.wasPortrait) {
      this.wasPortrait = this.ctx().portrait;
      renderBoard(this);
    }
    fitBoard(this);
  };
  // The status and the rows of buttons grow and shrink with what they say.
  sizeWatch = new ResizeObserver(() => fitBoard(this));

  /**
   * @param {HTMLElement} root
   * @param {TableInfo} table
   * @param {string | null} token
   * @param {URLSearchParams} params
   * @param {Nav} nav
   */
  constructor(root, table, token, params, nav) {
    this.root = root;
    this.nav = nav;
    this.table = table;
    this.token = token;
    /** @type {number | null} */
    this.seat = typeof table.viewer === 'object' ? table.viewer.seat : null;
    this.game = table.game;
    this.ui = uiFor(table.game);
    /** @type {StateView} */
    this.view = table.state;
    this.seats = table.seats;
    this.status = table.status;
    /** How the table ended early (resigned, forfeit, closed, abandoned). @type {import('./types.js').Ending | null} */
    this.ending = table.ending || null;
    this.pick = this.ui.emptyPick();
    /** The last version whose events were announced. */
    this.noticed = table.state.version;
    /** The rematch of this finished table, once a player asked for it. @type {string | null} */
    this.rematchId = table.rematch || null;
    this.invitedSeat = params.has('seat') ? Number(params.get('seat')) : null;
    this.lastDice = JSON.stringify(this.view.observation && this.view.observation.dice);
    /** A rated table's ratings and, at the end, rating changes. */
    this.rated = table.rated ? new TableRatings(table, () => this.render()) : null;
    /** The seats' clocks (none without a time control). */
    this.clocks = new SeatClocks(table.clock || null);
    attachBoardInput(this.boardBox, {
      click: (t) => choose(this, t),
      drag: (from, to) => drag(this, from, to),
      draggable: () => this.myTurn(),
    });
    this.build();
    this.render();
    loadEarlierMoves(this);
    this.socket = connect(this, token, () => this.view.version);
    this.listen();
    // A guest who chose a seat here, then signed in, takes it now.
    const chosen = this.seat === null ? joinAfterSignIn(table.id) : null;
    if (chosen !== null) join(this, chosen);
  }

  /** Starts listening to the keyboard and to the window's and the board's size. */
  listen() {
    document.addEventListener('keydown', this.keyHandler);
    this.wasPortrait = this.ctx().portrait;
    window.addEventListener('resize', this.resizeHandler);
    this.sizeWatch.observe(this.statusBar);
    this.sizeWatch.observe(this.controls);
  }

  close() {
    this.clocks.stop();
    this.rated?.close();
    this.socket.close();
    document.removeEventListener('keydown', this.keyHandler);
    window.removeEventListener('resize', this.resizeHandler);
    this.sizeWatch.disconnect();
  }

  // ---- the page skeleton (built once) ----

  build() {
    replace(this.root, h('div', { class: 'table-view' },
      h('section', { class: 'board-col', 'aria-label': t('table.board') },
        this.statusBar,
        h('div', { style: 'position: relative' }, this.boardBox, this.overlay),
        this.controls, this.errorBox, this.notationForm, this.keysHelp),
      h('aside', { class: 'side-col' },
        this.seatsBox, this.seatMenu, this.invitesBox, this.hintsBox,
        h('div', { class: 'panel' }, h('h2', {}, t('table.moves')), this.logList),
        h('details', { class: 'panel more' }, h('summary', {}, t('table.all_moves')), h('p', { class: 'small muted' }, t('table.all_moves_help')), this.allMoves),
        this.infoBox)));
  }

  // ---- state ----

  /** Whether the game is over: played out, or ended early. */
  isOver() {
    return this.view.turn.kind === 'over' || this.ending !== null;
  }

  myTurn() {
    return this.seat !== null && !this.isOver() && !this.between && this.view.turn.kind === 'player' && this.view.turn.seat === this.seat && !this.busy
      && this.queue.length === 0
      && this.view.version !== this.sentAt;
  }

  /**
   * The last move by a player up to the position shown, to mark it.
   * @returns {{seat: number, json: any} | null}
   */
  lastMove() {
    for (let v = this.shownVersion(); v > this.gameStart; v--) {
      const e = this.log.get(v);
      if (e && e.seat !== null && e.seat !== undefined && e.json !== undefined) return { seat: e.seat, json: e.json };
      if (!e) return null;
    }
    return null;
  }

  /** The version on the board: a finished match game's last while it is shown. */
  shownVersion() {
    return this.between ? this.between.version : this.view.version;
  }

  /** The step of the last move on the board, while it is shown step by step. */
  shownFrame() {
    const f = this.frame;
    return f && f.version === this.shownVersion() && this.ui.withBoard ? f : null;
  }

  /** @returns {import('./types.js').BoardContext} */
  ctx() {
    const obs = this.between ? this.between.obs : this.view.observation;
    const frame = this.shownFrame();
    const slid = this.slideVersion === this.view.version;
    return {
      obs: frame && this.ui.withBoard ? this.ui.withBoard(obs, frame.boards[frame.step]) : obs,
      legal: this.myTurn() ? this.view.legal || [] : [],
      steps: this.myTurn() ? this.view.steps || null : null,
      last: this.lastMove(),
      seat: this.seat,
      names: this.seats.map((s) => shortName(s, this.seat, this.seats)),
      pick: this.pick,
      preview: this.preview,
      text: this.view.text,
      portrait: window.innerWidth < 700 && window.innerHeight > window.innerWidth,
      slideMs: slid ? (frame ? frame.ms : this.slideMs) : 0,
      frame: frame ? { boards: frame.boards, step: frame.step } : null,
    };
  }


  /** @param {StateView} state */
  setView(state) {
    if (state.version < this.view.version) return;
    const changed = state.version !== this.view.version;
    this.view = state;
    if (changed) {
      this.pick = this.ui.emptyPick();
      this.preview = null;
      this.error = '';
      const dice = JSON.stringify(state.observation && state.observation.dice);
      if (dice !== this.lastDice && dice !== undefined && dice !== 'null') this.rolledAt = Date.now();
      this.lastDice = dice;
    }
  }

  /** @param {number} version @param {any} action @param {GameEvent[] | undefined} events */
  addLog(version, action, events) {
    const known = this.log.get(version);
    /** @type {LogEntry} */
    const entry = {
      seat: action ? action.seat : known?.seat,
      auto: action ? action.auto : known?.auto,
      hidden: action ? action.hidden : known?.hidden,
      text: action && !action.hidden ? action.text : known?.text,
      json: action && !action.hidden ? action.json : known?.json,
      events: events && events.length ? events : known?.events || [],
    };
    this.log.set(version, entry);
  }




  render() {
    renderStatus(this);
    renderBoard(this);
    renderControls(this);
    fitBoard(this);
    renderSeats(this);
    renderSeatMenu(this);
    renderInvites(this);
    renderHints(this, false);
    renderLog(this);
    renderAllMoves(this);
    renderInfo(this);
  }
















  /**
   * A seat as events name it: "You" for the viewer, otherwise its role
   * (colour, side or number as the page shows it).
   * @param {number} seat
   */
  who(seat) {
    if (seat === this.seat) return t('name.you');
    return seatRole(this.game, seat, this.view.observation);
  }

  /** An event in words. @param {GameEvent} e */
  eventText(e) {
    return eventText(e, (p) => this.who(p));
  }


}
