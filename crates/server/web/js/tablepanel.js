// @ts-check
/**
 * The table's side column: the seats and their clocks, this seat's menu,
 * invites, hints, the moves so far, every legal move and the table's info.
 */

import * as api from './api.js';
import * as store from './store.js';
import * as prompts from './prompts.js';
import { h, replace } from './dom.js';
import { colourName, gameNameById, inactivityText, optionLabel, optionValue, seatColour, seatPerson, seatRole, shortName } from './names.js';
import { autoRollChoice } from './clock.js';
import { chanceText, moveInViewersTerms, stumphogMoveText } from './events.js';
import { invite } from './prompts.js';
import { shortCommitment } from './dice.js';
import { ltr, t } from './i18n.js';
import { errorText } from './errors.js';
import { ratedMark, seatName } from './rated.js';
import { closeTable, join, send, showSeatLink } from './tableactions.js';
import { renderBoard, renderOverlay } from './tableboard.js';

/** @typedef {import('./table.js').TableView} TableView */
/** @typedef {import('./table.js').LogEntry} LogEntry */
/** @typedef {import('./types.js').Hint} Hint */

/** Draws the seats: who sits where, whose turn, the clocks, Join buttons. @param {TableView} tv */
export function renderSeats(tv) {
  const turn = tv.view.turn;
  tv.rated?.seen(tv.seats, tv.isOver());
  replace(tv.seatsBox, h('h2', {}, tv.seat === null ? t('table.players_watching') : t('table.players'), tv.rated ? [' ', ratedMark()] : null),
    tv.clocks.has() ? h('p', { class: 'small muted', 'data-testid': 'clock-control' }, t('clock.label'), ': ', tv.clocks.describe()) : null,
    h('ul', { class: 'seats' }, tv.seats.map((s) => {
      const toMove = !tv.isOver() && !tv.between && turn.kind === 'player' && turn.seat === s.seat;
      return h('li', { class: toMove ? 'to-move' : '' },
        h('span', { class: 'swatch', style: `background: ${seatColour(tv.game, s.seat, tv.view.observation)}` }),
        tv.rated ? seatName(s, seatPerson(s, tv.seat, tv.seats), tv.rated.of(s.seat)) : h('span', { class: 'seat-name' }, seatPerson(s, tv.seat, tv.seats)),
        h('span', { class: 'badge' }, seatRole(tv.game, s.seat, tv.view.observation)),
        toMove ? h('span', { class: 'badge turn' }, t('table.to_move')) : null,
        tv.clocks.element(s.seat),
        s.kind === 'open' && tv.seat === null && !tv.isOver() ? h('button', { class: 'btn small', onclick: () => join(tv, s.seat) }, t('table.join')) : null);
    })));
}

/** This seat's and the creator's choices: continue elsewhere, resign, close. @param {TableView} tv */
export function renderSeatMenu(tv) {
  const parts = [];
  if (tv.seat !== null && tv.token && !tv.isOver()) {
    parts.push(h('div', { class: 'row' },
      h('button', { class: 'btn small', 'data-testid': 'seat-link', onclick: () => showSeatLink(tv) }, t('table.seat_link')),
      tv.status === 'playing'
        ? h('button', { class: 'btn small danger', 'data-testid': 'resign', onclick: () => { tv.confirmingResign = true; renderOverlay(tv); } }, t('resign.label'))
        : null));
    if (tv.seatUrl) {
      parts.push(prompts.copyLink(tv.seatUrl, t('table.your_seat'), 'copy-seat-link', t('table.seat_link_label'), 'seat-url'),
        h('p', { class: 'small muted' }, t('table.seat_link_help')));
    }
  }
  if (tv.seat !== null && tv.token && !tv.isOver()) {
    const row = autoRollChoice(tv.table.id, tv.token, tv.seats[tv.seat], tv.view.observation, (e) => { tv.error = errorText(e); tv.render(); });
    if (row) parts.push(row);
  }
  if (tv.status === 'waiting' && !tv.isOver() && store.createdHere(tv.table.id)) {
    parts.push(h('div', { class: 'row' },
      h('button', { class: 'btn small', 'data-testid': 'close-table', onclick: () => closeTable(tv) }, t('table.close')),
      h('span', { class: 'small muted' }, t('table.close_help'))));
  }
  replace(tv.seatMenu, parts.length ? h('div', { class: 'panel seat-menu' }, h('h2', {}, t('table.this_table')), parts) : null);
  tv.seatMenu.style.display = parts.length ? '' : 'none';
}

/** Draws the invite links for the open seats. @param {TableView} tv */
export function renderInvites(tv) {
  const open = tv.seats.filter((s) => s.kind === 'open');
  if (open.length === 0 || tv.isOver()) {
    replace(tv.invitesBox);
    return;
  }
  if (tv.table.rematch_of) {
    // A rematch's seats are kept for the last game's players: no links.
    replace(tv.invitesBox, h('div', { class: 'panel', 'data-testid': 'rematch-kept' }, h('p', { class: 'small' }, t('invite.kept'))));
    return;
  }
  replace(tv.invitesBox, h('div', { class: 'panel' }, h('h2', {}, t('invite.title')),
    h('p', { class: 'small muted' }, t('invite.help')),
    open.map((s) => invite(`${location.origin}/t/${tv.table.id}?seat=${s.seat}`, seatRole(tv.game, s.seat, tv.view.observation)))));
}

