//! The PostgreSQL store: the same schema as SQLite's in PostgreSQL's types,
//! migrated on open. Each write is one transaction on a connection of a
//! pool (PostgreSQL takes concurrent writers and groups their WAL flushes
//! itself, so there is no group-commit queue here).

use super::rows::{action_from_row, kind_columns, seat_from_row, table_from_row, takeover_text};
use super::{
    Ending, Store, StoreError, StoreFuture, StoredAction, StoredAnalysis, StoredSeat, StoredTable,
};
use crate::token::TokenHash;
use sqlx::postgres::{PgConnectOptions, PgConnection, PgPool, PgPoolOptions, PgRow};
use sqlx::{AssertSqlSafe, Row};
use std::str::FromStr;
use std::time::Duration;

/// The schema's migrations, in order (the same versions as SQLite's); the
/// table `schema_migrations` counts those applied.
const MIGRATIONS: &[&str] = &[
    include_str!("../../migrations/postgres/0001_tables.sql"),
    include_str!("../../migrations/postgres/0002_table_life.sql"),
    include_str!("../../migrations/postgres/0003_nodes.sql"),
    include_str!("../../migrations/postgres/0004_analyses.sql"),
    include_str!("../../migrations/postgres/0005_listed.sql"),
    include_str!("../../migrations/postgres/0006_rematch.sql"),
    include_str!("../../migrations/postgres/0007_accounts.sql"),
    include_str!("../../migrations/postgres/0008_ratings.sql"),
    include_str!("../../migrations/postgres/0009_clocks.sql"),
    include_str!("../../migrations/postgres/0010_seeks.sql"),
];

/// The advisory lock held while migrating, so that nodes starting together
/// migrate once.
const MIGRATION_LOCK: i64 = 0x5e1b_0a2d;

/// The channel on which every change of a table is announced (its id).
pub const CHANNEL: &str = "spelbord_tables";

/// A store in a PostgreSQL database, for one node: it writes only to the
/// tables this node owns (`game_tables.owner`), so a node that lost a
/// table's lease cannot change it any more.
#[derive(Clone, Debug)]
pub struct PgStore {
    pub(super) pool: PgPool,
    node: String,
}

impl PgStore {
    /// Connects to the database at `url` (`postgres://…`) and migrates it.
    pub async fn open(url: &str) -> Result<Self, StoreError> {
        let options = PgConnectOptions::from_str(url)
            .map_err(|e| StoreError::Database(format!("bad database URL: {e}")))?;
        let pool = PgPoolOptions::new()
            .max_connections(16)
            .acquire_timeout(Duration::from_secs(10))
            .connect_with(options)
            .await?;
        migrate(&pool).await?;
        Ok(PgStore {
            pool,
            node: crate::token::new_token()[..16].to_string(),
        })
    }

    /// The connection pool (for the nodes' leases and notifications).
    pub fn pool(&self) -> &PgPool {
        &self.pool
    }

    /// This node's id (new at every start).
    pub fn node(&self) -> &str {
        &self.node
    }
}

async fn migrate(pool: &PgPool) -> Result<(), StoreError> {
    let mut tx = pool.begin().await?;
    sqlx::query("SELECT pg_advisory_xact_lock($1)")
        .bind(MIGRATION_LOCK)
        .execute(&mut *tx)
        .await?;
    sqlx::raw_sql("CREATE TABLE IF NOT EXISTS schema_migrations (version BIGINT NOT NULL)")
        .execute(&mut *tx)
        .await?;
    let applied: i64 = sqlx::query("SELECT COALESCE(MAX(version), 0) FROM schema_migrations")
        .fetch_one(&mut *tx)
        .await?
        .try_get(0)?;
    if applied as usize > MIGRATIONS.len() {
        return Err(StoreError::Corrupt(format!(
            "the database has schema version {applied}, newer than this server ({})",
            MIGRATIONS.len()
        )));
    }
    for (index, sql) in MIGRATIONS.iter().enumerate().skip(applied as usize) {
        sqlx::raw_sql(AssertSqlSafe(*sql)).execute(&mut *tx).await?;
        sqlx::query("INSERT INTO schema_migrations (version) VALUES ($1)")
            .bind(index as i64 + 1)
            .execute(&mut *tx)
            .await?;
        tracing::info!(migration = index + 1, "database migrated");
    }
    tx.commit().await?;
    Ok(())
}

