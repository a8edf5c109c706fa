//! The live tables: loading, creating, joining, acting and AI moves. Every
//! change is stored before it is applied in memory, acknowledged or sent.
//!
//! The parts of [`Hub`]: `seats` (creating tables, joining), `rematch`,
//! `play` (actions, storing and announcing them), `ai` (the AI's turns),
//! `ending` (resigning, closing, clocks, inactivity), `loading` (tables in
//! memory), `ownership` (tables in a group of nodes) and `accounts`.

use crate::cluster::Cluster;
use crate::error::ApiError;
use crate::health::Health;
use crate::limits::Counter;
use crate::store::{AutoRoll, Inactivity, Store, StoreError};
use crate::table::{Event, Table};
use crate::thinking::{Owner, Thinking, Workers};
use crate::token::TokenHash;
use axum::extract::ws::Utf8Bytes;
use serde_json::Value;
use spelbord_engine::{DynGame, Options, Viewer};
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};
use tokio::sync::{broadcast, watch};

/// Capacity of each table's broadcast channel; a slower viewer gets a resync.
/// Every live table holds its slots (about 50 bytes each), watched or not.
const CHANNEL: usize = 128;

/// What a table announces to its viewers.
#[derive(Clone)]
pub enum Notice {
    /// An action was applied.
    Event(Arc<Announced>),
    /// Someone took a seat (or an AI took one over).
    Seats,
    /// The table ended early (resigned, forfeited, closed, abandoned).
    Ended,
    /// A player of this finished table asked for a rematch: the new table's
    /// id and the seat that asked.
    Rematch(Arc<str>, usize),
    /// The AI of this seat failed to move [`AI_ATTEMPTS`] times and stopped.
    AiFailed(usize),
}

/// Attempts at one AI move (thinking, then storing it) before the table's
/// AI stops until the table is next loaded.
pub const AI_ATTEMPTS: u32 = 5;

/// An applied action as announced, with its `event` message per viewer
/// (spectators, then each seat), each made once by the first viewer of its
/// kind that sends it and shared by the others.
pub struct Announced {
    /// The action and the state after it.
    pub event: Arc<Event>,
    messages: Box<[OnceLock<Utf8Bytes>]>,
}

impl Announced {
    /// `event` as announced to a table with `seats` seats.
    pub fn new(event: Arc<Event>, seats: usize) -> Self {
        Announced {
            event,
            messages: (0..=seats).map(|_| OnceLock::new()).collect(),
        }
    }

    /// The message for `viewer`, made by `make` the first time it is asked for.
    pub fn message_for(&self, viewer: Viewer, make: impl FnOnce() -> Utf8Bytes) -> Utf8Bytes {
        let slot = match viewer {
            Viewer::Spectator => 0,
            Viewer::Player(seat) => seat + 1,
        };
        match self.messages.get(slot) {
            Some(cell) => cell.get_or_init(make).clone(),
            None => make(),
        }
    }
}

/// The level of the AI that takes over a seat whose player is gone.
pub const TAKEOVER_AGENT: &str = "ai:medium";

/// A live table: the table behind an async lock, and its broadcast channel.
pub struct TableCell {
    /// The table. Held across the database write of a change, so changes to
    /// one table are stored and announced in order.
    pub table: tokio::sync::Mutex<Table>,
    /// Announcements to the table's WebSocket viewers.
    pub notices: broadcast::Sender<Notice>,
    /// The table's WebSocket viewers (counted; capped by the caller).
    pub watchers: Arc<Counter<()>>,
    /// Held while a hint for this table is computed (one at a time per table).
    pub hinting: tokio::sync::Mutex<()>,
    /// Whether this node owns the table (always, on one node): only the
    /// owner changes it and runs its AI; other nodes keep a copy for viewers.
    owned: AtomicBool,
    /// When the running clock's flag falls ([`mono_ms`]; `i64::MAX`: none),
    /// read by the clock timer without locking the table.
    deadline: AtomicI64,
    last_used: Mutex<Instant>,
    /// Whose the table's thinking is, for the fair scheduler.
    owner: Owner,
}

