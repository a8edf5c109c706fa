// @ts-check
/**
 * The live part of the lobby, at its top: quick pairing (a row of the
 * pools of the games picked, one click, a waiting line with Cancel) and the open seeks of the games the
 * player picks (remembered), each accepted with one click; the player's
 * own seeks with Withdraw; the form to post one. All of it, and the lists
 * of tables and the players online per game, kept up to date by the one
 * lobby socket. When a table is made for the player (a `paired` message,
 * or the answer to an accept), the seat's token is kept and the table
 * opens.
 */

import * as api from './api.js';
import * as store from './store.js';
import { guestKey } from './account.js';
import { errorText } from './errors.js';
import { h, replace } from './dom.js';
import { gameName, gameNameById, seatRole } from './names.js';
import { optionsText } from './optionfields.js';
import { LobbySocket } from './lobbysocket.js';
import { seekForm } from './seekform.js';
import { controlText } from './timecontrol.js';
import { t } from './i18n.js';

/** @typedef {import('./types.js').GameInfo} GameInfo */
/** @typedef {import('./types.js').Seek} Seek */
/** @typedef {import('./types.js').PairingPool} PairingPool */
/** @typedef {{go: (path: string) => void}} Nav */

/** The name and key a guest sends with a request (an account's cookie says who he is). */
function who() {
  const name = store.playerName();
  const key = guestKey();
  return { ...(name ? { name } : {}), ...(key ? { player_key: key } : {}) };
}

/** A seek's time control, kind and owner, in words. @param {Seek} seek */
function seekWords(seek) {
  const owner = seek.owner && seek.owner.name ? seek.owner.name : t('seeks.guest');
  const rating = seek.owner && typeof seek.owner.rating === 'number' ? ` (${Math.round(seek.owner.rating)})` : '';
  return { owner: `${owner}${rating}`, clock: controlText(seek.clock) };
}

/** @typedef {(table: string, seat: number, token: string) => void} Enter */
/** @typedef {{show: (e: unknown) => void, clear: () => void}} Errors */

/**
 * The live lobby. `tables` is told every list of listed tables the socket
 * sends; `close` ends the connection (and leaves the pairing queue).
 * @param {GameInfo[]} games @param {string} first the game chosen at first
 * @param {Nav} nav @param {(tables: any[]) => void} tables
 */
export function lobbyLive(games, first, nav, tables) {
  let entered = false;
  const status = h('p', { class: 'small muted', role: 'status', 'data-testid': 'lobby-status' });
  const errorBox = h('div', { role: 'alert' });
  /** @type {Errors} */
  const errors = {
    show: (e) => replace(errorBox, h('div', { class: 'error-box' }, errorText(e))),
    clear: () => replace(errorBox),
  };

  /** Keeps the seat's token and opens the table (once). @type {Enter} */
  const enter = (table, seat, token) => {
    if (entered) return;
    entered = true;
    pairing.forget();
    store.rememberSeat(table, seat, token);
    nav.go(`/t/${table}`);
  };

  const seeks = new SeekPanel(games, first, enter, errors, (picked) => {
    socket.filter(picked);
    pairing.draw();
  });
  const pairing = pairingPanel(() => seeks.picked, errors);

  /** @param {any} msg */
  const onMessage = (msg) => {
    switch (msg.type) {
      case 'snapshot':
        if (Array.isArray(msg.tables)) tables(msg.tables);
        seeks.snapshot(msg.seeks || [], msg.online || {});
        break;
      case 'seek_added':
      case 'seek_updated':
        seeks.put(msg.seek);
        break;
      case 'seek_removed':
        seeks.remove(msg.id);
        break;
      case 'tables':
        tables(msg.tables || []);
        break;
      case 'online':
        seeks.setOnline(msg.online || {});
        break;
      case 'paired':
        if (typeof msg.seek === 'string') store.setMySeek(msg.seek, false);
        enter(msg.table, msg.seat, msg.token);
        break;
      default:
        break;
    }
  };

  const socket = new LobbySocket({
    games: seeks.picked,
    playerKey: guestKey(),
    onMessage,
    onStatus: (s) => replace(status, s === 'open' ? '' : t(s === 'connecting' ? 'seeks.connecting' : 'seeks.reconnecting')),
  });

  const element = h('div', { class: 'lobby-live' },
    pairing.element,
    h('section', { class: 'panel seeks-panel', 'aria-label': t('seeks.title') },
      h('h2', {}, t('seeks.title')), seeks.filterBox, status, seeks.list, errorBox, seeks.form));
  return {
    element,
    close() {
      socket.close();
      pairing.close(entered);
    },
  };
}

/**
 * Quick pairing: a row of the pools of the games picked (all of them where
 * none is picked), one click to queue, then a waiting line with Cancel.
 * Hidden while the server has no pools.
 * @param {() => string[]} picked the games picked
 * @param {Errors} errors
 */
