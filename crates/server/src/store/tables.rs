//! The [`Store`] of tables, seats and actions, written once (the macro
//! `tables!`) for [`SqliteStore`] and [`PgStore`]. Every write is a
//! [`Write`], which the [`Dialect`] commits. On PostgreSQL a node writes only
//! the tables it owns (`game_tables.owner`), so a node that lost a table's
//! lease cannot change it any more.

use super::dialect::Dialect;
use super::rows::{
    action_from_row, clock_text, control_text, kind_columns, seat_from_row, table_from_row,
    takeover_text,
};
use super::{
    Ending, PgStore, SqliteStore, Store, StoreError, StoreFuture, StoredAction, StoredAnalysis,
    StoredSeat, StoredTable, unix_now,
};
use crate::token::TokenHash;
use sqlx::{AssertSqlSafe, Row};

/// One change to the tables.
pub(super) enum Write {
    /// Actions appended to a table stored at `base_version`.
    Append {
        table_id: String,
        base_version: u64,
        actions: Vec<StoredAction>,
        /// The final returns as JSON, when the game is over.
        result: Option<String>,
    },
    /// A new table with its seats and first actions.
    Create(Box<StoredTable>),
    /// A seat written; `only_open`: only if it is open.
    Seat {
        table_id: String,
        seat: StoredSeat,
        only_open: bool,
    },
    /// An early end of a table at `version`, as JSON.
    End {
        table_id: String,
        version: u64,
        ending: String,
    },
    /// The health probe's small write.
    Probe,
}

impl Write {
    /// A seat of table `table_id` written; `only_open`: only if it is open.
    fn seat(table_id: &str, seat: &StoredSeat, only_open: bool) -> Write {
        Write::Seat {
            table_id: table_id.to_string(),
            seat: seat.clone(),
            only_open,
        }
    }

    /// The table whose change this write announces to the other nodes.
    pub(super) fn announced(&self) -> Option<&str> {
        match self {
            Write::Append {
                table_id, actions, ..
            } if !actions.is_empty() => Some(table_id),
            Write::Seat { table_id, .. } | Write::End { table_id, .. } => Some(table_id),
            _ => None,
        }
    }
}

/// `test`, SQL that a row is of the store's node `owner` (its last
/// parameter), where the store has one; nothing where it has none (SQLite's
/// one process owns every table).
fn owned(owner: Option<&str>, test: &'static str) -> &'static str {
    if owner.is_some() { test } else { "" }
}

/// What a conflict says where the store's node owns the tables it writes.
fn on_node(owner: Option<&str>) -> &'static str {
    owned(owner, " on this node")
}

/// The columns of `game_tables` that a new table sets, without `owner`.
const TABLE_COLUMNS: &str = "id, game, options, auto_forced, creator_hash, version, finished, \
     result, created_at, updated_at, server_seed, inactivity_seconds, inactivity_then, listed, \
     rematch_of, rated, clock";

