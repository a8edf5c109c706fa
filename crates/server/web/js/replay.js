// @ts-check
/**
 * The replay of a game: every position after every action, with step
 * controls, a slider, the list of moves to jump to, and the record to
 * download.
 */

import * as api from './api.js';
import * as store from './store.js';
import { fitToRoom, h, replace } from './dom.js';
import { uiFor } from './games/index.js';
import { gameNameById, seatRole, shortName } from './names.js';
import { ltr, t } from './i18n.js';
import { errorText } from './errors.js';
import { verifyDice } from './dice.js';
import { chanceText, eventText, stumphogMoveText } from './events.js';
import { analysisPanel } from './analysis.js';

/** @typedef {{go: (path: string) => void}} Nav */

/**
 * Shows the replay of a table's game.
 * @param {HTMLElement} root
 * @param {string} tableId
 * @param {Nav} nav
 */
export async function showReplay(root, tableId, nav) {
  replace(root, h('p', { class: 'muted' }, t('replay.loading')));
  const mine = store.seatsAt(tableId)[0];
  /** @type {any} */
  let replay;
  try {
    replay = await api.getReplay(tableId, mine ? mine.seat : null);
  } catch (e) {
    replace(root, h('div', { class: 'error-box' }, t('replay.failed', { reason: errorText(e) })),
      h('p', {}, h('a', { href: `/t/${tableId}` }, t('replay.back'))));
    return () => {};
  }
  const steps = /** @type {any[]} */ (replay.steps);
  const viewerSeat = mine ? mine.seat : null;
  const names = seatNames(replay, viewerSeat);
  let at = steps.length - 1;
  /** @type {ReturnType<typeof setInterval> | null} */
  let playing = null;

  const board = h('div', { class: 'board-wrap' });
  const caption = h('div', { class: 'status-bar', role: 'status', 'aria-live': 'polite' });
  const slider = h('input', { type: 'range', min: 0, max: steps.length - 1, value: at, 'aria-label': t('replay.position') });
  const list = h('ol', { class: 'log', start: 0, 'aria-label': t('table.moves'), tabindex: 0 });
  const playButton = h('button', { class: 'btn', 'data-testid': 'replay-play' }, `▶ ${t('replay.play')}`);
  const controls = h('div', { class: 'replay-controls' });
  /**
   * On a phone, holds the board to the room between the caption and the
   * step buttons, so that the buttons stay on the screen however many
   * lines the caption takes.
   */
  const fit = () => fitToRoom(board, controls);
  const sizeWatch = new ResizeObserver(fit);
  sizeWatch.observe(caption);
  sizeWatch.observe(controls);
  window.addEventListener('resize', fit);

  const draw = () => {
    drawBoard(board, replay, at, names, viewerSeat);
    review.show(at, board);
    replace(caption, captionOf(replay, at, names, viewerSeat));
    slider.value = String(at);
    for (const li of list.querySelectorAll('li')) li.classList.toggle('current', Number(li.getAttribute('data-at')) === at);
    const current = list.querySelector('li.current');
    if (current) current.scrollIntoView({ block: 'nearest' });
  };
  const go = (/** @type {number} */ n) => {
    at = Math.max(0, Math.min(steps.length - 1, n));
    draw();
  };
  const review = analysisPanel(tableId, replay, names, (n) => { stop(); go(n); });
  const stop = () => {
    if (playing) clearInterval(playing);
    playing = null;
    playButton.textContent = `▶ ${t('replay.play')}`;
  };
  playButton.addEventListener('click', () => {
    if (playing) return stop();
    if (at >= steps.length - 1) go(0);
    playButton.textContent = `‖ ${t('replay.pause')}`;
    playing = setInterval(() => {
      if (at >= steps.length - 1) stop();
      else go(at + 1);
    }, 700);
  });
  /** Stops playing and shows step `n`. @param {number} n */
  const jump = (n) => { stop(); go(n); };
  slider.addEventListener('input', () => jump(Number(slider.value)));
  const keys = (/** @type {KeyboardEvent} */ e) => {
    if (e.target instanceof HTMLInputElement && e.target.type !== 'range') return;
    if (e.key === 'ArrowRight') { jump(at + 1); e.preventDefault(); }
    if (e.key === 'ArrowLeft') { jump(at - 1); e.preventDefault(); }
    if (e.key === 'Home') jump(0);
    if (e.key === 'End') jump(steps.length - 1);
  };
  document.addEventListener('keydown', keys);

  replace(list, moveItems(replay, names, viewerSeat, jump));
  review.markList(list);
  replace(controls,
    h('button', { class: 'btn', 'aria-label': t('replay.first'), onclick: () => jump(0) }, '|◀'),
    h('button', { class: 'btn', 'aria-label': t('replay.prev'), 'data-testid': 'replay-prev', onclick: () => jump(at - 1) }, '◀'),
    playButton,
    h('button', { class: 'btn', 'aria-label': t('replay.next'), 'data-testid': 'replay-next', onclick: () => jump(at + 1) }, '▶'),
    h('button', { class: 'btn', 'aria-label': t('replay.last'), onclick: () => jump(steps.length - 1) }, '▶|'),
    slider);
  replace(root, h('div', { class: 'table-view' },
    h('section', { class: 'board-col', 'aria-label': t('title.replay') },
      caption, board,
      controls),
    h('aside', { class: 'side-col' },
      aboutPanel(tableId, replay, names, nav),
      review.element,
      h('div', { class: 'panel' }, h('h2', {}, t('table.moves')), list))));
  draw();
  review.start();
  return () => {
    stop();
    review.stop();
    sizeWatch.disconnect();
    window.removeEventListener('resize', fit);
    document.removeEventListener('keydown', keys);
  };
}

