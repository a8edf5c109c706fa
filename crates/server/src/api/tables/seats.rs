//! Seats at a table: joining, a rematch, a seat's settings and its link
//! for another device, and closing a table that has not started.

use super::{check_name, player_hash, player_of};
use crate::api::{AppState, JsonBody, bearer, run_to_completion};
use crate::dice::is_valid_seat_seed;
use crate::error::ApiError;
use crate::hub::JoinRequest;
use crate::limits::Client;
use crate::store::AutoRoll;
use crate::token::PLAYER_KEY_LEN;
use crate::view;
use axum::Json;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use serde::Deserialize;
use serde_json::{Map, Value, json};
use spelbord_engine::Viewer;

/// Body of `POST /api/tables/{id}/join`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JoinBody {
    #[serde(default)]
    seat: Option<usize>,
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    player: Option<String>,
    #[serde(default)]
    key: Option<String>,
    #[serde(default)]
    seed: Option<String>,
    #[serde(default)]
    rematch_token: Option<String>,
    #[serde(default)]
    auto_roll: AutoRoll,
}

/// Body of `POST /api/tables/{id}/rematch`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RematchBody {
    #[serde(default)]
    player: Option<String>,
}

/// Body of `POST /api/tables/{id}/settings`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SettingsBody {
    auto_roll: AutoRoll,
}

/// `POST /api/tables/{id}/join`: takes an open seat; returns its secret token.
pub async fn join(
    State(app): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    JsonBody(body): JsonBody<JoinBody>,
) -> Result<Json<Value>, ApiError> {
    let mut name = check_name(body.name, &app.limits)?;
    let mut player = player_hash(body.player.as_deref())?;
    // A signed-in player's seat is his account's, under its name.
    let account = crate::api::account_of(&app, &headers).await?;
    if let Some(account) = &account {
        player = Some(account.player_hash);
        name = Some(account.name.clone());
    }
    if let Some(key) = &body.key
        && !(PLAYER_KEY_LEN.0..=PLAYER_KEY_LEN.1).contains(&key.len())
    {
        return Err(ApiError::BadRequest(format!(
            "a join key has {} to {} characters",
            PLAYER_KEY_LEN.0, PLAYER_KEY_LEN.1
        )));
    }
    if let Some(seed) = &body.seed
        && !is_valid_seat_seed(seed)
    {
        return Err(ApiError::BadRequest(
            "a seat seed has 1 to 64 of 0-9, a-z, A-Z, _ and -".into(),
        ));
    }
    let cell = app.hub.table(&id).await?;
    let rematch_of = cell.table.lock().await.rematch_of.clone();
    let rematch_seat = match (rematch_of, body.rematch_token) {
        (Some(last), Some(token)) => {
            let last = app.hub.table(&last).await?;
            let seat = last.table.lock().await.seat_of_token(&token);
            Some(seat.ok_or(ApiError::Unauthorized)?)
        }
        _ => None,
    };
    let request = JoinRequest {
        seat: body.seat.or(rematch_seat),
        name,
        player,
        account: account.map(|a| a.name),
        key: body.key,
        seed: body.seed,
        rematch_seat,
        auto_roll: body.auto_roll,
    };
    let hub = app.hub.clone();
    let joining = cell.clone();
    let joined = run_to_completion(async move { hub.join(&joining, request).await }).await?;
    let t = cell.table.lock().await;
    Ok(Json(json!({
        "table": t.id,
        "seat": joined.seat,
        "token": joined.token,
        "invites": view::invites_json(&t),
        "ws": format!("/api/tables/{}/ws", t.id),
        "view": view::table_json(&t, Viewer::Player(joined.seat)),
    })))
}

/// `POST /api/tables/{id}/rematch`: the rematch of a finished table for the
/// token's seat (made by the first player who asks, the same table for the
/// others): 201 when made, 200 when it existed, with its id and the seat,
/// which the player then joins with `rematch_token`.
pub async fn rematch(
    State(app): State<AppState>,
    client: Client,
    Path(id): Path<String>,
    headers: HeaderMap,
    JsonBody(body): JsonBody<RematchBody>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    let token = bearer(&headers)?.ok_or(ApiError::Unauthorized)?;
    // A signed-in player's rematch is his account's (as a new table is).
    let creator = match crate::api::account_of(&app, &headers).await? {
        Some(account) => Some(account.player_hash),
        None => player_hash(body.player.as_deref())?,
    };
    let cell = app.hub.table(&id).await?;
    if cell.table.lock().await.rematch.is_none() && !app.creates.allow(client.key) {
        tracing::debug!(client = %client.addr, "table creation rate limited");
        return Err(ApiError::RateLimited);
    }
    let hub = app.hub.clone();
    let asking = cell.clone();
    let made =
        run_to_completion(
            async move { hub.rematch(&asking, &token, creator, client.key.ip()).await },
        )
        .await?;
    let status = if made.created {
        StatusCode::CREATED
    } else {
        StatusCode::OK
    };
    Ok((
        status,
        Json(json!({ "table": id, "rematch": made.table, "seat": made.seat })),
    ))
}

/// `POST /api/tables/{id}/settings`: the token's seat's settings
/// (`auto_roll`: `ask`, `useless` or `always`); answers the table as the
/// seat sees it. A cube decision the new setting skips is rolled at once.
pub async fn settings(
    State(app): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    JsonBody(body): JsonBody<SettingsBody>,
) -> Result<Json<Value>, ApiError> {
    let token = bearer(&headers)?.ok_or(ApiError::Unauthorized)?;
    let cell = app.hub.table(&id).await?;
    let hub = app.hub.clone();
    let setting = cell.clone();
    let seat =
        run_to_completion(async move { hub.set_auto_roll(&setting, &token, body.auto_roll).await })
            .await?;
    let t = cell.table.lock().await;
    Ok(Json(view::table_json(&t, Viewer::Player(seat))))
}

/// `POST /api/tables/{id}/close`: the creator (`X-Player-Key`) closes a
/// table that has not started.
pub async fn close(
    State(app): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    JsonBody(_): JsonBody<Map<String, Value>>,
) -> Result<Json<Value>, ApiError> {
    let player = player_of(&app, &headers).await?;
    let cell = app.hub.table(&id).await?;
    let hub = app.hub.clone();
    let closing = cell.clone();
    run_to_completion(async move { hub.close(&closing, &player).await }).await?;
    let t = cell.table.lock().await;
    Ok(Json(view::table_json(&t, Viewer::Spectator)))
}

/// `GET /api/tables/{id}/seat-link`: a link that continues the token's seat
/// on another device (the token travels in the fragment, which browsers
/// never send to a server).
pub async fn seat_link(
    State(app): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    let token = bearer(&headers)?.ok_or(ApiError::Unauthorized)?;
    let cell = app.hub.table(&id).await?;
    let t = cell.table.lock().await;
    let seat = t.seat_of_token(&token).ok_or(ApiError::Unauthorized)?;
    Ok(Json(json!({
        "seat": seat,
        "url": format!("/t/{}?seat={seat}#token={token}", t.id),
    })))
}
