// @ts-check
/**
 * The lobby's lists of tables their creators show to everyone: open tables
 * with a seat to take, and live games to watch: a page at a time at first,
 * then as the lobby's socket tells.
 */

import * as api from './api.js';
import { h, replace } from './dom.js';
import { t } from './i18n.js';
import { gameNameById, seatPerson, seatRole } from './names.js';
import { optionsText } from './optionfields.js';
import { controlText } from './timecontrol.js';

/** @typedef {{go: (path: string) => void}} Nav */

/**
 * One listed table: the game, its options, who sits where, and the way in.
 * @param {any} table @param {'open' | 'live'} kind @param {Nav} nav
 */
function row(table, kind, nav) {
  const opts = optionsText(table.options);
  const seats = table.seats.map((/** @type {import('./types.js').SeatInfo} */ s) => `${seatRole(table.game, s.seat)}: ${seatPerson(s, null, table.seats)}`).join(' · ');
  const open = table.seats.find((/** @type {import('./types.js').SeatInfo} */ s) => s.kind === 'open');
  const path = kind === 'open' && open ? `/t/${table.id}?seat=${open.seat}` : `/t/${table.id}`;
  const go = (/** @type {MouseEvent} */ e) => { e.preventDefault(); nav.go(path); };
  return h('li', { 'data-table': table.id },
    h('strong', {}, gameNameById(table.game)),
    opts ? h('span', { class: 'small muted' }, opts) : null,
    table.clock ? h('span', { class: 'small', 'data-testid': 'listed-clock' }, controlText(table.clock)) : null,
    h('span', { class: 'small' }, seats),
    h('a', { class: 'btn small', href: path, onclick: go, 'data-testid': kind === 'open' ? 'join-listed' : 'watch-listed' },
      kind === 'open' && open ? t('lists.take_seat', { role: seatRole(table.game, open.seat) }) : t('lists.watch')));
}

/**
 * Draws a list (`open` or `live`) into `box`: its first page at once, with
 * a button for each further page; `show(rows)` then replaces it with the
 * rows the lobby's socket sends (and answers of pages asked before are
 * dropped).
 * @param {HTMLElement} box @param {'open' | 'live'} kind @param {Nav} nav
 * @returns {{show: (tables: any[]) => void}}
 */
export function drawListed(box, kind, nav) {
  const list = h('ul', { class: 'table-list', 'data-testid': `${kind}-tables` });
  const more = h('button', { class: 'btn small', 'data-testid': `${kind}-more` }, t('lists.more'));
  let page = 0;
  let live = false;
  const empty = () => {
    if (!list.children.length) list.append(h('li', { class: 'muted small' }, t(kind === 'open' ? 'lists.no_open' : 'lists.no_live')));
  };
  const load = async () => {
    let answer;
    try {
      answer = await api.listTables(kind, page);
    } catch {
      answer = { tables: [], more: false };
    }
    if (live) return;
    list.append(...answer.tables.map((/** @type {any} */ tb) => row(tb, kind, nav)));
    more.style.display = answer.more ? '' : 'none';
    empty();
  };
  more.addEventListener('click', () => { page += 1; load(); });
  replace(box, h('h2', {}, t(kind === 'open' ? 'lists.open_title' : 'lists.live_title')),
    h('p', { class: 'small muted' }, t(kind === 'open' ? 'lists.open_help' : 'lists.live_help')), list, more);
  load();
  return {
    show(tables) {
      live = true;
      more.style.display = 'none';
      replace(list, tables.filter((tb) => listOf(tb) === kind).map((tb) => row(tb, kind, nav)));
      empty();
    },
  };
}

/**
 * Which list a table of the lobby's socket belongs to: `open` while a seat
 * is open, else `live`.
 * @param {any} table @returns {'open' | 'live'}
 */
function listOf(table) {
  if (table.list === 'open' || table.list === 'live') return table.list;
  return (table.seats || []).some((/** @type {import('./types.js').SeatInfo} */ s) => s.kind === 'open') ? 'open' : 'live';
}
