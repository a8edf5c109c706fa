//! Seats and the life of a table: idempotent joins, the opening roll once
//! every seat is taken, resign, close, the inactivity rule, the link that
//! continues a seat, and dice anyone can verify (commit–reveal).

use crate::harness::{Api, Server, Watcher, play_random};
use rand::SeedableRng;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use spelbord_engine::find_game;
use std::time::{Duration, Instant};

async fn new_table(api: &Api, body: Value) -> String {
    let (status, table) = api.post("/api/tables", &body, None).await;
    assert_eq!(status, 201, "{table}");
    table["id"].as_str().unwrap().to_string()
}

async fn join(api: &Api, id: &str, body: Value) -> (u16, Value) {
    api.post(&format!("/api/tables/{id}/join"), &body, None)
        .await
}

/// Polls the table (as a spectator) until `done` holds, for up to 30 s.
async fn wait_for(api: &Api, id: &str, done: impl Fn(&Value) -> bool) -> Value {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let view = api.view(id, None).await;
        if done(&view) {
            return view;
        }
        assert!(
            Instant::now() < deadline,
            "the table never got there: {view}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_join_whose_answer_was_lost_is_answered_again_by_its_key() {
    let server = Server::start(&[]);
    let api = server.api();
    let id = new_table(&api, json!({"game": "tawla"})).await;
    let key = "join-key-0123456789abcdef";
    let (status, first) = join(&api, &id, json!({"seat": 1, "key": key})).await;
    assert_eq!(status, 200, "{first}");
    // The answer is lost; the client sends the same join again.
    let (status, again) = join(&api, &id, json!({"seat": 1, "key": key})).await;
    assert_eq!(status, 200, "{again}");
    assert_eq!(again["seat"], first["seat"]);
    assert_eq!(again["token"], first["token"]);
    // The token works; another key cannot take the seat.
    let token = first["token"].as_str().unwrap();
    assert_eq!(
        api.view(&id, Some(token)).await["viewer"],
        json!({"seat": 1})
    );
    let (status, _) = join(
        &api,
        &id,
        json!({"seat": 1, "key": "another-key-0123456789"}),
    )
    .await;
    assert_eq!(status, 409);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_opening_roll_waits_for_every_seat() {
    let server = Server::start(&[]);
    let api = server.api();
    let id = new_table(&api, json!({"game": "backgammon"})).await;
    let view = api.view(&id, None).await;
    assert_eq!(view["version"], 0);
    assert_eq!(view["status"], "waiting");
    api.join(&id, 1).await;
    assert_eq!(
        api.view(&id, None).await["version"],
        0,
        "no roll with a seat open"
    );
    api.join(&id, 0).await;
    let view = api.view(&id, None).await;
    assert!(view["version"].as_u64().unwrap() >= 1, "{view}");
    assert_eq!(view["status"], "playing");
    assert_eq!(view["state"]["turn"]["kind"], "player");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seat_resigns_and_the_table_leaves_the_running_lists() {
    let server = Server::start(&[]);
    let api = server.api();
    let key = "player-key-0123456789abcdef";
    let id = new_table(&api, json!({"game": "tawla"})).await;
    let (_, joined) = join(&api, &id, json!({"seat": 0, "player": key})).await;
    let token = joined["token"].as_str().unwrap().to_string();
    api.join(&id, 1).await;
    let (_, mine) = api
        .get_with("/api/players/me/tables", &[("x-player-key", key)])
        .await;
    assert_eq!(mine["tables"].as_array().unwrap().len(), 1);
    let (status, ended) = api
        .post(
            &format!("/api/tables/{id}/resign"),
            &json!({}),
            Some(&token),
        )
        .await;
    assert_eq!(status, 200, "{ended}");
    assert_eq!(ended["status"], "finished");
    assert_eq!(ended["ending"]["reason"], "resigned");
    assert_eq!(ended["ending"]["seat"], 0);
    assert_eq!(ended["ending"]["returns"], json!([-1.0, 1.0]));
    let version = ended["version"].clone();
    let (status, refused) = api
        .post(
            &format!("/api/tables/{id}/actions"),
            &json!({"version": version, "action": "x"}),
            Some(&token),
        )
        .await;
    assert_eq!(
        (status, &refused["error"]["code"]),
        (409, &json!("game_over"))
    );
    let (_, mine) = api
        .get_with("/api/players/me/tables", &[("x-player-key", key)])
        .await;
    assert_eq!(mine["tables"], json!([]));
    // The end survives a restart.
    let mut server = server;
    server.restart();
    let view = server.api().view(&id, None).await;
    assert_eq!(view["ending"]["reason"], "resigned");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_the_creator_closes_a_table_and_only_before_it_starts() {
    let server = Server::start(&[]);
    let api = server.api();
    let key = "creator-key-0123456789abcdef";
    let close = |id: String, key: &'static str| {
        let api = api.clone();
        async move {
            api.post_with(
                &format!("/api/tables/{id}/close"),
                &json!({}),
                &[("x-player-key", key)],
            )
            .await
        }
    };
    let id = new_table(&api, json!({"game": "tawla", "player": key})).await;
    let (status, _) = close(id.clone(), "somebody-else-0123456789").await;
    assert_eq!(status, 403);
    let (status, closed) = close(id.clone(), key).await;
    assert_eq!(status, 200, "{closed}");
    assert_eq!(closed["ending"]["reason"], "closed");
    let (status, _) = join(&api, &id, json!({})).await;
    assert_eq!(status, 409, "a closed table takes nobody");

    let started = new_table(&api, json!({"game": "tawla", "player": key})).await;
    api.join(&started, 0).await;
    api.join(&started, 1).await;
    let (status, body) = close(started, key).await;
    assert_eq!((status, &body["error"]["code"]), (409, &json!("started")));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seat_that_does_not_act_in_time_forfeits() {
    let server = Server::start(&[]);
    let api = server.api();
    let id = new_table(
        &api,
        json!({"game": "tawla", "inactivity": {"seconds": 1, "then": "forfeit"}}),
    )
    .await;
    let view = api.view(&id, None).await;
    assert_eq!(view["inactivity"], json!({"seconds": 1, "then": "forfeit"}));
    api.join(&id, 0).await;
    api.join(&id, 1).await;
    let to_move = api.view(&id, None).await["state"]["turn"]["seat"]
        .as_u64()
        .unwrap();
    let ended = wait_for(&api, &id, |v| v["status"] == "finished").await;
    assert_eq!(ended["ending"]["reason"], "forfeit");
    assert_eq!(ended["ending"]["seat"], to_move);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_ai_takes_over_a_seat_that_does_not_act_if_the_table_says_so() {
    let server = Server::start(&[]);
    let api = server.api();
    let id = new_table(
        &api,
        json!({"game": "tawla", "seats": ["open", "ai:random"],
               "inactivity": {"seconds": 1, "then": "ai"}}),
    )
    .await;
    let token = api.join(&id, 0).await;
    let view = wait_for(&api, &id, |v| v["seats"][0]["kind"] == "ai").await;
    assert_eq!(view["seats"][0]["agent"], "ai:medium");
    // The AI plays the game to its end; the old token no longer acts.
    wait_for(&api, &id, |v| v["status"] == "finished").await;
    let (status, _) = api.get(&format!("/api/tables/{id}"), Some(&token)).await;
    assert_eq!(status, 401);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_waiting_table_nobody_joins_is_abandoned() {
    let server = Server::start(&[]);
    let api = server.api();
    let id = new_table(
        &api,
        json!({"game": "tawla", "inactivity": {"seconds": 1, "then": "ai"}}),
    )
    .await;
    let ended = wait_for(&api, &id, |v| v["status"] == "finished").await;
    assert_eq!(ended["ending"]["reason"], "abandoned");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seat_link_continues_the_seat_elsewhere() {
    let server = Server::start(&[]);
    let api = server.api();
    let id = new_table(&api, json!({"game": "tawla"})).await;
    let token = api.join(&id, 1).await;
    let (status, link) = api
        .get(&format!("/api/tables/{id}/seat-link"), Some(&token))
        .await;
    assert_eq!(status, 200, "{link}");
    assert_eq!(
        link["url"],
        format!("/t/{id}?seat=1#token={token}"),
        "the token travels in the fragment"
    );
    let (status, _) = api.get(&format!("/api/tables/{id}/seat-link"), None).await;
    assert_eq!(status, 401);
}

/// Every text the server sent about a table during play, to search for secrets.
async fn snapshots(api: &Api, id: &str, token: &str) -> Vec<String> {
    let mut texts = Vec::new();
    for (path, token) in [
        (format!("/api/tables/{id}"), Some(token)),
        (format!("/api/tables/{id}"), None),
        (format!("/api/tables/{id}/record"), None),
        (format!("/api/tables/{id}/replay"), None),
    ] {
        let (_, body) = api.get(&path, token).await;
        texts.push(body.to_string());
    }
    texts
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dice_are_committed_revealed_at_the_end_and_verified() {
    let seed = crate::test_seed("dice_are_committed_revealed_at_the_end_and_verified");
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let server = Server::start(&[]);
    let api = server.api();
    let id = new_table(
        &api,
        json!({"game": "tawla", "seats": ["open", "ai:random"]}),
    )
    .await;
    let created = api.view(&id, None).await;
    let commitment = created["dice"]["commitment"].as_str().unwrap().to_string();
    assert!(created["dice"]["server_seed"].is_null());
    let (status, joined) = join(&api, &id, json!({"seat": 0, "seed": "my-own-seed-42"})).await;
    assert_eq!(status, 200, "{joined}");
    let token = joined["token"].as_str().unwrap().to_string();
    let watcher = Watcher::start(&api.base, &id, Some(token.clone()), None).await;
    let mut seen = snapshots(&api, &id, &token).await;
    play_random(&api, &id, &[Some(token.clone()), None], &mut rng, None)
        .await
        .expect("played");
    let messages = watcher.messages().await;
    seen.extend(messages.iter().map(Value::to_string));

    let (status, record) = api.get(&format!("/api/tables/{id}/record"), None).await;
    assert_eq!(status, 200);
    let dice = &record["dice"];
    assert_eq!(dice["commitment"], commitment.as_str());
    assert_eq!(dice["seat_seeds"], json!(["my-own-seed-42", ""]));
    let revealed = dice["server_seed"].as_str().expect("revealed at the end");
    let bytes: Vec<u8> = (0..32)
        .map(|i| u8::from_str_radix(&revealed[2 * i..2 * i + 2], 16).unwrap())
        .collect();
    let hash: String = Sha256::digest(&bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    assert_eq!(hash, commitment);
    for text in &seen {
        assert!(
            !text.contains(revealed),
            "the seed was shown before the end"
        );
    }

    let dir = std::env::temp_dir().join(format!("spelbord-verify-{}-{seed}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("good.json");
    std::fs::write(&good, record.to_string()).unwrap();
    let run = |path: &std::path::Path| {
        std::process::Command::new(env!("CARGO_BIN_EXE_spelbord"))
            .arg("verify")
            .arg(path)
            .output()
            .expect("spelbord verify runs")
    };
    let out = run(&good);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && stdout.starts_with("verified"),
        "{stdout}"
    );

    // Change one roll (the third chance action) to another possible outcome.
    let actions = record["actions"].as_array().unwrap();
    let game = find_game("tawla").unwrap();
    let mut state = game.new_state(&Default::default()).unwrap();
    let mut chance_seen = 0;
    let mut changed = record.clone();
    for (index, action) in actions.iter().enumerate() {
        if state.turn() == spelbord_engine::Turn::Chance {
            chance_seen += 1;
            if chance_seen == 3 {
                let other = state
                    .chance_outcomes()
                    .into_iter()
                    .map(|(a, _)| a.text)
                    .find(|t| Some(t.as_str()) != action.as_str())
                    .unwrap();
                changed["actions"][index] = json!(other);
                let bad = dir.join("bad.json");
                std::fs::write(&bad, changed.to_string()).unwrap();
                let out = run(&bad);
                let stdout = String::from_utf8_lossy(&out.stdout);
                assert_eq!(out.status.code(), Some(1), "{stdout}");
                assert!(
                    stdout.contains(&format!("chance action {} ", index + 1)),
                    "names the changed action {}: {stdout}",
                    index + 1
                );
                break;
            }
        }
        state.apply_text(action.as_str().unwrap()).unwrap();
    }
    assert_eq!(chance_seen, 3, "the game had three rolls");
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_without_chance_has_no_dice_commitment() {
    let server = Server::start(&[]);
    let api = server.api();
    // Läger has no dice and no deal: nothing to commit to.
    let lager = new_table(
        &api,
        json!({"game": "lager", "seats": ["open", "ai:random"]}),
    )
    .await;
    let view = api.view(&lager, None).await;
    assert!(view["dice"].is_null(), "{}", view["dice"]);
    let tawla = new_table(
        &api,
        json!({"game": "tawla", "seats": ["open", "ai:random"]}),
    )
    .await;
    assert!(api.view(&tawla, None).await["dice"]["commitment"].is_string());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_server_seed_of_a_hidden_deal_is_not_revealed_during_play() {
    let server = Server::start(&[]);
    let api = server.api();
    let seats = crate::harness::seats(crate::harness::players_of("stortok", &[]), "ai:random");
    let id = new_table(&api, json!({"game": "stortok", "seats": seats})).await;
    let token = api.join(&id, 0).await;
    let view = api.view(&id, Some(&token)).await;
    assert!(view["dice"]["commitment"].is_string());
    assert!(view["dice"]["server_seed"].is_null(), "{}", view["dice"]);
    let (status, _) = api.get(&format!("/api/tables/{id}/record"), None).await;
    assert_eq!(status, 409, "no record (and no seed) before the end");
}

/// A resignation is the game's rule (the engine's): in a match a single
/// game resigned gives its points and the match goes on; the match resigned
/// ends the table; both are actions of the record.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_resigned_game_of_a_match_pays_its_points_and_the_match_goes_on() {
    let server = Server::start(&[]);
    let api = server.api();
    let id = new_table(
        &api,
        json!({"game": "backgammon", "options": {"match": 5, "cube": "on"}}),
    )
    .await;
    let tokens = [api.join(&id, 0).await, api.join(&id, 1).await];
    let resign = |seat: usize, kind: &str| {
        let (api, path, token) = (&api, format!("/api/tables/{id}/resign"), &tokens[seat]);
        let body = json!({ "kind": kind });
        async move { api.post(&path, &body, Some(token)).await }
    };
    let (status, refused) = resign(0, "everything").await;
    assert_eq!(
        (status, &refused["error"]["code"]),
        (400, &json!("bad_request"))
    );
    let (status, view) = resign(0, "gammon").await;
    assert_eq!(status, 200, "{view}");
    assert_eq!(view["status"], "playing", "{view}");
    assert!(view["ending"].is_null(), "{view}");
    assert_eq!(
        view["state"]["observation"]["score"],
        json!([0, 2]),
        "{view}"
    );
    let (status, view) = resign(1, "match").await;
    assert_eq!(status, 200, "{view}");
    assert_eq!(view["status"], "finished");
    assert_eq!(view["ending"]["reason"], "resigned");
    assert_eq!(view["ending"]["seat"], 1);
    assert_eq!(view["ending"]["returns"], json!([1.0, -1.0]));
    let (_, record) = api.get(&format!("/api/tables/{id}/record"), None).await;
    let actions: Vec<&str> = record["actions"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .filter(|a| a.starts_with("resign:"))
        .collect();
    assert_eq!(actions, ["resign:0:gammon", "resign:1:match"], "{record}");
}
