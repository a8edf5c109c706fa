// @ts-check
/**
 * Errors in words a player understands: the server's error codes (see
 * `docs/server.md`) and a lost connection, in the page's language.
 */

import { ApiError } from './api.js';
import { has, t } from './i18n.js';

/**
 * An error as a player reads it: known server codes in words, anything
 * else as "something went wrong" (the technical message stays in the
 * console).
 * @param {unknown} e
 * @returns {string}
 */
export function errorText(e) {
  if (e instanceof ApiError) {
    if (has(`error.${e.code}`)) return t(`error.${e.code}`);
    console.warn('server error', e.status, e.code, e.message);
    return t('error.other');
  }
  console.warn(e);
  return t('error.other');
}
