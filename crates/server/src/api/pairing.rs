//! Quick pairing: the pools, queueing, leaving the queue, and the pairing
//! rounds (one node at a time) that make the tables.

use super::seeks::{announce_paired, asker, make_table};
use super::{AppState, JsonBody};
use crate::error::ApiError;
use crate::pairing::{PairingPool, pick_pairs, pool, pools as all_pools};
use crate::store::{QueueEntry, SeekPlayer, unix_now_ms};
use axum::Json;
use axum::extract::{RawQuery, State};
use axum::http::{HeaderMap, StatusCode};
use serde::Deserialize;
use serde_json::{Value, json};

fn pool_json(p: &PairingPool) -> Value {
    json!({ "id": p.id, "game": p.game, "options": p.options, "clock": p.clock, "label": p.label })
}

/// `GET /api/pairing`: the quick-pairing pools.
pub async fn pools() -> Json<Value> {
    let pools: Vec<Value> = all_pools().iter().map(pool_json).collect();
    Json(json!({ "pools": pools }))
}

/// Body of `POST /api/pairing`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct QueueBody {
    pool: String,
    #[serde(default)]
    player_key: Option<String>,
    #[serde(default)]
    name: Option<String>,
}

/// `POST /api/pairing`: queues the player for a pool (accounts rated,
/// guests casual with guests); 202 `{"queued"}`. The table comes as a
/// `paired` message on the lobby socket.
pub async fn queue(
    State(app): State<AppState>,
    headers: HeaderMap,
    JsonBody(body): JsonBody<QueueBody>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    let p = pool(&body.pool)
        .ok_or_else(|| ApiError::NotFound(format!("no pairing pool `{}`", body.pool)))?;
    let asker = asker(&app, &headers, body.player_key.as_deref(), body.name)
        .await?
        .ok_or_else(|| {
            ApiError::BadRequest("queueing needs a `player_key` (or a session cookie)".into())
        })?;
    let (mut rating, mut deviation) = (None, None);
    if asker.account.is_some() {
        let game = spelbord_engine::find_game(p.game).map_err(ApiError::from_setup_error)?;
        let options = crate::hub::options_from_json(game, p.options.as_object())?;
        let r = match crate::pools::pool_of(p.game, &options) {
            Some(rated) => app.ratings.rating_of_player(&rated.id, &asker.hash).await?,
            None => None,
        };
        let r = r.map_or(crate::rating::NEW_PLAYER, |r| r.rating);
        rating = Some(r.rating);
        deviation = Some(r.deviation);
    }
    let now = unix_now_ms();
    let entry = QueueEntry {
        hash: asker.hash,
        pool: p.id.clone(),
        name: asker.name,
        account: asker.account.map(|(name, _)| name),
        rating,
        deviation,
        queued_at: now,
    };
    app.lobby.store.queue_put(&entry, now).await?;
    let round = app.clone();
    tokio::spawn(async move { pair_round(&round).await });
    Ok((StatusCode::ACCEPTED, Json(json!({ "queued": p.id }))))
}

/// `DELETE /api/pairing`: leaves the queue; 204.
pub async fn leave(
    State(app): State<AppState>,
    headers: HeaderMap,
    RawQuery(query): RawQuery,
) -> Result<StatusCode, ApiError> {
    let key = query.as_deref().and_then(|q| {
        q.split('&')
            .find_map(|pair| pair.strip_prefix("player_key="))
            .map(str::to_string)
    });
    let asker = asker(&app, &headers, key.as_deref(), None)
        .await?
        .ok_or_else(|| ApiError::NotFound("you are not queued".into()))?;
    app.lobby.store.queue_remove(&asker.hash).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// One pairing round: pairs whom it can and makes their tables.
pub async fn pair_round(app: &AppState) {
    let now = unix_now_ms();
    let lobby = app.lobby.clone();
    let pick = move |queue: &[QueueEntry]| {
        lobby.set_queued(queue.iter().map(|e| e.hash).collect());
        pick_pairs(queue, now)
    };
    let pairs = match app.lobby.store.pair_round(&pick).await {
        Ok(pairs) => pairs,
        Err(e) => return tracing::warn!(error = %e, "pairing round failed"),
    };
    for (a, b) in pairs {
        let Some(p) = pool(&a.pool) else { continue };
        let rated = a.account.is_some() && b.account.is_some();
        let request = json!({ "game": p.game, "options": p.options, "clock": p.clock,
            "rated": rated, "listed": true })
        .to_string();
        let players: Vec<SeekPlayer> = [a, b]
            .into_iter()
            .map(|e| SeekPlayer {
                hash: e.hash,
                owner: false,
                name: e.name,
                account: e.account,
                seat: None,
                token: None,
            })
            .collect();
        let server = std::net::IpAddr::from([0, 0, 0, 0]);
        match make_table(app, &request, &players, None, server).await {
            Ok((cell, seats)) => {
                let table = cell.table.lock().await.id.clone();
                announce_paired(app, &table, &seats, "pool", &p.id).await;
            }
            Err(e) => tracing::warn!(error = %e, pool = %p.id, "cannot make a paired table"),
        }
    }
}
