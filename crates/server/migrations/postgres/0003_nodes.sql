-- Several server nodes on one database (PostgreSQL only: a SQLite file
-- serves one process). Each node's heartbeat and the address other nodes
-- forward requests to; the node that owns each table (its lease: it holds
-- while the owner's heartbeat is fresh); the secret the nodes share to mark
-- the requests they forward to each other.
CREATE TABLE nodes (
    id           TEXT PRIMARY KEY,
    addr         TEXT NOT NULL,
    heartbeat_at TIMESTAMPTZ NOT NULL
);
ALTER TABLE game_tables ADD COLUMN owner TEXT;
CREATE INDEX game_tables_owner ON game_tables (owner) WHERE NOT finished;
CREATE TABLE cluster_secret (
    id     INTEGER PRIMARY KEY CHECK (id = 1),
    secret TEXT NOT NULL
);
