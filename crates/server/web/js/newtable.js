// @ts-check
/**
 * The lobby's form for a new table: pick a game and its options, say who
 * sits where (you, an open seat for a friend, or the computer at a level),
 * rated or not, listed or not, the clock and what happens to a player who
 * is away; create the table, take your seat and open it. The choices are
 * remembered for next time.
 */

import * as api from './api.js';
import * as store from './store.js';
import { h, replace, s } from './dom.js';
import { LEVELS, durationText, gameName, gameSummary, levelName, seatRole } from './names.js';
import { optionFields, seatCount } from './optionfields.js';
import { errorText } from './errors.js';
import { guestKey } from './account.js';
import { ratedChoice } from './rated.js';
import { PRESETS, controlText } from './timecontrol.js';
import { t } from './i18n.js';

/** @typedef {import('./types.js').GameInfo} GameInfo */
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
 * The table's time rules: the clock (the presets, null: none) and how long
 * the player to move may take before he forfeits or the computer plays for
 * him; each chosen as last time.
 * @param {any} saved the choices remembered from last time
 */
function timeRules(saved) {
  const savedWait = WAITS.includes(Number(saved.inactivity?.seconds)) ? Number(saved.inactivity.seconds) : DEFAULT_WAIT;
  const waitSelect = h('select', { id: 'inactivity-seconds', 'data-testid': 'inactivity-seconds' },
    WAITS.map((w) => h('option', { value: w, selected: w === savedWait }, w === DEFAULT_WAIT ? t('lobby.default_value', { value: durationText(w) }) : durationText(w))));
  const thenSelect = h('select', { id: 'inactivity-then', 'data-testid': 'inactivity-then' },
    h('option', { value: 'forfeit', selected: saved.inactivity?.then !== 'ai' }, t('lobby.then_forfeit')),
    h('option', { value: 'ai', selected: saved.inactivity?.then === 'ai' }, t('lobby.then_ai')));
  const savedClock = PRESETS.findIndex((p) => JSON.stringify(p.clock) === JSON.stringify(saved.clock || null));
  const clockSelect = h('select', { id: 'clock', 'data-testid': 'clock' },
    PRESETS.map((p, i) => h('option', { value: i, selected: i === savedClock }, controlText(p.clock))));
  return {
    waitSelect, thenSelect, clockSelect,
    clock: () => PRESETS[Number(clockSelect.value)]?.clock || null,
    inactivity: () => ({ seconds: Number(waitSelect.value), then: /** @type {'forfeit' | 'ai'} */ (thenSelect.value === 'ai' ? 'ai' : 'forfeit') }),
  };
}

/** The new-table form; `element` is its panel, `game` the game chosen. */
export class NewTable {
  list = h('div', { class: 'game-list', role: 'group', 'aria-label': t('lobby.games') });
  form = h('div', { class: 'form-grid' });
  seatBox = h('div', { class: 'form-grid', style: 'margin-top: .8rem' });
  result = h('div');
  errorBox = h('div', { role: 'alert' });
  nameInput = h('input', { type: 'text', value: store.playerName(), placeholder: t('lobby.name_placeholder'), maxlength: 40, id: 'player-name' });
  createButton = h('button', { class: 'btn primary', 'data-testid': 'create' }, t('lobby.create'));
  /** What the main button will create: the game and who plays. */
  choice = h('span', { class: 'small muted', 'data-testid': 'create-summary' });
  /** @type {Record<string, string>} */
  options = {};
  /** Who sits in each seat: `you`, `open` or a computer. @type {string[]} */
  seats = [];

  /** @param {GameInfo[]} games @param {Nav} nav */
  constructor(games, nav) {
    this.games = games;
    this.nav = nav;
    this.saved = store.lastChoices();
    this.game = games.find((g) => g.id === this.saved.game) || games[0];
    this.rules = timeRules(this.saved);
    this.listedBox = h('input', { type: 'checkbox', id: 'listed', 'data-testid': 'listed', checked: this.saved.listed === true });
    this.rated = ratedChoice();
    this.createButton.addEventListener('click', () => this.create());
    this.resetFor(this.game);
    this.draw();
    this.element = this.layout();
  }

  /** @param {GameInfo} g */
  resetFor(g) {
    const saved = this.saved;
    this.game = g;
    this.options = {};
    for (const o of g.options) this.options[o.key] = (saved.game === g.id && saved.options && saved.options[o.key]) || o.default;
    this.seats = [];
    this.layoutSeats();
  }

  layoutSeats() {
    const game = this.game;
    const n = seatCount(game, this.options);
    const old = this.saved.game === game.id && Array.isArray(this.saved.seats) ? this.saved.seats : [];
    const computers = computerChoices(game);
    const ai = computers.includes('ai:medium') ? 'ai:medium' : computers[0] || 'open';
    const valid = (/** @type {string} */ c) => c === 'you' || c === 'open' || computers.includes(c);
    this.seats = Array.from({ length: n }, (_, i) => [this.seats[i], old[i]].find((c) => c && valid(c)) || (i === 0 ? 'you' : ai));
  }

