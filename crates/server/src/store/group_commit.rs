//! Group commit for SQLite: every write (appended actions, new tables,
//! seats taken or replaced, early ends) goes through one writer task, and
//! the writes that arrive while a commit is in progress are written together
//! in the next transaction, so one WAL sync (with `synchronous=FULL`) serves
//! many tables and no request waits for the connection. Each write runs
//! inside its own savepoint and succeeds or fails alone; none is
//! acknowledged before the transaction holding it has committed.

use super::{StoreError, StoredAction, StoredSeat, StoredTable};
use sqlx::SqlitePool;
use std::time::{Duration, Instant};
use tokio::sync::{mpsc, oneshot};

/// The most writes in one transaction.
const MAX_BATCH: usize = 256;

/// One change to the database.
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
}

/// One write waiting for the writer task.
struct Queued {
    write: Write,
    reply: oneshot::Sender<Result<(), StoreError>>,
    queued_at: Instant,
}

/// The handle to the group-commit writer task.
#[derive(Clone, Debug)]
pub struct GroupCommit {
    queue: mpsc::UnboundedSender<Queued>,
}

impl GroupCommit {
    /// Starts the writer task on `pool` (which should have one connection).
    pub fn start(pool: SqlitePool) -> Self {
        let (queue, rx) = mpsc::unbounded_channel();
        tokio::spawn(writer(pool, rx));
        GroupCommit { queue }
    }

    /// Writes `write`; returns once it is committed (or refused).
    pub(super) async fn submit(&self, write: Write) -> Result<(), StoreError> {
        let (reply, answer) = oneshot::channel();
        self.queue
            .send(Queued {
                write,
                reply,
                queued_at: Instant::now(),
            })
            .map_err(|_| StoreError::Database("the store is closed".into()))?;
        answer
            .await
            .map_err(|_| StoreError::Database("the writer stopped".into()))?
    }

    /// Appends `actions` to a table stored at `base_version` (see
    /// [`super::Store::append_actions`]); returns once they are committed.
    pub async fn append(
        &self,
        table_id: &str,
        base_version: u64,
        actions: &[StoredAction],
        result: Option<&[f64]>,
    ) -> Result<(), StoreError> {
        self.submit(Write::Append {
            table_id: table_id.to_string(),
            base_version,
            actions: actions.to_vec(),
            result: result.map(|r| serde_json::to_string(r).unwrap_or_default()),
        })
        .await
    }
}

async fn writer(pool: SqlitePool, mut rx: mpsc::UnboundedReceiver<Queued>) {
    while let Some(first) = rx.recv().await {
        let mut batch = vec![first];
        while batch.len() < MAX_BATCH {
            match rx.try_recv() {
                Ok(more) => batch.push(more),
                Err(_) => break,
            }
        }
        let started = Instant::now();
        let waited = started.duration_since(batch[0].queued_at);
        let written = write_batch(&pool, &batch).await;
        tracing::debug!(
            writes = batch.len(),
            waited_us = waited.as_micros() as u64,
            write_us = written.as_ref().map_or(0, |w| w.1.as_micros() as u64),
            total_us = started.elapsed().as_micros() as u64,
            "group commit"
        );
        let outcomes = match written.map(|w| w.0) {
            Ok(outcomes) => outcomes,
            Err(e) => batch.iter().map(|_| Err(copy(&e))).collect(),
        };
        for (queued, outcome) in batch.into_iter().zip(outcomes) {
            let _ = queued.reply.send(outcome);
        }
    }
}

fn copy(e: &StoreError) -> StoreError {
    match e {
        StoreError::Conflict(m) => StoreError::Conflict(m.clone()),
        StoreError::Database(m) => StoreError::Database(m.clone()),
        StoreError::Corrupt(m) => StoreError::Corrupt(m.clone()),
    }
}

/// Writes a batch in one transaction; the per-append outcomes are final only
/// if this returns `Ok` (the commit succeeded). Also returns how long the
/// writes took before the commit.
async fn write_batch(
    pool: &SqlitePool,
    batch: &[Queued],
) -> Result<(Vec<Result<(), StoreError>>, Duration), StoreError> {
    let at = super::sqlite::now();
    let started = Instant::now();
    let mut tx = pool.begin().await?;
    // A write alone needs no savepoint: if it fails, the whole transaction
    // is rolled back (two statements fewer when the server is not busy).
    if let [queued] = batch {
        let outcome = write_one(&mut tx, &queued.write, at).await;
        let written = started.elapsed();
        if outcome.is_ok() {
            tx.commit().await?;
        } else {
            tx.rollback().await?;
        }
        return Ok((vec![outcome], written));
    }
    let mut outcomes = Vec::with_capacity(batch.len());
    for queued in batch {
        sqlx::query("SAVEPOINT one_write").execute(&mut *tx).await?;
        let outcome = write_one(&mut tx, &queued.write, at).await;
        let end = if outcome.is_ok() {
            "RELEASE one_write"
        } else {
            "ROLLBACK TO one_write; RELEASE one_write"
        };
        sqlx::raw_sql(end).execute(&mut *tx).await?;
        outcomes.push(outcome);
    }
    let written = started.elapsed();
    tx.commit().await?;
    Ok((outcomes, written))
}

/// Writes one change inside the open transaction `tx`.
async fn write_one(
    tx: &mut sqlx::SqliteConnection,
    write: &Write,
    at: i64,
) -> Result<(), StoreError> {
    match write {
        Write::Append {
            table_id,
            base_version,
            actions,
            result,
        } => append_one(tx, table_id, *base_version, actions, result.as_deref(), at).await,
        Write::Create(table) => super::sqlite::insert_table(tx, table).await,
        Write::Seat {
            table_id,
            seat,
            only_open,
        } => super::sqlite::write_seat(tx, table_id, seat, *only_open).await,
        Write::End {
            table_id,
            version,
            ending,
        } => super::sqlite::write_end(tx, table_id, *version, ending).await,
    }
}

async fn append_one(
    tx: &mut sqlx::SqliteConnection,
    table_id: &str,
    base_version: u64,
    actions: &[StoredAction],
    result: Option<&str>,
    at: i64,
) -> Result<(), StoreError> {
    let Some(last) = actions.last() else {
        return Ok(());
    };
    let updated = sqlx::query(
        "UPDATE game_tables SET version = ?, finished = ?, result = ?, updated_at = ? \
         WHERE id = ? AND version = ? AND finished = 0",
    )
    .bind(last.version as i64)
    .bind(result.is_some())
    .bind(result)
    .bind(at)
    .bind(table_id)
    .bind(base_version as i64)
    .execute(&mut *tx)
    .await?;
    if updated.rows_affected() != 1 {
        return Err(StoreError::Conflict(format!(
            "table {table_id} is not at version {base_version}"
        )));
    }
    super::sqlite::insert_actions(tx, table_id, actions, at).await
}
