//! The HTTP routes, shared request helpers and middleware.

mod games;
mod hints;
mod openapi;
mod replay;
mod tables;
mod ws;

use crate::error::ApiError;
use crate::hub::Hub;
use crate::limits::{Limits, RateLimiter};
use axum::Router;
use axum::body::Bytes;
use axum::extract::{ConnectInfo, FromRequest, Request, State};
use axum::http::HeaderMap;
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde::de::DeserializeOwned;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Instant;

/// What every handler shares.
#[derive(Clone)]
pub struct AppState {
    /// The live tables.
    pub hub: Arc<Hub>,
    /// Size and rate limits.
    pub limits: Arc<Limits>,
    /// Per-connection request rates.
    pub rate: Arc<RateLimiter>,
}

/// The whole application: API routes, then the web front end.
pub fn router(state: AppState) -> Router {
    let api = Router::new()
        .route("/api/health", get(games::health))
        .route("/api/openapi.json", get(openapi::document))
        .route("/api/games", get(games::list))
        .route("/api/games/{game}", get(games::one))
        .route("/api/tables", post(tables::create))
        .route("/api/tables/{id}", get(tables::read))
        .route("/api/tables/{id}/join", post(tables::join))
        .route("/api/tables/{id}/actions", post(tables::act))
        .route("/api/tables/{id}/record", get(tables::record))
        .route("/api/tables/{id}/replay", get(replay::replay))
        .route("/api/tables/{id}/hints", get(hints::hints))
        .route("/api/tables/{id}/ws", get(ws::upgrade))
        .route("/api/players/me/tables", get(tables::player_tables));
    api.fallback(crate::web::serve)
        .layer(axum::extract::DefaultBodyLimit::max(state.limits.max_body))
        .layer(middleware::from_fn_with_state(state.clone(), limit_rate))
        .layer(middleware::from_fn(log_request))
        .with_state(state)
}

/// Refuses requests beyond the connection's rate with 429.
async fn limit_rate(
    State(app): State<AppState>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    request: Request,
    next: Next,
) -> Response {
    if app.rate.allow(peer) {
        next.run(request).await
    } else {
        ApiError::RateLimited.into_response()
    }
}

/// Logs each request's method, path (never the query), status and time.
async fn log_request(request: Request, next: Next) -> Response {
    let method = request.method().clone();
    let path = request.uri().path().to_string();
    let started = Instant::now();
    let response = next.run(request).await;
    tracing::debug!(
        %method,
        path,
        status = response.status().as_u16(),
        micros = started.elapsed().as_micros() as u64,
        "request"
    );
    response
}

/// A JSON body read with the server's own errors (400 `bad_json`, 413 `too_large`).
pub struct JsonBody<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequest<S> for JsonBody<T> {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Self, ApiError> {
        let bytes = Bytes::from_request(request, state).await.map_err(|e| {
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
