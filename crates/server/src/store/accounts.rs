//! Storage of accounts and their sessions, shared by every node of a
//! database, written once for SQLite and PostgreSQL (the macro `accounts!`,
//! instantiated for both stores); the tables a deleted account or a claim
//! changes are announced to the nodes.

use super::dialect::Dialect;
use super::{DELETED_PLAYER, PgStore, SqliteStore, StoreError, StoreFuture, unix_now};
use crate::token::TokenHash;
use sqlx::Row;

/// One account as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredAccount {
    /// A random id.
    pub id: String,
    /// The name as shown (NFKC).
    pub name: String,
    /// The name in NFKC and lower case (unique).
    pub name_key: String,
    /// The name's confusable skeleton in lower case (unique).
    pub skeleton: String,
    /// The password's Argon2id hash as a PHC string.
    pub password: String,
    /// A random hash that the account's seats and tables carry as their
    /// player hash (no key hashes to it).
    pub player_hash: TokenHash,
    /// When the account was made (Unix seconds).
    pub created_at: i64,
}

/// Durable storage of accounts and sessions. Every method is atomic.
pub trait AccountStore: Send + Sync + 'static {
    /// Stores a new account; [`StoreError::Constraint`] if its name key or
    /// skeleton is taken.
    fn create_account<'a>(&'a self, account: &'a StoredAccount) -> StoreFuture<'a, ()>;

    /// The account with this name key, or else (if given) with this skeleton.
    fn find_account<'a>(
        &'a self,
        name_key: &'a str,
        skeleton: Option<&'a str>,
    ) -> StoreFuture<'a, Option<StoredAccount>>;

    /// Stores a session of `account_id` that ends at `expires_at` (Unix seconds).
    fn create_session<'a>(
        &'a self,
        token_hash: &'a TokenHash,
        account_id: &'a str,
        expires_at: i64,
    ) -> StoreFuture<'a, ()>;

    /// The account of an unexpired session.
    fn session_account<'a>(
        &'a self,
        token_hash: &'a TokenHash,
    ) -> StoreFuture<'a, Option<StoredAccount>>;

    /// Ends one session; the number ended (0 or 1).
    fn end_session<'a>(&'a self, token_hash: &'a TokenHash) -> StoreFuture<'a, u64>;

    /// Ends every session of the account but `keep`; the number ended.
    fn end_sessions<'a>(
        &'a self,
        account_id: &'a str,
        keep: Option<&'a TokenHash>,
    ) -> StoreFuture<'a, u64>;

    /// Replaces the password hash and ends every other session than `keep`;
    /// the number of sessions ended.
    fn set_password<'a>(
        &'a self,
        account_id: &'a str,
        password: &'a str,
        keep: Option<&'a TokenHash>,
    ) -> StoreFuture<'a, u64>;

    /// Deletes the account and its sessions; its seats show
    /// [`super::DELETED_PLAYER`] and lose the account's player hash, and its
    /// tables their creator. Returns the ids of the tables changed.
    fn delete_account<'a>(&'a self, account: &'a StoredAccount) -> StoreFuture<'a, Vec<String>>;

    /// Makes the tables of a guest's player key (`guest`, its hash) the
    /// account's: their seats of that key take the account's name and player
    /// hash, and the tables it created the account's player hash. Returns
    /// the ids of the tables changed.
    fn claim_guest_tables<'a>(
        &'a self,
        account: &'a StoredAccount,
        guest: &'a TokenHash,
    ) -> StoreFuture<'a, Vec<String>>;
}

/// How long a session lasts (30 days).
pub const SESSION_SECONDS: i64 = 30 * 86_400;

/// A stored hash column as a [`TokenHash`].
fn to_hash(bytes: Vec<u8>) -> Result<TokenHash, StoreError> {
    bytes
        .try_into()
        .map_err(|_| StoreError::Corrupt("a stored hash is not 32 bytes".into()))
}

const ACCOUNT_COLUMNS: &str =
    "accounts.id, name, name_key, skeleton, password, player_hash, accounts.created_at";