function pairingPanel(picked, errors) {
  /** @type {PairingPool[]} */
  let pools = [];
  /** @type {{pool: PairingPool, since: number} | null} */
  let queued = null;
  const poolRow = h('div', { class: 'pool-row', 'data-testid': 'pools' });
  const queueBox = h('div', { role: 'status', 'data-testid': 'queue-status' });
  const element = h('section', { class: 'panel pairing-panel', 'aria-label': t('pairing.title'), hidden: true },
    h('h2', {}, t('pairing.title')), poolRow, queueBox);

  const draw = () => {
    element.hidden = pools.length === 0;
    const games = picked();
    const ofPicked = pools.filter((p) => games.length === 0 || games.includes(p.game));
    replace(poolRow, (ofPicked.length ? ofPicked : pools).map((p) => h('button', {
      class: 'btn pool', 'data-pool': p.id, 'aria-pressed': queued && queued.pool.id === p.id ? 'true' : 'false', disabled: queued !== null,
      onclick: () => join(p),
    }, h('strong', {}, gameNameById(p.game)), h('span', { class: 'small' }, [optionsText(p.options), controlText(p.clock)].filter(Boolean).join(' · ')))));
    poolRow.scrollLeft = 0;
    drawQueue();
  };

  const drawQueue = () => {
    if (!queued) { replace(queueBox); return; }
    const s = Math.floor((Date.now() - queued.since) / 1000);
    replace(queueBox, h('div', { class: 'queue-line' },
      h('span', { class: 'spinner', 'aria-hidden': 'true' }),
      h('span', {}, t('pairing.waiting', { game: gameNameById(queued.pool.game), time: `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}` })),
      h('button', { class: 'btn small', 'data-testid': 'cancel-queue', onclick: leave }, t('pairing.cancel'))));
  };

  /** @param {PairingPool} pool */
  const join = async (pool) => {
    errors.clear();
    try {
      queued = { pool, since: Date.now() };
      draw();
      await api.queue({ pool: pool.id, ...who() });
    } catch (e) {
      queued = null;
      draw();
      errors.show(e);
    }
  };

  const leave = async () => {
    queued = null;
    draw();
    try {
      await api.leaveQueue(guestKey());
    } catch (e) {
      errors.show(e);
    }
  };

  const ticker = setInterval(() => { if (queued) drawQueue(); }, 1000);
  api.pairingPools().then((answer) => { pools = answer.pools || []; draw(); }).catch(() => {});
  return {
    element,
    draw,
    /** Forgets the queue: a table was made for the player. */
    forget() { queued = null; },
    /** Stops the waiting line's clock and, still queued, leaves the queue. @param {boolean} entered a table was made */
    close(entered) {
      clearInterval(ticker);
      if (queued && !entered) api.leaveQueue(guestKey()).catch(() => {});
    },
  };
}

/**
 * The open seeks of the games the player picks (remembered), each
 * accepted with one click, his own first with Withdraw; the games to pick,
 * with the players online in each; the form to post a seek. Kept up to
 * date by the lobby socket's messages (`snapshot`, `put`, `remove`,
 * `setOnline`); `onPick` is told the games picked when they change.
 */
class SeekPanel {
  /** @type {Map<string, Seek>} */
  seeks = new Map();
  /** The players online per game. @type {Record<string, number>} */
  online = {};
  /** Seeks for more players accepted here that wait for the rest. @type {Map<string, {waiting: number, needed: number}>} */
  waiting = new Map();
  filterBox = h('div', { class: 'seek-filter', role: 'group', 'aria-label': t('seeks.filter') });
  list = h('ul', { class: 'table-list seek-list', 'data-testid': 'seeks', 'aria-live': 'polite' });

  /**
   * @param {GameInfo[]} games @param {string} first the game chosen at first
   * @param {Enter} enter @param {Errors} errors @param {(picked: string[]) => void} onPick
   */
  constructor(games, first, enter, errors, onPick) {
    this.games = games;
    this.enter = enter;
    this.errors = errors;
    this.onPick = onPick;
    this.picked = store.seekGames().filter((g) => games.some((x) => x.id === g));
    this.drawFilter();
    this.drawSeeks();
    this.form = seekForm(games, this.picked[0] || first, (seek) => {
      store.setMySeek(seek.id, true);
      this.put(seek);
    });
  }

  /** Every open seek and the players online, anew. @param {Seek[]} all @param {Record<string, number>} online */
  snapshot(all, online) {
    this.seeks = new Map(all.map((s) => [s.id, s]));
    this.online = online;
    this.drawFilter();
    this.drawSeeks();
    this.missed(all);
  }

  /** A seek posted or changed. @param {Seek} seek */
  put(seek) {
    this.seeks.set(seek.id, seek);
    this.drawSeeks();
  }

  /** A seek gone. @param {string} id */
  remove(id) {
    this.seeks.delete(id);
    this.waiting.delete(id);
    this.drawSeeks();
  }

  /** The players online per game. @param {Record<string, number>} online */
  setOnline(online) {
    this.online = online;
    this.drawFilter();
  }

