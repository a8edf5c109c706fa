//! Storage of tables, seats and actions behind a small trait: SQLite (one
//! file, the default) or PostgreSQL (several nodes on one database).
//!
//! Each store (tables, accounts, ratings, lobby) is written once for both
//! databases; what differs between them is in `dialect.rs`.

mod accounts;
mod dialect;
mod group_commit;
mod lobby;
mod postgres;
mod ratings;
#[cfg(test)]
mod ratings_tests;
mod rows;
mod sqlite;
mod tables;
#[cfg(test)]
mod tests;

pub use accounts::{AccountStore, SESSION_SECONDS, StoredAccount};
pub use dialect::table_channel;
pub use lobby::{Accepted, LobbyStore, PairPicker, QueueEntry, SeekPlayer, StoredSeek};
pub use postgres::PgStore;
pub use ratings::{HistoryEntry, LeaderRow, RatedGame, RatedSeat, RatingStore, StoredRating};
pub use sqlite::SqliteStore;

use crate::dice::ServerSeed;
use crate::token::TokenHash;
use serde::{Deserialize, Serialize};
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
    /// The database refused a write that breaks one of its constraints
    /// (e.g. a second rematch of one table): the database itself is fine.
    #[error("refused by the database: {0}")]
    Constraint(String),
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
    /// The seat's own dice seed (public; empty if none was given).
    pub seed: Option<String>,
    /// The hash of the idempotency key the seat was joined with.
    pub join_key_hash: Option<TokenHash>,
    /// The name of the account that took the seat ([`DELETED_PLAYER`] once
    /// the account is deleted); `None` for guests.
    pub account: Option<String>,
    /// When the server rolls for this seat at a cube decision.
    pub auto_roll: AutoRoll,
}

/// When the server rolls for a seat at a cube decision instead of asking
/// "double or roll?".
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AutoRoll {
    /// Always ask.
    Ask,
    /// Roll when doubling cannot gain (a dead cube); the default.
    #[default]
    Useless,
    /// Always roll: never ask.
    Always,
}

impl AutoRoll {
    /// The stored and JSON word.
    pub fn as_str(self) -> &'static str {
        match self {
            AutoRoll::Ask => "ask",
            AutoRoll::Useless => "useless",
            AutoRoll::Always => "always",
        }
    }

    /// The setting of a stored or given word.
    pub fn parse(word: &str) -> Option<Self> {
        match word {
            "ask" => Some(AutoRoll::Ask),
            "useless" => Some(AutoRoll::Useless),
            "always" => Some(AutoRoll::Always),
            _ => None,
        }
    }
}

/// What a seat of a deleted account shows as its name and account.
pub const DELETED_PLAYER: &str = "deleted player";

impl StoredSeat {
    /// A seat nobody has taken, or an AI seat.
    pub fn new(seat: usize, kind: SeatKind) -> Self {
        StoredSeat {
            seat,
            kind,
            name: None,
            token_hash: None,
            player_hash: None,
            joined_at: None,
            seed: None,
            join_key_hash: None,
            account: None,
            auto_roll: AutoRoll::default(),
        }
    }
}

/// Why a table ended before its game was played out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndReason {
    /// A seat resigned.
    Resigned,
    /// A seat did not act in time.
    Forfeit,
    /// The creator closed the table before it started.
    Closed,
    /// Nobody took the open seats in time.
    Abandoned,
    /// A seat's clock ran out (its flag fell).
    Time,
}

/// How a table ended before its game was played out.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Ending {
    /// Why.
    pub reason: EndReason,
    /// The seat that resigned or forfeited.
    #[serde(default)]
    pub seat: Option<usize>,
    /// The returns per seat, if the game counts (resign, forfeit).
    #[serde(default)]
    pub returns: Option<Vec<f64>>,
}

/// What happens to a seat that does not act in time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Takeover {
    /// It loses the game.
    Forfeit,
    /// An AI (`ai:medium`) plays on for it.
    Ai,
}

/// A table's inactivity rule: a seat to move that does nothing for
/// `seconds` forfeits or is taken over; a table still waiting for players
/// after `seconds` without a change is abandoned.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Inactivity {
    /// Seconds allowed.
    pub seconds: u64,
    /// What follows.
    pub then: Takeover,
}

impl Default for Inactivity {
    fn default() -> Self {
        Inactivity {
            seconds: 86_400,
            then: Takeover::Forfeit,
        }
    }
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
    /// The milliseconds the seat took for it, on a table with a clock (none
    /// for an action the server played).
    pub think_ms: Option<u64>,
    /// Every seat's milliseconds left after it, on a table with a clock.
    pub clock: Option<Vec<i64>>,
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
    /// The secret server seed of the dice (none for tables of older servers).
    pub server_seed: Option<ServerSeed>,
    /// How the table ended, if it ended before the game was over.
    pub ending: Option<Ending>,
    /// The inactivity rule.
    pub inactivity: Inactivity,
    /// Whether the creator shows the table in the lobby's lists.
    pub listed: bool,
    /// The finished table this one is the rematch of (at most one per table).
    pub rematch_of: Option<String>,
    /// Whether the game is rated (between signed-in accounts).
    pub rated: bool,
    /// The time control, if the table has a clock.
    pub clock: Option<crate::clock::TimeControl>,
}

