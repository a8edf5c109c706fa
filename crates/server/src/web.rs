//! The browser front end: static files embedded in the binary (from
//! `crates/server/web/`), served at `/`. Table links (`/t/{id}`) get the
//! front page too, which reads the table id from the address.

use crate::error::ApiError;
use axum::http::{StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};

/// One embedded file.
struct StaticFile {
    path: &'static str,
    mime: &'static str,
    body: &'static [u8],
}

/// Every embedded file. Add new front-end files here.
const FILES: &[StaticFile] = &[StaticFile {
    path: "/",
    mime: "text/html; charset=utf-8",
    body: include_bytes!("../web/index.html"),
}];

/// Serves an embedded file, the front page for `/t/...` links, or 404.
pub async fn serve(uri: Uri) -> Response {
    let path = uri.path();
    if path.starts_with("/api/") || path == "/api" {
        return ApiError::NotFound(format!("no API route `{path}`")).into_response();
    }
    let wanted = if path.starts_with("/t/") { "/" } else { path };
    match FILES.iter().find(|f| f.path == wanted) {
        Some(file) => (
            [
                (header::CONTENT_TYPE, file.mime),
                (header::CACHE_CONTROL, "no-cache"),
            ],
            file.body,
        )
            .into_response(),
        None => (StatusCode::NOT_FOUND, "not found").into_response(),
    }
}
