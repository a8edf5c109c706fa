//! Middleware that guards every request: who the client is (behind trusted
//! proxies too) and whether the request names one of the server's hosts.

use super::AppState;
use crate::cluster::NODE_CLIENT;
use crate::error::ApiError;
use crate::limits::Client;
use axum::extract::{ConnectInfo, FromRequestParts, Request, State};
use axum::http::header;
use axum::http::request::Parts;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::net::SocketAddr;

/// Finds the request's [`Client`] (the peer, or the address a trusted proxy
/// or another node forwarded) and puts it in the request's extensions.
pub async fn identify_client(
    State(app): State<AppState>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    mut request: Request,
    next: Next,
) -> Response {
    let clients = &app.limits.clients;
    let from_node = app
        .hub
        .cluster()
        .filter(|c| c.is_forwarded(request.headers()))
        .and_then(|_| request.headers().get(NODE_CLIENT))
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse().ok());
    let client = match from_node {
        Some(addr) => Client {
            addr,
            key: clients.key(addr),
        },
        None => clients.client(peer.ip(), request.headers()),
    };
    request.extensions_mut().insert(client);
    next.run(request).await
}

/// Refuses with `421 wrong_host` a request whose `Host` is not one of the
/// public origins (when any are set). `/api/health` (for health checks by
/// address) and requests forwarded by another node are not checked.
pub async fn check_host(State(app): State<AppState>, request: Request, next: Next) -> Response {
    let host = request.uri().authority().map(|a| a.as_str()).or_else(|| {
        request
            .headers()
            .get(header::HOST)
            .and_then(|v| v.to_str().ok())
    });
    let exempt = request.uri().path() == "/api/health"
        || app
            .hub
            .cluster()
            .is_some_and(|c| c.is_forwarded(request.headers()));
    if exempt || app.origins.allows_host(host) {
        next.run(request).await
    } else {
        ApiError::WrongHost.into_response()
    }
}

impl<S: Send + Sync> FromRequestParts<S> for Client {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, ApiError> {
        parts
            .extensions
            .get::<Client>()
            .copied()
            .ok_or_else(|| ApiError::Internal("no client address on the request".into()))
    }
}
