//! Playing at a table: reading it, acting, resigning, and its record.

use super::viewer_of;
use crate::api::{AppState, JsonBody, bearer, run_to_completion};
use crate::error::ApiError;
use crate::table::ActionInput;
use crate::view;
use axum::Json;
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};
use spelbord_engine::{Resignation, Viewer};

/// Body of `POST /api/tables/{id}/actions`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ActBody {
    version: u64,
    #[serde(default)]
    action: Option<String>,
    #[serde(default)]
    json: Option<Value>,
}

/// `GET /api/tables/{id}`: the table as the token's seat (or a spectator) sees it.
pub async fn read(
    State(app): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    let cell = app.hub.table(&id).await?;
    let t = cell.table.lock().await;
    let viewer = viewer_of(&headers, &t).await?;
    let mut body = view::table_json(&t, viewer);
    if t.rated {
        let game = t.game.id();
        let (options, seats) = (t.options.clone(), t.seats.clone());
        drop(t);
        crate::api::ratings::add_seat_ratings(&app, &mut body, game, &options, &seats).await?;
    }
    Ok(Json(body))
}

/// `POST /api/tables/{id}/actions`: plays an action for the token's seat.
pub async fn act(
    State(app): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    JsonBody(body): JsonBody<ActBody>,
) -> Result<Json<ActReply>, ApiError> {
    let token = bearer(&headers)?.ok_or(ApiError::Unauthorized)?;
    let input = match (body.action, body.json) {
        (Some(text), None) if text.chars().count() <= app.limits.max_action => {
            ActionInput::Text(text)
        }
        (Some(_), None) => return Err(ApiError::BadAction("the action is too long".into())),
        (None, Some(json)) => ActionInput::Json(json),
        _ => {
            return Err(ApiError::BadJson(
                "give exactly one of `action` (notation) and `json`".into(),
            ));
        }
    };
    let cell = app.hub.table(&id).await?;
    let hidden = cell.table.lock().await.game.hidden_information();
    let hub = app.hub.clone();
    let acting = cell.clone();
    let (seat, events) =
        run_to_completion(async move { hub.act(&acting, &token, body.version, input).await })
            .await?;
    let last = events.last().expect("an action gives at least one event");
    let actions: Vec<Value> = events
        .iter()
        .map(|e| {
            let mut a = view::action_json(e, hidden);
            a["version"] = json!(e.version);
            a
        })
        .collect();
    Ok(Json(ActReply {
        version: last.version,
        actions,
        state: view::StateView::new(&*last.state, last.version, Viewer::Player(seat)),
    }))
}

/// The answer to an action: the version, the actions applied, the state.
#[derive(Serialize)]
pub struct ActReply {
    version: u64,
    actions: Vec<Value>,
    state: view::StateView,
}

/// `GET /api/tables/{id}/record`: the game's record; for games with hidden
/// information only once the game is over.
pub async fn record(
    State(app): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let cell = app.hub.table(&id).await?;
    let t = cell.table.lock().await;
    if t.game.hidden_information() && !t.is_over() {
        return Err(ApiError::NotFinished);
    }
    let mut body =
        serde_json::to_value(t.record()).map_err(|e| ApiError::Internal(e.to_string()))?;
    body["finished"] = json!(t.is_over());
    body["version"] = json!(t.version);
    body["ending"] = json!(t.ending);
    body["dice"] = json!(t.dice_proof());
    // The clock's record: the time control, and per action the
    // milliseconds its seat took and every seat's milliseconds left after it.
    if let Some(clock) = &t.clock {
        body["clock"] = json!(clock.control);
        body["times"] = t
            .actions
            .iter()
            .map(|a| json!({ "version": a.version, "think_ms": a.think_ms, "left_ms": a.clock }))
            .collect();
    }
    Ok(Json(body))
}

/// `POST /api/tables/{id}/resign`: the token's seat gives up what the body's
/// `kind` says (`single`, `gammon`, `backgammon`; `match`, the default,
/// gives up the whole game or match); the game's rules say what it pays.
pub async fn resign(
    State(app): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    JsonBody(body): JsonBody<Map<String, Value>>,
) -> Result<Json<Value>, ApiError> {
    let token = bearer(&headers)?.ok_or(ApiError::Unauthorized)?;
    let kind = match body.get("kind") {
        None => Resignation::Match,
        Some(kind) => kind
            .as_str()
            .and_then(Resignation::from_word)
            .ok_or_else(|| {
                ApiError::BadRequest("kind is single, gammon, backgammon or match".into())
            })?,
    };
    let cell = app.hub.table(&id).await?;
    let hub = app.hub.clone();
    let resigning = cell.clone();
    let seat = run_to_completion(async move { hub.resign(&resigning, &token, kind).await }).await?;
    let t = cell.table.lock().await;
    Ok(Json(view::table_json(&t, Viewer::Player(seat))))
}