/// Implements [`Store`] for `$store`, with the helpers that the dialect's
/// commit of a [`Write`] calls.
macro_rules! tables {
    ($store:ty) => {
        type Db = <$store as Dialect>::Db;
        type Conn = <Db as sqlx::Database>::Connection;
        type DbRow = <Db as sqlx::Database>::Row;

        /// Runs `statement` with the store's node `owner`, if it has one, as
        /// its last parameter; the number of rows it changed.
        async fn run_owned<'q>(
            tx: &mut Conn,
            statement: sqlx::query::Query<'q, Db, <Db as sqlx::Database>::Arguments>,
            owner: Option<&'q str>,
        ) -> Result<u64, StoreError> {
            let statement = match owner {
                Some(owner) => statement.bind(owner),
                None => statement,
            };
            Ok(statement.execute(tx).await?.rows_affected())
        }

        /// Inserts action rows (each with its table), many in one statement.
        pub(in crate::store) async fn insert_action_rows(
            tx: &mut Conn,
            rows: &[(&str, &StoredAction)],
            at: i64,
        ) -> Result<(), StoreError> {
            // Up to 500 rows of 8 parameters per statement: far below the
            // limits on parameters (SQLite's 32,766, PostgreSQL's 65,535),
            // and one round trip for an action and its rolls, or for the
            // actions of a whole group commit.
            for chunk in rows.chunks(500) {
                let mut insert = sqlx::QueryBuilder::<Db>::new(
                    "INSERT INTO actions \
                     (table_id, version, seat, text, auto, created_at, think_ms, clock) ",
                );
                insert.push_values(chunk, |mut row, (table_id, action)| {
                    row.push_bind(*table_id)
                        .push_bind(action.version as i64)
                        .push_bind(action.seat.map(|s| s as i64))
                        .push_bind(&action.text)
                        .push_bind(action.auto)
                        .push_bind(at)
                        .push_bind(action.think_ms.map(|t| t.min(i64::MAX as u64) as i64))
                        .push_bind(clock_text(action.clock.as_deref()));
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
        async fn write_seat(
            tx: &mut Conn,
            table_id: &str,
            seat: &StoredSeat,
            only_open: bool,
            owner: Option<&str>,
        ) -> Result<(), StoreError> {
            let (kind, agent) = kind_columns(&seat.kind);
            let owned = owned(
                owner,
                " AND EXISTS (SELECT 1 FROM game_tables WHERE id = $11 AND owner = $14)",
            );
            let sql = format!(
                "UPDATE seats SET kind = $1, agent = $2, name = $3, token_hash = $4, \
                 player_hash = $5, joined_at = $6, seed = $7, join_key_hash = $8, \
                 account = $9, auto_roll = $10 WHERE table_id = $11 AND seat = $12 \
                 AND (kind = 'open' OR NOT $13){owned}"
            );
            let updated = sqlx::query(AssertSqlSafe(sql))
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
                .bind(only_open);
            if run_owned(tx, updated, owner).await? != 1 {
                let (seat, node) = (seat.seat, on_node(owner));
                return Err(StoreError::Conflict(if only_open {
                    format!("seat {seat} of table {table_id} is not open{node}")
                } else {
                    format!("table {table_id} has no seat {seat}{node}")
                }));
            }
            Ok(())
        }

        /// Inserts a new table with its seats and first actions.
        async fn insert_table(
            tx: &mut Conn,
            table: &StoredTable,
            owner: Option<&str>,
        ) -> Result<(), StoreError> {
            let options = serde_json::to_string(&table.options)
                .map_err(|e| StoreError::Corrupt(e.to_string()))?;
            let result = table
                .result
                .as_ref()
                .map(|r| serde_json::to_string(r).unwrap_or_default());
            let (column, value) = (owned(owner, ", owner"), owned(owner, ", $18"));
            let sql = format!(
                "INSERT INTO game_tables ({TABLE_COLUMNS}{column}) VALUES ($1, $2, $3, $4, \
                 $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17{value})"
            );
            let insert = sqlx::query(AssertSqlSafe(sql))
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
                .bind(control_text(table.clock.as_ref()));
            run_owned(tx, insert, owner).await?;
            if !table.seats.is_empty() {
                let mut seats = sqlx::QueryBuilder::<Db>::new(
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
            let rows: Vec<(&str, &StoredAction)> = table
                .actions
                .iter()
                .map(|a| (table.id.as_str(), a))
                .collect();
            insert_action_rows(tx, &rows, table.created_at).await
        }

        /// Ends an unfinished table at `version` early (`ending` as JSON),
        /// or says why a table that its last action (a resignation)
        /// finished ended.
        async fn write_end(
            tx: &mut Conn,
            table_id: &str,
            version: u64,
            ending: &str,
            at: i64,
            owner: Option<&str>,
        ) -> Result<(), StoreError> {
            let owned = owned(owner, " AND owner = $5");
            let sql = format!(
                "UPDATE game_tables SET finished = TRUE, ending = $1, updated_at = $2 \
                 WHERE id = $3 AND version = $4 AND (finished = FALSE OR ending IS NULL){owned}"
            );
            let update = sqlx::query(AssertSqlSafe(sql))
                .bind(ending)
                .bind(at)
                .bind(table_id)
                .bind(version as i64);
            if run_owned(tx, update, owner).await? != 1 {
                return Err(StoreError::Conflict(format!(
                    "table {table_id} is not open at version {version}{}",
                    on_node(owner)
                )));
            }
            Ok(())
        }

        /// Appends actions to a table stored at `base_version`, with the
        /// final returns (JSON) if the game is over.
        async fn append_one(
            tx: &mut Conn,
            table_id: &str,
            base_version: u64,
            actions: &[StoredAction],
            result: Option<&str>,
            at: i64,
            owner: Option<&str>,
        ) -> Result<(), StoreError> {
            let Some(last) = actions.last() else {
                return Ok(());
            };
            let owned = owned(owner, " AND owner = $7");
            let sql = format!(
                "UPDATE game_tables SET version = $1, finished = $2, result = $3, \
                 updated_at = $4 WHERE id = $5 AND version = $6 AND finished = FALSE{owned}"
            );
            let update = sqlx::query(AssertSqlSafe(sql))
                .bind(last.version as i64)
                .bind(result.is_some())
                .bind(result)
                .bind(at)
                .bind(table_id)
                .bind(base_version as i64);
            if run_owned(tx, update, owner).await? != 1 {
                return Err(StoreError::Conflict(format!(
                    "table {table_id} is not at version {base_version}{}",
                    on_node(owner)
                )));
            }
            let rows: Vec<(&str, &StoredAction)> = actions.iter().map(|a| (table_id, a)).collect();
            insert_action_rows(tx, &rows, at).await
        }

        /// Writes one change inside the open transaction `tx` at time
        /// `at`, for the node `owner` of the tables (none in SQLite).
        pub(in crate::store) async fn write_one(
            tx: &mut Conn,
            write: &Write,
            at: i64,
            owner: Option<&str>,
        ) -> Result<(), StoreError> {
            match write {
                Write::Append {
                    table_id,
                    base_version,
                    actions,
                    result,
                } => {
                    let result = result.as_deref();
                    append_one(tx, table_id, *base_version, actions, result, at, owner).await
                }
                Write::Create(table) => insert_table(tx, table, owner).await,
                Write::Seat {
                    table_id,
                    seat,
                    only_open,
                } => write_seat(tx, table_id, seat, *only_open, owner).await,
                Write::End {
                    table_id,
                    version,
                    ending,
                } => write_end(tx, table_id, *version, ending, at, owner).await,
                Write::Probe => {
                    sqlx::query(<$store as Dialect>::PROBE).execute(tx).await?;
                    Ok(())
                }
            }
        }

        /// The table in `row` with its seats and its actions after version `after`.
        async fn load(tx: &mut Conn, row: DbRow, after: u64) -> Result<StoredTable, StoreError> {
            let id: String = row.try_get("id")?;
            let seats = sqlx::query("SELECT * FROM seats WHERE table_id = $1 ORDER BY seat")
                .bind(&id)
                .fetch_all(&mut *tx)
                .await?
                .iter()
                .map(seat_from_row)
                .collect::<Result<Vec<_>, _>>()?;
            let actions = sqlx::query(
                "SELECT version, seat, text, auto, think_ms, clock FROM actions \
                 WHERE table_id = $1 AND version > $2 ORDER BY version",
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

        impl Store for $store {
            fn create_table<'a>(&'a self, table: &'a StoredTable) -> StoreFuture<'a, ()> {
                Box::pin(self.write(Write::Create(Box::new(table.clone()))))
            }

            fn append_actions<'a>(
                &'a self,
                table_id: &'a str,
                base_version: u64,
                actions: &'a [StoredAction],
                result: Option<&'a [f64]>,
            ) -> StoreFuture<'a, ()> {
                Box::pin(self.write(Write::Append {
                    table_id: table_id.to_string(),
                    base_version,
                    actions: actions.to_vec(),
                    result: result.map(|r| serde_json::to_string(r).unwrap_or_default()),
                }))
            }

            fn claim_seat<'a>(
                &'a self,
                table_id: &'a str,
                seat: &'a StoredSeat,
            ) -> StoreFuture<'a, ()> {
                Box::pin(self.write(Write::seat(table_id, seat, true)))
            }

            fn replace_seat<'a>(
                &'a self,
                table_id: &'a str,
                seat: &'a StoredSeat,
            ) -> StoreFuture<'a, ()> {
                Box::pin(self.write(Write::seat(table_id, seat, false)))
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
                    .bind(unix_now())
                    .execute(self.writer())
                    .await?;
                    Ok(())
                })
            }

            fn load_analysis<'a>(
                &'a self,
                table_id: &'a str,
            ) -> StoreFuture<'a, Option<StoredAnalysis>> {
                Box::pin(async move {
                    let row =
                        sqlx::query("SELECT version, analysis FROM analyses WHERE table_id = $1")
                            .bind(table_id)
                            .fetch_optional(self.reader())
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
                    let ending = serde_json::to_string(ending)
                        .map_err(|e| StoreError::Corrupt(e.to_string()))?;
                    self.write(Write::End {
                        table_id: table_id.to_string(),
                        version,
                        ending,
                    })
                    .await
                })
            }

            fn unfinished_tables(&self, since: i64) -> StoreFuture<'_, Vec<StoredTable>> {
                Box::pin(async move {
                    let mut tx = self.snapshot().await?;
                    let rows = sqlx::query(
                        "SELECT * FROM game_tables WHERE finished = FALSE AND updated_at >= $1 \
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
                    let ids = sqlx::query_scalar(
                        "SELECT id FROM game_tables WHERE finished = FALSE \
                         AND (creator_hash = $1 \
                         OR id IN (SELECT table_id FROM seats WHERE player_hash = $1)) \
                         ORDER BY updated_at DESC LIMIT 200",
                    )
                    .bind(player.to_vec())
                    .fetch_all(self.reader())
                    .await?;
                    Ok(ids)
                })
            }

            fn find_rematch<'a>(&'a self, table_id: &'a str) -> StoreFuture<'a, Option<String>> {
                Box::pin(async move {
                    let id = sqlx::query_scalar("SELECT id FROM game_tables WHERE rematch_of = $1")
                        .bind(table_id)
                        .fetch_optional(self.reader())
                        .await?;
                    Ok(id)
                })
            }

            fn listed_tables(
                &self,
                live: bool,
                page: u32,
                size: u32,
            ) -> StoreFuture<'_, Vec<String>> {
                Box::pin(async move {
                    // Live: every seat taken. Open: a seat open, not a rematch
                    // (its open seats are kept for the last game's players).
                    let (rematch, open) = if live {
                        ("", "NOT ")
                    } else {
                        (" AND rematch_of IS NULL", "")
                    };
                    let sql = format!(
                        "SELECT id FROM game_tables WHERE listed = TRUE AND finished = FALSE \
                         AND ending IS NULL{rematch} AND {open}EXISTS (SELECT 1 FROM seats \
                         WHERE seats.table_id = game_tables.id AND seats.kind = 'open') \
                         ORDER BY updated_at DESC, id LIMIT $1 OFFSET $2"
                    );
                    let ids = sqlx::query_scalar(AssertSqlSafe(sql))
                        .bind(i64::from(size))
                        .bind(i64::from(page) * i64::from(size))
                        .fetch_all(self.reader())
                        .await?;
                    Ok(ids)
                })
            }

            fn probe(&self) -> StoreFuture<'_, ()> {
                Box::pin(self.write(Write::Probe))
            }

            fn close(&self) -> StoreFuture<'_, ()> {
                Box::pin(async move {
                    Dialect::close(self).await;
                    Ok(())
                })
            }
        }
    };
}

pub(super) mod sqlite {
    use super::*;
    tables!(SqliteStore);
}

pub(super) mod postgres {
    use super::*;
    tables!(PgStore);
}
