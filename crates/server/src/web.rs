//! The browser front end: static files embedded in the binary (from
//! `crates/server/web/`), served at `/`. The client's own pages (table links
//! `/t/{id}`, profiles `/@/{name}`, leaderboards `/ratings` and
//! `/ratings/{pool}`) get the front page too, which reads the address.

use crate::error::ApiError;
use axum::http::{StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};

/// One embedded file.
struct StaticFile {
    path: &'static str,
    mime: &'static str,
    body: &'static [u8],
}

/// An embedded file of `crates/server/web/`, served at `/` + its path.
macro_rules! web_file {
    ($path:literal, $mime:literal) => {
        StaticFile {
            path: concat!("/", $path),
            mime: $mime,
            body: include_bytes!(concat!("../web/", $path)),
        }
    };
}

const HTML: &str = "text/html; charset=utf-8";

/// Every embedded file. Add new front-end files here (a test checks).
const FILES: &[StaticFile] = &[
    StaticFile {
        path: "/",
        mime: HTML,
        body: include_bytes!("../web/index.html"),
    },
    web_file!("app.css", "text/css; charset=utf-8"),
    web_file!("js/account.js", "text/javascript; charset=utf-8"),
    web_file!("js/api.js", "text/javascript; charset=utf-8"),
    web_file!("js/chart.js", "text/javascript; charset=utf-8"),
    web_file!("js/clock.js", "text/javascript; charset=utf-8"),
    web_file!("js/app.js", "text/javascript; charset=utf-8"),
    web_file!("js/dice.js", "text/javascript; charset=utf-8"),
    web_file!("js/dom.js", "text/javascript; charset=utf-8"),
    web_file!("js/errors.js", "text/javascript; charset=utf-8"),
    web_file!("js/events.js", "text/javascript; charset=utf-8"),
    web_file!("js/i18n.js", "text/javascript; charset=utf-8"),
    web_file!("js/i18n/ar.js", "text/javascript; charset=utf-8"),
    web_file!("js/i18n/de.js", "text/javascript; charset=utf-8"),
    web_file!("js/i18n/el.js", "text/javascript; charset=utf-8"),
    web_file!("js/i18n/en.js", "text/javascript; charset=utf-8"),
    web_file!("js/i18n/fa.js", "text/javascript; charset=utf-8"),
    web_file!("js/i18n/sv.js", "text/javascript; charset=utf-8"),
    web_file!("js/input.js", "text/javascript; charset=utf-8"),
    web_file!("js/keys.js", "text/javascript; charset=utf-8"),
    web_file!("js/lists.js", "text/javascript; charset=utf-8"),
    web_file!("js/lobby.js", "text/javascript; charset=utf-8"),
    web_file!("js/lobbysocket.js", "text/javascript; charset=utf-8"),
    web_file!("js/names.js", "text/javascript; charset=utf-8"),
    web_file!("js/newtable.js", "text/javascript; charset=utf-8"),
    web_file!("js/optionfields.js", "text/javascript; charset=utf-8"),
    web_file!("js/profile.js", "text/javascript; charset=utf-8"),
    web_file!("js/prompts.js", "text/javascript; charset=utf-8"),
    web_file!("js/rated.js", "text/javascript; charset=utf-8"),
    web_file!("js/ratings.js", "text/javascript; charset=utf-8"),
    web_file!("js/replay.js", "text/javascript; charset=utf-8"),
    web_file!("js/seekform.js", "text/javascript; charset=utf-8"),
    web_file!("js/seeks.js", "text/javascript; charset=utf-8"),
    web_file!("js/analysis.js", "text/javascript; charset=utf-8"),
    web_file!("js/sound.js", "text/javascript; charset=utf-8"),
    web_file!("js/store.js", "text/javascript; charset=utf-8"),
    web_file!("js/table.js", "text/javascript; charset=utf-8"),
    web_file!("js/tableactions.js", "text/javascript; charset=utf-8"),
    web_file!("js/tableboard.js", "text/javascript; charset=utf-8"),
    web_file!("js/tablelive.js", "text/javascript; charset=utf-8"),
    web_file!("js/tablepanel.js", "text/javascript; charset=utf-8"),
    web_file!("js/timecontrol.js", "text/javascript; charset=utf-8"),
    web_file!("js/toast.js", "text/javascript; charset=utf-8"),
    web_file!("js/types.js", "text/javascript; charset=utf-8"),
    web_file!("js/games/dice.js", "text/javascript; charset=utf-8"),
    web_file!("js/games/generic.js", "text/javascript; charset=utf-8"),
    web_file!("js/games/highgammon.js", "text/javascript; charset=utf-8"),
    web_file!("js/games/index.js", "text/javascript; charset=utf-8"),
    web_file!("js/games/lager.js", "text/javascript; charset=utf-8"),
    web_file!("js/games/stortok.js", "text/javascript; charset=utf-8"),
    web_file!("js/games/steps.js", "text/javascript; charset=utf-8"),
    web_file!("js/games/stumphog.js", "text/javascript; charset=utf-8"),
    web_file!("js/games/tables.js", "text/javascript; charset=utf-8"),
    web_file!("js/games/tablesdraw.js", "text/javascript; charset=utf-8"),
];

/// Whether `path` is one of the client's pages, answered with the front
/// page: a table (`/t/...`), a profile (`/@/...`), the leaderboards
/// (`/ratings`, `/ratings/...`).
fn is_page(path: &str) -> bool {
    path.starts_with("/t/")
        || path.starts_with("/@/")
        || path == "/ratings"
        || path.starts_with("/ratings/")
        || path == "/index.html"
}

/// Serves an embedded file, the front page for the client's pages, or 404.
pub async fn serve(uri: Uri) -> Response {
    let path = uri.path();
    if path.starts_with("/api/") || path == "/api" {
        return ApiError::NotFound(format!("no API route `{path}`")).into_response();
    }
    let wanted = if is_page(path) { "/" } else { path };
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

#[cfg(test)]
mod tests {
    use super::{FILES, is_page};

    /// Tables, profiles and leaderboards are the client's pages; other
    /// unknown paths are not.
    #[test]
    fn the_clients_pages_get_the_front_page() {
        for page in [
            "/t/0123456789abcdef01234567",
            "/@/ada",
            "/@/%D8%B9%D9%84%D9%8A",
            "/ratings",
            "/ratings/",
            "/ratings/backgammon",
        ] {
            assert!(is_page(page), "{page}");
        }
        for other in ["/@", "/@ada", "/ratingsx", "/js/x.js", "/t", "/favicon.ico"] {
            assert!(!is_page(other), "{other}");
        }
    }
    use std::path::Path;

    fn walk(dir: &Path, root: &Path, out: &mut Vec<String>) {
        for entry in std::fs::read_dir(dir).expect("the web folder is readable") {
            let path = entry.expect("a folder entry").path();
            if path.is_dir() {
                walk(&path, root, out);
            } else {
                let rel = path.strip_prefix(root).expect("inside the root");
                out.push(format!("/{}", rel.to_string_lossy().replace('\\', "/")));
            }
        }
    }

    /// Every file of `web/` is embedded (a new module not listed would
    /// break the page only in the built binary).
    #[test]
    fn every_web_file_is_embedded() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("web");
        let mut found = Vec::new();
        walk(&root, &root, &mut found);
        for file in found {
            let served = if file == "/index.html" { "/" } else { &file };
            assert!(
                FILES.iter().any(|f| f.path == served),
                "{file} is in crates/server/web/ but not in web.rs's FILES"
            );
        }
        for f in FILES {
            assert!(!f.body.is_empty(), "{} is empty", f.path);
        }
    }
}
