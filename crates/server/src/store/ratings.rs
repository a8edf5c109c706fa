//! Storage of ratings, shared by every node of a database: a finished rated
//! table is rated in one transaction with a row keyed by its id, so it is
//! rated exactly once however often (and on however many nodes) it is tried.
//! Written once for SQLite and PostgreSQL (the macro `ratings!`,
//! instantiated for both stores): two PostgreSQL nodes rating the same
//! table meet at its row in `rated_games`, and the ratings read are locked
//! (in the order of the accounts' ids) until the transaction ends; SQLite's
//! one writer rates one table at a time.

use super::dialect::Dialect;
use super::rows::{seat_from_row, table_from_row};
use super::{PgStore, SqliteStore, StoreError, StoreFuture, StoredTable, unix_now};
use crate::rating::{self, NEW_PLAYER, PROVISIONAL_DEVIATION, Rating};
use crate::token::TokenHash;
use sqlx::Row;

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

const RATING_COLUMNS: &str = "ratings.pool, ratings.rating, ratings.deviation, \
     ratings.volatility, ratings.games, ratings.last_played";

/// Implements [`RatingStore`] for `$store`.
macro_rules! ratings {
    ($store:ty) => {
        type Db = <$store as Dialect>::Db;
        type DbRow = <Db as sqlx::Database>::Row;

        fn rating_from_row(row: &DbRow) -> Result<StoredRating, StoreError> {
            Ok(StoredRating {
                pool: row.try_get("pool")?,
                rating: Rating {
                    rating: row.try_get("rating")?,
                    deviation: row.try_get("deviation")?,
                    volatility: row.try_get("volatility")?,
                },
                games: row.try_get("games")?,
                last_played: row.try_get("last_played")?,
            })
        }

        /// The rating of account `id` in `pool` (a new player's if it has
        /// none), locked until the transaction `tx` ends.
        async fn locked_rating(
            tx: &mut <Db as sqlx::Database>::Connection,
            id: &str,
            pool: &str,
        ) -> Result<Rating, StoreError> {
            // A row to lock, as the new player's rating.
            sqlx::query(
                "INSERT INTO ratings (account_id, pool, rating, deviation, volatility, \
                 games, last_played) VALUES ($1, $2, $3, $4, $5, 0, 0) \
                 ON CONFLICT DO NOTHING",
            )
            .bind(id)
            .bind(pool)
            .bind(NEW_PLAYER.rating)
            .bind(NEW_PLAYER.deviation)
            .bind(NEW_PLAYER.volatility)
            .execute(&mut *tx)
            .await?;
            let sql = format!(
                "SELECT rating, deviation, volatility FROM ratings \
                 WHERE account_id = $1 AND pool = $2{}",
                <$store as Dialect>::LOCK_ROWS
            );
            let row = sqlx::query(sqlx::AssertSqlSafe(sql))
                .bind(id)
                .bind(pool)
                .fetch_one(&mut *tx)
                .await?;
            Ok(Rating {
                rating: row.try_get("rating")?,
                deviation: row.try_get("deviation")?,
                volatility: row.try_get("volatility")?,
            })
        }

        fn history_from_row(row: &DbRow) -> Result<HistoryEntry, StoreError> {
            Ok(HistoryEntry {
                pool: row.try_get("pool")?,
                table_id: row.try_get("table_id")?,
                at: row.try_get("played_at")?,
                rating: row.try_get("rating")?,
                deviation: row.try_get("deviation")?,
                change: row.try_get("change")?,
            })
        }

        impl RatingStore for $store {
            fn rate_game<'a>(&'a self, game: &'a RatedGame) -> StoreFuture<'a, bool> {
                Box::pin(async move {
                    let mut tx = self.writer().begin().await?;
                    let marked = sqlx::query(
                        "INSERT INTO rated_games (table_id, pool, rated_at) VALUES ($1, $2, $3) \
                         ON CONFLICT DO NOTHING",
                    )
                    .bind(&game.table_id)
                    .bind(&game.pool)
                    .bind(unix_now())
                    .execute(&mut *tx)
                    .await?;
                    if marked.rows_affected() == 0 {
                        return Ok(false);
                    }
                    // The seats that are accounts (each once), in the order of their ids.
                    let mut players: Vec<(String, usize)> = Vec::new();
                    for seat in &game.seats {
                        let Some(hash) = seat.player else { continue };
                        let id: Option<String> =
                            sqlx::query_scalar("SELECT id FROM accounts WHERE player_hash = $1")
                                .bind(hash.to_vec())
                                .fetch_optional(&mut *tx)
                                .await?;
                        if let Some(id) = id
                            && !players.iter().any(|(p, _)| *p == id)
                        {
                            players.push((id, seat.place));
                        }
                    }
                    players.sort();
                    if players.len() >= 2 {
                        let mut before = Vec::with_capacity(players.len());
                        for (id, _) in &players {
                            before.push(locked_rating(&mut tx, id, &game.pool).await?);
                        }
                        let places: Vec<usize> = players.iter().map(|(_, p)| *p).collect();
                        let after = rating::after_game(&before, &places);
                        for (((id, _), old), new) in players.iter().zip(&before).zip(&after) {
                            sqlx::query(
                                "INSERT INTO ratings (account_id, pool, rating, deviation, \
                                 volatility, games, last_played) \
                                 VALUES ($1, $2, $3, $4, $5, 1, $6) \
                                 ON CONFLICT (account_id, pool) DO UPDATE SET rating = $3, \
                                 deviation = $4, volatility = $5, games = ratings.games + 1, \
                                 last_played = $6",
                            )
                            .bind(id)
                            .bind(&game.pool)
                            .bind(new.rating)
                            .bind(new.deviation)
                            .bind(new.volatility)
                            .bind(game.at)
                            .execute(&mut *tx)
                            .await?;
                            sqlx::query(
                                "INSERT INTO rating_history (account_id, pool, table_id, \
                                 played_at, rating, deviation, change) \
                                 VALUES ($1, $2, $3, $4, $5, $6, $7)",
                            )
                            .bind(id)
                            .bind(&game.pool)
                            .bind(&game.table_id)
                            .bind(game.at)
                            .bind(new.rating)
                            .bind(new.deviation)
                            .bind(new.rating - old.rating)
                            .execute(&mut *tx)
                            .await?;
                        }
                    }
                    tx.commit().await?;
                    Ok(true)
                })
            }

            fn unrated_tables(&self, since: i64, limit: u32) -> StoreFuture<'_, Vec<String>> {
                Box::pin(async move {
                    let ids = sqlx::query_scalar(
                        "SELECT id FROM game_tables WHERE rated = TRUE AND updated_at >= $1 \
                         AND (finished = TRUE OR ending IS NOT NULL) \
                         AND NOT EXISTS (SELECT 1 FROM rated_games \
                         WHERE table_id = game_tables.id) \
                         ORDER BY updated_at LIMIT $2",
                    )
                    .bind(since)
                    .bind(i64::from(limit))
                    .fetch_all(self.reader())
                    .await?;
                    Ok(ids)
                })
            }

            fn ratings_of<'a>(&'a self, account_id: &'a str) -> StoreFuture<'a, Vec<StoredRating>> {
                Box::pin(async move {
                    let sql = format!(
                        "SELECT {RATING_COLUMNS} FROM ratings WHERE account_id = $1 \
                         ORDER BY pool"
                    );
                    sqlx::query(sqlx::AssertSqlSafe(sql))
                        .bind(account_id)
                        .fetch_all(self.reader())
                        .await?
                        .iter()
                        .map(rating_from_row)
                        .collect()
                })
            }

            fn rating_of_player<'a>(
                &'a self,
                pool: &'a str,
                player: &'a TokenHash,
            ) -> StoreFuture<'a, Option<StoredRating>> {
                Box::pin(async move {
                    let sql = format!(
                        "SELECT {RATING_COLUMNS} FROM ratings JOIN accounts \
                         ON accounts.id = ratings.account_id \
                         WHERE pool = $1 AND player_hash = $2"
                    );
                    let row = sqlx::query(sqlx::AssertSqlSafe(sql))
                        .bind(pool)
                        .bind(player.to_vec())
                        .fetch_optional(self.reader())
                        .await?;
                    row.as_ref().map(rating_from_row).transpose()
                })
            }

            fn history_of<'a>(
                &'a self,
                account_id: &'a str,
                limit: u32,
            ) -> StoreFuture<'a, Vec<HistoryEntry>> {
                Box::pin(async move {
                    let rows = sqlx::query(
                        "SELECT pool, table_id, played_at, rating, deviation, change \
                         FROM rating_history WHERE account_id = $1 \
                         ORDER BY played_at DESC, table_id LIMIT $2",
                    )
                    .bind(account_id)
                    .bind(i64::from(limit))
                    .fetch_all(self.reader())
                    .await?;
                    rows.iter().map(history_from_row).collect()
                })
            }

            fn finished_games_of<'a>(
                &'a self,
                player: &'a TokenHash,
                limit: u32,
            ) -> StoreFuture<'a, Vec<StoredTable>> {
                Box::pin(async move {
                    let sql = format!(
                        "SELECT * FROM game_tables WHERE {ENDED_WITH_RETURNS} AND id IN \
                         (SELECT table_id FROM seats WHERE player_hash = $1) \
                         ORDER BY updated_at DESC, id LIMIT $2"
                    );
                    let rows = sqlx::query(sqlx::AssertSqlSafe(sql))
                        .bind(player.to_vec())
                        .bind(i64::from(limit))
                        .fetch_all(self.reader())
                        .await?;
                    let mut tables = Vec::with_capacity(rows.len());
                    for row in &rows {
                        let id: String = row.try_get("id")?;
                        let seats =
                            sqlx::query("SELECT * FROM seats WHERE table_id = $1 ORDER BY seat")
                                .bind(&id)
                                .fetch_all(self.reader())
                                .await?
                                .iter()
                                .map(seat_from_row)
                                .collect::<Result<Vec<_>, _>>()?;
                        tables.push(table_from_row(row, seats, Vec::new())?);
                    }
                    Ok(tables)
                })
            }

            fn playing_of<'a>(
                &'a self,
                player: &'a TokenHash,
            ) -> StoreFuture<'a, Vec<(String, String)>> {
                Box::pin(async move {
                    let rows = sqlx::query(
                        "SELECT id, game FROM game_tables WHERE finished = FALSE \
                         AND ending IS NULL \
                         AND id IN (SELECT table_id FROM seats WHERE player_hash = $1) \
                         ORDER BY updated_at DESC, id LIMIT 200",
                    )
                    .bind(player.to_vec())
                    .fetch_all(self.reader())
                    .await?;
                    rows.iter()
                        .map(|r| Ok((r.try_get("id")?, r.try_get("game")?)))
                        .collect()
                })
            }

            fn leaderboard<'a>(
                &'a self,
                pool: &'a str,
                since: i64,
                provisional: bool,
                limit: u32,
            ) -> StoreFuture<'a, Vec<LeaderRow>> {
                Box::pin(async move {
                    let test = if provisional { ">" } else { "<=" };
                    let sql = format!(
                        "SELECT accounts.name, {RATING_COLUMNS} FROM ratings JOIN accounts \
                         ON accounts.id = ratings.account_id \
                         WHERE pool = $1 AND last_played >= $2 AND deviation {test} $3 \
                         ORDER BY rating DESC, accounts.name_key LIMIT $4"
                    );
                    let rows = sqlx::query(sqlx::AssertSqlSafe(sql))
                        .bind(pool)
                        .bind(since)
                        .bind(PROVISIONAL_DEVIATION)
                        .bind(i64::from(limit))
                        .fetch_all(self.reader())
                        .await?;
                    rows.iter()
                        .map(|r| {
                            Ok(LeaderRow {
                                name: r.try_get("name")?,
                                rating: rating_from_row(r)?,
                            })
                        })
                        .collect()
                })
            }
        }
    };
}

mod sqlite {
    use super::*;
    ratings!(SqliteStore);
}

mod postgres {
    use super::*;
    ratings!(PgStore);
}
