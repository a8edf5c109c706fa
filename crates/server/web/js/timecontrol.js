// @ts-check
/**
 * Time controls in words ("1 min + 2 s", "2 min, delay 12 s") and the
 * presets a seek offers.
 */

import { language, t } from './i18n.js';

/** @typedef {{initial_s?: number, increment_s?: number, delay_s?: number, per_game_s?: number}} ClockSpec */

/** The presets of the seek form: an id and the clock (null: none). @type {{id: string, clock: ClockSpec | null}[]} */
export const PRESETS = [
  { id: '1+2', clock: { initial_s: 60, increment_s: 2 } },
  { id: '3+2', clock: { initial_s: 180, increment_s: 2 } },
  { id: '5+5', clock: { initial_s: 300, increment_s: 5 } },
  { id: '10+0', clock: { initial_s: 600 } },
  { id: 'd12', clock: { initial_s: 120, delay_s: 12 } },
  { id: 'd12m', clock: { initial_s: 60, delay_s: 12, per_game_s: 60 } },
  { id: 'none', clock: null },
];

/** A length of time in short words ("1 min", "90 s", "1 h"). @param {number} s */
function span(s) {
  if (s >= 3600 && s % 3600 === 0) return t('tc.h', { n: s / 3600 });
  if (s >= 60 && s % 60 === 0) return t('tc.min', { n: s / 60 });
  return t('tc.s', { n: s });
}

/**
 * A time control in words: "1 min + 2 s" (Fischer), "2 min, delay 12 s"
 * (simple delay), with the reserve each later game of a match adds; "no
 * clock" for none.
 * @param {ClockSpec | null | undefined} clock
 */
export function controlText(clock) {
  if (!clock) return t('tc.none');
  const initial = clock.initial_s || 0;
  const parts = [];
  if (clock.increment_s) parts.push(t('tc.fischer', { time: span(initial), increment: span(clock.increment_s) }));
  else if (initial) parts.push(span(initial));
  if (clock.delay_s) parts.push(t('tc.delay', { delay: span(clock.delay_s) }));
  if (clock.per_game_s) parts.push(t('tc.per_game', { time: span(clock.per_game_s) }));
  if (!parts.length) return t('tc.none');
  try {
    return new Intl.ListFormat(language(), { type: 'unit', style: 'short' }).format(parts);
  } catch {
    return parts.join(', ');
  }
}
