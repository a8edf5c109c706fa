// @ts-check
/**
 * Rated games in the browser: the lobby's **Rated** checkbox (only when
 * signed in and no seat is a computer), signing in before taking a seat at
 * a rated table (then the seat is taken), the table's "Rated" mark, each
 * seat's account (a link to the profile) with its rating, and, once a rated
 * game is over, each player's rating change from the profiles.
 */

import * as api from './api.js';
import { account, openSignIn, profilePath } from './account.js';
import { ratingText } from './chart.js';
import { h, replace } from './dom.js';
import { signed } from './names.js';
import { t } from './i18n.js';

/** @typedef {import('./types.js').TableInfo} TableInfo */
/** @typedef {import('./types.js').SeatInfo} SeatInfo */

/**
 * The lobby's Rated checkbox. `update(seats)` says whether it may be
 * ticked now (signed in, every seat a person: the player's own or open);
 * `rated()` whether it is ticked.
 */
export function ratedChoice() {
  const box = /** @type {HTMLInputElement} */ (h('input', { type: 'checkbox', id: 'rated', 'data-testid': 'rated', 'aria-describedby': 'rated-help' }));
  const help = h('span', { class: 'small muted', id: 'rated-help', 'data-testid': 'rated-help' });
  const row = h('div', { class: 'check-row rated-row' }, box, h('label', { for: 'rated' }, t('rated.label')), help);
  /** @param {string[]} seats the lobby's choices: `you`, `open` or a computer */
  const update = (seats) => {
    const reason = !account() ? t('rated.needs_account') : seats.some((c) => c !== 'you' && c !== 'open') ? t('rated.only_people') : '';
    box.disabled = reason !== '';
    if (box.disabled) box.checked = false;
    replace(help, reason || t('rated.help'));
  };
  return { row, update, rated: () => box.checked && !box.disabled };
}

/** The seat to take once signed in: {table, seat}. @type {{table: string, seat: number} | null} */
let pending = null;

/**
 * Before a guest takes a seat at a rated table: opens the sign-in dialog
 * and remembers the seat, which `joinAfterSignIn` then takes. Returns
 * whether the seat must wait (a guest at a rated table).
 * @param {TableInfo} table @param {number} seat @param {'signin' | 'signup'} [tab]
 */
export function signInFirst(table, seat, tab = 'signin') {
  if (!table.rated || account()) return false;
  pending = { table: table.id, seat };
  openSignIn(tab);
  return true;
}

/**
 * The seat a guest chose at this table before signing in, once he is
 * signed in (asked once).
 * @param {string} tableId @returns {number | null}
 */
export function joinAfterSignIn(tableId) {
  if (!pending || pending.table !== tableId || !account()) return null;
  const seat = pending.seat;
  pending = null;
  return seat;
}

/**
 * The invitation to a rated table for a guest: sign in or sign up first.
 * @param {TableInfo} table @param {number} seat @param {string} role
 * @param {() => void} watch
 */
export function signInDialog(table, seat, role, watch) {
  return h('div', { class: 'prompt', role: 'dialog', 'aria-label': t('rated.join_title'), 'data-testid': 'rated-join' },
    h('h2', {}, t('rated.join_title')),
    h('p', {}, t('rated.join_text', { role })),
    h('div', { class: 'row' },
      h('button', { class: 'btn primary', 'data-testid': 'rated-sign-in', onclick: () => signInFirst(table, seat, 'signin') }, t('account.tab.signin')),
      h('button', { class: 'btn primary', 'data-testid': 'rated-sign-up', onclick: () => signInFirst(table, seat, 'signup') }, t('account.tab.signup')),
      h('button', { class: 'btn', onclick: watch }, t('join.watch'))));
}

/** The mark of a rated table. */
export function ratedMark() {
  return h('span', { class: 'badge rated', title: t('rated.mark_title'), 'data-testid': 'rated-mark' }, t('rated.mark'));
}

/** A rating with `?` while provisional, rounded. @param {{rating: number, provisional: boolean}} r */
export function ratingLabel(r) {
  return `${ratingText(r.rating)}${r.provisional ? '?' : ''}`;
}

/**
 * A seat's name: a link to the account's profile where the seat has an
 * account, with its rating where the table's body has it.
 * @param {SeatInfo} seat @param {string} label the name as the page says it
 * @param {{rating: number, provisional: boolean} | undefined} rating
 */
export function seatName(seat, label, rating) {
  const name = seat.account && seat.account !== 'deleted player'
    ? h('a', { href: profilePath(seat.account), 'data-nav': true, class: 'seat-name' }, label)
    : h('span', { class: 'seat-name' }, label);
  const r = rating ? h('span', { class: 'small muted', dir: 'ltr', 'data-testid': 'seat-rating', title: rating.provisional ? t('ratings.provisional_title') : t('ratings.rating') }, ratingLabel(rating)) : null;
  return [name, r];
}

