// @ts-check
/**
 * The client's entry point: routes the address to the lobby (`/`), a
 * table (`/t/{id}`, `?seat=N` for an invite), its replay (`/t/{id}?replay`)
 * or a game's rules (`/?rules={game}`).
 */

import { showLobby, showRules } from './lobby.js';
import { showTable } from './table.js';
import { showReplay } from './replay.js';

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

async function route() {
  leave();
  leave = () => {};
  window.scrollTo(0, 0);
  const params = new URLSearchParams(location.search);
  const table = /^\/t\/([0-9a-zA-Z]+)\/?$/.exec(location.pathname);
  if (table && params.has('replay')) {
    document.title = 'Replay · spelbord';
    leave = await showReplay(root, table[1], nav);
  } else if (table) {
    document.title = 'Table · spelbord';
    leave = await showTable(root, table[1], params, nav);
  } else if (params.has('rules')) {
    document.title = 'Rules · spelbord';
    leave = await showRules(root, /** @type {string} */ (params.get('rules')));
  } else {
    document.title = 'spelbord';
    leave = await showLobby(root, nav);
  }
}

window.addEventListener('popstate', () => route());
document.addEventListener('click', (e) => {
  const a = e.target instanceof Element ? e.target.closest('a[data-nav]') : null;
  if (a instanceof HTMLAnchorElement && !e.ctrlKey && !e.metaKey && !e.shiftKey) {
    e.preventDefault();
    nav.go(a.pathname + a.search);
  }
});
route();
