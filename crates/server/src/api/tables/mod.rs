//! Tables: create, read, join, act, record, and a player's open tables.

use super::{AppState, JsonBody, bearer, run_to_completion};
use crate::clock::TimeControl;
use crate::dice::is_valid_seat_seed;
use crate::error::ApiError;
use crate::hub::{JoinRequest, NewTable, options_from_json};
use crate::limits::{Client, Limits};
use crate::store::{AutoRoll, Inactivity};
use crate::table::ActionInput;
use crate::token::{PLAYER_KEY_LEN, TokenHash, hash_token};
use crate::view;
use axum::Json;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};
use spelbord_engine::{Resignation, Turn, Viewer, find_game};

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
    #[serde(default)]
    key: Option<String>,
    #[serde(default)]
    seed: Option<String>,
    #[serde(default)]
    rematch_token: Option<String>,
    #[serde(default)]
    auto_roll: AutoRoll,
}

/// Body of `POST /api/tables/{id}/settings`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SettingsBody {
    auto_roll: AutoRoll,
}

/// Body of `POST /api/tables/{id}/rematch`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RematchBody {
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

/// The hash of a player key given, checked for its length.
pub(super) fn player_hash(player: Option<&str>) -> Result<Option<TokenHash>, ApiError> {
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

pub(super) fn check_name(
    name: Option<String>,
    limits: &Limits,
) -> Result<Option<String>, ApiError> {
    let Some(name) = name else { return Ok(None) };
    let name = name.trim().to_string();
    if name.chars().count() > limits.max_name || name.chars().any(is_unsafe_in_name) {
        return Err(ApiError::BadRequest(format!(
            "a name has at most {} characters and no control, invisible or direction characters",
            limits.max_name
        )));
    }
    Ok((!name.is_empty()).then_some(name))
}

/// Characters refused in names: controls, and invisible or direction
/// formatting characters that can disguise a name or reorder the text
/// around it (zero-width spaces and joiners, bidirectional marks,
/// embeddings, overrides and isolates, the byte-order mark).
pub fn is_unsafe_in_name(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{00AD}'
                | '\u{034F}'
                | '\u{061C}'
                | '\u{115F}'
                | '\u{1160}'
                | '\u{17B4}'
                | '\u{17B5}'
                | '\u{180B}'..='\u{180F}'
                | '\u{200B}'..='\u{200F}'
                | '\u{2028}'..='\u{202E}'
                | '\u{2060}'..='\u{206F}'
                | '\u{3164}'
                | '\u{FE00}'..='\u{FE0F}'
                | '\u{FEFF}'
                | '\u{FFA0}'
                | '\u{FFF9}'..='\u{FFFB}'
                | '\u{E0000}'..='\u{E007F}'
        )
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
    let signed_in = super::account_of(&app, &headers).await?;
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
    let mut body = view::table_json(&t, viewer);
    if t.rated {
        let game = t.game.id();
        let (options, seats) = (t.options.clone(), t.seats.clone());
        drop(t);
        super::ratings::add_seat_ratings(&app, &mut body, game, &options, &seats).await?;
    }
    Ok(Json(body))
}

