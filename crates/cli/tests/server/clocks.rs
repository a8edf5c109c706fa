//! Clocks and auto-roll through the real server: a flag that falls, the
//! clocks across `kill -9` (one node, and several nodes when the owner
//! dies), and the server rolling for a seat at a dead cube.

use crate::harness::{Api, Server};
use serde_json::{Value, json};
use std::time::{Duration, Instant};

/// Creates a two-seat table with `clock` and joins both seats (with
/// `auto_roll` per seat); returns its id and the tokens.
async fn clocked_table(
    api: &Api,
    game: &str,
    options: Value,
    clock: Value,
    auto_roll: [&str; 2],
) -> (String, Vec<String>) {
    let (status, body) = api
        .post(
            "/api/tables",
            &json!({ "game": game, "options": options, "clock": clock }),
            None,
        )
        .await;
    assert_eq!(status, 201, "create: {body}");
    assert_eq!(body["clock"]["initial_s"], clock["initial_s"], "{body}");
    let id = body["id"].as_str().expect("an id").to_string();
    let mut tokens = Vec::new();
    for (seat, mode) in auto_roll.iter().enumerate() {
        let (status, body) = api
            .post(
                &format!("/api/tables/{id}/join"),
                &json!({ "seat": seat, "auto_roll": mode }),
                None,
            )
            .await;
        assert_eq!(status, 200, "join: {body}");
        tokens.push(body["token"].as_str().expect("a token").to_string());
    }
    (id, tokens)
}

/// The seat to move and the clock of a table's body.
fn to_move(view: &Value) -> Option<usize> {
    view["state"]["turn"]["seat"].as_u64().map(|s| s as usize)
}

