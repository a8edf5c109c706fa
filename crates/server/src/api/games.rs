//! The game catalogue and the health check.

use super::AppState;
use crate::error::ApiError;
use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
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

/// `GET /api/health`: whether this node can serve: 200 when its database
/// takes writes (and, with several nodes, notifications arrive), else 503.
pub async fn health(State(app): State<AppState>) -> (StatusCode, Json<Value>) {
    let report = app.hub.health().report();
    let ok = report.ok && !app.hub.stopping();
    let status = if ok {
        StatusCode::OK
    } else {
        StatusCode::SERVICE_UNAVAILABLE
    };
    // The database's error is in the log, not here: answers carry no
    // database detail.
    let mut body = json!({
        "ok": ok,
        "version": env!("CARGO_PKG_VERSION"),
        "live_tables": app.hub.live_tables(),
        "database": if report.database_error.is_none() { "ok" } else { "failing" },
        "stopping": app.hub.stopping(),
    });
    if let Some(up) = report.notifications {
        body["notifications"] = json!(if up { "ok" } else { "down" });
    }
    if let Some(cluster) = app.hub.cluster() {
        body["forwarded"] = json!(cluster.forwarded());
        body["notices"] = json!(cluster.notices());
    }
    if let Some(route) = app.hub.route() {
        body["route"] = json!(route.name());
    }
    (status, Json(body))
}