/// `POST /api/tables/{id}/join`: takes an open seat; returns its secret token.
pub async fn join(
    State(app): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    JsonBody(body): JsonBody<JoinBody>,
) -> Result<Json<Value>, ApiError> {
    let mut name = check_name(body.name, &app.limits)?;
    let mut player = player_hash(body.player.as_deref())?;
    // A signed-in player's seat is his account's, under its name.
    let account = super::account_of(&app, &headers).await?;
    if let Some(account) = &account {
        player = Some(account.player_hash);
        name = Some(account.name.clone());
    }
    if let Some(key) = &body.key
        && !(PLAYER_KEY_LEN.0..=PLAYER_KEY_LEN.1).contains(&key.len())
    {
        return Err(ApiError::BadRequest(format!(
            "a join key has {} to {} characters",
            PLAYER_KEY_LEN.0, PLAYER_KEY_LEN.1
        )));
    }
    if let Some(seed) = &body.seed
        && !is_valid_seat_seed(seed)
    {
        return Err(ApiError::BadRequest(
            "a seat seed has 1 to 64 of 0-9, a-z, A-Z, _ and -".into(),
        ));
    }
    let cell = app.hub.table(&id).await?;
    let rematch_of = cell.table.lock().await.rematch_of.clone();
    let rematch_seat = match (rematch_of, body.rematch_token) {
        (Some(last), Some(token)) => {
            let last = app.hub.table(&last).await?;
            let seat = last.table.lock().await.seat_of_token(&token);
            Some(seat.ok_or(ApiError::Unauthorized)?)
        }
        _ => None,
    };
    let request = JoinRequest {
        seat: body.seat.or(rematch_seat),
        name,
        player,
        account: account.map(|a| a.name),
        key: body.key,
        seed: body.seed,
        rematch_seat,
        auto_roll: body.auto_roll,
    };
    let hub = app.hub.clone();
    let joining = cell.clone();
    let joined = run_to_completion(async move { hub.join(&joining, request).await }).await?;
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

/// `POST /api/tables/{id}/rematch`: the rematch of a finished table for the
/// token's seat (made by the first player who asks, the same table for the
/// others): 201 when made, 200 when it existed, with its id and the seat,
/// which the player then joins with `rematch_token`.
pub async fn rematch(
    State(app): State<AppState>,
    client: Client,
    Path(id): Path<String>,
    headers: HeaderMap,
    JsonBody(body): JsonBody<RematchBody>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    let token = bearer(&headers)?.ok_or(ApiError::Unauthorized)?;
    // A signed-in player's rematch is his account's (as a new table is).
    let creator = match super::account_of(&app, &headers).await? {
        Some(account) => Some(account.player_hash),
        None => player_hash(body.player.as_deref())?,
    };
    let cell = app.hub.table(&id).await?;
    if cell.table.lock().await.rematch.is_none() && !app.creates.allow(client.key) {
        tracing::debug!(client = %client.addr, "table creation rate limited");
        return Err(ApiError::RateLimited);
    }
    let hub = app.hub.clone();
    let asking = cell.clone();
    let made =
        run_to_completion(
            async move { hub.rematch(&asking, &token, creator, client.key.ip()).await },
        )
        .await?;
    let status = if made.created {
        StatusCode::CREATED
    } else {
        StatusCode::OK
    };
    Ok((
        status,
        Json(json!({ "table": id, "rematch": made.table, "seat": made.seat })),
    ))
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

/// `POST /api/tables/{id}/settings`: the token's seat's settings
/// (`auto_roll`: `ask`, `useless` or `always`); answers the table as the
/// seat sees it. A cube decision the new setting skips is rolled at once.
pub async fn settings(
    State(app): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    JsonBody(body): JsonBody<SettingsBody>,
) -> Result<Json<Value>, ApiError> {
    let token = bearer(&headers)?.ok_or(ApiError::Unauthorized)?;
    let cell = app.hub.table(&id).await?;
    let hub = app.hub.clone();
    let setting = cell.clone();
    let seat =
        run_to_completion(async move { hub.set_auto_roll(&setting, &token, body.auto_roll).await })
            .await?;
    let t = cell.table.lock().await;
    Ok(Json(view::table_json(&t, Viewer::Player(seat))))
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

/// `POST /api/tables/{id}/close`: the creator (`X-Player-Key`) closes a
/// table that has not started.
pub async fn close(
    State(app): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    JsonBody(_): JsonBody<Map<String, Value>>,
) -> Result<Json<Value>, ApiError> {
    let player = player_of(&app, &headers).await?;
    let cell = app.hub.table(&id).await?;
    let hub = app.hub.clone();
    let closing = cell.clone();
    run_to_completion(async move { hub.close(&closing, &player).await }).await?;
    let t = cell.table.lock().await;
    Ok(Json(view::table_json(&t, Viewer::Spectator)))
}

/// `GET /api/tables/{id}/seat-link`: a link that continues the token's seat
/// on another device (the token travels in the fragment, which browsers
/// never send to a server).
pub async fn seat_link(
    State(app): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    let token = bearer(&headers)?.ok_or(ApiError::Unauthorized)?;
    let cell = app.hub.table(&id).await?;
    let t = cell.table.lock().await;
    let seat = t.seat_of_token(&token).ok_or(ApiError::Unauthorized)?;
    Ok(Json(json!({
        "seat": seat,
        "url": format!("/t/{}?seat={seat}#token={token}", t.id),
    })))
}

/// The player of a request: the hash of the `X-Player-Key` header's key,
/// or else the signed-in account's player hash.
async fn player_of(app: &AppState, headers: &HeaderMap) -> Result<TokenHash, ApiError> {
    if let Some(key) = headers.get("x-player-key") {
        let key = key
            .to_str()
            .map_err(|_| ApiError::BadRequest("a player key is text".into()))?;
        return player_hash(Some(key))?
            .ok_or_else(|| ApiError::BadRequest("a player key is needed".into()));
    }
    match super::account_of(app, headers).await? {
        Some(account) => Ok(account.player_hash),
        None => Err(ApiError::BadRequest(
            "the X-Player-Key header (or a session cookie) is needed".into(),
        )),
    }
}

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
