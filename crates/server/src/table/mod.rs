//! One table in memory: the game state, the seats, the record and the last
//! events. Pure logic, no I/O: callers store planned events before committing
//! them here.

use crate::clock::{Clock, TimeControl};
use crate::dice::{self, DiceProof, ServerSeed};
use crate::error::ApiError;
use crate::store::{
    AutoRoll, Ending, Inactivity, SeatKind, StoreError, StoredAction, StoredSeat, StoredTable,
};
use crate::token::{TokenHash, hash_token};
use rand::SeedableRng;
use rand::rngs::StdRng;
use serde_json::Value;
use spelbord_engine::{
    ActionInfo, DynGame, DynState, GameEvent, Options, Record, Resignation, Turn, find_game,
};
use std::collections::VecDeque;
use std::sync::Arc;

/// How many recent events a table keeps for reconnecting clients.
pub const HISTORY: usize = 256;

/// An action a player submits.
#[derive(Clone, Debug)]
pub enum ActionInput {
    /// In the game's notation.
    Text(String),
    /// As the game's JSON form of an action.
    Json(Value),
    /// The seat gives up, as the game's rules say ([`Resignation`]); at
    /// any time, whoever is to move.
    Resign(Resignation),
}

/// One applied action with the state after it.
pub struct Event {
    /// The table's version after this action.
    pub version: u64,
    /// The acting seat; `None` for chance.
    pub seat: Option<usize>,
    /// The action.
    pub action: ActionInfo,
    /// Whether the server played it (chance, forced, or an AI seat).
    pub auto: bool,
    /// The game's notable events of this action.
    pub events: Vec<GameEvent>,
    /// The state before the action.
    pub before: Arc<dyn DynState>,
    /// The state after the action.
    pub state: Arc<dyn DynState>,
    /// The clocks after the action, on a table with a clock.
    pub clock: Option<ClockStamp>,
}

impl Event {
    /// `action` by `seat` (`None`: chance), which took `before` to `state`,
    /// at `version`; with the game's events of it and no clocks yet.
    pub fn new(
        version: u64,
        seat: Option<usize>,
        action: ActionInfo,
        auto: bool,
        before: Arc<dyn DynState>,
        state: Arc<dyn DynState>,
    ) -> Self {
        Event {
            version,
            seat,
            action,
            auto,
            events: state.game_events(),
            before,
            state,
            clock: None,
        }
    }

    /// The positions the action's play of steps passed through, the one
    /// before it first, as the engine draws them (the tables games); `None`
    /// for any other action.
    pub fn boards(&self) -> Option<Vec<Value>> {
        self.before.play_boards(&self.action.json)
    }
}

/// The clocks as an action left them.
#[derive(Clone, Debug, PartialEq)]
pub struct ClockStamp {
    /// The milliseconds the seat took for this action (its turn so far);
    /// none for an action the server played.
    pub think_ms: Option<u64>,
    /// Every seat's milliseconds left.
    pub left: Vec<i64>,
    /// The seat whose clock runs after it.
    pub running: Option<usize>,
    /// What is left of the running turn's delay (ms).
    pub delay_left_ms: i64,
}

/// Milliseconds of a monotonic clock since the process started (the
/// clocks' time: never goes back, and a restart begins the running turn
/// again, so time while no server ran is never charged).
pub fn mono_ms() -> i64 {
    static START: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
    START
        .get_or_init(std::time::Instant::now)
        .elapsed()
        .as_millis() as i64
}

