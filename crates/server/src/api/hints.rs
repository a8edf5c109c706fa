//! `GET /api/tables/{id}/hints`: the AI's best moves for the seat to move,
//! each with its estimated chance of winning (the browser's hint button);
//! `GET /api/hints?game=G&position=TEXT`: the same for a position given as
//! text (in backgammon also GNU Backgammon's position and match ID).

use super::{AppState, bearer};
use crate::error::ApiError;
use crate::limits::Held;
use crate::thinking::{Lane, Owner, Slot};
use axum::Json;
use axum::extract::rejection::QueryRejection;
use axum::extract::{ConnectInfo, Path, Query, State};
use axum::http::HeaderMap;
use serde::Deserialize;
use serde_json::{Value, json};
use spelbord_ai::{AiError, Budget, level_of_hints};
use spelbord_engine::Turn;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

/// How many hints are given.
const HINTS: usize = 5;

/// How long one hint search may take.
const HINT_TIME: Duration = Duration::from_millis(700);

/// How long a hint request waits for its turn at the AI workers (shared
/// fairly with the AI seats, see `crate::thinking`) before it is refused.
const HINT_WAIT: Duration = Duration::from_secs(30);

/// The table key of hints for positions given as text (no table).
const POSITION_HINTS: &str = "position hints";

/// Waits for a slot of the fair scheduler for a hint search of `game` asked
/// for by `client` at `table`: refused (`hints_busy`) when the client (or
/// the whole server) has as many hint requests as allowed, or after
/// [`HINT_WAIT`].
async fn hint_slot(
    app: &AppState,
    client: IpAddr,
    table: &str,
    game: &str,
) -> Result<(Held<IpAddr>, Slot), ApiError> {
    let thinking = app.hub.thinking();
    let place = thinking.hint_place(client).map_err(|refused| {
        tracing::info!(client = %client, ?refused, "hint requests at the cap");
        ApiError::HintsBusy
    })?;
    let lane = Lane::of_agent(level_of_hints(game));
    let pending = thinking.enqueue(lane, Owner::Address(client), Arc::from(table));
    let slot = tokio::time::timeout(HINT_WAIT, pending.slot())
        .await
        .map_err(|_| {
            tracing::info!(client = %client, "a hint waited too long");
            ApiError::HintsBusy
        })?
        .map_err(|e| ApiError::Internal(format!("no slot for the hint: {e:?}")))?;
    Ok((place, slot))
}

/// The best moves for the token's seat, which must be to move.
pub async fn hints(
    State(app): State<AppState>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
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
    let _slot = hint_slot(&app, peer.ip(), &id, state.game_id()).await?;
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
/// Needs no table; waits for the fair scheduler as table hints do.
pub async fn position_hints(
    State(app): State<AppState>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    query: Result<Query<PositionQuery>, QueryRejection>,
) -> Result<Json<Value>, ApiError> {
    let Query(query) = query.map_err(|e| ApiError::BadRequest(e.body_text()))?;
    let game = query.game.unwrap_or_else(|| "backgammon".into());
    if query.position.len() > MAX_POSITION {
        return Err(ApiError::BadRequest(format!(
            "a position has at most {MAX_POSITION} characters"
        )));
    }
    if spelbord_engine::find_game(&game).is_err() {
        return Err(ApiError::UnknownGame(format!("unknown game `{game}`")));
    }
    let _slot = hint_slot(&app, peer.ip(), POSITION_HINTS, &game).await?;
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
