// @ts-check
/**
 * Every call the client makes to the server: the HTTP JSON API and each
 * table's WebSocket (see the server's `/api/openapi.json`).
 */

/** @typedef {import('./types.js').GameInfo} GameInfo */
/** @typedef {import('./types.js').TableInfo} TableInfo */
/** @typedef {import('./types.js').StateView} StateView */
/** @typedef {import('./types.js').SeatInfo} SeatInfo */
/** @typedef {import('./types.js').Hint} Hint */

/** An error the server answered with (`{"error": {"code", "message"}}`). */
export class ApiError extends Error {
  /**
   * @param {number} status
   * @param {string} code
   * @param {string} message
   * @param {any} [body]
   */
  constructor(status, code, message, body) {
    super(message);
    this.status = status;
    this.code = code;
    this.body = body;
  }
}

/**
 * A JSON request.
 * @param {string} method
 * @param {string} path
 * @param {{body?: any, token?: string | null, headers?: Record<string, string>}} [opts]
 * @returns {Promise<any>}
 */
async function request(method, path, opts = {}) {
  /** @type {Record<string, string>} */
  const headers = { Accept: 'application/json', ...(opts.headers || {}) };
  if (opts.body !== undefined) headers['Content-Type'] = 'application/json';
  if (opts.token) headers.Authorization = `Bearer ${opts.token}`;
  let response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
    });
  } catch (e) {
    throw new ApiError(0, 'network', 'The server cannot be reached.');
  }
  const text = await response.text();
  let body = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  if (!response.ok) {
    const err = body && body.error ? body.error : { code: 'http', message: `${response.status} ${response.statusText}` };
    throw new ApiError(response.status, err.code, err.message, err);
  }
  return body;
}

/** Every game with its options. @returns {Promise<GameInfo[]>} */
export async function listGames() {
  return (await request('GET', '/api/games')).games;
}

/** One game with its rules. @param {string} id @returns {Promise<GameInfo>} */
export function getGame(id) {
  return request('GET', `/api/games/${encodeURIComponent(id)}`);
}

/**
 * Creates a table.
 * @param {{game: string, options: Record<string, string>, seats: string[], player?: string,
 *   inactivity?: import('./types.js').Inactivity, listed?: boolean, rated?: boolean,
 *   clock?: {initial_s: number, increment_s?: number, delay_s?: number}}} spec
 * @returns {Promise<TableInfo>}
 */
export function createTable(spec) {
  return request('POST', '/api/tables', { body: { ...spec, auto_forced: true } });
}

/**
 * A table as the token's seat (or a spectator) sees it.
 * @param {string} id @param {string | null} [token]
 * @returns {Promise<TableInfo>}
 */
export function getTable(id, token) {
  return request('GET', `/api/tables/${encodeURIComponent(id)}`, { token });
}

/**
 * Changes the seat's settings: when the server rolls for it at a cube
 * decision (`ask`, `useless`, `always`).
 * @param {string} id @param {string} token @param {string} autoRoll
 * @returns {Promise<TableInfo>}
 */
export function setAutoRoll(id, token, autoRoll) {
  return request('POST', `/api/tables/${encodeURIComponent(id)}/settings`, { token, body: { auto_roll: autoRoll } });
}

/**
 * Takes a seat.
 * @param {string} id
 * @param {{seat?: number, name?: string, player?: string, key?: string, seed?: string,
 *   rematch_token?: string}} body
 * @returns {Promise<{table: string, seat: number, token: string, view: TableInfo}>}
 */
export function joinTable(id, body) {
  return request('POST', `/api/tables/${encodeURIComponent(id)}/join`, { body });
}

/**
 * Plays an action (as JSON, or in notation) at the version the player saw.
 * @param {string} id
 * @param {string} token
 * @param {number} version
 * @param {{json?: any, action?: string}} action
 * @returns {Promise<{version: number, actions: any[], state: StateView}>}
 */
export function act(id, token, version, action) {
  return request('POST', `/api/tables/${encodeURIComponent(id)}/actions`, { token, body: { version, ...action } });
}

/**
 * Resigns the token's seat: it loses and the table ends.
 * @param {string} id @param {string} token @returns {Promise<TableInfo>}
 */
