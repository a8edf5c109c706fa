//! Group commit for SQLite: appends that arrive while a commit is in
//! progress are written together in the next transaction, so one WAL sync
//! (with `synchronous=FULL`) serves many tables. Each append runs inside its
//! own savepoint and succeeds or fails alone; none is acknowledged before the
//! transaction holding it has committed.

use super::{StoreError, StoredAction};
use sqlx::SqlitePool;
use tokio::sync::{mpsc, oneshot};

/// The most appends written in one transaction.
const MAX_BATCH: usize = 256;

/// One append waiting to be written.
struct Append {
    table_id: String,
    base_version: u64,
    actions: Vec<StoredAction>,
    result: Option<String>,
    reply: oneshot::Sender<Result<(), StoreError>>,
}

/// The handle to the group-commit writer task.
#[derive(Clone, Debug)]
pub struct GroupCommit {
    queue: mpsc::UnboundedSender<Append>,
}

impl GroupCommit {
    /// Starts the writer task on `pool` (which should have one connection).
    pub fn start(pool: SqlitePool) -> Self {
        let (queue, rx) = mpsc::unbounded_channel();
        tokio::spawn(writer(pool, rx));
        GroupCommit { queue }
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
        let (reply, answer) = oneshot::channel();
        let append = Append {
            table_id: table_id.to_string(),
            base_version,
            actions: actions.to_vec(),
            result: result.map(|r| serde_json::to_string(r).unwrap_or_default()),
            reply,
        };
        self.queue
            .send(append)
            .map_err(|_| StoreError::Database("the store is closed".into()))?;
        answer
            .await
            .map_err(|_| StoreError::Database("the writer stopped".into()))?
    }
}

async fn writer(pool: SqlitePool, mut rx: mpsc::UnboundedReceiver<Append>) {
    while let Some(first) = rx.recv().await {
        let mut batch = vec![first];
        while batch.len() < MAX_BATCH {
            match rx.try_recv() {
                Ok(more) => batch.push(more),
                Err(_) => break,
            }
        }
        let outcomes = match write_batch(&pool, &batch).await {
            Ok(outcomes) => outcomes,
            Err(e) => batch.iter().map(|_| Err(copy(&e))).collect(),
        };
        for (append, outcome) in batch.into_iter().zip(outcomes) {
            let _ = append.reply.send(outcome);
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
/// if this returns `Ok` (the commit succeeded).
async fn write_batch(
    pool: &SqlitePool,
    batch: &[Append],
) -> Result<Vec<Result<(), StoreError>>, StoreError> {
    let at = super::sqlite::now();
    let mut tx = pool.begin().await?;
    let mut outcomes = Vec::with_capacity(batch.len());
    for append in batch {
        sqlx::query("SAVEPOINT one_append")
            .execute(&mut *tx)
            .await?;
        let outcome = write_one(&mut tx, append, at).await;
        let end = if outcome.is_ok() {
            "RELEASE one_append"
        } else {
            "ROLLBACK TO one_append; RELEASE one_append"
        };
        sqlx::raw_sql(end).execute(&mut *tx).await?;
        outcomes.push(outcome);
    }
    tx.commit().await?;
    Ok(outcomes)
}

async fn write_one(
    tx: &mut sqlx::SqliteConnection,
    append: &Append,
    at: i64,
) -> Result<(), StoreError> {
    let Some(last) = append.actions.last() else {
        return Ok(());
    };
    let updated = sqlx::query(
        "UPDATE game_tables SET version = ?, finished = ?, result = ?, updated_at = ? \
         WHERE id = ? AND version = ? AND finished = 0",
    )
    .bind(last.version as i64)
    .bind(append.result.is_some())
    .bind(append.result.as_deref())
    .bind(at)
    .bind(&append.table_id)
    .bind(append.base_version as i64)
    .execute(&mut *tx)
    .await?;
    if updated.rows_affected() != 1 {
        return Err(StoreError::Conflict(format!(
            "table {} is not at version {}",
            append.table_id, append.base_version
        )));
    }
    for action in &append.actions {
        super::sqlite::insert_action(tx, &append.table_id, action, at).await?;
    }
    Ok(())
}
