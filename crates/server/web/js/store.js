// @ts-check
/**
 * What the browser remembers: this player's key (to find his tables), his
 * name, and the secret token of each seat he holds.
 */

const PREFIX = 'spelbord.';

/** @param {string} key @returns {any} */
function read(key) {
  try {
    const raw = localStorage.getItem(PREFIX + key);
    return raw === null ? null : JSON.parse(raw);
  } catch {
    return null;
  }
}

/** @param {string} key @param {any} value */
function write(key, value) {
  try {
    localStorage.setItem(PREFIX + key, JSON.stringify(value));
  } catch {
    // Private windows may refuse; the game still works until a reload.
  }
}

/** A random hex string of `bytes` bytes. @param {number} bytes */
function randomHex(bytes) {
  const buf = new Uint8Array(bytes);
  crypto.getRandomValues(buf);
  return [...buf].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** A new random secret of `bytes` bytes, in hexadecimal. @param {number} bytes */
export function newSecret(bytes) {
  return randomHex(bytes);
}

/** This browser's player key (made on first use). */
export function playerKey() {
  let key = read('player');
  if (typeof key !== 'string' || key.length < 16) {
    key = randomHex(16);
    write('player', key);
  }
  return key;
}

/** The player's display name. @returns {string} */
export function playerName() {
  const name = read('name');
  return typeof name === 'string' ? name : '';
}

/** @param {string} name */
export function setPlayerName(name) {
  write('name', name);
}

/**
 * @typedef {{seat: number, token: string}} SeatToken
 */

/** The seats this browser holds at a table. @param {string} table @returns {SeatToken[]} */
export function seatsAt(table) {
  const all = read('seats') || {};
  const list = all[table];
  return Array.isArray(list) ? list : [];
}

/** Remembers a seat's token. @param {string} table @param {number} seat @param {string} token */
export function rememberSeat(table, seat, token) {
  const all = read('seats') || {};
  const list = (Array.isArray(all[table]) ? all[table] : []).filter((/** @type {SeatToken} */ s) => s.seat !== seat);
  list.push({ seat, token });
  all[table] = list;
  // Keep the newest 200 tables.
  const keys = Object.keys(all);
  for (const k of keys.slice(0, Math.max(0, keys.length - 200))) delete all[k];
  write('seats', all);
}

/** Remembers that this browser created a table (its creator may close it). @param {string} table */
export function rememberCreated(table) {
  const list = (read('created') || []).filter((/** @type {any} */ t) => typeof t === 'string' && t !== table);
  list.push(table);
  write('created', list.slice(-200));
}

/** Whether this browser created the table. @param {string} table */
export function createdHere(table) {
  const list = read('created');
  return Array.isArray(list) && list.includes(table);
}

/** Whether the player wants the last lobby choices again. @returns {any} */
export function lastChoices() {
  return read('lobby') || {};
}

/** @param {any} choices */
export function saveChoices(choices) {
  write('lobby', choices);
}

/** How fast other players' moves are shown, one after another. */
export const SPEEDS = /** @type {const} */ (['slow', 'normal', 'fast', 'instant']);

/** The pause after each move by someone else, in milliseconds. */
export const SPEED_PAUSE = { slow: 1400, normal: 750, fast: 150, instant: 0 };

/** The chosen speed. @returns {'slow' | 'normal' | 'fast' | 'instant'} */
export function speed() {
  const v = read('speed');
  return v === 'slow' || v === 'fast' || v === 'instant' ? v : 'normal';
}

/** Whether a sound plays when it becomes the player's turn (off by default). */
export function sound() {
  return read('sound') === true;
}

/** Remembers whether to play sounds. @param {boolean} on */
export function setSound(on) {
  write('sound', on);
}

/** Remembers the chosen speed. @param {'slow' | 'normal' | 'fast' | 'instant'} v */
export function setSpeed(v) {
  write('speed', v);
}

/**
 * The version of the last match game's end that the player went on from
 * (pressed Next game) at a table; 0 if none.
 * @param {string} table
 */
export function wentOn(table) {
  const all = read('wentOn') || {};
  return typeof all[table] === 'number' ? all[table] : 0;
}

/** Remembers that the player went on from the match game that ended at `version`. @param {string} table @param {number} version */
export function setWentOn(table, version) {
  const all = read('wentOn') || {};
  delete all[table];
  all[table] = version;
  // Keep the newest 200 tables.
  const keys = Object.keys(all);
  for (const k of keys.slice(0, Math.max(0, keys.length - 200))) delete all[k];
  write('wentOn', all);
}

/** The games whose seeks the player watches (none: every game). @returns {string[]} */
export function seekGames() {
  const v = read('seekGames');
  return Array.isArray(v) ? v.filter((g) => typeof g === 'string') : [];
}

/** Remembers the games whose seeks the player watches. @param {string[]} games */
export function setSeekGames(games) {
  write('seekGames', games);
}

/** The seeks this browser posted and may still be open (ids). @returns {string[]} */
export function mySeeks() {
  const v = read('seeks');
  return Array.isArray(v) ? v.filter((s) => typeof s === 'string') : [];
}

/** Remembers (or, with `mine` false, forgets) a seek this browser posted. @param {string} id @param {boolean} mine */
export function setMySeek(id, mine) {
  const list = mySeeks().filter((s) => s !== id);
  if (mine) list.push(id);
  write('seeks', list.slice(-20));
}