/** Draws the hints panel (`loading`: while the computer thinks). @param {TableView} tv @param {boolean} loading */
export function renderHints(tv, loading) {
  if (tv.seat === null || tv.isOver()) {
    replace(tv.hintsBox);
    tv.hintsBox.style.display = 'none';
    return;
  }
  tv.hintsBox.style.display = '';
  const stale = tv.hintsVersion !== tv.view.version;
  const body = [];
  if (loading) body.push(h('p', { class: 'muted small' }, t('hints.thinking')));
  else if (tv.hintError) body.push(h('p', { class: 'small' }, tv.hintError));
  else if (!tv.hints || stale) body.push(h('p', { class: 'muted small' }, t('hints.ask')));
  else if (tv.hints.length === 0) body.push(h('p', { class: 'muted small' }, t('hints.none')));
  else {
    body.push(h('ul', { class: 'hints', 'data-testid': 'hints' }, tv.hints.map((hint) => {
      const legal = (tv.view.legal || []).find((a) => a.text === hint.text) || { text: hint.text, json: hint.json };
      const pct = Math.round(hint.estimate * 100);
      return h('li', {},
        h('button', {
          onclick: () => { tv.preview = legal; renderBoard(tv); },
          onmouseenter: () => { tv.preview = legal; renderBoard(tv); },
          'aria-label': t('hints.label', { move: ltr(hint.text), pct }),
        },
        h('span', {}, h('code', {}, hint.text), h('div', { class: 'hint-bar' }, h('span', { style: `width: ${pct}%` }))),
        h('span', {}, `${pct}%`)),
        h('button', { class: 'btn small', onclick: () => send(tv, { json: hint.json }), 'aria-label': t('hints.play_label', { move: hint.text }) }, t('table.play')),
        hint.equity ? h('div', { class: 'small muted', 'data-testid': 'hint-equity' }, equityText(hint.equity)) : null);
    })));
    body.push(h('p', { class: 'small muted' }, t('hints.explain')));
  }
  replace(tv.hintsBox, h('h2', {}, t('hints.title')), body);
}

/**
 * The moves so far: each player's move numbered by turn, with who made
 * it (as the page names the seats) and, in Tawla and backgammon, in the
 * viewer's own point numbering, hits and pins said in words; the dice
 * and the games' events between them.
 * @param {TableView} tv
 */
export function renderLog(tv) {
  // Nothing after the position on the board: the answers to a move wait
  // for their turn to be shown, a match's next game for Next game.
  const shown = tv.shownVersion();
  const versions = [...tv.log.keys()].filter((v) => v <= shown).sort((a, b) => a - b);
  const items = [];
  let turn = 0;
  for (const v of versions) {
    const e = /** @type {LogEntry} */ (tv.log.get(v));
    if (e.hidden && e.events.length === 0) continue;
    if (e.text) {
      const chance = e.seat === null || e.seat === undefined;
      const seat = chance ? null : tv.seats[/** @type {number} */ (e.seat)];
      const who = chance ? t('log.dice') : seat ? shortName(seat, tv.seat, tv.seats) : '';
      const forced = e.auto && seat && seat.kind !== 'ai';
      const text = chance ? chanceText(e.text) : moveText(tv, e.text, /** @type {number} */ (e.seat), e.json);
      if (!chance) turn += 1;
      items.push(h('li', { class: chance ? 'auto chance' : forced ? 'auto' : '', value: chance ? null : turn, 'data-testid': chance ? null : 'log-move' },
        who ? h('span', { class: 'who' }, `${who}: `) : null, h('bdi', { class: 'mv' }, text), forced ? ` (${e.text === 'pass' ? t('log.no_move') : t('log.forced')})` : ''));
    }
    for (const ev of e.events) items.push(h('li', { class: 'event' }, tv.eventText(ev)));
  }
  replace(tv.logList, items.length ? items : h('li', { class: 'muted', style: 'list-style:none' }, t('log.none')));
  tv.logList.scrollTop = tv.logList.scrollHeight;
}

/**
 * A move's notation as the viewer reads it (see `moveInViewersTerms`);
 * Stumphög's moves, which its notation writes in English words, worded
 * from the action's JSON in the viewer's language.
 * @param {TableView} tv
 * @param {string} text @param {number} mover @param {any} [json]
 */
