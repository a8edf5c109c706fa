//! The PostgreSQL store: the same schema as SQLite's in PostgreSQL's types,
//! migrated on open. Each write is one transaction on a connection of a
//! pool (PostgreSQL takes concurrent writers and groups their WAL flushes
//! itself, so there is no group-commit queue here).

use super::StoreError;
use sqlx::Row;
use sqlx::postgres::{PgConnectOptions, PgPool, PgPoolOptions};
use std::str::FromStr;
use std::time::Duration;

/// The schema's migrations, in order (SQLite's are numbered on their own);
/// the table `schema_migrations` counts those applied.
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
    include_str!("../../migrations/postgres/0011_routes.sql"),
];

/// The advisory lock held while migrating, so that nodes starting together
/// migrate once.
const MIGRATION_LOCK: i64 = 0x5e1b_0a2d;

/// A store in a PostgreSQL database, for one node: it writes only to the
/// tables this node owns (`game_tables.owner`), so a node that lost a
/// table's lease cannot change it any more.
#[derive(Clone, Debug)]
pub struct PgStore {
    pub(super) pool: PgPool,
    pub(super) node: String,
    /// How long a write may take before this node gives it up (`None`: no
    /// limit); see [`PgStore::open_leased`].
    pub(super) write_limit: Option<Duration>,
}

impl PgStore {
    /// Connects to the database at `url` (`postgres://…`) and migrates it.
    pub async fn open(url: &str) -> Result<Self, StoreError> {
        Self::open_leased(url, None).await
    }

    /// Like [`PgStore::open`], for a node whose tables are leased for
    /// `lease`: a write not done within the lease is given up (an error, so
    /// never acknowledged), and PostgreSQL ends a session left idle in a
    /// transaction for longer, so that a node cut off in the middle of a
    /// write does not hold its table's row locks (and its table) after its
    /// lease.
    pub async fn open_leased(url: &str, lease: Option<Duration>) -> Result<Self, StoreError> {
        let mut options = PgConnectOptions::from_str(url)
            .map_err(|e| StoreError::Database(format!("bad database URL: {e}")))?;
        if let Some(lease) = lease {
            let ms = lease.as_millis().max(1).to_string();
            options = options.options([("idle_in_transaction_session_timeout", ms.as_str())]);
        }
        let pool = PgPoolOptions::new()
            .max_connections(16)
            .acquire_timeout(Duration::from_secs(10))
            .connect_with(options)
            .await?;
        migrate(&pool).await?;
        Ok(PgStore {
            pool,
            node: crate::token::new_token()[..16].to_string(),
            write_limit: lease,
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
    for (version, sql) in super::pending_migrations(applied, MIGRATIONS)? {
        sqlx::raw_sql(sql).execute(&mut *tx).await?;
        sqlx::query("INSERT INTO schema_migrations (version) VALUES ($1)")
            .bind(version)
            .execute(&mut *tx)
            .await?;
        tracing::info!(migration = version, "database migrated");
    }
    tx.commit().await?;
    Ok(())
}
