//! The analysis pool: finished games analysed in the background (every
//! decision rated, see `spelbord_ai::analysis`) by a fixed number of worker
//! threads fed from a bounded queue, off the request path; each result is
//! stored with its table.

use crate::error::ApiError;
use crate::store::Store;
use spelbord_ai::analysis::{AnalysisConfig, analyse_record};
use spelbord_engine::Record;
use std::collections::HashMap;
use std::sync::mpsc::{Receiver, SyncSender, TrySendError, sync_channel};
use std::sync::{Arc, Mutex};

/// Where a table's analysis stands.
#[derive(Clone, Debug, PartialEq)]
pub enum AnalysisStatus {
    /// Never asked for (or asked on another node).
    None,
    /// Waiting for a worker.
    Queued,
    /// A worker is analysing it.
    Running,
    /// It failed (the reason is logged).
    Failed,
    /// Done: the stored analysis (JSON) of the table's record at `version`.
    Done {
        /// The table's version that was analysed.
        version: u64,
        /// The analysis as JSON.
        analysis: String,
    },
}

impl AnalysisStatus {
    /// The status's name in the API.
    pub fn name(&self) -> &'static str {
        match self {
            AnalysisStatus::None => "none",
            AnalysisStatus::Queued => "queued",
            AnalysisStatus::Running => "running",
            AnalysisStatus::Failed => "failed",
            AnalysisStatus::Done { .. } => "done",
        }
    }
}

/// One game to analyse.
struct Job {
    table: String,
    version: u64,
    record: Record,
}

/// The analyser of the server's analyses of `game` when no level is set:
/// the deepest (`expert`: two plies) in the networks' games, where it takes
/// seconds of CPU a game, and `hard` (a quarter of the searches' budget)
/// elsewhere.
pub fn default_level(game: &str) -> &'static str {
    match game {
        "backgammon" | "tawla" => "expert",
        _ => "hard",
    }
}

/// A fixed number of analysis workers and their bounded queue.
pub struct AnalysisPool {
    jobs: SyncSender<Job>,
    /// The tables queued or being analysed here, and those that failed.
    status: Mutex<HashMap<String, AnalysisStatus>>,
    store: Arc<dyn Store>,
}

impl AnalysisPool {
    /// Starts `workers` threads (at least one) with room for `queue` waiting
    /// games; `level` overrides [`default_level`] for every game.
    pub fn start(
        store: Arc<dyn Store>,
        workers: usize,
        queue: usize,
        level: Option<String>,
    ) -> Arc<Self> {
        let (jobs, receiver) = sync_channel(queue.max(1));
        let pool = Arc::new(AnalysisPool {
            jobs,
            status: Mutex::new(HashMap::new()),
            store,
        });
        let receiver = Arc::new(Mutex::new(receiver));
        let runtime = tokio::runtime::Handle::current();
        for n in 0..workers.max(1) {
            let (pool, receiver, runtime, level) = (
                Arc::downgrade(&pool),
                receiver.clone(),
                runtime.clone(),
                level.clone(),
            );
            let spawned = std::thread::Builder::new()
                .name(format!("analysis-{n}"))
                .spawn(move || work(&pool, &receiver, &runtime, level.as_deref()));
            if let Err(e) = spawned {
                tracing::error!(error = %e, "cannot start an analysis worker");
            }
        }
        pool
    }

    /// Queues the analysis of a finished table's `record` at `version`,
    /// unless it is queued, running or stored already; answers where it
    /// stands. [`ApiError::AnalysisBusy`] when the queue is full.
    pub async fn request(
        &self,
        table: &str,
        version: u64,
        record: Record,
    ) -> Result<AnalysisStatus, ApiError> {
        if let Some(status) = self.queued(table) {
            return Ok(status);
        }
        if let Some(stored) = self.store.load_analysis(table).await?
            && stored.version == version
        {
            return Ok(AnalysisStatus::Done {
                version: stored.version,
                analysis: stored.analysis,
            });
        }
        let mut status = self.lock();
        if let Some(s) = status.get(table).filter(|s| **s != AnalysisStatus::Failed) {
            return Ok(s.clone());
        }
        let job = Job {
            table: table.to_string(),
            version,
            record,
        };
        match self.jobs.try_send(job) {
            Ok(()) => {
                status.insert(table.to_string(), AnalysisStatus::Queued);
                Ok(AnalysisStatus::Queued)
            }
            Err(TrySendError::Full(_)) => Err(ApiError::AnalysisBusy),
            Err(TrySendError::Disconnected(_)) => {
                Err(ApiError::Unavailable("the analysis workers stopped".into()))
            }
        }
    }

    /// Where the analysis of `table` stands: queued or running here, or
    /// stored (by any node).
    pub async fn status(&self, table: &str) -> Result<AnalysisStatus, ApiError> {
        if let Some(status) = self.queued(table) {
            return Ok(status);
        }
        if let Some(stored) = self.store.load_analysis(table).await? {
            return Ok(AnalysisStatus::Done {
                version: stored.version,
                analysis: stored.analysis,
            });
        }
        Ok(self
            .lock()
            .get(table)
            .cloned()
            .unwrap_or(AnalysisStatus::None))
    }

    /// The status of a table queued or running here.
    fn queued(&self, table: &str) -> Option<AnalysisStatus> {
        self.lock()
            .get(table)
            .filter(|s| matches!(s, AnalysisStatus::Queued | AnalysisStatus::Running))
            .cloned()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, AnalysisStatus>> {
        self.status.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn set(&self, table: &str, status: Option<AnalysisStatus>) {
        let mut map = self.lock();
        match status {
            Some(s) => map.insert(table.to_string(), s),
            None => map.remove(table),
        };
    }
}

/// One worker: takes the next game, analyses it on this thread, stores it.
/// Ends when the pool is gone.
fn work(
    pool: &std::sync::Weak<AnalysisPool>,
    receiver: &Mutex<Receiver<Job>>,
    runtime: &tokio::runtime::Handle,
    level: Option<&str>,
) {
    loop {
        let job = match receiver.lock().unwrap_or_else(|e| e.into_inner()).recv() {
            Ok(job) => job,
            Err(_) => return,
        };
        let Some(pool) = pool.upgrade() else { return };
        pool.set(&job.table, Some(AnalysisStatus::Running));
        let config = AnalysisConfig {
            level: level.unwrap_or(default_level(&job.record.game)).into(),
            ..AnalysisConfig::default()
        };
        let result = analyse_record(&job.record, &config, &())
            .map_err(|e| e.to_string())
            .and_then(|a| serde_json::to_string(&a).map_err(|e| e.to_string()))
            .and_then(|json| {
                runtime
                    .block_on(pool.store.save_analysis(&job.table, job.version, &json))
                    .map_err(|e| e.to_string())
            });
        match result {
            Ok(()) => pool.set(&job.table, None),
            Err(e) => {
                tracing::error!(table = %job.table, error = %e, "analysis failed");
                pool.set(&job.table, Some(AnalysisStatus::Failed));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::default_level;

    #[test]
    fn the_networks_games_are_judged_deep_by_default_and_the_others_quick() {
        for game in ["backgammon", "tawla"] {
            assert_eq!(default_level(game), "expert", "{game}");
        }
        for game in ["high-gammon", "stumphog", "stortok", "lager"] {
            assert_eq!(default_level(game), "hard", "{game}");
        }
    }
}
