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
  const ui = uiFor(replay.game);
  /** A step's action in words: an opening roll as such, Stumphög's moves from their JSON, in the viewer's language. @param {any} st */
  const moveWords = (st) => {
    if (st.seat === null || st.seat === undefined) return chanceText(st.text);
    return replay.game === 'stumphog' ? stumphogMoveText(st.json, st.seat !== (viewerSeat === 1 ? 1 : 0)) || st.text : st.text;
  };
  const steps = /** @type {any[]} */ (replay.steps);
  // The dice checked here, in the browser, against the revealed seed.
  const diceLine = h('p', { class: 'small', 'data-testid': 'dice' }, t('replay.dice_checking'));
  verifyDice(replay.dice, steps).then((v) => {
    diceLine.textContent = v.ok ? t('replay.dice_ok', { n: v.checked }) : t('replay.dice_bad', { reason: v.reason });
  }, (e) => { diceLine.textContent = t('replay.dice_bad', { reason: e instanceof Error ? e.message : String(e) }); });
  const viewerSeat = mine ? mine.seat : null;
  const names = Array.isArray(replay.seats)
    ? replay.seats.map((/** @type {import('./types.js').SeatInfo} */ s) => (s.kind === 'human' && s.seat !== viewerSeat ? s.name || t('role.seat', { n: s.seat + 1 }) : shortName(s, viewerSeat)))
    : /** @type {string[]} */ (replay.players);
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
    const step = steps[at];
    const ctx = {
      obs: step.state.observation, legal: [], seat: viewerSeat, names, pick: ui.emptyPick(), text: step.state.text,
      portrait: window.innerWidth < 700 && window.innerHeight > window.innerWidth,
    };
    board.className = `board-wrap game-${replay.game}`;
    replace(board, ui.render(ctx));
    review.show(at, board);
    const who = step.seat === null || step.seat === undefined ? (at === 0 ? '' : t('replay.chance')) : `${names[step.seat]} (${seatRole(replay.game, step.seat, step.state.observation)})`;
    replace(caption, h('div', { style: 'flex: 1' },
      h('div', { class: 'status-text', 'data-testid': 'replay-pos' }, at === 0 ? t('replay.start', { n: steps.length - 1 }) : t('replay.move', { at, n: steps.length - 1 })),
      h('div', { class: 'status-sub' }, at === 0 ? t('replay.before_first') : `${who}: ${step.text ? ltr(moveWords(step)) : t('replay.hidden')}${step.events && step.events.length ? ' — ' + step.events.map((/** @type {any} */ e) => eventText(e, (p) => (p === viewerSeat ? t('name.you') : seatRole(replay.game, p, step.state.observation)))).join('; ') : ''}`),
      h('div', { class: 'status-sub' }, ui.summary(step.state.observation))));
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
  slider.addEventListener('input', () => { stop(); go(Number(slider.value)); });
  const keys = (/** @type {KeyboardEvent} */ e) => {
    if (e.target instanceof HTMLInputElement && e.target.type !== 'range') return;
    if (e.key === 'ArrowRight') { stop(); go(at + 1); e.preventDefault(); }
    if (e.key === 'ArrowLeft') { stop(); go(at - 1); e.preventDefault(); }
    if (e.key === 'Home') { stop(); go(0); }
    if (e.key === 'End') { stop(); go(steps.length - 1); }
  };
  document.addEventListener('keydown', keys);

  replace(list, steps.map((st, i) => (i === 0 ? null : h('li', { 'data-at': i, value: i, class: st.seat === null ? 'auto' : '' },
    h('a', { href: '#', onclick: (/** @type {MouseEvent} */ e) => { e.preventDefault(); stop(); go(i); } },
      `${st.seat === null || st.seat === undefined ? t('replay.chance_name') : names[st.seat]}: ${st.text ? moveWords(st) : t('replay.hidden')}`)))));
  review.markList(list);
  const result = Array.isArray(replay.result)
    ? replay.result.map((/** @type {number} */ r, /** @type {number} */ i) => `${names[i]} ${r > 0 ? '+' : ''}${r}`).join(', ')
    : t('replay.not_finished');
  replace(controls,
    h('button', { class: 'btn', 'aria-label': t('replay.first'), onclick: () => { stop(); go(0); } }, '|◀'),
    h('button', { class: 'btn', 'aria-label': t('replay.prev'), 'data-testid': 'replay-prev', onclick: () => { stop(); go(at - 1); } }, '◀'),
    playButton,
    h('button', { class: 'btn', 'aria-label': t('replay.next'), 'data-testid': 'replay-next', onclick: () => { stop(); go(at + 1); } }, '▶'),
    h('button', { class: 'btn', 'aria-label': t('replay.last'), onclick: () => { stop(); go(steps.length - 1); } }, '▶|'),
    slider);
  replace(root, h('div', { class: 'table-view' },
    h('section', { class: 'board-col', 'aria-label': t('title.replay') },
      caption, board,
      controls),
    h('aside', { class: 'side-col' },
      h('div', { class: 'panel' }, h('h2', {}, t('replay.title', { game: gameNameById(replay.game) })),
        h('p', { class: 'small' }, t('replay.players', { names: names.join(', ') })),
        h('p', { class: 'small' }, t('replay.result', { result })),
        diceLine,
        h('div', { class: 'row' },
          h('a', { class: 'btn small', href: api.recordUrl(tableId), download: `${replay.game}-${tableId}.json`, 'data-testid': 'download' }, t('info.download')),
          h('a', { class: 'btn small', href: `/t/${tableId}`, onclick: (/** @type {MouseEvent} */ e) => { e.preventDefault(); nav.go(`/t/${tableId}`); } }, t('replay.back')))),
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
