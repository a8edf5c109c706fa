// @ts-check
/** Short messages in the corner of the screen. */

import { h } from './dom.js';

/**
 * Shows a message for a few seconds.
 * @param {string} text
 * @param {'info' | 'warn'} [kind]
 */
export function toast(text, kind = 'info') {
  let area = document.querySelector('.toast-area');
  if (!area) {
    area = h('div', { class: 'toast-area', role: 'status', 'aria-live': 'polite' });
    document.body.append(area);
  }
  const el = h('div', { class: `toast${kind === 'warn' ? ' warn' : ''}` }, text);
  area.append(el);
  setTimeout(() => el.remove(), kind === 'warn' ? 7000 : 4000);
}
