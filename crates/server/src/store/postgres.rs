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
