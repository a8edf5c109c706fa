//! What differs between the SQLite and the PostgreSQL store, in one place.
//!
//! The stores of tables, accounts, ratings and the lobby are each written
//! once, as a macro instantiated for [`SqliteStore`] and [`PgStore`], in
//! SQL that both databases take: `$1` placeholders (sqlx binds them by
//! number in SQLite too), `TRUE` and `FALSE`, `ON CONFLICT … DO UPDATE`,
//! `RETURNING` and `IS DISTINCT FROM`. Their column types differ (`INTEGER`
//! and `BLOB` in SQLite, `BIGINT`, `BOOLEAN` and `BYTEA` in PostgreSQL) but
//! decode to the same Rust types. What is left differs here: the pools,
//! the read snapshot, row locks and advisory locks, the health probe, how a
//! change of the tables is committed (SQLite's group commit; on PostgreSQL a
//! transaction of its own that writes only this node's tables and announces
//! them to the other nodes) and closing. How each database is opened and
//! migrated is in `sqlite.rs` and `postgres.rs`.

use super::tables::Write;
use super::{PgStore, SqliteStore, StoreError, unix_now};
use sqlx::postgres::{PgConnection, Postgres};
use sqlx::sqlite::{Sqlite, SqliteConnection};
use sqlx::{Database, Pool, Transaction};
use std::future::Future;

/// The channel on which the changes of table `id` are announced (payload:
/// the id): only the nodes that hold the table listen on it.
pub fn table_channel(id: &str) -> String {
    format!("spelbord_t_{id}")
}

/// What the shared store code takes from each database.
pub(super) trait Dialect: Send + Sync + 'static {
    /// The database.
    type Db: Database;

    /// Appended to a `SELECT` in a writing transaction: locks the rows read
    /// until the transaction ends.
    const LOCK_ROWS: &'static str;

    /// Takes the transaction's advisory lock `$1` if it is free, and says
    /// whether it did (a boolean).
    const TRY_LOCK: &'static str;

    /// The health probe's small write, without parameters.
    const PROBE: &'static str;

    /// The pool for writes.
    fn writer(&self) -> &Pool<Self::Db>;

    /// The pool for reads.
    fn reader(&self) -> &Pool<Self::Db>;

    /// A read-only transaction that sees one snapshot (a table's row, seats
    /// and actions read in it agree).
    fn snapshot(
        &self,
    ) -> impl Future<Output = Result<Transaction<'static, Self::Db>, StoreError>> + Send;

    /// Commits one change of the tables; returns once it is committed (or refused).
    fn write(&self, write: Write) -> impl Future<Output = Result<(), StoreError>> + Send;

    /// Announces the changes of `tables` to every node, sent when `tx` commits.
    fn announce(
        tx: &mut <Self::Db as Database>::Connection,
        tables: &[String],
    ) -> impl Future<Output = Result<(), StoreError>> + Send;

    /// Flushes and closes the pools.
    fn close(&self) -> impl Future<Output = ()> + Send;
}

/// One file of one process: every write goes through its single writer
/// connection, which holds the whole file while it writes, so nothing needs
/// a lock of its own and no other node needs to hear of a change.
impl Dialect for SqliteStore {
    type Db = Sqlite;

    const LOCK_ROWS: &'static str = "";

    const TRY_LOCK: &'static str = "SELECT $1 = $1";

    const PROBE: &'static str = "INSERT INTO store_probe (id, at) VALUES (1, unixepoch()) \
         ON CONFLICT (id) DO UPDATE SET at = excluded.at";

    fn writer(&self) -> &Pool<Sqlite> {
        &self.writer
    }

    fn reader(&self) -> &Pool<Sqlite> {
        &self.reader
    }

    async fn snapshot(&self) -> Result<Transaction<'static, Sqlite>, StoreError> {
        Ok(self.reader.begin().await?)
    }

    /// With group commit (see [`super::group_commit`]).
    async fn write(&self, write: Write) -> Result<(), StoreError> {
        self.appends.submit(write).await
    }

    async fn announce(_: &mut SqliteConnection, _: &[String]) -> Result<(), StoreError> {
        Ok(())
    }

    async fn close(&self) {
        self.reader.close().await;
        self.writer.close().await;
        if let Ok(mut lock) = self.lock.lock() {
            lock.take();
        }
    }
}

/// Several nodes on one database: each write is a transaction of its own
/// (PostgreSQL takes concurrent writers and groups their WAL flushes
/// itself), writes only the tables this node owns, and is announced on
/// its [`table_channel`]; the rows a transaction reads to write them again are locked.
impl Dialect for PgStore {
    type Db = Postgres;

    const LOCK_ROWS: &'static str = " FOR UPDATE";

    const TRY_LOCK: &'static str = "SELECT pg_try_advisory_xact_lock($1)";

    /// A transaction that takes a transaction id writes a commit record to
    /// the WAL (and fails on a read-only server).
    const PROBE: &'static str = "SELECT txid_current()";

    fn writer(&self) -> &Pool<Postgres> {
        &self.pool
    }

    fn reader(&self) -> &Pool<Postgres> {
        &self.pool
    }

    async fn snapshot(&self) -> Result<Transaction<'static, Postgres>, StoreError> {
        let mut tx = self.pool.begin().await?;
        sqlx::query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            .execute(&mut *tx)
            .await?;
        Ok(tx)
    }

    async fn write(&self, write: Write) -> Result<(), StoreError> {
        let written = async {
            let mut tx = self.pool.begin().await?;
            super::tables::postgres::write_one(&mut tx, &write, unix_now(), Some(&self.node))
                .await?;
            if let Some(table) = write.announced() {
                notify(&mut tx, table).await?;
            }
            tx.commit().await?;
            Ok(())
        };
        let Some(limit) = self.write_limit else {
            return written.await;
        };
        // Past the lease another node may own the table: a write that
        // commits later is not acknowledged (a client sending it again is
        // told `stale_version`).
        tokio::time::timeout(limit, written)
            .await
            .unwrap_or_else(|_| {
                Err(StoreError::Database(format!(
                    "the database did not answer within the lease ({} ms): write given up",
                    limit.as_millis()
                )))
            })
    }

    async fn announce(tx: &mut PgConnection, tables: &[String]) -> Result<(), StoreError> {
        for table in tables {
            notify(tx, table).await?;
        }
        Ok(())
    }

    async fn close(&self) {
        self.pool.close().await;
    }
}

/// Announces a change of `table_id` to the nodes that hold it (sent at commit).
async fn notify(tx: &mut PgConnection, table_id: &str) -> Result<(), StoreError> {
    sqlx::query("SELECT pg_notify($1, $2)")
        .bind(table_channel(table_id))
        .bind(table_id)
        .execute(tx)
        .await?;
    Ok(())
}
