//! Lists of tables: a player's unfinished tables and the lobby's lists.

use super::player_of;
use crate::api::AppState;
use crate::error::ApiError;
use crate::view;
use axum::Json;
use axum::extract::{Query, State};
use axum::http::HeaderMap;
use serde::Deserialize;
use serde_json::{Value, json};
use spelbord_engine::Turn;

/// `GET /api/players/me/tables`: the unfinished tables where the player of
/// the `X-Player-Key` header sits or that he created.
pub async fn player_tables(
    State(app): State<AppState>,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    let player = player_of(&app, &headers).await?;
    let mut tables = Vec::new();
    for id in app.hub.player_tables(&player).await? {
        let Ok(cell) = app.hub.table(&id).await else {
            continue;
        };
        let t = cell.table.lock().await;
        if t.is_over() {
            continue;
        }
        let mine: Vec<usize> = t
            .seats
            .iter()
            .filter(|s| s.player_hash == Some(player))
            .map(|s| s.seat)
            .collect();
        let your_turn = matches!(t.state.turn(), Turn::Player(p) if mine.contains(&p));
        tables.push(with_control(
            &t,
            json!({
                "id": t.id,
                "game": t.game.id(),
                "status": view::status(&t),
                "version": t.version,
                "seats": view::seats_json(&t.seats),
                "your_seats": mine,
                "your_turn": your_turn,
                "created": t.creator_hash == Some(player),
                "updated_at": t.updated_at,
                "inactivity": t.inactivity,
                "rated": t.rated,
            }),
        ));
    }
    Ok(Json(json!({ "tables": tables })))
}

/// The tables a lobby list shows per page, and the pages it reaches.
pub const LIST_PAGE: (u32, u32) = (20, 50);

/// Query of `GET /api/tables`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ListQuery {
    list: String,
    #[serde(default)]
    page: u32,
}

/// `GET /api/tables?list=open|live&page=N`: tables their creators list in
/// the lobby, the latest changed first, a page at a time: with an open
/// seat to join (`open`), or with every seat taken, to watch (`live`).
pub async fn listed(
    State(app): State<AppState>,
    Query(query): Query<ListQuery>,
) -> Result<Json<Value>, ApiError> {
    let live = match query.list.as_str() {
        "open" => false,
        "live" => true,
        _ => return Err(ApiError::BadRequest("list is `open` or `live`".into())),
    };
    if query.page >= LIST_PAGE.1 {
        return Err(ApiError::BadRequest(format!(
            "page is below {}",
            LIST_PAGE.1
        )));
    }
    let (tables, more) = listed_rows(&app, live, query.page).await?;
    let more = more && query.page + 1 < LIST_PAGE.1;
    Ok(Json(
        json!({ "tables": tables, "page": query.page, "more": more }),
    ))
}

/// A page of the lobby's `open` or `live` list (the rows `GET /api/tables`
/// gives), and whether there are more.
pub(crate) async fn listed_rows(
    app: &AppState,
    live: bool,
    page: u32,
) -> Result<(Vec<Value>, bool), ApiError> {
    let ids = app.hub.listed_tables(live, page, LIST_PAGE.0 + 1).await?;
    let more = ids.len() > LIST_PAGE.0 as usize;
    let mut tables = Vec::new();
    for id in ids.iter().take(LIST_PAGE.0 as usize) {
        let Ok(cell) = app.hub.table(id).await else {
            continue;
        };
        let t = cell.table.lock().await;
        if t.is_over() {
            continue;
        }
        tables.push(with_control(
            &t,
            json!({
                "id": t.id,
                "game": t.game.id(),
                "options": t.options,
                "status": view::status(&t),
                "version": t.version,
                "seats": view::seats_json(&t.seats),
                "updated_at": t.updated_at,
                "inactivity": t.inactivity,
                "rated": t.rated,
            }),
        ));
    }
    Ok((tables, more))
}

/// A list row with the table's time control, when it has a clock.
fn with_control(t: &crate::table::Table, mut row: Value) -> Value {
    if let Some(clock) = &t.clock {
        row["clock"] = json!(clock.control);
    }
    row
}
