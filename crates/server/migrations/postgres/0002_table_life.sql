-- PostgreSQL form of ../0002_table_life.sql: commit-reveal dice, seat seeds,
-- idempotent joins, endings and the inactivity rule.
ALTER TABLE game_tables ADD COLUMN server_seed BYTEA;         -- secret until the game is over
ALTER TABLE game_tables ADD COLUMN ending TEXT;               -- JSON: how the table ended early
ALTER TABLE game_tables ADD COLUMN inactivity_seconds BIGINT NOT NULL DEFAULT 86400;
ALTER TABLE game_tables ADD COLUMN inactivity_then TEXT NOT NULL DEFAULT 'forfeit';
ALTER TABLE seats ADD COLUMN seed TEXT;                       -- the seat's own dice seed
ALTER TABLE seats ADD COLUMN join_key_hash BYTEA;             -- SHA-256 of the join's idempotency key
CREATE INDEX game_tables_updated ON game_tables (finished, updated_at);
