//! Several nodes: a second server on one SQLite file is refused at start;
//! three nodes on one PostgreSQL database (`SPELBORD_TEST_PG`) share
//! tables through clients spread over all of them, survive `kill -9` and
//! restarts, lose no acknowledged action, apply none twice, leave no gap in
//! a version, show every watcher every event and make no AI move twice.

use crate::harness::{Ack, Api, Server, replay_states};
use crate::test_seed;
use futures_util::{SinkExt, StreamExt};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde_json::{Value, json};
use sqlx::Row;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::watch;
use tokio_tungstenite::tungstenite::Message;

#[tokio::test]
async fn a_second_server_on_one_sqlite_file_is_refused() {
    let server = Server::start(&[]);
    let (status, stderr) = server.run_second();
    assert!(!status.success(), "a second server started: {stderr}");
    assert!(
        stderr.contains("another server is using the database"),
        "{stderr}"
    );
    // The first one serves on.
    assert_eq!(server.api().get("/api/health", None).await.0, 200);
}

/// The addresses of the nodes now up (`None` while one is down).
type Bases = Arc<Mutex<Vec<Option<String>>>>;

fn any_base(bases: &Bases, rng: &mut StdRng) -> String {
    let up: Vec<String> = bases
        .lock()
        .expect("bases")
        .iter()
        .flatten()
        .cloned()
        .collect();
    up[rng.random_range(0..up.len())].clone()
}

/// Plays one table with random actions through random nodes until `until`;
/// returns every acknowledged action.
async fn play(
    bases: Bases,
    id: String,
    tokens: Vec<Option<String>>,
    seed: u64,
    until: Instant,
) -> Vec<Ack> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut acks = Vec::new();
    while Instant::now() < until {
        let api = Api::new(&any_base(&bases, &mut rng));
        let Ok((200, view)) = api.try_get(&format!("/api/tables/{id}"), None).await else {
            tokio::time::sleep(Duration::from_millis(100)).await;
            continue;
        };
        if view["state"]["turn"]["kind"] == "over" {
            break;
        }
        let seat = view["state"]["turn"]["seat"].as_u64();
        let Some(token) = seat.and_then(|s| tokens[s as usize].clone()) else {
            // The AI is to move.
            tokio::time::sleep(Duration::from_millis(30)).await;
            continue;
        };
        let Ok((200, mine)) = api
            .try_get(&format!("/api/tables/{id}"), Some(&token))
            .await
        else {
            continue;
        };
        let Some(legal) = mine["state"]["legal"].as_array().filter(|l| !l.is_empty()) else {
            continue;
        };
        let action = legal[rng.random_range(0..legal.len())]["text"].clone();
        let body = json!({ "version": mine["version"], "action": action });
        let answer = api
            .try_post(&format!("/api/tables/{id}/actions"), &body, Some(&token))
            .await;
        if let Ok((200, answer)) = answer {
            for a in answer["actions"].as_array().expect("actions") {
                acks.push(Ack {
                    table: id.clone(),
                    version: a["version"].as_u64().expect("a version"),
                    text: a["text"].as_str().expect("a text").to_string(),
                });
            }
        }
    }
    acks
}

/// What one watcher of a table saw over all its connections.
#[derive(Default, Debug)]
pub struct Watched {
    /// The version of its first `sync` (the start of what it must see).
    pub start: Option<u64>,
    /// Every event's version, in the order received.
    pub events: Vec<u64>,
    /// Later `sync`s (each one a gap the watcher did not see as events).
    pub later_syncs: usize,
    /// The nodes it watched through, in turn (where a test counts them).
    pub nodes: Vec<usize>,
}

/// Watches a table as a spectator on random nodes, reconnecting (with
/// `since`) whenever its node goes away, until `stop`.
async fn watch_table(bases: Bases, id: String, seed: u64, stop: watch::Receiver<bool>) -> Watched {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut seen = Watched::default();
    while !*stop.borrow() {
        let base = any_base(&bases, &mut rng);
        let url = format!("{}/api/tables/{id}/ws", base.replacen("http", "ws", 1));
        let Ok((mut socket, _)) = tokio_tungstenite::connect_async(url).await else {
            tokio::time::sleep(Duration::from_millis(100)).await;
            continue;
        };
        if socket.send(seen.hello()).await.is_err() {
            continue;
        }
        let mut stop = stop.clone();
        loop {
            let message = tokio::select! {
                m = socket.next() => m,
                _ = stop.changed() => None,
            };
            let Some(Ok(Message::Text(text))) = message else {
                if matches!(message, Some(Ok(_))) {
                    continue;
                }
                break;
            };
            seen.note(&text);
        }
    }
    seen
}

