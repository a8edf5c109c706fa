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

/**
 * The live lobby. `tables` is told every list of listed tables the socket
 * sends; `close` ends the connection (and leaves the pairing queue).
 * @param {GameInfo[]} games @param {string} first the game chosen at first
 * @param {Nav} nav @param {(tables: any[]) => void} tables
 */
export function lobbyLive(games, first, nav, tables) {
  /** @type {Map<string, Seek>} */
  let seeks = new Map();
  /** @type {Record<string, number>} */
  let online = {};
  let picked = store.seekGames().filter((g) => games.some((x) => x.id === g));
  /** Seeks for more players accepted here that wait for the rest. @type {Map<string, {waiting: number, needed: number}>} */
  const waiting = new Map();
  /** @type {PairingPool[]} */
  let pools = [];
  /** @type {{pool: PairingPool, since: number} | null} */
  let queued = null;
  let entered = false;

  const filterBox = h('div', { class: 'seek-filter', role: 'group', 'aria-label': t('seeks.filter') });
  const list = h('ul', { class: 'table-list seek-list', 'data-testid': 'seeks', 'aria-live': 'polite' });
  const status = h('p', { class: 'small muted', role: 'status', 'data-testid': 'lobby-status' });
  const errorBox = h('div', { role: 'alert' });
  const poolRow = h('div', { class: 'pool-row', 'data-testid': 'pools' });
  const queueBox = h('div', { role: 'status', 'data-testid': 'queue-status' });
  const pairing = h('section', { class: 'panel pairing-panel', 'aria-label': t('pairing.title'), hidden: true },
    h('h2', {}, t('pairing.title')), poolRow, queueBox);

  const mine = (/** @type {string} */ id) => store.mySeeks().includes(id);
  const shown = (/** @type {Seek} */ s) => mine(s.id) || picked.length === 0 || picked.includes(s.game);

  /** Keeps the seat's token and opens the table (once). @param {string} table @param {number} seat @param {string} token */
  const enter = (table, seat, token) => {
    if (entered) return;
    entered = true;
    queued = null;
    store.rememberSeat(table, seat, token);
    nav.go(`/t/${table}`);
  };

  const drawFilter = () => {
    replace(filterBox, h('span', { class: 'small muted' }, t('seeks.filter')), games.map((g) => {
      const id = `seek-filter-${g.id}`;
      const box = h('input', { type: 'checkbox', id, 'data-filter': g.id, checked: picked.includes(g.id) });
      box.addEventListener('change', () => setFilter(box.checked ? [...picked, g.id] : picked.filter((x) => x !== g.id)));
      const n = online[g.id] || 0;
      return h('label', { for: id, class: 'chip' }, box, gameName(g),
        n ? h('span', { class: 'small muted', 'data-testid': 'online' }, t('seeks.online', { n })) : null);
    }));
  };

  /** @param {Seek} seek */
  const seekRow = (seek) => {
    const words = seekWords(seek);
    const own = mine(seek.id);
    const wait = waiting.get(seek.id);
    const filled = 1 + (seek.accepted || 0);
    const button = own
      ? h('button', { class: 'btn small danger', 'data-testid': 'withdraw-seek', onclick: () => withdraw(seek) }, t('seeks.withdraw'))
      : wait
        ? h('span', { class: 'badge', 'data-testid': 'seek-waiting' }, t('seeks.waiting_rest', { n: filled, players: seek.players }))
        : h('button', { class: 'btn small primary', 'data-testid': 'accept-seek', onclick: (/** @type {MouseEvent} */ e) => accept(seek, /** @type {HTMLButtonElement} */ (e.currentTarget)) }, t('seeks.accept'));
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
  };

  const drawSeeks = () => {
    const all = [...seeks.values()].filter(shown).sort((a, b) => Number(mine(b.id)) - Number(mine(a.id)) || a.created_at - b.created_at);
    replace(list, all.length ? all.map(seekRow) : h('li', { class: 'muted small', 'data-testid': 'no-seeks' }, t('seeks.none')));
  };

  const drawPools = () => {
    pairing.hidden = pools.length === 0;
    const mine = pools.filter((p) => picked.length === 0 || picked.includes(p.game));
    replace(poolRow, (mine.length ? mine : pools).map((p) => h('button', {
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
    replace(errorBox);
    try {
      queued = { pool, since: Date.now() };
      drawPools();
      await api.queue({ pool: pool.id, ...who() });
    } catch (e) {
      queued = null;
      drawPools();
      replace(errorBox, h('div', { class: 'error-box' }, errorText(e)));
    }
  };

  const leave = async () => {
    queued = null;
    drawPools();
    try {
      await api.leaveQueue(guestKey());
    } catch (e) {
      replace(errorBox, h('div', { class: 'error-box' }, errorText(e)));
    }
  };

  /** @param {Seek} seek @param {HTMLButtonElement} button */
  const accept = async (seek, button) => {
    replace(errorBox);
    button.disabled = true;
    try {
      const answer = await api.acceptSeek(seek.id, who());
      if ('token' in answer) enter(answer.table, answer.seat, answer.token);
      else {
        waiting.set(seek.id, answer);
        drawSeeks();
      }
    } catch (e) {
      button.disabled = false;
      replace(errorBox, h('div', { class: 'error-box' }, errorText(e)));
    }
  };

  /** @param {Seek} seek */
  const withdraw = async (seek) => {
    replace(errorBox);
    try {
      await api.withdrawSeek(seek.id, guestKey());
      store.setMySeek(seek.id, false);
      seeks.delete(seek.id);
      drawSeeks();
    } catch (e) {
      replace(errorBox, h('div', { class: 'error-box' }, errorText(e)));
    }
  };

  /** @param {string[]} games */
  const setFilter = async (games) => {
    picked = games;
    store.setSeekGames(picked);
    socket.filter(picked);
    drawSeeks();
    drawPools();
    // The seeks of a game just picked: asked once (the socket tells what changes from now on).
    try {
      const answer = await api.listSeeks(picked);
      for (const s of answer.seeks) seeks.set(s.id, s);
      drawSeeks();
    } catch {
      // the next snapshot brings them
    }
  };

  /** My seeks the snapshot lacks: gone, or made a table while the socket was down. @param {Seek[]} now */
  const missed = async (now) => {
    for (const id of store.mySeeks()) {
      if (now.some((s) => s.id === id)) continue;
      try {
        const answer = await api.getSeek(id, guestKey());
        if ('paired' in answer) enter(answer.paired.table, answer.paired.seat, answer.paired.token);
        else seeks.set(id, answer);
      } catch {
        store.setMySeek(id, false);
      }
    }
    drawSeeks();
  };

  /** @param {any} msg */
  const onMessage = (msg) => {
    switch (msg.type) {
      case 'snapshot':
        seeks = new Map((msg.seeks || []).map((/** @type {Seek} */ s) => [s.id, s]));
        online = msg.online || {};
        if (Array.isArray(msg.tables)) tables(msg.tables);
        drawFilter();
        drawSeeks();
        missed(msg.seeks || []);
        break;
      case 'seek_added':
      case 'seek_updated':
        seeks.set(msg.seek.id, msg.seek);
        drawSeeks();
        break;
      case 'seek_removed':
        seeks.delete(msg.id);
        waiting.delete(msg.id);
        drawSeeks();
        break;
      case 'tables':
        tables(msg.tables || []);
        break;
      case 'online':
        online = msg.online || {};
        drawFilter();
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
    games: picked,
    playerKey: guestKey(),
    onMessage,
    onStatus: (s) => replace(status, s === 'open' ? '' : t(s === 'connecting' ? 'seeks.connecting' : 'seeks.reconnecting')),
  });
  const ticker = setInterval(() => { if (queued) drawQueue(); }, 1000);

  api.pairingPools().then((answer) => { pools = answer.pools || []; drawPools(); }).catch(() => {});
  drawFilter();
  drawSeeks();
  const form = seekForm(games, picked[0] || first, (seek) => {
    store.setMySeek(seek.id, true);
    seeks.set(seek.id, seek);
    drawSeeks();
  });

  const element = h('div', { class: 'lobby-live' },
    pairing,
    h('section', { class: 'panel seeks-panel', 'aria-label': t('seeks.title') },
      h('h2', {}, t('seeks.title')), filterBox, status, list, errorBox, form));
  return {
    element,
    close() {
      clearInterval(ticker);
      socket.close();
      if (queued && !entered) api.leaveQueue(guestKey()).catch(() => {});
    },
  };
}
