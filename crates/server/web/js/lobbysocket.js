// @ts-check
/**
 * The lobby's one live connection (`/api/lobby/ws`): says hello with the
 * guest's key and the games whose seeks the player watches, passes every
 * message on (a `snapshot` first, then events that patch it), and
 * reconnects with back-off until closed; every reconnection begins with a
 * new snapshot. Nothing is polled.
 */

import { socketMessage } from './api.js';

/** @typedef {'connecting' | 'open' | 'closed'} LobbyStatus */

export class LobbySocket {
  /**
   * @param {{games: string[], playerKey: string | undefined,
   *   onMessage: (msg: any) => void, onStatus: (status: LobbyStatus) => void}} opts
   */
  constructor(opts) {
    this.opts = opts;
    this.games = opts.games;
    /** @type {WebSocket | null} */
    this.ws = null;
    this.closed = false;
    this.retries = 0;
    /** @type {ReturnType<typeof setTimeout> | null} */
    this.timer = null;
    this.connect();
  }

  connect() {
    if (this.closed) return;
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const ws = new WebSocket(`${proto}//${location.host}/api/lobby/ws`);
    this.ws = ws;
    this.opts.onStatus('connecting');
    ws.onopen = () => {
      this.retries = 0;
      /** @type {Record<string, any>} */
      const hello = { type: 'hello', games: this.games };
      if (this.opts.playerKey) hello.player_key = this.opts.playerKey;
      ws.send(JSON.stringify(hello));
      this.opts.onStatus('open');
    };
    ws.onmessage = (e) => {
      const msg = socketMessage(e);
      if (msg && typeof msg.type === 'string') this.opts.onMessage(msg);
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (this.closed) return;
      this.opts.onStatus('closed');
      // 0.5 s, 1 s, 2 s … up to 15 s, a little spread so that a restarted
      // server is not met by every lobby at once.
      const delay = Math.min(15000, 500 * 2 ** this.retries) * (0.8 + 0.4 * Math.random());
      this.retries += 1;
      this.timer = setTimeout(() => this.connect(), delay);
    };
  }

  /** Watches the seeks of these games (none: every game). @param {string[]} games */
  filter(games) {
    this.games = games;
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify({ type: 'filter', games }));
  }

  /** Drops the connection now (it comes back with a new snapshot). */
  drop() {
    if (this.ws) this.ws.close();
  }

  close() {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    const ws = this.ws;
    this.ws = null;
    if (!ws) return;
    // Closed while still connecting, Chromium logs an error: closed once open instead.
    if (ws.readyState === WebSocket.CONNECTING) ws.onopen = () => ws.close();
    else ws.close();
  }
}
