//! `GET /api/tables/{id}/hints`: the AI's best moves for the seat to move,
//! each with its estimated chance of winning (the browser's hint button).

use super::{AppState, bearer};
use crate::error::ApiError;
use axum::Json;
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use serde_json::{Value, json};
use spelbord_ai::Budget;
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
