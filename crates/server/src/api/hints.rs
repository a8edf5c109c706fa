//! `GET /api/tables/{id}/hints`: the AI's best moves for the seat to move,
//! each with its estimated chance of winning (the browser's hint button);
//! `GET /api/hints?game=G&position=TEXT`: the same for a position given as
//! text (in backgammon also GNU Backgammon's position and match ID).

use super::{AppState, bearer};
use crate::error::ApiError;
use axum::Json;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::HeaderMap;
use serde::Deserialize;
use serde_json::{Value, json};
use spelbord_ai::{AiError, Budget};
use spelbord_engine::Turn;
use std::time::Duration;
use tokio::sync::Semaphore;

/// How many hints are given.
const HINTS: usize = 5;

/// How long one hint search may take.
const HINT_TIME: Duration = Duration::from_millis(700);

/// Hint searches running at once on the whole server (each on one core),
/// so that hints never starve AI seats; one at a time per table.
static HINT_PERMITS: Semaphore = Semaphore::const_new(2);

/// How long a hint request waits for a free place before it is refused.
const HINT_WAIT: Duration = Duration::from_secs(5);

/// The best moves for the token's seat, which must be to move.
pub async fn hints(
    State(app): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    let token = bearer(&headers)?.ok_or(ApiError::Unauthorized)?;
    let cell = app.hub.table(&id).await?;
    let (state, version) = {
        let t = cell.table.lock().await;
        let seat = t.seat_of_token(&token).ok_or(ApiError::Unauthorized)?;
        match t.state.turn() {
            Turn::Player(p) if p == seat => {}
            Turn::Over => return Err(ApiError::GameOver),
            _ => return Err(ApiError::NotYourTurn(seat)),
        }
        (t.state.clone(), t.version)
    };
    let _this_table = cell.hinting.try_lock().map_err(|_| ApiError::HintsBusy)?;
    let _permit = tokio::time::timeout(HINT_WAIT, HINT_PERMITS.acquire())
        .await
        .map_err(|_| ApiError::HintsBusy)?
        .map_err(|e| ApiError::Internal(e.to_string()))?;
    let budget = Budget::Millis(HINT_TIME.as_millis() as u64);
    let seed = version ^ 0x5eed;
    let found =
        tokio::task::spawn_blocking(move || spelbord_ai::hints(&*state, HINTS, budget, seed))
            .await
            .map_err(|e| ApiError::Internal(format!("the hint search failed: {e}")))?
            .map_err(|e| ApiError::Internal(e.to_string()))?;
    Ok(Json(json!({ "version": version, "hints": found })))
}

/// The longest position text accepted.
const MAX_POSITION: usize = 400;

/// The query of position hints: the game (backgammon by default) and the
/// position in its notation.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PositionQuery {
    #[serde(default)]
    game: Option<String>,
    position: String,
}

/// The best moves for the player to move in a position given as text.
/// Needs no table; shares the server's hint searches and their bound.
pub async fn position_hints(
    query: Result<Query<PositionQuery>, QueryRejection>,
) -> Result<Json<Value>, ApiError> {
    let Query(query) = query.map_err(|e| ApiError::BadRequest(e.body_text()))?;
    let game = query.game.unwrap_or_else(|| "backgammon".into());
    if query.position.len() > MAX_POSITION {
        return Err(ApiError::BadRequest(format!(
            "a position has at most {MAX_POSITION} characters"
        )));
    }
    let _permit = tokio::time::timeout(HINT_WAIT, HINT_PERMITS.acquire())
        .await
        .map_err(|_| ApiError::HintsBusy)?
        .map_err(|e| ApiError::Internal(e.to_string()))?;
    let budget = Budget::Millis(HINT_TIME.as_millis() as u64);
    let (g, position) = (game.clone(), query.position);
    let found = tokio::task::spawn_blocking(move || {
        spelbord_ai::hints_at_position(&g, &position, HINTS, budget, 0x5eed)
    })
    .await
    .map_err(|e| ApiError::Internal(format!("the hint search failed: {e}")))?
    .map_err(|e| match e {
        AiError::UnknownGame(_) => ApiError::UnknownGame(e.to_string()),
        AiError::BadPosition(m) => ApiError::BadRequest(m),
        AiError::NotAPlayersTurn => ApiError::BadRequest(
            "nobody is to move in this position (in backgammon, give the dice or a cube \
             decision in the match ID)"
                .into(),
        ),
        AiError::UnknownAgent(m) => ApiError::Internal(m),
    })?;
    Ok(Json(json!({
        "game": game,
        "position": found.position,
        "player": found.player,
        "hints": found.hints,
    })))
}
