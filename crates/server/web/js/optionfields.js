// @ts-check
/**
 * A game's option controls (a list to choose from, or a number), shared by
 * the create-table form and the seek form, and the seats they give.
 */

import { h } from './dom.js';
import { optionHelp, optionLabel, optionValue } from './names.js';
import { t } from './i18n.js';

/** @typedef {import('./types.js').GameInfo} GameInfo */

/**
 * A label, a control and a help line per option of `game`; a change is
 * written into `options` (the values shown) and then told to `onChange`.
 * @param {GameInfo} game
 * @param {Record<string, string>} options
 * @param {string} prefix the controls' ids are `{prefix}-{key}`
 * @param {(key: string) => void} onChange
 * @returns {import('./dom.js').Child[]}
 */
export function optionFields(game, options, prefix, onChange) {
  /** @type {import('./dom.js').Child[]} */
  const rows = [];
  for (const o of game.options) {
    const id = `${prefix}-${o.key}`;
    /** @type {HTMLSelectElement | HTMLInputElement} */
    let field;
    if (o.kind === 'choice') {
      field = h('select', { id, name: o.key }, (o.values || []).map((v) => h('option', { value: v, selected: v === options[o.key] }, v === o.default ? t('lobby.default_value', { value: optionValue(o.key, v) }) : optionValue(o.key, v))));
    } else {
      field = h('input', { id, name: o.key, type: 'number', min: o.min, max: o.max, value: options[o.key] });
    }
    field.addEventListener('change', () => {
      options[o.key] = field.value;
      onChange(o.key);
    });
    rows.push(h('label', { for: id }, optionLabel(o.key)), field, h('div', { class: 'help' }, t('lobby.option_help', { help: optionHelp(game.id, o), value: optionValue(o.key, o.default) })));
  }
  return rows;
}

/**
 * How many seats a game has with these options.
 * @param {GameInfo} game @param {Record<string, string>} options
 */
export function seatCount(game, options) {
  const n = Number(options.players);
  if (game.options.some((o) => o.key === 'players') && Number.isFinite(n) && n > 0) return n;
  return game.players.min;
}

/**
 * A game's options in words ("Match to: 5, Doubling cube: on").
 * @param {Record<string, string | number>} options
 */
export function optionsText(options) {
  return Object.entries(options || {}).map(([k, v]) => `${optionLabel(k)}: ${optionValue(k, String(v))}`).join(', ');
}
