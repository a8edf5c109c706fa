// @ts-check
/**
 * The table view: the board, whose turn it is, building and confirming a
 * move, buttons for the other actions, a notation box, hints, the move log,
 * prompts (cube, Stumpvarning), game over with a rematch, invites and
 * spectators. Live updates come over the table's WebSocket.
 */

import * as api from './api.js';
import * as store from './store.js';
import { fitToRoom, h, replace } from './dom.js';
import { uiFor } from './games/index.js';
import { actionLabel, colourName, gameNameById, inactivityText, optionLabel, optionValue, seatColour, seatPerson, seatRole, shortName } from './names.js';
import { attachBoardInput } from './input.js';
import { typingChooser } from './keys.js';
import { turnChime } from './sound.js';
import { SeatClocks, autoRollChoice } from './clock.js';
import { toast } from './toast.js';
import { chanceText, eventText, isWarning, matchGameEnded, moveInViewersTerms, stumphogMoveText } from './events.js';
import * as prompts from './prompts.js';
import { invite } from './prompts.js';
import { shortCommitment } from './dice.js';
import { ltr, t } from './i18n.js';
import { errorText } from './errors.js';
import { account, guestKey } from './account.js';
import { TableRatings, joinAfterSignIn, ratedMark, seatName, signInDialog, signInFirst } from './rated.js';

/** @typedef {import('./types.js').TableInfo} TableInfo */
/** @typedef {import('./types.js').StateView} StateView */
/** @typedef {import('./types.js').ActionInfo} ActionInfo */
/** @typedef {import('./types.js').SeatInfo} SeatInfo */
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

class TableView {
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
    /** Asking to resign: the confirmation is shown. */
    this.confirmingResign = false;
    /** The link that continues this seat elsewhere, once asked for. @type {string | null} */
    this.seatUrl = null;
    this.pick = this.ui.emptyPick();
    /** @type {ActionInfo | null} */
    this.preview = null;
    /** @type {Hint[] | null} */
    this.hints = null;
    this.hintsVersion = -1;
    this.hintError = '';
    /** @type {Map<number, LogEntry>} */
    this.log = new Map();
    this.busy = false;
    /** Whether it was the player's turn at the last drawing (null: not drawn yet). @type {boolean | null} */
    this.wasMine = null;
    this.error = '';
    this.conn = 'connecting';
    this.overDismissed = false;
    /** The last version whose events were announced. */
    this.noticed = table.state.version;
    /** @type {string | null} */
    this.banner = null;
    /** The rematch of this finished table, once a player asked for it. @type {string | null} */
    this.rematchId = table.rematch || null;
    /** The seat that asked for the rematch, when told here. @type {number | null} */
    this.rematchBy = null;
    this.invitedSeat = params.has('seat') ? Number(params.get('seat')) : null;
    /** Events waiting to be shown, one after another. @type {any[]} */
    this.queue = [];
    /** Until when (ms since the epoch) the last shown event stays before the next. */
    this.shownUntil = 0;
    this.pumping = false;
    /**
     * A game of the match just ended (at `version`): its result and its
     * final position (`obs`), shown until the player goes on.
     * @type {{lines: string[], obs: any, version: number, go: () => void} | null}
     */
    this.between = null;
    /** Held after a reload until the player goes on from the last match game: the next game's moves wait. @type {Promise<void> | null} */
    this.held = null;
    /** The version at which the game on the board began (a match's next game): no earlier move is marked. */
    this.gameStart = 0;
    /** The version whose move slides in, and over how long (ms). */
    this.slideVersion = -1;
    this.slideMs = 0;
    /**
     * The move at `version` shown step by step: the positions it passed
     * through as the server sent them, the step on the board, and each
     * step's time (ms).
     * @type {{version: number, boards: any[], step: number, ms: number} | null}
     */
    this.frame = null;
    /** Settles when the move shown step by step has shown its last step. @type {Promise<void> | null} */
    this.framesDone = null;
    /** The version a move was sent at: not ours to play again. @type {number | null} */
    this.sentAt = null;
    this.lastDice = JSON.stringify(this.view.observation && this.view.observation.dice);
    this.rolledAt = 0;
    this.statusBar = h('div', { class: 'status-bar', role: 'status', 'aria-live': 'polite' });
    this.boardBox = h('div', { class: 'board-wrap' });
    this.overlay = h('div');
    this.controls = h('div', { class: 'controls' });
    this.errorBox = h('div', { role: 'alert' });
    this.notationInput = h('input', { type: 'text', name: 'move', placeholder: t('table.notation_placeholder'), 'aria-label': t('table.notation_label'), autocomplete: 'off', spellcheck: 'false' });
    this.notationForm = h('form', { class: 'notation', onsubmit: (/** @type {Event} */ e) => { e.preventDefault(); this.sendNotation(); } },
      this.notationInput, h('button', { class: 'btn', type: 'submit' }, t('table.play')));
    this.keysHelp = h('p', { class: 'small muted keys-help', 'data-testid': 'keys-help' }, t('keys.help'));
    this.seatsBox = h('div', { class: 'panel' });
    this.seatMenu = h('div');
    this.invitesBox = h('div');
    this.hintsBox = h('div', { class: 'panel' });
    // Focusable, so that the moves can be scrolled with the keyboard.
    this.logList = h('ol', { class: 'log', 'aria-label': t('table.moves_so_far'), tabindex: 0 });
    this.allMoves = h('div', { class: 'action-list' });
    this.infoBox = h('div', { class: 'panel small' });
    /** A rated table's ratings and, at the end, rating changes. */
    this.rated = table.rated ? new TableRatings(table, () => this.render()) : null;
    /** The seats' clocks (none without a time control). */
    this.clocks = new SeatClocks(table.clock || null);
    attachBoardInput(this.boardBox, {
      click: (t) => this.choose(t),
      drag: (from, to) => this.drag(from, to),
      draggable: () => this.myTurn(),
    });
    this.build();
    this.render();
    this.loadEarlierMoves();
    this.socket = new api.TableSocket(table.id, token, {
      onMessage: (m) => this.onMessage(m),
      onStatus: (st) => this.onStatus(st),
      since: () => this.view.version,
    });
    this.typing = typingChooser({
      choices: () => (this.myTurn()
        ? [...this.boardBox.querySelectorAll('[data-target][data-state="src"], [data-target][data-state="dest"], [data-target].can-pick')]
          .map((el) => /** @type {string} */ (el.getAttribute('data-target')))
        : []),
      choose: (id) => this.choose(id, false),
    });
    this.keyHandler = (/** @type {KeyboardEvent} */ e) => this.onKey(e);
    document.addEventListener('keydown', this.keyHandler);
    this.wasPortrait = this.ctx().portrait;
    this.resizeHandler = () => {
      if (this.ctx().portrait !== this.wasPortrait) {
        this.wasPortrait = this.ctx().portrait;
        this.renderBoard();
      }
      this.fitBoard();
    };
    window.addEventListener('resize', this.resizeHandler);
    // The status and the rows of buttons grow and shrink with what they say.
    this.sizeWatch = new ResizeObserver(() => this.fitBoard());
    this.sizeWatch.observe(this.statusBar);
    this.sizeWatch.observe(this.controls);
    // A guest who chose a seat here, then signed in, takes it now.
    const chosen = this.seat === null ? joinAfterSignIn(table.id) : null;
    if (chosen !== null) this.join(chosen);
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

