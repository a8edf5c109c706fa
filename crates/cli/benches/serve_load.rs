//! Load benchmark of `spelbord serve` (not a test): many concurrent tables,
//! each with a bot client playing random legal actions for every seat as
//! the browser client does (each seat on its own WebSocket, which brings it
//! the state and its legal actions; actions sent over HTTP), and spectators
//! on the WebSocket. Reports actions per second, the latency of
//! action requests (p50/p99), the event lag of the spectators (from the
//! action request being sent to the event arriving, p50/p99), the server's
//! CPU time and memory, the benchmark's own CPU time (its clients share the
//! machine) and the machine's load average at the end.
//!
//! The run has two phases. The ramp-up: every bot creates its table, takes
//! its seats and opens its seat and spectator WebSockets (the bots start
//! spread over `--ramp-seconds`, default 5), and waits until every one of
//! them has its first snapshot. Then the measured window of `--seconds`
//! begins for all bots at once: only actions sent in it are counted, and the
//! server's CPU time is taken over it; the ramp-up's duration and CPU time
//! are reported apart.
//!
//! Each bot thinks before each action like a person: a pause drawn evenly
//! from 0 to twice `--think-ms` (mean 5 s), so that many tables make a
//! realistic rate; `--think-ms 0` acts as fast as the server answers.
//!
//! `cargo bench -p spelbord-cli --bench serve_load -- [--tables 64] [--watchers-per-table 1] [--seconds 20] [--think-ms 5000] [--ramp-seconds 5] [--game ID] [--db postgres://… [--nodes N]] [--timeline]`
//!
//! With `--hosts SHARE` (as root) the nodes are separate hosts: each node
//! and a private PostgreSQL run in their own network namespace with their
//! own address, each node limited to SHARE of a core and PostgreSQL to
//! `--db-share` (default 1), the clients outside; each table's requests all
//! go to the node that made it, which owns it (as a proxy that routes by
//! table id would send them). Then the report adds the nodes' and the
//! database's CPU per action (`db_cpu_ms_per_action`).
//!
//! `--timeline` also prints, per second of the run, the actions sent and
//! their latencies and event lags (on standard error), seconds counted
//! from the start of the measured window.
//!
//! With `--db` the server runs on a new database of that PostgreSQL server,
//! as `--nodes` nodes (default 1). With several nodes each table is created
//! through one node, played through the next and watched through the one
//! after (as behind a proxy that spreads requests without regard to the
//! table): its actions are forwarded to the owner and its events reach the
//! spectators through PostgreSQL's notifications. The server figures are
//! the sums over the nodes.

#[allow(dead_code)]
mod common;
#[allow(dead_code)]
#[path = "../tests/server/harness.rs"]
mod harness;
#[path = "common/hosts.rs"]
mod hosts;
#[allow(dead_code)]
#[path = "../tests/server/netns.rs"]
mod netns;

use common::{
    Args, Clock, Next, Phases, Sample, connect, load_average, next_text, percentile, print_timeline,
};
use futures_util::SinkExt;
use harness::{Api, Server, players_of};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde::Deserialize;
use serde_json::json;
use spelbord_engine::games;
use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::mpsc;
use tokio_tungstenite::tungstenite::Message;

struct Options {
    tables: usize,
    watchers: usize,
    seconds: u64,
    think_ms: u64,
    ramp_seconds: u64,
    game: Option<String>,
    db: Option<String>,
    nodes: usize,
    hosts: Option<f64>,
    db_share: f64,
    timeline: bool,
}

/// When each action request was sent: (table, version it makes) → time.
type Sent = Arc<Mutex<HashMap<(String, u64), Instant>>>;

/// Says that a WebSocket has its first snapshot (or could not be opened).
type Ready = mpsc::UnboundedSender<()>;

fn options() -> Options {
    let a = Args::from_env();
    Options {
        tables: a.get("--tables", 64),
        watchers: a.get("--watchers-per-table", 1),
        seconds: a.get("--seconds", 20),
        think_ms: a.get("--think-ms", 5000),
        ramp_seconds: a.get("--ramp-seconds", 5),
        game: a.text("--game"),
        db: a.text("--db"),
        nodes: a.get("--nodes", 1),
        hosts: a.text("--hosts").and_then(|s| s.parse().ok()),
        db_share: a.get("--db-share", 1.0),
        timeline: a.switch("--timeline"),
    }
}

