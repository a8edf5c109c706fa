// @ts-check
/**
 * The client's entry point: routes the address to the lobby (`/`), a
 * table (`/t/{id}`, `?seat=N` for an invite), its replay (`/t/{id}?replay`)
 * or a game's rules (`/?rules={game}`).
 */

import { showLobby, showRules } from './lobby.js';
import { showTable } from './table.js';
import { showReplay } from './replay.js';
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
  const table = /^\/t\/([0-9a-f]{24})\/?$/.exec(location.pathname);
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
  const table = /^\/t\/([0-9a-zA-Z]+)\/?$/.exec(location.pathname);
  if (table && params.has('replay')) {
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

/**
 * The header in the page's language: the lobby link and the language
 * switch (the choice is remembered; the view is drawn again in it).
 */
function drawHeader() {
  const lobby = document.querySelector('header.top a.nav-lobby');
  if (lobby) lobby.textContent = t('nav.lobby');
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
drawHeader();
route();
