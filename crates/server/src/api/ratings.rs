//! The rating routes: a player's profile with ratings, rating history,
//! games and tables in play; the pools; a pool's leaderboard; and the
//! seats' ratings in a rated table's body.

use super::AppState;
use crate::accounts::names;
use crate::error::ApiError;
use crate::pools::{all_pools, find_pool, pool_of};
use crate::rated::places;
use crate::rating::Rating;
use crate::store::{LeaderRow, SeatKind, StoredRating, StoredSeat, StoredTable, unix_now};
use axum::Json;
use axum::extract::{Path, State};
use serde_json::{Map, Value, json};
use spelbord_engine::Options;
use std::collections::HashMap;

/// The latest finished games a profile shows.
const PROFILE_GAMES: u32 = 50;

/// The latest rated games whose ratings a profile's history shows.
const PROFILE_HISTORY: u32 = 1000;

/// How many accounts each list of a leaderboard shows at most.
const LEADERBOARD_SIZE: u32 = 100;

/// A leaderboard shows accounts that played in this many seconds (90 days).
const ACTIVE_SECONDS: i64 = 90 * 86_400;

/// A rating as the API shows it in a table body.
fn rating_json(r: &Rating) -> Value {
    json!({ "rating": r.rating, "deviation": r.deviation, "provisional": r.provisional() })
}

/// Adds each seat's rating in the table's pool (where the account has one)
/// to a rated table's body.
pub async fn add_seat_ratings(
    app: &AppState,
    body: &mut Value,
    game: &str,
    options: &Options,
    seats: &[StoredSeat],
) -> Result<(), ApiError> {
    let Some(pool) = pool_of(game, options) else {
        return Ok(());
    };
    for seat in seats {
        let Some(player) = seat.player_hash.filter(|_| seat.account.is_some()) else {
            continue;
        };
        if let Some(r) = app.ratings.rating_of_player(&pool.id, &player).await? {
            body["seats"][seat.seat]["rating"] = rating_json(&r.rating);
        }
    }
    Ok(())
}

/// What a seat shows as a player's name among the opponents.
fn seat_name(seat: &StoredSeat) -> String {
    match &seat.kind {
        SeatKind::Ai(agent) if agent == "random" => "ai:random".into(),
        SeatKind::Ai(agent) => agent.clone(),
        _ => seat
            .account
            .clone()
            .or_else(|| seat.name.clone())
            .unwrap_or_else(|| "guest".into()),
    }
}

/// One finished game of a profile.
fn game_json(
    table: &StoredTable,
    player: &crate::token::TokenHash,
    changes: &HashMap<String, f64>,
) -> Option<Value> {
    let seat = table
        .seats
        .iter()
        .position(|s| s.player_hash.as_ref() == Some(player))?;
    let returns = table
        .result
        .clone()
        .or_else(|| table.ending.as_ref().and_then(|e| e.returns.clone()))?;
    let place = places(&returns).get(seat).map(|p| p + 1);
    let pool = table
        .rated
        .then(|| pool_of(&table.game, &table.options).map(|p| p.id))
        .flatten();
    Some(json!({
        "table": table.id,
        "game": table.game,
        "pool": pool,
        "finished_at": table.updated_at,
        "seat": seat,
        "opponents": table.seats.iter().filter(|s| s.seat != seat).map(seat_name).collect::<Vec<_>>(),
        "place": place,
        "players": table.seats.len(),
        "rating_change": changes.get(&table.id),
    }))
}

/// `GET /api/players/{name}`: a player's public profile with ratings per
/// pool, their history, the latest finished games and the tables in play.
pub async fn profile(
    State(app): State<AppState>,
    Path(name): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let key = names::key_of(&name);
    let account = app
        .accounts
        .store
        .find_account(&key, None)
        .await?
        .ok_or_else(|| ApiError::NotFound("no player has this name".into()))?;
    let mut body = super::accounts::public(&account);
    let mut ratings = Map::new();
    for r in app.ratings.ratings_of(&account.id).await? {
        ratings.insert(
            r.pool.clone(),
            json!({ "rating": r.rating.rating, "deviation": r.rating.deviation,
                "volatility": r.rating.volatility, "games": r.games,
                "provisional": r.rating.provisional() }),
        );
    }
    let entries = app.ratings.history_of(&account.id, PROFILE_HISTORY).await?;
    let mut history: Map<String, Value> = Map::new();
    let mut changes = HashMap::new();
    // Oldest first within each pool.
    for e in entries.iter().rev() {
        changes.insert(e.table_id.clone(), e.change);
        let list = history.entry(e.pool.clone()).or_insert_with(|| json!([]));
        if let Some(list) = list.as_array_mut() {
            list.push(json!({ "at": e.at, "rating": e.rating, "deviation": e.deviation, "table": e.table_id }));
        }
    }
    let tables = app
        .ratings
        .finished_games_of(&account.player_hash, PROFILE_GAMES)
        .await?;
    let games: Vec<Value> = tables
        .iter()
        .filter_map(|t| game_json(t, &account.player_hash, &changes))
        .collect();
    let playing: Vec<Value> = app
        .ratings
        .playing_of(&account.player_hash)
        .await?
        .into_iter()
        .map(|(table, game)| json!({ "table": table, "game": game }))
        .collect();
    body["ratings"] = Value::Object(ratings);
    body["history"] = Value::Object(history);
    body["games"] = json!(games);
    body["playing"] = json!(playing);
    Ok(Json(body))
}

/// `GET /api/ratings`: the rating pools.
pub async fn pools() -> Json<Value> {
    Json(json!(
        all_pools()
            .iter()
            .map(
                |p| json!({ "pool": p.id, "game": p.game, "description": p.description,
                "players": p.players })
            )
            .collect::<Vec<_>>()
    ))
}

fn leader_json(row: &LeaderRow, rank: Option<usize>) -> Value {
    let StoredRating {
        rating,
        games,
        last_played,
        ..
    } = &row.rating;
    let mut v = json!({ "name": row.name, "rating": rating.rating, "deviation": rating.deviation,
        "games": games, "last_played": last_played });
    if let Some(rank) = rank {
        v["rank"] = json!(rank);
    }
    v
}

/// `GET /api/ratings/{pool}`: the pool's best established accounts active
/// in the last 90 days, ranked, and its provisional ones apart.
pub async fn leaderboard(
    State(app): State<AppState>,
    Path(pool): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let pool = find_pool(&pool).ok_or_else(|| ApiError::NotFound("no such rating pool".into()))?;
    let since = unix_now() - ACTIVE_SECONDS;
    let ranked = app
        .ratings
        .leaderboard(&pool.id, since, false, LEADERBOARD_SIZE)
        .await?;
    let provisional = app
        .ratings
        .leaderboard(&pool.id, since, true, LEADERBOARD_SIZE)
        .await?;
    Ok(Json(json!({
        "pool": pool.id,
        "players": ranked.iter().enumerate().map(|(i, r)| leader_json(r, Some(i + 1))).collect::<Vec<_>>(),
        "provisional": provisional.iter().map(|r| leader_json(r, None)).collect::<Vec<_>>(),
    })))
}
