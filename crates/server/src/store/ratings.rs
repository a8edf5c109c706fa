//! Storage of ratings, shared by every node of a database: a finished rated
//! table is rated in one transaction with a row keyed by its id, so it is
//! rated exactly once however often (and on however many nodes) it is tried.

use super::{StoreFuture, StoredTable};
use crate::rating::Rating;
use crate::token::TokenHash;

/// One seat of a finished rated table.
#[derive(Clone, Debug, PartialEq)]
pub struct RatedSeat {
    /// The account's player hash (`None`: a guest or a deleted account).
    pub player: Option<TokenHash>,
    /// The place, from 0 (first); equal returns share a place.
    pub place: usize,
}

/// A finished rated table to rate.
#[derive(Clone, Debug, PartialEq)]
pub struct RatedGame {
    /// The table's id (rated once).
    pub table_id: String,
    /// The pool.
    pub pool: String,
    /// When the game ended (Unix seconds).
    pub at: i64,
    /// The seats with their places; none if the table ended unplayed.
    pub seats: Vec<RatedSeat>,
}

/// An account's rating in one pool.
#[derive(Clone, Debug, PartialEq)]
pub struct StoredRating {
    /// The pool.
    pub pool: String,
    /// The rating.
    pub rating: Rating,
    /// Rated games played in the pool.
    pub games: i64,
    /// When the last one ended (Unix seconds).
    pub last_played: i64,
}

/// One rated game of an account.
#[derive(Clone, Debug, PartialEq)]
pub struct HistoryEntry {
    /// The pool.
    pub pool: String,
    /// The table.
    pub table_id: String,
    /// When it was played (Unix seconds).
    pub at: i64,
    /// The rating after it.
    pub rating: f64,
    /// The deviation after it.
    pub deviation: f64,
    /// The rating's change.
    pub change: f64,
}

/// One account of a pool's leaderboard.
#[derive(Clone, Debug, PartialEq)]
pub struct LeaderRow {
    /// The account's name.
    pub name: String,
    /// Its rating in the pool.
    pub rating: StoredRating,
}

/// Durable storage of ratings. Every method is atomic.
pub trait RatingStore: Send + Sync + 'static {
    /// Rates a finished table once: in one transaction, records its id
    /// and updates the ratings (with a history row each) of the seats that
    /// are accounts, if two or more are (`rating::after_game` from the
    /// ratings before). Returns whether this call rated it (false: it was
    /// rated already).
    fn rate_game<'a>(&'a self, game: &'a RatedGame) -> StoreFuture<'a, bool>;

    /// The ids of finished (or ended) rated tables changed at or after
    /// `since` that are not rated yet, the oldest first, at most `limit`.
    fn unrated_tables(&self, since: i64, limit: u32) -> StoreFuture<'_, Vec<String>>;

    /// An account's ratings, per pool.
    fn ratings_of<'a>(&'a self, account_id: &'a str) -> StoreFuture<'a, Vec<StoredRating>>;

    /// The rating in `pool` of the account with this player hash, if it has one.
    fn rating_of_player<'a>(
        &'a self,
        pool: &'a str,
        player: &'a TokenHash,
    ) -> StoreFuture<'a, Option<StoredRating>>;

    /// An account's latest `limit` rated games, the latest first.
    fn history_of<'a>(
        &'a self,
        account_id: &'a str,
        limit: u32,
    ) -> StoreFuture<'a, Vec<HistoryEntry>>;

    /// The latest `limit` tables with a seat of this player that ended with
    /// returns (played out, resigned or forfeited), the latest first, with
    /// their seats and without actions.
    fn finished_games_of<'a>(
        &'a self,
        player: &'a TokenHash,
        limit: u32,
    ) -> StoreFuture<'a, Vec<StoredTable>>;

    /// The unfinished tables with a seat of this player: id and game.
    fn playing_of<'a>(&'a self, player: &'a TokenHash) -> StoreFuture<'a, Vec<(String, String)>>;

    /// A pool's accounts that played at or after `since`, provisional ones
    /// (a deviation above [`crate::rating::PROVISIONAL_DEVIATION`]) or the
    /// others, the best rated first, at most `limit`.
    fn leaderboard<'a>(
        &'a self,
        pool: &'a str,
        since: i64,
        provisional: bool,
        limit: u32,
    ) -> StoreFuture<'a, Vec<LeaderRow>>;
}

/// Whether a stored table ending (JSON) carries returns: the condition for
/// a table that ended early to count as a game. The ending is stored as
/// `serde_json` writes it (no spaces).
pub(super) const ENDED_WITH_RETURNS: &str =
    "(finished OR (ending IS NOT NULL AND ending LIKE '%\"returns\":[%'))";
