-- Optional accounts and their sessions; a seat names the account that took it.
CREATE TABLE accounts (
    id          TEXT PRIMARY KEY,
    name        TEXT NOT NULL,             -- as shown (NFKC)
    name_key    TEXT NOT NULL UNIQUE,      -- NFKC, lower case: unique ignoring case
    skeleton    TEXT NOT NULL UNIQUE,      -- Unicode confusable skeleton, lower case
    password    TEXT NOT NULL,             -- Argon2id PHC string
    player_hash BLOB NOT NULL UNIQUE,      -- random: the seats' and tables' player hash
    created_at  INTEGER NOT NULL
);

CREATE TABLE sessions (
    token_hash BLOB PRIMARY KEY,           -- SHA-256 of the session cookie's token
    account_id TEXT NOT NULL REFERENCES accounts (id),
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL
);

CREATE INDEX sessions_account ON sessions (account_id);

ALTER TABLE seats ADD COLUMN account TEXT;  -- the account's name ('deleted player' once deleted)