/// Announces a change of `table_id` to every node (sent at commit).
pub(super) async fn notify(tx: &mut PgConnection, table_id: &str) -> Result<(), StoreError> {
    sqlx::query("SELECT pg_notify($1, $2)")
        .bind(CHANNEL)
        .bind(table_id)
        .execute(tx)
        .await?;
    Ok(())
}

async fn insert_action(
    tx: &mut PgConnection,
    table_id: &str,
    action: &StoredAction,
    at: i64,
) -> Result<(), StoreError> {
    sqlx::query(
        "INSERT INTO actions (table_id, version, seat, text, auto, created_at, think_ms, clock) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
    )
    .bind(table_id)
    .bind(action.version as i64)
    .bind(action.seat.map(|s| s as i64))
    .bind(&action.text)
    .bind(action.auto)
    .bind(at)
    .bind(action.think_ms.map(|t| t.min(i64::MAX as u64) as i64))
    .bind(super::rows::clock_text(action.clock.as_deref()))
    .execute(tx)
    .await?;
    Ok(())
}

async fn insert_table(
    tx: &mut PgConnection,
    table: &StoredTable,
    owner: &str,
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
         inactivity_seconds, inactivity_then, owner, listed, rematch_of, rated, clock) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18)",
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
    .bind(owner)
    .bind(table.listed)
    .bind(table.rematch_of.as_deref())
    .bind(table.rated)
    .bind(super::rows::control_text(table.clock.as_ref()))
    .execute(&mut *tx)
    .await?;
    for seat in &table.seats {
        let (kind, agent) = kind_columns(&seat.kind);
        sqlx::query(
            "INSERT INTO seats (table_id, seat, kind, agent, name, token_hash, \
             player_hash, joined_at, seed, join_key_hash, account, auto_roll) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)",
        )
        .bind(&table.id)
        .bind(seat.seat as i64)
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
        .execute(&mut *tx)
        .await?;
    }
    for action in &table.actions {
        insert_action(tx, &table.id, action, table.created_at).await?;
    }
    Ok(())
}

/// The table in `row` with its seats and its actions after version `after`.
async fn load(tx: &mut PgConnection, row: PgRow, after: u64) -> Result<StoredTable, StoreError> {
    let id: String = row.try_get("id")?;
    let seats = sqlx::query("SELECT * FROM seats WHERE table_id = $1 ORDER BY seat")
        .bind(&id)
        .fetch_all(&mut *tx)
        .await?
        .iter()
        .map(seat_from_row)
        .collect::<Result<Vec<_>, _>>()?;
    let actions = sqlx::query(
        "SELECT version, seat, text, auto, think_ms, clock FROM actions WHERE table_id = $1 AND version > $2 \
         ORDER BY version",
    )
    .bind(&id)
    .bind(after as i64)
    .fetch_all(&mut *tx)
    .await?
    .iter()
    .map(action_from_row)
    .collect::<Result<Vec<_>, _>>()?;
    table_from_row(&row, seats, actions)
}

