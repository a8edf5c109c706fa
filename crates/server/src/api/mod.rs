//! The HTTP routes, shared request helpers and middleware.

mod accounts;
mod analysis;
mod games;
mod guard;
mod hints;
mod lobby_ws;
mod openapi;
mod openapi_accounts;
mod openapi_lobby;
mod openapi_ratings;
mod pairing;
mod ratings;
mod replay;
mod seeks;
mod tables;
mod ws;

pub use accounts::account_of;
pub use lobby_ws::start as start_lobby;
pub use tables::is_unsafe_in_name;

use crate::error::ApiError;
use crate::hub::Hub;
use crate::limits::{Client, ClientKey, Counter, Limits, RateLimiter, RefusalLog};
use crate::origin::Origins;
use axum::Router;
use axum::body::Bytes;
use axum::extract::MatchedPath;
use axum::extract::{FromRequest, Request, State};
use axum::http::{HeaderMap, HeaderValue, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde::de::DeserializeOwned;
use std::sync::Arc;
use std::time::Instant;

/// What every handler shares.
#[derive(Clone)]
pub struct AppState {
    /// The live tables.
    pub hub: Arc<Hub>,
    /// The background analyses of finished games.
    pub analyses: Arc<crate::analysis::AnalysisPool>,
    /// Size and rate limits.
    pub limits: Arc<Limits>,
    /// Request rates per client.
    pub rate: Arc<RateLimiter>,
    /// Table creations per client.
    pub creates: Arc<RateLimiter>,
    /// WebSocket viewers per client and in all.
    pub watchers: Arc<Counter<ClientKey>>,
    /// Refusals per client, logged sparingly.
    pub refusals: Arc<RefusalLog>,
    /// The public origins (`Host` and WebSocket `Origin` checks).
    pub origins: Arc<Origins>,
    /// Accounts, sessions and login limits.
    pub accounts: Arc<crate::accounts::Accounts>,
    /// Ratings, rating histories and leaderboards.
    pub ratings: Arc<dyn crate::store::RatingStore>,
    /// The live lobby: seeks, quick pairing and the lobby sockets.
    pub lobby: Arc<crate::lobby::Lobby>,
}

/// The Content-Security-Policy of every answer: scripts, styles and
/// connections only from this server, no inline script, no framing.
pub const CSP: &str = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; \
img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; \
form-action 'self'; frame-ancestors 'none'";

/// The whole application: API routes, then the web front end.
pub fn router(state: AppState) -> Router {
    let api = Router::new()
        .route("/api/health", get(games::health))
        .route("/api/openapi.json", get(openapi::document))
        .route("/api/games", get(games::list))
        .route("/api/games/{game}", get(games::one))
        .route("/api/tables", post(tables::create).get(tables::listed))
        .route("/api/tables/{id}", get(tables::read))
        .route("/api/tables/{id}/join", post(tables::join))
        .route("/api/tables/{id}/actions", post(tables::act))
        .route("/api/tables/{id}/record", get(tables::record))
        .route("/api/tables/{id}/resign", post(tables::resign))
        .route("/api/tables/{id}/close", post(tables::close))
        .route("/api/tables/{id}/rematch", post(tables::rematch))
        .route("/api/tables/{id}/seat-link", get(tables::seat_link))
        .route("/api/tables/{id}/replay", get(replay::replay))
        .route("/api/tables/{id}/hints", get(hints::hints))
        .route("/api/hints", get(hints::position_hints))
        .route(
            "/api/tables/{id}/analysis",
            get(analysis::read).post(analysis::request),
        )
        .route("/api/tables/{id}/ws", get(ws::upgrade))
        .route("/api/players/me/tables", get(tables::player_tables))
        .route("/api/players/{name}", get(ratings::profile))
        .route("/api/ratings", get(ratings::pools))
        .route("/api/ratings/{pool}", get(ratings::leaderboard))
        .route("/api/seeks", post(seeks::post).get(seeks::list))
        .route("/api/seeks/{id}", get(seeks::read).delete(seeks::withdraw))
        .route("/api/seeks/{id}/accept", post(seeks::accept))
        .route(
            "/api/pairing",
            get(pairing::pools)
                .post(pairing::queue)
                .delete(pairing::leave),
        )
        .route("/api/lobby/ws", get(lobby_ws::upgrade))
        .route("/api/accounts", post(accounts::sign_up))
        .route(
            "/api/session",
            post(accounts::log_in)
                .get(accounts::who)
                .delete(accounts::log_out),
        )
        .route(
            "/api/session/logout-everywhere",
            post(accounts::log_out_everywhere),
        )
        .route("/api/account/password", post(accounts::change_password))
        .route("/api/account", axum::routing::delete(accounts::delete));
    api.fallback(crate::web::serve)
        .layer(axum::extract::DefaultBodyLimit::max(state.limits.max_body))
        .layer(middleware::from_fn_with_state(
            state.clone(),
            crate::cluster::route_to_owner,
        ))
        .layer(middleware::from_fn_with_state(state.clone(), limit_rate))
        .layer(axum::Extension(BodyTimeout(state.limits.body_timeout)))
        .layer(middleware::from_fn_with_state(
            state.clone(),
            guard::check_host,
        ))
        .layer(middleware::from_fn_with_state(state.clone(), log_request))
        .layer(middleware::from_fn_with_state(
            state.clone(),
            guard::identify_client,
        ))
        .layer(middleware::from_fn(security_headers))
        .with_state(state)
}

/// Adds the security headers to every answer.
async fn security_headers(request: Request, next: Next) -> Response {
    let mut response = next.run(request).await;
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CSP),
    );
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    // Table ids are in page addresses: never send them to other sites.
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    response
}

