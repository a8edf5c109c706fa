-- Tables, seats and the actions of each game. One row per action; a table's
-- version is the number of actions in its record.
CREATE TABLE game_tables (
    id           TEXT PRIMARY KEY,
    game         TEXT NOT NULL,
    options      TEXT NOT NULL,            -- JSON object of option values
    auto_forced  INTEGER NOT NULL,         -- 1: forced single actions are played by the server
    creator_hash BLOB,                     -- SHA-256 of the creator's player key
    version      INTEGER NOT NULL,
    finished     INTEGER NOT NULL DEFAULT 0,
    result       TEXT,                     -- JSON array of returns when finished
    created_at   INTEGER NOT NULL,
    updated_at   INTEGER NOT NULL
);

CREATE INDEX game_tables_unfinished ON game_tables (finished);
CREATE INDEX game_tables_creator ON game_tables (creator_hash);

CREATE TABLE seats (
    table_id    TEXT NOT NULL REFERENCES game_tables (id),
    seat        INTEGER NOT NULL,
    kind        TEXT NOT NULL,             -- 'open', 'human' or 'ai'
    agent       TEXT,                      -- the agent's name for 'ai'
    name        TEXT,                      -- a human's display name
    token_hash  BLOB,                      -- SHA-256 of the seat token
    player_hash BLOB,                      -- SHA-256 of the player's key
    joined_at   INTEGER,
    PRIMARY KEY (table_id, seat)
);

CREATE INDEX seats_player ON seats (player_hash);

CREATE TABLE actions (
    table_id   TEXT NOT NULL REFERENCES game_tables (id),
    version    INTEGER NOT NULL,           -- the table's version after this action (1-based)
    seat       INTEGER,                    -- the acting seat; NULL for chance
    text       TEXT NOT NULL,              -- the action in the game's notation
    auto       INTEGER NOT NULL,           -- 1: played by the server (chance or forced)
    created_at INTEGER NOT NULL,
    PRIMARY KEY (table_id, version)
);