impl PgStore {
    /// A read-only transaction that sees one snapshot (a table's row, seats
    /// and actions read in it agree).
    async fn snapshot(&self) -> Result<sqlx::Transaction<'static, sqlx::Postgres>, StoreError> {
        let mut tx = self.pool.begin().await?;
        sqlx::query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            .execute(&mut *tx)
            .await?;
        Ok(tx)
    }

    async fn append(
        &self,
        table_id: &str,
        base_version: u64,
        actions: &[StoredAction],
        result: Option<&[f64]>,
    ) -> Result<(), StoreError> {
        let Some(last) = actions.last() else {
            return Ok(());
        };
        let result = result.map(|r| serde_json::to_string(r).unwrap_or_default());
        let at = super::sqlite::now();
        let mut tx = self.pool.begin().await?;
        let updated = sqlx::query(
            "UPDATE game_tables SET version = $1, finished = $2, result = $3, updated_at = $4 \
             WHERE id = $5 AND version = $6 AND NOT finished AND owner = $7",
        )
        .bind(last.version as i64)
        .bind(result.is_some())
        .bind(result)
        .bind(at)
        .bind(table_id)
        .bind(base_version as i64)
        .bind(&self.node)
        .execute(&mut *tx)
        .await?;
        if updated.rows_affected() != 1 {
            return Err(StoreError::Conflict(format!(
                "table {table_id} is not at version {base_version} on this node"
            )));
        }
        for action in actions {
            insert_action(&mut tx, table_id, action, at).await?;
        }
        notify(&mut tx, table_id).await?;
        tx.commit().await?;
        Ok(())
    }

    async fn write_seat(
        &self,
        table_id: &str,
        seat: &StoredSeat,
        only_open: bool,
    ) -> Result<(), StoreError> {
        let (kind, agent) = kind_columns(&seat.kind);
        let mut tx = self.pool.begin().await?;
        let updated = sqlx::query(
            "UPDATE seats SET kind = $1, agent = $2, name = $3, token_hash = $4, \
             player_hash = $5, joined_at = $6, seed = $7, join_key_hash = $8, account = $13, auto_roll = $14 \
             WHERE table_id = $9 AND seat = $10 AND (kind = 'open' OR NOT $11) \
             AND EXISTS (SELECT 1 FROM game_tables WHERE id = $9 AND owner = $12)",
        )
        .bind(kind)
        .bind(agent)
        .bind(seat.name.as_deref())
        .bind(seat.token_hash.map(|h| h.to_vec()))
        .bind(seat.player_hash.map(|h| h.to_vec()))
        .bind(seat.joined_at)
        .bind(seat.seed.as_deref())
        .bind(seat.join_key_hash.map(|h| h.to_vec()))
        .bind(table_id)
        .bind(seat.seat as i64)
        .bind(only_open)
        .bind(&self.node)
        .bind(seat.account.as_deref())
        .bind(seat.auto_roll.as_str())
        .execute(&mut *tx)
        .await?;
        if updated.rows_affected() != 1 {
            return Err(StoreError::Conflict(if only_open {
                format!(
                    "seat {} of table {table_id} is not open on this node",
                    seat.seat
                )
            } else {
                format!("table {table_id} has no seat {} on this node", seat.seat)
            }));
        }
        notify(&mut tx, table_id).await?;
        tx.commit().await?;
        Ok(())
    }

    async fn end(&self, table_id: &str, version: u64, ending: &Ending) -> Result<(), StoreError> {
        let ending =
            serde_json::to_string(ending).map_err(|e| StoreError::Corrupt(e.to_string()))?;
        let mut tx = self.pool.begin().await?;
        let updated = sqlx::query(
            "UPDATE game_tables SET finished = TRUE, ending = $1, updated_at = $2 \
             WHERE id = $3 AND version = $4 AND (NOT finished OR ending IS NULL) AND owner = $5",
        )
        .bind(ending)
        .bind(super::sqlite::now())
        .bind(table_id)
        .bind(version as i64)
        .bind(&self.node)
        .execute(&mut *tx)
        .await?;
        if updated.rows_affected() != 1 {
            return Err(StoreError::Conflict(format!(
                "table {table_id} is not open at version {version} on this node"
            )));
        }
        notify(&mut tx, table_id).await?;
        tx.commit().await?;
        Ok(())
    }
}