impl Watched {
    /// A spectator's hello that asks for what came after what it saw.
    pub fn hello(&self) -> Message {
        let since = self.events.last().copied().or(self.start);
        let hello = json!({ "type": "hello", "token": null, "since": since });
        Message::Text(hello.to_string().into())
    }

    /// Notes one message (JSON text) of the table's WebSocket.
    pub fn note(&mut self, text: &str) {
        let value: Value = serde_json::from_str(text).expect("JSON messages");
        match value["type"].as_str() {
            Some("event") => self
                .events
                .push(value["version"].as_u64().expect("a version")),
            Some("sync") if self.start.is_none() => self.start = value["version"].as_u64(),
            Some("sync") => self.later_syncs += 1,
            _ => {}
        }
    }
}

/// Table `i` of a test of several nodes: a Tawla match to 25 points (it
/// plays on through what the test does to the nodes), against `ai:random`
/// for even `i`, made through node `i` and each open seat `s` taken through
/// node `i + s + 1` (of `nodes`, round). Its id and the seats' tokens
/// (`None`: the AI's).
pub async fn make_table(nodes: &[Api], i: usize) -> (String, Vec<Option<String>>) {
    let n = nodes.len();
    let seats: Vec<String> = if i.is_multiple_of(2) {
        vec!["open".into(), "ai:random".into()]
    } else {
        vec!["open".into(), "open".into()]
    };
    let created = nodes[i % n]
        .create("tawla", json!({ "match": 25 }), &seats)
        .await;
    let id = created["id"].as_str().expect("an id").to_string();
    let mut tokens = Vec::new();
    for (seat, kind) in seats.iter().enumerate() {
        tokens.push(if kind == "open" {
            Some(nodes[(i + seat + 1) % n].join(&id, seat).await)
        } else {
            None
        });
    }
    (id, tokens)
}

