//! The SQLite store: one file, WAL journal, `synchronous=FULL`, migrated on open.
//!
//! Writes go through a single connection (SQLite has one writer at a time;
//! one connection avoids lock contention), the tables' writes with group
//! commit (see [`super::group_commit`]); reads go through a small pool.

use super::StoreError;
use super::group_commit::GroupCommit;
use sqlx::sqlite::{
    SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions, SqliteSynchronous,
};
use sqlx::{AssertSqlSafe, Row};
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

/// The schema's migrations, in order; `PRAGMA user_version` counts those applied.
const MIGRATIONS: &[&str] = &[
    include_str!("../../migrations/0001_tables.sql"),
    include_str!("../../migrations/0002_table_life.sql"),
    include_str!("../../migrations/0003_analyses.sql"),
    include_str!("../../migrations/0004_listed.sql"),
    include_str!("../../migrations/0005_rematch.sql"),
    include_str!("../../migrations/0006_probe.sql"),
    include_str!("../../migrations/0007_accounts.sql"),
    include_str!("../../migrations/0008_ratings.sql"),
    include_str!("../../migrations/0009_clocks.sql"),
    include_str!("../../migrations/0010_seeks.sql"),
];

/// A store in one SQLite file.
#[derive(Clone, Debug)]
pub struct SqliteStore {
    pub(super) writer: SqlitePool,
    pub(super) reader: SqlitePool,
    pub(super) appends: GroupCommit,
    /// The lock file `FILE.lock`, locked while the store is open: a second
    /// server on the same file would trust its own memory and part from the first.
    /// Released by [`super::Store::close`].
    pub(super) lock: Arc<std::sync::Mutex<Option<std::fs::File>>>,
}

/// Locks `DB.lock` next to the database file for this process alone; the
/// operating system releases the lock when the process ends, however it ends.
fn lock_file(path: &Path) -> Result<std::fs::File, StoreError> {
    let mut name = path.as_os_str().to_owned();
    name.push(".lock");
    let lock_path = std::path::PathBuf::from(name);
    let file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&lock_path)
        .map_err(|e| {
            StoreError::Database(format!(
                "cannot open the lock file {}: {e}",
                lock_path.display()
            ))
        })?;
    match file.try_lock() {
        Ok(()) => Ok(file),
        Err(std::fs::TryLockError::WouldBlock) => Err(StoreError::Database(format!(
            "another server is using the database {} (it holds {}); one SQLite file \
             serves one process: stop the other one, or run several nodes on PostgreSQL",
            path.display(),
            lock_path.display()
        ))),
        Err(std::fs::TryLockError::Error(e)) => Err(StoreError::Database(format!(
            "cannot lock {}: {e}",
            lock_path.display()
        ))),
    }
}

impl SqliteStore {
    /// Opens (creating and migrating if needed) the database at `path`.
    pub async fn open(path: &Path) -> Result<Self, StoreError> {
        let lock = lock_file(path)?;
        let options = SqliteConnectOptions::new()
            .filename(path)
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            // FULL: the WAL is synced at every commit, so an acknowledged
            // action survives a crash of the machine, not only of the process.
            .synchronous(SqliteSynchronous::Full)
            .foreign_keys(true)
            .busy_timeout(Duration::from_secs(10));
        let writer = SqlitePoolOptions::new()
            .max_connections(1)
            .min_connections(1)
            .idle_timeout(None)
            .connect_with(options.clone())
            .await?;
        migrate(&writer).await?;
        let reader = SqlitePoolOptions::new()
            .max_connections(4)
            .connect_with(options.read_only(true))
            .await?;
        Ok(SqliteStore {
            appends: GroupCommit::start(writer.clone()),
            writer,
            reader,
            lock: Arc::new(std::sync::Mutex::new(Some(lock))),
        })
    }
}

async fn migrate(pool: &SqlitePool) -> Result<(), StoreError> {
    let applied: i64 = sqlx::query("PRAGMA user_version")
        .fetch_one(pool)
        .await?
        .try_get(0)?;
    for (version, sql) in super::pending_migrations(applied, MIGRATIONS)? {
        let mut tx = pool.begin().await?;
        sqlx::raw_sql(sql).execute(&mut *tx).await?;
        let set = format!("PRAGMA user_version = {version}");
        sqlx::query(AssertSqlSafe(set)).execute(&mut *tx).await?;
        tx.commit().await?;
        tracing::info!(migration = version, "database migrated");
    }
    Ok(())
}
