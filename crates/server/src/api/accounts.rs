//! The account routes: sign up, sessions (log in, log out, everywhere),
//! password change, deletion, and public profiles. Every state-changing
//! route takes a JSON body (`Content-Type: application/json`), so another
//! site's forms cannot use them.

use super::{AppState, JsonBody};
use crate::accounts::names::{self, AccountName};
use crate::accounts::password::PASSWORD_CHARS;
use crate::accounts::session;
use crate::error::ApiError;
use crate::limits::Client;
use crate::store::{SESSION_SECONDS, StoreError, StoredAccount};
use crate::token::{TokenHash, hash_token, new_token};
use axum::Json;
use axum::extract::{ConnectInfo, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::{Value, json};
use std::net::SocketAddr;

/// Body of sign-up and log-in.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Credentials {
    name: String,
    password: String,
    /// A guest's player key whose tables become the account's.
    player: Option<String>,
}

/// Body of a password change.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewPassword {
    old: String,
    new: String,
}

/// Body of an account's deletion.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Password {
    password: String,
}

/// Body of routes that take no fields (`{}`).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Empty {}

fn store_error(e: StoreError) -> ApiError {
    ApiError::from(e)
}

fn hash_error(e: crate::accounts::password::HashError) -> ApiError {
    ApiError::Internal(e.to_string())
}

/// The account as anyone may see it.
pub(super) fn public(account: &StoredAccount) -> Value {
    json!({ "name": account.name, "created_at": account.created_at })
}

/// The signed-in account of the request's cookie and its session's hash.
async fn session_of(
    app: &AppState,
    headers: &HeaderMap,
) -> Result<Option<(StoredAccount, TokenHash)>, ApiError> {
    let Some(token) = session::token(headers) else {
        return Ok(None);
    };
    let hash = hash_token(&token);
    let account = app.accounts.store.session_account(&hash).await;
    Ok(account.map_err(store_error)?.map(|a| (a, hash)))
}

/// The signed-in account of the request, if any (a missing, unknown or
/// expired cookie is a guest).
pub async fn account_of(
    app: &AppState,
    headers: &HeaderMap,
) -> Result<Option<StoredAccount>, ApiError> {
    Ok(session_of(app, headers).await?.map(|(a, _)| a))
}

fn secure(app: &AppState, peer: SocketAddr, headers: &HeaderMap) -> bool {
    app.accounts.secure_cookies || session::is_https(&app.limits.clients, peer.ip(), headers)
}

