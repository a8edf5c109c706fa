//! [`RatingStore`] in PostgreSQL, shared by every node: the rating of a
//! table is one transaction; two nodes rating the same table meet at its
//! row in `rated_games`, and the ratings read are locked (in the order of
//! the accounts' ids) until the transaction ends.

use super::ratings::{
    ENDED_WITH_RETURNS, HistoryEntry, LeaderRow, RatedGame, RatingStore, StoredRating,
};
use super::rows::{seat_from_row, table_from_row};
use super::{PgStore, StoreError, StoreFuture, StoredTable};
use crate::rating::{self, NEW_PLAYER, PROVISIONAL_DEVIATION, Rating};
use crate::token::TokenHash;
use sqlx::Row;
use sqlx::postgres::PgRow;

fn rating_from_row(row: &PgRow) -> Result<StoredRating, StoreError> {
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

const RATING_COLUMNS: &str = "ratings.pool, ratings.rating, ratings.deviation, ratings.volatility, ratings.games, \
     ratings.last_played";

impl RatingStore for PgStore {
    fn rate_game<'a>(&'a self, game: &'a RatedGame) -> StoreFuture<'a, bool> {
        Box::pin(async move {
            let mut tx = self.pool().begin().await?;
            let marked = sqlx::query(
                "INSERT INTO rated_games (table_id, pool, rated_at) VALUES ($1, $2, $3) \
                 ON CONFLICT DO NOTHING",
            )
            .bind(&game.table_id)
            .bind(&game.pool)
            .bind(super::unix_now())
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
                    sqlx::query(
                        "INSERT INTO ratings (account_id, pool, rating, deviation, volatility, \
                         games, last_played) VALUES ($1, $2, $3, $4, $5, 0, 0) \
                         ON CONFLICT DO NOTHING",
                    )
                    .bind(id)
                    .bind(&game.pool)
                    .bind(NEW_PLAYER.rating)
                    .bind(NEW_PLAYER.deviation)
                    .bind(NEW_PLAYER.volatility)
                    .execute(&mut *tx)
                    .await?;
                    let row = sqlx::query(
                        "SELECT rating, deviation, volatility FROM ratings \
                         WHERE account_id = $1 AND pool = $2 FOR UPDATE",
                    )
                    .bind(id)
                    .bind(&game.pool)
                    .fetch_optional(&mut *tx)
                    .await?;
                    before.push(match row {
                        Some(r) => Rating {
                            rating: r.try_get("rating")?,
                            deviation: r.try_get("deviation")?,
                            volatility: r.try_get("volatility")?,
                        },
                        None => NEW_PLAYER,
                    });
                }
                let places: Vec<usize> = players.iter().map(|(_, p)| *p).collect();
                let after = rating::after_game(&before, &places);
                for (((id, _), old), new) in players.iter().zip(&before).zip(&after) {
                    sqlx::query(
                        "INSERT INTO ratings (account_id, pool, rating, deviation, volatility, \
                         games, last_played) VALUES ($1, $2, $3, $4, $5, 1, $6) \
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
                        "INSERT INTO rating_history (account_id, pool, table_id, played_at, \
                         rating, deviation, change) VALUES ($1, $2, $3, $4, $5, $6, $7)",
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
                "SELECT id FROM game_tables WHERE rated AND updated_at >= $1 \
                 AND (finished OR ending IS NOT NULL) \
                 AND NOT EXISTS (SELECT 1 FROM rated_games WHERE table_id = game_tables.id) \
                 ORDER BY updated_at LIMIT $2",
            )
            .bind(since)
            .bind(i64::from(limit))
            .fetch_all(self.pool())
            .await?;
            Ok(ids)
        })
    }

    fn ratings_of<'a>(&'a self, account_id: &'a str) -> StoreFuture<'a, Vec<StoredRating>> {
        Box::pin(async move {
            let sql =
                format!("SELECT {RATING_COLUMNS} FROM ratings WHERE account_id = $1 ORDER BY pool");
            sqlx::query(sqlx::AssertSqlSafe(sql))
                .bind(account_id)
                .fetch_all(self.pool())
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
                 ON accounts.id = ratings.account_id WHERE pool = $1 AND player_hash = $2"
            );
            let row = sqlx::query(sqlx::AssertSqlSafe(sql))
                .bind(pool)
                .bind(player.to_vec())
                .fetch_optional(self.pool())
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
                "SELECT pool, table_id, played_at, rating, deviation, change FROM rating_history \
                 WHERE account_id = $1 ORDER BY played_at DESC, table_id LIMIT $2",
            )
            .bind(account_id)
            .bind(i64::from(limit))
            .fetch_all(self.pool())
            .await?;
            rows.iter()
                .map(|r| {
                    Ok(HistoryEntry {
                        pool: r.try_get("pool")?,
                        table_id: r.try_get("table_id")?,
                        at: r.try_get("played_at")?,
                        rating: r.try_get("rating")?,
                        deviation: r.try_get("deviation")?,
                        change: r.try_get("change")?,
                    })
                })
                .collect()
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
                .fetch_all(self.pool())
                .await?;
            let mut tables = Vec::with_capacity(rows.len());
            for row in &rows {
                let id: String = row.try_get("id")?;
                let seats = sqlx::query("SELECT * FROM seats WHERE table_id = $1 ORDER BY seat")
                    .bind(&id)
                    .fetch_all(self.pool())
                    .await?
                    .iter()
                    .map(seat_from_row)
                    .collect::<Result<Vec<_>, _>>()?;
                tables.push(table_from_row(row, seats, Vec::new())?);
            }
            Ok(tables)
        })
    }

    fn playing_of<'a>(&'a self, player: &'a TokenHash) -> StoreFuture<'a, Vec<(String, String)>> {
        Box::pin(async move {
            let rows = sqlx::query(
                "SELECT id, game FROM game_tables WHERE NOT finished AND ending IS NULL \
                 AND id IN (SELECT table_id FROM seats WHERE player_hash = $1) \
                 ORDER BY updated_at DESC, id LIMIT 200",
            )
            .bind(player.to_vec())
            .fetch_all(self.pool())
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
                 ON accounts.id = ratings.account_id WHERE pool = $1 AND last_played >= $2 \
                 AND deviation {test} $3 ORDER BY rating DESC, accounts.name_key LIMIT $4"
            );
            let rows = sqlx::query(sqlx::AssertSqlSafe(sql))
                .bind(pool)
                .bind(since)
                .bind(PROVISIONAL_DEVIATION)
                .bind(i64::from(limit))
                .fetch_all(self.pool())
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
