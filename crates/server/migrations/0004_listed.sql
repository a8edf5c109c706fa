-- Tables their creator shows in the lobby: anyone may take an open seat
-- or watch.
ALTER TABLE game_tables ADD COLUMN listed INTEGER NOT NULL DEFAULT 0;
CREATE INDEX game_tables_listed ON game_tables (listed, finished, updated_at);