/// The parts of a WebSocket message a spectator reads (the rest is skipped).
#[derive(Deserialize)]
struct Seen {
    #[serde(rename = "type")]
    kind: String,
    version: Option<u64>,
    state: Option<SeenState>,
}

#[derive(Deserialize)]
struct SeenState {
    turn: SeenTurn,
}

#[derive(Deserialize)]
struct SeenTurn {
    kind: String,
}

/// A spectator of one table: the lag of every event it receives, until the
/// game is over or the deadline.
async fn spectator(
    base: String,
    table: String,
    sent: Sent,
    clock: Clock,
    ready: Ready,
) -> Vec<Sample> {
    let url = format!("{}/api/tables/{table}/ws", base.replacen("http", "ws", 1));
    let Ok(mut socket) = connect(url).await else {
        SPECTATORS_REFUSED.fetch_add(1, Ordering::Relaxed);
        let _ = ready.send(());
        return Vec::new();
    };
    let hello = json!({ "type": "hello", "token": null, "since": null });
    if socket
        .send(Message::Text(hello.to_string().into()))
        .await
        .is_err()
    {
        let _ = ready.send(());
        return Vec::new();
    }
    let mut lags = Vec::new();
    let mut ready = Some(ready);
    let ended = clock.ended(Duration::from_secs(2));
    tokio::pin!(ended);
    while let Next::Text(text) = next_text(&mut socket, &mut ended).await {
        let arrived = Instant::now();
        let seen: Seen = serde_json::from_str(&text).expect("JSON");
        if seen.kind == "sync"
            && let Some(ready) = ready.take()
        {
            let _ = ready.send(());
        }
        if seen.kind == "event"
            && let Some(version) = seen.version
            && let Some(at) = sent.lock().unwrap().get(&(table.clone(), version))
        {
            lags.push(Sample {
                at: *at,
                micros: arrived.duration_since(*at).as_micros() as u64,
            });
        }
        if seen.state.is_some_and(|s| s.turn.kind == "over") {
            break;
        }
    }
    lags
}

/// The parts of a WebSocket message a seat reads (the rest is skipped).
#[derive(Deserialize)]
struct SeatMessage {
    #[serde(rename = "type")]
    kind: String,
    version: Option<u64>,
    state: Option<SeatState>,
}

#[derive(Deserialize)]
struct SeatState {
    version: u64,
    turn: SeatTurn,
    legal: Option<Vec<Legal>>,
}

#[derive(Deserialize)]
struct SeatTurn {
    kind: String,
    seat: Option<usize>,
}

#[derive(Deserialize)]
struct Legal {
    json: serde_json::Value,
}

/// What a seat's socket showed: the version, and the seat's legal actions
/// when it is to move.
struct Shown {
    seat: usize,
    version: u64,
    legal: Option<Vec<Legal>>,
    over: bool,
}

/// Requests sent again after their connection failed (no answer).
static RESENT: AtomicUsize = AtomicUsize::new(0);

/// POSTs `body`, sending it again (up to 3 times, 0.5 s apart) when the
/// connection fails before an answer, as a client does after a lost answer.
/// Returns the status, the body and whether it was sent again.
async fn post_resending(
    api: &Api,
    path: &str,
    body: &serde_json::Value,
    token: Option<&str>,
) -> (u16, serde_json::Value, bool) {
    for attempt in 0..3 {
        match api.try_post(path, body, token).await {
            Ok((status, reply)) => return (status, reply, attempt > 0),
            Err(_) => {
                RESENT.fetch_add(1, Ordering::Relaxed);
                tokio::time::sleep(Duration::from_millis(500)).await;
            }
        }
    }
    let (status, reply) = api.post(path, body, token).await;
    (status, reply, true)
}

/// Seat WebSockets opened again after their connection failed or dropped.
static SEAT_RECONNECTS: AtomicUsize = AtomicUsize::new(0);
/// Spectators whose WebSocket could not be opened.
static SPECTATORS_REFUSED: AtomicUsize = AtomicUsize::new(0);

