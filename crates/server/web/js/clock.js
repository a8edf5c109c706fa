// @ts-check
/**
 * The seats' clocks at a table: each seat's time left, the running one
 * counting down smoothly (every 100 ms, from `remaining_ms` and the time
 * the message arrived, after what is left of the delay), the time control
 * in words, and a low-time warning (a class, and a sound if sound is on).
 * The server's clock decides; this only shows it.
 */

import { h } from './dom.js';
import { t } from './i18n.js';
import { controlText } from './timecontrol.js';
import { lowTimeBeep } from './sound.js';
import { setAutoRoll } from './api.js';

/**
 * @typedef {{initial_s: number, increment_s: number, delay_s: number, per_game_s: number,
 *   remaining_ms: number[], running: number | null, delay_left_ms: number, low_ms: number}} ClockInfo
 */

/**
 * A clock's time as text: `h:mm:ss`, `m:ss`, and tenths under ten seconds.
 * @param {number} ms
 */
export function clockText(ms) {
  const left = Math.max(0, ms);
  if (left < 10_000) return `0:0${(Math.floor(left / 100) / 10).toFixed(1)}`;
  const total = Math.ceil(left / 1000);
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = String(total % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${seconds}` : `${minutes}:${seconds}`;
}

/** The clocks of one table. */
export class SeatClocks {
  /** @param {ClockInfo | null | undefined} clock */
  constructor(clock) {
    /** @type {ClockInfo | null} */
    this.clock = null;
    this.at = 0;
    /** @type {Map<number, HTMLElement>} */
    this.boxes = new Map();
    /** The turn (seat and arrival) whose low-time sound was played. */
    this.warned = '';
    this.timer = setInterval(() => this.tick(), 100);
    this.update(clock);
  }

  /** New clocks from the server (as of now). @param {ClockInfo | null | undefined} clock */
  update(clock) {
    if (clock === undefined) return;
    this.clock = clock;
    this.at = performance.now();
    this.tick();
  }

  /** Whether the table has a clock. */
  has() {
    return this.clock !== null;
  }

  /** Seat `seat`'s time left now (ms). @param {number} seat */
  left(seat) {
    const c = this.clock;
    if (!c) return 0;
    const stored = c.remaining_ms[seat] ?? 0;
    if (c.running !== seat) return stored;
    const spent = performance.now() - this.at - c.delay_left_ms;
    return Math.max(0, stored - Math.max(0, spent));
  }

  /** The element showing seat `seat`'s clock (kept up to date). @param {number} seat */
  element(seat) {
    if (!this.clock) return null;
    let box = this.boxes.get(seat);
    if (!box) {
      box = h('span', { class: 'seat-clock', 'data-testid': `clock-${seat}`, role: 'timer', 'aria-label': t('clock.label') });
      this.boxes.set(seat, box);
    }
    this.paint(seat, box);
    return box;
  }

  /** The time control in words, or null without a clock. */
  describe() {
    return this.clock ? controlText(this.clock) : null;
  }

  tick() {
    for (const [seat, box] of this.boxes) this.paint(seat, box);
  }

  /** @param {number} seat @param {HTMLElement} box */
  paint(seat, box) {
    const c = this.clock;
    if (!c) return;
    const ms = this.left(seat);
    const running = c.running === seat;
    const low = running && ms < c.low_ms;
    const text = clockText(ms);
    if (box.textContent !== text) box.textContent = text;
    box.classList.toggle('running', running);
    box.classList.toggle('low', low);
    const inDelay = running && performance.now() - this.at < c.delay_left_ms;
    box.classList.toggle('in-delay', inDelay);
    if (low) {
      const turn = `${seat}:${c.remaining_ms[seat]}`;
      if (this.warned !== turn) {
        this.warned = turn;
        lowTimeBeep();
      }
    }
  }

  stop() {
    clearInterval(this.timer);
  }
}

/**
 * The seat's auto-roll choice (games with a cube only): when the server
 * rolls for the seat instead of asking "double or roll?". Null where the
 * game has no cube.
 * @param {string} tableId @param {string} token
 * @param {{auto_roll?: string} | undefined} seat the seat as the server shows it
 * @param {any} obs the observation (its `cube_enabled`, or a `cube`)
 * @param {(e: unknown) => void} failed
 */
export function autoRollChoice(tableId, token, seat, obs, failed) {
  if (!obs || !(obs.cube_enabled === true || (obs.cube_enabled === undefined && obs.cube !== undefined))) return null;
  const current = seat?.auto_roll || 'useless';
  const select = h('select', {
    id: 'auto-roll', 'data-testid': 'auto-roll',
    onchange: async () => {
      try {
        await setAutoRoll(tableId, token, select.value);
      } catch (e) {
        failed(e);
      }
    },
  }, ['ask', 'useless', 'always'].map((v) => h('option', { value: v, selected: v === current }, t(`autoroll.${v}`))));
  return h('div', { class: 'row' }, h('label', { for: 'auto-roll', class: 'small' }, t('autoroll.label')), select);
}
