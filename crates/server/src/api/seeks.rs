//! Seeks: post, list, read, accept, withdraw; and the tables made of
//! filled seeks and of quick pairings (through `POST /api/tables`' own
//! request type and checks).

use super::tables::{CreateBody, check_name, new_table, player_hash};
use super::{AppState, JsonBody, run_to_completion};
use crate::error::ApiError;
use crate::hub::{JoinRequest, NewTable, TableCell};
use crate::limits::Client;
use crate::lobby::{LobbyEvent, LobbyViewer, Range};
use crate::store::{Accepted, SeekPlayer, StoreError, StoredSeek};
use crate::token::{TokenHash, is_table_id, new_table_id};
use crate::view;
use axum::Json;
use axum::extract::{Path, RawQuery, State};
use axum::http::{HeaderMap, StatusCode};
use rand::seq::SliceRandom;
use serde::Deserialize;
use serde_json::{Map, Value, json};
use spelbord_engine::Viewer;
use std::sync::Arc;

/// The most open seeks one player may have.
pub const SEEKS_PER_PLAYER: usize = 3;

/// Who asks: the player hash, name, account name, and the account's id.
pub(super) struct Asker {
    pub hash: TokenHash,
    pub name: Option<String>,
    pub account: Option<(String, String)>,
}

/// The asking player: the signed-in account, else the guest's `player_key`
/// (from the body, the `X-Player-Key` header or the `player_key` query).
pub(super) async fn asker(
    app: &AppState,
    headers: &HeaderMap,
    key: Option<&str>,
    name: Option<String>,
) -> Result<Option<Asker>, ApiError> {
    if let Some(account) = super::account_of(app, headers).await? {
        return Ok(Some(Asker {
            hash: account.player_hash,
            name: Some(account.name.clone()),
            account: Some((account.name, account.id)),
        }));
    }
    let header = headers.get("x-player-key").and_then(|v| v.to_str().ok());
    let Some(hash) = player_hash(key.or(header))? else {
        return Ok(None);
    };
    Ok(Some(Asker {
        hash,
        name: check_name(name, &app.limits)?,
        account: None,
    }))
}

fn query_value(query: &Option<String>, key: &str) -> Vec<String> {
    query
        .as_deref()
        .unwrap_or("")
        .split('&')
        .filter_map(|pair| pair.split_once('='))
        .filter(|(k, _)| *k == key)
        .map(|(_, v)| v.replace('+', " "))
        .collect()
}

/// The lobby viewer of a request (a signed-in account with its ratings, or a guest's key).
pub(super) async fn viewer_of(
    app: &AppState,
    asker: Option<&Asker>,
) -> Result<LobbyViewer, ApiError> {
    let mut viewer = LobbyViewer::default();
    if let Some(a) = asker {
        viewer.player = Some(a.hash);
        if let Some((_, id)) = &a.account {
            viewer.account = true;
            for r in app.ratings.ratings_of(id).await? {
                viewer.ratings.insert(r.pool, r.rating.rating);
            }
        }
    }
    Ok(viewer)
}

/// A seek's body as shown.
pub(super) fn seek_json(seek: &StoredSeek) -> Value {
    let mut body: Value = serde_json::from_str(&seek.body).unwrap_or_else(|_| json!({}));
    body["accepted"] = json!(seek.accepted);
    body
}

/// The lobby event of a seek (added or updated).
pub(super) fn seek_event(kind: &str, seek: &StoredSeek) -> LobbyEvent {
    LobbyEvent {
        message: json!({ "type": kind, "seek": seek_json(seek) }).to_string(),
        game: Some(seek.game.clone()),
        range: Range::of(seek),
        owner: Some(seek.owner),
        to: None,
    }
}

/// The lobby event of a seek taken away.
pub(super) fn removed_event(id: &str, game: &str) -> LobbyEvent {
    LobbyEvent {
        message: json!({ "type": "seek_removed", "id": id }).to_string(),
        game: Some(game.to_string()),
        range: None,
        owner: None,
        to: None,
    }
}

