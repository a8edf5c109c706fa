//! Partitions: three nodes and PostgreSQL as separate hosts (network
//! namespaces on a bridge, see `netns.rs`), tables played and watched by
//! clients outside; one node is cut off for 10 s from PostgreSQL, from the
//! other nodes or from its clients, then healed. No acknowledged action is
//! lost, none is applied twice, versions have no gaps, records replay
//! legally, the cut-off node acknowledges nothing once its lease is gone,
//! and its viewers resume on another node with `since` and see every
//! event exactly once. Skipped (loudly) where namespaces are refused.

use crate::harness::{Api, Server, replay_states};
use crate::netns::{Host, Lan, Postgres};
use crate::nodes::{Watched, make_table};
use crate::test_seed;
use futures_util::{SinkExt, StreamExt};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde_json::json;
use spelbord_server::store::say_skipped;
use sqlx::Row;
use std::net::{IpAddr, Ipv4Addr};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::watch;
use tokio_tungstenite::tungstenite::Message;

/// The nodes' lease (`--lease`), in seconds.
const LEASE: u64 = 2;

/// What the cut-off node loses for 10 s.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Cut {
    Database,
    Nodes,
    Clients,
}

/// An acknowledged action, with the node that answered and when.
#[derive(Clone, Debug)]
struct Acked {
    version: u64,
    text: String,
    node: usize,
    sent: Instant,
    answered: Instant,
}

/// The nodes a client may use now (`false` while a proxy would see one as
/// down).
type Up = Arc<Mutex<Vec<bool>>>;

/// The node to try after `node` failed: the next one that is up.
fn next_up(up: &Up, node: usize) -> usize {
    let up = up.lock().expect("up");
    (1..=up.len())
        .map(|k| (node + k) % up.len())
        .find(|&k| up[k])
        .unwrap_or(node)
}

/// Plays the human seats of table `id` until `until`, through its home
/// node first and the next node up when one fails (as a proxy that routes
/// by table does); returns every acknowledged action.
async fn play(
    bases: Vec<String>,
    up: Up,
    (id, home): (String, usize),
    tokens: Vec<Option<String>>,
    seed: u64,
    until: Instant,
) -> Vec<Acked> {
    let mut rng = StdRng::seed_from_u64(seed);
    let apis: Vec<Api> = bases
        .iter()
        // Longer than the cut: an answer held back by it would be seen.
        .map(|b| Api::with_timeout(b, Duration::from_secs(15)))
        .collect();
    let mut node = home;
    let mut acks = Vec::new();
    while Instant::now() < until {
        let api = &apis[node];
        let path = format!("/api/tables/{id}");
        let Ok((200, view)) = api.try_get(&path, None).await else {
            node = next_up(&up, node);
            continue;
        };
        if view["state"]["turn"]["kind"] == "over" {
            break;
        }
        let seat = view["state"]["turn"]["seat"].as_u64();
        let Some(token) = seat.and_then(|s| tokens[s as usize].clone()) else {
            tokio::time::sleep(Duration::from_millis(30)).await; // the AI's turn
            continue;
        };
        let Ok((200, mine)) = api.try_get(&path, Some(&token)).await else {
            continue;
        };
        let Some(legal) = mine["state"]["legal"].as_array().filter(|l| !l.is_empty()) else {
            continue;
        };
        // A person's pace (fast enough that the history a node keeps of a
        // table, 256 events, still covers what a viewer missed).
        tokio::time::sleep(Duration::from_millis(200)).await;
        let action = legal[rng.random_range(0..legal.len())]["text"].clone();
        let body = json!({ "version": mine["version"], "action": action });
        let sent = Instant::now();
        match api
            .try_post(&format!("{path}/actions"), &body, Some(&token))
            .await
        {
            Ok((200, answer)) => {
                for a in answer["actions"].as_array().expect("actions") {
                    acks.push(Acked {
                        version: a["version"].as_u64().expect("a version"),
                        text: a["text"].as_str().expect("a text").to_string(),
                        node,
                        sent,
                        answered: Instant::now(),
                    });
                }
            }
            Ok((409, _)) => {}
            _ => node = next_up(&up, node),
        }
    }
    acks
}