  draw() {
    this.drawGames();
    this.drawOptions();
    this.drawSeats();
    this.drawChoice();
  }

  drawGames() {
    replace(this.list, this.games.map((g) => h('button', {
      class: 'game-card', 'aria-pressed': g.id === this.game.id ? 'true' : 'false', 'data-game': g.id,
      onclick: () => { this.resetFor(g); this.draw(); },
    }, icon(g.id), h('span', { class: 'name' }, gameName(g)), h('span', { class: 'sum' }, gameSummary(g)))));
  }

  drawOptions() {
    const rows = optionFields(this.game, this.options, 'opt', (key) => {
      if (key === 'players') {
        this.layoutSeats();
        this.drawSeats();
        this.drawChoice();
      }
    });
    replace(this.form, rows.length ? rows : h('p', { class: 'muted' }, t('lobby.no_options')));
  }

  drawSeats() {
    /** @type {import('./dom.js').Child[]} */
    const rows = [];
    this.seats.forEach((choice, i) => {
      const id = `seat-${i}`;
      const sel = h('select', { id, 'data-seat': i },
        h('option', { value: 'you', selected: choice === 'you' }, t('lobby.seat_you')),
        h('option', { value: 'open', selected: choice === 'open' }, t('lobby.seat_open')),
        computerChoices(this.game).map((a) => h('option', { value: a, selected: choice === a }, t('lobby.seat_computer', { level: levelName(a) }))));
      sel.addEventListener('change', () => {
        if (sel.value === 'you') this.seats = this.seats.map((c) => (c === 'you' ? 'open' : c));
        this.seats[i] = sel.value;
        this.drawSeats();
        this.drawChoice();
      });
      rows.push(h('label', { for: id }, seatRole(this.game.id, i)), sel);
    });
    replace(this.seatBox, rows);
    this.rated.update(this.seats);
  }

  drawChoice() {
    const who = this.seats.map((c) => (c === 'you' ? t('lobby.summary_you') : c === 'open' ? t('lobby.summary_open') : t('lobby.summary_computer', { level: levelName(c) })));
    replace(this.choice, `${gameName(this.game)}: ${who.join(', ')}`);
  }

  /** Creates the table as chosen (remembering the choices), takes the player's seat and opens it. */
  async create() {
    const { game, options, seats, rules, listedBox } = this;
    replace(this.errorBox);
    this.createButton.disabled = true;
    const name = this.nameInput.value.trim();
    store.setPlayerName(name);
    store.saveChoices({ game: game.id, options, seats, inactivity: rules.inactivity(), listed: listedBox.checked, clock: rules.clock() });
    try {
      const created = await api.createTable({
        game: game.id,
        options,
        seats: seats.map((c) => (c === 'you' ? 'open' : c)),
        player: guestKey(),
        inactivity: rules.inactivity(),
        listed: listedBox.checked,
        ...(this.rated.rated() ? { rated: true } : {}),
        ...(rules.clock() ? { clock: /** @type {any} */ (rules.clock()) } : {}),
      });
      store.rememberCreated(created.id);
      const mine = seats.indexOf('you');
      if (mine >= 0) {
        const joined = await api.joinTable(created.id, { seat: mine, name: name || undefined, player: guestKey() });
        store.rememberSeat(created.id, joined.seat, joined.token);
      }
      this.nav.go(`/t/${created.id}`);
    } catch (e) {
      replace(this.errorBox, h('div', { class: 'error-box' }, errorText(e)));
    } finally {
      this.createButton.disabled = false;
    }
  }

  /** The panel, drawn once (the rules link is the first game's). */
  layout() {
    const rules = this.rules;
    return h('section', { class: 'panel lobby-new', 'aria-label': t('lobby.new_table') },
      h('h2', {}, t('lobby.new_table')), this.list,
      h('h3', {}, t('lobby.options')), this.form,
      h('h3', {}, t('lobby.players')),
      h('div', { class: 'form-grid' }, h('label', { for: 'player-name' }, t('lobby.your_name')), this.nameInput),
      this.seatBox, this.rated.row,
      h('div', { class: 'check-row' }, this.listedBox, h('label', { for: 'listed' }, t('lists.listed_label'))),
      h('h3', {}, t('clock.title')),
      h('div', { class: 'form-grid' },
        h('label', { for: 'clock' }, t('clock.label')), rules.clockSelect,
        h('div', { class: 'help' }, t('clock.help'))),
      h('h3', {}, t('lobby.away_title')),
      h('div', { class: 'form-grid' },
        h('label', { for: 'inactivity-seconds' }, t('lobby.away_after')), rules.waitSelect,
        h('label', { for: 'inactivity-then' }, t('lobby.away_then')), rules.thenSelect,
        h('div', { class: 'help' }, t('lobby.away_help'))),
      // The main action stays in sight at the foot of the screen while the choices scroll.
      h('div', { class: 'row create-row' }, this.createButton, this.choice, h('a', { href: `/?rules=${this.game.id}`, target: '_blank', class: 'small' }, t('lobby.rules'))),
      this.errorBox, this.result);
  }
}