  /**
   * Shows the move at `version` step by step, over `ms` in all, from the
   * positions the server sent with it (`boards`, the one before it first),
   * where the game draws them; the first step is drawn by the next render.
   * `framesDone` settles once the last step is drawn (or another position
   * replaced the move's).
   * @param {number} version @param {any[] | undefined} boards @param {number} ms
   */
  startFrames(version, boards, ms) {
    const steps = Array.isArray(boards) ? boards.length - 1 : 0;
    if (!this.ui.withBoard || steps < 1 || ms <= 0) {
      this.frame = null;
      return;
    }
    const frame = { version, boards: /** @type {any[]} */ (boards), step: 1, ms: Math.round(ms / steps) };
    this.frame = frame;
    this.framesDone = new Promise((done) => {
      const next = () => {
        if (this.frame !== frame || this.shownVersion() !== version || frame.step >= steps) {
          if (this.frame === frame) this.frame = null;
          done(undefined);
          return;
        }
        frame.step += 1;
        this.slideVersion = this.view.version;
        this.renderBoard();
        setTimeout(next, frame.ms);
      };
      setTimeout(next, frame.ms);
    });
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

  /**
   * The moves before this page opened, with who made them and their
   * events; in a match, the last game's final position and result again
   * if the player had not gone on from it.
   */
  async loadEarlierMoves() {
    if (this.table.hidden_information && this.view.turn.kind !== 'over') return;
    /** @type {any[]} */
    let steps;
    try {
      steps = (await api.getReplay(this.table.id, this.seat)).steps || [];
    } catch {
      // Not available yet: the log starts now.
      return;
    }
    for (const step of steps) {
      if (step.version === 0 || this.log.has(step.version)) continue;
      this.log.set(step.version, { seat: step.seat, auto: step.auto, text: step.text ?? undefined, json: step.json, events: step.events || [] });
    }
    this.resumeBetween(steps);
    this.renderLog();
  }

  /**
   * After a reload in a match: the last game that ended, if the player has
   * not gone on from it (here, or by moving in the next game), is shown
   * again with its result until he does.
   * @param {any[]} steps the replay's steps
   */
  resumeBetween(steps) {
    if (this.between || this.held || this.isOver()) return;
    for (let i = steps.length - 1; i > 0; i--) {
      const before = steps[i - 1].state.observation;
      const after = steps[i].state.observation;
      const lines = matchGameEnded(this.game, before, after, (p) => this.who(p));
      if (lines.length === 0) continue;
      const version = steps[i].version;
      const movedSince = steps.slice(i + 1).some((st) => st.seat === this.seat && this.seat !== null && !st.auto);
      if (store.wentOn(this.table.id) >= version || movedSince || version <= this.gameStart) {
        this.gameStart = Math.max(this.gameStart, version);
        return;
      }
      this.held = this.holdBetween(lines, finalPosition(before, steps[i], after), version).then(() => { this.held = null; });
      return;
    }
  }

  /**
   * Shows a finished match game's final position and result until the
   * player goes on, and remembers that he did.
   * @param {string[]} lines @param {any} obs @param {number} version
   */
  async holdBetween(lines, obs, version) {
    await new Promise((resolve) => {
      this.between = { lines, obs, version, go: () => resolve(undefined) };
      this.render();
    });
    store.setWentOn(this.table.id, version);
    this.between = null;
    this.gameStart = version;
    this.render();
  }

  // ---- messages from the server ----

  /** @param {any} m */
  onMessage(m) {
    // The clocks run in real time: taken at once, not when the queue shows the event.
    if (m.clock !== undefined) this.clocks.update(m.clock);
    switch (m.type) {
      case 'welcome':
        this.seats = m.seats;
        this.status = m.status;
        if (typeof m.viewer === 'object' && m.viewer) this.seat = m.viewer.seat;
        break;
      case 'event':
        this.queue.push(m);
        // The shown position is no longer the table's: no decision on it.
        if (this.pumping) this.render();
        this.pump();
        return;
      case 'sync':
        this.queue = [];
        this.seats = m.seats;
        this.status = m.status;
        this.ending = m.ending || null;
        this.rematchId = m.rematch || this.rematchId;
        this.setView(m.state);
        break;
      case 'seats':
        this.seats = m.seats;
        this.status = m.status;
        break;
      case 'rematch':
        this.rematchId = m.rematch;
        this.rematchBy = m.by;
        // The offer comes back into view, also after "See the board".
        this.overDismissed = false;
        break;
      case 'error':
        this.error = t('error.refused');
        break;
      default:
        return;
    }
    this.render();
  }

  /**
   * Shows the queued events one after another: after a move by someone
   * else (or chance) a pause of the chosen speed, so that each can be
   * followed; the moved pieces stay marked until the next move.
   */
  async pump() {
    if (this.pumping) return;
    this.pumping = true;
    try {
      while (this.queue.length > 0) {
        if (this.held) await this.held;
        // A move shown step by step shows every step before the next event.
        if (this.framesDone) await this.framesDone;
        this.framesDone = null;
        // What was shown last stays for its pause, however late the next
        // event comes (the computer's move is not replaced by your roll at
        // once); a sync may empty the queue meanwhile.
        // An action of my seat (mine, or the server's for me) is not held
        // back; nor is anything after a chance event.
        const next = this.queue[0];
        const mine = next.action && next.action.seat === this.seat;
        const wait = mine ? 0 : this.shownUntil - Date.now();
        if (wait > 0) {
          await new Promise((r) => setTimeout(r, wait));
          continue;
        }
        const m = this.queue.shift();
        if (m.version <= this.view.version) {
          this.addLog(m.version, m.action, m.events);
          continue;
        }
        this.addLog(m.version, m.action, m.events);
        this.noticeEvents(m);
        if (m.version > this.view.version + 1) {
          this.queue = [];
          this.socket.resync();
          break;
        }
        const before = this.view.observation;
        this.setView(m.state);
        if (m.state.turn.kind === 'over') this.status = 'finished';
        // Moves by others, and the server's forced moves for me, are shown
        // one at a time: the pieces slide in, then a pause.
        const shown = m.action && (m.action.seat !== this.seat || m.action.auto);
        const pause = store.SPEED_PAUSE[store.speed()];
        const chance = m.action && (m.action.seat === null || m.action.seat === undefined);
        this.slideMs = shown && !chance ? Math.round(pause * 0.6) : 0;
        this.slideVersion = m.version;
        this.startFrames(m.version, m.action && m.action.boards, this.slideMs);
        this.render();
        // A game of a match ended: its result and the score stay until the
        // player goes on; the next game's moves wait meanwhile.
        const ended = matchGameEnded(this.game, before, m.state.observation, (p) => this.who(p));
        if (ended.length > 0) await this.holdBetween(ended, finalPosition(before, m.action, m.state.observation), m.version);
        this.shownUntil = shown && !chance && pause > 0 ? Date.now() + pause : 0;
        if (chance && pause > 0 && this.queue.length > 0) {
          await new Promise((r) => setTimeout(r, pause / 3));
        }
      }
    } finally {
      this.pumping = false;
    }
  }

  /** Toasts and banners for events and the server's own moves for me. @param {any} m */
  noticeEvents(m) {
    if (m.version <= this.noticed) return;
    this.noticed = m.version;
    for (const e of m.events || []) {
      if (isWarning(e)) {
        this.banner = this.eventText(e);
      }
    }
    const a = m.action;
    if (a && a.seat === this.seat && a.auto && this.seat !== null) {
      toast(a.text === 'pass' ? t('table.auto_pass') : t('table.auto_move', { move: ltr(a.text) }));
    }
  }

  /** @param {'connecting' | 'open' | 'closed' | 'refused'} st */
  onStatus(st) {
    this.conn = st;
    if (st === 'refused') {
      this.token = null;
      this.seat = null;
      this.socket.close();
      this.socket = new api.TableSocket(this.table.id, null, {
        onMessage: (m) => this.onMessage(m),
        onStatus: (s2) => this.onStatus(s2),
        since: () => null,
      });
    }
    this.renderStatus();
  }

  // ---- actions ----

  /** @param {string} t */
  /**
   * Chooses a board target.
   * @param {string} t
   * @param {boolean} [focus] keep the focus on it (false: the page keeps
   *   it, so that Enter confirms after typing)
   */
  choose(t, focus = true) {
    if (!this.myTurn()) return;
    this.pick = this.ui.choose(this.ctx(), t);
    this.preview = null;
    this.renderBoard(focus ? t : undefined);
    this.renderControls();
    this.renderStatus();
  }

  /** @param {string} from @param {string} to */
  drag(from, to) {
    if (!this.myTurn() || !this.ui.drag) return;
    this.pick = this.ui.drag(this.ctx(), from, to);
    this.renderBoard();
    this.renderControls();
    this.renderStatus();
  }

  undo() {
    this.pick = this.ui.undo(this.ctx());
    this.render();
  }

  confirm() {
    const action = this.ui.complete(this.ctx());
    if (action) this.send({ json: action.json });
  }

  /** @param {{json?: any, action?: string}} body */
  async send(body) {
    if (!this.token || this.busy) return;
    this.busy = true;
    this.error = '';
    this.renderControls();
    try {
      const at = this.view.version;
      const res = await api.act(this.table.id, this.token, at, body);
      for (const a of res.actions) this.addLog(a.version, a, undefined);
      // Live, the events show the answers one after another; otherwise jump.
      this.sentAt = at;
      if (this.conn !== 'open') this.setView(res.state);
      this.notationInput.value = '';
    } catch (e) {
      if (e instanceof api.ApiError && (e.code === 'stale_version' || e.code === 'not_your_turn')) {
        this.error = t('table.moved_on');
        this.socket.resync();
      } else {
        this.error = errorText(e);
      }
    } finally {
      this.busy = false;
      this.render();
    }
  }

  sendNotation() {
    const text = this.notationInput.value.trim();
    if (!text) return;
    if (!this.myTurn()) {
      this.error = t('table.not_your_turn');
      this.renderControls();
      return;
    }
    this.send({ action: text });
  }

  async askHints() {
    if (!this.token) return;
    this.hintError = '';
    this.hints = null;
    this.hintsVersion = this.view.version;
    this.renderHints(true);
    try {
      const res = await api.getHints(this.table.id, this.token);
      if (this.view.version !== this.hintsVersion) return;
      this.hints = sortedHints(res.hints);
    } catch (e) {
      this.hintError = e instanceof api.ApiError && e.status === 404 && e.code !== 'not_found'
        ? t('hints.unavailable')
        : errorText(e);
    }
    this.renderHints(false);
  }

  /** @param {number} seat */
  async join(seat) {
    // A rated table's seats are for accounts: sign in first.
    if (signInFirst(this.table, seat)) return;
    const name = store.playerName();
    try {
      // The key makes a retried join (its answer lost) return the same seat;
      // the seed is this seat's share in the dice (docs/server.md).
      const body = { seat, name: name || undefined, player: guestKey(), key: store.newSecret(16), seed: store.newSecret(8) };
      const res = await api.joinTable(this.table.id, body).catch((e) => {
        if (e instanceof api.ApiError) throw e;
        return api.joinTable(this.table.id, body);
      });
      store.rememberSeat(this.table.id, res.seat, res.token);
      this.close();
      this.nav.go(`/t/${this.table.id}`);
    } catch (e) {
      this.error = errorText(e);
      this.render();
    }
  }

  /**
   * Asks for the rematch (or takes up the one another player asked for):
   * the same table again, the computers in their seats, every player of
   * this table kept his seat there; then takes this seat in it.
   */
  async rematch() {
    const token = this.token;
    if (!token) return;
    try {
      let id = this.rematchId;
      if (!id) {
        id = (await api.rematch(this.table.id, token, store.playerKey())).rematch;
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
      this.close();
      this.nav.go(`/t/${id}`);
    } catch (e) {
      this.error = errorText(e);
      this.render();
    }
  }

  /** Resigns this seat (after the confirmation): the game ends, this seat loses. */
  async resign() {
    if (!this.token) return;
    this.confirmingResign = false;
    try {
      const table = await api.resign(this.table.id, this.token);
      this.ending = table.ending || this.ending;
      this.status = table.status;
    } catch (e) {
      this.error = errorText(e);
    }
    this.render();
  }

  /** Closes the table before it starts (its creator only). */
  async closeTable() {
    try {
      const table = await api.closeTable(this.table.id, guestKey());
      this.ending = table.ending || this.ending;
      this.status = table.status;
    } catch (e) {
      this.error = errorText(e);
    }
    this.render();
  }

  /** Fetches the link that continues this seat on another device, and shows it. */
  async showSeatLink() {
    if (!this.token) return;
    try {
      const link = await api.seatLink(this.table.id, this.token);
      this.seatUrl = `${location.origin}${link.url}`;
    } catch (e) {
      this.error = errorText(e);
    }
    this.render();
  }

  /** @param {KeyboardEvent} e */
  onKey(e) {
    const target = /** @type {HTMLElement | null} */ (e.target);
    if (target && (target.tagName === 'INPUT' || target.tagName === 'SELECT' || target.tagName === 'TEXTAREA')) return;
    if (e.key === 'Enter' && !(target && target.closest('[data-target][data-state], [data-target].can-pick, button, a'))) {
      if (this.myTurn() && this.ui.complete(this.ctx())) {
        e.preventDefault();
        this.confirm();
      }
    } else if ((e.key === 'Escape' || e.key === 'Backspace') && this.myTurn() && !this.ui.isEmpty(this.ctx())) {
      e.preventDefault();
      this.undo();
    } else if (e.key.length === 1 && /[0-9a-z]/i.test(e.key) && !e.ctrlKey && !e.metaKey && !e.altKey && this.myTurn()
      && !(target && target.closest('button, a')) && this.typing.key(e.key)) {
      e.preventDefault();
    } else if (e.key === 'h' && this.myTurn()) {
      this.askHints();
    }
  }

  // ---- drawing ----

  render() {
    this.renderStatus();
    this.renderBoard();
    this.renderControls();
    this.fitBoard();
    this.renderSeats();
    this.renderSeatMenu();
    this.renderInvites();
    this.renderHints(false);
    this.renderLog();
    this.renderAllMoves();
    this.renderInfo();
  }

  /** Whose turn, in words. */
  turnText() {
    const turn = this.view.turn;
    if (this.ending) return { main: this.endingText(), sub: '' };
    if (this.between) return { main: t('table.game_over'), sub: '' };
    if (turn.kind === 'over') return { main: t('turn.over', { result: this.resultText() }), sub: '' };
    if (turn.kind === 'chance') return { main: t('turn.chance'), sub: '' };
    const seat = this.seats[turn.seat];
    const role = seatRole(this.game, turn.seat, this.view.observation);
    if (turn.seat === this.seat) {
      return { main: t('turn.yours', { role }), sub: this.ui.prompt(this.ctx()) };
    }
    if (seat && seat.kind === 'ai') return { main: t('turn.thinking', { who: shortName(seat, this.seat, this.seats) }), sub: t('turn.to_move', { who: role }) };
    if (seat && seat.kind === 'open') return { main: t('turn.waiting', { role }), sub: t(this.table.rematch_of ? 'invite.kept' : 'turn.send_invite') };
    return { main: t('turn.to_move', { who: seat ? shortName(seat, this.seat, this.seats) : role }), sub: role };
  }

  renderStatus() {
    const turn = this.turnText();
    const mine = this.myTurn();
    const summary = this.ui.summary(this.between ? this.between.obs : this.view.observation);
    const connText = this.conn === 'open' ? t('conn.live') : this.conn === 'refused' ? t('conn.watching') : t('conn.reconnecting');
    this.statusBar.className = `status-bar${mine ? ' your-turn' : ''}`;
    document.title = mine ? `● ${t('title.your_turn')} · spelbord` : `${t('title.table')} · spelbord`;
    // The sound (if the player wants it) when the turn comes, not on opening the page.
    if (mine && this.wasMine === false) turnChime();
    this.wasMine = mine;
    replace(this.statusBar,
      h('span', { class: 'turn-dot', 'aria-hidden': 'true' }),
      h('div', { style: 'flex: 1' },
        h('div', { class: 'status-text', 'data-testid': 'turn' }, turn.main),
        turn.sub ? h('div', { class: 'status-sub', 'data-testid': 'prompt' }, turn.sub) : null,
        summary ? h('div', { class: 'status-sub' }, summary) : null),
      h('span', { class: `conn${this.conn === 'open' ? '' : ' bad'}`, 'data-testid': 'conn', title: t('conn.title') }, connText));
  }

  /** @param {string} [focusTarget] the target to keep focused */
  renderBoard(focusTarget) {
    const active = /** @type {Element | null} */ (document.activeElement);
    const keep = focusTarget || (active && active.getAttribute && active.getAttribute('data-target'));
    const svg = this.ui.render(this.ctx());
    this.boardBox.className = `board-wrap game-${this.game}${Date.now() - this.rolledAt < 900 ? ' just-rolled' : ''}${this.myTurn() ? ' my-turn' : ''}`;
    this.boardBox.dataset.version = String(this.view.version);
    replace(this.boardBox, svg);
    // The slide plays once; later drawings of this position stand still.
    if (this.slideVersion === this.view.version) this.slideVersion = -1;
    if (keep) {
      const again = /** @type {SVGElement | null} */ (this.boardBox.querySelector(`[data-target="${CSS.escape(keep)}"]`));
      if (again && active && (active === document.body || !document.contains(active))) again.focus();
    }
    this.renderOverlay();
  }

  /**
   * On a phone, holds the board to the room between the status bar and the
   * buttons (which stay at the foot of the screen), so that they never
   * cover its bottom strip, however many rows they take; but never so
   * small that a target is under 44 px to tap (then the page scrolls).
   */
  fitBoard() {
    fitToRoom(this.boardBox, this.controls, 44);
  }

  renderOverlay() {
    const turn = this.view.turn;
    const legal = this.myTurn() ? this.view.legal || [] : [];
    const people = { game: this.game, obs: this.view.observation, seats: this.seats, seat: this.seat };
    if (this.ending && !this.ending.returns && !this.overDismissed) {
      replace(this.overlay, prompts.closedDialog(this.endingText(), {
        lobby: () => { this.close(); this.nav.go('/'); },
        dismiss: () => { this.overDismissed = true; this.renderOverlay(); },
      }));
      return;
    }
    if (this.confirmingResign && !this.isOver()) {
      replace(this.overlay, prompts.resignDialog({
        resign: () => this.resign(),
        cancel: () => { this.confirmingResign = false; this.renderOverlay(); },
      }));
      return;
    }
    if (this.isOver() && !this.overDismissed) {
      const replayPath = `/t/${this.table.id}?replay`;
      replace(this.overlay, prompts.gameOverDialog(people, this.view.returns || this.ending?.returns || [], this.ending ? { early: this.endingText() } : this.view.outcome, {
        rematch: this.seat !== null && this.token ? () => this.rematch() : null,
        rematchOffer: this.rematchOffer(),
        watchRematch: this.rematchId ? `/t/${this.rematchId}` : null,
        watch: () => { if (this.rematchId) { this.close(); this.nav.go(`/t/${this.rematchId}`); } },
        replay: () => { this.close(); this.nav.go(replayPath); },
        replayPath,
        // A game played out (not closed early) can be reviewed.
        analyse: this.ending ? null : () => { this.close(); this.nav.go(`${replayPath}&analyse`); },
        analysePath: `${replayPath}&analyse`,
        recordUrl: api.recordUrl(this.table.id),
        recordName: `${this.game}-${this.table.id}.json`,
        dismiss: () => { this.overDismissed = true; this.renderOverlay(); },
        extra: this.rated ? this.rated.overBox(this.seats, (s) => s.account || '') : null,
      }));
      return;
    }
    if (this.seat === null && this.invitedSeat !== null && this.table.rated && !account() && this.seats[this.invitedSeat]?.kind === 'open') {
      const seat = this.invitedSeat;
      replace(this.overlay, signInDialog(this.table, seat, seatRole(this.game, seat, this.view.observation), () => { this.invitedSeat = null; this.renderOverlay(); }));
      return;
    }
    if (this.seat === null && this.invitedSeat !== null && this.seats[this.invitedSeat]?.kind === 'open') {
      const seat = this.invitedSeat;
      replace(this.overlay, prompts.joinDialog(people, seat, {
        join: () => this.join(seat),
        watch: () => { this.invitedSeat = null; this.renderOverlay(); },
      }));
      return;
    }
    replace(this.overlay);
  }

  /** Who asked for the rematch, in words, when another player did. */
  rematchOffer() {
    if (!this.rematchId) return null;
    const by = this.rematchBy;
    if (this.seat === null) return t('over.rematch_started');
    if (by === null || by === this.seat) return t('over.rematch_made');
    return t('over.rematch_asked', { who: shortName(this.seats[by], this.seat, this.seats) });
  }

  /** The result in a few words. */
  resultText() {
    return prompts.resultText({ game: this.game, obs: this.view.observation, seats: this.seats, seat: this.seat }, this.view.returns || []);
  }

  /** How the table ended early, in words. */
  endingText() {
    const e = this.ending;
    if (!e) return '';
    const who = e.seat === null || e.seat === undefined ? '' : e.seat === this.seat ? t('name.you') : shortName(this.seats[e.seat], this.seat, this.seats);
    const you = e.seat === this.seat;
    switch (e.reason) {
      case 'resigned': return t(you ? 'early.resigned.you' : 'early.resigned', { who });
      case 'forfeit': return t(you ? 'early.forfeit.you' : 'early.forfeit', { who });
      case 'time': return t(you ? 'early.time.you' : 'early.time', { who });
      case 'closed': return t('early.closed');
      default: return t('early.abandoned');
    }
  }

  renderControls() {
    const mine = this.myTurn();
    const ctx = this.ctx();
    const legal = mine ? this.view.legal || [] : [];
    const complete = mine ? this.ui.complete(ctx) : null;
    const offBoard = legal.filter((a) => !this.ui.onBoard(a) && !['double', 'roll', 'take', 'drop'].includes(a.json));
    const parts = [];
    // The cube's question and a Stumpvarning stand in this row, beside the
    // buttons under the board, never over it.
    parts.push(prompts.cubePrompt(legal, this.view.observation, (a) => this.send({ json: a.json })));
    if (this.between) {
      const between = this.between;
      parts.push(h('div', { class: 'inline-prompt', role: 'status', 'data-testid': 'between-games' },
        h('div', { class: 'inline-text' }, h('strong', {}, `${t('table.game_over')} `), between.lines.join(' ')),
        h('button', { class: 'btn primary', 'data-testid': 'next-game', onclick: () => between.go() }, t('table.next_game'))));
    }
    if (this.banner) {
      parts.push(h('div', { class: 'inline-prompt alarm', role: 'alert', 'data-testid': 'warning' }, h('span', {}, this.banner),
        h('button', { class: 'btn small', onclick: () => { this.banner = null; this.renderControls(); } }, t('table.ok'))));
    }
    if (mine && legal.some((a) => this.ui.onBoard(a))) {
      parts.push(h('button', { class: 'btn', 'data-testid': 'undo', disabled: this.ui.isEmpty(ctx), onclick: () => this.undo(), title: t('table.undo_key') }, `↶ ${t('table.undo')}`));
      parts.push(h('button', { class: 'btn good', 'data-testid': 'confirm', disabled: !complete, onclick: () => this.confirm(), title: t('table.confirm_key') }, `✓ ${t('table.confirm')}`));
    }
    for (const a of offBoard) {
      parts.push(h('button', { class: 'btn primary', 'data-testid': 'action', 'data-action': a.text, onclick: () => this.send({ json: a.json }) }, actionLabel(a)));
    }
    parts.push(h('span', { class: 'grow' }));
    if (this.seat !== null && !this.isOver() && !this.between) {
      parts.push(h('button', { class: 'btn', 'data-testid': 'hint', disabled: !mine, onclick: () => this.askHints(), title: t('table.hint_key') }, t('table.hint')));
    }
    if (this.busy) parts.push(h('span', { class: 'muted small' }, t('table.sending')));
    replace(this.controls, parts);
    replace(this.errorBox, this.error ? h('div', { class: 'error-box', 'data-testid': 'error' }, this.error) : null);
    this.notationForm.style.display = this.seat === null || this.isOver() || this.between ? 'none' : '';
    this.keysHelp.style.display = this.notationForm.style.display;
    const example = legal.find((a) => a.text.length < 24);
    this.notationInput.placeholder = example ? t('table.notation_example', { move: ltr(example.text) }) : t('table.notation_plain');
  }

  renderSeats() {
    const turn = this.view.turn;
    this.rated?.seen(this.seats, this.isOver());
    replace(this.seatsBox, h('h2', {}, this.seat === null ? t('table.players_watching') : t('table.players'), this.rated ? [' ', ratedMark()] : null),
      this.clocks.has() ? h('p', { class: 'small muted', 'data-testid': 'clock-control' }, t('clock.label'), ': ', this.clocks.describe()) : null,
      h('ul', { class: 'seats' }, this.seats.map((s) => {
        const toMove = !this.isOver() && !this.between && turn.kind === 'player' && turn.seat === s.seat;
        return h('li', { class: toMove ? 'to-move' : '' },
          h('span', { class: 'swatch', style: `background: ${seatColour(this.game, s.seat, this.view.observation)}` }),
          this.rated ? seatName(s, seatPerson(s, this.seat, this.seats), this.rated.of(s.seat)) : h('span', { class: 'seat-name' }, seatPerson(s, this.seat, this.seats)),
          h('span', { class: 'badge' }, seatRole(this.game, s.seat, this.view.observation)),
          toMove ? h('span', { class: 'badge turn' }, t('table.to_move')) : null,
          this.clocks.element(s.seat),
          s.kind === 'open' && this.seat === null && !this.isOver() ? h('button', { class: 'btn small', onclick: () => this.join(s.seat) }, t('table.join')) : null);
      })));
  }

  /** This seat's and the creator's choices: continue elsewhere, resign, close. */
  renderSeatMenu() {
    const parts = [];
    if (this.seat !== null && this.token && !this.isOver()) {
      parts.push(h('div', { class: 'row' },
        h('button', { class: 'btn small', 'data-testid': 'seat-link', onclick: () => this.showSeatLink() }, t('table.seat_link')),
        this.status === 'playing'
          ? h('button', { class: 'btn small danger', 'data-testid': 'resign', onclick: () => { this.confirmingResign = true; this.renderOverlay(); } }, t('resign.label'))
          : null));
      if (this.seatUrl) {
        parts.push(prompts.copyLink(this.seatUrl, t('table.your_seat'), 'copy-seat-link', t('table.seat_link_label'), 'seat-url'),
          h('p', { class: 'small muted' }, t('table.seat_link_help')));
      }
    }
    if (this.seat !== null && this.token && !this.isOver()) {
      const row = autoRollChoice(this.table.id, this.token, this.seats[this.seat], this.view.observation, (e) => { this.error = errorText(e); this.render(); });
      if (row) parts.push(row);
    }
    if (this.status === 'waiting' && !this.isOver() && store.createdHere(this.table.id)) {
      parts.push(h('div', { class: 'row' },
        h('button', { class: 'btn small', 'data-testid': 'close-table', onclick: () => this.closeTable() }, t('table.close')),
        h('span', { class: 'small muted' }, t('table.close_help'))));
    }
    replace(this.seatMenu, parts.length ? h('div', { class: 'panel seat-menu' }, h('h2', {}, t('table.this_table')), parts) : null);
    this.seatMenu.style.display = parts.length ? '' : 'none';
  }

  renderInvites() {
    const open = this.seats.filter((s) => s.kind === 'open');
    if (open.length === 0 || this.isOver()) {
      replace(this.invitesBox);
      return;
    }
    if (this.table.rematch_of) {
      // A rematch's seats are kept for the last game's players: no links.
      replace(this.invitesBox, h('div', { class: 'panel', 'data-testid': 'rematch-kept' }, h('p', { class: 'small' }, t('invite.kept'))));
      return;
    }
    replace(this.invitesBox, h('div', { class: 'panel' }, h('h2', {}, t('invite.title')),
      h('p', { class: 'small muted' }, t('invite.help')),
      open.map((s) => invite(`${location.origin}/t/${this.table.id}?seat=${s.seat}`, seatRole(this.game, s.seat, this.view.observation)))));
  }

  /** @param {boolean} loading */
  renderHints(loading) {
    if (this.seat === null || this.isOver()) {
      replace(this.hintsBox);
      this.hintsBox.style.display = 'none';
      return;
    }
    this.hintsBox.style.display = '';
    const stale = this.hintsVersion !== this.view.version;
    const body = [];
    if (loading) body.push(h('p', { class: 'muted small' }, t('hints.thinking')));
    else if (this.hintError) body.push(h('p', { class: 'small' }, this.hintError));
    else if (!this.hints || stale) body.push(h('p', { class: 'muted small' }, t('hints.ask')));
    else if (this.hints.length === 0) body.push(h('p', { class: 'muted small' }, t('hints.none')));
    else {
      body.push(h('ul', { class: 'hints', 'data-testid': 'hints' }, this.hints.map((hint) => {
        const legal = (this.view.legal || []).find((a) => a.text === hint.text) || { text: hint.text, json: hint.json };
        const pct = Math.round(hint.estimate * 100);
        return h('li', {},
          h('button', {
            onclick: () => { this.preview = legal; this.renderBoard(); },
            onmouseenter: () => { this.preview = legal; this.renderBoard(); },
            'aria-label': t('hints.label', { move: ltr(hint.text), pct }),
          },
          h('span', {}, h('code', {}, hint.text), h('div', { class: 'hint-bar' }, h('span', { style: `width: ${pct}%` }))),
          h('span', {}, `${pct}%`)),
          h('button', { class: 'btn small', onclick: () => this.send({ json: hint.json }), 'aria-label': t('hints.play_label', { move: hint.text }) }, t('table.play')),
          hint.equity ? h('div', { class: 'small muted', 'data-testid': 'hint-equity' }, equityText(hint.equity)) : null);
      })));
      body.push(h('p', { class: 'small muted' }, t('hints.explain')));
    }
    replace(this.hintsBox, h('h2', {}, t('hints.title')), body);
  }

  /**
   * The moves so far: each player's move numbered by turn, with who made
   * it (as the page names the seats) and, in Tawla and backgammon, in the
   * viewer's own point numbering, hits and pins said in words; the dice
   * and the games' events between them.
   */
  renderLog() {
    // Nothing after the position on the board: the answers to a move wait
    // for their turn to be shown, a match's next game for Next game.
    const shown = this.shownVersion();
    const versions = [...this.log.keys()].filter((v) => v <= shown).sort((a, b) => a - b);
    const items = [];
    let turn = 0;
    for (const v of versions) {
      const e = /** @type {LogEntry} */ (this.log.get(v));
      if (e.hidden && e.events.length === 0) continue;
      if (e.text) {
        const chance = e.seat === null || e.seat === undefined;
        const seat = chance ? null : this.seats[/** @type {number} */ (e.seat)];
        const who = chance ? t('log.dice') : seat ? shortName(seat, this.seat, this.seats) : '';
        const forced = e.auto && seat && seat.kind !== 'ai';
        const text = chance ? chanceText(e.text) : this.moveText(e.text, /** @type {number} */ (e.seat), e.json);
        if (!chance) turn += 1;
        items.push(h('li', { class: chance ? 'auto chance' : forced ? 'auto' : '', value: chance ? null : turn, 'data-testid': chance ? null : 'log-move' },
          who ? h('span', { class: 'who' }, `${who}: `) : null, h('bdi', { class: 'mv' }, text), forced ? ` (${e.text === 'pass' ? t('log.no_move') : t('log.forced')})` : ''));
      }
      for (const ev of e.events) items.push(h('li', { class: 'event' }, this.eventText(ev)));
    }
    replace(this.logList, items.length ? items : h('li', { class: 'muted', style: 'list-style:none' }, t('log.none')));
    this.logList.scrollTop = this.logList.scrollHeight;
  }

  /**
   * A move's notation as the viewer reads it (see `moveInViewersTerms`);
   * Stumphög's moves, which its notation writes in English words, worded
   * from the action's JSON in the viewer's language.
   * @param {string} text @param {number} mover @param {any} [json]
   */
  moveText(text, mover, json) {
    const colour = /^choose (\w+)$/.exec(text);
    if (colour) return t('log.chose_colour', { colour: colourName(colour[1]) });
    const resign = /^resign:\d+:(\w+)$/.exec(text);
    if (resign) return t(`log.resigns.${resign[1]}`);
    // The cube's words and a pass, in the page's language.
    if (['pass', 'double', 'take', 'drop'].includes(text)) return t(`log.${text}`);
    const otherSide = mover !== (this.seat === 1 ? 1 : 0);
    if (this.game === 'stumphog' && json !== undefined) {
      const worded = stumphogMoveText(json, otherSide);
      if (worded) return worded;
    }
    return moveInViewersTerms(this.game, text, otherSide);
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

  renderAllMoves() {
    const legal = this.myTurn() ? this.ui.candidates(this.ctx()) : [];
    replace(this.allMoves, legal.length
      ? legal.slice(0, 400).map((a) => h('button', { class: 'btn', onclick: () => this.send({ json: a.json }) }, a.text))
      : h('span', { class: 'muted small' }, t('table.nothing_to_play')));
  }

  renderInfo() {
    const opts = Object.entries(this.table.options || {}).map(([k, v]) => `${optionLabel(k)}: ${optionValue(k, v)}`).join(', ');
    const finished = this.isOver();
    replace(this.infoBox,
      h('div', {}, h('strong', {}, `${t('info.game')} `), gameNameById(this.game), opts ? ` (${opts})` : ''),
      this.table.inactivity ? h('div', { 'data-testid': 'table-inactivity' }, h('strong', {}, `${t('info.away')} `), inactivityText(this.table.inactivity)) : null,
      this.table.dice
        ? h('div', { 'data-testid': 'commitment', title: t('info.commitment_help', { hash: this.table.dice.commitment }) },
          h('strong', {}, `${t('info.commitment')} `), shortCommitment(this.table.dice.commitment))
        : null,
      h('div', { class: 'row', style: 'margin-top: .4rem' },
        finished || !this.table.hidden_information
          ? h('a', { href: `/t/${this.table.id}?replay`, onclick: (/** @type {MouseEvent} */ e) => { e.preventDefault(); this.close(); this.nav.go(`/t/${this.table.id}?replay`); } }, t('over.replay'))
          : null,
        finished ? h('a', { href: `/t/${this.table.id}?replay&analyse`, 'data-testid': 'analyse-link', onclick: (/** @type {MouseEvent} */ e) => { e.preventDefault(); this.close(); this.nav.go(`/t/${this.table.id}?replay&analyse`); } }, t('analysis.analyse')) : null,
        finished || !this.table.hidden_information ? h('a', { href: api.recordUrl(this.table.id), download: `${this.game}-${this.table.id}.json` }, t('info.download')) : null,
        h('a', { href: `/?rules=${this.game}`, target: '_blank' }, t('lobby.rules')),
        h('a', { href: '/', onclick: (/** @type {MouseEvent} */ e) => { e.preventDefault(); this.close(); this.nav.go('/'); } }, t('nav.lobby'))),
      h('label', { class: 'small speed' }, `${t('info.speed')} `,
        h('select', {
          'data-testid': 'speed',
          onchange: (/** @type {Event} */ e) => store.setSpeed(/** @type {any} */ (/** @type {HTMLSelectElement} */ (e.target).value)),
        }, store.SPEEDS.map((v) => h('option', { value: v, selected: store.speed() === v }, t(`speed.${v}`))))),
      h('div', { class: 'check-row small' },
        h('input', {
          type: 'checkbox', id: 'sound', 'data-testid': 'sound', checked: store.sound(),
          onchange: (/** @type {Event} */ e) => store.setSound(/** @type {HTMLInputElement} */ (e.target).checked),
        }),
        h('label', { for: 'sound' }, t('info.sound'))));
  }
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

/**
 * A hint's equity in words: the value, and after a play the chances of
 * each result.
 * @param {import('./types.js').Equity} e
 * @returns {string}
 */
export function equityText(e) {
  const pct = (/** @type {number} */ x) => `${(100 * x).toFixed(1)}%`;
  if (e.kind === 'match_winning_chance') return t('equity.match', { pct: pct(e.value) });
  const value = `${e.value >= 0 ? '+' : '−'}${Math.abs(e.value).toFixed(3)}`;
  if (!e.outcomes) return t('equity.cubeful', { value });
  const o = e.outcomes;
  return t('equity.full', {
    value, win: pct(o.win), wg: pct(o.win_gammon), wb: pct(o.win_backgammon),
    lose: pct(1 - o.win), lg: pct(o.lose_gammon), lb: pct(o.lose_backgammon),
  });
}

/**
 * Hints best first: by equity where the computer gives one, else by the
 * chance to win.
 * @param {Hint[]} hints
 * @returns {Hint[]}
 */
export function sortedHints(hints) {
  const byEquity = hints.every((x) => x.equity);
  const key = (/** @type {Hint} */ x) => (byEquity && x.equity ? x.equity.value : x.estimate);
  return [...hints].sort((a, b) => key(b) - key(a));
}
