//! How a table ends early: resigning, closing, a fallen flag and the
//! inactivity rule.

use super::{Hub, Notice, TAKEOVER_AGENT, TableCell};
use crate::error::ApiError;
use crate::store::{EndReason, Ending, SeatKind, StoredSeat, Takeover};
use crate::table::{ActionInput, Table, mono_ms, now};
use crate::token::TokenHash;
use spelbord_engine::{Resignation, Turn};
use std::sync::Arc;
use std::sync::atomic::Ordering;

impl Hub {
    /// The token's seat resigns `kind`: what it pays, and whether the game
    /// or match goes on, is the game's rule (the engine's).
    pub async fn resign(
        self: &Arc<Self>,
        cell: &Arc<TableCell>,
        token: &str,
        kind: Resignation,
    ) -> Result<usize, ApiError> {
        self.refuse_if_stopping()?;
        let mut t = cell.table.lock().await;
        let seat = t.seat_of_token(token).ok_or(ApiError::Unauthorized)?;
        if t.is_over() {
            return Err(ApiError::GameOver);
        }
        self.give_up(&mut t, cell, seat, kind, EndReason::Resigned)
            .await?;
        Ok(seat)
    }

    /// `seat` gives up `kind`: the resignation is an action of the record
    /// (the engine pays it as the game's rules say); when the game is over
    /// by it, the table's ending says why (resigned, forfeit, time).
    async fn give_up(
        self: &Arc<Self>,
        t: &mut Table,
        cell: &Arc<TableCell>,
        seat: usize,
        kind: Resignation,
        reason: EndReason,
    ) -> Result<(), ApiError> {
        let events = t.plan(seat, &ActionInput::Resign(kind), false)?;
        self.commit(t, cell, events).await?;
        if t.state.turn() == Turn::Over {
            let ending = Ending {
                reason,
                seat: Some(seat),
                returns: Some(t.state.returns()),
            };
            self.end(t, cell, ending).await?;
        }
        Ok(())
    }

    /// Closes a table that has not started, for the player who created it.
    pub async fn close(&self, cell: &Arc<TableCell>, player: &TokenHash) -> Result<(), ApiError> {
        self.refuse_if_stopping()?;
        let mut t = cell.table.lock().await;
        if t.creator_hash != Some(*player) {
            return Err(ApiError::Forbidden(
                "only the player who created the table may close it".into(),
            ));
        }
        if t.is_over() {
            return Err(ApiError::GameOver);
        }
        if t.is_full() {
            return Err(ApiError::Started);
        }
        let ending = Ending {
            reason: EndReason::Closed,
            seat: None,
            returns: None,
        };
        self.end(&mut t, cell, ending).await
    }

    /// Stores and applies an early end, and tells the viewers.
    async fn end(
        &self,
        t: &mut Table,
        cell: &Arc<TableCell>,
        ending: Ending,
    ) -> Result<(), ApiError> {
        self.writable()?;
        let ended = self.recorded(self.store.end_table(&t.id, t.version, &ending).await);
        self.owner_checked(cell, &t.id, ended).await?;
        tracing::debug!(table = %t.id, reason = ?ending.reason, "table ended");
        t.ending = Some(ending);
        t.updated_at = now();
        t.resume_clock(mono_ms());
        cell.set_deadline(t);
        self.forget_open(&t.id);
        let _ = cell.notices.send(Notice::Ended);
        Ok(())
    }

    pub(super) fn forget_open(&self, id: &str) {
        if let Ok(mut open) = self.open_by_address.lock() {
            for ids in open.values_mut() {
                ids.retain(|i| i != id);
            }
            open.retain(|_, ids| !ids.is_empty());
        }
    }