export function resign(id, token) {
  return request('POST', `/api/tables/${encodeURIComponent(id)}/resign`, { token, body: {} });
}

/**
 * The rematch of a finished table for the token's seat: made by the first
 * player who asks, the same table for the others; its seat is then joined
 * with `rematch_token`.
 * @param {string} id @param {string} token @param {string} player the player's key
 * @returns {Promise<{table: string, rematch: string, seat: number}>}
 */
export function rematch(id, token, player) {
  return request('POST', `/api/tables/${encodeURIComponent(id)}/rematch`, { token, body: { player } });
}

/**
 * The `X-Player-Key` header of a guest's key; none for a signed-in player,
 * whose session cookie says who he is.
 * @param {string | undefined} playerKey
 * @returns {Record<string, string>}
 */
function keyHeader(playerKey) {
  return playerKey ? { 'X-Player-Key': playerKey } : {};
}

/**
 * Closes a table that has not started (its creator only, by player key or
 * the session cookie).
 * @param {string} id @param {string | undefined} playerKey @returns {Promise<TableInfo>}
 */
export function closeTable(id, playerKey) {
  return request('POST', `/api/tables/${encodeURIComponent(id)}/close`, { body: {}, headers: keyHeader(playerKey) });
}

/**
 * A link that continues the token's seat on another device (the token in
 * its fragment), relative to the server.
 * @param {string} id @param {string} token @returns {Promise<{seat: number, url: string}>}
 */
export function seatLink(id, token) {
  return request('GET', `/api/tables/${encodeURIComponent(id)}/seat-link`, { token });
}

/** The game's record (finished games, or any game without hidden information). @param {string} id */
export function getRecord(id) {
  return request('GET', `/api/tables/${encodeURIComponent(id)}/record`);
}

/** The address of a table's record, for downloading. @param {string} id */
export function recordUrl(id) {
  return `/api/tables/${encodeURIComponent(id)}/record`;
}

/**
 * Every position of a game with the action that led to it, as `seat` (or a
 * spectator) may see them; for games with hidden information only once over.
 * @param {string} id @param {number | null} seat
 * @returns {Promise<{game: string, options: Record<string, string>, players: string[],
 *   seats: SeatInfo[], result: number[] | null, finished: boolean,
 *   steps: {version: number, seat: number | null, auto: boolean,
 *   text: string | null, json?: any, events: import('./events.js').GameEvent[], state: StateView}[]}>}
 */
export function getReplay(id, seat) {
  const query = seat === null ? '' : `?seat=${seat}`;
  return request('GET', `/api/tables/${encodeURIComponent(id)}/replay${query}`);
}

/**
 * Asks for the computer's analysis of a finished game (queued on the server).
 * @param {string} id
 * @returns {Promise<{status: string, version?: number, analysis?: any}>}
 */
export function requestAnalysis(id) {
  return request('POST', `/api/tables/${encodeURIComponent(id)}/analysis`, { body: {} });
}

/**
 * Where the analysis of a game stands, with the analysis once done.
 * @param {string} id
 * @returns {Promise<{status: string, version?: number, analysis?: any}>}
 */
export function getAnalysis(id) {
  return request('GET', `/api/tables/${encodeURIComponent(id)}/analysis`);
}

/**
 * The AI's best moves for the seat to move, with win estimates.
 * @param {string} id @param {string} token
 * @returns {Promise<{version: number, hints: Hint[]}>}
 */
export function getHints(id, token) {
  return request('GET', `/api/tables/${encodeURIComponent(id)}/hints`, { token });
}

/**
 * A page of the tables listed in the lobby: with an open seat (`open`) or
 * every seat taken (`live`).
 * @param {'open' | 'live'} list @param {number} page
 * @returns {Promise<{tables: any[], page: number, more: boolean}>}
 */
export function listTables(list, page) {
  return request('GET', `/api/tables?list=${list}&page=${page}`);
}

/**
 * The unfinished tables of a player (a guest's key, or the session cookie).
 * @param {string | undefined} playerKey
 * @returns {Promise<{tables: any[]}>}
 */
export function myTables(playerKey) {
  return request('GET', '/api/players/me/tables', { headers: keyHeader(playerKey) });
}

