//! The AI's turns: thinking in the fair scheduler, storing the move, and
//! retrying or stopping when a move cannot be made.

use super::{AI_ATTEMPTS, Hub, Notice, TableCell};
use crate::error::ApiError;
use crate::table::{ActionInput, Table};
use crate::thinking::{Attempts, Lane};
use crate::token::new_seed;
use spelbord_engine::{ActionInfo, DynState};
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

/// The pause after the first failed AI attempt, doubled after each next one.
const AI_RETRY_PAUSE: Duration = if cfg!(test) {
    Duration::from_millis(10)
} else {
    Duration::from_millis(500)
};

/// An AI seat to move, with the table as it stood when its thinking began.
struct AiTurn {
    state: Arc<dyn DynState>,
    version: u64,
    seat: usize,
    agent: String,
    id: Arc<str>,
}

impl Hub {
    /// Starts the AI task of a table if an AI seat is to move and none runs.
    /// Called with the table locked, so the busy flag cannot race.
    pub(super) fn maybe_start_ai(self: &Arc<Self>, t: &mut Table, cell: &Arc<TableCell>) {
        if t.ai_busy
            || t.ai_failed.is_some()
            || self.stopping()
            || !cell.owned()
            || t.ai_to_move().is_none()
        {
            return;
        }
        t.ai_busy = true;
        self.ai_tasks.fetch_add(1, Ordering::SeqCst);
        let hub = self.clone();
        let cell = cell.clone();
        tokio::spawn(async move {
            hub.run_ai(&cell).await;
            hub.ai_tasks.fetch_sub(1, Ordering::SeqCst);
        });
    }

    /// Moves for AI seats until a person is to move or the game ends. Each
    /// move waits for a slot of the fair scheduler (the cheap or the
    /// expensive lane, by agent); a move that cannot be made or stored is
    /// tried again after a pause, [`AI_ATTEMPTS`] times in all, then the
    /// AI stops and the table's viewers are told (`ai_failed`).
    async fn run_ai(self: &Arc<Self>, cell: &Arc<TableCell>) {
        let mut attempts = Attempts::new(AI_ATTEMPTS, AI_RETRY_PAUSE);
        loop {
            let Some(turn) = self.ai_turn(cell).await else {
                return;
            };
            let (version, seat) = (turn.version, turn.seat);
            let Some(thought) = self.think(cell, turn).await else {
                return;
            };
            let mut t = cell.table.lock().await;
            let writable_before = self.health.report().database_error.is_none();
            let Some(outcome) = self
                .play_ai_move(&mut t, cell, version, seat, thought)
                .await
            else {
                continue;
            };
            let Err(e) = outcome else {
                attempts = Attempts::new(AI_ATTEMPTS, AI_RETRY_PAUSE);
                continue;
            };
            if !writable_before {
                // Refused at once because the database takes no writes:
                // not the move's fault, and no attempt is counted. Wait
                // until a write or the probe commits again, then think again.
                tracing::debug!(table = %t.id, seat, error = %e, "AI move waits for the database");
                drop(t);
                self.wait_for_database().await;
                continue;
            }
            match attempts.failed() {
                Some(pause) => {
                    tracing::warn!(table = %t.id, seat, error = %e, attempt = attempts.failures(), "AI move not applied; retrying");
                    drop(t);
                    tokio::time::sleep(pause).await;
                    self.wait_for_database().await;
                }
                None => {
                    tracing::error!(table = %t.id, seat, error = %e, attempts = attempts.failures(), "AI move not applied; the AI stops");
                    t.ai_failed = Some(seat);
                    t.ai_busy = false;
                    let _ = cell.notices.send(Notice::AiFailed(seat));
                    return;
                }
            }
        }
    }

    /// The AI seat to move and the table as it stands, or `None` (and the
    /// table's AI task ends) when no AI is to move or this node stops
    /// acting for the table.
    async fn ai_turn(&self, cell: &TableCell) -> Option<AiTurn> {
        let mut t = cell.table.lock().await;
        match t.ai_to_move() {
            Some((seat, agent)) if !self.stopping() && cell.owned() => Some(AiTurn {
                state: t.state.clone(),
                version: t.version,
                seat,
                agent,
                id: Arc::from(t.id.as_str()),
            }),
            _ => {
                t.ai_busy = false;
                None
            }
        }
    }

    /// The AI's choice for `turn`, thought in a slot of the fair scheduler
    /// (an agent that fails plays a random move); `None` (and the table's
    /// AI task ends) when the scheduler takes no more work.
    async fn think(&self, cell: &TableCell, turn: AiTurn) -> Option<Result<ActionInfo, ApiError>> {
        let AiTurn {
            state, agent, id, ..
        } = turn;
        let lane = Lane::of_agent(&agent);
        let pending = self.thinking.enqueue(lane, cell.owner.clone(), id);
        let Ok(slot) = pending.slot().await else {
            cell.table.lock().await.ai_busy = false;
            return None;
        };
        let seed = new_seed();
        let thinking = tokio::task::spawn_blocking(move || {
            spelbord_ai::choose_action(&*state, &agent, seed).or_else(|e| {
                tracing::warn!(agent, error = %e, "agent failed; a random move is played");
                spelbord_ai::choose_action(&*state, "random", seed)
            })
        })
        .await;
        drop(slot);
        Some(match thinking {
            Ok(Ok(choice)) => Ok(choice),
            Ok(Err(e)) => Err(ApiError::Internal(format!("no AI move: {e}"))),
            Err(e) => Err(ApiError::Internal(format!("the AI's thinking failed: {e}"))),
        })
    }

    /// Plans, stores and applies the AI's move for `seat`, thought at
    /// `version`; `None` when the table moved on meanwhile (or this node
    /// stops acting for it), so the move is thought again.
    async fn play_ai_move(
        self: &Arc<Self>,
        t: &mut Table,
        cell: &Arc<TableCell>,
        version: u64,
        seat: usize,
        thought: Result<ActionInfo, ApiError>,
    ) -> Option<Result<(), ApiError>> {
        let choice = match thought {
            Ok(choice) => choice,
            Err(e) => return Some(Err(e)),
        };
        if t.version != version || t.ending.is_some() || self.stopping() || !cell.owned() {
            return None;
        }
        Some(match t.plan(seat, &ActionInput::Text(choice.text), true) {
            Ok(events) => self.commit(t, cell, events).await.map(|_| ()),
            Err(e) => Err(e),
        })
    }

    /// Waits until the database takes writes again (or the node stops).
    async fn wait_for_database(&self) {
        while self.health.report().database_error.is_some() && !self.stopping() {
            tokio::time::sleep(crate::health::PROBE_INTERVAL / 4).await;
        }
    }
}
