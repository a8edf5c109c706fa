//! One table in memory: the game state, the seats, the record and the last
//! events. Pure logic, no I/O: callers store planned events before committing
//! them here.

use crate::error::ApiError;
use crate::store::{SeatKind, StoreError, StoredAction, StoredSeat, StoredTable};
use crate::token::{TokenHash, hash_token};
use rand::SeedableRng;
use rand::rngs::StdRng;
use serde_json::Value;
use spelbord_engine::{ActionInfo, DynGame, DynState, Options, Record, Turn, find_game};
use std::collections::VecDeque;
use std::sync::Arc;

/// How many recent events a table keeps for reconnecting clients.
pub const HISTORY: usize = 256;

/// The most actions the server plays by itself in one go (a safety net).
const MAX_AUTO_ACTIONS: usize = 100_000;

/// An action a player submits.
#[derive(Clone, Debug)]
pub enum ActionInput {
    /// In the game's notation.
    Text(String),
    /// As the game's JSON form of an action.
    Json(Value),
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
    pub events: Vec<String>,
    /// The state after the action.
    pub state: Arc<dyn DynState>,
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
    /// When the table was created (Unix seconds).
    pub created_at: i64,
    /// When it last changed (Unix seconds).
    pub updated_at: i64,
    rng: StdRng,
}

/// What a reconnecting viewer needs.
pub enum CatchUp {
    /// The events after its version, in order (possibly none).
    Events(Vec<Arc<Event>>),
    /// Too far behind (or unknown): a full view.
    Sync,
}

/// Unix time in seconds.
pub fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0)
}

impl Table {
    /// A new table at its first decision: chance and forced actions at the
    /// start are already planned and returned as events (not yet committed).
    pub fn create(
        id: String,
        game: &'static dyn DynGame,
        options: Options,
        seats: Vec<StoredSeat>,
        auto_forced: bool,
        creator_hash: Option<TokenHash>,
    ) -> Result<(Table, Vec<Event>), ApiError> {
        let state: Arc<dyn DynState> = Arc::from(
            game.new_state(&options)
                .map_err(ApiError::from_setup_error)?,
        );
        let at = now();
        let mut table = Table {
            id,
            game,
            options,
            auto_forced,
            creator_hash,
            seats,
            state,
            version: 0,
            actions: Vec::new(),
            history: VecDeque::new(),
            ai_busy: false,
            created_at: at,
            updated_at: at,
            rng: StdRng::from_os_rng(),
        };
        let mut events = Vec::new();
        let start = table.state.clone_box();
        table.advance(start, &mut events)?;
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
        for (index, action) in stored.actions.iter().enumerate() {
            if action.version != index as u64 + 1 {
                return Err(corrupt(format!(
                    "action {index} has version {}",
                    action.version
                )));
            }
            let info = state
                .apply_text(&action.text)
                .map_err(|e| corrupt(format!("action {} (`{}`): {e}", index + 1, action.text)))?;
            if index >= first_kept {
                history.push_back(Arc::new(Event {
                    version: action.version,
                    seat: action.seat,
                    action: info,
                    auto: action.auto,
                    events: state.events(),
                    state: Arc::from(state.clone_box()),
                }));
            }
        }
        if stored.version != stored.actions.len() as u64 {
            return Err(corrupt(format!(
                "version {} but {} actions",
                stored.version,
                stored.actions.len()
            )));
        }
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
            created_at: stored.created_at,
            updated_at: stored.updated_at,
            rng: StdRng::from_os_rng(),
        })
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
        }
    }

    /// Whether the game is over.
    pub fn is_over(&self) -> bool {
        self.state.turn() == Turn::Over
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
        }
        .map_err(ApiError::from_action_error)?;
        let mut events = vec![Event {
            version: self.version + 1,
            seat: Some(seat),
            action: info,
            auto,
            events: state.events(),
            state: Arc::from(state.clone_box()),
        }];
        self.advance(state, &mut events)?;
        Ok(events)
    }

    /// Plans the chance and forced actions due now (for a reloaded table).
    pub fn plan_pending(&mut self) -> Result<Vec<Event>, ApiError> {
        let mut events = Vec::new();
        let state = self.state.clone_box();
        self.advance(state, &mut events)?;
        Ok(events)
    }

    /// Plays chance (from the server's secure generator) and forced single
    /// actions after `events`, until a real decision or the end.
    fn advance(
        &mut self,
        mut state: Box<dyn DynState>,
        events: &mut Vec<Event>,
    ) -> Result<(), ApiError> {
        for _ in 0..MAX_AUTO_ACTIONS {
            let (seat, text) = match state.turn() {
                Turn::Over => return Ok(()),
                Turn::Chance => (None, state.sample_chance(&mut self.rng).text),
                Turn::Player(_) if self.game.hidden_information() => {
                    // STO-5: whether a player could have chosen otherwise is
                    // hidden too, so nothing forced is played by itself (an
                    // AI seat chooses its only action as it chooses any).
                    return Ok(());
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
            events.push(Event {
                version: self.version + events.len() as u64 + 1,
                seat,
                action: info,
                auto: true,
                events: state.events(),
                state: Arc::from(state.clone_box()),
            });
        }
        Err(ApiError::Internal(
            "too many chance and forced actions in a row".into(),
        ))
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
        if self.is_over() {
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
    }
}

/// The returns, if the last event ends the game.
pub fn final_result(events: &[Event]) -> Option<Vec<f64>> {
    let last = events.last()?;
    (last.state.turn() == Turn::Over).then(|| last.state.returns())
}
