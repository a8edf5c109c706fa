-- Ratings (Glicko-2) per account and pool. A rated table is rated once:
-- the row of rated_games keyed by its id is written in the same transaction
-- as the ratings and the history rows of its players.
ALTER TABLE game_tables ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;
CREATE INDEX game_tables_rated ON game_tables (updated_at) WHERE rated = 1;

CREATE TABLE ratings (
    account_id  TEXT NOT NULL,
    pool        TEXT NOT NULL,
    rating      REAL NOT NULL,
    deviation   REAL NOT NULL,
    volatility  REAL NOT NULL,
    games       INTEGER NOT NULL,
    last_played INTEGER NOT NULL,         -- Unix seconds of the last rated game
    PRIMARY KEY (account_id, pool)
);
CREATE INDEX ratings_pool ON ratings (pool, last_played);

CREATE TABLE rated_games (
    table_id TEXT PRIMARY KEY,            -- each finished rated table once
    pool     TEXT NOT NULL,
    rated_at INTEGER NOT NULL
);

CREATE TABLE rating_history (
    account_id TEXT NOT NULL,
    pool       TEXT NOT NULL,
    table_id   TEXT NOT NULL,
    played_at  INTEGER NOT NULL,
    rating     REAL NOT NULL,              -- after the game
    deviation  REAL NOT NULL,              -- after the game
    change     REAL NOT NULL,
    PRIMARY KEY (account_id, table_id)
);
CREATE INDEX rating_history_account ON rating_history (account_id, played_at);
