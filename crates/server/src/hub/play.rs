//! Playing: a player's action, storing and announcing planned events.

use super::{Announced, Hub, Notice, TableCell};
use crate::error::ApiError;
use crate::store::{AutoRoll, StoreError};
use crate::table::{ActionInput, Event, Table, final_result, mono_ms, stored_action};
use spelbord_engine::Turn;
use std::sync::Arc;
use std::sync::atomic::Ordering;

impl Hub {
    /// Applies a player's action: checks the token, the version and the
    /// turn, plans the action and what follows it, stores everything, then
    /// applies and announces it. Returns the new events.
    pub async fn act(
        self: &Arc<Self>,
        cell: &Arc<TableCell>,
        token: &str,
        version: u64,
        input: ActionInput,
    ) -> Result<(usize, Vec<Arc<Event>>), ApiError> {
        self.refuse_if_stopping()?;
        let mut t = cell.table.lock().await;
        let seat = t.seat_of_token(token).ok_or(ApiError::Unauthorized)?;
        if t.is_over() {
            return Err(ApiError::GameOver);
        }
        if version != t.version {
            return Err(ApiError::StaleVersion {
                given: version,
                current: t.version,
            });
        }
        if t.state.turn() != Turn::Player(seat) {
            return Err(ApiError::NotYourTurn(seat));
        }
        // The server's clock decides: an action after the flag fell is late.
        if let Some(flagged) = t.flagged(mono_ms()) {
            self.flag_fell(&mut t, cell, flagged).await?;
            return Err(ApiError::GameOver);
        }
        let events = t.plan(seat, &input, false)?;
        let shared = self.commit(&mut t, cell, events).await?;
        Ok((seat, shared))
    }

    /// Stores planned events, then applies and announces them, and starts
    /// the AI if an AI seat is to move.
    pub(super) async fn commit(
        self: &Arc<Self>,
        t: &mut Table,
        cell: &Arc<TableCell>,
        mut events: Vec<Event>,
    ) -> Result<Vec<Arc<Event>>, ApiError> {
        let clock = t.stamp_clock(&mut events, mono_ms());
        let actions: Vec<_> = events.iter().map(stored_action).collect();
        let result = final_result(&events);
        self.writable()?;
        let appended = self
            .store
            .append_actions(&t.id, t.version, &actions, result.as_deref())
            .await;
        if let Err(e) = self.recorded(appended) {
            if matches!(e, StoreError::Conflict(_)) {
                // Memory and store disagree (a write may have succeeded after
                // reporting failure, or another node took the table over):
                // the store is the truth.
                self.resync_from_store(t).await;
                if let Ok(false) = self.owns_stored(&t.id).await {
                    tracing::warn!(table = %t.id, "another node owns the table now");
                    cell.owned.store(false, Ordering::SeqCst);
                }
            }
            return Err(e.into());
        }
        let shared = t.commit(events);
        if clock.is_some() {
            t.clock = clock;
        }
        cell.set_deadline(t);
        // The table moved on: an AI that had stopped may try again.
        t.ai_failed = None;
        if let Some(last) = shared.last() {
            tracing::debug!(table = %t.id, version = last.version, "actions committed");
        }
        for event in &shared {
            let _ = cell.notices.send(Notice::Event(Arc::new(Announced::new(
                event.clone(),
                t.seats.len(),
            ))));
        }
        if t.is_over() {
            tracing::debug!(table = %t.id, returns = ?t.state.returns(), "game over");
            self.forget_open(&t.id);
        }
        self.maybe_start_ai(t, cell);
        Ok(shared)
    }

    async fn resync_from_store(&self, t: &mut Table) {
        match self.store.load_table(&t.id).await {
            Ok(Some(stored)) => match Table::from_stored(stored) {
                Ok(fresh) => *t = fresh,
                Err(e) => tracing::error!(table = %t.id, error = %e, "cannot reload table"),
            },
            Ok(None) => tracing::error!(table = %t.id, "table vanished from the store"),
            Err(e) => tracing::error!(table = %t.id, error = %e, "cannot reload table"),
        }
    }

    /// Plays pending chance and forced actions of a reloaded table.
    pub(super) async fn advance_stored(
        self: &Arc<Self>,
        t: &mut Table,
        cell: &Arc<TableCell>,
    ) -> Result<(), ApiError> {
        let events = t.plan_pending()?;
        if !events.is_empty() {
            self.commit(t, cell, events).await?;
        }
        Ok(())
    }

    /// Changes when the server rolls for the token's seat; if that seat is
    /// at a cube decision the setting now skips, the roll is played at once.
    pub async fn set_auto_roll(
        self: &Arc<Self>,
        cell: &Arc<TableCell>,
        token: &str,
        auto_roll: AutoRoll,
    ) -> Result<usize, ApiError> {
        self.refuse_if_stopping()?;
        let mut t = cell.table.lock().await;
        let seat = t.seat_of_token(token).ok_or(ApiError::Unauthorized)?;
        if t.seats[seat].auto_roll != auto_roll {
            let mut changed = t.seats[seat].clone();
            changed.auto_roll = auto_roll;
            self.writable()?;
            let stored = self.recorded(self.store.replace_seat(&t.id, &changed).await);
            self.owner_checked(cell, &t.id, stored).await?;
            t.seats[seat] = changed;
            let _ = cell.notices.send(Notice::Seats);
        }
        if !t.is_over() {
            self.advance_stored(&mut t, cell).await?;
        }
        Ok(seat)
    }
}
