//! Every kind of bad request is answered with the right error and changes
//! nothing.

use crate::harness::{Api, Reply, Server, play_random, replay_states};
use rand::SeedableRng;
use serde_json::{Value, json};
use spelbord_engine::Record;

fn assert_error(reply: &Reply, status: u16, code: &str) {
    assert_eq!(reply.0, status, "expected {status} {code}, got {reply:?}");
    assert_eq!(reply.1["error"]["code"], code, "{reply:?}");
    assert!(
        reply.1["error"]["message"]
            .as_str()
            .is_some_and(|m| !m.is_empty())
    );
}

async fn join(api: &Api, id: &str, body: Value) -> Reply {
    api.post(&format!("/api/tables/{id}/join"), &body, None)
        .await
}

async fn act(api: &Api, path: &str, body: Value, token: Option<&str>) -> Reply {
    api.post(path, &body, token).await
}

/// The table as seat 0 and as a spectator see it.
async fn snapshot(api: &Api, id: &str, token: &str) -> (Value, Value) {
    (api.view(id, Some(token)).await, api.view(id, None).await)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_requests_get_clear_errors_and_change_nothing() {
    let server = Server::start(&[]);
    let api = server.api();

    // Creating: bad JSON, unknown fields, games, options, seats, agents.
    let create = |body: &'static [u8]| api.post_raw("/api/tables", body.to_vec(), None);
    assert_error(&create(b"{not json").await, 400, "bad_json");
    assert_error(&create(b"[1, 2]").await, 400, "bad_json");
    assert_error(&create(b"").await, 400, "bad_json");
    assert_error(
        &create(br#"{"game": "tawla", "colour": "red"}"#).await,
        400,
        "bad_json",
    );
    assert_error(&create(br#"{"game": "chess"}"#).await, 400, "unknown_game");
    assert_error(
        &create(br#"{"game": "tawla", "options": {"speed": "1"}}"#).await,
        400,
        "bad_option",
    );
    assert_error(
        &create(br#"{"game": "tawla", "options": {"mother": "maybe"}}"#).await,
        400,
        "bad_option",
    );
    assert_error(
        &create(br#"{"game": "tawla", "options": {"mother": [1]}}"#).await,
        400,
        "bad_option",
    );
    assert_error(
        &create(br#"{"game": "tawla", "seats": ["open"]}"#).await,
        400,
        "bad_request",
    );
    assert_error(
        &create(br#"{"game": "tawla", "seats": ["open", "ai:genius"]}"#).await,
        400,
        "bad_request",
    );
    assert_error(
        &create(br#"{"game": "tawla", "player": "short"}"#).await,
        400,
        "bad_request",
    );
    let huge = format!(r#"{{"game": "tawla", "pad": "{}"}}"#, "x".repeat(100_000));
    assert_error(
        &api.post_raw("/api/tables", huge.into_bytes(), None).await,
        413,
        "too_large",
    );

    // A table with two open seats; seat 0 joins.
    let created = api
        .create(
            "tawla",
            json!({}),
            &["open".to_string(), "open".to_string()],
        )
        .await;
    let id = created["id"].as_str().expect("an id").to_string();
    assert_error(
        &join(&api, &id, json!({"seat": 2})).await,
        400,
        "bad_request",
    );
    assert_error(
        &join(&api, &id, json!({"seat": "one"})).await,
        400,
        "bad_json",
    );
    assert_error(
        &join(&api, &id, json!({"name": "x".repeat(41)})).await,
        400,
        "bad_request",
    );
    assert_error(
        &join(&api, &id, json!({"name": "bell\u{7}"})).await,
        400,
        "bad_request",
    );
    let t0 = api.join(&id, 0).await;
    assert_error(
        &join(&api, &id, json!({"seat": 0})).await,
        409,
        "seat_taken",
    );
    let t1 = api.join(&id, 1).await;
    assert_error(&join(&api, &id, json!({})).await, 409, "seat_taken");
    assert_error(
        &api.post(
            "/api/tables/0123456789abcdef01234567/join",
            &json!({}),
            None,
        )
        .await,
        404,
        "not_found",
    );

    // Reading: unknown tables, bad tokens.
    assert_error(
        &api.get("/api/tables/0123456789abcdef01234567", None).await,
        404,
        "not_found",
    );
    assert_error(
        &api.get("/api/tables/..%2F..%2Fetc", None).await,
        404,
        "not_found",
    );
    assert_error(
        &api.get(&format!("/api/tables/{id}"), Some("not-a-token"))
            .await,
        401,
        "unauthorized",
    );
    assert_error(&api.get("/api/nothing-here", None).await, 404, "not_found");
    assert_error(&api.get("/api/games/chess", None).await, 404, "not_found");

    // Acting: every way to get it wrong, each leaving the table as it was.
    let before = snapshot(&api, &id, &t0).await;
    let version = before.0["version"].as_u64().expect("version");
    let turn = before.0["state"]["turn"]["seat"]
        .as_u64()
        .expect("a player to move") as usize;
    let (mover, waiter) = if turn == 0 { (&t0, &t1) } else { (&t1, &t0) };
    let legal = api.view(&id, Some(mover)).await["state"]["legal"][0].clone();
    let path = format!("/api/tables/{id}/actions");
    let good = json!({"version": version, "action": legal["text"]});
    assert_error(
        &act(&api, &path, good.clone(), None).await,
        401,
        "unauthorized",
    );
    assert_error(
        &act(&api, &path, good.clone(), Some("0".repeat(64).as_str())).await,
        401,
        "unauthorized",
    );
    assert_error(
        &act(&api, &path, good.clone(), Some(waiter)).await,
        409,
        "not_your_turn",
    );
    assert_error(
        &act(
            &api,
            &path,
            json!({"version": version + 1, "action": legal["text"]}),
            Some(mover),
        )
        .await,
        409,
        "stale_version",
    );
    let stale = act(
        &api,
        &path,
        json!({"version": 0, "action": legal["text"]}),
        Some(mover),
    )
    .await;
    assert_error(&stale, 409, "stale_version");
    assert_eq!(stale.1["error"]["version"], json!(version));
    assert_error(
        &act(
            &api,
            &path,
            json!({"version": version, "action": "fly to the moon"}),
            Some(mover),
        )
        .await,
        400,
        "bad_action",
    );
    assert_error(
        &act(
            &api,
            &path,
            json!({"version": version, "json": {"nonsense": true}}),
            Some(mover),
        )
        .await,
        400,
        "bad_action",
    );
    assert_error(
        &act(&api, &path, json!({"version": version}), Some(mover)).await,
        400,
        "bad_json",
    );
    assert_error(
        &act(
            &api,
            &path,
            json!({"version": version, "action": legal["text"], "json": legal["json"]}),
            Some(mover),
        )
        .await,
        400,
        "bad_json",
    );
    assert_error(
        &act(
            &api,
            &path,
            json!({"version": "latest", "action": legal["text"]}),
            Some(mover),
        )
        .await,
        400,
        "bad_json",
    );
    assert_error(
        &act(
            &api,
            &path,
            json!({"version": version, "action": "x".repeat(501)}),
            Some(mover),
        )
        .await,
        400,
        "bad_action",
    );
    assert_error(
        &api.post_raw(&path, b"{\"version\": ".to_vec(), Some(mover))
            .await,
        400,
        "bad_json",
    );
    // A readable action that is not legal here.
    let record = api.record(&id).await;
    let text = illegal_text(&record).expect("an illegal action in notation");
    let reply = act(
        &api,
        &path,
        json!({"version": version, "action": text}),
        Some(mover),
    )
    .await;
    assert_error(&reply, 422, "illegal_action");
    assert_eq!(snapshot(&api, &id, &t0).await, before, "nothing changed");

    // The legal action goes through once; the same request again is stale.
    let ok = act(&api, &path, good.clone(), Some(mover)).await;
    assert_eq!(ok.0, 200, "{ok:?}");
    assert_error(
        &act(&api, &path, good, Some(mover)).await,
        409,
        "stale_version",
    );

    // A finished table refuses actions and joins.
    let over = api
        .create("tawla", json!({}), &crate::harness::seats(2, "ai:random"))
        .await;
    let over_id = over["id"].as_str().expect("id").to_string();
    let token = api.join(&over_id, 0).await;
    let mut rng = rand::rngs::StdRng::seed_from_u64(1);
    play_random(&api, &over_id, &[Some(token.clone()), None], &mut rng, None)
        .await
        .expect("the game is played");
    let end = api.view(&over_id, None).await["version"].clone();
    let path = format!("/api/tables/{over_id}/actions");
    assert_error(
        &api.post(&path, &json!({"version": end, "action": "x"}), Some(&token))
            .await,
        409,
        "game_over",
    );
    assert_error(
        &api.post(&format!("/api/tables/{over_id}/join"), &json!({}), None)
            .await,
        409,
        "game_over",
    );

    // The record of an unfinished game with hidden information is withheld.
    let cards = api
        .create(
            "stortok",
            json!({"players": 2}),
            &["open".to_string(), "open".to_string()],
        )
        .await;
    let cards_id = cards["id"].as_str().expect("id");
    assert_error(
        &api.get(&format!("/api/tables/{cards_id}/record"), None)
            .await,
        409,
        "not_finished",
    );
    // ... but a perfect-information game's record is public at any time.
    let (status, record) = api.get(&format!("/api/tables/{id}/record"), None).await;
    assert_eq!(status, 200);
    assert_eq!(record["finished"], false);

    // The player list needs a well-formed key.
    assert_error(
        &api.get("/api/players/me/tables", None).await,
        400,
        "bad_request",
    );
}

/// An action in notation that the record's current state reads but refuses:
/// a legal action after another chance outcome at the start.
fn illegal_text(record: &Record) -> Option<String> {
    let states = replay_states(record);
    let now = states.last()?;
    let start = &states[0];
    // Every way chance can go at the start (two steps deep), until a decision.
    let mut starts = vec![start.clone_box()];
    for _ in 0..2 {
        let mut next = Vec::new();
        for s in &starts {
            for (outcome, _) in s.chance_outcomes() {
                let mut other = s.clone_box();
                other.apply_text(&outcome.text).ok()?;
                next.push(other);
            }
        }
        if next.is_empty() {
            break;
        }
        starts = next;
    }
    for other in &starts {
        for action in other.legal_actions() {
            let mut probe = now.clone_box();
            if let Err(spelbord_engine::Error::IllegalAction { .. }) =
                probe.apply_text(&action.text)
            {
                return Some(action.text);
            }
        }
    }
    None
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn requests_beyond_the_rate_of_an_address_are_refused() {
    let server = Server::start(&["--rate-limit", "5", "--rate-burst", "5"]);
    let api = server.api();
    let mut limited = 0;
    for _ in 0..30 {
        let reply = api.get("/api/games", None).await;
        if reply.0 == 429 {
            assert_error(&reply, 429, "rate_limited");
            limited += 1;
        }
    }
    assert!(limited >= 20, "{limited} of 30 requests were limited");
    // Another connection from the same address shares its allowance.
    assert_eq!(Api::new(&server.base).get("/api/games", None).await.0, 429);
}