/// A table in memory.
pub struct Table {
    /// The table's id.
    pub id: String,
    /// The game played.
    pub game: &'static dyn DynGame,
    /// Every option's value.
    pub options: Options,
    /// Whether forced single actions are played by the server for every seat.
    pub auto_forced: bool,
    /// The hash of the creator's player key.
    pub creator_hash: Option<TokenHash>,
    /// The seats in order.
    pub seats: Vec<StoredSeat>,
    /// The current state.
    pub state: Arc<dyn DynState>,
    /// The number of actions applied.
    pub version: u64,
    /// Every action, in order.
    pub actions: Vec<StoredAction>,
    /// The last [`HISTORY`] events.
    pub history: VecDeque<Arc<Event>>,
    /// Whether an AI task is working for this table.
    pub ai_busy: bool,
    /// The seat whose AI failed to move and stopped (kept in memory only:
    /// loading the table again, or any action committed, lets it try again).
    pub ai_failed: Option<usize>,
    /// When the table was created (Unix seconds).
    pub created_at: i64,
    /// When it last changed (Unix seconds).
    pub updated_at: i64,
    /// The secret seed of the dice (none for tables of older servers, whose
    /// chance came from the secure generator alone).
    pub server_seed: Option<ServerSeed>,
    /// How the table ended, if it ended before the game was over.
    pub ending: Option<Ending>,
    /// The inactivity rule.
    pub inactivity: Inactivity,
    /// Whether the table is shown in the lobby's lists.
    pub listed: bool,
    /// The finished table this one is the rematch of: its open seats are
    /// kept for that table's players.
    pub rematch_of: Option<String>,
    /// The rematch of this finished table, once one was asked for.
    pub rematch: Option<String>,
    /// Whether the game is rated (between signed-in accounts).
    pub rated: bool,
    /// The clocks, if the table has a time control.
    pub clock: Option<Clock>,
    rng: StdRng,
}

/// The settings of a new table.
pub struct TableSetup {
    /// The table's id.
    pub id: String,
    /// The game.
    pub game: &'static dyn DynGame,
    /// Its options.
    pub options: Options,
    /// The seats in order.
    pub seats: Vec<StoredSeat>,
    /// Whether forced single actions are played by the server.
    pub auto_forced: bool,
    /// The hash of the creator's player key.
    pub creator_hash: Option<TokenHash>,
    /// The inactivity rule.
    pub inactivity: Inactivity,
    /// Whether the table is shown in the lobby's lists.
    pub listed: bool,
    /// The finished table this one is the rematch of.
    pub rematch_of: Option<String>,
    /// Whether the game is rated.
    pub rated: bool,
    /// The time control, if any.
    pub clock: Option<TimeControl>,
}

/// What a reconnecting viewer needs.
pub enum CatchUp {
    /// The events after its version, in order (possibly none).
    Events(Vec<Arc<Event>>),
    /// Too far behind (or unknown): a full view.
    Sync,
}

/// What changed when a copy of a table was brought up to the stored table.
pub struct Followed {
    /// The actions stored meanwhile, in order.
    pub events: Vec<Arc<Event>>,
    /// Whether the seats changed.
    pub seats: bool,
    /// Whether the table ended early, or the copy had to be rebuilt.
    pub resync: bool,
}

/// Unix time in seconds.
pub fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0)
}

impl Table {
    /// A new table with a fresh secret server seed. If every seat is taken
    /// (AI seats only), the chance and forced actions at the start are
    /// planned and returned as events (not yet committed); otherwise the
    /// game starts when the last seat is taken.
    pub fn create(setup: TableSetup) -> Result<(Table, Vec<Event>), ApiError> {
        let state: Arc<dyn DynState> = Arc::from(
            setup
                .game
                .new_state(&setup.options)
                .map_err(ApiError::from_setup_error)?,
        );
        let at = now();
        let seats = setup.seats.len();
        let mut table = Table {
            id: setup.id,
            game: setup.game,
            options: setup.options,
            auto_forced: setup.auto_forced,
            creator_hash: setup.creator_hash,
            seats: setup.seats,
            state,
            version: 0,
            actions: Vec::new(),
            history: VecDeque::new(),
            ai_busy: false,
            ai_failed: None,
            created_at: at,
            updated_at: at,
            server_seed: Some(dice::new_server_seed()),
            ending: None,
            inactivity: setup.inactivity,
            listed: setup.listed,
            rematch_of: setup.rematch_of,
            rematch: None,
            rated: setup.rated,
            clock: setup.clock.map(|c| Clock::new(c, seats)),
            rng: StdRng::from_os_rng(),
        };
        let events = table.plan_pending()?;
        Ok((table, events))
    }

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
        let mut state = game
            .new_state(&options)
            .map_err(|e| corrupt(e.to_string()))?;
        if stored.seats.len() != state.num_players() {
            return Err(corrupt(format!("{} seats stored", stored.seats.len())));
        }
        let mut history = VecDeque::new();
        let first_kept = stored.actions.len().saturating_sub(HISTORY);
        // The state before the next kept event.
        let mut before: Option<Arc<dyn DynState>> = None;
        for (index, action) in stored.actions.iter().enumerate() {
            if action.version != index as u64 + 1 {
                return Err(corrupt(format!(
                    "action {index} has version {}",
                    action.version
                )));
            }
            if index == first_kept {
                before = Some(Arc::from(state.clone_box()));
            }
            let info = state
                .apply_recorded(&action.text)
                .map_err(|e| corrupt(format!("action {} (`{}`): {e}", index + 1, action.text)))?;
            if let Some(prev) = before.take() {
                let after: Arc<dyn DynState> = Arc::from(state.clone_box());
                history.push_back(Arc::new(stored_event(action, info, prev, &after)));
                before = Some(after);
            }
        }
        if stored.version != stored.actions.len() as u64 {
            return Err(corrupt(format!(
                "version {} but {} actions",
                stored.version,
                stored.actions.len()
            )));
        }
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