/// Whether `viewer` may see `seek`.
pub(super) fn visible(viewer: &LobbyViewer, seek: &StoredSeek) -> bool {
    viewer.sees(
        Some(&seek.game),
        Range::of(seek).as_ref(),
        Some(&seek.owner),
    )
}

/// The seek-only fields of `POST /api/seeks` (the rest is a table request).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SeekFields {
    #[serde(default)]
    rating_range: Option<RatingRange>,
    #[serde(default)]
    seat: Option<usize>,
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    player_key: Option<String>,
    #[serde(default)]
    players: Option<u32>,
}

/// A rated seek's range of ratings.
#[derive(Deserialize, Clone, Copy)]
#[serde(deny_unknown_fields)]
struct RatingRange {
    #[serde(default)]
    min: Option<f64>,
    #[serde(default)]
    max: Option<f64>,
}

/// `POST /api/seeks`: a new seek; 201 `{"seek"}`.
pub async fn post(
    State(app): State<AppState>,
    client: Client,
    headers: HeaderMap,
    JsonBody(body): JsonBody<Map<String, Value>>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    let draft = SeekDraft::of_body(body)?;
    let create: CreateBody = serde_json::from_value(draft.request.clone())
        .map_err(|e| ApiError::BadJson(e.to_string()))?;
    let fields = &draft.fields;
    let asker = asker(
        &app,
        &headers,
        fields.player_key.as_deref(),
        fields.name.clone(),
    )
    .await?
    .ok_or_else(|| {
        ApiError::BadRequest("a seek needs a `player_key` (or a session cookie)".into())
    })?;
    let account = asker.account.as_ref().map(|_| asker.hash);
    let new = new_table(&app, create, account, client.key.ip())?;
    let players = new.seats.len();
    if fields.seat.is_some_and(|s| s >= players) {
        return Err(ApiError::BadRequest(format!("seat is below {players}")));
    }
    if fields.rating_range.is_some() && !draft.rated {
        return Err(ApiError::BadRequest(
            "only a rated seek has a rating_range".into(),
        ));
    }
    let pool = draft
        .rated
        .then(|| crate::pools::pool_of(new.game.id(), &new.options).map(|p| p.id))
        .flatten();
    let rating = match &pool {
        Some(pool) => Some(
            app.ratings
                .rating_of_player(pool, &asker.hash)
                .await?
                .map_or(crate::rating::NEW_PLAYER.rating, |r| r.rating.rating),
        ),
        None => None,
    };
    let now = crate::store::unix_now_ms();
    let open = app.lobby.store.open_seeks(now).await?;
    if open.iter().filter(|s| s.owner == asker.hash).count() >= SEEKS_PER_PLAYER {
        return Err(ApiError::TooManyTables(SEEKS_PER_PLAYER));
    }
    if !app.creates.allow(client.key) {
        return Err(ApiError::RateLimited);
    }
    let expires_at = now + app.lobby.lifetime.as_millis() as i64;
    let seek = draft.seek(&new, &asker, (pool, rating), now, expires_at);
    let owner = SeekPlayer {
        hash: asker.hash,
        owner: true,
        name: asker.name.clone(),
        account: asker.account.map(|(name, _)| name),
        seat: None,
        token: None,
    };
    app.lobby.store.insert_seek(&seek, &owner).await?;
    app.lobby.publish(seek_event("seek_added", &seek)).await;
    Ok((
        StatusCode::CREATED,
        Json(json!({ "seek": seek_json(&seek) })),
    ))
}

/// A `POST /api/seeks` body parted: the seek's own fields, and the request
/// for its table (listed, with open seats).
struct SeekDraft {
    fields: SeekFields,
    request: Value,
    rated: bool,
}