/// The versions stored for a table, in order, and its stored version.
async fn stored_versions(db: &sqlx::PgPool, id: &str) -> (Vec<i64>, i64) {
    let versions = sqlx::query("SELECT version FROM actions WHERE table_id = $1 ORDER BY version")
        .bind(id)
        .fetch_all(db)
        .await
        .expect("actions")
        .iter()
        .map(|r| r.get::<i64, _>(0))
        .collect();
    let version = sqlx::query("SELECT version FROM game_tables WHERE id = $1")
        .bind(id)
        .fetch_one(db)
        .await
        .expect("a table")
        .get(0);
    (versions, version)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn three_nodes_on_one_database_survive_kill9_without_losing_or_repeating() {
    let _heavy = crate::heavy().await;
    let Some(url) = crate::harness::test_database().await else {
        return;
    };
    let seed = test_seed("three_nodes");
    let mut rng = StdRng::seed_from_u64(seed);
    let db = sqlx::PgPool::connect(&url)
        .await
        .expect("the test database");
    let extra = ["--lease", "2"];
    let mut nodes: Vec<Server> = (0..3).map(|_| Server::start_on(&url, &extra)).collect();
    let bases: Bases = Arc::new(Mutex::new(
        nodes.iter().map(|n| Some(n.base.clone())).collect(),
    ));

    // Tables made on every node, half of them against the AI; their seats
    // taken through other nodes (forwarded to the owner).
    let apis: Vec<Api> = nodes.iter().map(Server::api).collect();
    let mut tables = Vec::new();
    for i in 0..9 {
        tables.push(make_table(&apis, i).await);
    }

    let (stop_watching, stop) = watch::channel(false);
    let mut watchers = Vec::new();
    for (i, (id, _)) in tables.iter().enumerate() {
        watchers.push(tokio::spawn(watch_table(
            bases.clone(),
            id.clone(),
            seed ^ (i as u64 + 100),
            stop.clone(),
        )));
    }
    let until = Instant::now() + Duration::from_secs(18);
    let mut players = Vec::new();
    for (i, (id, tokens)) in tables.iter().enumerate() {
        players.push(tokio::spawn(play(
            bases.clone(),
            id.clone(),
            tokens.clone(),
            seed ^ i as u64,
            until,
        )));
    }

    // Kill a node now and then, and start it again a second later.
    let mut moves = Vec::new();
    for _ in 0..3 {
        tokio::time::sleep(Duration::from_secs(3)).await;
        let k = rng.random_range(0..nodes.len());
        let base = nodes[k].base.clone();
        let dead: Option<String> = sqlx::query("SELECT id FROM nodes WHERE addr = $1")
            .bind(&base)
            .fetch_optional(&db)
            .await
            .expect("nodes")
            .map(|r| r.get(0));
        bases.lock().expect("bases")[k] = None;
        nodes[k].kill9();
        let killed = Instant::now();
        let mut held_at_kill = None;
        let mut restarted = false;
        let moved = loop {
            let held: i64 =
                sqlx::query("SELECT count(*) FROM game_tables WHERE owner = $1 AND NOT finished")
                    .bind(&dead)
                    .fetch_one(&db)
                    .await
                    .expect("owners")
                    .get(0);
            held_at_kill.get_or_insert(held);
            if held == 0 {
                break killed.elapsed();
            }
            assert!(
                killed.elapsed() < Duration::from_secs(15),
                "{held} tables did not move"
            );
            if !restarted && killed.elapsed() > Duration::from_secs(1) {
                nodes[k].restart();
                bases.lock().expect("bases")[k] = Some(nodes[k].base.clone());
                restarted = true;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        };
        if !restarted {
            nodes[k].restart();
            bases.lock().expect("bases")[k] = Some(nodes[k].base.clone());
        }
        let held = held_at_kill.unwrap_or(0);
        println!(
            "node {k} killed with {held} tables: they moved in {} ms",
            moved.as_millis()
        );
        if held > 0 {
            moves.push(moved);
        }
    }

    assert!(!moves.is_empty(), "no node that was killed held a table");
    let mut acks = Vec::new();
    for player in players {
        acks.extend(player.await.expect("a player"));
    }
    assert!(acks.len() > 50, "only {} actions acknowledged", acks.len());

    // Let the AI and the watchers catch up, then check everything.
    let settle = Instant::now() + Duration::from_secs(15);
    let mut finals = Vec::new();
    for (id, _) in &tables {
        loop {
            // Once a person is to move nothing changes any more (the players
            // have stopped): then the stored table is final.
            let view = nodes[0]
                .api()
                .get(&format!("/api/tables/{id}"), None)
                .await
                .1;
            let seat = view["state"]["turn"]["seat"].as_u64();
            let ai_to_move = seat.is_some_and(|s| view["seats"][s as usize]["kind"] == "ai");
            assert!(Instant::now() < settle, "table {id}: the AI did not move");
            if !ai_to_move {
                let (versions, version) = stored_versions(&db, id).await;
                let expected: Vec<i64> = (1..=version).collect();
                assert_eq!(
                    versions, expected,
                    "table {id}: versions with gaps or repeats"
                );
                assert_eq!(
                    view["version"],
                    json!(version),
                    "table {id}: the view is behind"
                );
                finals.push(version as u64);
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
    tokio::time::sleep(Duration::from_secs(2)).await;
    let _ = stop_watching.send(true);

    for ((id, _), final_version) in tables.iter().zip(&finals) {
        let record = nodes[0].api().record(id).await;
        assert_eq!(record.actions.len() as u64, *final_version);
        // Every action is legal where it stands.
        replay_states(&record);
        for ack in acks.iter().filter(|a| &a.table == id) {
            assert_eq!(
                record.actions[ack.version as usize - 1],
                ack.text,
                "table {id}: acknowledged action {} differs",
                ack.version
            );
        }
    }
    for (watcher, final_version) in watchers.into_iter().zip(&finals) {
        let seen = watcher.await.expect("a watcher");
        let start = seen.start.expect("a first sync");
        let mut events = seen.events.clone();
        events.sort_unstable();
        events.dedup();
        let expected: Vec<u64> = (start + 1..=*final_version).collect();
        assert_eq!(events, expected, "a watcher missed events: {seen:?}");
        assert_eq!(
            seen.events.len(),
            expected.len(),
            "events repeated: {seen:?}"
        );
        assert_eq!(seen.later_syncs, 0, "a watcher was resynced: {seen:?}");
    }
    let logs: String = nodes.iter().map(Server::log).collect();
    assert!(
        !logs.contains("AI move not applied"),
        "an AI move was made twice:\n{logs}"
    );
    println!(
        "{} actions acknowledged on 9 tables through 3 nodes; tables moved in {:?}",
        acks.len(),
        moves
    );
}
