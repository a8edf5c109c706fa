// @ts-check
/**
 * The lobby's "Post a seek" form: the game and its options (the same
 * controls as a new table's), a time control, rated (signed in only, for
 * players within a range of one's own rating) or casual, and the seat one
 * would like.
 */

import * as api from './api.js';
import * as store from './store.js';
import { account, guestKey } from './account.js';
import { errorText } from './errors.js';
import { h, replace } from './dom.js';
import { gameName, seatRole } from './names.js';
import { optionFields, seatCount } from './optionfields.js';
import { PRESETS, controlText } from './timecontrol.js';
import { t } from './i18n.js';

/** @typedef {import('./types.js').GameInfo} GameInfo */
/** @typedef {import('./types.js').Seek} Seek */

/** The rating ranges offered: ± this much around one's own rating (0: any). */
const RANGES = [100, 200, 400, 0];
/** A new account's rating, where the player has none in the game yet. */
const START_RATING = 1500;

/**
 * The player's rating in a game: of its pool named as the game, else of
 * the first of its pools he has a rating in.
 * @param {string} game @returns {Promise<number>}
 */
async function ownRating(game) {
  const me = account();
  if (!me) return START_RATING;
  try {
    const ratings = (await api.getPlayer(me.name)).ratings || {};
    const pool = ratings[game] ? game : Object.keys(ratings).find((p) => p.startsWith(`${game}-`));
    return pool ? Math.round(ratings[pool].rating) : START_RATING;
  } catch {
    return START_RATING;
  }
}

/**
 * The form, folded away until opened; `posted` is told each seek posted.
 * @param {GameInfo[]} games @param {string} first the game chosen at first
 * @param {(seek: Seek) => void} posted
 */
export function seekForm(games, first, posted) {
  let game = games.find((g) => g.id === first) || games[0];
  /** @type {Record<string, string>} */
  let options = {};
  const gameSelect = h('select', { id: 'seek-game', 'data-testid': 'seek-game' },
    games.map((g) => h('option', { value: g.id, selected: g.id === game.id }, gameName(g))));
  const optionBox = h('div', { class: 'form-grid' });
  const clockSelect = h('select', { id: 'seek-clock', 'data-testid': 'seek-clock' },
    PRESETS.map((p) => h('option', { value: p.id }, controlText(p.clock))));
  const seatSelect = h('select', { id: 'seek-seat', 'data-testid': 'seek-seat' });
  const ratedBox = /** @type {HTMLInputElement} */ (h('input', { type: 'checkbox', id: 'seek-rated', 'data-testid': 'seek-rated', 'aria-describedby': 'seek-rated-help' }));
  const rangeSelect = h('select', { id: 'seek-range', 'data-testid': 'seek-range', 'aria-label': t('seeks.range') },
    RANGES.map((r) => h('option', { value: r, selected: r === 200 }, r ? t('seeks.range_within', { n: r }) : t('seeks.range_any'))));
  const ratedHelp = h('span', { class: 'small muted', id: 'seek-rated-help' });
  const errorBox = h('div', { role: 'alert' });
  const post = h('button', { class: 'btn primary', 'data-testid': 'post-seek' }, t('seeks.post'));

  const drawSeats = () => {
    const n = seatCount(game, options);
    replace(seatSelect, h('option', { value: '' }, t('seeks.seat_any')),
      Array.from({ length: n }, (_, i) => h('option', { value: i }, seatRole(game.id, i))));
  };
  const drawRated = () => {
    ratedBox.disabled = !account();
    if (ratedBox.disabled) ratedBox.checked = false;
    rangeSelect.disabled = !ratedBox.checked;
    replace(ratedHelp, account() ? t('seeks.rated_help') : t('rated.needs_account'));
  };
  const drawOptions = () => {
    replace(optionBox, optionFields(game, options, 'seek-opt', (key) => { if (key === 'players') drawSeats(); }));
  };
  const choose = (/** @type {GameInfo} */ g) => {
    game = g;
    options = {};
    for (const o of g.options) options[o.key] = o.default;
    drawOptions();
    drawSeats();
  };
  gameSelect.addEventListener('change', () => choose(games.find((g) => g.id === gameSelect.value) || game));
  ratedBox.addEventListener('change', drawRated);

  post.addEventListener('click', async () => {
    replace(errorBox);
    post.disabled = true;
    try {
      const rated = ratedBox.checked && !ratedBox.disabled;
      posted(await postSeek(game, options, rated, Number(rangeSelect.value), clockSelect, seatSelect));
    } catch (e) {
      replace(errorBox, h('div', { class: 'error-box' }, errorText(e)));
    } finally {
      post.disabled = false;
    }
  });

  choose(game);
  drawRated();
  return h('details', { class: 'seek-post', 'data-testid': 'seek-form' },
    h('summary', { 'data-testid': 'seek-form-open' }, t('seeks.post_title')),
    h('div', { class: 'form-grid' }, h('label', { for: 'seek-game' }, t('seeks.game')), gameSelect),
    optionBox,
    h('div', { class: 'form-grid' },
      h('label', { for: 'seek-clock' }, t('seeks.clock')), clockSelect,
      h('label', { for: 'seek-seat' }, t('seeks.seat')), seatSelect),
    h('div', { class: 'check-row rated-row' }, ratedBox, h('label', { for: 'seek-rated' }, t('seeks.rated')), rangeSelect),
    ratedHelp,
    h('div', { class: 'row' }, post),
    errorBox);
}

/**
 * Posts a seek: rated, within `within` of the player's own rating (0: any),
 * with the clock and seat chosen in their selects.
 * @param {GameInfo} game @param {Record<string, string>} options
 * @param {boolean} rated @param {number} within
 * @param {HTMLSelectElement} clockSelect @param {HTMLSelectElement} seatSelect
 * @returns {Promise<Seek>}
 */
async function postSeek(game, options, rated, within, clockSelect, seatSelect) {
  let range = null;
  if (rated && within > 0) {
    const r = await ownRating(game.id);
    range = { min: r - within, max: r + within };
  }
  const name = store.playerName();
  const answer = await api.postSeek({
    game: game.id,
    options,
    clock: PRESETS.find((p) => p.id === clockSelect.value)?.clock ?? null,
    rated,
    rating_range: range,
    seat: seatSelect.value === '' ? null : Number(seatSelect.value),
    ...(name ? { name } : {}),
    ...(guestKey() ? { player_key: guestKey() } : {}),
  });
  return answer.seek;
}