fn with_cookie(status: StatusCode, body: Value, cookie: HeaderValue) -> Response {
    let mut response = (status, Json(body)).into_response();
    response.headers_mut().insert(header::SET_COOKIE, cookie);
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

/// Gives the tables of a guest's player key to `account`; the number of
/// tables changed (0 without a key).
async fn claim(
    app: &AppState,
    account: &StoredAccount,
    guest: Option<TokenHash>,
) -> Result<usize, ApiError> {
    let Some(guest) = guest else { return Ok(0) };
    let tables = app.accounts.store.claim_guest_tables(account, &guest).await;
    let tables = tables.map_err(store_error)?;
    app.hub
        .claim_guest(&guest, &account.player_hash, &account.name)
        .await;
    Ok(tables.len())
}

/// Starts a session of `account`, first giving it the tables of a guest's
/// key: the answer with its cookie.
async fn start_session(
    app: &AppState,
    account: &StoredAccount,
    guest: Option<TokenHash>,
    status: StatusCode,
    secure: bool,
) -> Result<Response, ApiError> {
    let claimed = claim(app, account, guest).await?;
    let token = new_token();
    let expires = crate::store::unix_now() + SESSION_SECONDS;
    app.accounts
        .store
        .create_session(&hash_token(&token), &account.id, expires)
        .await
        .map_err(store_error)?;
    let cookie = session::set_cookie(&token, SESSION_SECONDS, secure);
    Ok(with_cookie(
        status,
        json!({ "account": public(account), "claimed": claimed }),
        cookie,
    ))
}

fn check_password(password: &str) -> Result<(), ApiError> {
    let count = password.chars().count();
    if (PASSWORD_CHARS.0..=PASSWORD_CHARS.1).contains(&count) {
        Ok(())
    } else {
        Err(ApiError::BadRequest(format!(
            "a password has {} to {} characters",
            PASSWORD_CHARS.0, PASSWORD_CHARS.1
        )))
    }
}

/// `POST /api/accounts`: a new account; 201 with a session cookie.
pub async fn sign_up(
    State(app): State<AppState>,
    client: Client,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    JsonBody(body): JsonBody<Credentials>,
) -> Result<Response, ApiError> {
    let AccountName {
        name,
        key,
        skeleton,
    } = names::check(&body.name).map_err(|e| ApiError::BadRequest(e.to_string()))?;
    check_password(&body.password)?;
    let guest = super::tables::player_hash(body.player.as_deref())?;
    if !app.accounts.attempts.sign_up(client.key) {
        return Err(ApiError::RateLimited);
    }
    let taken = || ApiError::NameTaken("this name, or one that looks the same, is taken".into());
    let found = app.accounts.store.find_account(&key, Some(&skeleton)).await;
    if found.map_err(store_error)?.is_some() {
        return Err(taken());
    }
    let password = app
        .accounts
        .passwords
        .hash(&body.password)
        .await
        .map_err(hash_error)?;
    let account = StoredAccount {
        id: new_token(),
        name,
        name_key: key,
        skeleton,
        password,
        player_hash: rand::random(),
        created_at: crate::store::unix_now(),
    };
    match app.accounts.store.create_account(&account).await {
        Ok(()) => {}
        Err(StoreError::Constraint(_)) => return Err(taken()),
        Err(e) => return Err(store_error(e)),
    }
    tracing::info!(client = %client.addr, "account made");
    start_session(
        &app,
        &account,
        guest,
        StatusCode::CREATED,
        secure(&app, peer, &headers),
    )
    .await
}

/// Checks `password` for the account of `name_key` (or a dummy hash if
/// there is none), within the login limits; the account if it matches.
async fn verify(
    app: &AppState,
    client: &Client,
    name_key: &str,
    account: Option<StoredAccount>,
    password: &str,
) -> Result<StoredAccount, ApiError> {
    if !app.accounts.attempts.begin(name_key, client.key) {
        return Err(ApiError::RateLimited);
    }
    let hash = account.as_ref().map(|a| a.password.as_str());
    let matched = app
        .accounts
        .passwords
        .verify(password, hash)
        .await
        .map_err(hash_error)?;
    match account {
        Some(account) if matched => {
            app.accounts.attempts.succeeded(name_key, client.key);
            Ok(account)
        }
        _ => Err(ApiError::BadLogin),
    }
}

/// `POST /api/session`: logs in; 200 with a session cookie, or 401
/// `bad_login` for an unknown name and a wrong password alike.
pub async fn log_in(
    State(app): State<AppState>,
    client: Client,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    JsonBody(body): JsonBody<Credentials>,
) -> Result<Response, ApiError> {
    let guest = super::tables::player_hash(body.player.as_deref())?;
    let key = names::key_of(&body.name);
    if key.chars().count() > 4 * names::NAME_CHARS.1 {
        return Err(ApiError::BadLogin);
    }
    let account = app.accounts.store.find_account(&key, None).await;
    let account = account.map_err(store_error)?;
    let account = verify(&app, &client, &key, account, &body.password).await?;
    let secure = secure(&app, peer, &headers);
    start_session(&app, &account, guest, StatusCode::OK, secure).await
}

/// `GET /api/session`: the signed-in account, or `null`.
pub async fn who(State(app): State<AppState>, headers: HeaderMap) -> Result<Json<Value>, ApiError> {
    let account = account_of(&app, &headers).await?;
    Ok(Json(json!({ "account": account.as_ref().map(public) })))
}

fn ended(app: &AppState, peer: SocketAddr, headers: &HeaderMap, count: u64) -> Response {
    let cookie = session::clear_cookie(secure(app, peer, headers));
    with_cookie(StatusCode::OK, json!({ "sessions_ended": count }), cookie)
}

/// `DELETE /api/session`: logs out (this session).
pub async fn log_out(
    State(app): State<AppState>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    JsonBody(_): JsonBody<Empty>,
) -> Result<Response, ApiError> {
    let count = match session::token(&headers) {
        Some(token) => app
            .accounts
            .store
            .end_session(&hash_token(&token))
            .await
            .map_err(store_error)?,
        None => 0,
    };
    Ok(ended(&app, peer, &headers, count))
}

/// `POST /api/session/logout-everywhere`: ends every session of the account.
pub async fn log_out_everywhere(
    State(app): State<AppState>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    JsonBody(_): JsonBody<Empty>,
) -> Result<Response, ApiError> {
    let (account, _) = session_of(&app, &headers)
        .await?
        .ok_or(ApiError::NotSignedIn)?;
    let count = app
        .accounts
        .store
        .end_sessions(&account.id, None)
        .await
        .map_err(store_error)?;
    Ok(ended(&app, peer, &headers, count))
}

/// `POST /api/account/password`: changes the password and ends every other session.
pub async fn change_password(
    State(app): State<AppState>,
    client: Client,
    headers: HeaderMap,
    JsonBody(body): JsonBody<NewPassword>,
) -> Result<Json<Value>, ApiError> {
    let (account, this) = session_of(&app, &headers)
        .await?
        .ok_or(ApiError::NotSignedIn)?;
    check_password(&body.new)?;
    let key = account.name_key.clone();
    let account = verify(&app, &client, &key, Some(account), &body.old).await?;
    let password = app
        .accounts
        .passwords
        .hash(&body.new)
        .await
        .map_err(hash_error)?;
    let count = app
        .accounts
        .store
        .set_password(&account.id, &password, Some(&this))
        .await
        .map_err(store_error)?;
    Ok(Json(json!({ "sessions_ended": count })))
}

/// `DELETE /api/account`: deletes the signed-in account (with its
/// password): its sessions, password hash and profile go; its seats show
/// "deleted player".
pub async fn delete(
    State(app): State<AppState>,
    client: Client,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    JsonBody(body): JsonBody<Password>,
) -> Result<Response, ApiError> {
    let (account, _) = session_of(&app, &headers)
        .await?
        .ok_or(ApiError::NotSignedIn)?;
    let key = account.name_key.clone();
    let account = verify(&app, &client, &key, Some(account), &body.password).await?;
    app.accounts
        .store
        .delete_account(&account)
        .await
        .map_err(store_error)?;
    app.hub.forget_account(&account.player_hash).await;
    tracing::info!(client = %client.addr, "account deleted");
    let cookie = session::clear_cookie(secure(&app, peer, &headers));
    Ok(with_cookie(
        StatusCode::OK,
        json!({ "deleted": true }),
        cookie,
    ))
}
