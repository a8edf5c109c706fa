//! Fair thinking: one address keeping the AI workers busy with expensive
//! seats does not slow down a cheap AI seat of another address.

use crate::harness::{Api, Server};
use crate::test_seed;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde_json::{Value, json};
use std::net::{IpAddr, Ipv4Addr};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Busy AI-against-AI tables the first address keeps going.
const BUSY_TABLES: usize = 10;

/// The game of the busy tables: Läger, whose `ai:expert` (an alpha-beta
/// search of 200,000 nodes) thinks some 35 ms a move on one core, with no
/// chance between the moves, so the two seats think without a pause.
const BUSY_GAME: &str = "lager";

/// AI replies measured at the other address's table.
const REPLIES: usize = 20;

/// Keeps `BUSY_TABLES` unfinished `ai:expert` against `ai:expert`
/// tables of `BUSY_GAME` from `api`'s address, replacing those that finish;
/// counts the versions they reach (their moves and rolls).
async fn keep_experts_busy(api: Api, stop: Arc<AtomicBool>, progress: Arc<AtomicU64>) {
    let experts = ["ai:expert".to_string(), "ai:expert".to_string()];
    let mut tables: Vec<(String, u64)> = Vec::new();
    loop {
        // Once more after the stop, to count the versions reached by then.
        let last_round = stop.load(Ordering::SeqCst);
        let mut open = Vec::new();
        for (id, seen) in tables.drain(..) {
            let (status, view) = api.get(&format!("/api/tables/{id}"), None).await;
            assert_eq!(status, 200, "{view}");
            let version = view["version"].as_u64().expect("a version");
            progress.fetch_add(version - seen, Ordering::SeqCst);
            if view["state"]["turn"]["kind"] != "over" {
                open.push((id, version));
            }
        }
        if last_round {
            return;
        }
        while open.len() < BUSY_TABLES {
            let made = api.create(BUSY_GAME, json!({}), &experts).await;
            let id = made["id"].as_str().expect("an id").to_string();
            open.push((id, made["version"].as_u64().unwrap_or(0)));
        }
        tables = open;
        tokio::time::sleep(Duration::from_millis(300)).await;
    }
}

/// A new table of a person (seat 0) against `ai:random`; its id and token.
async fn new_random_table(api: &Api) -> (String, String) {
    let made = api
        .create(
            "backgammon",
            json!({}),
            &["open".to_string(), "ai:random".to_string()],
        )
        .await;
    let id = made["id"].as_str().expect("an id").to_string();
    let token = api.join(&id, 0).await;
    (id, token)
}

