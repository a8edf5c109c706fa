//! Tables: create, read, join, act, record, and a player's open tables.

use super::{AppState, JsonBody, bearer, run_to_completion};
use crate::error::ApiError;
use crate::hub::{NewTable, options_from_json};
use crate::limits::Limits;
use crate::table::ActionInput;
use crate::token::{PLAYER_KEY_LEN, TokenHash, hash_token};
use crate::view;
use axum::Json;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use serde::Deserialize;
use serde_json::{Map, Value, json};
use spelbord_engine::{DynGame, Game, GameVisitor, Turn, Viewer, find_game, visit_game};

/// Body of `POST /api/tables`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateBody {
    game: String,
    #[serde(default)]
    options: Option<Map<String, Value>>,
    #[serde(default)]
    seats: Option<Vec<String>>,
    #[serde(default = "yes")]
    auto_forced: bool,
    #[serde(default)]
    player: Option<String>,
}

fn yes() -> bool {
    true
}

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
}

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

struct AgentExists<'a>(&'a str);

impl GameVisitor for AgentExists<'_> {
    type Output = bool;
    fn visit<G: Game>(self) -> bool {
        spelbord_ai::make_agent::<G>(self.0, 0).is_ok()
    }
}

/// The agent for a seat written `ai:LEVEL` (or a bare agent name such as
/// `random`): the full name if the AI knows it, else the part after `ai:`.
fn resolve_agent(game: &dyn DynGame, spec: &str) -> Result<String, ApiError> {
    let bare = spec.strip_prefix("ai:").unwrap_or(spec);
    for candidate in [spec, bare] {
        if visit_game(game.id(), AgentExists(candidate)).unwrap_or(false) {
            return Ok(candidate.to_string());
        }
    }
    Err(ApiError::BadRequest(format!(
        "seat `{spec}` is neither `open` nor a known agent (known: {})",
        spelbord_ai::AGENT_NAMES.join(", ")
    )))
}

fn player_hash(player: Option<&str>) -> Result<Option<TokenHash>, ApiError> {
    match player {
        None => Ok(None),
        Some(key) if (PLAYER_KEY_LEN.0..=PLAYER_KEY_LEN.1).contains(&key.len()) => {
            Ok(Some(hash_token(key)))
        }
        Some(_) => Err(ApiError::BadRequest(format!(
            "a player key has {} to {} characters",
            PLAYER_KEY_LEN.0, PLAYER_KEY_LEN.1
        ))),
    }
}

fn check_name(name: Option<String>, limits: &Limits) -> Result<Option<String>, ApiError> {
    let Some(name) = name else { return Ok(None) };
    let name = name.trim().to_string();
    if name.chars().count() > limits.max_name || name.chars().any(char::is_control) {
        return Err(ApiError::BadRequest(format!(
            "a name has at most {} characters and no control characters",
            limits.max_name
        )));
    }
    Ok((!name.is_empty()).then_some(name))
}

/// `POST /api/tables`: a new table; 201 with the table and invite links.
pub async fn create(
    State(app): State<AppState>,
    JsonBody(body): JsonBody<CreateBody>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    let game = find_game(&body.game).map_err(ApiError::from_setup_error)?;
    if body
        .options
        .as_ref()
        .is_some_and(|o| o.len() > app.limits.max_options)
    {
        return Err(ApiError::BadOption("too many options".into()));
    }
    let options = options_from_json(game, body.options.as_ref())?;
    let players = game
        .new_state(&options)
        .map_err(ApiError::from_setup_error)?
        .num_players();
    let specs = body
        .seats
        .unwrap_or_else(|| vec!["open".to_string(); players]);
    if specs.len() != players {
        return Err(ApiError::BadRequest(format!(
            "{} with these options has {players} seats, but {} were given",
            game.id(),
            specs.len()
        )));
    }
    let mut seats = Vec::with_capacity(players);
    for spec in &specs {
        if spec.len() > 64 {
            return Err(ApiError::BadRequest(
                "a seat is `open` or `ai:LEVEL`".into(),
            ));
        }
        seats.push(match spec.as_str() {
            "open" | "human" => None,
            other => Some(resolve_agent(game, other)?),
        });
    }
    let new = NewTable {
        game,
        options,
        seats,
        auto_forced: body.auto_forced,
        creator: player_hash(body.player.as_deref())?,
    };
    let hub = app.hub.clone();
    let cell = run_to_completion(async move { hub.create(new).await }).await?;
    let t = cell.table.lock().await;
    Ok((
        StatusCode::CREATED,
        Json(view::table_json(&t, Viewer::Spectator)),
    ))
}

/// The viewer for a request: the seat of its bearer token, or a spectator.
async fn viewer_of(headers: &HeaderMap, table: &crate::table::Table) -> Result<Viewer, ApiError> {
    match bearer(headers)? {
        None => Ok(Viewer::Spectator),
        Some(token) => table
            .seat_of_token(&token)
            .map(Viewer::Player)
            .ok_or(ApiError::Unauthorized),
    }
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
    Ok(Json(view::table_json(&t, viewer)))
}

/// `POST /api/tables/{id}/join`: takes an open seat; returns its secret token.
pub async fn join(
    State(app): State<AppState>,
    Path(id): Path<String>,
    JsonBody(body): JsonBody<JoinBody>,
) -> Result<Json<Value>, ApiError> {
    let name = check_name(body.name, &app.limits)?;
    let player = player_hash(body.player.as_deref())?;
    let cell = app.hub.table(&id).await?;
    let hub = app.hub.clone();
    let joining = cell.clone();
    let joined =
        run_to_completion(async move { hub.join(&joining, body.seat, name, player).await }).await?;
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

/// `POST /api/tables/{id}/actions`: plays an action for the token's seat.
pub async fn act(
    State(app): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    JsonBody(body): JsonBody<ActBody>,
) -> Result<Json<Value>, ApiError> {
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
    Ok(Json(json!({
        "version": last.version,
        "actions": actions,
        "state": view::state_json(&*last.state, last.version, Viewer::Player(seat)),
    })))
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
    Ok(Json(body))
}

/// `GET /api/players/me/tables`: the unfinished tables where the player of
/// the `X-Player-Key` header sits or that he created.
pub async fn player_tables(
    State(app): State<AppState>,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    let key = headers
        .get("x-player-key")
        .and_then(|v| v.to_str().ok())
        .ok_or_else(|| ApiError::BadRequest("the X-Player-Key header is needed".into()))?;
    let player = player_hash(Some(key))?.expect("a key was given");
    let mut tables = Vec::new();
    for id in app.hub.player_tables(&player).await? {
        let Ok(cell) = app.hub.table(&id).await else {
            continue;
        };
        let t = cell.table.lock().await;
        let mine: Vec<usize> = t
            .seats
            .iter()
            .filter(|s| s.player_hash == Some(player))
            .map(|s| s.seat)
            .collect();
        let your_turn = matches!(t.state.turn(), Turn::Player(p) if mine.contains(&p));
        tables.push(json!({
            "id": t.id,
            "game": t.game.id(),
            "status": view::status(&t),
            "version": t.version,
            "seats": view::seats_json(&t.seats),
            "your_seats": mine,
            "your_turn": your_turn,
            "created": t.creator_hash == Some(player),
            "updated_at": t.updated_at,
        }));
    }
    Ok(Json(json!({ "tables": tables })))
}
