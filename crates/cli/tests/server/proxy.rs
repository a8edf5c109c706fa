//! Three nodes on one PostgreSQL database behind real nginx, configured by
//! the committed `deploy/nginx/spelbord.conf` (its addresses replaced): a
//! table's requests and WebSockets reach the node that made it, with no
//! second hop, and after `kill -9` of a node its tables answer through the
//! proxy from another. Skipped (saying so) without nginx or PostgreSQL.

use crate::harness::{Api, Server, Watcher, check_stream, play_random, replay_states};
use crate::test_seed;
use rand::SeedableRng;
use rand::rngs::StdRng;
use serde_json::json;
use spelbord_engine::Viewer;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The committed configuration, for three nodes at these addresses.
const TEMPLATE: &str = include_str!("../../../../deploy/nginx/spelbord.conf");
const TEMPLATE_NODES: [&str; 3] = ["10.0.0.11:8080", "10.0.0.12:8080", "10.0.0.13:8080"];

/// The nginx binary, if one is installed.
fn nginx_binary() -> Option<&'static str> {
    ["nginx", "/usr/sbin/nginx"].into_iter().find(|bin| {
        Command::new(bin)
            .arg("-v")
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    })
}

/// A running nginx (one process) with the committed configuration.
struct Nginx {
    child: Child,
    dir: PathBuf,
    /// `http://127.0.0.1:PORT`.
    base: String,
}

