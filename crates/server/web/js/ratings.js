// @ts-check
/**
 * The leaderboards: `/ratings` lists the rating pools (`GET /api/ratings`),
 * `/ratings/{pool}` shows a pool's ranked players and its provisional ones
 * (rating with `?`), names linking to their profiles. Where the server
 * keeps no ratings (404), the page says there are none yet.
 */

import * as api from './api.js';
import { ApiError } from './api.js';
import { profilePath } from './account.js';
import { dateText, ratingText } from './chart.js';
import { errorText } from './errors.js';
import { h, replace } from './dom.js';
import { gameNameById } from './names.js';
import { has, language, t } from './i18n.js';

/** @typedef {import('./types.js').LeaderRow} LeaderRow */

/** The pools of `GET /api/ratings` by id, once read. @type {Map<string, import('./types.js').Pool>} */
const known = new Map();

/**
 * Reads the pools, for their names: a page that names pools waits for
 * it. Without them the pools keep their ids.
 */
export async function loadPools() {
  try {
    const body = await api.listPools();
    /** @type {import('./types.js').Pool[]} */
    const pools = (Array.isArray(body) ? body : body && body.pools) || [];
    for (const p of pools) known.set(p.pool, p);
    return pools;
  } catch (e) {
    if (!(e instanceof ApiError && e.status === 404)) console.warn(e);
    throw e;
  }
}

/**
 * A pool's name: the game's name where the pool is a game's id; else, from
 * the pool list, the game's name and the server's description of the pool
 * (in English: the description alone, which names the game); else the id.
 * @param {string} pool
 */
export function poolName(pool) {
  if (has(`game.${pool}.name`)) return gameNameById(pool);
  const p = known.get(pool);
  if (!p || !p.description) return p && p.game ? `${gameNameById(p.game)} (${pool})` : pool;
  return language() === 'en' ? p.description : `${gameNameById(p.game)} (${p.description})`;
}

/** "No ratings yet", with the way back. @param {string} text */
function none(text) {
  return h('div', { class: 'panel', 'data-testid': 'no-ratings' }, h('p', {}, text));
}

/** The list of pools. @returns {Promise<HTMLElement>} */
async function poolList() {
  let pools;
  try {
    // `{"pools": [...]}`, or the list itself.
    pools = await loadPools();
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) return none(t('ratings.none_yet'));
    return h('div', { class: 'error-box' }, errorText(e));
  }
  if (!pools.length) return none(t('ratings.none_yet'));
  return h('ul', { class: 'table-list', 'data-testid': 'pools' }, pools.map((p) => h('li', {},
    h('span', {},
      h('a', { href: `/ratings/${encodeURIComponent(p.pool)}`, 'data-nav': true }, h('strong', {}, poolName(p.pool))),
      p.game && p.game !== p.pool && !p.description ? ` · ${gameNameById(p.game)}` : '',
      // The description where the name does not already say it.
      p.description && has(`game.${p.pool}.name`) ? h('span', { class: 'muted small pool-desc' }, p.description) : null),
    h('span', { class: 'muted' }, t('ratings.players', { n: p.players })))));
}

/**
 * A table of players.
 * @param {LeaderRow[]} rows @param {boolean} provisional @param {string} label
 */
function boardTable(rows, provisional, label) {
  // A phone scrolls a wide table sideways (focusable, so the keyboard can too).
  return h('div', { class: 'table-scroll', tabindex: 0, role: 'region', 'aria-label': label }, h('table', { class: 'data-table', 'data-testid': provisional ? 'provisional' : 'leaderboard', 'aria-label': label },
    h('thead', {}, h('tr', {},
      provisional ? null : h('th', { scope: 'col', class: 'num' }, t('ratings.rank')),
      h('th', { scope: 'col' }, t('ratings.player')), h('th', { scope: 'col', class: 'num' }, t('ratings.rating')),
      h('th', { scope: 'col', class: 'num' }, t('ratings.deviation')), h('th', { scope: 'col', class: 'num' }, t('ratings.games')),
      h('th', { scope: 'col' }, t('ratings.last_played')))),
    h('tbody', {}, rows.map((r) => h('tr', {},
      provisional ? null : h('td', { class: 'num' }, String(r.rank ?? '')),
      h('th', { scope: 'row' }, h('a', { href: profilePath(r.name), 'data-nav': true }, r.name)),
      h('td', { class: 'num' }, provisional ? h('span', { title: t('ratings.provisional_title'), dir: 'ltr' }, `${ratingText(r.rating)}?`) : ratingText(r.rating)),
      h('td', { class: 'num' }, h('span', { dir: 'ltr' }, `±${ratingText(r.deviation)}`)),
      h('td', { class: 'num' }, String(r.games)),
      h('td', {}, dateText(r.last_played, { dateStyle: 'short' })))))));
}

/** One pool's leaderboard. @param {string} pool @returns {Promise<HTMLElement[]>} */
async function leaderboard(pool) {
  let board;
  try {
    board = await api.getLeaderboard(pool);
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) return [none(t('ratings.no_pool'))];
    return [h('div', { class: 'error-box' }, errorText(e))];
  }
  const players = board.players || [];
  const provisional = board.provisional || [];
  return [
    h('section', { class: 'panel profile-section', 'aria-labelledby': 'ranked-title' },
      h('h2', { id: 'ranked-title' }, t('ratings.ranked')),
      players.length ? boardTable(players, false, t('ratings.ranked')) : h('p', { class: 'muted' }, t('ratings.nobody'))),
    h('section', { class: 'panel profile-section', 'aria-labelledby': 'provisional-title' },
      h('h2', { id: 'provisional-title' }, t('ratings.provisional')),
      h('p', { class: 'muted small' }, t('ratings.provisional_help')),
      provisional.length ? boardTable(provisional, true, t('ratings.provisional')) : h('p', { class: 'muted' }, t('ratings.nobody'))),
  ];
}

/**
 * Shows the leaderboards: every pool, or one pool's players.
 * @param {HTMLElement} root @param {string | null} pool
 * @returns {Promise<() => void>}
 */
export async function showRatings(root, pool) {
  replace(root, h('p', { class: 'muted' }, t('lobby.loading')));
  if (pool === null) {
    const list = await poolList();
    replace(root, h('div', { class: 'page narrow ratings' }, h('h1', {}, t('ratings.title')), list));
  } else {
    await loadPools().catch(() => []);
    const parts = await leaderboard(pool);
    replace(root, h('div', { class: 'page narrow ratings' },
      h('p', {}, h('a', { href: '/ratings', 'data-nav': true }, t('ratings.all'))),
      h('h1', { 'data-testid': 'pool-title' }, poolName(pool)), parts));
  }
  return () => {};
}
