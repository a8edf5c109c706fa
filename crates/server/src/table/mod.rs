//! One table in memory: the game state, the seats, the record and the last
//! events. Pure logic, no I/O: callers store planned events before committing
//! them here.
//!
//! The parts of [`Table`]: `stored` (to and from the store), `plan`
//! (planning actions) and `clocks`.

use crate::clock::{Clock, TimeControl};
use crate::dice::{self, DiceProof, ServerSeed};
use crate::error::ApiError;
use crate::store::{Ending, Inactivity, SeatKind, StoredAction, StoredSeat};
use crate::token::{TokenHash, hash_token};
use rand::SeedableRng;
use rand::rngs::StdRng;
use serde_json::Value;
use spelbord_engine::{
    ActionInfo, DynGame, DynState, GameEvent, Options, Record, Resignation, Turn,
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

    /// The dice commitment, with the server seed once the table is over;
    /// none in a game without chance (Läger).
    pub fn dice_proof(&self) -> Option<DiceProof> {
        if !self.game.chance() {
            return None;
        }
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

/// The returns, if the last event ends the game.
pub fn final_result(events: &[Event]) -> Option<Vec<f64>> {
    let last = events.last()?;
    (last.state.turn() == Turn::Over).then(|| last.state.returns())
}

mod clocks;
mod plan;
mod stored;