/// Implements [`AccountStore`] for `$store`.
macro_rules! accounts {
    ($store:ty) => {
        type Db = <$store as Dialect>::Db;
        type DbRow = <Db as sqlx::Database>::Row;

        /// Commits a change of a player hash in `tx` and announces the tables
        /// it changed: those of `seats` and those `created`, each once, in order.
        async fn commit_changed(
            mut tx: sqlx::Transaction<'_, Db>,
            seats: Vec<String>,
            created: Vec<String>,
        ) -> Result<Vec<String>, StoreError> {
            let mut tables = seats;
            tables.extend(created);
            tables.sort();
            tables.dedup();
            <$store as Dialect>::announce(&mut tx, &tables).await?;
            tx.commit().await?;
            Ok(tables)
        }

        /// Ends the sessions of the account but the one of `keep`; the number ended.
        async fn end_others(
            conn: &mut <Db as sqlx::Database>::Connection,
            account_id: &str,
            keep: Option<&TokenHash>,
        ) -> Result<u64, StoreError> {
            let done = sqlx::query(
                "DELETE FROM sessions WHERE account_id = $1 \
                 AND token_hash IS DISTINCT FROM $2",
            )
            .bind(account_id)
            .bind(keep.map(|h| h.to_vec()))
            .execute(conn)
            .await?;
            Ok(done.rows_affected())
        }

        fn account_from_row(row: &DbRow) -> Result<StoredAccount, StoreError> {
            Ok(StoredAccount {
                id: row.try_get("id")?,
                name: row.try_get("name")?,
                name_key: row.try_get("name_key")?,
                skeleton: row.try_get("skeleton")?,
                password: row.try_get("password")?,
                player_hash: to_hash(row.try_get("player_hash")?)?,
                created_at: row.try_get("created_at")?,
            })
        }

        impl AccountStore for $store {
            fn create_account<'a>(&'a self, a: &'a StoredAccount) -> StoreFuture<'a, ()> {
                Box::pin(async move {
                    sqlx::query(
                        "INSERT INTO accounts (id, name, name_key, skeleton, password, \
                         player_hash, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)",
                    )
                    .bind(&a.id)
                    .bind(&a.name)
                    .bind(&a.name_key)
                    .bind(&a.skeleton)
                    .bind(&a.password)
                    .bind(a.player_hash.to_vec())
                    .bind(a.created_at)
                    .execute(self.writer())
                    .await?;
                    Ok(())
                })
            }

            fn find_account<'a>(
                &'a self,
                name_key: &'a str,
                skeleton: Option<&'a str>,
            ) -> StoreFuture<'a, Option<StoredAccount>> {
                Box::pin(async move {
                    let sql = format!(
                        "SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE name_key = $1 \
                         OR skeleton = $2 ORDER BY name_key = $1 DESC LIMIT 1"
                    );
                    let row = sqlx::query(sqlx::AssertSqlSafe(sql))
                        .bind(name_key)
                        .bind(skeleton)
                        .fetch_optional(self.reader())
                        .await?;
                    row.as_ref().map(account_from_row).transpose()
                })
            }

            fn create_session<'a>(
                &'a self,
                token_hash: &'a TokenHash,
                account_id: &'a str,
                expires_at: i64,
            ) -> StoreFuture<'a, ()> {
                Box::pin(async move {
                    let mut tx = self.writer().begin().await?;
                    sqlx::query("DELETE FROM sessions WHERE account_id = $1 AND expires_at <= $2")
                        .bind(account_id)
                        .bind(unix_now())
                        .execute(&mut *tx)
                        .await?;
                    sqlx::query(
                        "INSERT INTO sessions (token_hash, account_id, created_at, expires_at) \
                         VALUES ($1, $2, $3, $4)",
                    )
                    .bind(token_hash.to_vec())
                    .bind(account_id)
                    .bind(unix_now())
                    .bind(expires_at)
                    .execute(&mut *tx)
                    .await?;
                    tx.commit().await?;
                    Ok(())
                })
            }

            fn session_account<'a>(
                &'a self,
                token_hash: &'a TokenHash,
            ) -> StoreFuture<'a, Option<StoredAccount>> {
                Box::pin(async move {
                    let sql = format!(
                        "SELECT {ACCOUNT_COLUMNS} FROM sessions JOIN accounts ON accounts.id = \
                         sessions.account_id WHERE token_hash = $1 AND expires_at > $2"
                    );
                    let row = sqlx::query(sqlx::AssertSqlSafe(sql))
                        .bind(token_hash.to_vec())
                        .bind(unix_now())
                        .fetch_optional(self.reader())
                        .await?;
                    row.as_ref().map(account_from_row).transpose()
                })
            }

            fn end_session<'a>(&'a self, token_hash: &'a TokenHash) -> StoreFuture<'a, u64> {
                Box::pin(async move {
                    let done = sqlx::query("DELETE FROM sessions WHERE token_hash = $1")
                        .bind(token_hash.to_vec())
                        .execute(self.writer())
                        .await?;
                    Ok(done.rows_affected())
                })
            }

            fn end_sessions<'a>(
                &'a self,
                account_id: &'a str,
                keep: Option<&'a TokenHash>,
            ) -> StoreFuture<'a, u64> {
                Box::pin(async move {
                    let mut conn = self.writer().acquire().await?;
                    end_others(&mut conn, account_id, keep).await
                })
            }

            fn set_password<'a>(
                &'a self,
                account_id: &'a str,
                password: &'a str,
                keep: Option<&'a TokenHash>,
            ) -> StoreFuture<'a, u64> {
                Box::pin(async move {
                    let mut tx = self.writer().begin().await?;
                    sqlx::query("UPDATE accounts SET password = $1 WHERE id = $2")
                        .bind(password)
                        .bind(account_id)
                        .execute(&mut *tx)
                        .await?;
                    let ended = end_others(&mut tx, account_id, keep).await?;
                    tx.commit().await?;
                    Ok(ended)
                })
            }

            fn delete_account<'a>(&'a self, a: &'a StoredAccount) -> StoreFuture<'a, Vec<String>> {
                Box::pin(async move {
                    let hash = a.player_hash.to_vec();
                    let mut tx = self.writer().begin().await?;
                    // Its sessions, ratings and their history go with it.
                    for sql in [
                        "DELETE FROM sessions WHERE account_id = $1",
                        "DELETE FROM ratings WHERE account_id = $1",
                        "DELETE FROM rating_history WHERE account_id = $1",
                        "DELETE FROM accounts WHERE id = $1",
                    ] {
                        sqlx::query(sql).bind(&a.id).execute(&mut *tx).await?;
                    }
                    let seats = sqlx::query_scalar(
                        "UPDATE seats SET account = $1, name = $1, player_hash = NULL \
                         WHERE player_hash = $2 RETURNING table_id",
                    )
                    .bind(DELETED_PLAYER)
                    .bind(&hash)
                    .fetch_all(&mut *tx)
                    .await?;
                    let created = sqlx::query_scalar(
                        "UPDATE game_tables SET creator_hash = NULL WHERE creator_hash = $1 \
                         RETURNING id",
                    )
                    .bind(&hash)
                    .fetch_all(&mut *tx)
                    .await?;
                    commit_changed(tx, seats, created).await
                })
            }

            fn claim_guest_tables<'a>(
                &'a self,
                a: &'a StoredAccount,
                guest: &'a TokenHash,
            ) -> StoreFuture<'a, Vec<String>> {
                Box::pin(async move {
                    let mut tx = self.writer().begin().await?;
                    let seats = sqlx::query_scalar(
                        "UPDATE seats SET account = $1, name = $1, player_hash = $2 \
                         WHERE player_hash = $3 RETURNING table_id",
                    )
                    .bind(&a.name)
                    .bind(a.player_hash.to_vec())
                    .bind(guest.to_vec())
                    .fetch_all(&mut *tx)
                    .await?;
                    let created = sqlx::query_scalar(
                        "UPDATE game_tables SET creator_hash = $1 WHERE creator_hash = $2 \
                         RETURNING id",
                    )
                    .bind(a.player_hash.to_vec())
                    .bind(guest.to_vec())
                    .fetch_all(&mut *tx)
                    .await?;
                    commit_changed(tx, seats, created).await
                })
            }
        }
    };
}

mod sqlite {
    use super::*;
    accounts!(SqliteStore);
}

mod postgres {
    use super::*;
    accounts!(PgStore);
}
