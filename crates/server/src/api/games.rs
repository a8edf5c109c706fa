//! The game catalogue and the health check.

use super::AppState;
use crate::error::ApiError;
use axum::Json;
use axum::extract::{Path, State};
use serde_json::{Value, json};
use spelbord_engine::{DynGame, find_game, games};

/// The AI seats the server offers.
pub fn agents() -> Vec<&'static str> {
    super::tables::AI_SEATS.to_vec()
}

fn game_json(game: &dyn DynGame) -> Value {
    json!({
        "id": game.id(),
        "name": game.name(),
        "summary": game.summary(),
        "players": { "min": game.players().0, "max": game.players().1 },
        "hidden_information": game.hidden_information(),
        "options": game.option_specs(),
        "agents": agents(),
    })
}

/// `GET /api/games`: every game with its options.
pub async fn list() -> Json<Value> {
    let games: Vec<Value> = games().into_iter().map(game_json).collect();
    Json(json!({ "games": games }))
}

/// `GET /api/games/{game}`: one game, with its rules in Markdown.
pub async fn one(Path(id): Path<String>) -> Result<Json<Value>, ApiError> {
    let game = find_game(&id).map_err(|e| ApiError::NotFound(e.to_string()))?;
    let mut body = game_json(game);
    body["rules"] = json!(game.rules());
    Ok(Json(body))
}

/// `GET /api/health`: the server is up.
pub async fn health(State(app): State<AppState>) -> Json<Value> {
    Json(json!({
        "ok": !app.hub.stopping(),
        "version": env!("CARGO_PKG_VERSION"),
        "live_tables": app.hub.live_tables(),
    }))
}
