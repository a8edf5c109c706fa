//! The SQLite store: one file, WAL journal, `synchronous=FULL`, migrated on open.
//!
//! Writes go through a single connection (SQLite has one writer at a time;
//! one connection avoids lock contention), all of them with group commit
//! (see [`super::group_commit`]); reads go through a small pool.

use super::Store;
use super::group_commit::{GroupCommit, Write};
use super::rows::{action_from_row, kind_columns, seat_from_row, table_from_row, takeover_text};
use super::{
    Ending, StoreError, StoreFuture, StoredAction, StoredAnalysis, StoredSeat, StoredTable,
};
use crate::token::TokenHash;
use sqlx::sqlite::{
    SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions, SqliteRow,
    SqliteSynchronous,
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
    appends: GroupCommit,
    /// The lock file `FILE.lock`, locked while the store is open: a second
    /// server on the same file would trust its own memory and part from the first.
    /// Released by [`Store::close`].
    lock: Arc<std::sync::Mutex<Option<std::fs::File>>>,
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

impl From<sqlx::Error> for StoreError {
    fn from(e: sqlx::Error) -> Self {
        use sqlx::error::ErrorKind;
        match &e {
            sqlx::Error::Database(d) if !matches!(d.kind(), ErrorKind::Other) => {
                StoreError::Constraint(e.to_string())
            }
            _ => StoreError::Database(e.to_string()),
        }
    }
}

/// Unix time in seconds.
pub(super) fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0)
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
    if applied as usize > MIGRATIONS.len() {
        return Err(StoreError::Corrupt(format!(
            "the database has schema version {applied}, newer than this server ({})",
            MIGRATIONS.len()
        )));
    }
    for (index, sql) in MIGRATIONS.iter().enumerate().skip(applied as usize) {
        let mut tx = pool.begin().await?;
        sqlx::raw_sql(*sql).execute(&mut *tx).await?;
        let set = format!("PRAGMA user_version = {}", index + 1);
        sqlx::query(AssertSqlSafe(set)).execute(&mut *tx).await?;
        tx.commit().await?;
        tracing::info!(migration = index + 1, "database migrated");
    }
    Ok(())
}

/// Inserts a table's action rows, many in one statement.
pub(super) async fn insert_actions(
    tx: &mut sqlx::SqliteConnection,
    table_id: &str,
    actions: &[StoredAction],
    at: i64,
) -> Result<(), StoreError> {
    let rows: Vec<(&str, &StoredAction)> = actions.iter().map(|a| (table_id, a)).collect();
    insert_action_rows(tx, &rows, at).await
}

/// Inserts action rows (each with its table), many in one statement.
pub(super) async fn insert_action_rows(
    tx: &mut sqlx::SqliteConnection,
    rows: &[(&str, &StoredAction)],
    at: i64,
) -> Result<(), StoreError> {
    // Up to 500 rows of 6 parameters per statement: far below SQLite's
    // limit on parameters (32,766), and one round trip for an action and
    // its rolls, or for the actions of a whole group commit.
    for chunk in rows.chunks(500) {
        let mut insert = sqlx::QueryBuilder::<sqlx::Sqlite>::new(
            "INSERT INTO actions (table_id, version, seat, text, auto, created_at, think_ms, clock) ",
        );
        insert.push_values(chunk, |mut row, (table_id, action)| {
            row.push_bind(*table_id)
                .push_bind(action.version as i64)
                .push_bind(action.seat.map(|s| s as i64))
                .push_bind(&action.text)
                .push_bind(action.auto)
                .push_bind(at)
                .push_bind(action.think_ms.map(|t| t.min(i64::MAX as u64) as i64))
                .push_bind(super::rows::clock_text(action.clock.as_deref()));
        });
        // Its text depends on the number of rows: not worth a cached statement.
        let persistent = chunk.len() <= 4;
        insert
            .build()
            .persistent(persistent)
            .execute(&mut *tx)
            .await?;
    }
    Ok(())
}