// ---- seeks and quick pairing (the lobby's socket tells what changes) ----

/**
 * Posts a seek: a table's game, options and clock, rated or casual, with
 * a rating range and the seat the owner would like.
 * @param {{game: string, options: Record<string, string>, clock: import('./timecontrol.js').ClockSpec | null,
 *   players?: number, rated: boolean, rating_range: {min: number, max: number} | null,
 *   seat: number | null, name?: string, player_key?: string}} spec
 * @returns {Promise<{seek: import('./types.js').Seek}>}
 */
export function postSeek(spec) {
  return request('POST', '/api/seeks', { body: spec });
}

/**
 * The open seeks of these games (none: every game) the caller may see.
 * @param {string[]} games @returns {Promise<{seeks: import('./types.js').Seek[]}>}
 */
export function listSeeks(games) {
  const query = games.map((g) => `game=${encodeURIComponent(g)}`).join('&');
  return request('GET', `/api/seeks${query ? `?${query}` : ''}`);
}

/**
 * Accepts a seek: the seat taken at the new table (as a join answers), or,
 * while a seek for more players is not full, how many have accepted.
 * @param {string} id @param {{name?: string, player_key?: string}} body
 * @returns {Promise<{table: string, seat: number, token: string} | {waiting: number, needed: number}>}
 */
export function acceptSeek(id, body) {
  return request('POST', `/api/seeks/${encodeURIComponent(id)}/accept`, { body, headers: keyHeader(body.player_key) });
}

/** Withdraws one's own seek. @param {string} id @param {string | undefined} playerKey */
export function withdrawSeek(id, playerKey) {
  const query = playerKey ? `?player_key=${encodeURIComponent(playerKey)}` : '';
  return request('DELETE', `/api/seeks/${encodeURIComponent(id)}${query}`, { body: playerKey ? { player_key: playerKey } : {}, headers: keyHeader(playerKey) });
}

/**
 * A seek, or for its owner and acceptors once it made a table the seat
 * taken there (when the socket was down as it happened).
 * @param {string} id @param {string | undefined} playerKey
 * @returns {Promise<import('./types.js').Seek | {paired: {table: string, seat: number, token: string}}>}
 */
export function getSeek(id, playerKey) {
  const query = playerKey ? `?player_key=${encodeURIComponent(playerKey)}` : '';
  return request('GET', `/api/seeks/${encodeURIComponent(id)}${query}`, { headers: keyHeader(playerKey) });
}

/** The quick-pairing pools. @returns {Promise<{pools: import('./types.js').PairingPool[]}>} */
export function pairingPools() {
  return request('GET', '/api/pairing');
}

/**
 * Queues for a pool; the table comes as the lobby socket's `paired`.
 * @param {{pool: string, name?: string, player_key?: string}} body
 */
export function queue(body) {
  return request('POST', '/api/pairing', { body, headers: keyHeader(body.player_key) });
}

/** Leaves the queue. @param {string | undefined} playerKey */
export function leaveQueue(playerKey) {
  return request('DELETE', '/api/pairing', { body: playerKey ? { player_key: playerKey } : {}, headers: keyHeader(playerKey) });
}

// ---- accounts (the session is an HttpOnly cookie the browser sends) ----

/** @typedef {{name: string, created_at: number}} Account */

/** Who is signed in: the account, or null. @returns {Promise<Account | null>} */
export async function getSession() {
  return (await request('GET', '/api/session')).account;
}

/**
 * Signs up (and in), claiming the tables of the guest's player key.
 * @param {string} name @param {string} password @param {string} [player] @returns {Promise<Account>}
 */
export async function signUp(name, password, player) {
  return (await request('POST', '/api/accounts', { body: { name, password, player } })).account;
}

/**
 * Signs in, claiming the tables of the guest's player key.
 * @param {string} name @param {string} password @param {string} [player] @returns {Promise<Account>}
 */
export async function signIn(name, password, player) {
  return (await request('POST', '/api/session', { body: { name, password, player } })).account;
}

/** Signs out of this browser. */
export function signOut() {
  return request('DELETE', '/api/session', { body: {} });
}

/** Ends every session of the account, this one too. */
export function signOutEverywhere() {
  return request('POST', '/api/session/logout-everywhere', { body: {} });
}

