-- Game analyses made by the server's analysis pool: one per table, the
-- JSON of spelbord_ai's analysis of the table's record at `version`.
CREATE TABLE analyses (
    table_id   TEXT PRIMARY KEY REFERENCES game_tables (id),
    version    INTEGER NOT NULL,
    analysis   TEXT NOT NULL,
    created_at INTEGER NOT NULL
);
