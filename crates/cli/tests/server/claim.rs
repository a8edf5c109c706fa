//! A guest's tables claimed at sign-up and log-in (SQLite and PostgreSQL),
//! and a signed-in player's rematch made his account's.

use crate::accounts::Browser;
use crate::harness::Server;
use reqwest::Method;
use serde_json::{Value, json};

const KEY: &str = "guest-key-of-this-browser-0123";

/// A table the guest of [`KEY`] created and joined (seat 0, named "Gus").
async fn guest_table(b: &Browser) -> String {
    let (status, table, _) = b
        .post("/api/tables", json!({"game": "tawla", "player": KEY}), None)
        .await;
    assert_eq!(status, 201, "{table}");
    let id = table["id"].as_str().unwrap().to_string();
    let (status, joined, _) = b
        .post(
            &format!("/api/tables/{id}/join"),
            json!({"seat": 0, "name": "Gus", "player": KEY}),
            None,
        )
        .await;
    assert_eq!(status, 200, "{joined}");
    id
}

/// The tables of the player of a cookie or a key.
async fn mine(b: &Browser, cookie: Option<&str>, key: Option<&str>) -> Vec<Value> {
    let headers: Vec<(&str, &str)> = key.map(|k| ("x-player-key", k)).into_iter().collect();
    let (status, body, _) = b
        .send(
            Method::GET,
            "/api/players/me/tables",
            None,
            cookie,
            &headers,
        )
        .await;
    assert_eq!(status, 200, "{body}");
    body["tables"].as_array().unwrap().clone()
}

/// Signing up with the guest's key makes his table the account's (in
/// memory and, seen through `restarted`, in the store); a fresh key claims
/// nothing.
async fn claims(a: &Browser, restarted: &Browser) {
    let id = guest_table(a).await;
    let (status, body, set) = a
        .post(
            "/api/accounts",
            json!({"name": "Gus", "password": "a good password", "player": KEY}),
            None,
        )
        .await;
    assert_eq!((status, &body["claimed"]), (201, &json!(1)), "{body}");
    let cookie = crate::accounts::token_of(&set.unwrap());
    for b in [a, restarted] {
        let (_, view, _) = b.get(&format!("/api/tables/{id}"), None).await;
        let seat = &view["seats"][0];
        assert_eq!(
            (&seat["name"], &seat["account"]),
            (&json!("Gus"), &json!("Gus"))
        );
        let tables = mine(b, Some(&cookie), None).await;
        assert_eq!(tables.len(), 1, "{tables:?}");
        assert_eq!(tables[0]["id"], json!(id));
        assert_eq!(tables[0]["your_seats"], json!([0]));
        assert_eq!(tables[0]["created"], json!(true));
        assert!(mine(b, None, Some(KEY)).await.is_empty(), "the key lost it");
    }
    let (status, body, _) = a
        .post(
            "/api/session",
            json!({"name": "Gus", "password": "a good password",
                   "player": "a-key-that-was-never-used-0123"}),
            None,
        )
        .await;
    assert_eq!((status, &body["claimed"]), (200, &json!(0)), "{body}");
    let (status, body, _) = a
        .post(
            "/api/accounts",
            json!({"name": "Hal", "password": "a good password", "player": "short"}),
            None,
        )
        .await;
    assert_eq!(status, 400, "a key has 16 to 128 characters: {body}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_guest_who_signs_up_with_his_key_claims_his_tables() {
    let mut server = Server::start(&[]);
    let b = Browser::of(&server);
    let id = guest_table(&b).await;
    // Claimed after a restart too (then the table is loaded from the file).
    server.restart();
    let b = Browser::of(&server);
    let (status, body, _) = b
        .post(
            "/api/accounts",
            json!({"name": "Ida", "password": "a good password", "player": KEY}),
            None,
        )
        .await;
    assert_eq!((status, &body["claimed"]), (201, &json!(1)), "{body}");
    let (_, view, _) = b.get(&format!("/api/tables/{id}"), None).await;
    assert_eq!(view["seats"][0]["account"], json!("Ida"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_claim_is_seen_in_memory_and_by_another_node() {
    let server = Server::start(&[]);
    let b = Browser::of(&server);
    claims(&b, &b).await;
    let Some(url) = crate::harness::test_database().await else {
        return;
    };
    let (one, two) = (Server::start_on(&url, &[]), Server::start_on(&url, &[]));
    claims(&Browser::of(&one), &Browser::of(&two)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_signed_in_players_rematch_is_his_accounts() {
    let server = Server::start(&[]);
    let b = Browser::of(&server);
    let me = b.sign_up("Rita", "a good password").await;
    let (status, table, _) = b
        .post(
            "/api/tables",
            json!({"game": "tawla", "seats": ["open", "ai:random"]}),
            Some(&me),
        )
        .await;
    assert_eq!(status, 201, "{table}");
    let old = table["id"].as_str().unwrap().to_string();
    let (status, joined, _) = b
        .post(
            &format!("/api/tables/{old}/join"),
            json!({"seat": 0}),
            Some(&me),
        )
        .await;
    assert_eq!(status, 200, "{joined}");
    let bearer = format!("Bearer {}", joined["token"].as_str().unwrap());
    let auth = [("authorization", bearer.as_str())];
    let path = format!("/api/tables/{old}/resign");
    let (status, body, _) = b
        .send(Method::POST, &path, Some(json!({})), None, &auth)
        .await;
    assert_eq!(status, 200, "{body}");
    let path = format!("/api/tables/{old}/rematch");
    let (status, made, _) = b
        .send(Method::POST, &path, Some(json!({})), Some(&me), &auth)
        .await;
    assert_eq!(status, 201, "{made}");
    let tables = mine(&b, Some(&me), None).await;
    assert_eq!(tables.len(), 1, "{tables:?}");
    assert_eq!(tables[0]["id"], made["rematch"]);
    assert_eq!(tables[0]["created"], json!(true));
}
