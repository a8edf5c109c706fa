-- Tables their creator shows in the lobby: anyone may take an open seat
-- or watch.
ALTER TABLE game_tables ADD COLUMN listed BOOLEAN NOT NULL DEFAULT FALSE;
CREATE INDEX game_tables_listed ON game_tables (listed, finished, updated_at);