fn left(view: &Value, seat: usize) -> i64 {
    view["clock"]["remaining_ms"][seat]
        .as_i64()
        .unwrap_or_else(|| panic!("no clock: {view}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seat_that_never_moves_loses_on_time() {
    let server = Server::start(&[]);
    let api = server.api();
    // Bounds are checked with a typed error.
    let (status, body) = api
        .post(
            "/api/tables",
            &json!({ "game": "tawla", "clock": { "initial_s": 86_401 } }),
            None,
        )
        .await;
    assert_eq!(status, 400);
    assert_eq!(body["error"]["code"], "bad_clock", "{body}");
    let (status, body) = api
        .post(
            "/api/tables",
            &json!({ "game": "tawla", "clock": { "initial_s": 60, "delay_s": 601 } }),
            None,
        )
        .await;
    assert_eq!((status, &body["error"]["code"]), (400, &json!("bad_clock")));

    let (id, _tokens) = clocked_table(
        &api,
        "tawla",
        json!({}),
        json!({ "initial_s": 2 }),
        ["useless"; 2],
    )
    .await;
    let started = Instant::now();
    let view = api.view(&id, None).await;
    let seat = to_move(&view).expect("a seat to move");
    assert_eq!(view["clock"]["running"], json!(seat), "{view}");
    let other = 1 - seat;
    let ended = loop {
        let view = api.view(&id, None).await;
        if view["status"] == "finished" {
            break view;
        }
        assert!(
            started.elapsed() < Duration::from_secs(3),
            "no flag fell in 3 s: {view}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    let took = started.elapsed();
    assert!(took >= Duration::from_millis(1_900), "fell early: {took:?}");
    assert_eq!(ended["ending"]["reason"], "time", "{ended}");
    assert_eq!(ended["ending"]["seat"], json!(seat));
    assert!(ended["ending"]["returns"][seat].as_f64().expect("returns") < 0.0);
    assert_eq!(left(&ended, seat), 0);
    assert_eq!(left(&ended, other), 2_000, "the other clock never ran");
    assert_eq!(ended["clock"]["running"], Value::Null);
}

/// Plays one action for the seat to move (its first legal action); returns
/// the seat that moved.
async fn play_one(api: &Api, id: &str, tokens: &[String]) -> usize {
    let view = api.view(id, None).await;
    let seat = to_move(&view).expect("a seat to move");
    let mine = api.view(id, Some(&tokens[seat])).await;
    let action = mine["state"]["legal"][0]["text"]
        .as_str()
        .expect("a legal action")
        .to_string();
    let (status, body) = api
        .post(
            &format!("/api/tables/{id}/actions"),
            &json!({ "version": mine["version"], "action": action }),
            Some(&tokens[seat]),
        )
        .await;
    assert_eq!(status, 200, "act: {body}");
    seat
}

/// The stored times left after the last action (the record's `times`).
async fn stored_left(api: &Api, id: &str) -> Vec<i64> {
    let (status, record) = api.get(&format!("/api/tables/{id}/record"), None).await;
    assert_eq!(status, 200, "{record}");
    let times = record["times"].as_array().expect("times");
    let last = times
        .iter()
        .rev()
        .find(|t| t["left_ms"].is_array())
        .expect("a stored clock");
    last["left_ms"]
        .as_array()
        .expect("left")
        .iter()
        .map(|l| l.as_i64().expect("ms"))
        .collect()
}

/// Every seat's time left in `view` is the stored one, within a second.
fn assert_kept(view: &Value, stored: &[i64], when: &str) {
    for (s, stored) in stored.iter().enumerate() {
        let now = left(view, s);
        assert!(
            (now - stored).abs() <= 1_000,
            "seat {s}: {now} ms left, {stored} stored ({when})"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_clocks_survive_kill9_and_downtime_is_not_charged() {
    let mut server = Server::start(&[]);
    let api = server.api();
    let (id, tokens) = clocked_table(
        &api,
        "tawla",
        json!({ "match": 5 }),
        json!({ "initial_s": 120, "increment_s": 1 }),
        ["useless"; 2],
    )
    .await;
    // A few moves, each taking a moment, so the stored clocks differ from
    // the initial time.
    for _ in 0..3 {
        tokio::time::sleep(Duration::from_millis(300)).await;
        play_one(&api, &id, &tokens).await;
    }
    let (status, record) = api.get(&format!("/api/tables/{id}/record"), None).await;
    assert_eq!(status, 200);
    assert!(
        record["times"]
            .as_array()
            .expect("times")
            .iter()
            .any(|t| t["think_ms"].as_u64().is_some_and(|ms| ms >= 250)),
        "the think times are stored: {record}"
    );
    let stored = stored_left(&api, &id).await;
    let view = api.view(&id, None).await;
    let seat = to_move(&view).expect("a seat to move");
    // The seat to move thinks for 2 s, then the server dies and stays down 2 s.
    tokio::time::sleep(Duration::from_secs(2)).await;
    server.kill9();
    tokio::time::sleep(Duration::from_secs(2)).await;
    server.restart();
    let api = server.api();
    let view = api.view(&id, None).await;
    assert_eq!(to_move(&view), Some(seat));
    assert_eq!(view["clock"]["running"], json!(seat), "{view}");
    assert_kept(&view, &stored, "after the restart");
    // The clock runs on from the restart.
    tokio::time::sleep(Duration::from_millis(1_200)).await;
    let later = api.view(&id, None).await;
    assert!(left(&later, seat) < left(&view, seat) - 900, "{later}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_clocks_survive_the_owner_node_dying() {
    let _heavy = crate::heavy().await;
    let Some((url, db)) = crate::harness::test_database_pool().await else {
        return;
    };
    let extra = ["--lease", "2"];
    let mut nodes: Vec<Server> = (0..2).map(|_| Server::start_on(&url, &extra)).collect();
    let owner_api = nodes[0].api();
    let (id, tokens) = clocked_table(
        &owner_api,
        "tawla",
        json!({ "match": 5 }),
        json!({ "initial_s": 120, "delay_s": 1 }),
        ["useless"; 2],
    )
    .await;
    for _ in 0..2 {
        tokio::time::sleep(Duration::from_millis(1_500)).await;
        play_one(&owner_api, &id, &tokens).await;
    }
    let stored = stored_left(&owner_api, &id).await;
    let owner: String = sqlx::query_scalar("SELECT owner FROM game_tables WHERE id = $1")
        .bind(&id)
        .fetch_one(&db)
        .await
        .expect("the owner");
    tokio::time::sleep(Duration::from_secs(2)).await;
    nodes[0].kill9();
    let killed = Instant::now();
    // Another node takes the table over after the lease (2 s).
    loop {
        let now: Option<String> = sqlx::query_scalar("SELECT owner FROM game_tables WHERE id = $1")
            .bind(&id)
            .fetch_one(&db)
            .await
            .expect("the owner");
        if now.is_some_and(|n| n != owner) {
            break;
        }
        assert!(killed.elapsed() < Duration::from_secs(15), "no takeover");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let api = nodes[1].api();
    let view = api.view(&id, None).await;
    let seat = to_move(&view).expect("a seat to move");
    assert_kept(
        &view,
        &stored,
        &format!("{:?} after the kill", killed.elapsed()),
    );
    assert_eq!(view["clock"]["running"], json!(seat), "{view}");
    // The new owner plays on with the clocks.
    play_one(&api, &id, &tokens).await;
    let after = api.view(&id, None).await;
    assert!(after["clock"]["running"].is_u64(), "{after}");
}

/// Plays a backgammon 5-point match where every cube decision doubles and
/// every double is taken, until seat 0 owns a dead cube (its score plus
/// the cube reach 5) and `turns_after` more of its turns passed. Returns
/// whether seat 0 was ever asked at a dead cube and how many rolls the
/// server made for it.
async fn cube_war(
    api: &Api,
    seat0: &str,
    turns_after: usize,
) -> (bool, usize, String, Vec<String>) {
    let (id, tokens) = clocked_table(
        api,
        "backgammon",
        json!({ "match": 5, "cube": "on" }),
        json!({ "initial_s": 600 }),
        [seat0, "ask"],
    )
    .await;
    let mut asked_dead = false;
    let mut auto_rolls = 0;
    let mut dead_turns = 0;
    for _ in 0..400 {
        let view = api.view(&id, None).await;
        if view["status"] == "finished" {
            break;
        }
        let Some(seat) = to_move(&view) else {
            tokio::time::sleep(Duration::from_millis(20)).await;
            continue;
        };
        let o = &view["state"]["observation"];
        let cube = o["cube"].as_u64().expect("cube");
        let dead0 =
            o["cube_owner"] == json!(0) && o["score"][0].as_u64().expect("score") + cube >= 5;
        if seat == 0 && o["phase"] == "cube_decision" && dead0 {
            asked_dead = true;
            break;
        }
        let mine = api.view(&id, Some(&tokens[seat])).await;
        let legal: Vec<String> = mine["state"]["legal"]
            .as_array()
            .expect("legal")
            .iter()
            .map(|a| a["text"].as_str().expect("text").to_string())
            .collect();
        let action = ["double", "take"]
            .into_iter()
            .find(|a| legal.iter().any(|l| l == a))
            .map(str::to_string)
            .unwrap_or_else(|| legal[0].clone());
        let (status, body) = api
            .post(
                &format!("/api/tables/{id}/actions"),
                &json!({ "version": mine["version"], "action": action }),
                Some(&tokens[seat]),
            )
            .await;
        assert_eq!(status, 200, "act: {body}");
        for a in body["actions"].as_array().expect("actions") {
            if a["seat"] == json!(0) && a["auto"] == json!(true) && a["text"] == "roll" {
                auto_rolls += 1;
                assert_eq!(
                    a["think_ms"],
                    Value::Null,
                    "an auto-roll costs no time: {a}"
                );
            }
        }
        if seat == 0 && dead0 {
            dead_turns += 1;
            if dead_turns > turns_after {
                break;
            }
        }
    }
    (asked_dead, auto_rolls, id, tokens)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seat_is_not_asked_at_a_dead_cube_unless_it_says_ask() {
    let server = Server::start(&[]);
    let api = server.api();
    let (asked, rolls, _, _) = cube_war(&api, "useless", 3).await;
    assert!(!asked, "seat 0 (useless) was asked at a dead cube");
    assert!(rolls > 0, "the server never rolled for seat 0");

    let (asked, rolls, id, tokens) = cube_war(&api, "ask", 3).await;
    assert!(asked, "seat 0 (ask) was never asked at a dead cube");
    assert_eq!(rolls, 0);
    // Changed in play: the decision is rolled at once.
    let (status, body) = api
        .post(
            &format!("/api/tables/{id}/settings"),
            &json!({ "auto_roll": "useless" }),
            Some(&tokens[0]),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["seats"][0]["auto_roll"], "useless");
    assert_ne!(
        body["state"]["observation"]["phase"], "cube_decision",
        "{body}"
    );
    let (status, body) = api
        .post(
            &format!("/api/tables/{id}/settings"),
            &json!({ "auto_roll": "sometimes" }),
            Some(&tokens[0]),
        )
        .await;
    assert_eq!(status, 400, "{body}");
}