/// Writes a seat; `only_open`: only if it is open (else a conflict).
pub(super) async fn write_seat(
    tx: &mut sqlx::SqliteConnection,
    table_id: &str,
    seat: &StoredSeat,
    only_open: bool,
) -> Result<(), StoreError> {
    let (kind, agent) = kind_columns(&seat.kind);
    let sql = if only_open {
        "UPDATE seats SET kind = ?, agent = ?, name = ?, token_hash = ?, player_hash = ?, \
         joined_at = ?, seed = ?, join_key_hash = ?, account = ?, auto_roll = ? WHERE table_id = ? AND seat = ? AND kind = 'open'"
    } else {
        "UPDATE seats SET kind = ?, agent = ?, name = ?, token_hash = ?, player_hash = ?, \
         joined_at = ?, seed = ?, join_key_hash = ?, account = ?, auto_roll = ? WHERE table_id = ? AND seat = ?"
    };
    let updated = sqlx::query(sql)
        .bind(kind)
        .bind(agent)
        .bind(seat.name.as_deref())
        .bind(seat.token_hash.map(|h| h.to_vec()))
        .bind(seat.player_hash.map(|h| h.to_vec()))
        .bind(seat.joined_at)
        .bind(seat.seed.as_deref())
        .bind(seat.join_key_hash.map(|h| h.to_vec()))
        .bind(seat.account.as_deref())
        .bind(seat.auto_roll.as_str())
        .bind(table_id)
        .bind(seat.seat as i64)
        .execute(tx)
        .await?;
    if updated.rows_affected() != 1 {
        return Err(StoreError::Conflict(if only_open {
            format!("seat {} of table {table_id} is not open", seat.seat)
        } else {
            format!("table {table_id} has no seat {}", seat.seat)
        }));
    }
    Ok(())
}