impl Nginx {
    /// Starts `bin` in front of the nodes at `nodes` (`127.0.0.1:PORT`, for
    /// routes n1, n2, n3) and waits until it answers.
    async fn start(bin: &str, nodes: &[String; 3]) -> Nginx {
        let dir = std::env::temp_dir().join(format!("spelbord-nginx-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a folder for nginx");
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let mut site = TEMPLATE.to_string();
        for (from, to) in TEMPLATE_NODES.iter().zip(nodes) {
            assert!(site.contains(from), "the template names {from}");
            site = site.replace(from, to);
        }
        assert!(site.contains("listen 80;"), "the template listens on 80");
        site = site.replace("listen 80;", &format!("listen 127.0.0.1:{port};"));
        std::fs::write(dir.join("spelbord.conf"), site).expect("the site written");
        let d = dir.display();
        let main = format!(
            "daemon off;\nmaster_process off;\npid {d}/nginx.pid;\nerror_log {d}/error.log;\n\
             events {{ worker_connections 1024; }}\n\
             http {{\n  log_format routed '$uri $upstream_addr $status';\n  \
             access_log {d}/access.log routed;\n  client_body_temp_path {d}/body;\n  \
             proxy_temp_path {d}/proxy;\n  fastcgi_temp_path {d}/fastcgi;\n  \
             uwsgi_temp_path {d}/uwsgi;\n  scgi_temp_path {d}/scgi;\n  \
             include {d}/spelbord.conf;\n}}\n"
        );
        std::fs::write(dir.join("nginx.conf"), main).expect("nginx.conf written");
        let child = Command::new(bin)
            .arg("-p")
            .arg(&dir)
            .arg("-c")
            .arg(dir.join("nginx.conf"))
            .arg("-e")
            .arg(dir.join("error.log"))
            .stdin(Stdio::null())
            .spawn()
            .expect("nginx starts");
        let nginx = Nginx {
            child,
            dir,
            base: format!("http://127.0.0.1:{port}"),
        };
        let api = Api::new(&nginx.base);
        let deadline = Instant::now() + Duration::from_secs(10);
        while !matches!(api.try_get("/api/health", None).await, Ok((200, _))) {
            assert!(Instant::now() < deadline, "nginx did not answer");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        nginx
    }

    /// The (path, node address) of every request for a table so far.
    fn table_requests(&self) -> Vec<(String, String)> {
        std::fs::read_to_string(self.dir.join("access.log"))
            .unwrap_or_default()
            .lines()
            .filter(|l| l.starts_with("/api/tables/"))
            .filter_map(|l| {
                let mut words = l.split(' ');
                Some((words.next()?.to_string(), words.next()?.to_string()))
            })
            .filter(|(path, _)| path.len() > "/api/tables/".len())
            .collect()
    }
}

impl Drop for Nginx {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// The requests each node forwarded to another (`/api/health`).
async fn forwarded(nodes: &[Server]) -> u64 {
    let mut sum = 0;
    for node in nodes {
        let (status, health) = node.api().get("/api/health", None).await;
        assert_eq!(status, 200, "{health}");
        sum += health["forwarded"]
            .as_u64()
            .expect("a count of forwarded requests");
    }
    sum
}

/// Creates a two-seat Tawla table through `api` (seat 1 the AI if `ai`)
/// and joins its open seats; returns its id and the seats' tokens.
async fn new_table(api: &Api, ai: bool) -> (String, Vec<Option<String>>) {
    let seats = vec![
        "open".to_string(),
        if ai { "ai:random" } else { "open" }.into(),
    ];
    let created = api.create("tawla", json!({}), &seats).await;
    let id = created["id"].as_str().expect("an id").to_string();
    let mut tokens = Vec::new();
    for (seat, kind) in seats.iter().enumerate() {
        tokens.push(if kind == "open" {
            Some(api.join(&id, seat).await)
        } else {
            None
        });
    }
    (id, tokens)
}

/// Plays each table to its end through `base`, at once; checks the records.
async fn play_all(base: &str, tables: &[(String, Vec<Option<String>>)], seed: u64) {
    let mut players = Vec::new();
    for (i, (id, tokens)) in tables.iter().enumerate() {
        let (base, id, tokens) = (base.to_string(), id.clone(), tokens.clone());
        players.push(tokio::spawn(async move {
            let mut rng = StdRng::seed_from_u64(seed ^ i as u64);
            play_random(&Api::new(&base), &id, &tokens, &mut rng, None).await
        }));
    }
    for ((id, _), player) in tables.iter().zip(players) {
        let acks = player
            .await
            .expect("a player")
            .unwrap_or_else(|e| panic!("{id}: {e}"));
        let record = Api::new(base).record(id).await;
        replay_states(&record);
        for ack in &acks {
            assert_eq!(record.actions[ack.version as usize - 1], ack.text);
        }
    }
}

/// Makes `count` tables through the proxy (spread over the nodes), half of
/// them against the AI, and plays them to the end through it, each watched
/// over a WebSocket through it; checks every watcher's stream.
async fn play_watched(nginx: &Nginx, count: usize, seed: u64) {
    let proxy = Api::new(&nginx.base);
    let mut tables = Vec::new();
    for i in 0..count {
        tables.push(new_table(&proxy, i % 2 == 0).await);
    }
    let routes: std::collections::BTreeSet<&str> = tables.iter().map(|(id, _)| &id[..2]).collect();
    assert_eq!(routes, ["n1", "n2", "n3"].into(), "the tables' routes");
    let mut watchers = Vec::new();
    for (id, _) in &tables {
        watchers.push(Watcher::start(&nginx.base, id, None, None).await);
    }
    play_all(&nginx.base, &tables, seed).await;
    for ((id, _), watcher) in tables.iter().zip(watchers) {
        let record = proxy.record(id).await;
        check_stream(
            &watcher.messages().await,
            Viewer::Spectator,
            &record,
            &replay_states(&record),
        );
    }
}

/// Kills the node of a new unfinished table (`kill -9`); its tables must
/// answer through the proxy (a backup node takes them over) and are played
/// to the end through it, as are two other new tables.
async fn kill_one_and_play_on(nginx: &Nginx, nodes: &mut Vec<Server>, seed: u64) {
    let proxy = Api::new(&nginx.base);
    let more = [
        new_table(&proxy, false).await,
        new_table(&proxy, false).await,
        new_table(&proxy, true).await,
    ];
    let route = more[0].0[..2].to_string();
    let victim = route[1..].parse::<usize>().expect("a route n1 to n3") - 1;
    nodes[victim].kill9();
    let killed = Instant::now();
    for (id, _) in &more {
        loop {
            match proxy.try_get(&format!("/api/tables/{id}"), None).await {
                Ok((200, _)) => break,
                other => {
                    assert!(
                        killed.elapsed() < Duration::from_secs(15),
                        "{id} after the kill: {other:?}"
                    );
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
            }
        }
    }
    let theirs = more.iter().filter(|(id, _)| id.starts_with(&route)).count();
    println!(
        "node {route} killed: its {theirs} table(s) answered through nginx after {} ms",
        killed.elapsed().as_millis()
    );
    play_all(&nginx.base, &more, seed).await;
    nodes.remove(victim);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn nginx_sends_each_tables_requests_to_its_node_without_a_second_hop() {
    let _heavy = crate::heavy().await;
    let Some(url) = crate::harness::test_database().await else {
        return;
    };
    let Some(bin) = nginx_binary() else {
        // Straight to the stream, past the test harness's capture.
        use std::io::Write;
        let _ = writeln!(
            std::io::stderr(),
            "SKIPPED: nginx not installed (proxy::nginx_sends_each_tables_requests_to_its_node_without_a_second_hop)"
        );
        return;
    };
    let seed = test_seed("proxy");
    let extra = |route| {
        [
            "--lease",
            "2",
            "--route",
            route,
            "--trusted-proxy",
            "127.0.0.1",
        ]
    };
    let mut nodes: Vec<Server> = ["n1", "n2", "n3"]
        .into_iter()
        .map(|route| Server::start_on(&url, &extra(route)))
        .collect();
    let addrs: [String; 3] =
        std::array::from_fn(|i| nodes[i].base.trim_start_matches("http://").to_string());
    let nginx = Nginx::start(bin, &addrs).await;
    play_watched(&nginx, 6, seed).await;

    // Every table request went to its table's node, and none went on.
    let requests = nginx.table_requests();
    for (path, upstream) in &requests {
        let route = &path["/api/tables/n".len()..][..1];
        let node = route.parse::<usize>().expect("a route n1 to n3") - 1;
        assert_eq!(upstream, &addrs[node], "{path} went to another node");
    }
    let hops = forwarded(&nodes).await;
    assert_eq!(hops, 0, "requests forwarded by a node");
    println!(
        "second hops: {hops} of {} table requests through nginx (WebSockets included)",
        requests.len()
    );

    kill_one_and_play_on(&nginx, &mut nodes, seed ^ 0xdead).await;
    // The dead node's backups take turns: the one that took its table over
    // answers, the other forwards to it (the fallback).
    println!(
        "after the kill: {} of {} table requests forwarded by a node",
        forwarded(&nodes).await,
        nginx.table_requests().len() - requests.len()
    );
}
