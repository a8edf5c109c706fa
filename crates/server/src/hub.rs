//! The live tables: loading, creating, joining, acting and AI moves. Every
//! change is stored before it is applied in memory, acknowledged or sent.

use crate::cluster::Cluster;
use crate::error::ApiError;
use crate::health::Health;
use crate::limits::Counter;
use crate::store::{
    AutoRoll, EndReason, Ending, Inactivity, SeatKind, Store, StoreError, StoredSeat, Takeover,
};
use crate::table::{
    ActionInput, Event, Followed, Table, TableSetup, final_result, mono_ms, now, stored_action,
};
use crate::thinking::{Attempts, Lane, Owner, Thinking, Workers};
use crate::token::{TokenHash, hash_token, hex, is_table_id, new_seed, new_token};
use axum::extract::ws::Utf8Bytes;
use hmac::{Hmac, Mac};
use serde_json::Value;
use sha2::Sha256;
use spelbord_engine::{DynGame, Options, Resignation, Turn, Viewer};
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

/// The pause after the first failed AI attempt, doubled after each next one.
const AI_RETRY_PAUSE: Duration = if cfg!(test) {
    Duration::from_millis(10)
} else {
    Duration::from_millis(500)
};

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
}

/// The token of a seat joined with an idempotency key: derived from the key,
/// so that a retried join can answer it again without storing it.
fn keyed_token(key: &str, table: &str, seat: usize) -> String {
    let mut mac = Hmac::<Sha256>::new_from_slice(key.as_bytes()).expect("any key length");
    mac.update(format!("spelbord-seat-token:{table}:{seat}").as_bytes());
    hex(&mac.finalize().into_bytes())
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

    /// Whether table `id` is in memory and owned by this node.
    pub fn owns_live(&self, id: &str) -> bool {
        self.tables
            .lock()
            .ok()
            .and_then(|t| t.get(id).map(|c| c.owned()))
            .unwrap_or(false)
    }

    /// Whether this node owns table `id` (asks the database in a group of nodes).
    async fn owns_stored(&self, id: &str) -> Result<bool, StoreError> {
        match self.cluster() {
            Some(cluster) => cluster.owns(id).await,
            None => Ok(true),
        }
    }

    /// Makes this node's copy of a table it now owns in the database live:
    /// brought up to the stored table, its AI and inactivity rule running.
    pub async fn adopt(self: &Arc<Self>, id: &str) -> Result<(), ApiError> {
        let found = self.tables.lock().expect("table map").get(id).cloned();
        let Some(cell) = found else {
            self.table(id).await?;
            return Ok(());
        };
        if cell.owned() {
            return Ok(());
        }
        {
            let mut t = cell.table.lock().await;
            if cell.owned() {
                return Ok(());
            }
            self.follow_store(&mut t, &cell).await?;
            cell.owned.store(true, Ordering::SeqCst);
        }
        self.continue_loaded(&cell).await;
        Ok(())
    }

    /// Passes a write's outcome on; a conflict in a group of nodes may mean
    /// that another node took the table over: then this copy stops acting.
    async fn owner_checked(
        &self,
        cell: &TableCell,
        id: &str,
        outcome: Result<(), StoreError>,
    ) -> Result<(), StoreError> {
        if let Err(StoreError::Conflict(_)) = &outcome
            && let Ok(false) = self.owns_stored(id).await
        {
            tracing::warn!(table = %id, "another node owns the table now");
            cell.owned.store(false, Ordering::SeqCst);
        }
        outcome
    }

    /// Brings a copy of a table up to the stored table and tells its viewers.
    async fn follow_store(&self, t: &mut Table, cell: &TableCell) -> Result<(), ApiError> {
        let gone = || ApiError::NotFound("the table is gone".into());
        let stored = self
            .store
            .load_table_after(&t.id, t.version)
            .await?
            .ok_or_else(gone)?;
        let followed = match t.follow(stored)? {
            Some(followed) => followed,
            None => {
                *t = Table::from_stored(self.store.load_table(&t.id).await?.ok_or_else(gone)?)?;
                Followed {
                    events: Vec::new(),
                    seats: true,
                    resync: true,
                }
            }
        };
        let moved = !followed.events.is_empty();
        for event in followed.events {
            let _ = cell.notices.send(Notice::Event(Arc::new(Announced::new(
                event,
                t.seats.len(),
            ))));
        }
        // The `seats` message carries the clocks as this copy runs them.
        if followed.seats || (t.clock.is_some() && moved) {
            let _ = cell.notices.send(Notice::Seats);
        }
        if followed.resync {
            let _ = cell.notices.send(Notice::Ended);
        }
        Ok(())
    }

    /// Brings this node's copy of table `id` (if it keeps one and does not
    /// own the table) up to the stored table, after another node changed it.
    pub async fn refresh_mirror(&self, id: &str) {
        let found = self.tables.lock().ok().and_then(|t| t.get(id).cloned());
        let Some(cell) = found else {
            return;
        };
        if cell.owned() {
            return;
        }
        let mut t = cell.table.lock().await;
        if cell.owned() {
            return;
        }
        if let Err(e) = self.follow_store(&mut t, &cell).await {
            tracing::warn!(table = %t.id, error = %e, "cannot follow a table of another node");
        }
    }

    /// Brings every copy of tables other nodes own up to date.
    pub async fn refresh_mirrors(&self) {
        let ids: Vec<String> = self
            .tables
            .lock()
            .map(|t| t.keys().cloned().collect())
            .unwrap_or_default();
        for id in ids {
            self.refresh_mirror(&id).await;
        }
    }

    /// Asks the database which of the tables this node thinks it owns it
    /// still owns (after its heartbeat lapsed); the others become copies.
    pub async fn recheck_ownership(&self) {
        let cells: Vec<Arc<TableCell>> = self
            .tables
            .lock()
            .map(|t| t.values().filter(|c| c.owned()).cloned().collect())
            .unwrap_or_default();
        for cell in cells {
            let id = cell.table.lock().await.id.clone();
            if let Ok(false) = self.owns_stored(&id).await {
                cell.owned.store(false, Ordering::SeqCst);
            }
        }
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

    /// Reloads the unfinished tables changed within `recent` by replaying
    /// their records, and restarts AI seats that are to move; older ones are
    /// loaded when first asked for. Returns how many were loaded.
    pub async fn reload(self: &Arc<Self>, recent: Duration) -> Result<usize, StoreError> {
        if self.cluster().is_some() {
            // Nodes take over the tables of dead nodes as they go (see `cluster`).
            return Ok(0);
        }
        let since = now() - recent.as_secs() as i64;
        let stored = self.store.unfinished_tables(since).await?;
        let count = stored.len();
        for s in stored {
            let id = s.id.clone();
            let table = Table::from_stored(s)?;
            let owner = Owner::Table(Arc::from(id.as_str()));
            let cell = self.insert(id, TableCell::new(table, true, owner));
            self.continue_loaded(&cell).await;
        }
        Ok(count)
    }

    /// Moves a table just loaded on: pending chance and forced actions (a
    /// table stored by an older server), its inactivity rule, its AI seats.
    async fn continue_loaded(self: &Arc<Self>, cell: &Arc<TableCell>) {
        if !cell.owned() {
            return;
        }
        let mut t = cell.table.lock().await;
        // The running turn begins again now: time while no node held the
        // table is not charged.
        t.resume_clock(mono_ms());
        cell.set_deadline(&t);
        if let Err(e) = self.advance_stored(&mut t, cell).await {
            tracing::error!(table = %t.id, error = %e, "cannot continue a loaded table");
        }
        self.apply_inactivity(&mut t, cell).await;
        self.maybe_start_ai(&mut t, cell);
    }

    fn insert(&self, id: String, cell: Arc<TableCell>) -> Arc<TableCell> {
        let mut tables = self.tables.lock().expect("table map");
        tables.entry(id).or_insert(cell).clone()
    }

    /// The live table with this id, loading it from the store if needed.
    pub async fn table(self: &Arc<Self>, id: &str) -> Result<Arc<TableCell>, ApiError> {
        let not_found = || ApiError::NotFound(format!("no table `{id}`"));
        if !is_table_id(id) {
            return Err(not_found());
        }
        let found = self.tables.lock().expect("table map").get(id).cloned();
        if let Some(cell) = found {
            cell.touch();
            return Ok(cell);
        }
        let owned = self.owns_stored(id).await?;
        let stored = self.store.load_table(id).await?.ok_or_else(not_found)?;
        let mut table = Table::from_stored(stored)?;
        if table.is_over() {
            table.rematch = self.store.find_rematch(id).await?;
        }
        // The creator's address is not stored: the table is an owner of its own.
        let owner = Owner::Table(Arc::from(id));
        let cell = self.insert(id.to_string(), TableCell::new(table, owned, owner));
        self.continue_loaded(&cell).await;
        Ok(cell)
    }

    /// Forgets tables nobody has looked at or watched for `idle`, with no AI
    /// thinking (they stay in the store and are loaded again on demand).
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
            let quiet = match cell.table.try_lock() {
                Ok(t) => !t.ai_busy,
                Err(_) => false,
            };
            if old && quiet && cell.notices.receiver_count() == 0 {
                self.tables.lock().expect("table map").remove(&id);
            }
        }
    }

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
        let id = crate::token::new_table_id();
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
        if let (Some(key), Some(hash)) = (request.key.as_deref(), key_hash)
            && let Some(seat) = t.seats.iter().find(|s| s.join_key_hash == Some(hash))
        {
            let token = keyed_token(key, &t.id, seat.seat);
            if seat.token_hash == Some(hash_token(&token)) {
                return Ok(Joined {
                    seat: seat.seat,
                    token,
                });
            }
        }
        if t.is_over() {
            return Err(ApiError::GameOver);
        }
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
        // The opening roll, now that every seat is taken. If storing it fails
        // the seat stays taken and the roll is made when the table is next loaded.
        if let Err(e) = self.advance_stored(&mut t, cell).await {
            tracing::error!(table = %t.id, error = %e, "cannot start the game");
        }
        // The clock starts when the table is full.
        t.resume_clock(mono_ms());
        cell.set_deadline(&t);
        if t.clock.is_some() {
            let _ = cell.notices.send(Notice::Seats);
        }
        self.maybe_start_ai(&mut t, cell);
        Ok(Joined { seat, token })
    }

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

    fn forget_open(&self, id: &str) {
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
    async fn flag_fell(
        self: &Arc<Self>,
        t: &mut Table,
        cell: &Arc<TableCell>,
        seat: usize,
    ) -> Result<(), ApiError> {
        tracing::debug!(table = %t.id, seat, "flag fell");
        self.give_up(t, cell, seat, Resignation::Match, EndReason::Time)
            .await
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
    async fn apply_inactivity(self: &Arc<Self>, t: &mut Table, cell: &Arc<TableCell>) {
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
    async fn commit(
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
        if t.ai_busy
            || t.ai_failed.is_some()
            || self.stopping()
            || !cell.owned()
            || t.ai_to_move().is_none()
        {
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

    /// Moves for AI seats until a person is to move or the game ends. Each
    /// move waits for a slot of the fair scheduler (the cheap or the
    /// expensive lane, by agent); a move that cannot be made or stored is
    /// tried again after a pause, [`AI_ATTEMPTS`] times in all, then the
    /// AI stops and the table's viewers are told (`ai_failed`).
    async fn run_ai(self: &Arc<Self>, cell: &Arc<TableCell>) {
        let mut attempts = Attempts::new(AI_ATTEMPTS, AI_RETRY_PAUSE);
        loop {
            let (state, version, seat, agent, id) = {
                let mut t = cell.table.lock().await;
                match t.ai_to_move() {
                    Some((seat, agent)) if !self.stopping() && cell.owned() => (
                        t.state.clone(),
                        t.version,
                        seat,
                        agent,
                        Arc::from(t.id.as_str()),
                    ),
                    _ => {
                        t.ai_busy = false;
                        return;
                    }
                }
            };
            let lane = Lane::of_agent(&agent);
            let pending = self.thinking.enqueue(lane, cell.owner.clone(), id);
            let Ok(slot) = pending.slot().await else {
                cell.table.lock().await.ai_busy = false;
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
            drop(slot);
            let mut t = cell.table.lock().await;
            let writable_before = self.health.report().database_error.is_none();
            let outcome = match thinking {
                Ok(Ok(choice)) => {
                    if t.version != version
                        || t.ending.is_some()
                        || self.stopping()
                        || !cell.owned()
                    {
                        continue;
                    }
                    match t.plan(seat, &ActionInput::Text(choice.text), true) {
                        Ok(events) => self.commit(&mut t, cell, events).await.map(|_| ()),
                        Err(e) => Err(e),
                    }
                }
                Ok(Err(e)) => Err(ApiError::Internal(format!("no AI move: {e}"))),
                Err(e) => Err(ApiError::Internal(format!("the AI's thinking failed: {e}"))),
            };
            let Err(e) = outcome else {
                attempts = Attempts::new(AI_ATTEMPTS, AI_RETRY_PAUSE);
                continue;
            };
            if !writable_before {
                // Refused at once because the database takes no writes:
                // not the move's fault, and no attempt is counted. Wait
                // until a write or the probe commits again, then think again.
                tracing::debug!(table = %t.id, seat, error = %e, "AI move waits for the database");
                drop(t);
                self.wait_for_database().await;
                continue;
            }
            match attempts.failed() {
                Some(pause) => {
                    tracing::warn!(table = %t.id, seat, error = %e, attempt = attempts.failures(), "AI move not applied; retrying");
                    drop(t);
                    tokio::time::sleep(pause).await;
                    self.wait_for_database().await;
                }
                None => {
                    tracing::error!(table = %t.id, seat, error = %e, attempts = attempts.failures(), "AI move not applied; the AI stops");
                    t.ai_failed = Some(seat);
                    t.ai_busy = false;
                    let _ = cell.notices.send(Notice::AiFailed(seat));
                    return;
                }
            }
        }
    }

    /// Waits until the database takes writes again (or the node stops).
    async fn wait_for_database(&self) {
        while self.health.report().database_error.is_some() && !self.stopping() {
            tokio::time::sleep(crate::health::PROBE_INTERVAL / 4).await;
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

    /// The ids of unfinished tables of a player.
    /// The ids of tables listed in the lobby (see [`Store::listed_tables`]).
    pub async fn listed_tables(
        &self,
        live: bool,
        page: u32,
        size: u32,
    ) -> Result<Vec<String>, ApiError> {
        Ok(self.store.listed_tables(live, page, size).await?)
    }

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
#[cfg(test)]
mod ai_failure_tests;

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