/// Watches table `id` from its home node; after 3 s without a message it
/// says hello to the next node up with `since` (the last version seen).
async fn watch_table(
    bases: Vec<String>,
    up: Up,
    (id, home): (String, usize),
    stop: watch::Receiver<bool>,
) -> Watched {
    let mut seen = Watched::default();
    let mut node = home;
    while !*stop.borrow() {
        seen.nodes.push(node);
        let url = format!(
            "{}/api/tables/{id}/ws",
            bases[node].replacen("http", "ws", 1)
        );
        let connect = tokio_tungstenite::connect_async(url);
        let Ok(Ok((mut socket, _))) = tokio::time::timeout(Duration::from_secs(2), connect).await
        else {
            node = next_up(&up, node);
            continue;
        };
        if socket.send(seen.hello()).await.is_err() {
            node = next_up(&up, node);
            continue;
        }
        let mut stop = stop.clone();
        loop {
            let message = tokio::select! {
                m = tokio::time::timeout(Duration::from_secs(3), socket.next()) => m,
                _ = stop.changed() => return seen,
            };
            let Ok(Some(Ok(message))) = message else {
                break; // silent for 3 s, or closed
            };
            let Message::Text(text) = message else {
                continue;
            };
            seen.note(&text);
        }
        node = next_up(&up, node);
    }
    seen
}

/// The owner node's id of each table (`None`: nobody).
async fn owners(db: &sqlx::PgPool, ids: &[String]) -> Vec<Option<String>> {
    let mut owners = Vec::new();
    for id in ids {
        let row = sqlx::query("SELECT owner FROM game_tables WHERE id = $1")
            .bind(id)
            .fetch_one(db)
            .await
            .expect("a table");
        owners.push(row.get(0));
    }
    owners
}

/// Three nodes and PostgreSQL on their own hosts: the hosts, the database,
/// its URL and the nodes; `None` after saying why the test is skipped.
async fn cluster(test: &str) -> Option<(Lan, Vec<Host>, Postgres, String, Vec<Server>)> {
    let mut lan = Lan::new(test)?;
    let hosts: Result<Vec<Host>, String> = (0..4).map(|_| lan.host(None)).collect();
    let hosts = match hosts {
        Ok(hosts) => hosts,
        Err(e) => {
            say_skipped(test, &format!("cannot make the hosts: {e}"));
            return None;
        }
    };
    let pg = match Postgres::start(&hosts[0]).await {
        Ok(pg) => pg,
        Err(e) => {
            say_skipped(test, &format!("no PostgreSQL to run: {e}"));
            return None;
        }
    };
    let url = spelbord_server::store::fresh_database(&pg.url)
        .await
        .expect("a database");
    let lease = LEASE.to_string();
    let nodes = hosts[1..]
        .iter()
        .map(|h| Server::start_in(&url, &["--lease", &lease], h.prefix(), IpAddr::V4(h.ip)))
        .collect();
    Some((lan, hosts, pg, url, nodes))
}

