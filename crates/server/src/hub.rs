//! The live tables: loading, creating, joining, acting and AI moves. Every
//! change is stored before it is applied in memory, acknowledged or sent.

use crate::error::ApiError;
use crate::store::{SeatKind, Store, StoreError, StoredSeat};
use crate::table::{ActionInput, Event, Table, final_result, now, stored_action};
use crate::token::{TokenHash, hash_token, is_table_id, new_seed, new_token};
use serde_json::Value;
use spelbord_engine::{DynGame, Options, Turn};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::{Semaphore, broadcast, watch};

/// Capacity of each table's broadcast channel; a slower viewer gets a resync.
const CHANNEL: usize = 1024;

/// What a table announces to its viewers.
#[derive(Clone)]
pub enum Notice {
    /// An action was applied.
    Event(Arc<Event>),
    /// Someone took a seat.
    Seats,
}

/// A live table: the table behind an async lock, and its broadcast channel.
pub struct TableCell {
    /// The table. Held across the database write of a change, so changes to
    /// one table are stored and announced in order.
    pub table: tokio::sync::Mutex<Table>,
    /// Announcements to the table's WebSocket viewers.
    pub notices: broadcast::Sender<Notice>,
    last_used: Mutex<Instant>,
}

impl TableCell {
    fn new(table: Table) -> Arc<Self> {
        Arc::new(TableCell {
            table: tokio::sync::Mutex::new(table),
            notices: broadcast::channel(CHANNEL).0,
            last_used: Mutex::new(Instant::now()),
        })
    }

    fn touch(&self) {
        if let Ok(mut t) = self.last_used.lock() {
            *t = Instant::now();
        }
    }
}

/// A request to create a table.
pub struct NewTable {
    /// The game.
    pub game: &'static dyn DynGame,
    /// Its options.
    pub options: Options,
    /// Per seat: `None` open, `Some(agent)` an AI seat.
    pub seats: Vec<Option<String>>,
    /// Whether forced single actions are played by the server.
    pub auto_forced: bool,
    /// The hash of the creator's player key.
    pub creator: Option<TokenHash>,
}

/// A seat taken: the secret token (shown once) and the table's id.
pub struct Joined {
    /// The seat's number.
    pub seat: usize,
    /// The secret token that acts for the seat.
    pub token: String,
}

/// The live tables and what they share.
pub struct Hub {
    store: Arc<dyn Store>,
    tables: Mutex<HashMap<String, Arc<TableCell>>>,
    ai_permits: Semaphore,
    ai_tasks: AtomicUsize,
    stopping: AtomicBool,
    shutdown: watch::Sender<bool>,
}

impl Hub {
    /// A hub over `store`, thinking for at most `ai_workers` AI seats at once.
    pub fn new(store: Arc<dyn Store>, ai_workers: usize) -> Arc<Self> {
        Arc::new(Hub {
            store,
            tables: Mutex::new(HashMap::new()),
            ai_permits: Semaphore::new(ai_workers.max(1)),
            ai_tasks: AtomicUsize::new(0),
            stopping: AtomicBool::new(false),
            shutdown: watch::channel(false).0,
        })
    }

    /// A receiver that turns `true` when the server begins to shut down.
    pub fn shutdown_signal(&self) -> watch::Receiver<bool> {
        self.shutdown.subscribe()
    }

    /// Whether the server is shutting down.
    pub fn stopping(&self) -> bool {
        self.stopping.load(Ordering::SeqCst)
    }

    /// The number of tables in memory.
    pub fn live_tables(&self) -> usize {
        self.tables.lock().map(|t| t.len()).unwrap_or(0)
    }

    /// Reloads every unfinished table from the store by replaying its record,
    /// and restarts AI seats that are to move. Returns how many were loaded.
    pub async fn reload(self: &Arc<Self>) -> Result<usize, StoreError> {
        let stored = self.store.unfinished_tables().await?;
        let count = stored.len();
        for s in stored {
            let id = s.id.clone();
            let table = Table::from_stored(s)?;
            let cell = TableCell::new(table);
            self.insert(id, cell.clone());
            let mut t = cell.table.lock().await;
            // A table stored at a chance node or forced action (e.g. by an
            // older server) is moved on now.
            if let Err(e) = self.advance_stored(&mut t, &cell).await {
                tracing::error!(table = %t.id, error = %e, "cannot continue a reloaded table");
            }
            self.maybe_start_ai(&mut t, &cell);
        }
        Ok(count)
    }

