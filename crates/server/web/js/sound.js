// @ts-check
/**
 * An optional sound when it becomes the player's turn (off unless the
 * player turns it on; the choice is remembered): two short soft tones.
 */

import * as store from './store.js';

/** @type {AudioContext | null} */
let context = null;

/** Plays the turn's sound, if the player turned sounds on. */
export function turnChime() {
  if (!store.sound()) return;
  try {
    const Ctor = window.AudioContext || /** @type {any} */ (window).webkitAudioContext;
    if (!Ctor) return;
    context = context || new Ctor();
    const at = context.currentTime;
    for (const [i, freq] of [660, 880].entries()) {
      const osc = context.createOscillator();
      const gain = context.createGain();
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, at + i * 0.16);
      gain.gain.exponentialRampToValueAtTime(0.12, at + i * 0.16 + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, at + i * 0.16 + 0.15);
      osc.connect(gain).connect(context.destination);
      osc.start(at + i * 0.16);
      osc.stop(at + i * 0.16 + 0.16);
    }
  } catch {
    // No sound where the browser refuses it.
  }
}

/** Plays the low-time warning (one short high tone), if sounds are on. */
export function lowTimeBeep() {
  if (!store.sound()) return;
  try {
    const Ctor = window.AudioContext || /** @type {any} */ (window).webkitAudioContext;
    if (!Ctor) return;
    context = context || new Ctor();
    const at = context.currentTime;
    const osc = context.createOscillator();
    const gain = context.createGain();
    osc.frequency.value = 1320;
    gain.gain.setValueAtTime(0.0001, at);
    gain.gain.exponentialRampToValueAtTime(0.15, at + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.25);
    osc.connect(gain).connect(context.destination);
    osc.start(at);
    osc.stop(at + 0.26);
  } catch {
    // No sound where the browser refuses it.
  }
}