/// Refuses API requests beyond the client's rate with 429. The page's own
/// files (embedded, a page load fetches some thirty) are not counted;
/// connections are capped for them as for everything.
async fn limit_rate(
    State(app): State<AppState>,
    client: Client,
    request: Request,
    next: Next,
) -> Response {
    // A request another node forwards was counted there.
    let forwarded = app
        .hub
        .cluster()
        .is_some_and(|c| c.is_forwarded(request.headers()));
    if !request.uri().path().starts_with("/api/") || forwarded || app.rate.allow(client.key) {
        next.run(request).await
    } else {
        // Logged (sparingly) with the other refusals by `log_request`.
        ApiError::RateLimited.into_response()
    }
}

/// Logs each request: a client's first refusal or failure at `info` with
/// its address and the route (no table id, never a token or query), the
/// ones after it as one count per client and interval ([`RefusalLog`]);
/// every request at `debug` with its path.
async fn log_request(
    State(app): State<AppState>,
    client: Client,
    request: Request,
    next: Next,
) -> Response {
    let method = request.method().clone();
    let path = request.uri().path().to_string();
    let route = request
        .extensions()
        .get::<MatchedPath>()
        .map(|m| m.as_str().to_string())
        .unwrap_or_else(|| "(static)".into());
    let started = Instant::now();
    let response = next.run(request).await;
    let status = response.status().as_u16();
    let micros = started.elapsed().as_micros() as u64;
    if status >= 400 && app.refusals.note(client.key) {
        tracing::info!(
            client = %client.addr, key = %client.key, %method, route, status,
            "request refused (more from this client are counted, not logged)"
        );
    }
    tracing::debug!(client = %client.addr, %method, path, status, micros, "request");
    response
}

/// Whether a request declares a JSON body.
fn is_json(headers: &HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|t| t.trim().eq_ignore_ascii_case("application/json"))
}

/// A JSON body read with the server's own errors (400 `bad_json`, 413 `too_large`).
pub struct JsonBody<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequest<S> for JsonBody<T> {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Self, ApiError> {
        // Another site's page may post forms and plain text, not JSON: the
        // type check keeps it from acting for its visitors.
        if !is_json(request.headers()) {
            return Err(ApiError::UnsupportedMediaType);
        }
        let timeout = request
            .extensions()
            .get::<BodyTimeout>()
            .map_or(std::time::Duration::from_secs(10), |t| t.0);
        let read = tokio::time::timeout(timeout, Bytes::from_request(request, state))
            .await
            .map_err(|_| ApiError::RequestTimeout)?;
        let bytes = read.map_err(|e| {
            if e.status() == axum::http::StatusCode::PAYLOAD_TOO_LARGE {
                ApiError::TooLarge
            } else {
                ApiError::BadJson(e.body_text())
            }
        })?;
        let bytes: &[u8] = if bytes.iter().all(|b| b.is_ascii_whitespace()) {
            b"{}"
        } else {
            &bytes
        };
        serde_json::from_slice(bytes)
            .map(JsonBody)
            .map_err(|e| ApiError::BadJson(e.to_string()))
    }
}

/// The time allowed to read a request body (a request extension).
#[derive(Clone, Copy)]
pub struct BodyTimeout(pub std::time::Duration);

/// The bearer token of the request, if any; malformed headers are refused.
pub fn bearer(headers: &HeaderMap) -> Result<Option<String>, ApiError> {
    let Some(value) = headers.get(axum::http::header::AUTHORIZATION) else {
        return Ok(None);
    };
    let token = value
        .to_str()
        .ok()
        .and_then(|v| v.strip_prefix("Bearer "))
        .map(str::trim)
        .filter(|t| !t.is_empty() && t.len() <= 256)
        .ok_or(ApiError::Unauthorized)?;
    Ok(Some(token.to_string()))
}

/// Runs a change to completion even if the client goes away meanwhile, so
/// that a change stored in the database is always applied in memory too.
pub async fn run_to_completion<T: Send + 'static>(
    change: impl Future<Output = Result<T, ApiError>> + Send + 'static,
) -> Result<T, ApiError> {
    tokio::spawn(change)
        .await
        .map_err(|e| ApiError::Internal(format!("a change failed: {e}")))?
}