    /// Whether the table is over: its game ended, or the table ended early.
    pub fn is_over(&self) -> bool {
        self.ending.is_some() || self.state.turn() == Turn::Over
    }

    /// Whether every seat is taken (the game has started or can start).
    pub fn is_full(&self) -> bool {
        self.seats.iter().all(|s| s.kind != SeatKind::Open)
    }

    /// Each seat's dice seed (empty if it gave none), in seat order.
    pub fn seat_seeds(&self) -> Vec<String> {
        self.seats
            .iter()
            .map(|s| s.seed.clone().unwrap_or_default())
            .collect()
    }

    /// The dice commitment, with the server seed once the table is over.
    pub fn dice_proof(&self) -> Option<DiceProof> {
        let seed = self.server_seed.as_ref()?;
        Some(DiceProof {
            scheme: dice::SCHEME.into(),
            table: self.id.clone(),
            commitment: dice::commitment(seed),
            server_seed: self.is_over().then(|| crate::token::hex(seed)),
            seat_seeds: self.seat_seeds(),
        })
    }

    /// The seat whose token this is.
    pub fn seat_of_token(&self, token: &str) -> Option<usize> {
        let hash = hash_token(token);
        self.seats
            .iter()
            .position(|s| s.token_hash.as_ref() == Some(&hash))
    }

    /// The seat to move and its agent's name, when an AI seat is to move.
    pub fn ai_to_move(&self) -> Option<(usize, String)> {
        if self.ending.is_some() {
            return None;
        }
        match self.state.turn() {
            Turn::Player(p) => match &self.seats.get(p)?.kind {
                SeatKind::Ai(agent) => Some((p, agent.clone())),
                _ => None,
            },
            _ => None,
        }
    }

    /// Plans `input` by `seat` and the chance and forced actions after it,
    /// without changing the table. The caller has checked the turn.
    pub fn plan(
        &mut self,
        seat: usize,
        input: &ActionInput,
        auto: bool,
    ) -> Result<Vec<Event>, ApiError> {
        let mut state = self.state.clone_box();
        let info = match input {
            ActionInput::Text(text) => state.apply_text(text),
            ActionInput::Json(json) => state.apply_json(json),
            ActionInput::Resign(kind) => state.resign(seat, *kind),
        }
        .map_err(ApiError::from_action_error)?;
        let mut events = vec![Event::new(
            self.version + 1,
            Some(seat),
            info,
            auto,
            Arc::clone(&self.state),
            Arc::from(state.clone_box()),
        )];
        self.advance(state, &mut events)?;
        Ok(events)
    }

    /// Plans the chance and forced actions due now, if every seat is taken
    /// and the table has not ended.
    pub fn plan_pending(&mut self) -> Result<Vec<Event>, ApiError> {
        let mut events = Vec::new();
        if !self.is_full() || self.ending.is_some() {
            return Ok(events);
        }
        let state = self.state.clone_box();
        self.advance(state, &mut events)?;
        Ok(events)
    }