export function moveText(tv, text, mover, json) {
  const colour = /^choose (\w+)$/.exec(text);
  if (colour) return t('log.chose_colour', { colour: colourName(colour[1]) });
  const resign = /^resign:\d+:(\w+)$/.exec(text);
  if (resign) return t(`log.resigns.${resign[1]}`);
  // The cube's words and a pass, in the page's language.
  if (['pass', 'double', 'take', 'drop'].includes(text)) return t(`log.${text}`);
  const otherSide = mover !== (tv.seat === 1 ? 1 : 0);
  if (tv.game === 'stumphog' && json !== undefined) {
    const worded = stumphogMoveText(json, otherSide);
    if (worded) return worded;
  }
  return moveInViewersTerms(tv.game, text, otherSide);
}

/** Draws every legal move as a button. @param {TableView} tv */
export function renderAllMoves(tv) {
  const legal = tv.myTurn() ? tv.ui.candidates(tv.ctx()) : [];
  replace(tv.allMoves, legal.length
    ? legal.slice(0, 400).map((a) => h('button', { class: 'btn', onclick: () => send(tv, { json: a.json }) }, a.text))
    : h('span', { class: 'muted small' }, t('table.nothing_to_play')));
}

/** Draws the table's info: game, options, dice commitment, links, speed, sound. @param {TableView} tv */
export function renderInfo(tv) {
  const opts = Object.entries(tv.table.options || {}).map(([k, v]) => `${optionLabel(k)}: ${optionValue(k, v)}`).join(', ');
  const finished = tv.isOver();
  replace(tv.infoBox,
    h('div', {}, h('strong', {}, `${t('info.game')} `), gameNameById(tv.game), opts ? ` (${opts})` : ''),
    tv.table.inactivity ? h('div', { 'data-testid': 'table-inactivity' }, h('strong', {}, `${t('info.away')} `), inactivityText(tv.table.inactivity)) : null,
    tv.table.dice
      ? h('div', { 'data-testid': 'commitment', title: t('info.commitment_help', { hash: tv.table.dice.commitment }) },
        h('strong', {}, `${t('info.commitment')} `), shortCommitment(tv.table.dice.commitment))
      : null,
    h('div', { class: 'row', style: 'margin-top: .4rem' },
      finished || !tv.table.hidden_information
        ? h('a', { href: `/t/${tv.table.id}?replay`, onclick: (/** @type {MouseEvent} */ e) => { e.preventDefault(); tv.close(); tv.nav.go(`/t/${tv.table.id}?replay`); } }, t('over.replay'))
        : null,
      finished ? h('a', { href: `/t/${tv.table.id}?replay&analyse`, 'data-testid': 'analyse-link', onclick: (/** @type {MouseEvent} */ e) => { e.preventDefault(); tv.close(); tv.nav.go(`/t/${tv.table.id}?replay&analyse`); } }, t('analysis.analyse')) : null,
      finished || !tv.table.hidden_information ? h('a', { href: api.recordUrl(tv.table.id), download: `${tv.game}-${tv.table.id}.json` }, t('info.download')) : null,
      h('a', { href: `/?rules=${tv.game}`, target: '_blank' }, t('lobby.rules')),
      h('a', { href: '/', onclick: (/** @type {MouseEvent} */ e) => { e.preventDefault(); tv.close(); tv.nav.go('/'); } }, t('nav.lobby'))),
    h('label', { class: 'small speed' }, `${t('info.speed')} `,
      h('select', {
        'data-testid': 'speed',
        onchange: (/** @type {Event} */ e) => store.setSpeed(/** @type {any} */ (/** @type {HTMLSelectElement} */ (e.target).value)),
      }, store.SPEEDS.map((v) => h('option', { value: v, selected: store.speed() === v }, t(`speed.${v}`))))),
    h('div', { class: 'check-row small' },
      h('input', {
        type: 'checkbox', id: 'sound', 'data-testid': 'sound', checked: store.sound(),
        onchange: (/** @type {Event} */ e) => store.setSound(/** @type {HTMLInputElement} */ (e.target).checked),
      }),
      h('label', { for: 'sound' }, t('info.sound'))));
}

/**
 * A hint's equity in words: the value, and after a play the chances of
 * each result.
 * @param {import('./types.js').Equity} e
 * @returns {string}
 */
export function equityText(e) {
  const pct = (/** @type {number} */ x) => `${(100 * x).toFixed(1)}%`;
  if (e.kind === 'match_winning_chance') return t('equity.match', { pct: pct(e.value) });
  const value = `${e.value >= 0 ? '+' : '−'}${Math.abs(e.value).toFixed(3)}`;
  if (!e.outcomes) return t('equity.cubeful', { value });
  const o = e.outcomes;
  return t('equity.full', {
    value, win: pct(o.win), wg: pct(o.win_gammon), wb: pct(o.win_backgammon),
    lose: pct(1 - o.win), lg: pct(o.lose_gammon), lb: pct(o.lose_backgammon),
  });
}

/**
 * Hints best first: by equity where the computer gives one, else by the
 * chance to win.
 * @param {Hint[]} hints
 * @returns {Hint[]}
 */
export function sortedHints(hints) {
  const byEquity = hints.every((x) => x.equity);
  const key = (/** @type {Hint} */ x) => (byEquity && x.equity ? x.equity.value : x.estimate);
  return [...hints].sort((a, b) => key(b) - key(a));
}
