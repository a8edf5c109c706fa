-- One row the health probe rewrites: a small committed write that shows
-- whether the database takes writes (a full disk does not).
CREATE TABLE store_probe (id INTEGER PRIMARY KEY CHECK (id = 1), at INTEGER NOT NULL);