/// Polls the table until seat 0 is to move again (or the game is over)
/// at a version after `after`; returns the last view.
async fn wait_for_reply(api: &Api, table: &str, after: u64) -> Value {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let view = api.view(table, None).await;
        let turn = &view["state"]["turn"];
        let back = turn["kind"] == "over" || turn["seat"] == json!(0);
        if view["version"].as_u64() > Some(after) && back {
            return view;
        }
        assert!(Instant::now() < deadline, "no AI reply within 60 s");
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let rank = ((sorted.len() as f64 * p).ceil() as usize).clamp(1, sorted.len());
    sorted[rank - 1]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn fairness_a_random_ai_answers_promptly_beside_ten_busy_expert_tables() {
    let _heavy = crate::heavy().await;
    let mut rng = StdRng::seed_from_u64(test_seed("fairness"));
    let server = Server::start(&["--ai-workers", "2"]);
    let stop = Arc::new(AtomicBool::new(false));
    let progress = Arc::new(AtomicU64::new(0));
    let keeper = tokio::spawn(keep_experts_busy(
        server.api(),
        stop.clone(),
        progress.clone(),
    ));
    // Let the expert tables fill the queue.
    tokio::time::sleep(Duration::from_secs(2)).await;
    let expert_start = progress.load(Ordering::SeqCst);
    let started = Instant::now();

    let me = Api::from_address(&server.base, IpAddr::V4(Ipv4Addr::new(127, 0, 0, 2)));
    let (mut table, mut token) = new_random_table(&me).await;
    let mut replies: Vec<Duration> = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(240);
    while replies.len() < REPLIES && Instant::now() < deadline {
        let mine = me.view(&table, Some(&token)).await;
        let turn = &mine["state"]["turn"];
        if turn["kind"] == "over" {
            (table, token) = new_random_table(&me).await;
            continue;
        }
        if turn["seat"] != json!(0) {
            // The AI's first move, before ours.
            wait_for_reply(&me, &table, mine["version"].as_u64().unwrap_or(0)).await;
            continue;
        }
        let version = mine["version"].as_u64().expect("a version");
        let legal = mine["state"]["legal"].as_array().expect("legal actions");
        let pick = &legal[rng.random_range(0..legal.len())];
        let sent = Instant::now();
        let (status, reply) = me
            .post(
                &format!("/api/tables/{table}/actions"),
                &json!({ "version": version, "action": pick["text"] }),
                Some(&token),
            )
            .await;
        assert_eq!(status, 200, "{reply}");
        if reply["state"]["turn"]["seat"] != json!(1) {
            // The game ended, or the AI had nothing to decide.
            continue;
        }
        let after = reply["version"].as_u64().expect("a version");
        wait_for_reply(&me, &table, after).await;
        replies.push(sent.elapsed());
    }
    let elapsed = started.elapsed();
    stop.store(true, Ordering::SeqCst);
    keeper.await.expect("the keeper ran");
    let expert_moves = progress.load(Ordering::SeqCst) - expert_start;

    let mut sorted = replies.clone();
    sorted.sort();
    assert!(!sorted.is_empty(), "no AI reply at all in {elapsed:?}");
    let (p50, p95, max) = (
        percentile(&sorted, 0.5),
        percentile(&sorted, 0.95),
        *sorted.last().expect("a reply"),
    );
    println!(
        "fairness: {} ai:random replies in {:.1} s beside {BUSY_TABLES} ai:expert tables: \
         p50 {} ms, p95 {} ms, max {} ms; the expert tables advanced {expert_moves} versions",
        sorted.len(),
        elapsed.as_secs_f64(),
        p50.as_millis(),
        p95.as_millis(),
        max.as_millis(),
    );
    assert_eq!(sorted.len(), REPLIES, "too few replies in {elapsed:?}");
    assert!(
        p95 < Duration::from_millis(250),
        "p95 of the ai:random replies {p95:?} (p50 {p50:?}, max {max:?})"
    );
    // The busy address was served meanwhile too, not starved.
    assert!(expert_moves > 0, "the expert tables did not move");
}

/// A new table of a person (seat 0) against `ai:random` in `game`, once
/// the person is to move; its id and token.
async fn my_turn_at(api: &Api, game: &str) -> (String, String) {
    let made = api
        .create(
            game,
            json!({}),
            &["open".to_string(), "ai:random".to_string()],
        )
        .await;
    let id = made["id"].as_str().expect("an id").to_string();
    let token = api.join(&id, 0).await;
    let view = api.view(&id, None).await;
    if view["state"]["turn"]["seat"] != json!(0) {
        wait_for_reply(api, &id, view["version"].as_u64().unwrap_or(0)).await;
    }
    (id, token)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn fairness_one_client_asking_many_hints_does_not_refuse_another_clients_hint() {
    let _heavy = crate::heavy().await;
    let server = Server::start(&["--ai-workers", "2"]);
    let greedy = server.api();
    let mut tables = Vec::new();
    for _ in 0..10 {
        tables.push(my_turn_at(&greedy, "lager").await);
    }
    let me = Api::from_address(&server.base, IpAddr::V4(Ipv4Addr::new(127, 0, 0, 2)));
    let (mine, my_token) = my_turn_at(&me, "lager").await;
    // Ten hint searches (of some 0.7 s each) asked for at once from one address.
    let flood: Vec<_> = tables
        .into_iter()
        .map(|(id, token)| {
            let api = greedy.clone();
            tokio::spawn(async move {
                api.get(&format!("/api/tables/{id}/hints"), Some(&token))
                    .await
            })
        })
        .collect();
    tokio::time::sleep(Duration::from_millis(100)).await;
    let asked = Instant::now();
    let (status, body) = me
        .get(&format!("/api/tables/{mine}/hints"), Some(&my_token))
        .await;
    let waited = asked.elapsed();
    assert_eq!(status, 200, "{body}");
    assert!(!body["hints"].as_array().expect("hints").is_empty());
    let mut answered = 0;
    let mut refused = 0;
    for request in flood {
        let (status, body) = request.await.expect("the request ran");
        match status {
            200 => answered += 1,
            429 => {
                assert_eq!(body["error"]["code"], "hints_busy", "{body}");
                refused += 1;
            }
            other => panic!("hint answered {other}: {body}"),
        }
    }
    println!(
        "fairness: the other client's hint in {} ms; of the ten at once, {answered} answered, \
         {refused} refused",
        waited.as_millis()
    );
    // Four per address wait or run; the others are refused at once.
    assert_eq!((answered, refused), (4, 6));
}