async fn partition(cut: Cut, test: &str) {
    let _heavy = crate::heavy().await;
    let Some((lan, hosts, _pg, url, nodes)) = cluster(test).await else {
        return;
    };
    let seed = test_seed(test);
    let db = sqlx::PgPool::connect(&url).await.expect("the database");
    let bases: Vec<String> = nodes.iter().map(|n| n.base.clone()).collect();
    let up: Up = Arc::new(Mutex::new(vec![true; 3]));

    // Six tables, two made on each node (which owns them), half against
    // the AI; watched through their owner, and the tables against people
    // played through the next node (forwarded to the owner).
    let apis: Vec<Api> = nodes.iter().map(Server::api).collect();
    let mut tables = Vec::new();
    for i in 0..6 {
        let (id, tokens) = make_table(&apis, i).await;
        tables.push(((id, i % 3), tokens));
    }
    let ids: Vec<String> = tables.iter().map(|((id, _), _)| id.clone()).collect();

    let (stop_watching, stop) = watch::channel(false);
    let watchers: Vec<_> = tables
        .iter()
        .map(|(t, _)| {
            tokio::spawn(watch_table(
                bases.clone(),
                up.clone(),
                t.clone(),
                stop.clone(),
            ))
        })
        .collect();
    let until = Instant::now() + Duration::from_secs(22);
    let players: Vec<_> = tables
        .iter()
        .enumerate()
        .map(|(i, (t, tokens))| {
            let through = (t.clone().0, (t.1 + i % 2) % 3);
            let (b, u, k) = (bases.clone(), up.clone(), tokens.clone());
            tokio::spawn(play(b, u, through, k, seed ^ i as u64, until))
        })
        .collect();

    // Node 0 is cut off after 4 s of play, for 10 s.
    tokio::time::sleep(Duration::from_secs(4)).await;
    let (cut_at, healed_at) = cut_off(cut, &lan, &hosts, &bases[0], &db, &ids, &up).await;

    let mut acks = Vec::new();
    for (player, ((id, _), _)) in players.into_iter().zip(&tables) {
        let played = player.await.expect("a player");
        acks.extend(played.into_iter().map(|a| (id.clone(), a)));
    }
    assert!(acks.len() > 30, "only {} actions acknowledged", acks.len());
    if cut == Cut::Database {
        let lapse = cut_at + Duration::from_secs(LEASE + 1);
        for (id, a) in acks.iter().filter(|(_, a)| a.node == 0) {
            assert!(
                !(a.answered > lapse && a.sent < healed_at),
                "table {id}: node 0 acknowledged version {} {} ms after it was cut off",
                a.version,
                a.answered.duration_since(cut_at).as_millis()
            );
        }
    }
    let finals = settle(&nodes[1], &db, &ids).await;
    tokio::time::sleep(Duration::from_secs(2)).await;
    let _ = stop_watching.send(true);

    check_records(&nodes[1], &ids, &finals, &acks).await;
    let moved = check_watchers(watchers, &finals).await;
    if cut == Cut::Clients {
        assert!(moved > 0, "no viewer of node 0 moved to another node");
    }
    println!(
        "{cut:?}: {} actions acknowledged, {moved} viewers of node 0 resumed elsewhere",
        acks.len()
    );
}

/// Cuts node 0 (on `hosts[1]`, at `base`) off as `cut` says for 10 s, then
/// heals; checks who owned node 0's tables; returns when the cut began and
/// when it was healed.
async fn cut_off(
    cut: Cut,
    lan: &Lan,
    hosts: &[Host],
    base: &str,
    db: &sqlx::PgPool,
    ids: &[String],
    up: &Up,
) -> (Instant, Instant) {
    let victim = &hosts[1];
    let node_id: String = sqlx::query("SELECT id FROM nodes WHERE addr = $1")
        .bind(base)
        .fetch_one(db)
        .await
        .expect("node 0")
        .get(0);
    let held_before = owners(db, ids).await;
    let peers: Vec<Ipv4Addr> = match cut {
        Cut::Database => vec![hosts[0].ip],
        Cut::Nodes => vec![hosts[2].ip, hosts[3].ip],
        Cut::Clients => vec![lan.outside()],
    };
    if cut != Cut::Nodes {
        // A proxy's health check would stop sending new clients there.
        up.lock().expect("up")[0] = false;
    }
    lan.cut(victim, &peers).expect("the cut");
    let cut_at = Instant::now();
    tokio::time::sleep(Duration::from_secs(10)).await;
    let held_during = owners(db, ids).await;
    lan.heal();
    let healed_at = Instant::now();
    up.lock().expect("up")[0] = true;
    let mine = |owners: &[Option<String>]| {
        owners
            .iter()
            .filter(|o| o.as_deref() == Some(&*node_id))
            .count()
    };
    println!(
        "{cut:?}: node 0 owned {} tables before the cut, {} at its end",
        mine(&held_before),
        mine(&held_during)
    );
    assert!(mine(&held_before) > 0, "node 0 owned no table to lose");
    if cut == Cut::Database {
        assert_eq!(
            mine(&held_during),
            0,
            "tables did not move: {held_during:?}"
        );
    }
    (cut_at, healed_at)
}

