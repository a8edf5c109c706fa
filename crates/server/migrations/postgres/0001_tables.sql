-- PostgreSQL form of ../0001_tables.sql (the same schema, in PostgreSQL's
-- types): tables, seats and the actions of each game. One row per action; a
-- table's version is the number of actions in its record.
CREATE TABLE game_tables (
    id           TEXT PRIMARY KEY,
    game         TEXT NOT NULL,
    options      TEXT NOT NULL,            -- JSON object of option values
    auto_forced  BOOLEAN NOT NULL,         -- forced single actions are played by the server
    creator_hash BYTEA,                    -- SHA-256 of the creator's player key
    version      BIGINT NOT NULL,
    finished     BOOLEAN NOT NULL DEFAULT FALSE,
    result       TEXT,                     -- JSON array of returns when finished
    created_at   BIGINT NOT NULL,
    updated_at   BIGINT NOT NULL
);

CREATE INDEX game_tables_unfinished ON game_tables (finished);
CREATE INDEX game_tables_creator ON game_tables (creator_hash);

CREATE TABLE seats (
    table_id    TEXT NOT NULL REFERENCES game_tables (id),
    seat        BIGINT NOT NULL,
    kind        TEXT NOT NULL,             -- 'open', 'human' or 'ai'
    agent       TEXT,                      -- the agent's name for 'ai'
    name        TEXT,                      -- a human's display name
    token_hash  BYTEA,                     -- SHA-256 of the seat token
    player_hash BYTEA,                     -- SHA-256 of the player's key
    joined_at   BIGINT,
    PRIMARY KEY (table_id, seat)
);

CREATE INDEX seats_player ON seats (player_hash);

CREATE TABLE actions (
    table_id   TEXT NOT NULL REFERENCES game_tables (id),
    version    BIGINT NOT NULL,            -- the table's version after this action (1-based)
    seat       BIGINT,                     -- the acting seat; NULL for chance
    text       TEXT NOT NULL,              -- the action in the game's notation
    auto       BOOLEAN NOT NULL,           -- played by the server (chance or forced)
    created_at BIGINT NOT NULL,
    PRIMARY KEY (table_id, version)
);
