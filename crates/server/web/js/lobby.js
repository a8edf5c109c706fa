// @ts-check
/**
 * The lobby: pick a game and its options, say who sits where (you, an open
 * seat for a friend, or the computer at a level), create the table; see
 * your running tables. Also the rules page.
 */

import * as api from './api.js';
import * as store from './store.js';
import { h, replace, s } from './dom.js';
import { LEVELS, durationText, gameName, gameNameById, gameSummary, inactivityText, levelName, seatRole, withoutRuleIds } from './names.js';
import { optionFields, seatCount } from './optionfields.js';
import { errorText } from './errors.js';
import { guestKey } from './account.js';
import { drawListed } from './lists.js';
import { lobbyLive } from './seeks.js';
import { ratedChoice } from './rated.js';
import { invite } from './prompts.js';
import { PRESETS, controlText } from './timecontrol.js';

/** The time controls offered when creating a table (null: none). */
import { language, t } from './i18n.js';

/** @typedef {import('./types.js').GameInfo} GameInfo */
/** @typedef {import('./types.js').OptionSpec} OptionSpec */
/** @typedef {{go: (path: string) => void}} Nav */

/** A small picture of each game family. @param {string} id */
function icon(id) {
  const box = (/** @type {import('./dom.js').Child[]} */ ...c) => s('svg', { viewBox: '0 0 64 64', class: 'icon', 'aria-hidden': 'true' }, ...c);
  if (id === 'tawla' || id === 'backgammon') {
    return box(s('rect', { width: 64, height: 64, rx: 10, fill: '#6a4428' }), s('rect', { x: 5, y: 5, width: 54, height: 54, rx: 4, fill: '#1f5a40' }),
      [0, 1, 2, 3].map((i) => s('path', { d: `M ${7 + i * 13} 7 L ${19 + i * 13} 7 L ${13 + i * 13} 30 Z`, fill: i % 2 ? '#b24f37' : '#eadbb8' })),
      [0, 1, 2, 3].map((i) => s('path', { d: `M ${7 + i * 13} 57 L ${19 + i * 13} 57 L ${13 + i * 13} 34 Z`, fill: i % 2 ? '#eadbb8' : '#b24f37' })),
      s('circle', { cx: 13, cy: 50, r: 6, fill: '#f8f3e6', stroke: '#b3a68c' }), s('circle', { cx: 52, cy: 13, r: 6, fill: '#2c2a29' }));
  }
  if (id === 'high-gammon' || id === 'tric-trac') {
    return box(s('rect', { width: 64, height: 64, rx: 10, fill: '#6a4428' }), s('rect', { x: 6, y: 6, width: 52, height: 52, fill: '#e9dcc0' }),
      s('rect', { x: 18, y: 18, width: 28, height: 28, fill: '#1f5a40' }),
      [['#2f6fd6', 12, 32], ['#c8372d', 32, 12], ['#f2c31b', 52, 32], ['#2e9a52', 32, 52]].map(([c, x, y]) => s('circle', { cx: x, cy: y, r: 5, fill: c })));
  }
  if (id === 'stumphog') {
    return box(s('rect', { width: 64, height: 64, rx: 10, fill: '#c9a66b' }),
      [12, 26, 40].map((x) => s('circle', { cx: x, cy: 18, r: 6, fill: '#a9834b' })), [12, 26, 40].map((x) => s('circle', { cx: x, cy: 46, r: 6, fill: '#a9834b' })),
      s('circle', { cx: 54, cy: 32, r: 8, fill: '#8a6538' }), s('ellipse', { cx: 54, cy: 31, rx: 4, ry: 3, fill: '#e4ddd0' }));
  }
  if (id === 'stortok') {
    return box(s('rect', { width: 64, height: 64, rx: 10, fill: '#1f5a40' }),
      s('rect', { x: 12, y: 14, width: 24, height: 34, rx: 3, fill: '#fffdf7', transform: 'rotate(-12 24 31)' }),
      s('rect', { x: 28, y: 14, width: 24, height: 34, rx: 3, fill: '#fffdf7', stroke: '#999', transform: 'rotate(10 40 31)' }),
      s('text', { x: 36, y: 38, 'font-size': 16, fill: '#c0262d' }, '♥'), s('text', { x: 14, y: 32, 'font-size': 14, fill: '#1d1b1a' }, '♠'));
  }
  if (id === 'lager') {
    return box(s('rect', { width: 64, height: 64, rx: 10, fill: '#3f2c1f' }),
      [0, 1, 2, 3].map((r) => [0, 1, 2].map((c) => s('rect', { x: 10 + c * 15, y: 4 + r * 14, width: 15, height: 14, fill: (r + c) % 2 ? '#d2b98a' : '#e8d6b0' }))),
      s('circle', { cx: 17, cy: 39, r: 5, fill: '#2f6fd6' }), s('circle', { cx: 47, cy: 11, r: 5, fill: '#f2c31b' }), s('rect', { x: 28, y: 22, width: 9, height: 9, fill: '#c1312b' }));
  }
  return box(s('rect', { width: 64, height: 64, rx: 10, fill: '#9c3d24' }));
}