impl TableCell {
    fn new(table: Table, owned: bool, owner: Owner) -> Arc<Self> {
        Arc::new(TableCell {
            table: tokio::sync::Mutex::new(table),
            notices: broadcast::channel(CHANNEL).0,
            watchers: Counter::new(0, 0),
            hinting: tokio::sync::Mutex::new(()),
            owned: AtomicBool::new(owned),
            deadline: AtomicI64::new(i64::MAX),
            last_used: Mutex::new(Instant::now()),
            owner,
        })
    }

    fn owned(&self) -> bool {
        self.owned.load(Ordering::SeqCst)
    }

    /// Notes when the table's running clock runs out (after any change).
    fn set_deadline(&self, table: &Table) {
        self.deadline
            .store(table.clock_deadline().unwrap_or(i64::MAX), Ordering::SeqCst);
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
    /// The inactivity rule.
    pub inactivity: Inactivity,
    /// Whether the table is shown in the lobby's lists.
    pub listed: bool,
    /// The finished table this one is the rematch of.
    pub rematch_of: Option<String>,
    /// Whether the game is rated (checked by the API).
    pub rated: bool,
    /// The time control, if the table has a clock.
    pub clock: Option<crate::clock::TimeControl>,
    /// The creator's address (for the cap on open tables per address).
    pub client: IpAddr,
}

/// A request to take a seat.
pub struct JoinRequest {
    /// The seat (the first open one if `None`).
    pub seat: Option<usize>,
    /// A display name.
    pub name: Option<String>,
    /// The hash of the player's key (or of a signed-in player's account).
    pub player: Option<TokenHash>,
    /// The signed-in player's account name.
    pub account: Option<String>,
    /// The idempotency key: a retried join with it returns the same seat and token.
    pub key: Option<String>,
    /// The seat's own dice seed.
    pub seed: Option<String>,
    /// At a rematch: the seat this player held at the finished table (shown
    /// by its token); a rematch's open seats are kept for those players.
    pub rematch_seat: Option<usize>,
    /// When the server rolls for the seat at a cube decision.
    pub auto_roll: AutoRoll,
}

/// A rematch asked for: the new table and the asking player's seat there.
pub struct Rematch {
    /// The new table's id.
    pub table: String,
    /// The seat of the player who asked (the same number as at the finished table).
    pub seat: usize,
    /// Whether this request created it (else it existed already).
    pub created: bool,
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
    thinking: Arc<Thinking>,
    ai_tasks: AtomicUsize,
    stopping: AtomicBool,
    shutdown: watch::Sender<bool>,
    /// Unfinished tables created per address (since the server started).
    open_by_address: Mutex<HashMap<IpAddr, Vec<String>>>,
    max_open_tables: AtomicUsize,
    /// The group of nodes this one belongs to (PostgreSQL only).
    cluster: OnceLock<Arc<Cluster>>,
    /// Whether the database takes writes (what `/api/health` says).
    health: Arc<Health>,
    /// The route put into the ids of the tables made here (`--route`).
    route: OnceLock<crate::token::Route>,
    /// Told when a table comes into memory or leaves it (several nodes:
    /// the notification listener listens on the tables held).
    held: OnceLock<tokio::sync::mpsc::UnboundedSender<ownership::Held>>,
}
impl Hub {
    /// A hub over `store`, thinking (AI moves and hints) in the slots of
    /// `workers`.
    pub fn new(store: Arc<dyn Store>, workers: Workers) -> Arc<Self> {
        Arc::new(Hub {
            store,
            tables: Mutex::new(HashMap::new()),
            thinking: Thinking::new(workers),
            ai_tasks: AtomicUsize::new(0),
            stopping: AtomicBool::new(false),
            shutdown: watch::channel(false).0,
            open_by_address: Mutex::new(HashMap::new()),
            max_open_tables: AtomicUsize::new(0),
            cluster: OnceLock::new(),
            health: Arc::new(Health::default()),
            route: OnceLock::new(),
            held: OnceLock::new(),
        })
    }

    /// The node's health: every write's outcome is recorded there.
    pub fn health(&self) -> &Arc<Health> {
        &self.health
    }

    /// The store, for the health probe.
    pub fn store(&self) -> &Arc<dyn Store> {
        &self.store
    }

    /// Refuses a write at once while the database takes none (the last
    /// write or probe failed): nothing is acknowledged until a write has
    /// committed again, and no request waits for a database that is gone.
    /// The probe each second finds out when writes commit again.
    fn writable(&self) -> Result<(), StoreError> {
        match self.health.report().database_error {
            None => Ok(()),
            Some(_) => Err(StoreError::Database(
                "the database takes no writes now".into(),
            )),
        }
    }