impl SeekDraft {
    /// Parts `body`; a table request of a seek names no seats, listing or
    /// player (a seek's table has open seats and is listed).
    fn of_body(mut body: Map<String, Value>) -> Result<SeekDraft, ApiError> {
        let mut fields = Map::new();
        for key in ["rating_range", "seat", "name", "player_key", "players"] {
            if let Some(v) = body.remove(key) {
                fields.insert(key.into(), v);
            }
        }
        let fields: SeekFields = serde_json::from_value(Value::Object(fields))
            .map_err(|e| ApiError::BadJson(e.to_string()))?;
        for key in ["seats", "listed", "player"] {
            if body.contains_key(key) {
                return Err(ApiError::BadRequest(format!(
                    "a seek's table has open seats and is listed: `{key}` is not given"
                )));
            }
        }
        if let Some(players) = fields.players {
            let options = body.entry("options").or_insert_with(|| json!({}));
            if let Some(o) = options.as_object_mut() {
                o.entry("players").or_insert(json!(players));
            }
        }
        body.insert("listed".into(), json!(true));
        let rated = body.get("rated").and_then(Value::as_bool).unwrap_or(false);
        Ok(SeekDraft {
            fields,
            request: Value::Object(body),
            rated,
        })
    }

    /// The seek as stored, for the table `new` of `asker` (the rating pool
    /// and the asker's rating there, if rated), made at `now`.
    fn seek(
        &self,
        new: &NewTable,
        asker: &Asker,
        (pool, rating): (Option<String>, Option<f64>),
        now: i64,
        expires_at: i64,
    ) -> StoredSeek {
        let range = self.fields.rating_range;
        let players = new.seats.len();
        let id = new_table_id();
        let shown = json!({
            "id": id,
            "game": new.game.id(),
            "options": new.options,
            "clock": self.request.get("clock").cloned().unwrap_or(Value::Null),
            "rated": self.rated,
            "rating_range": range.map(|r| json!({ "min": r.min, "max": r.max })),
            "seat": self.fields.seat,
            "players": players,
            "owner": { "name": asker.name, "rating": rating },
            "created_at": now / 1000,
        });
        StoredSeek {
            id,
            game: new.game.id().to_string(),
            body: shown.to_string(),
            request: self.request.to_string(),
            owner: asker.hash,
            pool,
            rating_min: range.and_then(|r| r.min),
            rating_max: range.and_then(|r| r.max),
            players: players as i64,
            accepted: 0,
            state: "open".into(),
            table_id: None,
            created_at: now,
            expires_at,
        }
    }
}

/// `GET /api/seeks?game=…`: the open seeks the caller may see.
pub async fn list(
    State(app): State<AppState>,
    headers: HeaderMap,
    RawQuery(query): RawQuery,
) -> Result<Json<Value>, ApiError> {
    let key = query_value(&query, "player_key").pop();
    let asker = asker(&app, &headers, key.as_deref(), None).await?;
    let mut viewer = viewer_of(&app, asker.as_ref()).await?;
    viewer.games = query_value(&query, "game");
    let seeks = app
        .lobby
        .store
        .open_seeks(crate::store::unix_now_ms())
        .await?;
    let shown: Vec<Value> = seeks
        .iter()
        .filter(|s| visible(&viewer, s))
        .map(seek_json)
        .collect();
    Ok(Json(json!({ "seeks": shown })))
}

/// The seek `id` if the viewer may see it (open), or its player (paired).
async fn find(app: &AppState, id: &str) -> Result<StoredSeek, ApiError> {
    let not_found = || ApiError::NotFound(format!("no seek `{id}`"));
    if !is_table_id(id) {
        return Err(not_found());
    }
    app.lobby.store.seek(id).await?.ok_or_else(not_found)
}

/// `GET /api/seeks/{id}`: the seek, or for its players once paired their seat.
pub async fn read(
    State(app): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    RawQuery(query): RawQuery,
) -> Result<Json<Value>, ApiError> {
    let seek = find(&app, &id).await?;
    let key = query_value(&query, "player_key").pop();
    let asker = asker(&app, &headers, key.as_deref(), None).await?;
    if seek.state == "paired"
        && let Some(a) = &asker
        && let Some(p) = app.lobby.store.seek_player(&id, &a.hash).await?
        && let (Some(table), Some(seat), Some(token)) = (&seek.table_id, p.seat, p.token)
    {
        return Ok(Json(
            json!({ "paired": { "table": table, "seat": seat, "token": token } }),
        ));
    }
    let viewer = viewer_of(&app, asker.as_ref()).await?;
    if seek.state != "open" || !visible(&viewer, &seek) {
        return Err(ApiError::NotFound(format!("no seek `{id}`")));
    }
    Ok(Json(json!({ "seek": seek_json(&seek) })))
}

