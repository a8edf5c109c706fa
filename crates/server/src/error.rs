//! Errors of the API, each with its HTTP status and a stable code.

use crate::store::StoreError;
use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::json;

/// Everything a request can be refused for. The body of an error response is
/// `{"error": {"code": "...", "message": "..."}}` (plus `version` for
/// `stale_version`).
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// The body is not JSON of the expected shape.
    #[error("bad JSON: {0}")]
    BadJson(String),
    /// A field has a value the server does not accept.
    #[error("{0}")]
    BadRequest(String),
    /// No game has this id.
    #[error("{0}")]
    UnknownGame(String),
    /// A game option is unknown or has a bad value.
    #[error("{0}")]
    BadOption(String),
    /// The action cannot be read (bad notation or JSON of the game).
    #[error("{0}")]
    BadAction(String),
    /// The seat token is missing or unknown.
    #[error("a valid seat token is needed (Authorization: Bearer <token>)")]
    Unauthorized,
    /// The table (or other thing) does not exist.
    #[error("{0}")]
    NotFound(String),
    /// The action was based on an older version of the table.
    #[error("the table is at version {current}, not {given}: read it again")]
    StaleVersion {
        /// The version the client gave.
        given: u64,
        /// The table's version now.
        current: u64,
    },
    /// The seat may not act now.
    #[error("it is not seat {0}'s turn")]
    NotYourTurn(usize),
    /// The game is over.
    #[error("the game is over")]
    GameOver,
    /// The seat is not open.
    #[error("{0}")]
    SeatTaken(String),
    /// The record of a game with hidden information is given only at the end.
    #[error("the game is not over yet; its record is given when it ends")]
    NotFinished,
    /// A readable action that is not legal now.
    #[error("{0}")]
    IllegalAction(String),
    /// The body is larger than the server accepts.
    #[error("the request is too large")]
    TooLarge,
    /// Too many requests on this connection.
    #[error("too many requests: slow down")]
    RateLimited,
    /// The server is shutting down or the database is unavailable.
    #[error("{0}")]
    Unavailable(String),
    /// A fault of the server.
    #[error("internal error: {0}")]
    Internal(String),
}

impl ApiError {
    /// The HTTP status of this error.
    pub fn status(&self) -> StatusCode {
        use ApiError::*;
        match self {
            BadJson(_) | BadRequest(_) | UnknownGame(_) | BadOption(_) | BadAction(_) => {
                StatusCode::BAD_REQUEST
            }
            Unauthorized => StatusCode::UNAUTHORIZED,
            NotFound(_) => StatusCode::NOT_FOUND,
            StaleVersion { .. } | NotYourTurn(_) | GameOver | SeatTaken(_) | NotFinished => {
                StatusCode::CONFLICT
            }
            IllegalAction(_) => StatusCode::UNPROCESSABLE_ENTITY,
            TooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            RateLimited => StatusCode::TOO_MANY_REQUESTS,
            Unavailable(_) => StatusCode::SERVICE_UNAVAILABLE,
            Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    /// The stable machine-readable code of this error.
    pub fn code(&self) -> &'static str {
        use ApiError::*;
        match self {
            BadJson(_) => "bad_json",
            BadRequest(_) => "bad_request",
            UnknownGame(_) => "unknown_game",
            BadOption(_) => "bad_option",
            BadAction(_) => "bad_action",
            Unauthorized => "unauthorized",
            NotFound(_) => "not_found",
            StaleVersion { .. } => "stale_version",
            NotYourTurn(_) => "not_your_turn",
            GameOver => "game_over",
            SeatTaken(_) => "seat_taken",
            NotFinished => "not_finished",
            IllegalAction(_) => "illegal_action",
            TooLarge => "too_large",
            RateLimited => "rate_limited",
            Unavailable(_) => "unavailable",
            Internal(_) => "internal",
        }
    }

    /// The error for an engine error met while reading or applying an action.
    pub fn from_action_error(e: spelbord_engine::Error) -> Self {
        use spelbord_engine::Error as E;
        match e {
            E::IllegalAction { .. } => ApiError::IllegalAction(e.to_string()),
            E::GameOver => ApiError::GameOver,
            other => ApiError::BadAction(other.to_string()),
        }
    }

    /// The error for an engine error met while reading a game and its options.
    pub fn from_setup_error(e: spelbord_engine::Error) -> Self {
        use spelbord_engine::Error as E;
        match e {
            E::UnknownGame(_) => ApiError::UnknownGame(e.to_string()),
            other => ApiError::BadOption(other.to_string()),
        }
    }
}

impl From<StoreError> for ApiError {
    fn from(e: StoreError) -> Self {
        match e {
            StoreError::Conflict(m) => ApiError::Unavailable(format!(
                "the table changed in the database meanwhile ({m}): read it again"
            )),
            StoreError::Database(m) => ApiError::Unavailable(format!("database: {m}")),
            StoreError::Corrupt(m) => ApiError::Internal(m),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = self.status();
        if status.is_server_error() {
            tracing::error!(code = self.code(), error = %self, "request failed");
        } else {
            tracing::debug!(code = self.code(), error = %self, "request refused");
        }
        let mut error = json!({ "code": self.code(), "message": self.to_string() });
        if let ApiError::StaleVersion { current, .. } = self {
            error["version"] = json!(current);
        }
        let mut response = (status, Json(json!({ "error": error }))).into_response();
        if status == StatusCode::PAYLOAD_TOO_LARGE {
            // The rest of the body is never read, so the connection cannot
            // carry another request: tell the client not to reuse it.
            response.headers_mut().insert(
                axum::http::header::CONNECTION,
                axum::http::HeaderValue::from_static("close"),
            );
        }
        response
    }
}
