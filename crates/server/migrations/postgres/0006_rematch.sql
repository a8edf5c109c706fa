-- A rematch names the finished table it follows; one rematch per table.
ALTER TABLE game_tables ADD COLUMN rematch_of TEXT;
CREATE UNIQUE INDEX game_tables_rematch_of ON game_tables (rematch_of);