/// Body of `POST /api/seeks/{id}/accept`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AcceptBody {
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    player_key: Option<String>,
}

/// `POST /api/seeks/{id}/accept`: 200 with the seat (as a join answers)
/// when this accept fills the seek, else 202 `{"waiting", "needed"}`.
pub async fn accept(
    State(app): State<AppState>,
    client: Client,
    Path(id): Path<String>,
    headers: HeaderMap,
    JsonBody(body): JsonBody<AcceptBody>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    let seek = find(&app, &id).await?;
    let asker = asker(&app, &headers, body.player_key.as_deref(), body.name)
        .await?
        .ok_or_else(|| {
            ApiError::BadRequest("accepting needs a `player_key` (or a session cookie)".into())
        })?;
    if seek.pool.is_some() && asker.account.is_none() {
        return Err(ApiError::RatedNeedsAccount);
    }
    let viewer = viewer_of(&app, Some(&asker)).await?;
    if !visible(&viewer, &seek) {
        return Err(ApiError::NotFound(format!("no seek `{id}`")));
    }
    if seek.owner == asker.hash {
        return Err(ApiError::OwnSeek);
    }
    let player = SeekPlayer {
        hash: asker.hash,
        owner: false,
        name: asker.name.clone(),
        account: asker.account.map(|(name, _)| name),
        seat: None,
        token: None,
    };
    let players = match accept_stored(&app, &id, &player).await? {
        Accepted::Waiting(accepted, needed) => {
            if let Some(seek) = app.lobby.store.seek(&id).await? {
                app.lobby.publish(seek_event("seek_updated", &seek)).await;
            }
            return Ok((
                StatusCode::ACCEPTED,
                Json(json!({ "waiting": accepted, "needed": needed })),
            ));
        }
        Accepted::Filled(players) => players,
    };
    app.lobby.publish(removed_event(&id, &seek.game)).await;
    let (cell, seats) = seat_filled(&app, &seek, &players, client.key.ip()).await?;
    let (_, seat, token) = seats
        .iter()
        .find(|(h, _, _)| *h == asker.hash)
        .cloned()
        .ok_or_else(|| ApiError::Internal("the acceptor has no seat".into()))?;
    let t = cell.table.lock().await;
    Ok((
        StatusCode::OK,
        Json(json!({
            "table": t.id,
            "seat": seat,
            "token": token,
            "invites": view::invites_json(&t),
            "ws": format!("/api/tables/{}/ws", t.id),
            "view": view::table_json(&t, Viewer::Player(seat as usize)),
        })),
    ))
}

/// Stores `player`'s accept of seek `id`: waiting for more players, or
/// filled (with every player).
async fn accept_stored(
    app: &AppState,
    id: &str,
    player: &SeekPlayer,
) -> Result<Accepted, ApiError> {
    match app
        .lobby
        .store
        .accept(id, player, crate::store::unix_now_ms())
        .await
    {
        Ok(Some(outcome)) => Ok(outcome),
        Ok(None) => Err(ApiError::SeekGone),
        Err(StoreError::Constraint(_)) => Err(ApiError::AlreadyAccepted),
        Err(e) => Err(e.into()),
    }
}

