// @ts-check
/**
 * The lobby: the live part (seeks.js), a new table (newtable.js), your
 * running tables and the listed ones. Also the rules page.
 */

import * as api from './api.js';
import { h, replace } from './dom.js';
import { gameName, gameNameById, gameSummary, inactivityText, seatRole, withoutRuleIds } from './names.js';
import { errorText } from './errors.js';
import { guestKey } from './account.js';
import { drawListed } from './lists.js';
import { lobbyLive } from './seeks.js';
import { NewTable } from './newtable.js';
import { invite } from './prompts.js';
import { controlText } from './timecontrol.js';
import { language, t } from './i18n.js';

/** @typedef {import('./types.js').GameInfo} GameInfo */
/** @typedef {{go: (path: string) => void}} Nav */

/**
 * Shows the lobby.
 * @param {HTMLElement} root
 * @param {Nav} nav
 */
export async function showLobby(root, nav) {
  replace(root, h('p', { class: 'muted' }, t('lobby.loading')));
  /** @type {GameInfo[]} */
  let games;
  try {
    games = await api.listGames();
  } catch (e) {
    replace(root, h('div', { class: 'error-box' }, t('lobby.load_failed', { reason: errorText(e) })));
    return () => {};
  }
  const newTable = new NewTable(games, nav);
  const running = h('div', { class: 'panel' });
  const openBox = h('div', { class: 'panel listed-panel', 'data-testid': 'open-list' });
  const liveBox = h('div', { class: 'panel listed-panel', 'data-testid': 'live-list' });
  const openList = drawListed(openBox, 'open', nav);
  const liveList = drawListed(liveBox, 'live', nav);
  const live = lobbyLive(games, newTable.game.id, nav, (tables) => { openList.show(tables); liveList.show(tables); });
  replace(root, h('div', { class: 'lobby' },
    h('div', { class: 'lobby-intro' }, h('h1', {}, t('lobby.title')),
      h('p', { class: 'muted' }, t('lobby.intro'))),
    live.element,
    newTable.element,
    h('section', { class: 'lobby-lists', 'aria-label': t('lobby.your_tables') }, running, openBox, liveBox)));
  drawRunning(running, nav);
  const timer = setInterval(() => drawRunning(running, nav), 15000);
  return () => {
    clearInterval(timer);
    live.close();
  };
}

/**
 * The player's unfinished tables.
 * @param {HTMLElement} box @param {Nav} nav
 */
async function drawRunning(box, nav) {
  let tables = [];
  try {
    tables = (await api.myTables(guestKey())).tables;
  } catch {
    tables = [];
  }
  const open = (/** @type {string} */ id) => (/** @type {MouseEvent} */ e) => { e.preventDefault(); nav.go(`/t/${id}`); };
  replace(box, h('h2', {}, t('lobby.your_tables')),
    tables.length === 0
      ? h('p', { class: 'muted small' }, t('lobby.no_tables'))
      : h('ul', { class: 'table-list', 'data-testid': 'my-tables' }, tables.map((tb) => h('li', {},
        h('a', { href: `/t/${tb.id}`, onclick: open(tb.id) }, gameNameById(tb.game)),
        h('span', { class: 'small muted' }, t('lobby.table_line', { status: t(`status.${tb.status}`), n: tb.version })),
        tb.your_turn ? h('span', { class: 'badge turn' }, t('lobby.your_turn')) : h('span', { class: 'badge' }, t(`status.${tb.status}`)),
        tb.clock ? h('span', { class: 'small muted', 'data-testid': 'my-clock' }, controlText(tb.clock))
          : tb.inactivity ? h('span', { class: 'small muted rule', 'data-testid': 'inactivity' }, inactivityText(tb.inactivity)) : null,
        tb.seats.filter((/** @type {any} */ s) => s.kind === 'open').slice(0, 1).map((/** @type {any} */ s) => invite(`${location.origin}/t/${tb.id}?seat=${s.seat}`, seatRole(tb.game, s.seat)))))));
}

/**
 * The rules of a game, from its Markdown (headings, lists, tables and
 * paragraphs; enough for the project's rules files).
 * @param {HTMLElement} root
 * @param {string} id
 */
export async function showRules(root, id) {
  try {
    const game = await api.getGame(id);
    // The rules are written in English: other languages get the game's
    // summary in their words and a note above the English text.
    const english = language() === 'en';
    replace(root,
      english ? null : h('section', { class: 'panel rules-intro', 'data-testid': 'rules-intro' },
        h('h1', {}, gameName(game)), h('p', {}, gameSummary(game)), h('p', { class: 'muted small' }, t('rules.english_only'))),
      h('article', { class: 'panel rules', lang: 'en', dir: 'ltr' }, markdown(withoutRuleIds(game.rules || t('rules.none')))));
  } catch (e) {
    replace(root, h('div', { class: 'error-box' }, errorText(e)));
  }
  return () => {};
}

/** @param {string} text */
function inline(text) {
  const out = [];
  const re = /(\*\*[^*]+\*\*|\*[^*]+\*|`[^`]+`)/g;
  let last = 0;
  for (const m of text.matchAll(re)) {
    out.push(text.slice(last, m.index));
    const t = m[0];
    if (t.startsWith('**')) out.push(h('strong', {}, t.slice(2, -2)));
    else if (t.startsWith('`')) out.push(h('code', {}, t.slice(1, -1)));
    else out.push(h('em', {}, t.slice(1, -1)));
    last = (m.index || 0) + t.length;
  }
  out.push(text.slice(last));
  return out;
}

/** A small Markdown reader (no HTML passes through). @param {string} md */
function markdown(md) {
  const lines = md.split('\n');
  /** @type {Node[]} */
  const out = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (/^#{1,4} /.test(line)) {
      const level = Math.min(line.indexOf(' '), 4);
      out.push(h(/** @type {'h2'} */ (`h${level + 1}`), {}, inline(line.slice(level + 1))));
      i++;
    } else if (/^\s*[-*] /.test(line)) {
      const items = [];
      while (i < lines.length && /^\s*[-*] |^\s{2,}\S/.test(lines[i])) {
        if (/^\s*[-*] /.test(lines[i])) items.push(lines[i].replace(/^\s*[-*] /, ''));
        else items[items.length - 1] += ' ' + lines[i].trim();
        i++;
      }
      out.push(h('ul', {}, items.map((t) => h('li', {}, inline(t)))));
    } else if (line.startsWith('|')) {
      const rows = [];
      while (i < lines.length && lines[i].startsWith('|')) {
        if (!/^\|[-\s|:]+\|$/.test(lines[i])) rows.push(lines[i].split('|').slice(1, -1).map((c) => c.trim()));
        i++;
      }
      out.push(h('table', { class: 'score-table' }, rows.map((r, k) => h('tr', {}, r.map((c) => h(k === 0 ? 'th' : 'td', {}, inline(c)))))));
    } else if (line.startsWith('    ')) {
      const code = [];
      while (i < lines.length && (lines[i].startsWith('    ') || lines[i] === '')) code.push(lines[i++].slice(4));
      out.push(h('pre', {}, code.join('\n')));
    } else if (line.trim() === '') {
      i++;
    } else {
      const para = [];
      while (i < lines.length && lines[i].trim() !== '' && !/^(#|\s*[-*] |\|)/.test(lines[i])) para.push(lines[i++]);
      out.push(h('p', {}, inline(para.join(' '))));
    }
  }
  return out;
}
