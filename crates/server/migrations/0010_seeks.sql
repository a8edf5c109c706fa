-- Seeks, quick pairing and the lobby's players online (issue 35). Times in
-- Unix milliseconds. Every node reads and writes these rows, so that seeks
-- and the pairing queue are shared; accepting is one conditional update.
CREATE TABLE seeks (
    id            TEXT PRIMARY KEY,
    game          TEXT NOT NULL,
    body          TEXT NOT NULL,          -- the seek as shown (JSON, without `accepted`)
    request       TEXT NOT NULL,          -- the table request, as POST /api/tables takes it (JSON)
    owner_hash    BLOB NOT NULL,
    pool          TEXT,                   -- rated seeks: the rating pool
    rating_min    REAL,
    rating_max    REAL,
    players       INTEGER NOT NULL,
    accepted      INTEGER NOT NULL DEFAULT 0,
    state         TEXT NOT NULL DEFAULT 'open',   -- open | paired
    table_id      TEXT,
    created_at    INTEGER NOT NULL,
    owner_seen_at INTEGER NOT NULL,       -- the owner's last lobby connection seen
    expires_at    INTEGER NOT NULL
);
CREATE INDEX seeks_state ON seeks (state, expires_at);

CREATE TABLE seek_players (
    seek_id     TEXT NOT NULL,
    player_hash BLOB NOT NULL,
    owner       INTEGER NOT NULL,
    name        TEXT,
    account     TEXT,
    accepted_at INTEGER NOT NULL,
    seat        INTEGER,                  -- once paired: the seat and its token
    token       TEXT,
    PRIMARY KEY (seek_id, player_hash)
);

CREATE TABLE pairing_queue (
    player_hash BLOB PRIMARY KEY,
    pool        TEXT NOT NULL,
    name        TEXT,
    account     TEXT,
    rating      REAL,                     -- accounts: rating and deviation in the pool's rating pool
    deviation   REAL,
    queued_at   INTEGER NOT NULL,
    seen_at     INTEGER NOT NULL
);

CREATE TABLE lobby_online (
    node   TEXT PRIMARY KEY,
    counts TEXT NOT NULL,                 -- JSON: lobby connections per game
    at     INTEGER NOT NULL
);
