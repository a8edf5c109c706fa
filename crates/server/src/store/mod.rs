//! Storage of tables, seats and actions behind a small trait, so that a
//! PostgreSQL store can follow the SQLite one.

mod group_commit;
mod sqlite;

pub use sqlite::SqliteStore;

use crate::token::TokenHash;
use spelbord_engine::Options;
use std::future::Future;
use std::pin::Pin;

/// A boxed future returned by [`Store`] methods.
pub type StoreFuture<'a, T> = Pin<Box<dyn Future<Output = Result<T, StoreError>> + Send + 'a>>;

/// What can go wrong in storage.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The stored table changed meanwhile (a version or seat did not match).
    #[error("the stored table changed meanwhile: {0}")]
    Conflict(String),
    /// The database failed.
    #[error("database error: {0}")]
    Database(String),
    /// Stored data cannot be read back.
    #[error("stored data is damaged: {0}")]
    Corrupt(String),
}

/// Who sits in a seat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SeatKind {
    /// Nobody yet: anyone with the table's link may join.
    Open,
    /// A person who joined and holds the seat's token.
    Human,
    /// An agent of the server, by name (e.g. `random`, `ai:hard`).
    Ai(String),
}

/// One seat as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredSeat {
    /// The seat's number, from 0.
    pub seat: usize,
    /// Who sits there.
    pub kind: SeatKind,
    /// A human's display name.
    pub name: Option<String>,
    /// The hash of the seat's secret token (humans only).
    pub token_hash: Option<TokenHash>,
    /// The hash of the player's key, if the player gave one.
    pub player_hash: Option<TokenHash>,
    /// When the seat was taken (Unix seconds).
    pub joined_at: Option<i64>,
}

/// One action of a table's record as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredAction {
    /// The table's version after this action (the first action gives 1).
    pub version: u64,
    /// The acting seat; `None` for chance.
    pub seat: Option<usize>,
    /// The action in the game's notation.
    pub text: String,
    /// Whether the server played it (chance, a forced action or an AI move).
    pub auto: bool,
}

/// A whole table as stored.
#[derive(Clone, Debug, PartialEq)]
pub struct StoredTable {
    /// The table's id.
    pub id: String,
    /// The game's id.
    pub game: String,
    /// Every option's value.
    pub options: Options,
    /// Whether forced single actions are played by the server.
    pub auto_forced: bool,
    /// The hash of the creator's player key, if given.
    pub creator_hash: Option<TokenHash>,
    /// The number of actions in the record.
    pub version: u64,
    /// The returns per seat once the game is over.
    pub result: Option<Vec<f64>>,
    /// The seats in order.
    pub seats: Vec<StoredSeat>,
    /// Every action in order.
    pub actions: Vec<StoredAction>,
    /// When the table was created (Unix seconds).
    pub created_at: i64,
    /// When it last changed (Unix seconds).
    pub updated_at: i64,
}

/// Durable storage for the server. Every method is atomic: it either
/// happens completely or not at all.
pub trait Store: Send + Sync + 'static {
    /// Stores a new table with its seats and its first actions.
    fn create_table<'a>(&'a self, table: &'a StoredTable) -> StoreFuture<'a, ()>;

    /// Appends actions to a table whose stored version is `base_version`,
    /// moving it to the last action's version, and marks it finished with
    /// `result` if given; [`StoreError::Conflict`] if the version differs.
    fn append_actions<'a>(
        &'a self,
        table_id: &'a str,
        base_version: u64,
        actions: &'a [StoredAction],
        result: Option<&'a [f64]>,
    ) -> StoreFuture<'a, ()>;

    /// Gives an open seat to a person; [`StoreError::Conflict`] if it is not open.
    fn claim_seat<'a>(&'a self, table_id: &'a str, seat: &'a StoredSeat) -> StoreFuture<'a, ()>;

    /// Every table whose game is not over, with seats and actions.
    fn unfinished_tables(&self) -> StoreFuture<'_, Vec<StoredTable>>;

    /// One table with seats and actions, if it exists.
    fn load_table<'a>(&'a self, table_id: &'a str) -> StoreFuture<'a, Option<StoredTable>>;

    /// The ids of unfinished tables where this player sits or that he created.
    fn player_tables<'a>(&'a self, player: &'a TokenHash) -> StoreFuture<'a, Vec<String>>;

    /// Flushes and closes the store.
    fn close(&self) -> StoreFuture<'_, ()>;
}
