// @ts-check
/**
 * The replay of a game: every position after every action, with step
 * controls, a slider, the list of moves to jump to, and the record to
 * download.
 */

import * as api from './api.js';
import * as store from './store.js';
import { h, replace } from './dom.js';
import { uiFor } from './games/index.js';
import { seatRole, shortName } from './names.js';
import { verifyDice } from './dice.js';
import { eventText } from './events.js';
import { analysisPanel } from './analysis.js';

/** @typedef {{go: (path: string) => void}} Nav */

/**
 * Shows the replay of a table's game.
 * @param {HTMLElement} root
 * @param {string} tableId
 * @param {Nav} nav
 */
export async function showReplay(root, tableId, nav) {
  replace(root, h('p', { class: 'muted' }, 'Loading the replay…'));
  const mine = store.seatsAt(tableId)[0];
  /** @type {any} */
  let replay;
  try {
    replay = await api.getReplay(tableId, mine ? mine.seat : null);
  } catch (e) {
    replace(root, h('div', { class: 'error-box' }, `No replay: ${e instanceof Error ? e.message : e}`),
      h('p', {}, h('a', { href: `/t/${tableId}` }, 'Back to the table')));
    return () => {};
  }
  const ui = uiFor(replay.game);
  const steps = /** @type {any[]} */ (replay.steps);
  // The dice checked here, in the browser, against the revealed seed.
  const diceLine = h('p', { class: 'small', 'data-testid': 'dice' }, 'Dice: checking…');
  verifyDice(replay.dice, steps).then((v) => {
    diceLine.textContent = v.ok ? `Dice: verified in your browser (${v.checked} chance actions)` : `Dice: not verified (${v.reason})`;
  }, (e) => { diceLine.textContent = `Dice: not verified (${e instanceof Error ? e.message : String(e)})`; });
  const viewerSeat = mine ? mine.seat : null;
  const names = Array.isArray(replay.seats)
    ? replay.seats.map((/** @type {import('./types.js').SeatInfo} */ s) => (s.kind === 'human' && s.seat !== viewerSeat ? s.name || `Seat ${s.seat + 1}` : shortName(s, viewerSeat)))
    : /** @type {string[]} */ (replay.players);
  let at = steps.length - 1;
  /** @type {ReturnType<typeof setInterval> | null} */
  let playing = null;

  const board = h('div', { class: 'board-wrap' });
  const caption = h('div', { class: 'status-bar', role: 'status', 'aria-live': 'polite' });
  const slider = h('input', { type: 'range', min: 0, max: steps.length - 1, value: at, 'aria-label': 'Position in the game' });
  const list = h('ol', { class: 'log', start: 0, 'aria-label': 'Moves' });
  const playButton = h('button', { class: 'btn', 'data-testid': 'replay-play' }, '▶ Play');

  const draw = () => {
    const step = steps[at];
    const ctx = {
      obs: step.state.observation, legal: [], seat: viewerSeat, names, pick: ui.emptyPick(), text: step.state.text,
      portrait: window.innerWidth < 700 && window.innerHeight > window.innerWidth,
    };
    board.className = `board-wrap game-${replay.game}`;
    replace(board, ui.render(ctx));
    review.show(at, board);
    const who = step.seat === null || step.seat === undefined ? (at === 0 ? '' : 'chance') : `${names[step.seat]} (${seatRole(replay.game, step.seat, step.state.observation)})`;
    replace(caption, h('div', { style: 'flex: 1' },
      h('div', { class: 'status-text', 'data-testid': 'replay-pos' }, at === 0 ? `Start (0 of ${steps.length - 1})` : `Move ${at} of ${steps.length - 1}`),
      h('div', { class: 'status-sub' }, at === 0 ? 'The position before the first action.' : `${who}: ${step.text || '(hidden)'}${step.events && step.events.length ? ' — ' + step.events.map((/** @type {any} */ e) => eventText(e, (p) => (p === viewerSeat ? 'You' : seatRole(replay.game, p, step.state.observation)))).join('; ') : ''}`),
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
    playButton.textContent = '▶ Play';
  };
  playButton.addEventListener('click', () => {
    if (playing) return stop();
    if (at >= steps.length - 1) go(0);
    playButton.textContent = '‖ Pause';
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
      `${st.seat === null || st.seat === undefined ? 'Chance' : names[st.seat]}: ${st.text || '(hidden)'}`)))));
  review.markList(list);
  const result = Array.isArray(replay.result)
    ? replay.result.map((/** @type {number} */ r, /** @type {number} */ i) => `${names[i]} ${r > 0 ? '+' : ''}${r}`).join(', ')
    : 'not finished';
  replace(root, h('div', { class: 'table-view' },
    h('section', { class: 'board-col', 'aria-label': 'Replay' },
      caption, board,
      h('div', { class: 'replay-controls' },
        h('button', { class: 'btn', 'aria-label': 'First position', onclick: () => { stop(); go(0); } }, '|◀'),
        h('button', { class: 'btn', 'aria-label': 'Previous move', 'data-testid': 'replay-prev', onclick: () => { stop(); go(at - 1); } }, '◀'),
        playButton,
        h('button', { class: 'btn', 'aria-label': 'Next move', 'data-testid': 'replay-next', onclick: () => { stop(); go(at + 1); } }, '▶'),
        h('button', { class: 'btn', 'aria-label': 'Last position', onclick: () => { stop(); go(steps.length - 1); } }, '▶|'),
        slider)),
    h('aside', { class: 'side-col' },
      h('div', { class: 'panel' }, h('h2', {}, `Replay: ${replay.game}`),
        h('p', { class: 'small' }, `Players: ${names.join(', ')}`),
        h('p', { class: 'small' }, `Result: ${result}`),
        diceLine,
        h('div', { class: 'row' },
          h('a', { class: 'btn small', href: api.recordUrl(tableId), download: `${replay.game}-${tableId}.json`, 'data-testid': 'download' }, 'Download the record'),
          h('a', { class: 'btn small', href: `/t/${tableId}`, onclick: (/** @type {MouseEvent} */ e) => { e.preventDefault(); nav.go(`/t/${tableId}`); } }, 'Back to the table'))),
      review.element,
      h('div', { class: 'panel' }, h('h2', {}, 'Moves'), list))));
  draw();
  review.start();
  return () => {
    stop();
    review.stop();
    document.removeEventListener('keydown', keys);
  };
}