/// Checks each table's record: as long as its final version, legal where
/// each action stands (no AI move made twice), every acknowledged action at
/// its version.
async fn check_records(node: &Server, ids: &[String], finals: &[u64], acks: &[(String, Acked)]) {
    for (id, final_version) in ids.iter().zip(finals) {
        let record = node.api().record(id).await;
        assert_eq!(record.actions.len() as u64, *final_version, "table {id}");
        // Every action legal where it stands: no AI move made twice.
        replay_states(&record);
        for (_, ack) in acks.iter().filter(|(t, _)| t == id) {
            assert_eq!(
                record.actions[ack.version as usize - 1],
                ack.text,
                "table {id}: acknowledged action {} lost",
                ack.version
            );
        }
    }
}

/// Checks that each watcher saw every event after its first `sync` exactly
/// once, and no later `sync`; returns how many began on node 0 and moved.
async fn check_watchers(watchers: Vec<tokio::task::JoinHandle<Watched>>, finals: &[u64]) -> usize {
    let mut moved = 0;
    for (watcher, final_version) in watchers.into_iter().zip(finals) {
        let seen = watcher.await.expect("a watcher");
        let start = seen.start.expect("a first sync");
        let expected: Vec<u64> = (start + 1..=*final_version).collect();
        let wrong = seen.events.iter().zip(&expected).position(|(a, b)| a != b);
        assert!(
            seen.events == expected,
            "events missed or repeated: from {start} to {final_version}, {} events, the \
             first wrong one at {wrong:?} ({:?}); syncs later {}; nodes {:?}",
            seen.events.len(),
            wrong.map(|w| &seen.events[w.saturating_sub(1)..(w + 2).min(seen.events.len())]),
            seen.later_syncs,
            seen.nodes
        );
        assert_eq!(
            seen.later_syncs, 0,
            "a watcher was resynced: {:?}",
            seen.nodes
        );
        moved += usize::from(seen.nodes.first() == Some(&0) && seen.nodes.len() > 1);
    }
    moved
}

/// Waits until no table has the AI to move (the players have stopped),
/// checks that each table's stored versions are 1, 2, … without gaps or
/// repeats, and returns each table's final version.
async fn settle(node: &Server, db: &sqlx::PgPool, ids: &[String]) -> Vec<u64> {
    let deadline = Instant::now() + Duration::from_secs(20);
    let mut finals = Vec::new();
    for id in ids {
        loop {
            let view = node.api().get(&format!("/api/tables/{id}"), None).await.1;
            let seat = view["state"]["turn"]["seat"].as_u64();
            let ai_to_move = seat.is_some_and(|s| view["seats"][s as usize]["kind"] == "ai");
            assert!(Instant::now() < deadline, "table {id}: the AI did not move");
            if !ai_to_move {
                let versions: Vec<i64> =
                    sqlx::query("SELECT version FROM actions WHERE table_id = $1 ORDER BY version")
                        .bind(id)
                        .fetch_all(db)
                        .await
                        .expect("actions")
                        .iter()
                        .map(|r| r.get(0))
                        .collect();
                let expected: Vec<i64> = (1..=versions.len() as i64).collect();
                assert_eq!(versions, expected, "table {id}: gaps or repeats");
                assert_eq!(view["version"], json!(versions.len()), "table {id}: behind");
                finals.push(versions.len() as u64);
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
    finals
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_node_cut_off_from_the_database_loses_its_tables_and_acknowledges_nothing() {
    partition(Cut::Database, "partition_database").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_node_cut_off_from_the_other_nodes_loses_nothing() {
    partition(Cut::Nodes, "partition_nodes").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_node_cut_off_from_its_clients_loses_nothing_and_its_viewers_move() {
    partition(Cut::Clients, "partition_clients").await;
}
