//! Creating tables and taking seats.

use super::{Hub, JoinRequest, Joined, NewTable, Notice, TableCell};
use crate::error::ApiError;
use crate::store::{SeatKind, StoredSeat};
use crate::table::{Table, TableSetup, mono_ms, now};
use crate::thinking::Owner;
use crate::token::{TokenHash, hash_token, hex, new_token};
use hmac::{Hmac, Mac};
use sha2::Sha256;
use std::net::IpAddr;
use std::sync::Arc;
use std::sync::atomic::Ordering;

/// The token of a seat joined with an idempotency key: derived from the key,
/// so that a retried join can answer it again without storing it.
fn keyed_token(key: &str, table: &str, seat: usize) -> String {
    let mut mac = Hmac::<Sha256>::new_from_slice(key.as_bytes()).expect("any key length");
    mac.update(format!("spelbord-seat-token:{table}:{seat}").as_bytes());
    hex(&mac.finalize().into_bytes())
}

impl Hub {
    /// Creates a table, stores it with its first chance actions, and starts
    /// its AI seats. Returns the table's cell.
    pub async fn create(self: &Arc<Self>, new: NewTable) -> Result<Arc<TableCell>, ApiError> {
        self.refuse_if_stopping()?;
        self.check_open_tables(new.client).await?;
        let seats = new
            .seats
            .into_iter()
            .enumerate()
            .map(|(seat, agent)| StoredSeat::new(seat, agent.map_or(SeatKind::Open, SeatKind::Ai)))
            .collect();
        let id = crate::token::new_routed_table_id(self.route());
        let (mut table, events) = Table::create(TableSetup {
            id: id.clone(),
            game: new.game,
            options: new.options,
            seats,
            auto_forced: new.auto_forced,
            creator_hash: new.creator,
            inactivity: new.inactivity,
            listed: new.listed,
            rematch_of: new.rematch_of,
            rated: new.rated,
            clock: new.clock,
        })?;
        self.writable()?;
        self.recorded(self.store.create_table(&table.to_stored(&events)).await)?;
        table.commit(events);
        tracing::info!(client = %new.client, game = table.game.id(), "table created");
        tracing::debug!(table = %id, version = table.version, "table created");
        if !table.is_over()
            && let Ok(mut open) = self.open_by_address.lock()
        {
            open.entry(new.client).or_default().push(id.clone());
        }
        let cell = TableCell::new(table, true, Owner::Address(new.client));
        self.insert(id, cell.clone());
        let mut t = cell.table.lock().await;
        self.maybe_start_ai(&mut t, &cell);
        drop(t);
        Ok(cell)
    }

    /// Refuses a new table if `client` has created as many unfinished ones
    /// as allowed (the unspecified address: tables quick pairing makes).
    async fn check_open_tables(self: &Arc<Self>, client: IpAddr) -> Result<(), ApiError> {
        let max = self.max_open_tables.load(Ordering::SeqCst);
        if max == 0 || client.is_unspecified() {
            return Ok(());
        }
        let ids = self
            .open_by_address
            .lock()
            .map(|o| o.get(&client).cloned().unwrap_or_default())
            .unwrap_or_default();
        if ids.len() < max {
            return Ok(());
        }
        // Some may have ended meanwhile (loading one applies its inactivity rule).
        let mut open = Vec::new();
        for id in ids {
            if let Ok(cell) = self.table(&id).await
                && !cell.table.lock().await.is_over()
            {
                open.push(id);
            }
        }
        let full = open.len() >= max;
        if let Ok(mut map) = self.open_by_address.lock() {
            map.insert(client, open);
        }
        if full {
            tracing::info!(client = %client, max, "too many open tables");
            return Err(ApiError::TooManyTables(max));
        }
        Ok(())
    }

