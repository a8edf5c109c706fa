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
    /// The body is not declared as JSON (`Content-Type: application/json`).
    #[error("the body must be sent with Content-Type: application/json")]
    UnsupportedMediaType,
    /// The body did not arrive in time.
    #[error("the request body did not arrive in time")]
    RequestTimeout,
    /// The player may not do this (e.g. close a table he did not create).
    #[error("{0}")]
    Forbidden(String),
    /// The table has started: every seat is taken.
    #[error("the game has started")]
    Started,
    /// The address has as many unfinished tables as allowed.
    #[error("you have {0} unfinished tables: finish or close one first")]
    TooManyTables(usize),
    /// A hint for this table is being computed, or too many are.
    #[error("hints are busy: try again in a moment")]
    HintsBusy,
    /// The analysis queue is full.
    #[error("the server is analysing as many games as it can: try again in a minute")]
    AnalysisBusy,
    /// A wrong account name or password (the same answer for both).
    #[error("wrong name or password")]
    BadLogin,
    /// The request needs a signed-in account.
    #[error("sign in first (no valid session cookie)")]
    NotSignedIn,
    /// The account name, or one that looks the same, is taken.
    #[error("{0}")]
    NameTaken(String),
    /// A rated table is created and joined by signed-in accounts only.
    #[error("a rated table needs a signed-in account (sign in first)")]
    RatedNeedsAccount,
    /// The account holds a seat of this rated table already.
    #[error("your account holds a seat of this rated table already")]
    AlreadySeated,
    /// A table asked to be rated cannot be (AI seats, or a game without a pool).
    #[error("{0}")]
    NotRateable(String),
    /// The seek was accepted by others, withdrawn or has expired meanwhile.
    #[error("the seek is gone: it was taken, withdrawn or has expired")]
    SeekGone,
    /// A player cannot accept his own seek.
    #[error("this is your own seek")]
    OwnSeek,
    /// The player has accepted this seek already.
    #[error("you have accepted this seek already")]
    AlreadyAccepted,
    /// The seat token is missing or unknown.
    #[error("a valid seat token is needed (Authorization: Bearer <token>)")]
    Unauthorized,
    /// The request's `Host` is not one of the server's public origins.
    #[error("this server does not answer for this host")]
    WrongHost,
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
    /// The server is shutting down or the database is unavailable (the
    /// detail is logged, never sent).
    #[error("the server cannot do this now: try again later")]
    Unavailable(String),
    /// A cap of the server is reached (e.g. viewers of a table): a refusal,
    /// not a failure, so it is not logged as an error.
    #[error("{0}: try again later")]
    Capacity(String),
    /// A fault of the server (the detail is logged, never sent).
    #[error("internal error: the server could not answer")]
    Internal(String),
}

impl ApiError {
    /// The HTTP status of this error.
    pub fn status(&self) -> StatusCode {
        use ApiError::*;
        match self {
            BadJson(_) | BadRequest(_) | UnknownGame(_) | BadOption(_) | BadAction(_)
            | NotRateable(_) => StatusCode::BAD_REQUEST,
            UnsupportedMediaType => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            RequestTimeout => StatusCode::REQUEST_TIMEOUT,
            Forbidden(_) => StatusCode::FORBIDDEN,
            Unauthorized | BadLogin | NotSignedIn | RatedNeedsAccount => StatusCode::UNAUTHORIZED,
            NameTaken(_) => StatusCode::CONFLICT,
            NotFound(_) => StatusCode::NOT_FOUND,
            WrongHost => StatusCode::MISDIRECTED_REQUEST,
            StaleVersion { .. }
            | NotYourTurn(_)
            | GameOver
            | SeatTaken(_)
            | NotFinished
            | AlreadySeated
            | SeekGone
            | OwnSeek
            | AlreadyAccepted
            | Started => StatusCode::CONFLICT,
            TooManyTables(_) | HintsBusy | AnalysisBusy => StatusCode::TOO_MANY_REQUESTS,
            IllegalAction(_) => StatusCode::UNPROCESSABLE_ENTITY,
            TooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            RateLimited => StatusCode::TOO_MANY_REQUESTS,
            Unavailable(_) | Capacity(_) => StatusCode::SERVICE_UNAVAILABLE,
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
            UnsupportedMediaType => "unsupported_media_type",
            RequestTimeout => "request_timeout",
            Forbidden(_) => "forbidden",
            Started => "started",
            TooManyTables(_) => "too_many_tables",
            HintsBusy => "hints_busy",
            AnalysisBusy => "analysis_busy",
            Unauthorized => "unauthorized",
            BadLogin => "bad_login",
            NotSignedIn => "not_signed_in",
            NameTaken(_) => "name_taken",
            RatedNeedsAccount => "rated_needs_account",
            AlreadySeated => "already_seated",
            NotRateable(_) => "not_rateable",
            SeekGone => "seek_gone",
            OwnSeek => "own_seek",
            AlreadyAccepted => "already_accepted",
            NotFound(_) => "not_found",
            WrongHost => "wrong_host",
            StaleVersion { .. } => "stale_version",
            NotYourTurn(_) => "not_your_turn",
            GameOver => "game_over",
            SeatTaken(_) => "seat_taken",
            NotFinished => "not_finished",
            IllegalAction(_) => "illegal_action",
            TooLarge => "too_large",
            RateLimited => "rate_limited",
            Unavailable(_) | Capacity(_) => "unavailable",
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
            StoreError::Database(m) | StoreError::Constraint(m) => {
                ApiError::Unavailable(format!("database: {m}"))
            }
            StoreError::Corrupt(m) => ApiError::Internal(m),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = self.status();
        if status.is_server_error() && !matches!(self, ApiError::Capacity(_)) {
            let detail = match &self {
                ApiError::Unavailable(d) | ApiError::Internal(d) => d.as_str(),
                _ => "",
            };
            tracing::error!(code = self.code(), detail, "request failed");
        } else {
            tracing::debug!(code = self.code(), error = %self, "request refused");
        }
        let mut error = json!({ "code": self.code(), "message": self.to_string() });
        if let ApiError::StaleVersion { current, .. } = self {
            error["version"] = json!(current);
        }
        let mut response = (status, Json(json!({ "error": error }))).into_response();
        if status == StatusCode::PAYLOAD_TOO_LARGE || status == StatusCode::REQUEST_TIMEOUT {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Internal and database detail goes to the log, never to the client.
    #[tokio::test]
    async fn internal_and_database_detail_is_not_sent() {
        for error in [
            ApiError::Internal("panicked at src/secret.rs".into()),
            ApiError::from(StoreError::Database(
                "SQLITE_BUSY: database is locked".into(),
            )),
            ApiError::from(StoreError::Corrupt("table abc: bad row".into())),
        ] {
            let response = error.into_response();
            let body = axum::body::to_bytes(response.into_body(), 1 << 16)
                .await
                .unwrap();
            let text = String::from_utf8_lossy(&body);
            for secret in ["secret", "SQLITE", "locked", "bad row"] {
                assert!(!text.contains(secret), "{text}");
            }
        }
    }
}