  drawFilter() {
    const picked = this.picked;
    replace(this.filterBox, h('span', { class: 'small muted' }, t('seeks.filter')), this.games.map((g) => {
      const id = `seek-filter-${g.id}`;
      const box = h('input', { type: 'checkbox', id, 'data-filter': g.id, checked: picked.includes(g.id) });
      box.addEventListener('change', () => this.setFilter(box.checked ? [...this.picked, g.id] : this.picked.filter((x) => x !== g.id)));
      const n = this.online[g.id] || 0;
      return h('label', { for: id, class: 'chip' }, box, gameName(g),
        n ? h('span', { class: 'small muted', 'data-testid': 'online' }, t('seeks.online', { n })) : null);
    }));
  }

  drawSeeks() {
    const picked = this.picked;
    const shown = (/** @type {Seek} */ s) => mine(s.id) || picked.length === 0 || picked.includes(s.game);
    const all = [...this.seeks.values()].filter(shown).sort((a, b) => Number(mine(b.id)) - Number(mine(a.id)) || a.created_at - b.created_at);
    const act = { accept: this.accept.bind(this), withdraw: this.withdraw.bind(this) };
    replace(this.list, all.length
      ? all.map((seek) => seekRow(seek, mine(seek.id), this.waiting.has(seek.id), act))
      : h('li', { class: 'muted small', 'data-testid': 'no-seeks' }, t('seeks.none')));
  }

  /** @param {Seek} seek @param {HTMLButtonElement} button */
  async accept(seek, button) {
    this.errors.clear();
    button.disabled = true;
    try {
      const answer = await api.acceptSeek(seek.id, who());
      if ('token' in answer) this.enter(answer.table, answer.seat, answer.token);
      else {
        this.waiting.set(seek.id, answer);
        this.drawSeeks();
      }
    } catch (e) {
      button.disabled = false;
      this.errors.show(e);
    }
  }

  /** @param {Seek} seek */
  async withdraw(seek) {
    this.errors.clear();
    try {
      await api.withdrawSeek(seek.id, guestKey());
      store.setMySeek(seek.id, false);
      this.seeks.delete(seek.id);
      this.drawSeeks();
    } catch (e) {
      this.errors.show(e);
    }
  }

  /** @param {string[]} games */
  async setFilter(games) {
    this.picked = games;
    store.setSeekGames(games);
    this.onPick(games);
    this.drawSeeks();
    // The seeks of a game just picked: asked once (the socket tells what changes from now on).
    try {
      const answer = await api.listSeeks(games);
      for (const s of answer.seeks) this.seeks.set(s.id, s);
      this.drawSeeks();
    } catch {
      // the next snapshot brings them
    }
  }

  /** My seeks the snapshot lacks: gone, or made a table while the socket was down. @param {Seek[]} now */
  async missed(now) {
    for (const id of store.mySeeks()) {
      if (now.some((s) => s.id === id)) continue;
      try {
        const answer = await api.getSeek(id, guestKey());
        if ('paired' in answer) this.enter(answer.paired.table, answer.paired.seat, answer.paired.token);
        else this.seeks.set(id, answer);
      } catch {
        store.setMySeek(id, false);
      }
    }
    this.drawSeeks();
  }
}

/** Whether the player posted the seek `id` (here or in another tab). @param {string} id */
function mine(id) {
  return store.mySeeks().includes(id);
}

/**
 * One open seek: its game, time control, options, kind and owner, and
 * Withdraw (the player's own), Accept, or the seats filled while the
 * player's accept waits for the rest.
 * @param {Seek} seek @param {boolean} own @param {boolean} accepted
 * @param {{accept: (seek: Seek, button: HTMLButtonElement) => void, withdraw: (seek: Seek) => void}} act
 */
function seekRow(seek, own, accepted, act) {
  const words = seekWords(seek);
  const filled = 1 + (seek.accepted || 0);
  const button = own
    ? h('button', { class: 'btn small danger', 'data-testid': 'withdraw-seek', onclick: () => act.withdraw(seek) }, t('seeks.withdraw'))
    : accepted
      ? h('span', { class: 'badge', 'data-testid': 'seek-waiting' }, t('seeks.waiting_rest', { n: filled, players: seek.players }))
      : h('button', { class: 'btn small primary', 'data-testid': 'accept-seek', onclick: (/** @type {MouseEvent} */ e) => act.accept(seek, /** @type {HTMLButtonElement} */ (e.currentTarget)) }, t('seeks.accept'));
  const opts = optionsText(seek.options);
  return h('li', { 'data-seek': seek.id, class: own ? 'own' : null },
    h('div', { class: 'seek-main' },
      h('div', {}, h('strong', {}, gameNameById(seek.game)), ' ', h('span', { class: 'seek-clock', 'data-testid': 'seek-clock-text' }, words.clock)),
      opts ? h('div', { class: 'small muted' }, opts) : null,
      h('div', { class: 'seek-meta small' },
        h('span', { class: seek.rated ? 'badge rated' : 'badge' }, seek.rated ? t('rated.mark') : t('seeks.casual')),
        h('span', {}, own ? t('seeks.yours') : words.owner),
        seek.players > 2 ? h('span', { 'data-testid': 'seek-seats' }, t('seeks.seats', { n: filled, players: seek.players })) : null,
        typeof seek.seat === 'number' ? h('span', { class: 'muted' }, t('seeks.wants', { role: seatRole(seek.game, seek.seat) })) : null)),
    button);
}