    /// Gives an open seat (the first open one if none is named) to a person.
    /// With an idempotency key already used at this table, answers that join
    /// again. When the last seat is taken, the game starts (opening roll).
    pub async fn join(
        self: &Arc<Self>,
        cell: &Arc<TableCell>,
        request: JoinRequest,
    ) -> Result<Joined, ApiError> {
        self.refuse_if_stopping()?;
        let mut t = cell.table.lock().await;
        let key_hash = request.key.as_deref().map(hash_token);
        if let Some(joined) = joined_before(&t, request.key.as_deref(), key_hash) {
            return Ok(joined);
        }
        if t.is_over() {
            return Err(ApiError::GameOver);
        }
        let seat = seat_to_take(&t, &request)?;
        let token = match request.key.as_deref() {
            Some(key) => keyed_token(key, &t.id, seat),
            None => new_token(),
        };
        let taken = StoredSeat {
            seat,
            kind: SeatKind::Human,
            name: request.name,
            token_hash: Some(hash_token(&token)),
            player_hash: request.player,
            joined_at: Some(now()),
            seed: request.seed,
            join_key_hash: key_hash,
            account: request.account,
            auto_roll: request.auto_roll,
        };
        self.writable()?;
        let claimed = self.recorded(self.store.claim_seat(&t.id, &taken).await);
        self.owner_checked(cell, &t.id, claimed).await?;
        t.seats[seat] = taken;
        t.updated_at = now();
        tracing::debug!(table = %t.id, seat, "seat taken");
        let _ = cell.notices.send(Notice::Seats);
        self.start_if_full(&mut t, cell).await;
        Ok(Joined { seat, token })
    }

    /// After a seat was taken: the opening roll, now that every seat is
    /// taken (if storing it fails the seat stays taken and the roll is made
    /// when the table is next loaded), the clock, and the AI's turn.
    async fn start_if_full(self: &Arc<Self>, t: &mut Table, cell: &Arc<TableCell>) {
        if let Err(e) = self.advance_stored(t, cell).await {
            tracing::error!(table = %t.id, error = %e, "cannot start the game");
        }
        // The clock starts when the table is full.
        t.resume_clock(mono_ms());
        cell.set_deadline(t);
        if t.clock.is_some() {
            let _ = cell.notices.send(Notice::Seats);
        }
        self.maybe_start_ai(t, cell);
    }
}

/// The seat and token of an earlier join with the same idempotency key
/// (`key`, hashed `key_hash`), if there was one at this table.
fn joined_before(t: &Table, key: Option<&str>, key_hash: Option<TokenHash>) -> Option<Joined> {
    let (Some(key), Some(hash)) = (key, key_hash) else {
        return None;
    };
    let seat = t.seats.iter().find(|s| s.join_key_hash == Some(hash))?;
    let token = keyed_token(key, &t.id, seat.seat);
    (seat.token_hash == Some(hash_token(&token))).then_some(Joined {
        seat: seat.seat,
        token,
    })
}

/// The seat a join asks for (the first open one if it names none), if it
/// may have it: open, at a rated table for a signed-in account without a
/// seat there, and at a rematch kept for the player who asks.
fn seat_to_take(t: &Table, request: &JoinRequest) -> Result<usize, ApiError> {
    let seat = match request.seat {
        Some(s) if s >= t.seats.len() => {
            return Err(ApiError::BadRequest(format!(
                "seat {s} does not exist: the table has seats 0 to {}",
                t.seats.len() - 1
            )));
        }
        Some(s) => s,
        None => t
            .seats
            .iter()
            .position(|s| s.kind == SeatKind::Open)
            .ok_or_else(|| ApiError::SeatTaken("the table has no open seat".into()))?,
    };
    if t.seats[seat].kind != SeatKind::Open {
        return Err(ApiError::SeatTaken(format!("seat {seat} is not open")));
    }
    if t.rated {
        crate::rated::check_join(
            &t.seats,
            request.player.as_ref(),
            request.account.as_deref(),
        )?;
    }
    if t.rematch_of.is_some() && request.rematch_seat != Some(seat) {
        return Err(ApiError::SeatTaken(format!(
            "seat {seat} is kept for its player of the last game"
        )));
    }
    Ok(seat)
}