/**
 * A rated table's ratings: each seat's rating from the table's body (the
 * WebSocket's seats have none: the body is read again when the accounts
 * change), and, once the game is over, each account's rating change from
 * its profile (asked once a second until the server has rated the game).
 */
export class TableRatings {
  /** @param {TableInfo} table @param {() => void} changed */
  constructor(table, changed) {
    this.id = table.id;
    this.changed = changed;
    /** @type {Map<number, {rating: number, provisional: boolean}>} */
    this.ratings = new Map();
    this.read(table.seats);
    this.accounts = accountsOf(table.seats);
    /** Per seat: the change and the rating after the game, once known. @type {Map<number, {change: number, rating: number | null}> | null} */
    this.changes = null;
    /** Asking for the changes: 'no' yet, 'asking', 'done' or 'gave_up'. */
    this.state = 'no';
    this.closed = false;
  }

  /** @param {SeatInfo[]} seats the body's seats */
  read(seats) {
    this.ratings.clear();
    for (const s of seats) if (s.rating) this.ratings.set(s.seat, s.rating);
  }

  /** A seat's rating, where the body has it. @param {number} seat */
  of(seat) {
    return this.ratings.get(seat);
  }

  /**
   * Called with the seats as drawn: reads the body again when the accounts
   * changed, and asks for the rating changes once the game is over.
   * @param {SeatInfo[]} seats @param {boolean} over
   */
  seen(seats, over) {
    const accounts = accountsOf(seats);
    if (accounts !== this.accounts) {
      this.accounts = accounts;
      this.reload();
    }
    if (over && this.state === 'no') this.askChanges(seats);
  }

  async reload() {
    try {
      const table = await api.getTable(this.id);
      if (this.closed) return;
      this.read(table.seats);
      this.changed();
    } catch (e) {
      console.warn(e);
    }
  }

  /** @param {SeatInfo[]} seats */
  async askChanges(seats) {
    this.state = 'asking';
    const players = seats.filter((s) => s.account && s.account !== 'deleted player');
    /** @type {Map<number, {change: number, rating: number | null}>} */
    const found = new Map();
    for (let tries = 0; tries < 20 && !this.closed; tries++) {
      await new Promise((r) => setTimeout(r, 1000));
      for (const s of players) {
        if (found.has(s.seat)) continue;
        try {
          const p = await api.getPlayer(/** @type {string} */ (s.account));
          const game = (p.games || []).find((g) => g.table === this.id);
          if (game && typeof game.rating_change === 'number') {
            const point = game.pool && p.history ? (p.history[game.pool] || []).find((x) => x.table === this.id) : undefined;
            found.set(s.seat, { change: game.rating_change, rating: point ? point.rating : null });
          }
        } catch (e) {
          console.warn(e);
        }
      }
      if (found.size === players.length) break;
    }
    if (this.closed) return;
    this.changes = found;
    this.state = found.size === players.length ? 'done' : 'gave_up';
    this.changed();
    if (found.size) this.reload();
  }

  /**
   * The rating changes for the game-over box: each player's change and
   * new rating, "being updated" meanwhile.
   * @param {SeatInfo[]} seats @param {(seat: SeatInfo) => string} nameOf
   */
  overBox(seats, nameOf) {
    const lines = seats.filter((s) => this.changes && this.changes.has(s.seat)).map((s) => {
      const c = /** @type {{change: number, rating: number | null}} */ (this.changes?.get(s.seat));
      return h('li', {}, h('a', { href: profilePath(/** @type {string} */ (s.account)), 'data-nav': true }, nameOf(s)), ' ',
        h('strong', { dir: 'ltr' }, signed(Math.round(c.change))),
        c.rating !== null ? [' ', h('span', { class: 'muted', dir: 'ltr' }, `→ ${ratingText(c.rating)}`)] : null);
    });
    return h('div', { class: 'rating-changes', role: 'status', 'data-testid': 'rating-changes' },
      h('strong', {}, t('rated.changes')),
      lines.length ? h('ul', {}, lines) : null,
      this.state === 'asking' || this.state === 'no' ? h('p', { class: 'small muted' }, t('rated.pending')) : null,
      this.state === 'gave_up' ? h('p', { class: 'small muted' }, t('rated.later')) : null);
  }

  close() {
    this.closed = true;
  }
}

/** The seats' accounts, as one string to compare. @param {SeatInfo[]} seats */
function accountsOf(seats) {
  return seats.map((s) => s.account || '').join('\n');
}