/// One seat's WebSocket, as the browser client keeps it: says hello with
/// the seat's token and the last version seen, takes the first `sync`, then
/// checks that every event follows the last version seen (an event past the
/// next version is a gap in the stream, which the server must never send),
/// and passes each new state on until the game is over or the deadline. A
/// connection that fails or drops is opened again with back-off (0.3 s,
/// doubling, at most 8 s), asking only for what was missed.
async fn seat_socket(
    base: String,
    table: String,
    token: String,
    seat: usize,
    shown: mpsc::UnboundedSender<Shown>,
    clock: Clock,
    ready: Ready,
) {
    let url = format!("{}/api/tables/{table}/ws", base.replacen("http", "ws", 1));
    let ended = clock.clone().ended(Duration::from_secs(2));
    tokio::pin!(ended);
    let mut ready = Some(ready);
    let mut last: Option<u64> = None;
    let mut retries = 0;
    loop {
        if retries > 0 {
            SEAT_RECONNECTS.fetch_add(1, Ordering::Relaxed);
            let backoff =
                Duration::from_millis(300 << (retries - 1).min(5)).min(Duration::from_secs(8));
            tokio::time::sleep(backoff).await;
        }
        if clock.over() {
            return;
        }
        retries += 1;
        let Ok(mut socket) = connect(url.clone()).await else {
            continue;
        };
        let hello = json!({ "type": "hello", "token": token, "since": last });
        if socket
            .send(Message::Text(hello.to_string().into()))
            .await
            .is_err()
        {
            continue;
        }
        loop {
            let text = match next_text(&mut socket, &mut ended).await {
                Next::Text(text) => text,
                Next::Closed => break,
                Next::Ended => return,
            };
            retries = 0;
            let m: SeatMessage = serde_json::from_str(&text).expect("JSON");
            let Some(state) = m.state else {
                continue;
            };
            match (m.kind.as_str(), last) {
                ("sync", _) => {
                    if let Some(ready) = ready.take() {
                        let _ = ready.send(());
                    }
                }
                ("event", Some(seen)) => {
                    let version = m.version.expect("an event's version");
                    if version <= seen {
                        continue;
                    }
                    assert_eq!(version, seen + 1, "table {table} seat {seat}: a gap");
                }
                _ => continue,
            }
            last = Some(state.version);
            let over = state.turn.kind == "over";
            let mine = state.turn.kind == "player" && state.turn.seat == Some(seat);
            let version = state.version;
            let legal = if mine { state.legal } else { None };
            let shown = shown.send(Shown {
                seat,
                version,
                legal,
                over,
            });
            if shown.is_err() || over {
                return;
            }
        }
        // The connection dropped: open it again.
        retries = retries.max(1);
    }
}