/// A table's analysis as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredAnalysis {
    /// The table's version that was analysed.
    pub version: u64,
    /// The analysis as JSON.
    pub analysis: String,
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

    /// Every unfinished table changed at or after `since` (Unix seconds),
    /// with seats and actions.
    fn unfinished_tables(&self, since: i64) -> StoreFuture<'_, Vec<StoredTable>>;

    /// Ends a table stored at `version` that is not finished, or gives the
    /// reason of one its last action finished (a resignation, which the
    /// game's rules end); [`StoreError::Conflict`] otherwise.
    fn end_table<'a>(
        &'a self,
        table_id: &'a str,
        version: u64,
        ending: &'a Ending,
    ) -> StoreFuture<'a, ()>;

    /// Stores a table's analysis (JSON) of its record at `version`,
    /// replacing any earlier one.
    fn save_analysis<'a>(
        &'a self,
        table_id: &'a str,
        version: u64,
        analysis: &'a str,
    ) -> StoreFuture<'a, ()>;

    /// A table's stored analysis, if any.
    fn load_analysis<'a>(&'a self, table_id: &'a str) -> StoreFuture<'a, Option<StoredAnalysis>>;

    /// Replaces a taken seat (an AI taking over a person's seat).
    fn replace_seat<'a>(&'a self, table_id: &'a str, seat: &'a StoredSeat) -> StoreFuture<'a, ()>;

    /// One table with seats and actions, if it exists.
    fn load_table<'a>(&'a self, table_id: &'a str) -> StoreFuture<'a, Option<StoredTable>>;

    /// One table with seats and only the actions after version `after`
    /// (to bring a copy up to date), if it exists.
    fn load_table_after<'a>(
        &'a self,
        table_id: &'a str,
        after: u64,
    ) -> StoreFuture<'a, Option<StoredTable>> {
        Box::pin(async move {
            let mut table = self.load_table(table_id).await?;
            if let Some(t) = table.as_mut() {
                let skip = (after as usize).min(t.actions.len());
                t.actions.drain(..skip);
            }
            Ok(table)
        })
    }

    /// The ids of unfinished tables where this player sits or that he created.
    fn player_tables<'a>(&'a self, player: &'a TokenHash) -> StoreFuture<'a, Vec<String>>;

    /// The ids of unfinished tables their creators list in the lobby, the
    /// latest changed first, `size` from the page `page` on: with an open
    /// seat, or (`live`) with every seat taken.
    fn listed_tables(&self, live: bool, page: u32, size: u32) -> StoreFuture<'_, Vec<String>>;

    /// The id of the rematch of table `table_id`, if one was created.
    fn find_rematch<'a>(&'a self, table_id: &'a str) -> StoreFuture<'a, Option<String>>;

    /// Makes one small write and commits it: whether the database takes
    /// writes now (for the health check).
    fn probe(&self) -> StoreFuture<'_, ()>;

    /// Flushes and closes the store.
    fn close(&self) -> StoreFuture<'_, ()>;
}

impl From<sqlx::Error> for StoreError {
    fn from(e: sqlx::Error) -> Self {
        use sqlx::error::ErrorKind;
        match &e {
            sqlx::Error::Database(d) if !matches!(d.kind(), ErrorKind::Other) => {
                StoreError::Constraint(e.to_string())
            }
            _ => StoreError::Database(e.to_string()),
        }
    }
}

/// The migrations not applied yet to a database at schema version
/// `applied`, each with the version it makes; a database newer than this
/// server (its `migrations`) is refused.
fn pending_migrations(
    applied: i64,
    migrations: &'static [&'static str],
) -> Result<impl Iterator<Item = (i64, &'static str)>, StoreError> {
    if applied as usize > migrations.len() {
        return Err(StoreError::Corrupt(format!(
            "the database has schema version {applied}, newer than this server ({})",
            migrations.len()
        )));
    }
    Ok((1..)
        .zip(migrations)
        .skip(applied as usize)
        .map(|(v, sql)| (v, *sql)))
}

/// Unix time in seconds.
pub fn unix_now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

/// Unix time in milliseconds.
pub fn unix_now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

/// Whether `db` (the `--db` setting) names a PostgreSQL database rather than a SQLite file.
pub fn is_postgres_url(db: &str) -> bool {
    db.starts_with("postgres://") || db.starts_with("postgresql://")
}

/// Creates a new, empty database with a random name on the PostgreSQL
/// server of `url` (for tests and trials) and returns its URL.
pub async fn fresh_database(url: &str) -> Result<String, StoreError> {
    use sqlx::Connection;
    let name = format!("spelbord_{}", &crate::token::new_token()[..16]);
    let mut admin = sqlx::PgConnection::connect(url).await?;
    sqlx::raw_sql(sqlx::AssertSqlSafe(format!("CREATE DATABASE {name}")))
        .execute(&mut admin)
        .await?;
    admin.close().await?;
    let (base, query) = match url.split_once('?') {
        Some((base, query)) => (base, format!("?{query}")),
        None => (url, String::new()),
    };
    let rest = base.split_once("://").map_or(base, |(_, rest)| rest);
    let server = match rest.split_once('/') {
        Some((server, _)) => server,
        None => rest,
    };
    let scheme = base.split_once("://").map_or("postgres", |(s, _)| s);
    Ok(format!("{scheme}://{server}/{name}{query}"))
}

/// A fresh database for a PostgreSQL test on the server that
/// `SPELBORD_TEST_PG` names (its URL); without it, `None`, after saying that
/// the test (named after its thread, as the test harness names it) was
/// skipped.
pub async fn test_database() -> Result<Option<String>, StoreError> {
    let Ok(server) = std::env::var("SPELBORD_TEST_PG") else {
        let thread = std::thread::current();
        say_skipped(
            thread.name().unwrap_or("(unnamed)"),
            "a PostgreSQL test: set SPELBORD_TEST_PG (see .ci/postgres.sh)",
        );
        return Ok(None);
    };
    fresh_database(&server).await.map(Some)
}

/// Says on standard error that test `test` was skipped, and why: straight
/// to the stream, past the test harness, which keeps back what `eprintln!`
/// writes in a passing test.
pub fn say_skipped(test: &str, why: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "SKIPPED: {test}: {why}");
}
