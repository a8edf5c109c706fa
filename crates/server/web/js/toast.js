// @ts-check
/** A short notice in the corner of the screen: a new one replaces the last. */

import { h, replace } from './dom.js';

/** @type {ReturnType<typeof setTimeout> | null} */
let timer = null;

/**
 * Shows a notice for a few seconds, in place of any notice still shown.
 * @param {string} text
 * @param {'info' | 'warn'} [kind]
 */
export function toast(text, kind = 'info') {
  let area = document.querySelector('.toast-area');
  if (!area) {
    area = h('div', { class: 'toast-area', role: 'status', 'aria-live': 'polite' });
    document.body.append(area);
  }
  const el = h('div', { class: `toast${kind === 'warn' ? ' warn' : ''}`, 'data-testid': 'toast' }, text);
  replace(/** @type {HTMLElement} */ (area), el);
  if (timer) clearTimeout(timer);
  timer = setTimeout(() => el.remove(), kind === 'warn' ? 7000 : 4000);
}