/// Inserts a new table with its seats and first actions.
pub(super) async fn insert_table(
    tx: &mut sqlx::SqliteConnection,
    table: &StoredTable,
) -> Result<(), StoreError> {
    let options =
        serde_json::to_string(&table.options).map_err(|e| StoreError::Corrupt(e.to_string()))?;
    let result = table
        .result
        .as_ref()
        .map(|r| serde_json::to_string(r).unwrap_or_default());
    sqlx::query(
        "INSERT INTO game_tables (id, game, options, auto_forced, creator_hash, \
         version, finished, result, created_at, updated_at, server_seed, \
         inactivity_seconds, inactivity_then, listed, rematch_of, rated, clock) \
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    )
    .bind(&table.id)
    .bind(&table.game)
    .bind(options)
    .bind(table.auto_forced)
    .bind(table.creator_hash.map(|h| h.to_vec()))
    .bind(table.version as i64)
    .bind(table.result.is_some())
    .bind(result)
    .bind(table.created_at)
    .bind(table.updated_at)
    .bind(table.server_seed.map(|h| h.to_vec()))
    .bind(table.inactivity.seconds.min(i64::MAX as u64) as i64)
    .bind(takeover_text(table.inactivity.then))
    .bind(table.listed)
    .bind(table.rematch_of.as_deref())
    .bind(table.rated)
    .bind(super::rows::control_text(table.clock.as_ref()))
    .execute(&mut *tx)
    .await?;
    if !table.seats.is_empty() {
        let mut seats = sqlx::QueryBuilder::<sqlx::Sqlite>::new(
            "INSERT INTO seats (table_id, seat, kind, agent, name, token_hash, \
             player_hash, joined_at, seed, join_key_hash, account, auto_roll) ",
        );
        seats.push_values(&table.seats, |mut row, seat| {
            let (kind, agent) = kind_columns(&seat.kind);
            row.push_bind(&table.id)
                .push_bind(seat.seat as i64)
                .push_bind(kind)
                .push_bind(agent)
                .push_bind(seat.name.as_deref())
                .push_bind(seat.token_hash.map(|h| h.to_vec()))
                .push_bind(seat.player_hash.map(|h| h.to_vec()))
                .push_bind(seat.joined_at)
                .push_bind(seat.seed.as_deref())
                .push_bind(seat.join_key_hash.map(|h| h.to_vec()))
                .push_bind(seat.account.as_deref())
                .push_bind(seat.auto_roll.as_str());
        });
        seats.build().execute(&mut *tx).await?;
    }
    insert_actions(tx, &table.id, &table.actions, table.created_at).await?;
    Ok(())
}

/// Ends an unfinished table at `version` early (`ending` as JSON), or says
/// why a table that its last action (a resignation) finished ended.
pub(super) async fn write_end(
    tx: &mut sqlx::SqliteConnection,
    table_id: &str,
    version: u64,
    ending: &str,
) -> Result<(), StoreError> {
    let updated = sqlx::query(
        "UPDATE game_tables SET finished = 1, ending = ?, updated_at = ? \
         WHERE id = ? AND version = ? AND (finished = 0 OR ending IS NULL)",
    )
    .bind(ending)
    .bind(now())
    .bind(table_id)
    .bind(version as i64)
    .execute(tx)
    .await?;
    if updated.rows_affected() != 1 {
        return Err(StoreError::Conflict(format!(
            "table {table_id} is not open at version {version}"
        )));
    }
    Ok(())
}

async fn load(pool: &SqlitePool, row: SqliteRow) -> Result<StoredTable, StoreError> {
    let id: String = row.try_get("id")?;
    let seats = sqlx::query("SELECT * FROM seats WHERE table_id = ? ORDER BY seat")
        .bind(&id)
        .fetch_all(pool)
        .await?
        .iter()
        .map(seat_from_row)
        .collect::<Result<Vec<_>, _>>()?;
    let actions = sqlx::query(
        "SELECT version, seat, text, auto, think_ms, clock FROM actions WHERE table_id = ? ORDER BY version",
    )
    .bind(&id)
    .fetch_all(pool)
    .await?
    .iter()
    .map(action_from_row)
    .collect::<Result<Vec<_>, _>>()?;
    table_from_row(&row, seats, actions)
}

impl Store for SqliteStore {
    fn create_table<'a>(&'a self, table: &'a StoredTable) -> StoreFuture<'a, ()> {
        Box::pin(self.appends.submit(Write::Create(Box::new(table.clone()))))
    }

    fn append_actions<'a>(
        &'a self,
        table_id: &'a str,
        base_version: u64,
        actions: &'a [StoredAction],
        result: Option<&'a [f64]>,
    ) -> StoreFuture<'a, ()> {
        Box::pin(self.appends.append(table_id, base_version, actions, result))
    }

    fn claim_seat<'a>(&'a self, table_id: &'a str, seat: &'a StoredSeat) -> StoreFuture<'a, ()> {
        Box::pin(self.appends.submit(Write::Seat {
            table_id: table_id.to_string(),
            seat: seat.clone(),
            only_open: true,
        }))
    }

    fn replace_seat<'a>(&'a self, table_id: &'a str, seat: &'a StoredSeat) -> StoreFuture<'a, ()> {
        Box::pin(self.appends.submit(Write::Seat {
            table_id: table_id.to_string(),
            seat: seat.clone(),
            only_open: false,
        }))
    }

    fn save_analysis<'a>(
        &'a self,
        table_id: &'a str,
        version: u64,
        analysis: &'a str,
    ) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            sqlx::query(
                "INSERT INTO analyses (table_id, version, analysis, created_at) \
                 VALUES (?, ?, ?, ?) ON CONFLICT (table_id) DO UPDATE SET \
                 version = excluded.version, analysis = excluded.analysis, \
                 created_at = excluded.created_at",
            )
            .bind(table_id)
            .bind(version as i64)
            .bind(analysis)
            .bind(now())
            .execute(&self.writer)
            .await?;
            Ok(())
        })
    }

    fn load_analysis<'a>(&'a self, table_id: &'a str) -> StoreFuture<'a, Option<StoredAnalysis>> {
        Box::pin(async move {
            let row = sqlx::query("SELECT version, analysis FROM analyses WHERE table_id = ?")
                .bind(table_id)
                .fetch_optional(&self.reader)
                .await?;
            row.map(|r| {
                Ok(StoredAnalysis {
                    version: r.try_get::<i64, _>("version")? as u64,
                    analysis: r.try_get("analysis")?,
                })
            })
            .transpose()
        })
    }

    fn end_table<'a>(
        &'a self,
        table_id: &'a str,
        version: u64,
        ending: &'a Ending,
    ) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            let ending =
                serde_json::to_string(ending).map_err(|e| StoreError::Corrupt(e.to_string()))?;
            self.appends
                .submit(Write::End {
                    table_id: table_id.to_string(),
                    version,
                    ending,
                })
                .await
        })
    }

    fn unfinished_tables(&self, since: i64) -> StoreFuture<'_, Vec<StoredTable>> {
        Box::pin(async move {
            let rows = sqlx::query(
                "SELECT * FROM game_tables WHERE finished = 0 AND updated_at >= ? \
                 ORDER BY created_at",
            )
            .bind(since)
            .fetch_all(&self.reader)
            .await?;
            let mut tables = Vec::with_capacity(rows.len());
            for row in rows {
                tables.push(load(&self.reader, row).await?);
            }
            Ok(tables)
        })
    }

    fn load_table<'a>(&'a self, table_id: &'a str) -> StoreFuture<'a, Option<StoredTable>> {
        Box::pin(async move {
            let row = sqlx::query("SELECT * FROM game_tables WHERE id = ?")
                .bind(table_id)
                .fetch_optional(&self.reader)
                .await?;
            match row {
                Some(row) => Ok(Some(load(&self.reader, row).await?)),
                None => Ok(None),
            }
        })
    }

    fn player_tables<'a>(&'a self, player: &'a TokenHash) -> StoreFuture<'a, Vec<String>> {
        Box::pin(async move {
            let rows = sqlx::query(
                "SELECT id FROM game_tables WHERE finished = 0 AND (creator_hash = ?1 \
                 OR id IN (SELECT table_id FROM seats WHERE player_hash = ?1)) \
                 ORDER BY updated_at DESC LIMIT 200",
            )
            .bind(player.to_vec())
            .fetch_all(&self.reader)
            .await?;
            rows.iter()
                .map(|r| r.try_get::<String, _>("id").map_err(StoreError::from))
                .collect()
        })
    }

    fn find_rematch<'a>(&'a self, table_id: &'a str) -> StoreFuture<'a, Option<String>> {
        Box::pin(async move {
            let row = sqlx::query("SELECT id FROM game_tables WHERE rematch_of = ?")
                .bind(table_id)
                .fetch_optional(&self.reader)
                .await?;
            Ok(row.map(|r| r.try_get::<String, _>("id")).transpose()?)
        })
    }

    fn listed_tables(&self, live: bool, page: u32, size: u32) -> StoreFuture<'_, Vec<String>> {
        Box::pin(async move {
            let query = if live {
                sqlx::query(
                    "SELECT id FROM game_tables WHERE listed = 1 AND finished = 0 AND ending IS NULL \
                 AND NOT EXISTS (SELECT 1 FROM seats WHERE seats.table_id = game_tables.id \
                 AND seats.kind = 'open') ORDER BY updated_at DESC, id LIMIT ?1 OFFSET ?2",
                )
            } else {
                sqlx::query(
                    "SELECT id FROM game_tables WHERE listed = 1 AND finished = 0 AND ending IS NULL \
                 AND rematch_of IS NULL AND EXISTS (SELECT 1 FROM seats WHERE seats.table_id = game_tables.id \
                 AND seats.kind = 'open') ORDER BY updated_at DESC, id LIMIT ?1 OFFSET ?2",
                )
            };
            let rows = query
                .bind(i64::from(size))
                .bind(i64::from(page) * i64::from(size))
                .fetch_all(&self.reader)
                .await?;
            rows.iter()
                .map(|r| r.try_get::<String, _>("id").map_err(StoreError::from))
                .collect()
        })
    }

    fn probe(&self) -> StoreFuture<'_, ()> {
        Box::pin(self.appends.submit(Write::Probe))
    }

    fn close(&self) -> StoreFuture<'_, ()> {
        Box::pin(async move {
            self.reader.close().await;
            self.writer.close().await;
            if let Ok(mut lock) = self.lock.lock() {
                lock.take();
            }
            Ok(())
        })
    }
}
