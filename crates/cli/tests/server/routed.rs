//! Two nodes with routes (`--route n1`, `--route n2`) on one PostgreSQL
//! database: a session made on one is used on the other; a rated seek with
//! a clock posted on one is seen and accepted on the other, whose table
//! (routed to it) is played through both, its clock running and the result
//! rated once on both; quick pairing pairs players queued on different nodes;
//! a node hears of the changes of the tables it holds only.

use crate::accounts::Browser;
use crate::harness::{Api, Server};
use crate::protocol::{connect, next, say};
use crate::ratings::profile_after;
use crate::seeks::{Lobby, quick_pair};
use serde_json::{Value, json};
use std::time::Duration;

/// The seat to move and its legal first action, through `api`.
async fn play_first_legal(api: &Api, id: &str, token: &str) {
    let mine = api.view(id, Some(token)).await;
    let action = mine["state"]["legal"][0]["text"].clone();
    assert!(action.is_string(), "no legal action: {mine}");
    let body = json!({ "version": mine["version"], "action": action });
    let (status, answer) = api
        .post(&format!("/api/tables/{id}/actions"), &body, Some(token))
        .await;
    assert_eq!(status, 200, "{answer}");
}

/// Two nodes on the database at `url`, with the routes n1 and n2.
fn routed_nodes(url: &str) -> Vec<Server> {
    ["n1", "n2"]
        .iter()
        .map(|route| Server::start_on(url, &["--lease", "2", "--route", route]))
        .collect()
}

/// The seat whose turn it is.
async fn to_move(api: &Api, id: &str) -> usize {
    let view = api.view(id, None).await;
    view["state"]["turn"]["seat"]
        .as_u64()
        .expect("a seat to move") as usize
}

/// A rated seek with a clock posted by ada on A (`on_a`), seen live by bo
/// on B and accepted there: the table (routed to B), its seat tokens and
/// ada's seat.
async fn seek_across(
    (on_a, ada, ada_lobby): (&Browser, &str, &mut Lobby),
    (on_b, bo, bo_lobby): (&Browser, &str, &mut Lobby),
) -> (String, Vec<String>, usize) {
    let clock = json!({ "initial_s": 60, "increment_s": 2 });
    let seek = json!({ "game": "tawla", "rated": true, "clock": clock });
    let (status, posted, _) = on_a.post("/api/seeks", seek, Some(ada)).await;
    assert_eq!(status, 201, "{posted}");
    let seek_id = posted["seek"]["id"].as_str().expect("an id").to_string();
    let added = bo_lobby
        .next(|m| m["type"] == "seek_added")
        .await
        .expect("the rated seek posted on A is seen live on B");
    assert_eq!(added["seek"]["id"], seek_id.as_str());
    let accept = format!("/api/seeks/{seek_id}/accept");
    let (status, joined, _) = on_b.post(&accept, json!({}), Some(bo)).await;
    assert_eq!(status, 200, "{joined}");
    let id = joined["table"].as_str().expect("a table").to_string();
    assert!(id.starts_with("n2-"), "made by B, routed to it: {id}");
    let paired = ada_lobby
        .next(|m| m["type"] == "paired")
        .await
        .expect("the seek's owner is told on A");
    assert_eq!(paired["table"], id.as_str());
    let mut tokens = [Value::Null, Value::Null];
    tokens[paired["seat"].as_u64().expect("a seat") as usize] = paired["token"].clone();
    tokens[joined["seat"].as_u64().expect("a seat") as usize] = joined["token"].clone();
    let tokens: Vec<String> = tokens
        .iter()
        .map(|t| t.as_str().expect("both seats taken").to_string())
        .collect();
    let ada_seat = paired["seat"].as_u64().expect("a seat") as usize;
    (id, tokens, ada_seat)
}

