// @ts-check
/** The board of each game, by game id. */

import { tablesUI } from './tables.js';
import { stumphogUI } from './stumphog.js';
import { stortokUI } from './stortok.js';
import { lagerUI } from './lager.js';
import { highgammonUI } from './highgammon.js';
import { genericUI } from './generic.js';

/** @type {Record<string, import('../types.js').GameUI>} */
const BY_GAME = {
  tawla: tablesUI,
  backgammon: tablesUI,
  stumphog: stumphogUI,
  stortok: stortokUI,
  lager: lagerUI,
  'high-gammon': highgammonUI,
  'tric-trac': highgammonUI,
};

/**
 * The board for a game (a plain one for a game without its own drawing).
 * @param {string} game
 * @returns {import('../types.js').GameUI}
 */
export function uiFor(game) {
  return BY_GAME[game] || genericUI;
}