    /// Records a write's outcome in the node's health and passes it on: a
    /// database failure makes the node unhealthy until a write commits.
    fn recorded<T>(&self, outcome: Result<T, StoreError>) -> Result<T, StoreError> {
        match &outcome {
            Ok(_) => self.health.write_succeeded(),
            Err(StoreError::Database(e)) => self.health.write_failed(e),
            Err(_) => {}
        }
        outcome
    }

    /// The fair scheduler of AI moves and hints.
    pub fn thinking(&self) -> &Arc<Thinking> {
        &self.thinking
    }

    /// Makes this hub one node of a group on one database.
    pub fn set_cluster(&self, cluster: Arc<Cluster>) {
        let _ = self.cluster.set(cluster);
    }

    /// The group of nodes, if this is one of several.
    pub fn cluster(&self) -> Option<&Arc<Cluster>> {
        self.cluster.get()
    }

    /// Sets the route put into the ids of the tables this node makes.
    pub fn set_route(&self, route: crate::token::Route) {
        let _ = self.route.set(route);
    }

    /// The route put into the ids of the tables this node makes, if any.
    pub fn route(&self) -> Option<&crate::token::Route> {
        self.route.get()
    }

    /// Sets the most unfinished tables one address may have created (0: no cap).
    pub fn set_max_open_tables(&self, max: usize) {
        self.max_open_tables.store(max, Ordering::SeqCst);
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

    fn refuse_if_stopping(&self) -> Result<(), ApiError> {
        if self.stopping() {
            Err(ApiError::Unavailable("the server is shutting down".into()))
        } else {
            Ok(())
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
        if let Some(cluster) = self.cluster() {
            cluster.leave().await;
        }
        if let Err(e) = self.store.close().await {
            tracing::error!(error = %e, "closing the store");
        }
    }

    /// The ids of tables listed in the lobby (see [`Store::listed_tables`]).
    pub async fn listed_tables(
        &self,
        live: bool,
        page: u32,
        size: u32,
    ) -> Result<Vec<String>, ApiError> {
        Ok(self.store.listed_tables(live, page, size).await?)
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

mod accounts;
mod ai;
#[cfg(test)]
mod ai_failure_tests;
mod ending;
mod loading;
mod ownership;
mod play;
mod rematch;
mod seats;
pub use ownership::Held;

#[cfg(test)]
mod tests {
    use super::*;
    use spelbord_engine::{ActionInfo, DynState, find_game};
    use std::cell::Cell;

    fn announced(seats: usize) -> Announced {
        let game = find_game("backgammon").expect("backgammon");
        let options = game.parse_options(&[]).expect("options");
        let state: Arc<dyn DynState> = Arc::from(game.new_state(&options).expect("a state"));
        let action = ActionInfo {
            text: "31".into(),
            json: Value::Null,
        };
        let event = Event::new(1, None, action, true, Arc::clone(&state), state);
        Announced::new(Arc::new(event), seats)
    }

    #[test]
    fn each_kind_of_viewer_gets_its_message_made_once() {
        let a = announced(2);
        let made = Cell::new(0);
        let make = |name: &str| {
            made.set(made.get() + 1);
            Utf8Bytes::from(name.to_string())
        };
        assert_eq!(a.message_for(Viewer::Spectator, || make("s")).as_str(), "s");
        assert_eq!(a.message_for(Viewer::Spectator, || make("x")).as_str(), "s");
        assert_eq!(
            a.message_for(Viewer::Player(0), || make("p0")).as_str(),
            "p0"
        );
        assert_eq!(
            a.message_for(Viewer::Player(1), || make("p1")).as_str(),
            "p1"
        );
        assert_eq!(
            a.message_for(Viewer::Player(0), || make("y")).as_str(),
            "p0"
        );
        assert_eq!(made.get(), 3);
        // A seat the table does not have is never cached.
        assert_eq!(a.message_for(Viewer::Player(5), || make("z")).as_str(), "z");
        assert_eq!(a.message_for(Viewer::Player(5), || make("w")).as_str(), "w");
        assert_eq!(made.get(), 5);
    }
}
