//! Tables: create, read, join, act, record, and a player's open tables.

use super::{AppState, bearer};
use crate::error::ApiError;
use crate::limits::Limits;
use crate::token::{PLAYER_KEY_LEN, TokenHash, hash_token};
use axum::http::HeaderMap;
use spelbord_engine::Viewer;

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

mod create;
mod lists;
mod play;
mod seats;

pub(crate) use create::new_table;
pub use create::{AI_SEATS, CreateBody, create};
pub(crate) use lists::listed_rows;
pub use lists::{listed, player_tables};
pub use play::{act, read, record, resign};
pub use seats::{close, join, rematch, seat_link, settings};