/// One bot table after another until the end of the measured window; says
/// `ready` once its first table's seats and spectators have their first
/// snapshot, and sends no action before the window starts. Returns the
/// latencies of action requests and the spectators' event lags.
#[allow(clippy::too_many_arguments)]
async fn bot(
    api: Api,
    creator: Api,
    watch_base: String,
    game: String,
    seed: u64,
    watchers: usize,
    think: Duration,
    start_by: Instant,
    mut clock: Clock,
    ready: Ready,
) -> (Vec<Sample>, Vec<Sample>) {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut latencies = Vec::new();
    let mut lags = Vec::new();
    let players = players_of(&game, &[]);
    let sent: Sent = Arc::new(Mutex::new(HashMap::new()));
    // Bots start spread over the ramp-up, so that connections open gradually.
    let delay = start_by
        .saturating_duration_since(Instant::now())
        .as_millis() as u64;
    tokio::time::sleep(Duration::from_millis(rng.random_range(0..=delay.max(1)))).await;
    let mut ready = Some(ready);
    loop {
        if clock.over() {
            break;
        }
        let (sockets_ready, mut sockets_ready_rx) = mpsc::unbounded_channel();
        let create = json!({ "game": game, "options": {}, "seats": vec!["open"; players] });
        let (status, table, _) = post_resending(&creator, "/api/tables", &create, None).await;
        assert_eq!(status, 201, "create {game}: {table}");
        let id = table["id"].as_str().expect("id").to_string();
        let hidden = table["hidden_information"]
            .as_bool()
            .expect("hidden_information");
        let spectators: Vec<_> = (0..watchers)
            .map(|_| {
                tokio::spawn(spectator(
                    watch_base.clone(),
                    id.clone(),
                    sent.clone(),
                    clock.clone(),
                    sockets_ready.clone(),
                ))
            })
            .collect();
        let mut tokens = Vec::new();
        for seat in 0..players {
            // With a key, a join sent again returns the same seat and token.
            let key = format!("serve-load-join-{id}-{seat}");
            let join = json!({ "seat": seat, "name": format!("bot {seat}"), "key": key });
            let path = format!("/api/tables/{id}/join");
            let (status, joined, _) = post_resending(&api, &path, &join, None).await;
            assert_eq!(status, 200, "join seat {seat}: {joined}");
            tokens.push(joined["token"].as_str().expect("a token").to_string());
        }
        let (tx, mut shown) = mpsc::unbounded_channel();
        let sockets: Vec<_> = tokens
            .iter()
            .enumerate()
            .map(|(seat, token)| {
                tokio::spawn(seat_socket(
                    api.base.clone(),
                    id.clone(),
                    token.clone(),
                    seat,
                    tx.clone(),
                    clock.clone(),
                    sockets_ready.clone(),
                ))
            })
            .collect();
        drop(tx);
        drop(sockets_ready);
        // The ramp-up: wait until every socket has its snapshot, say so,
        // and wait for the measured window.
        if let Some(ready) = ready.take() {
            for _ in 0..players + watchers {
                if sockets_ready_rx.recv().await.is_none() {
                    break;
                }
            }
            let _ = ready.send(());
        }
        let window = clock.window().await;
        let until = tokio::time::Instant::from_std(window.end);
        // The newest version any seat has seen, and the last one acted on.
        let mut newest = 0;
        let mut acted = None;
        while let Ok(Some(s)) = tokio::time::timeout_at(until, shown.recv()).await {
            newest = newest.max(s.version);
            if s.over {
                break;
            }
            let Some(legal) = s.legal else {
                continue;
            };
            // A person's only action is played by the server itself (in
            // games without hidden information): not a decision, and its
            // event is on its way.
            if s.version < newest || acted == Some(s.version) || (legal.len() == 1 && !hidden) {
                continue;
            }
            let pause = think.mul_f64(rng.random_range(0.0..2.0));
            tokio::time::sleep(pause).await;
            if Instant::now() >= window.end {
                break;
            }
            let pick = &legal[rng.random_range(0..legal.len())];
            let version = s.version;
            let body = json!({ "version": version, "json": pick.json });
            let sending = Instant::now();
            sent.lock()
                .unwrap()
                .insert((id.clone(), version + 1), sending);
            let path = format!("/api/tables/{id}/actions");
            let (status, reply, resent) =
                post_resending(&api, &path, &body, Some(&tokens[s.seat])).await;
            latencies.push(Sample {
                at: sending,
                micros: sending.elapsed().as_micros() as u64,
            });
            // Sent again after a lost answer, `stale_version` says the first
            // one was applied (never a double move).
            let stale = status == 409 && reply["error"]["code"] == "stale_version";
            assert!(status == 200 || (resent && stale), "{reply}");
            acted = Some(version);
        }
        for s in sockets {
            s.abort();
        }
        for s in spectators {
            lags.extend(s.await.unwrap_or_default());
        }
        sent.lock().unwrap().clear();
    }
    (latencies, lags)
}