    /// Ends the tables this node owns whose running clock ran out (called
    /// often: only tables past their deadline are locked).
    pub async fn enforce_clocks(self: &Arc<Self>) {
        let now = mono_ms();
        let due: Vec<Arc<TableCell>> = self
            .tables
            .lock()
            .map(|t| {
                t.values()
                    .filter(|c| c.owned() && c.deadline.load(Ordering::SeqCst) <= now)
                    .cloned()
                    .collect()
            })
            .unwrap_or_default();
        for cell in due {
            let mut t = cell.table.lock().await;
            if !cell.owned() || self.stopping() {
                continue;
            }
            match t.flagged(mono_ms()) {
                Some(seat) => {
                    if let Err(e) = self.flag_fell(&mut t, &cell, seat).await {
                        tracing::warn!(table = %t.id, error = %e, "a fallen flag not applied");
                    }
                }
                None => cell.set_deadline(&t),
            }
        }
    }

    /// Ends the table because `seat`'s time ran out: as if it resigned (two
    /// players: it loses the game, or the match; more: the table ends with
    /// the seat last, see `docs/server.md`).
    pub(super) async fn flag_fell(
        self: &Arc<Self>,
        t: &mut Table,
        cell: &Arc<TableCell>,
        seat: usize,
    ) -> Result<(), ApiError> {
        tracing::debug!(table = %t.id, seat, "flag fell");
        self.give_up(t, cell, seat, Resignation::Match, EndReason::Time)
            .await
    }

    /// Applies the inactivity rule of every table in memory.
    pub async fn enforce_inactivity(self: &Arc<Self>) {
        let cells: Vec<Arc<TableCell>> = self
            .tables
            .lock()
            .map(|t| t.values().cloned().collect())
            .unwrap_or_default();
        for cell in cells {
            if !cell.owned() {
                continue;
            }
            let Ok(mut t) = cell.table.try_lock() else {
                continue;
            };
            self.apply_inactivity(&mut t, &cell).await;
        }
    }

    /// A table waiting for players too long is abandoned; a person to move
    /// for too long forfeits or is replaced by an AI.
    pub(super) async fn apply_inactivity(self: &Arc<Self>, t: &mut Table, cell: &Arc<TableCell>) {
        if t.is_over() || self.stopping() {
            return;
        }
        if now() - t.updated_at < t.inactivity.seconds as i64 {
            return;
        }
        let outcome = if !t.is_full() {
            let ending = Ending {
                reason: EndReason::Abandoned,
                seat: None,
                returns: None,
            };
            self.end(t, cell, ending).await
        } else {
            let Turn::Player(seat) = t.state.turn() else {
                return;
            };
            if t.seats[seat].kind != SeatKind::Human {
                return;
            }
            match t.inactivity.then {
                Takeover::Forfeit => {
                    self.give_up(t, cell, seat, Resignation::Match, EndReason::Forfeit)
                        .await
                }
                Takeover::Ai => self.take_over(t, cell, seat).await,
            }
        };
        if let Err(e) = outcome {
            tracing::warn!(table = %t.id, error = %e, "inactivity rule not applied");
        }
    }

    /// An AI plays on for a seat whose person is gone (the token stops working).
    async fn take_over(
        self: &Arc<Self>,
        t: &mut Table,
        cell: &Arc<TableCell>,
        seat: usize,
    ) -> Result<(), ApiError> {
        let mut replaced = StoredSeat::new(seat, SeatKind::Ai(TAKEOVER_AGENT.into()));
        replaced.seed = t.seats[seat].seed.clone();
        let replaced_stored = self.recorded(self.store.replace_seat(&t.id, &replaced).await);
        self.owner_checked(cell, &t.id, replaced_stored).await?;
        t.seats[seat] = replaced;
        t.updated_at = now();
        // An AI seat's clock does not run.
        t.resume_clock(mono_ms());
        cell.set_deadline(t);
        tracing::debug!(table = %t.id, seat, "an AI took over a seat");
        let _ = cell.notices.send(Notice::Seats);
        self.maybe_start_ai(t, cell);
        Ok(())
    }
}