/** Changes the password (every other session ends). @param {string} old @param {string} next */
export function changePassword(old, next) {
  return request('POST', '/api/account/password', { body: { old, new: next } });
}

/** Deletes the signed-in account. @param {string} password */
export function deleteAccount(password) {
  return request('DELETE', '/api/account', { body: { password } });
}

/**
 * A player's public profile: name and since when; ratings, their history,
 * finished games and tables being played where the server gives them.
 * @param {string} name
 * @returns {Promise<import('./types.js').Profile>}
 */
export function getPlayer(name) {
  return request('GET', `/api/players/${encodeURIComponent(name)}`);
}

/**
 * The rating pools (404 where the server keeps no ratings): `{"pools": [...]}`
 * or the list itself.
 * @returns {Promise<{pools: import('./types.js').Pool[]} | import('./types.js').Pool[]>}
 */
export function listPools() {
  return request('GET', '/api/ratings');
}

/**
 * A pool's leaderboard: the ranked players and the provisional ones.
 * @param {string} pool
 * @returns {Promise<import('./types.js').Leaderboard>}
 */
export function getLeaderboard(pool) {
  return request('GET', `/api/ratings/${encodeURIComponent(pool)}`);
}

/**
 * A WebSocket message's JSON, or null when it is not JSON.
 * @param {MessageEvent} e @returns {any}
 */
export function socketMessage(e) {
  try {
    return JSON.parse(String(e.data));
  } catch {
    return null;
  }
}

/**
 * A table's live connection: says hello with the seat token and the last
 * version seen, passes every message on, and reconnects with back-off
 * (asking only for what was missed) until closed.
 */
export class TableSocket {
  /**
   * @param {string} tableId
   * @param {string | null} token
   * @param {{onMessage: (msg: any) => void, onStatus: (status: 'connecting' | 'open' | 'closed' | 'refused') => void,
   *   since: () => number | null}} handlers
   */
  constructor(tableId, token, handlers) {
    this.tableId = tableId;
    this.token = token;
    this.handlers = handlers;
    /** @type {WebSocket | null} */
    this.ws = null;
    this.closed = false;
    this.retries = 0;
    /** @type {ReturnType<typeof setTimeout> | null} */
    this.timer = null;
    /** @type {ReturnType<typeof setInterval> | null} */
    this.pinger = null;
    this.connect();
  }

  connect() {
    if (this.closed) return;
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const ws = new WebSocket(`${proto}//${location.host}/api/tables/${encodeURIComponent(this.tableId)}/ws`);
    this.ws = ws;
    this.handlers.onStatus('connecting');
    ws.onopen = () => {
      this.retries = 0;
      const since = this.handlers.since();
      /** @type {Record<string, any>} */
      const hello = { type: 'hello' };
      if (this.token) hello.token = this.token;
      if (since !== null) hello.since = since;
      ws.send(JSON.stringify(hello));
      this.handlers.onStatus('open');
      if (this.pinger) clearInterval(this.pinger);
      this.pinger = setInterval(() => this.send({ type: 'ping' }), 25000);
    };
    ws.onmessage = (e) => {
      const msg = socketMessage(e);
      if (msg !== null) this.handlers.onMessage(msg);
    };
    ws.onclose = (e) => {
      if (this.pinger) clearInterval(this.pinger);
      this.pinger = null;
      if (this.ws !== ws) return;
      this.ws = null;
      if (this.closed) return;
      if (e.code === 4401) {
        this.handlers.onStatus('refused');
        return;
      }
      this.handlers.onStatus('closed');
      const delay = Math.min(8000, 300 * 2 ** this.retries);
      this.retries += 1;
      this.timer = setTimeout(() => this.connect(), delay);
    };
  }

  /** Asks the server for the whole table again. */
  resync() {
    this.send({ type: 'sync' });
  }

  /** @param {any} msg */
  send(msg) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(msg));
  }

  /** Drops the connection now (the next one resumes from the last version). */
  drop() {
    if (this.ws) this.ws.close();
  }

  close() {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.pinger) clearInterval(this.pinger);
    if (this.ws) this.ws.close();
    this.ws = null;
  }
}
