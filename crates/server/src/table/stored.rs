//! A table to and from the store: rebuilt by replaying its record, a
//! copy following the stored table, the stored form of a new table.

use super::{ClockStamp, Event, Followed, HISTORY, Table, final_result, mono_ms, stored_action};
use crate::clock::Clock;
use crate::store::{StoreError, StoredAction, StoredTable};
use rand::SeedableRng;
use rand::rngs::StdRng;
use spelbord_engine::{ActionInfo, DynGame, DynState, Options, find_game};
use std::collections::VecDeque;
use std::sync::Arc;

impl Table {
    /// The table rebuilt from storage by replaying its record.
    pub fn from_stored(stored: StoredTable) -> Result<Table, StoreError> {
        let corrupt = |m: String| StoreError::Corrupt(format!("table {}: {m}", stored.id));
        let game = find_game(&stored.game).map_err(|e| corrupt(e.to_string()))?;
        let options = Options::from_map(
            game.id(),
            game.option_specs(),
            stored
                .options
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string())),
        )
        .map_err(|e| corrupt(e.to_string()))?;
        let Replayed { state, history } = replay(game, &options, &stored).map_err(corrupt)?;
        let clock = stored.clock.map(|c| {
            let left = stored.actions.iter().rev().find_map(|a| a.clock.clone());
            match left {
                Some(left) if left.len() == stored.seats.len() => Clock::with_remaining(c, left),
                _ => Clock::new(c, stored.seats.len()),
            }
        });
        Ok(Table {
            id: stored.id,
            game,
            options,
            auto_forced: stored.auto_forced,
            creator_hash: stored.creator_hash,
            seats: stored.seats,
            state: Arc::from(state),
            version: stored.version,
            actions: stored.actions,
            history,
            ai_busy: false,
            ai_failed: None,
            created_at: stored.created_at,
            updated_at: stored.updated_at,
            server_seed: stored.server_seed,
            ending: stored.ending,
            inactivity: stored.inactivity,
            listed: stored.listed,
            rematch_of: stored.rematch_of,
            rematch: None,
            rated: stored.rated,
            clock,
            rng: StdRng::from_os_rng(),
        })
    }

    /// Brings this copy (kept for viewers on a node that does not own the
    /// table) up to the stored table, whose `actions` are those after this
    /// copy's version, replaying them; `Ok(None)` if the stored table is not
    /// a continuation of this copy (then load it whole).
    pub fn follow(&mut self, stored: StoredTable) -> Result<Option<Followed>, StoreError> {
        // Stored actions are only ever appended (at a checked version).
        let known = self.version;
        if stored.version != known + stored.actions.len() as u64
            || stored
                .actions
                .first()
                .is_some_and(|a| a.version != known + 1)
        {
            return Ok(None);
        }
        let mut state = self.state.clone_box();
        let mut before = Arc::clone(&self.state);
        let mut events = Vec::new();
        for action in &stored.actions {
            let info = state.apply_recorded(&action.text).map_err(|e| {
                StoreError::Corrupt(format!("table {}: action `{}`: {e}", self.id, action.text))
            })?;
            let after: Arc<dyn DynState> = Arc::from(state.clone_box());
            events.push(stored_event(action, info, before, &after));
            before = after;
        }
        let shared = self.commit(events);
        // A copy shows the stored clocks, the turn counted from now.
        if let Some(clock) = &mut self.clock
            && let Some(left) = stored.actions.iter().rev().find_map(|a| a.clock.clone())
            && left.len() == clock.remaining.len()
        {
            clock.remaining = left;
            clock.running = None;
        }
        // The record keeps the actions as stored.
        self.actions.truncate(known as usize);
        self.actions.extend(stored.actions);
        let seats = self.seats != stored.seats;
        let resync = self.ending != stored.ending;
        self.seats = stored.seats;
        self.ending = stored.ending;
        self.updated_at = stored.updated_at;
        self.resume_clock(mono_ms());
        Ok(Some(Followed {
            events: shared,
            seats,
            resync,
        }))
    }

    /// The table as stored (used when it is first created).
    pub fn to_stored(&self, events: &[Event]) -> StoredTable {
        StoredTable {
            id: self.id.clone(),
            game: self.game.id().into(),
            options: self.options.clone(),
            auto_forced: self.auto_forced,
            creator_hash: self.creator_hash,
            version: self.version + events.len() as u64,
            result: final_result(events),
            seats: self.seats.clone(),
            actions: self
                .actions
                .iter()
                .cloned()
                .chain(events.iter().map(stored_action))
                .collect(),
            created_at: self.created_at,
            updated_at: self.updated_at,
            server_seed: self.server_seed,
            ending: self.ending.clone(),
            inactivity: self.inactivity,
            listed: self.listed,
            rematch_of: self.rematch_of.clone(),
            rated: self.rated,
            clock: self.clock.as_ref().map(|c| c.control),
        }
    }
}

/// The event of a stored action, `info` as the engine applied it to
/// `before`, giving `after`.
fn stored_event(
    action: &StoredAction,
    info: ActionInfo,
    before: Arc<dyn DynState>,
    after: &Arc<dyn DynState>,
) -> Event {
    Event {
        clock: stamp_of(action),
        ..Event::new(
            action.version,
            action.seat,
            info,
            action.auto,
            before,
            Arc::clone(after),
        )
    }
}

/// The clocks a stored action left (nothing runs in a stored stamp).
fn stamp_of(action: &StoredAction) -> Option<ClockStamp> {
    action.clock.as_ref().map(|left| ClockStamp {
        think_ms: action.think_ms,
        left: left.clone(),
        running: None,
        delay_left_ms: 0,
    })
}

/// The state after replaying the record of `stored` (a table of `game`
/// with `options`) and its last [`HISTORY`] events; `Err` says what is
/// wrong with the record.
fn replay(
    game: &'static dyn DynGame,
    options: &Options,
    stored: &StoredTable,
) -> Result<Replayed, String> {
    let mut state = game.new_state(options).map_err(|e| e.to_string())?;
    if stored.seats.len() != state.num_players() {
        return Err(format!("{} seats stored", stored.seats.len()));
    }
    let mut history = VecDeque::new();
    let first_kept = stored.actions.len().saturating_sub(HISTORY);
    // The state before the next kept event.
    let mut before: Option<Arc<dyn DynState>> = None;
    for (index, action) in stored.actions.iter().enumerate() {
        if action.version != index as u64 + 1 {
            return Err(format!("action {index} has version {}", action.version));
        }
        if index == first_kept {
            before = Some(Arc::from(state.clone_box()));
        }
        let info = state
            .apply_recorded(&action.text)
            .map_err(|e| format!("action {} (`{}`): {e}", index + 1, action.text))?;
        if let Some(prev) = before.take() {
            let after: Arc<dyn DynState> = Arc::from(state.clone_box());
            history.push_back(Arc::new(stored_event(action, info, prev, &after)));
            before = Some(after);
        }
    }
    if stored.version != stored.actions.len() as u64 {
        return Err(format!(
            "version {} but {} actions",
            stored.version,
            stored.actions.len()
        ));
    }
    Ok(Replayed { state, history })
}

/// A stored record replayed: the state after it and its last events.
struct Replayed {
    state: Box<dyn DynState>,
    history: VecDeque<Arc<Event>>,
}
