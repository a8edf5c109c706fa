//! Load benchmark of `spelbord serve` (not a test): many concurrent tables,
//! each with bot clients playing random legal actions over HTTP and
//! spectators on the WebSocket. Reports actions per second, the latency of
//! action requests (p50/p99), the event lag of the spectators (from the
//! action request being sent to the event arriving, p50/p99), the server's
//! CPU time and memory, the benchmark's own CPU time (its clients share the
//! machine) and the machine's load average at the end.
//!
//! Each bot thinks before each action like a person: a pause drawn evenly
//! from 0 to twice `--think-ms` (mean 5 s), so that many tables make a
//! realistic rate; `--think-ms 0` acts as fast as the server answers.
//!
//! `cargo bench -p spelbord-cli --bench serve_load -- [--tables 64] [--watchers-per-table 1] [--seconds 20] [--think-ms 5000] [--game ID] [--db postgres://… [--nodes N]]`
//!
//! With `--db` the server runs on a new database of that PostgreSQL server,
//! as `--nodes` nodes (default 1). With several nodes each table is created
//! through one node, played through the next and watched through the one
//! after (as behind a proxy that spreads requests without regard to the
//! table): its actions are forwarded to the owner and its events reach the
//! spectators through PostgreSQL's notifications. The server figures are
//! the sums over the nodes.

#[allow(dead_code)]
#[path = "../tests/server/harness.rs"]
mod harness;

use futures_util::{SinkExt, StreamExt};
use harness::{Api, Server, players_of};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde::Deserialize;
use serde_json::json;
use spelbord_engine::games;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio_tungstenite::tungstenite::Message;

struct Options {
    tables: usize,
    watchers: usize,
    seconds: u64,
    think_ms: u64,
    game: Option<String>,
    db: Option<String>,
    nodes: usize,
}

/// When each action request was sent: (table, version it makes) → time.
type Sent = Arc<Mutex<HashMap<(String, u64), Instant>>>;

fn options() -> Options {
    let mut o = Options {
        tables: 64,
        watchers: 1,
        seconds: 20,
        think_ms: 5000,
        game: None,
        db: None,
        nodes: 1,
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < args.len() {
        let value = args.get(i + 1).cloned().unwrap_or_default();
        match args[i].as_str() {
            "--tables" => o.tables = value.parse().expect("--tables N"),
            "--watchers-per-table" => o.watchers = value.parse().expect("--watchers-per-table N"),
            "--seconds" => o.seconds = value.parse().expect("--seconds S"),
            "--think-ms" => o.think_ms = value.parse().expect("--think-ms MS"),
            "--game" => o.game = Some(value),
            "--db" => o.db = Some(value),
            "--nodes" => o.nodes = value.parse().expect("--nodes N"),
            _ => {
                i += 1;
                continue;
            }
        }
        i += 2;
    }
    o
}

/// Milliseconds of CPU time (user + system) a process has used, from /proc.
fn cpu_ms(pid: u32) -> Option<f64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let fields: Vec<&str> = stat.rsplit(')').next()?.split_whitespace().collect();
    let ticks: f64 = fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?;
    Some(ticks * 10.0)
}

/// Memory of a process from /proc: (resident now, peak resident) in MiB.
fn memory_mib(pid: u32) -> (f64, f64) {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let field = |name: &str| {
        status
            .lines()
            .find(|l| l.starts_with(name))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|kb| kb.parse::<f64>().ok())
            .map_or(0.0, |kb| kb / 1024.0)
    };
    (field("VmRSS:"), field("VmHWM:"))
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
async fn spectator(base: String, table: String, sent: Sent, deadline: Instant) -> Vec<u64> {
    let url = format!("{}/api/tables/{table}/ws", base.replacen("http", "ws", 1));
    let Ok((mut socket, _)) = tokio_tungstenite::connect_async(url).await else {
        return Vec::new();
    };
    let hello = json!({ "type": "hello", "token": null, "since": null });
    if socket
        .send(Message::Text(hello.to_string().into()))
        .await
        .is_err()
    {
        return Vec::new();
    }
    let mut lags = Vec::new();
    let until = tokio::time::Instant::from_std(deadline + Duration::from_secs(2));
    while let Ok(Some(Ok(message))) = tokio::time::timeout_at(until, socket.next()).await {
        let Message::Text(text) = message else {
            continue;
        };
        let arrived = Instant::now();
        let seen: Seen = serde_json::from_str(&text).expect("JSON");
        if seen.kind == "event"
            && let Some(version) = seen.version
            && let Some(at) = sent.lock().unwrap().get(&(table.clone(), version))
        {
            lags.push(arrived.duration_since(*at).as_micros() as u64);
        }
        if seen.state.is_some_and(|s| s.turn.kind == "over") {
            break;
        }
    }
    lags
}