/**
 * The computer players a game offers: its levels (`ai:easy` …) when the
 * server has them, else its plain agents.
 * @param {GameInfo} game
 */
function computerChoices(game) {
  const agents = game.agents || [];
  const levels = LEVELS.map((l) => `ai:${l}`).filter((a) => agents.includes(a));
  return levels.length ? levels : agents.filter((a) => !a.includes(':')).slice(0, 4);
}

/** How long the player to move may take before the rule applies (the server's default: a day). */
const WAITS = [300, 3600, 86400, 3 * 86400, 7 * 86400];
const DEFAULT_WAIT = 86400;

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
  const saved = store.lastChoices();
  let game = games.find((g) => g.id === saved.game) || games[0];
  /** @type {Record<string, string>} */
  let options = {};
  /** @type {string[]} */
  let seats = [];

  const list = h('div', { class: 'game-list', role: 'group', 'aria-label': t('lobby.games') });
  const form = h('div', { class: 'form-grid' });
  const seatBox = h('div', { class: 'form-grid', style: 'margin-top: .8rem' });
  const result = h('div');
  const errorBox = h('div', { role: 'alert' });
  const nameInput = h('input', { type: 'text', value: store.playerName(), placeholder: t('lobby.name_placeholder'), maxlength: 40, id: 'player-name' });
  const running = h('div', { class: 'panel' });
  const openBox = h('div', { class: 'panel listed-panel', 'data-testid': 'open-list' });
  const liveBox = h('div', { class: 'panel listed-panel', 'data-testid': 'live-list' });
  const createButton = h('button', { class: 'btn primary', 'data-testid': 'create' }, t('lobby.create'));
  const savedWait = WAITS.includes(Number(saved.inactivity?.seconds)) ? Number(saved.inactivity.seconds) : DEFAULT_WAIT;
  const waitSelect = h('select', { id: 'inactivity-seconds', 'data-testid': 'inactivity-seconds' },
    WAITS.map((w) => h('option', { value: w, selected: w === savedWait }, w === DEFAULT_WAIT ? t('lobby.default_value', { value: durationText(w) }) : durationText(w))));
  const thenSelect = h('select', { id: 'inactivity-then', 'data-testid': 'inactivity-then' },
    h('option', { value: 'forfeit', selected: saved.inactivity?.then !== 'ai' }, t('lobby.then_forfeit')),
    h('option', { value: 'ai', selected: saved.inactivity?.then === 'ai' }, t('lobby.then_ai')));
  const listedBox = h('input', { type: 'checkbox', id: 'listed', 'data-testid': 'listed', checked: saved.listed === true });
  const rated = ratedChoice();
  const savedClock = PRESETS.findIndex((p) => JSON.stringify(p.clock) === JSON.stringify(saved.clock || null));
  const clockSelect = h('select', { id: 'clock', 'data-testid': 'clock' },
    PRESETS.map((p, i) => h('option', { value: i, selected: i === savedClock }, controlText(p.clock))));
  const clock = () => PRESETS[Number(clockSelect.value)]?.clock || null;
  const inactivity = () => ({ seconds: Number(waitSelect.value), then: /** @type {'forfeit' | 'ai'} */ (thenSelect.value === 'ai' ? 'ai' : 'forfeit') });

  const resetFor = (/** @type {GameInfo} */ g) => {
    game = g;
    options = {};
    for (const o of g.options) options[o.key] = (saved.game === g.id && saved.options && saved.options[o.key]) || o.default;
    seats = [];
    layoutSeats();
  };

  const layoutSeats = () => {
    const n = seatCount(game, options);
    const old = saved.game === game.id && Array.isArray(saved.seats) ? saved.seats : [];
    const computers = computerChoices(game);
    const ai = computers.includes('ai:medium') ? 'ai:medium' : computers[0] || 'open';
    const valid = (/** @type {string} */ c) => c === 'you' || c === 'open' || computers.includes(c);
    seats = Array.from({ length: n }, (_, i) => [seats[i], old[i]].find((c) => c && valid(c)) || (i === 0 ? 'you' : ai));
  };

  const drawGames = () => {
    replace(list, games.map((g) => h('button', {
      class: 'game-card', 'aria-pressed': g.id === game.id ? 'true' : 'false', 'data-game': g.id,
      onclick: () => { resetFor(g); draw(); },
    }, icon(g.id), h('span', { class: 'name' }, gameName(g)), h('span', { class: 'sum' }, gameSummary(g)))));
  };

  const drawOptions = () => {
    const rows = optionFields(game, options, 'opt', (key) => {
      if (key === 'players') {
        layoutSeats();
        drawSeats();
        drawChoice();
      }
    });
    replace(form, rows.length ? rows : h('p', { class: 'muted' }, t('lobby.no_options')));
  };

  const drawSeats = () => {
    /** @type {import('./dom.js').Child[]} */
    const rows = [];
    seats.forEach((choice, i) => {
      const id = `seat-${i}`;
      const sel = h('select', { id, 'data-seat': i },
        h('option', { value: 'you', selected: choice === 'you' }, t('lobby.seat_you')),
        h('option', { value: 'open', selected: choice === 'open' }, t('lobby.seat_open')),
        computerChoices(game).map((a) => h('option', { value: a, selected: choice === a }, t('lobby.seat_computer', { level: levelName(a) }))));
      sel.addEventListener('change', () => {
        if (sel.value === 'you') seats = seats.map((c) => (c === 'you' ? 'open' : c));
        seats[i] = sel.value;
        drawSeats();
        drawChoice();
      });
      rows.push(h('label', { for: id }, seatRole(game.id, i)), sel);
    });
    replace(seatBox, rows);
    rated.update(seats);
  };

  const choice = h('span', { class: 'small muted', 'data-testid': 'create-summary' });
  /** What the main button will create: the game and who plays. */
  const drawChoice = () => {
    const who = seats.map((c) => (c === 'you' ? t('lobby.summary_you') : c === 'open' ? t('lobby.summary_open') : t('lobby.summary_computer', { level: levelName(c) })));
    replace(choice, `${gameName(game)}: ${who.join(', ')}`);
  };

  const draw = () => {
    drawGames();
    drawOptions();
    drawSeats();
    drawChoice();
  };

  createButton.addEventListener('click', async () => {
    replace(errorBox);
    createButton.disabled = true;
    const name = nameInput.value.trim();
    store.setPlayerName(name);
    store.saveChoices({ game: game.id, options, seats, inactivity: inactivity(), listed: listedBox.checked, clock: clock() });
    try {
      const created = await api.createTable({
        game: game.id,
        options,
        seats: seats.map((c) => (c === 'you' ? 'open' : c)),
        player: guestKey(),
        inactivity: inactivity(),
        listed: listedBox.checked,
        ...(rated.rated() ? { rated: true } : {}),
        ...(clock() ? { clock: /** @type {any} */ (clock()) } : {}),
      });
      store.rememberCreated(created.id);
      const mine = seats.indexOf('you');
      if (mine >= 0) {
        const joined = await api.joinTable(created.id, { seat: mine, name: name || undefined, player: guestKey() });
        store.rememberSeat(created.id, joined.seat, joined.token);
      }
      nav.go(`/t/${created.id}`);
    } catch (e) {
      replace(errorBox, h('div', { class: 'error-box' }, errorText(e)));
    } finally {
      createButton.disabled = false;
    }
  });

  resetFor(game);
  draw();
  const openList = drawListed(openBox, 'open', nav);
  const liveList = drawListed(liveBox, 'live', nav);
  const live = lobbyLive(games, game.id, nav, (tables) => { openList.show(tables); liveList.show(tables); });
  replace(root, h('div', { class: 'lobby' },
    h('div', { class: 'lobby-intro' }, h('h1', {}, t('lobby.title')),
      h('p', { class: 'muted' }, t('lobby.intro'))),
    live.element,
    h('section', { class: 'panel lobby-new', 'aria-label': t('lobby.new_table') },
      h('h2', {}, t('lobby.new_table')), list,
      h('h3', {}, t('lobby.options')), form,
      h('h3', {}, t('lobby.players')),
      h('div', { class: 'form-grid' }, h('label', { for: 'player-name' }, t('lobby.your_name')), nameInput),
      seatBox, rated.row,
      h('div', { class: 'check-row' }, listedBox, h('label', { for: 'listed' }, t('lists.listed_label'))),
      h('h3', {}, t('clock.title')),
      h('div', { class: 'form-grid' },
        h('label', { for: 'clock' }, t('clock.label')), clockSelect,
        h('div', { class: 'help' }, t('clock.help'))),
      h('h3', {}, t('lobby.away_title')),
      h('div', { class: 'form-grid' },
        h('label', { for: 'inactivity-seconds' }, t('lobby.away_after')), waitSelect,
        h('label', { for: 'inactivity-then' }, t('lobby.away_then')), thenSelect,
        h('div', { class: 'help' }, t('lobby.away_help'))),
      // The main action stays in sight at the foot of the screen while the choices scroll.
      h('div', { class: 'row create-row' }, createButton, choice, h('a', { href: `/?rules=${game.id}`, target: '_blank', class: 'small' }, t('lobby.rules'))),
      errorBox, result),
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