/// Plays table `id` through both nodes (ada's moves by A, forwarded to B),
/// sees its clock run on both, and resigns for ada on A.
async fn play_across_and_resign(
    api_a: &Api,
    api_b: &Api,
    id: &str,
    tokens: &[String],
    ada_seat: usize,
) {
    let view = api_a.view(id, None).await;
    assert_eq!(
        (&view["rated"], &view["clock"]["initial_s"]),
        (&json!(true), &json!(60)),
        "{view}"
    );
    for _ in 0..6 {
        let seat = to_move(api_b, id).await;
        let api = if seat == ada_seat { api_a } else { api_b };
        play_first_legal(api, id, &tokens[seat]).await;
    }
    let running = |v: &Value| {
        let seat = v["clock"]["running"].as_u64().expect("a running clock") as usize;
        let left = v["clock"]["remaining_ms"][seat]
            .as_i64()
            .expect("time left");
        (seat, left)
    };
    let before = running(&api_a.view(id, None).await);
    tokio::time::sleep(Duration::from_millis(1_100)).await;
    let after = running(&api_b.view(id, None).await);
    assert_eq!(before.0, after.0, "the same seat's clock runs");
    assert!(
        after.1 <= before.1 - 1_000,
        "the clock runs: {before:?} {after:?}"
    );
    let resign = format!("/api/tables/{id}/resign");
    let (status, body) = api_a
        .post(&resign, &json!({}), Some(&tokens[ada_seat]))
        .await;
    assert_eq!(status, 200, "{body}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn sessions_seeks_clocks_and_ratings_work_across_routed_nodes() {
    let _heavy = crate::heavy().await;
    let Some(url) = crate::harness::test_database().await else {
        return;
    };
    let nodes = routed_nodes(&url);
    let (on_a, on_b) = (Browser::of(&nodes[0]), Browser::of(&nodes[1]));
    let (api_a, api_b) = (nodes[0].api(), nodes[1].api());
    let (_, health, _) = on_a.get("/api/health", None).await;
    assert_eq!(health["route"], "n1", "{health}");

    // Sessions: made on one node, used on the other.
    let ada = on_a.sign_up("ada39", "a good password").await;
    let bo = on_b.sign_up("bo39", "a good password").await;
    assert_eq!(on_b.who(&ada).await, "ada39");
    assert_eq!(on_a.who(&bo).await, "bo39");

    // A rated seek with a clock posted on A, seen and accepted on B; its
    // table played through both, its clock running; ada resigns.
    let (mut ada_lobby, _) = Lobby::open(&api_a.base, Some(&ada), json!({ "type": "hello" })).await;
    let (mut bo_lobby, _) = Lobby::open(&api_b.base, Some(&bo), json!({ "type": "hello" })).await;
    let (id, tokens, ada_seat) =
        seek_across((&on_a, &ada, &mut ada_lobby), (&on_b, &bo, &mut bo_lobby)).await;
    play_across_and_resign(&api_a, &api_b, &id, &tokens, ada_seat).await;
    for api in [&api_a, &api_b] {
        let ada = profile_after(api, "ada39", "tawla", 1).await;
        let bo = profile_after(api, "bo39", "tawla", 1).await;
        let rating = |p: &Value| p["ratings"]["tawla"]["rating"].as_f64().expect("a rating");
        assert!(rating(&ada) < 1500.0 && rating(&bo) > 1500.0, "{ada} {bo}");
    }

    // Quick pairing: players queued on different nodes meet at one table.
    let queued = [(&on_a, ada.as_str()), (&on_b, bo.as_str())];
    let lobbies = [&mut ada_lobby, &mut bo_lobby];
    let paired = quick_pair(&queued, "tawla-1-fast", lobbies, Duration::from_secs(10)).await;
    let tables: Vec<&str> = paired
        .iter()
        .map(|(t, _)| t.as_str().expect("a table"))
        .collect();
    assert_eq!(tables[0], tables[1], "one table");
    assert!(
        tables[0].starts_with("n1-") || tables[0].starts_with("n2-"),
        "{}",
        tables[0]
    );
    for api in [&api_a, &api_b] {
        assert_eq!(api.view(tables[0], None).await["rated"], true);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_restarted_with_its_route_takes_its_tables_back_first() {
    let _heavy = crate::heavy().await;
    let Some((url, db)) = crate::harness::test_database_pool().await else {
        return;
    };
    let mut nodes = routed_nodes(&url);
    let api = nodes[0].api();
    let mut ids = Vec::new();
    for _ in 0..4 {
        let seats = ["open".to_string(), "open".to_string()];
        ids.push(api.create("tawla", json!({}), &seats).await["id"].clone());
    }
    let ids: Vec<String> = ids
        .iter()
        .map(|id| id.as_str().expect("an id").into())
        .collect();
    // Killed and back at once (a new node with the same route): its old
    // node's lease lapses while it is up again.
    let (dead,): (String,) = sqlx::query_as("SELECT id FROM nodes WHERE addr = $1")
        .bind(&nodes[0].base)
        .fetch_one(&db)
        .await
        .expect("n1's node id");
    nodes[0].restart();
    let owners = || async {
        let rows: Vec<(Option<String>,)> = sqlx::query_as(
            "SELECT n.addr FROM game_tables g LEFT JOIN nodes n ON n.id = g.owner \
             WHERE g.id = ANY($1) AND g.owner <> $2",
        )
        .bind(&ids)
        .bind(&dead)
        .fetch_all(&db)
        .await
        .expect("owners");
        rows.into_iter()
            .filter_map(|(a,)| a)
            .collect::<Vec<String>>()
    };
    let deadline = std::time::Instant::now() + Duration::from_secs(15);
    let taken = loop {
        let taken = owners().await;
        if taken.len() == ids.len() {
            break taken;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "not taken over: {taken:?}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    assert!(
        taken.iter().all(|addr| *addr == nodes[0].base),
        "n1's tables went to {taken:?}, not to n1 again at {}",
        nodes[0].base
    );
}

/// The table notifications node `api` has received since it started.
async fn notices(api: &Api) -> u64 {
    let (status, health) = api.get("/api/health", None).await;
    assert_eq!(status, 200, "{health}");
    health["notices"].as_u64().expect("notices in the health")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_hears_of_the_changes_of_the_tables_it_holds_only() {
    let Some(url) = crate::harness::test_database().await else {
        return;
    };
    let nodes = routed_nodes(&url);
    let (n1, n2) = (nodes[0].api(), nodes[1].api());
    let seats = ["open".to_string(), "open".to_string()];
    let id = n1.create("tawla", json!({}), &seats).await["id"]
        .as_str()
        .expect("an id")
        .to_string();
    let tokens = [n1.join(&id, 0).await, n1.join(&id, 1).await];
    for _ in 0..4 {
        let seat = to_move(&n1, &id).await;
        play_first_legal(&n1, &id, &tokens[seat]).await;
    }
    // n1 hears its own writes; n2, which does not hold the table, none
    // (with one channel for every table it heard each of them).
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert!(notices(&n1).await >= 4);
    assert_eq!(notices(&n2).await, 0, "n2 holds no table");
    // A spectator on n2: n2 keeps a copy, hears of the next action and
    // sends it on.
    let mut socket = connect(&n2, &id).await;
    say(&mut socket, json!({ "type": "hello" })).await;
    let welcome = next(&mut socket).await.expect("welcome");
    let version = welcome["version"].as_u64().expect("a version");
    let seat = to_move(&n1, &id).await;
    play_first_legal(&n1, &id, &tokens[seat]).await;
    let event = loop {
        let m = next(&mut socket)
            .await
            .expect("the action as an event on n2");
        if m["type"] == "event" {
            break m;
        }
    };
    assert_eq!(event["version"], json!(version + 1));
    assert!(notices(&n2).await >= 1);
}