    /// Plays chance (from the dice seeds, see [`crate::dice`]) and forced
    /// single actions after `events`, until a real decision or the end.
    fn advance(
        &mut self,
        mut state: Box<dyn DynState>,
        events: &mut Vec<Event>,
    ) -> Result<(), ApiError> {
        // A game that outlasts its maximum length is a bug: stop there.
        for _ in 0..state.max_game_length() {
            let (seat, text) = match state.turn() {
                Turn::Over => return Ok(()),
                Turn::Chance => {
                    let version = self.version + events.len() as u64 + 1;
                    let chosen = match &self.server_seed {
                        Some(seed) => dice::chance_action(
                            &*state,
                            seed,
                            &self.id,
                            version,
                            &self.seat_seeds(),
                        )
                        .ok_or_else(|| {
                            ApiError::Internal("a chance node without outcomes".into())
                        })?,
                        None => state.sample_chance(&mut self.rng),
                    };
                    (None, chosen.text)
                }
                Turn::Player(_) if self.game.hidden_information() => {
                    // STO-5: whether a player could have chosen otherwise is
                    // hidden too, so nothing forced is played by itself (an
                    // AI seat chooses its only action as it chooses any).
                    return Ok(());
                }
                Turn::Player(p)
                    if self.seats[p].kind == SeatKind::Human
                        && self.seats[p].auto_roll != AutoRoll::Ask
                        && let Some(roll) =
                            state.auto_roll_action(self.seats[p].auto_roll == AutoRoll::Always) =>
                {
                    // The seat's auto-roll setting: the server rolls for it
                    // (no clock runs on a decision the server makes).
                    (Some(p), roll.text)
                }
                Turn::Player(p) => {
                    let forced_for_seat =
                        self.auto_forced || matches!(self.seats[p].kind, SeatKind::Ai(_));
                    if !forced_for_seat {
                        return Ok(());
                    }
                    let mut legal = state.legal_actions();
                    if legal.len() != 1 {
                        return Ok(());
                    }
                    (Some(p), legal.remove(0).text)
                }
            };
            let info = state.apply_text(&text).map_err(|e| {
                ApiError::Internal(format!("the engine refused its own action `{text}`: {e}"))
            })?;
            let before = events
                .last()
                .map_or_else(|| Arc::clone(&self.state), |e| Arc::clone(&e.state));
            events.push(Event::new(
                self.version + events.len() as u64 + 1,
                seat,
                info,
                true,
                before,
                Arc::from(state.clone_box()),
            ));
        }
        Err(ApiError::Internal(
            "too many chance and forced actions in a row".into(),
        ))
    }

    /// The seat whose clock should run in `state`: a person to decide, once
    /// every seat is taken and the table has not ended. AI seats' clocks
    /// never run (see `docs/server.md`).
    fn clock_seat(&self, state: &dyn DynState) -> Option<usize> {
        if self.ending.is_some() || !self.is_full() {
            return None;
        }
        match state.turn() {
            Turn::Player(p) if self.seats.get(p)?.kind == SeatKind::Human => Some(p),
            _ => None,
        }
    }

    /// Stamps planned `events` with the clocks at `now` (milliseconds of
    /// [`mono_ms`]) and returns the clocks after them, to keep once they
    /// are stored. A person's action is charged to his running turn; the
    /// turn passes (with the increment) when another seat acts or is to
    /// decide; server-made actions (chance, forced, auto-roll, AI) cost
    /// nothing; a new game of a match adds the per-game reserve.
    pub fn stamp_clock(&self, events: &mut [Event], now: i64) -> Option<Clock> {
        let mut clock = self.clock.clone()?;
        let per_game = clock.control.per_game_s > 0;
        let mut mark = if per_game {
            match_mark(&*self.state)
        } else {
            None
        };
        for event in events.iter_mut() {
            let running = clock.running.map(|r| r.seat);
            if event.seat.is_some() && event.seat != running {
                clock.pass(now);
            }
            let think_ms = match (event.seat, event.auto) {
                (Some(seat), false) => clock.charge(seat, now).map(|t| t.max(0) as u64),
                _ => None,
            };
            if event.state.turn() == Turn::Over {
                clock.pass(now);
            } else if let Turn::Player(p) = event.state.turn()
                && clock.running.is_some_and(|r| r.seat != p)
            {
                clock.pass(now);
            }
            if per_game {
                let next = match_mark(&*event.state);
                if next != mark && event.state.turn() != Turn::Over {
                    clock.new_game();
                }
                mark = next;
            }
            event.clock = Some(ClockStamp {
                think_ms,
                left: clock.all_left(now),
                running: None,
                delay_left_ms: 0,
            });
        }
        if let Some(last) = events.last_mut() {
            if let Some(seat) = self.clock_seat(&*last.state) {
                clock.start(seat, now);
            }
            if let Some(stamp) = &mut last.clock {
                stamp.running = clock.running.map(|r| r.seat);
                stamp.delay_left_ms = clock.delay_left(now);
            }
        }
        Some(clock)
    }