/// One bot table after another until the deadline; returns the latencies of
/// action requests and the spectators' event lags, in microseconds.
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
    deadline: Instant,
) -> (Vec<u64>, Vec<u64>) {
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
    while Instant::now() < deadline {
        let table = creator
            .create(&game, json!({}), &vec!["open".to_string(); players])
            .await;
        let id = table["id"].as_str().expect("id").to_string();
        let spectators: Vec<_> = (0..watchers)
            .map(|_| {
                tokio::spawn(spectator(
                    watch_base.clone(),
                    id.clone(),
                    sent.clone(),
                    deadline,
                ))
            })
            .collect();
        let mut tokens = Vec::new();
        for seat in 0..players {
            tokens.push(api.join(&id, seat).await);
        }
        let mut view = api.view(&id, None).await;
        while Instant::now() < deadline {
            let Some(seat) = view["state"]["turn"]["seat"].as_u64() else {
                break;
            };
            let token = &tokens[seat as usize];
            let pause = think.mul_f64(rng.random_range(0.0..2.0));
            tokio::time::sleep(pause).await;
            if Instant::now() >= deadline {
                break;
            }
            let mine = api.view(&id, Some(token)).await;
            let legal = mine["state"]["legal"].as_array().expect("legal");
            let pick = &legal[rng.random_range(0..legal.len())];
            let version = mine["version"].as_u64().expect("version");
            let body = json!({ "version": version, "json": pick["json"] });
            let started = Instant::now();
            sent.lock()
                .unwrap()
                .insert((id.clone(), version + 1), started);
            let (status, reply) = api
                .post(&format!("/api/tables/{id}/actions"), &body, Some(token))
                .await;
            latencies.push(started.elapsed().as_micros() as u64);
            assert_eq!(status, 200, "{reply}");
            view = json!({ "state": reply["state"] });
        }
        for s in spectators {
            lags.extend(s.await.unwrap_or_default());
        }
        sent.lock().unwrap().clear();
    }
    (latencies, lags)
}

fn percentile(sorted: &[u64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() - 1) as f64 * p).round() as usize;
    sorted[i] as f64 / 1000.0
}

fn main() {
    let o = options();
    let _ = rlimit::increase_nofile_limit(u64::MAX);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    let caps = [
        "--max-watchers-per-table",
        "1000",
        "--max-watchers",
        "1000000",
    ];
    let servers: Vec<Server> = match &o.db {
        Some(db) => {
            let url = runtime
                .block_on(spelbord_server::store::fresh_database(db))
                .expect("a new PostgreSQL database");
            (0..o.nodes.max(1))
                .map(|_| Server::start_on(&url, &caps))
                .collect()
        }
        None => vec![Server::start(&caps)],
    };
    let pids: Vec<u32> = servers.iter().map(Server::pid).collect();
    let cpu_ms_all = |pids: &[u32]| pids.iter().filter_map(|p| cpu_ms(*p)).sum::<f64>();
    let memory_all = |pids: &[u32]| {
        pids.iter()
            .map(|p| memory_mib(*p))
            .fold((0.0, 0.0), |a, m| (a.0 + m.0, a.1 + m.1))
    };
    let ids: Vec<String> = match &o.game {
        Some(g) => vec![g.clone()],
        None => games().iter().map(|g| g.id().to_string()).collect(),
    };
    let cpu_before = cpu_ms_all(&pids);
    let own_cpu_before = cpu_ms(std::process::id()).unwrap_or(0.0);
    let started = Instant::now();
    // A tenth of the run (at most 10 s) to bring every bot in.
    let ramp = Duration::from_secs(o.seconds / 10).min(Duration::from_secs(10));
    let deadline = started + Duration::from_secs(o.seconds);
    let (mut latencies, mut lags, memory) = runtime.block_on(async {
        let mut tasks = Vec::new();
        for t in 0..o.tables {
            // Each bot has its own client, so its own connection.
            let node = |k: usize| &servers[(t + k) % servers.len()].base;
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
                started + ramp,
                deadline,
            )));
        }
        // The server's memory in the middle of the run, with everyone connected.
        let sampled = pids.clone();
        let sampler = tokio::spawn(async move {
            tokio::time::sleep_until(tokio::time::Instant::from_std(started + ramp * 2)).await;
            memory_all(&sampled)
        });
        let mut all = Vec::new();
        let mut lags = Vec::new();
        for task in tasks {
            let (l, g) = task.await.expect("a bot");
            all.extend(l);
            lags.extend(g);
        }
        (all, lags, sampler.await.unwrap_or_default())
    });
    let elapsed = started.elapsed().as_secs_f64();
    let cpu = cpu_ms_all(&pids) - cpu_before;
    let own_cpu = cpu_ms(std::process::id()).unwrap_or(0.0) - own_cpu_before;
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    let load = load.split_whitespace().next().unwrap_or("?").to_string();
    let (_, peak) = memory_all(&pids);
    latencies.sort_unstable();
    lags.sort_unstable();
    let actions = latencies.len();
    println!(
        "{{\"nodes\": {}, \"db\": \"{}\", \"tables\": {}, \"watchers\": {}, \"think_ms\": {}, \"games\": {:?}, \"seconds\": {elapsed:.1}, \
         \"actions\": {actions}, \"actions_per_sec\": {:.0}, \"p50_ms\": {:.2}, \"p99_ms\": {:.2}, \
         \"max_ms\": {:.2}, \"events\": {}, \"lag_p50_ms\": {:.2}, \"lag_p99_ms\": {:.2}, \
         \"server_cpu_ms_per_action\": {:.3}, \"server_cpu_cores\": {:.2}, \"bench_cpu_cores\": {:.2}, \
         \"server_rss_mib\": {:.0}, \"server_peak_rss_mib\": {:.0}, \"load_average\": {load}}}",
        servers.len(),
        if o.db.is_some() { "postgres" } else { "sqlite" },
        o.tables,
        o.tables * o.watchers,
        o.think_ms,
        ids,
        actions as f64 / elapsed,
        percentile(&latencies, 0.5),
        percentile(&latencies, 0.99),
        percentile(&latencies, 1.0),
        lags.len(),
        percentile(&lags, 0.5),
        percentile(&lags, 0.99),
        cpu / actions.max(1) as f64,
        cpu / 1000.0 / elapsed,
        own_cpu / 1000.0 / elapsed,
        memory.0,
        peak,
    );
}
