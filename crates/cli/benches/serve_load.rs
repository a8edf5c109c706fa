//! Load benchmark of `spelbord serve` (not a test): many concurrent tables,
//! each with bot clients playing random legal actions over HTTP and a
//! spectator on the WebSocket. Reports actions per second and the latency of
//! action requests (p50/p99), and the server's CPU time.
//!
//! `cargo bench -p spelbord-cli --bench serve_load -- [--tables 64] [--seconds 20] [--game ID]`

#[allow(dead_code)]
#[path = "../tests/server/harness.rs"]
mod harness;

use harness::{Api, Server, Watcher, players_of};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde_json::json;
use spelbord_engine::games;
use std::time::{Duration, Instant};

struct Options {
    tables: usize,
    seconds: u64,
    game: Option<String>,
}

fn options() -> Options {
    let mut o = Options {
        tables: 64,
        seconds: 20,
        game: None,
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < args.len() {
        let value = args.get(i + 1).cloned().unwrap_or_default();
        match args[i].as_str() {
            "--tables" => o.tables = value.parse().expect("--tables N"),
            "--seconds" => o.seconds = value.parse().expect("--seconds S"),
            "--game" => o.game = Some(value),
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

/// One bot table after another until the deadline; returns the latencies of
/// action requests in microseconds.
async fn bot(api: Api, game: String, seed: u64, deadline: Instant) -> (Vec<u64>, u64) {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut latencies = Vec::new();
    let mut events = 0;
    let players = players_of(&game, &[]);
    while Instant::now() < deadline {
        let table = api
            .create(&game, json!({}), &vec!["open".to_string(); players])
            .await;
        let id = table["id"].as_str().expect("id").to_string();
        let mut tokens = Vec::new();
        for seat in 0..players {
            tokens.push(api.join(&id, seat).await);
        }
        let watcher = Watcher::start(&api.base, &id, None, None).await;
        let mut view = api.view(&id, None).await;
        while Instant::now() < deadline {
            let Some(seat) = view["state"]["turn"]["seat"].as_u64() else {
                break;
            };
            let token = &tokens[seat as usize];
            let mine = api.view(&id, Some(token)).await;
            let legal = mine["state"]["legal"].as_array().expect("legal");
            let pick = &legal[rng.random_range(0..legal.len())];
            let body = json!({ "version": mine["version"], "json": pick["json"] });
            let started = Instant::now();
            let (status, reply) = api
                .post(&format!("/api/tables/{id}/actions"), &body, Some(token))
                .await;
            latencies.push(started.elapsed().as_micros() as u64);
            assert_eq!(status, 200, "{reply}");
            view = json!({ "state": reply["state"] });
        }
        if view["state"]["turn"]["kind"] == "over" {
            events += watcher.messages().await.len() as u64;
        }
    }
    (latencies, events)
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
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    let server = Server::start(&[]);
    let pid = server_pid(&server);
    let ids: Vec<String> = match &o.game {
        Some(g) => vec![g.clone()],
        None => games().iter().map(|g| g.id().to_string()).collect(),
    };
    let cpu_before = cpu_ms(pid).unwrap_or(0.0);
    let started = Instant::now();
    let deadline = started + Duration::from_secs(o.seconds);
    let (mut latencies, events) = runtime.block_on(async {
        let mut tasks = Vec::new();
        for t in 0..o.tables {
            // Each bot has its own client, so its own connection.
            let api = Api::new(&server.base);
            let game = ids[t % ids.len()].clone();
            tasks.push(tokio::spawn(bot(api, game, t as u64, deadline)));
        }
        let mut all = Vec::new();
        let mut events = 0;
        for task in tasks {
            let (l, e) = task.await.expect("a bot");
            all.extend(l);
            events += e;
        }
        (all, events)
    });
    let elapsed = started.elapsed().as_secs_f64();
    let cpu = cpu_ms(pid).unwrap_or(0.0) - cpu_before;
    latencies.sort_unstable();
    let actions = latencies.len();
    println!(
        "{{\"tables\": {}, \"games\": {:?}, \"seconds\": {elapsed:.1}, \"actions\": {actions}, \
         \"actions_per_sec\": {:.0}, \"p50_ms\": {:.2}, \"p99_ms\": {:.2}, \"max_ms\": {:.2}, \
         \"server_cpu_ms_per_action\": {:.3}, \"ws_messages\": {events}}}",
        o.tables,
        ids,
        actions as f64 / elapsed,
        percentile(&latencies, 0.5),
        percentile(&latencies, 0.99),
        percentile(&latencies, 1.0),
        cpu / actions.max(1) as f64,
    );
}

fn server_pid(server: &Server) -> u32 {
    server.pid()
}
