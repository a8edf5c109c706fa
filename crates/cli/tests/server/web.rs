//! The browser client's side of the server: the embedded front end (every
//! module the page imports is served), and the replay of a game.

use crate::harness::{Server, play_random, players_of, replay_states};
use crate::test_seed;
use rand::SeedableRng;
use rand::rngs::StdRng;
use serde_json::json;
use spelbord_engine::Viewer;
use std::collections::BTreeSet;

/// A GET answered with its status, content type and body text.
async fn fetch(base: &str, path: &str) -> (u16, String, String) {
    let response = reqwest::get(format!("{base}{path}"))
        .await
        .expect("the server answers");
    let status = response.status().as_u16();
    let mime = response
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_string();
    (status, mime, response.text().await.expect("a body"))
}

/// The modules a JavaScript module imports, as absolute paths.
fn imports(module_path: &str, source: &str) -> Vec<String> {
    let dir = &module_path[..module_path.rfind('/').expect("a folder") + 1];
    source
        .lines()
        .filter(|l| l.trim_start().starts_with("import ") || l.contains("} from '"))
        .filter_map(|l| l.split("from '").nth(1).and_then(|r| r.split('\'').next()))
        .map(|rel| {
            let mut parts: Vec<&str> = dir.trim_end_matches('/').split('/').collect();
            for piece in rel.split('/') {
                match piece {
                    "." => {}
                    ".." => {
                        parts.pop();
                    }
                    p => parts.push(p),
                }
            }
            parts.join("/")
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_and_every_module_it_imports_are_served() {
    let server = Server::start(&[]);
    let base = server.api().base;
    for path in [
        "/",
        "/t/0123456789abcdef01234567",
        "/t/x?seat=1",
        "/@/ada",
        "/ratings",
        "/ratings/backgammon",
    ] {
        let (status, mime, body) = fetch(&base, path).await;
        assert_eq!(status, 200, "{path}");
        assert!(mime.starts_with("text/html"), "{path}: {mime}");
        assert!(body.contains("/js/app.js") && body.contains("/app.css"));
    }
    let (status, mime, _) = fetch(&base, "/app.css").await;
    assert_eq!((status, mime.starts_with("text/css")), (200, true));
    let mut todo = vec!["/js/app.js".to_string()];
    let mut seen = BTreeSet::new();
    while let Some(path) = todo.pop() {
        if !seen.insert(path.clone()) {
            continue;
        }
        let (status, mime, body) = fetch(&base, &path).await;
        assert_eq!(status, 200, "{path} is imported but not served");
        assert!(mime.starts_with("text/javascript"), "{path}: {mime}");
        assert!(body.starts_with("// @ts-check"), "{path} is type-checked");
        todo.extend(imports(&path, &body));
    }
    assert!(seen.len() >= 10, "the client's modules: {seen:?}");
    let (status, _, _) = fetch(&base, "/js/no-such-module.js").await;
    assert_eq!(status, 404);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_replay_shows_every_position_as_the_viewer_saw_it() {
    let server = Server::start(&[]);
    let api = server.api();
    let mut rng = StdRng::seed_from_u64(test_seed("replay"));
    for game in ["tawla", "stortok"] {
        let players = players_of(game, &[]);
        let created = api
            .create(game, json!({}), &vec!["open".to_string(); players])
            .await;
        let id = created["id"].as_str().expect("an id").to_string();
        let mut tokens = Vec::new();
        for seat in 0..players {
            tokens.push(Some(api.join(&id, seat).await));
        }
        let hidden = game == "stortok";
        let (status, body) = api.get(&format!("/api/tables/{id}/replay"), None).await;
        if hidden {
            assert_eq!(status, 409, "{game}: no replay of hidden cards in play");
            assert_eq!(body["error"]["code"], "not_finished");
        } else {
            assert_eq!(status, 200, "{game}: {body}");
        }
        play_random(&api, &id, &tokens, &mut rng, None)
            .await
            .unwrap_or_else(|e| panic!("{game}: {e}"));
        let record = api.record(&id).await;
        let states = replay_states(&record);
        for (query, viewer) in [("", Viewer::Spectator), ("?seat=1", Viewer::Player(1))] {
            let (status, replay) = api
                .get(&format!("/api/tables/{id}/replay{query}"), None)
                .await;
            assert_eq!(status, 200, "{game}: {replay}");
            let steps = replay["steps"].as_array().expect("steps");
            assert_eq!(steps.len(), record.actions.len() + 1, "{game}");
            assert_eq!(replay["finished"], true);
            assert_eq!(replay["seats"].as_array().map(Vec::len), Some(players));
            for (i, step) in steps.iter().enumerate() {
                assert_eq!(step["version"], i as u64);
                assert_eq!(
                    step["state"]["observation"],
                    states[i].observation_json(viewer),
                    "{game}: step {i} as {viewer:?}"
                );
                if i > 0 {
                    assert_eq!(step["text"], record.actions[i - 1].as_str());
                }
            }
        }
        let (status, _) = api
            .get(&format!("/api/tables/{id}/replay?seat=9"), None)
            .await;
        assert_eq!(status, 400, "{game}: no seat 9");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hints_are_given_to_the_seat_to_move_only() {
    let server = Server::start(&[]);
    let api = server.api();
    let created = api
        .create(
            "lager",
            json!({}),
            &["open".to_string(), "open".to_string()],
        )
        .await;
    let id = created["id"].as_str().expect("an id").to_string();
    let south = api.join(&id, 0).await;
    let north = api.join(&id, 1).await;
    let path = format!("/api/tables/{id}/hints");
    let (status, body) = api.get(&path, Some(&south)).await;
    assert_eq!(status, 200, "{body}");
    let hints = body["hints"].as_array().expect("hints");
    assert!(!hints.is_empty() && hints.len() <= 5, "{body}");
    let view = api.view(&id, Some(&south)).await;
    let legal: Vec<&str> = view["state"]["legal"]
        .as_array()
        .expect("legal actions")
        .iter()
        .map(|a| a["text"].as_str().expect("text"))
        .collect();
    for hint in hints {
        let estimate = hint["estimate"].as_f64().expect("an estimate");
        assert!((0.0..=1.0).contains(&estimate), "{hint}");
        assert!(
            legal.contains(&hint["text"].as_str().expect("text")),
            "{hint} is legal"
        );
    }
    assert_eq!(body["version"], view["version"]);
    let (status, body) = api.get(&path, Some(&north)).await;
    assert_eq!(status, 409, "not North's turn: {body}");
    assert_eq!(body["error"]["code"], "not_your_turn");
    assert_eq!(api.get(&path, None).await.0, 401, "hints need a seat");
    assert_eq!(api.get(&path, Some("nonsense")).await.0, 401);
}