/// Makes the table of a filled seek and seats its `players` (the owner at
/// the seat the seek asked for); the seek is paired with it and every
/// player told. If the table cannot be made, the seek is withdrawn.
async fn seat_filled(
    app: &AppState,
    seek: &StoredSeek,
    players: &[SeekPlayer],
    client: std::net::IpAddr,
) -> Result<(Arc<TableCell>, Vec<(TokenHash, i64, String)>), ApiError> {
    let seat_pref: Option<usize> = serde_json::from_str::<Value>(&seek.body)
        .ok()
        .and_then(|b| b["seat"].as_u64())
        .map(|s| s as usize);
    let made = make_table(app, &seek.request, players, seat_pref, client).await;
    let (cell, seats) = match made {
        Ok(made) => made,
        Err(e) => {
            app.lobby.store.withdraw(&seek.id, None).await?;
            return Err(e);
        }
    };
    let table = cell.table.lock().await.id.clone();
    app.lobby.store.set_paired(&seek.id, &table, &seats).await?;
    announce_paired(app, &table, &seats, "seek", &seek.id).await;
    Ok((cell, seats))
}

/// Tells every player of a new table (on every node) his seat and token.
pub(super) async fn announce_paired(
    app: &AppState,
    table: &str,
    seats: &[(TokenHash, i64, String)],
    kind: &str,
    from: &str,
) {
    for (hash, seat, token) in seats {
        let mut message = json!({ "type": "paired", "table": table, "seat": seat, "token": token });
        message[kind] = json!(from);
        app.lobby
            .publish(LobbyEvent {
                message: message.to_string(),
                game: None,
                range: None,
                owner: None,
                to: Some(*hash),
            })
            .await;
    }
}

/// Makes the table of a filled seek or a pairing from its table request
/// (as `POST /api/tables` takes it; the first player is its creator) and
/// seats the players: the first in `first_seat` if given, the others at
/// random. Returns the table and each player's seat and token.
pub(super) async fn make_table(
    app: &AppState,
    request: &str,
    players: &[SeekPlayer],
    first_seat: Option<usize>,
    client: std::net::IpAddr,
) -> Result<(Arc<TableCell>, Vec<(TokenHash, i64, String)>), ApiError> {
    let body: CreateBody =
        serde_json::from_str(request).map_err(|e| ApiError::Internal(e.to_string()))?;
    let first = players
        .first()
        .ok_or_else(|| ApiError::Internal("a table without players".into()))?;
    let account = first.account.as_ref().map(|_| first.hash);
    let new = new_table(app, body, account, client)?;
    let mut seats: Vec<usize> = (0..new.seats.len()).collect();
    seats.shuffle(&mut rand::rng());
    if let Some(s) = first_seat
        && let Some(at) = seats.iter().position(|x| *x == s)
    {
        seats.swap(0, at);
    }
    let hub = app.hub.clone();
    let players = players.to_vec();
    run_to_completion(async move {
        let cell = hub.create(new).await?;
        let mut made = Vec::new();
        for (player, seat) in players.iter().zip(seats) {
            let request = JoinRequest {
                seat: Some(seat),
                name: player.name.clone(),
                player: Some(player.hash),
                account: player.account.clone(),
                key: None,
                seed: None,
                rematch_seat: None,
                auto_roll: Default::default(),
            };
            let joined = hub.join(&cell, request).await?;
            made.push((player.hash, joined.seat as i64, joined.token));
        }
        Ok((cell, made))
    })
    .await
}

/// `DELETE /api/seeks/{id}`: the owner (session cookie, `X-Player-Key` or
/// `player_key` query) withdraws an open seek; 204.
pub async fn withdraw(
    State(app): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    RawQuery(query): RawQuery,
) -> Result<StatusCode, ApiError> {
    let seek = find(&app, &id).await?;
    let key = query_value(&query, "player_key").pop();
    let asker = asker(&app, &headers, key.as_deref(), None)
        .await?
        .ok_or(ApiError::NotFound(format!("no seek `{id}` of yours")))?;
    if !app.lobby.store.withdraw(&id, Some(&asker.hash)).await? {
        return Err(if seek.owner == asker.hash {
            ApiError::SeekGone
        } else {
            ApiError::NotFound(format!("no seek `{id}` of yours"))
        });
    }
    app.lobby.publish(removed_event(&id, &seek.game)).await;
    Ok(StatusCode::NO_CONTENT)
}
