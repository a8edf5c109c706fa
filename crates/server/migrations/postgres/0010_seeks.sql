-- Seeks, quick pairing and the lobby's players online (issue 35). Times in
-- Unix milliseconds. Every node reads and writes these rows, so that seeks
-- and the pairing queue are shared; accepting is one conditional update.
CREATE TABLE seeks (
    id            TEXT PRIMARY KEY,
    game          TEXT NOT NULL,
    body          TEXT NOT NULL,          -- the seek as shown (JSON, without `accepted`)
    request       TEXT NOT NULL,          -- the table request, as POST /api/tables takes it (JSON)
    owner_hash    BYTEA NOT NULL,
    pool          TEXT,                   -- rated seeks: the rating pool
    rating_min    DOUBLE PRECISION,
    rating_max    DOUBLE PRECISION,
    players       BIGINT NOT NULL,
    accepted      BIGINT NOT NULL DEFAULT 0,
    state         TEXT NOT NULL DEFAULT 'open',   -- open | paired
    table_id      TEXT,
    created_at    BIGINT NOT NULL,
    owner_seen_at BIGINT NOT NULL,       -- the owner's last lobby connection seen
    expires_at    BIGINT NOT NULL
);
CREATE INDEX seeks_state ON seeks (state, expires_at);

CREATE TABLE seek_players (
    seek_id     TEXT NOT NULL,
    player_hash BYTEA NOT NULL,
    owner       BIGINT NOT NULL,
    name        TEXT,
    account     TEXT,
    accepted_at BIGINT NOT NULL,
    seat        BIGINT,                  -- once paired: the seat and its token
    token       TEXT,
    PRIMARY KEY (seek_id, player_hash)
);

CREATE TABLE pairing_queue (
    player_hash BYTEA PRIMARY KEY,
    pool        TEXT NOT NULL,
    name        TEXT,
    account     TEXT,
    rating      DOUBLE PRECISION,                     -- accounts: rating and deviation in the pool's rating pool
    deviation   DOUBLE PRECISION,
    queued_at   BIGINT NOT NULL,
    seen_at     BIGINT NOT NULL
);

CREATE TABLE lobby_online (
    node   TEXT PRIMARY KEY,
    counts TEXT NOT NULL,                 -- JSON: lobby connections per game
    at     BIGINT NOT NULL
);