    /// Starts the clock of the seat to decide if none runs (the game just
    /// started, or the table was loaded: the turn begins again at `now`,
    /// so time while no server held the table is not charged); stops it
    /// if nobody may decide (ended, an AI took the seat over).
    pub fn resume_clock(&mut self, now: i64) {
        let seat = self.clock_seat(&*self.state);
        let Some(clock) = &mut self.clock else {
            return;
        };
        match seat {
            Some(seat) => clock.start(seat, now),
            None => clock.stop(now),
        }
    }

    /// The seat whose flag has fallen at `now`, if any.
    pub fn flagged(&self, now: i64) -> Option<usize> {
        if self.is_over() {
            return None;
        }
        self.clock.as_ref()?.flagged(now)
    }

    /// When the running seat's flag falls (milliseconds of [`mono_ms`]).
    pub fn clock_deadline(&self) -> Option<i64> {
        if self.is_over() {
            return None;
        }
        self.clock.as_ref()?.deadline()
    }

    /// The clocks now, as shown: every seat's time left (never below 0),
    /// the running seat and what is left of its delay.
    pub fn clock_now(&self, now: i64) -> Option<ClockStamp> {
        let clock = self.clock.as_ref()?;
        let running = (!self.is_over())
            .then(|| clock.running.map(|r| r.seat))
            .flatten();
        Some(ClockStamp {
            think_ms: None,
            left: clock.all_left(now).into_iter().map(|l| l.max(0)).collect(),
            running,
            delay_left_ms: if running.is_some() {
                clock.delay_left(now)
            } else {
                0
            },
        })
    }

    /// Applies events that have been stored; returns them shared.
    pub fn commit(&mut self, events: Vec<Event>) -> Vec<Arc<Event>> {
        let mut shared = Vec::with_capacity(events.len());
        for event in events {
            debug_assert_eq!(event.version, self.version + 1);
            self.actions.push(stored_action(&event));
            self.version = event.version;
            self.state = event.state.clone();
            let event = Arc::new(event);
            if self.history.len() == HISTORY {
                self.history.pop_front();
            }
            self.history.push_back(event.clone());
            shared.push(event);
        }
        self.updated_at = now();
        shared
    }

    /// What a viewer who has seen up to version `since` needs.
    pub fn catch_up(&self, since: Option<u64>) -> CatchUp {
        let Some(since) = since else {
            return CatchUp::Sync;
        };
        if since == self.version {
            return CatchUp::Events(Vec::new());
        }
        let oldest = self.history.front().map(|e| e.version);
        match oldest {
            Some(oldest) if since < self.version && since + 1 >= oldest => CatchUp::Events(
                self.history
                    .iter()
                    .filter(|e| e.version > since)
                    .cloned()
                    .collect(),
            ),
            _ => CatchUp::Sync,
        }
    }

    /// The game's record: every action, the seats and the result.
    pub fn record(&self) -> Record {
        let players = self
            .seats
            .iter()
            .map(|s| match (&s.kind, &s.name) {
                (SeatKind::Ai(agent), _) => agent.clone(),
                (_, Some(name)) => name.clone(),
                _ => format!("seat {}", s.seat),
            })
            .collect();
        let mut record = Record::new(self.game.id(), self.options.clone(), players);
        record.actions = self.actions.iter().map(|a| a.text.clone()).collect();
        if self.state.turn() == Turn::Over {
            record.finish(&self.state.returns(), self.state.outcome());
        }
        record
    }
}

/// The stored form of an event's action.
pub fn stored_action(event: &Event) -> StoredAction {
    StoredAction {
        version: event.version,
        seat: event.seat,
        text: event.action.text.clone(),
        auto: event.auto,
        think_ms: event.clock.as_ref().and_then(|c| c.think_ms),
        clock: event.clock.as_ref().map(|c| c.left.clone()),
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

/// What marks a new game of a match in a tables game's observation: the
/// score and the last finished game.
fn match_mark(state: &dyn DynState) -> Option<(Value, Value)> {
    let o = state.observation_json(spelbord_engine::Viewer::Spectator);
    let match_to = o.get("match_to").and_then(Value::as_u64).unwrap_or(0);
    (match_to > 0).then(|| {
        (
            o.get("score").cloned().unwrap_or(Value::Null),
            o.get("last_game").cloned().unwrap_or(Value::Null),
        )
    })
}

/// The returns, if the last event ends the game.
pub fn final_result(events: &[Event]) -> Option<Vec<f64>> {
    let last = events.last()?;
    (last.state.turn() == Turn::Over).then(|| last.state.returns())
}
