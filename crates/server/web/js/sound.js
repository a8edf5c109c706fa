// @ts-check
/**
 * Optional sounds (off unless the player turns them on; the choice is
 * remembered): two short soft tones when it becomes the player's turn, one
 * high tone when his clock runs low.
 */

import * as store from './store.js';

/** @type {AudioContext | null} */
let context = null;

/**
 * Plays `tones` (frequency, start and length in seconds, loudness), if the
 * player turned sounds on.
 * @param {[number, number, number, number][]} tones
 */
function play(tones) {
  if (!store.sound()) return;
  try {
    const Ctor = window.AudioContext || /** @type {any} */ (window).webkitAudioContext;
    if (!Ctor) return;
    context = context || new Ctor();
    const at = context.currentTime;
    for (const [freq, start, length, loud] of tones) {
      const osc = context.createOscillator();
      const gain = context.createGain();
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, at + start);
      gain.gain.exponentialRampToValueAtTime(loud, at + start + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, at + start + length - 0.01);
      osc.connect(gain).connect(context.destination);
      osc.start(at + start);
      osc.stop(at + start + length);
    }
  } catch {
    // No sound where the browser refuses it.
  }
}

/** Plays the turn's sound, if the player turned sounds on. */
export function turnChime() {
  play([[660, 0, 0.16, 0.12], [880, 0.16, 0.16, 0.12]]);
}

/** Plays the low-time warning (one short high tone), if sounds are on. */
export function lowTimeBeep() {
  play([[1320, 0, 0.26, 0.15]]);
}
