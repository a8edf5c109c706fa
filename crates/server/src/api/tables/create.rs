//! Creating a table: the request's body, checked, as the hub creates it.

use super::player_hash;
use crate::api::{AppState, JsonBody, run_to_completion};
use crate::clock::TimeControl;
use crate::error::ApiError;
use crate::hub::{NewTable, options_from_json};
use crate::limits::Client;
use crate::store::Inactivity;
use crate::token::TokenHash;
use crate::view;
use axum::Json;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use serde::Deserialize;
use serde_json::{Map, Value};
use spelbord_engine::{Viewer, find_game};

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
    #[serde(default)]
    inactivity: Option<Inactivity>,
    #[serde(default)]
    listed: bool,
    #[serde(default)]
    rated: bool,
    #[serde(default)]
    clock: Option<TimeControl>,
}

/// The fewest and most seconds an inactivity rule may allow.
pub const INACTIVITY_SECONDS: (u64, u64) = (1, 30 * 86_400);

fn yes() -> bool {
    true
}

/// The AI seats the server offers: the levels, and `ai:random` (no search,
/// so no cost). Any other agent (with its own budget) is refused.
pub const AI_SEATS: &[&str] = &["ai:easy", "ai:medium", "ai:hard", "ai:expert", "ai:random"];

/// The agent of an AI seat: a level as written, `random` for `ai:random`.
fn resolve_agent(spec: &str) -> Result<String, ApiError> {
    match spec {
        "ai:random" => Ok("random".into()),
        level if AI_SEATS.contains(&level) => Ok(level.into()),
        _ => Err(ApiError::BadRequest(format!(
            "a seat is `open` or one of {}",
            AI_SEATS.join(", ")
        ))),
    }
}

/// `POST /api/tables`: a new table; 201 with the table and invite links.
pub async fn create(
    State(app): State<AppState>,
    client: Client,
    headers: HeaderMap,
    JsonBody(body): JsonBody<CreateBody>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    if !app.creates.allow(client.key) {
        tracing::debug!(client = %client.addr, "table creation rate limited");
        return Err(ApiError::RateLimited);
    }
    // A signed-in creator's tables are his account's (no key needed).
    let signed_in = crate::api::account_of(&app, &headers).await?;
    let new = new_table(
        &app,
        body,
        signed_in.map(|a| a.player_hash),
        client.key.ip(),
    )?;
    let hub = app.hub.clone();
    let cell = run_to_completion(async move { hub.create(new).await }).await?;
    let t = cell.table.lock().await;
    Ok((
        StatusCode::CREATED,
        Json(view::table_json(&t, Viewer::Spectator)),
    ))
}

/// The table a `POST /api/tables` body asks for, checked, as the hub
/// creates it: `account` is the signed-in creator's player hash (else the
/// body's `player` key makes the creator). Seeks and quick pairing make
/// their tables through this too.
pub(crate) fn new_table(
    app: &AppState,
    body: CreateBody,
    account: Option<TokenHash>,
    client: std::net::IpAddr,
) -> Result<NewTable, ApiError> {
    let inactivity = body.inactivity.unwrap_or_default();
    if !(INACTIVITY_SECONDS.0..=INACTIVITY_SECONDS.1).contains(&inactivity.seconds) {
        return Err(ApiError::BadRequest(format!(
            "inactivity.seconds is {} to {}",
            INACTIVITY_SECONDS.0, INACTIVITY_SECONDS.1
        )));
    }
    if let Some(clock) = &body.clock {
        clock.check().map_err(ApiError::BadClock)?;
    }
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
            other => Some(resolve_agent(other)?),
        });
    }
    if body.rated {
        crate::rated::check_create(game, &options, &seats, account.is_some())?;
    }
    let creator = match account {
        Some(account) => Some(account),
        None => player_hash(body.player.as_deref())?,
    };
    Ok(NewTable {
        game,
        options,
        seats,
        auto_forced: body.auto_forced,
        creator,
        inactivity,
        listed: body.listed,
        rematch_of: None,
        rated: body.rated,
        clock: body.clock,
        client,
    })
}
