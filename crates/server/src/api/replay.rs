//! `GET /api/tables/{id}/replay`: every position of a game with the action
//! that led to it, for the browser's replay view.

use super::AppState;
use crate::error::ApiError;
use crate::view;
use axum::Json;
use axum::extract::{Path, Query, State};
use serde::Deserialize;
use serde_json::{Value, json};
use spelbord_engine::{Turn, Viewer};

/// The query of a replay: whose view to show (a spectator's by default).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReplayQuery {
    #[serde(default)]
    seat: Option<usize>,
}

/// The positions of a game from the start, as `seat` (or a spectator) sees
/// them; for games with hidden information only once the game is over.
pub async fn replay(
    State(app): State<AppState>,
    Path(id): Path<String>,
    Query(query): Query<ReplayQuery>,
) -> Result<Json<Value>, ApiError> {
    let cell = app.hub.table(&id).await?;
    let t = cell.table.lock().await;
    if t.game.hidden_information() && !t.is_over() {
        return Err(ApiError::NotFinished);
    }
    let viewer = match query.seat {
        None => Viewer::Spectator,
        Some(seat) if seat < t.seats.len() => Viewer::Player(seat),
        Some(seat) => {
            return Err(ApiError::BadRequest(format!(
                "the table has seats 0 to {}, not {seat}",
                t.seats.len() - 1
            )));
        }
    };
    let record = t.record();
    let mut state = t
        .game
        .new_state(&t.options)
        .map_err(|e| ApiError::Internal(e.to_string()))?;
    let mut steps = Vec::with_capacity(t.actions.len() + 1);
    steps.push(json!({
        "version": 0, "seat": null, "auto": false, "text": null, "events": [],
        "state": view::state_json(&*state, 0, viewer),
    }));
    for action in &t.actions {
        // The outcomes of a chance action with their probabilities, so that
        // the browser can check the dice against the revealed seed.
        let chance: Option<Vec<Value>> = (state.turn() == Turn::Chance).then(|| {
            state
                .chance_outcomes()
                .into_iter()
                .map(|(a, p)| json!({ "text": a.text, "p": p }))
                .collect()
        });
        let before = state.clone_box();
        let info = state.apply_recorded(&action.text).map_err(|e| {
            ApiError::Internal(format!(
                "the record does not replay at `{}`: {e}",
                action.text
            ))
        })?;
        let mut step = json!({
            "version": action.version,
            "seat": action.seat,
            "auto": action.auto,
            "text": action.text,
            "json": info.json,
            "events": state.game_events(),
            "state": view::state_json(&*state, action.version, viewer),
        });
        if let Some(chance) = chance {
            step["chance"] = json!(chance);
        }
        if let Some(boards) = before.play_boards(&info.json) {
            step["boards"] = Value::from(boards);
        }
        steps.push(step);
    }
    Ok(Json(json!({
        "table": t.id,
        "game": t.game.id(),
        "options": t.options,
        "players": record.players,
        "seats": view::seats_json(&t.seats),
        "dice": t.dice_proof(),
        "ending": t.ending,
        "result": record.result,
        "outcome": record.outcome,
        "finished": t.is_over(),
        "steps": steps,
    })))
}