    fn insert(&self, id: String, cell: Arc<TableCell>) -> Arc<TableCell> {
        let mut tables = self.tables.lock().expect("table map");
        tables.entry(id).or_insert(cell).clone()
    }

    /// The live table with this id, loading a finished one from the store.
    pub async fn table(&self, id: &str) -> Result<Arc<TableCell>, ApiError> {
        let not_found = || ApiError::NotFound(format!("no table `{id}`"));
        if !is_table_id(id) {
            return Err(not_found());
        }
        let found = self.tables.lock().expect("table map").get(id).cloned();
        if let Some(cell) = found {
            cell.touch();
            return Ok(cell);
        }
        let stored = self.store.load_table(id).await?.ok_or_else(not_found)?;
        let table = Table::from_stored(stored)?;
        Ok(self.insert(id.to_string(), TableCell::new(table)))
    }

    /// Forgets finished tables nobody has looked at for `idle` (they stay in
    /// the store and are loaded again on demand).
    pub async fn evict_idle(&self, idle: Duration) {
        let cells: Vec<(String, Arc<TableCell>)> = self
            .tables
            .lock()
            .expect("table map")
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        for (id, cell) in cells {
            let old = cell
                .last_used
                .lock()
                .map(|t| t.elapsed() > idle)
                .unwrap_or(false);
            let finished = match cell.table.try_lock() {
                Ok(t) => t.is_over(),
                Err(_) => false,
            };
            if old && finished && cell.notices.receiver_count() == 0 {
                self.tables.lock().expect("table map").remove(&id);
            }
        }
    }

    /// Creates a table, stores it with its first chance actions, and starts
    /// its AI seats. Returns the table's cell.
    pub async fn create(self: &Arc<Self>, new: NewTable) -> Result<Arc<TableCell>, ApiError> {
        self.refuse_if_stopping()?;
        let seats = new
            .seats
            .into_iter()
            .enumerate()
            .map(|(seat, agent)| StoredSeat {
                seat,
                kind: agent.map_or(SeatKind::Open, SeatKind::Ai),
                name: None,
                token_hash: None,
                player_hash: None,
                joined_at: None,
            })
            .collect();
        let id = crate::token::new_table_id();
        let (mut table, events) = Table::create(
            id.clone(),
            new.game,
            new.options,
            seats,
            new.auto_forced,
            new.creator,
        )?;
        self.store.create_table(&table.to_stored(&events)).await?;
        table.commit(events);
        tracing::info!(table = %id, game = table.game.id(), version = table.version, "table created");
        let cell = TableCell::new(table);
        self.insert(id, cell.clone());
        let mut t = cell.table.lock().await;
        self.maybe_start_ai(&mut t, &cell);
        drop(t);
        Ok(cell)
    }

    /// Gives an open seat (the first open one if `seat` is `None`) to a person.
    pub async fn join(
        &self,
        cell: &Arc<TableCell>,
        seat: Option<usize>,
        name: Option<String>,
        player: Option<TokenHash>,
    ) -> Result<Joined, ApiError> {
        self.refuse_if_stopping()?;
        let mut t = cell.table.lock().await;
        if t.is_over() {
            return Err(ApiError::GameOver);
        }
        let seat = match seat {
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
        let token = new_token();
        let taken = StoredSeat {
            seat,
            kind: SeatKind::Human,
            name,
            token_hash: Some(hash_token(&token)),
            player_hash: player,
            joined_at: Some(now()),
        };
        self.store.claim_seat(&t.id, &taken).await?;
        t.seats[seat] = taken;
        tracing::info!(table = %t.id, seat, "seat taken");
        let _ = cell.notices.send(Notice::Seats);
        Ok(Joined { seat, token })
    }

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
        let events = t.plan(seat, &input, false)?;
        let shared = self.commit(&mut t, cell, events).await?;
        Ok((seat, shared))
    }