fn main() {
    let o = options();
    let runtime = common::runtime();
    let caps = [
        "--max-watchers-per-table",
        "1000",
        "--max-watchers",
        "1000000",
    ];
    let mut hosts = None;
    let servers: Vec<Server> = match (&o.db, o.hosts) {
        (_, Some(share)) => {
            let started = hosts::Hosts::start(o.nodes.max(1), share, o.db_share, &caps);
            let (h, servers) = runtime.block_on(started);
            hosts = Some(h);
            servers
        }
        (Some(db), None) => {
            let url = runtime
                .block_on(spelbord_server::store::fresh_database(db))
                .expect("a new PostgreSQL database");
            (0..o.nodes.max(1))
                .map(|_| Server::start_on(&url, &caps))
                .collect()
        }
        (None, None) => vec![Server::start(&caps)],
    };
    let pids: Vec<u32> = servers.iter().map(Server::pid).collect();
    let ids: Vec<String> = match &o.game {
        Some(g) => vec![g.clone()],
        None => games().iter().map(|g| g.id().to_string()).collect(),
    };
    let mut phases = Phases::new(&pids);
    if let Some(db) = hosts.as_ref().map(hosts::Hosts::db) {
        phases.count_db_cpu(move || db.cpu_ms());
    }
    let start_by = phases.started() + Duration::from_secs(o.ramp_seconds);
    let (ready_tx, ready_rx) = mpsc::unbounded_channel();
    let ((latencies, lags), measured) = runtime.block_on(async {
        let mut tasks = Vec::new();
        for t in 0..o.tables {
            // Each bot has its own client, so its own connection.
            // Behind a proxy that spreads requests, or routes by table.
            let spread = if o.hosts.is_some() { 0 } else { 1 };
            let node = |k: usize| &servers[(t + k * spread) % servers.len()].base;
            let api = Api::new(node(1));
            let game = ids[t % ids.len()].clone();
            tasks.push(tokio::spawn(bot(
                api,
                Api::new(node(0)),
                node(2).clone(),
                game,
                t as u64,
                o.watchers,
                Duration::from_millis(o.think_ms),
                start_by,
                phases.clock(),
                ready_tx.clone(),
            )));
        }
        drop(ready_tx);
        // The ramp-up ends when every bot is ready (or has failed).
        let done = async {
            let mut all = Vec::new();
            let mut lags = Vec::new();
            for task in tasks {
                let (l, g) = task.await.expect("a bot");
                all.extend(l);
                lags.extend(g);
            }
            (all, lags)
        };
        phases.run(o.tables, ready_rx, o.seconds, done).await
    });
    let elapsed = measured.elapsed.as_secs_f64();
    let cpu = measured.cpu;
    let own_cpu = measured.own_cpu;
    let load = load_average();
    if o.timeline {
        print_timeline(measured.window.start, &latencies, &lags);
    }
    let mut latencies: Vec<u64> = latencies.iter().map(|s| s.micros).collect();
    let mut lags: Vec<u64> = lags.iter().map(|s| s.micros).collect();
    latencies.sort_unstable();
    lags.sort_unstable();
    let actions = latencies.len();
    println!(
        "{{\"nodes\": {}, \"db\": \"{}\", \"tables\": {}, \"watchers\": {}, \"think_ms\": {}, \"games\": {:?}, \
         \"ramp_up_s\": {:.1}, \"ramp_up_server_cpu_s\": {:.1}, \"tables_ready\": {}, \"seconds\": {elapsed:.1}, \
         \"actions\": {actions}, \"actions_per_sec\": {:.0}, \"p50_ms\": {:.2}, \"p99_ms\": {:.2}, \
         \"max_ms\": {:.2}, \"events\": {}, \"lag_p50_ms\": {:.2}, \"lag_p99_ms\": {:.2}, \
         \"server_cpu_ms_per_action\": {:.3}, \"db_cpu_ms_per_action\": {:.3}, \"server_cpu_cores\": {:.2}, \"bench_cpu_cores\": {:.2}, \
         \"server_rss_mib\": {:.0}, \"server_peak_rss_mib\": {:.0}, \"load_average\": {load}, \
         \"seat_reconnects\": {}, \"spectators_refused\": {}, \"requests_resent\": {}}}",
        servers.len(),
        if o.db.is_some() || o.hosts.is_some() {
            "postgres"
        } else {
            "sqlite"
        },
        o.tables,
        o.tables * o.watchers,
        o.think_ms,
        ids,
        measured.ramp_up.as_secs_f64(),
        measured.ramp_cpu / 1000.0,
        measured.ready,
        actions as f64 / o.seconds.max(1) as f64,
        percentile(&latencies, 0.5),
        percentile(&latencies, 0.99),
        percentile(&latencies, 1.0),
        lags.len(),
        percentile(&lags, 0.5),
        percentile(&lags, 0.99),
        cpu / actions.max(1) as f64,
        measured.db_cpu / actions.max(1) as f64,
        cpu / 1000.0 / elapsed,
        own_cpu / 1000.0 / elapsed,
        measured.middle_rss,
        measured.peak_rss,
        SEAT_RECONNECTS.load(Ordering::Relaxed),
        SPECTATORS_REFUSED.load(Ordering::Relaxed),
        RESENT.load(Ordering::Relaxed),
    );
}
