-- PostgreSQL form of ../0008_ratings.sql.
-- Ratings (Glicko-2) per account and pool. A rated table is rated once:
-- the row of rated_games keyed by its id is written in the same transaction
-- as the ratings and the history rows of its players.
ALTER TABLE game_tables ADD COLUMN rated BOOLEAN NOT NULL DEFAULT FALSE;
CREATE INDEX game_tables_rated ON game_tables (updated_at) WHERE rated;

CREATE TABLE ratings (
    account_id  TEXT NOT NULL,
    pool        TEXT NOT NULL,
    rating      DOUBLE PRECISION NOT NULL,
    deviation   DOUBLE PRECISION NOT NULL,
    volatility  DOUBLE PRECISION NOT NULL,
    games       BIGINT NOT NULL,
    last_played BIGINT NOT NULL,         -- Unix seconds of the last rated game
    PRIMARY KEY (account_id, pool)
);
CREATE INDEX ratings_pool ON ratings (pool, last_played);

CREATE TABLE rated_games (
    table_id TEXT PRIMARY KEY,            -- each finished rated table once
    pool     TEXT NOT NULL,
    rated_at BIGINT NOT NULL
);

CREATE TABLE rating_history (
    account_id TEXT NOT NULL,
    pool       TEXT NOT NULL,
    table_id   TEXT NOT NULL,
    played_at  BIGINT NOT NULL,
    rating     DOUBLE PRECISION NOT NULL,              -- after the game
    deviation  DOUBLE PRECISION NOT NULL,              -- after the game
    change     DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (account_id, table_id)
);
CREATE INDEX rating_history_account ON rating_history (account_id, played_at);