    /// Stores planned events, then applies and announces them, and starts
    /// the AI if an AI seat is to move.
    async fn commit(
        self: &Arc<Self>,
        t: &mut Table,
        cell: &Arc<TableCell>,
        events: Vec<Event>,
    ) -> Result<Vec<Arc<Event>>, ApiError> {
        let actions: Vec<_> = events.iter().map(stored_action).collect();
        let result = final_result(&events);
        if let Err(e) = self
            .store
            .append_actions(&t.id, t.version, &actions, result.as_deref())
            .await
        {
            if matches!(e, StoreError::Conflict(_)) {
                // Memory and store disagree (a write may have succeeded after
                // reporting failure): the store is the truth.
                self.resync_from_store(t).await;
            }
            return Err(e.into());
        }
        let shared = t.commit(events);
        if let Some(last) = shared.last() {
            tracing::debug!(table = %t.id, version = last.version, "actions committed");
        }
        for event in &shared {
            let _ = cell.notices.send(Notice::Event(event.clone()));
        }
        if t.is_over() {
            tracing::info!(table = %t.id, returns = ?t.state.returns(), "game over");
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
    async fn advance_stored(
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

    fn refuse_if_stopping(&self) -> Result<(), ApiError> {
        if self.stopping() {
            Err(ApiError::Unavailable("the server is shutting down".into()))
        } else {
            Ok(())
        }
    }

    /// Starts the AI task of a table if an AI seat is to move and none runs.
    /// Called with the table locked, so the busy flag cannot race.
    fn maybe_start_ai(self: &Arc<Self>, t: &mut Table, cell: &Arc<TableCell>) {
        if t.ai_busy || self.stopping() || t.ai_to_move().is_none() {
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

    /// Moves for AI seats until a person is to move or the game ends.
    async fn run_ai(self: &Arc<Self>, cell: &Arc<TableCell>) {
        loop {
            let (state, version, seat, agent) = {
                let mut t = cell.table.lock().await;
                match t.ai_to_move() {
                    Some((seat, agent)) if !self.stopping() => {
                        (t.state.clone(), t.version, seat, agent)
                    }
                    _ => {
                        t.ai_busy = false;
                        return;
                    }
                }
            };
            let Ok(permit) = self.ai_permits.acquire().await else {
                return;
            };
            let seed = new_seed();
            let thinking = tokio::task::spawn_blocking(move || {
                spelbord_ai::choose_action(&*state, &agent, seed).or_else(|e| {
                    tracing::warn!(agent, error = %e, "agent failed; a random move is played");
                    spelbord_ai::choose_action(&*state, "random", seed)
                })
            })
            .await;
            drop(permit);
            let mut t = cell.table.lock().await;
            let choice = match thinking {
                Ok(Ok(choice)) => choice,
                other => {
                    tracing::error!(table = %t.id, outcome = ?other.map(|r| r.map(|a| a.text)), "no AI move");
                    t.ai_busy = false;
                    return;
                }
            };
            if t.version != version || self.stopping() {
                continue;
            }
            let planned = t.plan(seat, &ActionInput::Text(choice.text), true);
            let outcome = match planned {
                Ok(events) => self.commit(&mut t, cell, events).await.map(|_| ()),
                Err(e) => Err(e),
            };
            if let Err(e) = outcome {
                tracing::error!(table = %t.id, seat, error = %e, "AI move not applied; retrying");
                drop(t);
                tokio::time::sleep(Duration::from_secs(1)).await;
            }
        }
    }

    /// Stops taking changes and tells viewers to go.
    pub fn begin_shutdown(&self) {
        self.stopping.store(true, Ordering::SeqCst);
        let _ = self.shutdown.send(true);
    }

    /// Stops taking changes, tells viewers to go, waits up to `grace` for AI
    /// moves in progress, and closes the store.
    pub async fn shut_down(&self, grace: Duration) {
        self.begin_shutdown();
        let deadline = Instant::now() + grace;
        while self.ai_tasks.load(Ordering::SeqCst) > 0 && Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        if let Err(e) = self.store.close().await {
            tracing::error!(error = %e, "closing the store");
        }
    }

    /// The ids of unfinished tables of a player.
    pub async fn player_tables(&self, player: &TokenHash) -> Result<Vec<String>, ApiError> {
        Ok(self.store.player_tables(player).await?)
    }
}

/// Reads an option map given as JSON (`{"key": "value" or number}`).
pub fn options_from_json(
    game: &'static dyn DynGame,
    options: Option<&serde_json::Map<String, Value>>,
) -> Result<Options, ApiError> {
    let mut pairs = Vec::new();
    for (k, v) in options.into_iter().flatten() {
        let value = match v {
            Value::String(s) => s.clone(),
            Value::Number(n) => n.to_string(),
            Value::Bool(b) => b.to_string(),
            _ => {
                return Err(ApiError::BadOption(format!(
                    "option `{k}` must be a string or a number"
                )));
            }
        };
        pairs.push((k.clone(), value));
    }
    Options::from_map(game.id(), game.option_specs(), pairs).map_err(ApiError::from_setup_error)
}
