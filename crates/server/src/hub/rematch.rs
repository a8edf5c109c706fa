//! The rematch of a finished table.

use super::{Hub, NewTable, Notice, Rematch, TableCell};
use crate::error::ApiError;
use crate::store::SeatKind;
use crate::token::TokenHash;
use std::net::IpAddr;
use std::sync::Arc;

impl Hub {
    /// The rematch of a finished table for the player of `token`: the same
    /// game, options and rules, its AI seats filled again and its people's
    /// seats kept for them. Made once (the store holds one rematch per
    /// table); asked for again, by anyone of the table, it is the same one.
    /// The table's viewers are told.
    pub async fn rematch(
        self: &Arc<Self>,
        cell: &Arc<TableCell>,
        token: &str,
        creator: Option<TokenHash>,
        client: IpAddr,
    ) -> Result<Rematch, ApiError> {
        self.refuse_if_stopping()?;
        let mut t = cell.table.lock().await;
        let seat = t.seat_of_token(token).ok_or(ApiError::Unauthorized)?;
        if !t.is_over() {
            return Err(ApiError::NotFinished);
        }
        if !t.is_full() {
            return Err(ApiError::BadRequest(
                "a table that never started has no rematch".into(),
            ));
        }
        let known = match t.rematch.clone() {
            Some(id) => Some(id),
            None => self.store.find_rematch(&t.id).await?,
        };
        let (table, created) = match known {
            Some(id) => (id, false),
            None => {
                let new = NewTable {
                    game: t.game,
                    options: t.options.clone(),
                    seats: t
                        .seats
                        .iter()
                        .map(|s| match &s.kind {
                            SeatKind::Ai(agent) => Some(agent.clone()),
                            _ => None,
                        })
                        .collect(),
                    auto_forced: t.auto_forced,
                    creator,
                    inactivity: t.inactivity,
                    listed: t.listed,
                    rematch_of: Some(t.id.clone()),
                    // A rated table's rematch is rated: its seats are kept
                    // for the same accounts.
                    rated: t.rated,
                    clock: t.clock.as_ref().map(|c| c.control),
                    client,
                };
                match self.create(new).await {
                    Ok(made) => (made.table.lock().await.id.clone(), true),
                    // Another node made it first (the store refused a second).
                    Err(e) => match self.store.find_rematch(&t.id).await? {
                        Some(id) => (id, false),
                        None => return Err(e),
                    },
                }
            }
        };
        if t.rematch.is_none() {
            t.rematch = Some(table.clone());
            let _ = cell
                .notices
                .send(Notice::Rematch(Arc::from(table.as_str()), seat));
        }
        Ok(Rematch {
            table,
            seat,
            created,
        })
    }
}