impl Store for PgStore {
    fn create_table<'a>(&'a self, table: &'a StoredTable) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            let mut tx = self.pool.begin().await?;
            insert_table(&mut tx, table, &self.node).await?;
            tx.commit().await?;
            Ok(())
        })
    }

    fn append_actions<'a>(
        &'a self,
        table_id: &'a str,
        base_version: u64,
        actions: &'a [StoredAction],
        result: Option<&'a [f64]>,
    ) -> StoreFuture<'a, ()> {
        Box::pin(self.append(table_id, base_version, actions, result))
    }

    fn claim_seat<'a>(&'a self, table_id: &'a str, seat: &'a StoredSeat) -> StoreFuture<'a, ()> {
        Box::pin(self.write_seat(table_id, seat, true))
    }

    fn replace_seat<'a>(&'a self, table_id: &'a str, seat: &'a StoredSeat) -> StoreFuture<'a, ()> {
        Box::pin(self.write_seat(table_id, seat, false))
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
                 VALUES ($1, $2, $3, $4) ON CONFLICT (table_id) DO UPDATE SET \
                 version = excluded.version, analysis = excluded.analysis, \
                 created_at = excluded.created_at",
            )
            .bind(table_id)
            .bind(version as i64)
            .bind(analysis)
            .bind(super::sqlite::now())
            .execute(&self.pool)
            .await?;
            Ok(())
        })
    }

    fn load_analysis<'a>(&'a self, table_id: &'a str) -> StoreFuture<'a, Option<StoredAnalysis>> {
        Box::pin(async move {
            let row = sqlx::query("SELECT version, analysis FROM analyses WHERE table_id = $1")
                .bind(table_id)
                .fetch_optional(&self.pool)
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
        Box::pin(self.end(table_id, version, ending))
    }

    fn unfinished_tables(&self, since: i64) -> StoreFuture<'_, Vec<StoredTable>> {
        Box::pin(async move {
            let mut tx = self.snapshot().await?;
            let rows = sqlx::query(
                "SELECT * FROM game_tables WHERE NOT finished AND updated_at >= $1 \
                 ORDER BY created_at",
            )
            .bind(since)
            .fetch_all(&mut *tx)
            .await?;
            let mut tables = Vec::with_capacity(rows.len());
            for row in rows {
                tables.push(load(&mut tx, row, 0).await?);
            }
            tx.commit().await?;
            Ok(tables)
        })
    }

    fn load_table<'a>(&'a self, table_id: &'a str) -> StoreFuture<'a, Option<StoredTable>> {
        self.load_table_after(table_id, 0)
    }

    fn load_table_after<'a>(
        &'a self,
        table_id: &'a str,
        after: u64,
    ) -> StoreFuture<'a, Option<StoredTable>> {
        Box::pin(async move {
            let mut tx = self.snapshot().await?;
            let row = sqlx::query("SELECT * FROM game_tables WHERE id = $1")
                .bind(table_id)
                .fetch_optional(&mut *tx)
                .await?;
            let table = match row {
                Some(row) => Some(load(&mut tx, row, after).await?),
                None => None,
            };
            tx.commit().await?;
            Ok(table)
        })
    }

    fn player_tables<'a>(&'a self, player: &'a TokenHash) -> StoreFuture<'a, Vec<String>> {
        Box::pin(async move {
            let rows = sqlx::query(
                "SELECT id FROM game_tables WHERE NOT finished AND (creator_hash = $1 \
                 OR id IN (SELECT table_id FROM seats WHERE player_hash = $1)) \
                 ORDER BY updated_at DESC LIMIT 200",
            )
            .bind(player.to_vec())
            .fetch_all(&self.pool)
            .await?;
            rows.iter()
                .map(|r| r.try_get::<String, _>("id").map_err(StoreError::from))
                .collect()
        })
    }

    fn find_rematch<'a>(&'a self, table_id: &'a str) -> StoreFuture<'a, Option<String>> {
        Box::pin(async move {
            let row = sqlx::query("SELECT id FROM game_tables WHERE rematch_of = $1")
                .bind(table_id)
                .fetch_optional(&self.pool)
                .await?;
            Ok(row.map(|r| r.try_get::<String, _>("id")).transpose()?)
        })
    }

    fn listed_tables(&self, live: bool, page: u32, size: u32) -> StoreFuture<'_, Vec<String>> {
        Box::pin(async move {
            let query = if live {
                sqlx::query(
                    "SELECT id FROM game_tables WHERE listed AND NOT finished AND ending IS NULL \
                 AND NOT EXISTS (SELECT 1 FROM seats WHERE seats.table_id = game_tables.id \
                 AND seats.kind = 'open') ORDER BY updated_at DESC, id LIMIT $1 OFFSET $2",
                )
            } else {
                sqlx::query(
                    "SELECT id FROM game_tables WHERE listed AND NOT finished AND ending IS NULL \
                 AND rematch_of IS NULL AND EXISTS (SELECT 1 FROM seats WHERE seats.table_id = game_tables.id \
                 AND seats.kind = 'open') ORDER BY updated_at DESC, id LIMIT $1 OFFSET $2",
                )
            };
            let rows = query
                .bind(i64::from(size))
                .bind(i64::from(page) * i64::from(size))
                .fetch_all(&self.pool)
                .await?;
            rows.iter()
                .map(|r| r.try_get::<String, _>("id").map_err(StoreError::from))
                .collect()
        })
    }

    fn probe(&self) -> StoreFuture<'_, ()> {
        Box::pin(async move {
            // A transaction that takes a transaction id writes a commit
            // record to the WAL (and fails on a read-only server).
            let mut tx = self.pool.begin().await?;
            sqlx::query("SELECT txid_current()")
                .execute(&mut *tx)
                .await?;
            tx.commit().await?;
            Ok(())
        })
    }

    fn close(&self) -> StoreFuture<'_, ()> {
        Box::pin(async move {
            self.pool.close().await;
            Ok(())
        })
    }
}