/**
 * A step's action in words: an opening roll as such, Stumphög's moves from
 * their JSON, in the viewer's language.
 * @param {string} game @param {number | null} viewerSeat @param {any} st
 */
function moveWords(game, viewerSeat, st) {
  if (st.seat === null || st.seat === undefined) return chanceText(st.text);
  return game === 'stumphog' ? stumphogMoveText(st.json, st.seat !== (viewerSeat === 1 ? 1 : 0)) || st.text : st.text;
}

/**
 * Draws the position after step `at` on the board.
 * @param {HTMLElement} board @param {any} replay @param {number} at @param {string[]} names @param {number | null} viewerSeat
 */
function drawBoard(board, replay, at, names, viewerSeat) {
  const ui = uiFor(replay.game);
  const step = replay.steps[at];
  const ctx = {
    obs: step.state.observation, legal: [], seat: viewerSeat, names, pick: ui.emptyPick(), text: step.state.text,
    portrait: window.innerWidth < 700 && window.innerHeight > window.innerWidth,
  };
  board.className = `board-wrap game-${replay.game}`;
  replace(board, ui.render(ctx));
}

/**
 * The moves to jump to, one an action after the start, with who made it.
 * @param {any} replay @param {string[]} names @param {number | null} viewerSeat
 * @param {(step: number) => void} jump
 */
function moveItems(replay, names, viewerSeat, jump) {
  return replay.steps.map((/** @type {any} */ st, /** @type {number} */ i) => (i === 0 ? null : h('li', { 'data-at': i, value: i, class: st.seat === null ? 'auto' : '' },
    h('a', { href: '#', onclick: (/** @type {MouseEvent} */ e) => { e.preventDefault(); jump(i); } },
      `${st.seat === null || st.seat === undefined ? t('replay.chance_name') : names[st.seat]}: ${st.text ? moveWords(replay.game, viewerSeat, st) : t('replay.hidden')}`))));
}

/**
 * The players' names as the viewer reads them (the viewer's own seat as
 * "you").
 * @param {any} replay @param {number | null} viewerSeat
 * @returns {string[]}
 */
function seatNames(replay, viewerSeat) {
  return Array.isArray(replay.seats)
    ? replay.seats.map((/** @type {import('./types.js').SeatInfo} */ s) => (s.kind === 'human' && s.seat !== viewerSeat ? s.name || t('role.seat', { n: s.seat + 1 }) : shortName(s, viewerSeat)))
    : /** @type {string[]} */ (replay.players);
}

/**
 * The caption over the board at step `at`: which move of how many, who made
 * it and what it did (and the events it caused), and the position's summary.
 * @param {any} replay @param {number} at @param {string[]} names @param {number | null} viewerSeat
 */
function captionOf(replay, at, names, viewerSeat) {
  const steps = /** @type {any[]} */ (replay.steps);
  const step = steps[at];
  const obs = step.state.observation;
  const who = step.seat === null || step.seat === undefined ? (at === 0 ? '' : t('replay.chance')) : `${names[step.seat]} (${seatRole(replay.game, step.seat, obs)})`;
  const events = step.events && step.events.length
    ? ' — ' + step.events.map((/** @type {any} */ e) => eventText(e, (p) => (p === viewerSeat ? t('name.you') : seatRole(replay.game, p, obs)))).join('; ')
    : '';
  return h('div', { style: 'flex: 1' },
    h('div', { class: 'status-text', 'data-testid': 'replay-pos' }, at === 0 ? t('replay.start', { n: steps.length - 1 }) : t('replay.move', { at, n: steps.length - 1 })),
    h('div', { class: 'status-sub' }, at === 0 ? t('replay.before_first') : `${who}: ${step.text ? ltr(moveWords(replay.game, viewerSeat, step)) : t('replay.hidden')}${events}`),
    h('div', { class: 'status-sub' }, uiFor(replay.game).summary(obs)));
}

/**
 * The replay's side panel: the game, its players and result, the dice
 * checked here, in the browser, against the revealed seed, the record to
 * download and the way back to the table.
 * @param {string} tableId @param {any} replay @param {string[]} names @param {Nav} nav
 */
function aboutPanel(tableId, replay, names, nav) {
  const diceLine = h('p', { class: 'small', 'data-testid': 'dice' }, t('replay.dice_checking'));
  verifyDice(replay.dice, replay.steps).then((v) => {
    diceLine.textContent = v.ok ? t('replay.dice_ok', { n: v.checked }) : t('replay.dice_bad', { reason: v.reason });
  }, (e) => { diceLine.textContent = t('replay.dice_bad', { reason: e instanceof Error ? e.message : String(e) }); });
  const result = Array.isArray(replay.result)
    ? replay.result.map((/** @type {number} */ r, /** @type {number} */ i) => `${names[i]} ${r > 0 ? '+' : ''}${r}`).join(', ')
    : t('replay.not_finished');
  return h('div', { class: 'panel' }, h('h2', {}, t('replay.title', { game: gameNameById(replay.game) })),
    h('p', { class: 'small' }, t('replay.players', { names: names.join(', ') })),
    h('p', { class: 'small' }, t('replay.result', { result })),
    diceLine,
    h('div', { class: 'row' },
      h('a', { class: 'btn small', href: api.recordUrl(tableId), download: `${replay.game}-${tableId}.json`, 'data-testid': 'download' }, t('info.download')),
      h('a', { class: 'btn small', href: `/t/${tableId}`, onclick: (/** @type {MouseEvent} */ e) => { e.preventDefault(); nav.go(`/t/${tableId}`); } }, t('replay.back'))));
}
