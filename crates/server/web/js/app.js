// @ts-check
/**
 * The client's entry point: routes the address to the lobby (`/`), a
 * table (`/t/{id}`, `?seat=N` for an invite), its replay (`/t/{id}?replay`),
 * a game's rules (`/?rules={game}`), a player's profile (`/@/{name}`) or
 * the leaderboards (`/ratings`, `/ratings/{pool}`).
 */

import { showLobby, showRules } from './lobby.js';
import { showTable } from './table.js';
import { showReplay } from './replay.js';
import { showProfile } from './profile.js';
import { showRatings } from './ratings.js';
import { drawAccount, startAccount } from './account.js';
import * as store from './store.js';
import { LANGUAGES, language, preferredLanguage, rememberLanguage, setLanguage, t } from './i18n.js';
import { h, replace } from './dom.js';

const root = /** @type {HTMLElement} */ (document.getElementById('app'));
/** @type {() => void} */
let leave = () => {};

const nav = {
  /** @param {string} path */
  go(path) {
    history.pushState(null, '', path);
    route();
  },
};

/**
 * A seat link from another device (`/t/ID?seat=N#token=TOKEN`): keeps the
 * seat's token and takes it out of the address.
 */
function takeSeatLink() {
  const table = /^\/t\/((?:[a-z0-9]{1,16}-)?[0-9a-f]{24})\/?$/.exec(location.pathname);
  const token = /^#token=([0-9a-f]{64})$/.exec(location.hash);
  const seat = Number(new URLSearchParams(location.search).get('seat'));
  if (table && token && Number.isInteger(seat) && seat >= 0) {
    store.rememberSeat(table[1], seat, token[1]);
    history.replaceState(null, '', `/t/${table[1]}`);
  }
}

async function route() {
  takeSeatLink();
  leave();
  leave = () => {};
  window.scrollTo(0, 0);
  const params = new URLSearchParams(location.search);
  const table = /^\/t\/([0-9a-zA-Z-]+)\/?$/.exec(location.pathname);
  const profile = /^\/@\/([^/]+)\/?$/.exec(location.pathname);
  const ratings = /^\/ratings(?:\/([^/]+))?\/?$/.exec(location.pathname);
  if (profile) {
    document.title = `${decodeName(profile[1])} · spelbord`;
    leave = await showProfile(root, decodeName(profile[1]), nav);
  } else if (ratings) {
    document.title = `${t('title.ratings')} · spelbord`;
    leave = await showRatings(root, ratings[1] === undefined ? null : decodeName(ratings[1]));
  } else if (table && params.has('replay')) {
    document.title = `${t('title.replay')} · spelbord`;
    leave = await showReplay(root, table[1], nav);
  } else if (table) {
    document.title = `${t('title.table')} · spelbord`;
    leave = await showTable(root, table[1], params, nav);
  } else if (params.has('rules')) {
    document.title = `${t('title.rules')} · spelbord`;
    leave = await showRules(root, /** @type {string} */ (params.get('rules')));
  } else {
    document.title = 'spelbord';
    leave = await showLobby(root, nav);
  }
}

/** A name from the address (as typed if it is not well encoded). @param {string} part */
function decodeName(part) {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

/**
 * The header in the page's language: the lobby and leaderboard links, the
 * account's control and the language switch (the choice is remembered;
 * the view is drawn again in it).
 */
function drawHeader() {
  const lobby = document.querySelector('header.top a.nav-lobby');
  if (lobby) lobby.textContent = t('nav.lobby');
  const ratings = document.querySelector('header.top a.nav-ratings');
  if (ratings) ratings.textContent = t('nav.ratings');
  drawAccount();
  const slot = document.querySelector('header.top .lang-slot');
  if (!slot) return;
  const select = h('select', { id: 'language', 'data-testid': 'language', 'aria-label': t('nav.language') },
    LANGUAGES.map((l) => h('option', { value: l.code, lang: l.code, selected: l.code === language() }, l.name)));
  select.addEventListener('change', async () => {
    rememberLanguage(select.value);
    await setLanguage(select.value);
    drawHeader();
    route();
  });
  replace(slot, select);
}

window.addEventListener('popstate', () => route());
document.addEventListener('click', (e) => {
  const a = e.target instanceof Element ? e.target.closest('a[data-nav]') : null;
  if (a instanceof HTMLAnchorElement && !e.ctrlKey && !e.metaKey && !e.shiftKey) {
    e.preventDefault();
    nav.go(a.pathname + a.search);
  }
});
await setLanguage(preferredLanguage());
await startAccount(() => route());
drawHeader();
route();
