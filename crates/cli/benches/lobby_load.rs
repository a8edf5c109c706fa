//! Load benchmark of the live lobby of `spelbord serve` (not a test): many
//! lobby WebSockets watching, and seeks posted at a steady rate, each
//! accepted by another player or withdrawn by its owner after a while.
//! Reports the latency of lobby updates: from the request that makes a
//! change being sent (`POST /api/seeks`, the accept that fills the seek,
//! `DELETE /api/seeks/{id}`) to its `seek_added` or `seek_removed` event
//! reaching each watcher that picked its game (p50/p99/max over every
//! delivery; and per change the lag of its first delivery and the spread
//! to its last, the fan-out), the deliveries expected and made, the sockets refused,
//! dropped and opened again, the server's CPU time and memory and the
//! bench's own CPU time.
//!
//! Every watcher is a guest with its own `player_key`: it says hello with
//! the key and `--games-per-watcher` games picked at random (as the lobby
//! page does). The seeks' owners and acceptors are these watchers, so an
//! owner is in the lobby while his seek is open and no player ever has more
//! than one open seek (the server allows 3). Seek k is posted through
//! poster client k mod `--posters` (each its own HTTP connection), casual,
//! for game k mod 7 (2 players where the game allows), named `seek k`
//! (a watcher finds a new seek's send time by its owner's name), and after
//! a pause drawn evenly from 0 to twice `--hold-ms` it is accepted (a share
//! `--accept-share` of them) or withdrawn.
//!
//! The ramp-up opens the watchers (spread over `--ramp-seconds`) and waits
//! until each has its snapshot after hello; then seeks are posted for
//! `--seconds`, and the watchers stay until the last seek is gone.
//!
//! `cargo bench -p spelbord-cli --bench lobby_load -- [--watchers 2000] [--seeks-per-minute 200] [--seconds 60] [--games-per-watcher 3] [--hold-ms 15000] [--accept-share 0.5] [--posters 20] [--ramp-seconds 10] [--timeline]`

#[allow(dead_code)]
mod common;
#[allow(dead_code)]
#[path = "../tests/server/harness.rs"]
mod harness;

use common::{
    Args, Clock, Next, Phases, Sample, by_second, connect, load_average, next_text, percentile,
};
use futures_util::SinkExt;
use harness::{Api, Server};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
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
    watchers: usize,
    seeks_per_minute: f64,
    seconds: u64,
    games_per_watcher: usize,
    hold_ms: u64,
    accept_share: f64,
    posters: usize,
    ramp_seconds: u64,
    timeline: bool,
}

fn options() -> Options {
    let a = Args::from_env();
    Options {
        watchers: a.get("--watchers", 2000),
        seeks_per_minute: a.get("--seeks-per-minute", 200.0),
        seconds: a.get("--seconds", 60),
        games_per_watcher: a.get("--games-per-watcher", 3),
        hold_ms: a.get("--hold-ms", 15_000),
        accept_share: a.get("--accept-share", 0.5),
        posters: a.get("--posters", 20).max(1),
        ramp_seconds: a.get("--ramp-seconds", 10),
        timeline: a.switch("--timeline"),
    }
}

/// A change a watcher waits for: a seek added (by its owner's name) or
/// removed (by its id).
#[derive(Clone, PartialEq, Eq, Hash)]
enum Change {
    Added(String),
    Removed(String),
}

/// When the request making each change was sent.
type Sent = Arc<Mutex<HashMap<Change, Instant>>>;

/// Lobby sockets opened again after they failed or dropped.
static RECONNECTS: AtomicUsize = AtomicUsize::new(0);
/// Lobby sockets that could not be opened (each try).
static REFUSED: AtomicUsize = AtomicUsize::new(0);
/// Snapshots sent unasked (a socket that fell behind the events).
static RESNAPSHOTS: AtomicUsize = AtomicUsize::new(0);
/// Bytes and messages received by all watchers.
static BYTES: AtomicUsize = AtomicUsize::new(0);
static MESSAGES: AtomicUsize = AtomicUsize::new(0);

/// The parts of a seek event a watcher reads.
#[derive(Deserialize)]
struct SeekEvent {
    id: Option<String>,
    seek: Option<SeekBody>,
}

#[derive(Deserialize)]
struct SeekBody {
    owner: SeekOwner,
}

#[derive(Deserialize)]
struct SeekOwner {
    name: Option<String>,
}

/// The watcher key of player `i`.
fn key(i: usize) -> String {
    format!("lobby-bench-player-{i:06}")
}

/// The change a lobby message shows, if it is a seek added or removed; the
/// type is found without parsing the (large) `tables` messages.
fn change_of(text: &str) -> Option<Change> {
    let added = text.contains(r#""type":"seek_added""#);
    if !added && !text.contains(r#""type":"seek_removed""#) {
        return None;
    }
    let event: SeekEvent = serde_json::from_str(text).expect("JSON");
    match (added, event.seek, event.id) {
        (true, Some(seek), _) => seek.owner.name.map(Change::Added),
        (false, _, Some(id)) => Some(Change::Removed(id)),
        _ => None,
    }
}

/// One watcher: its lobby socket, opened again with back-off when it fails
/// or drops, until `grace` after the measured window. Says `ready` once
/// its first snapshot after hello came; returns the lag of every seek
/// change it was sent.
async fn watcher(
    base: String,
    i: usize,
    picked: Vec<String>,
    sent: Sent,
    clock: Clock,
    grace: Duration,
    ready: mpsc::UnboundedSender<()>,
) -> Vec<Sample> {
    let url = format!("{}/api/lobby/ws", base.replacen("http", "ws", 1));
    let hello = json!({ "type": "hello", "player_key": key(i), "games": picked }).to_string();
    let ended = clock.clone().ended(grace);
    tokio::pin!(ended);
    let mut ready = Some(ready);
    let mut lags = Vec::new();
    let mut retries = 0u32;
    loop {
        if retries > 0 {
            RECONNECTS.fetch_add(1, Ordering::Relaxed);
            let backoff = Duration::from_millis(300 << (retries - 1).min(5));
            tokio::time::sleep(backoff.min(Duration::from_secs(8))).await;
        }
        retries += 1;
        let Ok(mut socket) = connect(url.clone()).await else {
            REFUSED.fetch_add(1, Ordering::Relaxed);
            // The ramp-up does not wait for a socket that was refused.
            if let Some(ready) = ready.take() {
                let _ = ready.send(());
            }
            continue;
        };
        if socket
            .send(Message::Text(hello.clone().into()))
            .await
            .is_err()
        {
            continue;
        }
        // The snapshot on connecting, then the one answering hello.
        let mut snapshots = 0;
        loop {
            let text = match next_text(&mut socket, &mut ended).await {
                Next::Text(text) => text,
                Next::Closed => break,
                Next::Ended => return lags,
            };
            let arrived = Instant::now();
            retries = 0;
            BYTES.fetch_add(text.len(), Ordering::Relaxed);
            MESSAGES.fetch_add(1, Ordering::Relaxed);
            if let Some(change) = change_of(&text) {
                if let Some(at) = sent.lock().unwrap().get(&change) {
                    let micros = arrived.duration_since(*at).as_micros() as u64;
                    lags.push(Sample { at: *at, micros });
                }
            } else if text.contains(r#""type":"snapshot""#) {
                snapshots += 1;
                if snapshots == 2
                    && let Some(ready) = ready.take()
                {
                    let _ = ready.send(());
                } else if snapshots > 2 {
                    RESNAPSHOTS.fetch_add(1, Ordering::Relaxed);
                }
            }
        }
        retries = retries.max(1);
    }
}

/// A game as the seeks use it: its id, the `players` a seek asks for (2
/// where the game allows it), and the seats a table of it has.
struct SeekGame {
    id: String,
    players: Option<u32>,
    seats: usize,
}

fn seek_games() -> Vec<SeekGame> {
    games()
        .iter()
        .map(|g| {
            let seats = |options: &[String]| {
                let options = g.parse_options(options).ok()?;
                Some(g.new_state(&options).ok()?.num_players())
            };
            let two = seats(&["players=2".to_string()]).filter(|n| *n == 2);
            SeekGame {
                id: g.id().to_string(),
                players: two.map(|_| 2),
                seats: two.or_else(|| seats(&[])).expect("a game's default table"),
            }
        })
        .collect()
}

/// What became of one seek: the changes its requests made (each delivered
/// to every watcher of its game), the requests' latencies, the requests
/// refused, and whether it was accepted.
#[derive(Default)]
struct Outcome {
    changes: usize,
    requests: Vec<Sample>,
    failed: usize,
    accepted: bool,
}

impl Outcome {
    /// Sends a request making `change` (noted in `sent` first); counts it
    /// when the answer is `expected`.
    async fn request<F>(
        &mut self,
        sent: &Sent,
        change: Option<Change>,
        expected: u16,
        send: F,
    ) -> Option<serde_json::Value>
    where
        F: Future<Output = Result<harness::Reply, reqwest::Error>>,
    {
        let at = Instant::now();
        if let Some(change) = &change {
            sent.lock().unwrap().insert(change.clone(), at);
        }
        let reply = send.await;
        self.requests.push(Sample {
            at,
            micros: at.elapsed().as_micros() as u64,
        });
        match reply {
            Ok((status, body)) if status == expected => {
                self.changes += usize::from(change.is_some());
                Some(body)
            }
            _ => {
                self.failed += 1;
                None
            }
        }
    }
}

/// What is done with one seek.
struct Plan {
    /// Its number (its owner's name is `seek k`).
    k: usize,
    game: Arc<SeekGame>,
    /// The owner's and the acceptors' player keys.
    owner: String,
    acceptors: Vec<String>,
    /// How long it stays open.
    hold: Duration,
    /// Accepted (else withdrawn).
    accept: bool,
}

/// A seek: posted by its owner, then after its hold accepted by as many
/// players as it needs, or withdrawn.
async fn seek(api: Api, plan: Plan, sent: Sent) -> Outcome {
    let Plan {
        k,
        game,
        owner,
        acceptors,
        hold,
        accept,
    } = plan;
    let mut outcome = Outcome::default();
    let name = format!("seek {k}");
    let mut body = json!({ "game": game.id, "options": {}, "player_key": owner, "name": name });
    if let Some(players) = game.players {
        body["players"] = json!(players);
    }
    let added = Change::Added(name);
    let post = api.try_post("/api/seeks", &body, None);
    let Some(posted) = outcome.request(&sent, Some(added), 201, post).await else {
        return outcome;
    };
    let id = posted["seek"]["id"]
        .as_str()
        .expect("a seek id")
        .to_string();
    tokio::time::sleep(hold).await;
    let removed = Some(Change::Removed(id.clone()));
    if !accept {
        let path = format!("/api/seeks/{id}");
        let headers = [("x-player-key", owner.as_str())];
        let delete = api.try_delete_with(&path, &headers);
        outcome.request(&sent, removed, 204, delete).await;
        return outcome;
    }
    let path = format!("/api/seeks/{id}/accept");
    for (a, player_key) in acceptors.iter().enumerate() {
        let acceptor = json!({ "player_key": player_key, "name": format!("acceptor {a}") });
        let last = a + 1 == acceptors.len();
        let (change, expected) = if last {
            (removed.clone(), 200)
        } else {
            (None, 202)
        };
        let accept = api.try_post(&path, &acceptor, None);
        if outcome
            .request(&sent, change, expected, accept)
            .await
            .is_none()
        {
            return outcome;
        }
    }
    outcome.accepted = true;
    outcome
}

/// The seeks posted through the measured window at the given rate: their
/// games' indices and outcomes, in order.
async fn post_seeks(
    o: &Options,
    base: &str,
    mut clock: Clock,
    games: &[Arc<SeekGame>],
    sent: Sent,
) -> Vec<(usize, Outcome)> {
    let window = clock.window().await;
    let posters: Vec<Api> = (0..o.posters).map(|_| Api::new(base)).collect();
    let total = (o.seeks_per_minute * o.seconds as f64 / 60.0).round() as usize;
    let interval = Duration::from_secs_f64(60.0 / o.seeks_per_minute.max(0.001));
    let mut rng = StdRng::seed_from_u64(7);
    let mut tasks = Vec::new();
    for k in 0..total {
        let at = window.start + interval.mul_f64(k as f64);
        tokio::time::sleep_until(tokio::time::Instant::from_std(at)).await;
        let game = k % games.len();
        // A stride prime to the watchers' count spreads owners over them.
        let owner = (k * 7919) % o.watchers;
        let hold = Duration::from_millis(o.hold_ms).mul_f64(rng.random_range(0.0..2.0));
        let accept = rng.random_bool(o.accept_share.clamp(0.0, 1.0));
        let plan = Plan {
            k,
            game: games[game].clone(),
            owner: key(owner),
            acceptors: (1..games[game].seats)
                .map(|a| key((owner + a) % o.watchers))
                .collect(),
            hold,
            accept,
        };
        let task = seek(posters[k % posters.len()].clone(), plan, sent.clone());
        tasks.push((game, tokio::spawn(task)));
    }
    let mut outcomes = Vec::new();
    for (game, task) in tasks {
        outcomes.push((game, task.await.expect("a seek")));
    }
    outcomes
}

/// Per second of the run (by when the change was sent), on standard error:
/// the deliveries and their p50/p99/max lag, and the requests sent and
/// their p99/max latency (a slow request delays its deliveries).
fn print_timeline(start: Instant, lags: &[Sample], requests: &[Sample]) {
    let requests = by_second(start, requests);
    eprintln!("second deliveries p50_ms p99_ms max_ms requests request_p99_ms request_max_ms");
    for (i, l) in by_second(start, lags).iter().enumerate() {
        let (p50, p99, max) = (percentile(l, 0.5), percentile(l, 0.99), percentile(l, 1.0));
        let r = requests.get(i).map_or(&[][..], |r| &r[..]);
        let (r99, rmax) = (percentile(r, 0.99), percentile(r, 1.0));
        eprintln!(
            "{i} {} {p50:.1} {p99:.1} {max:.1} {} {r99:.1} {rmax:.1}",
            l.len(),
            r.len()
        );
    }
}

fn main() {
    let o = options();
    let runtime = common::runtime();
    let server = Server::start(&["--max-watchers", "1000000"]);
    let pids = [server.pid()];
    let games: Vec<Arc<SeekGame>> = seek_games().into_iter().map(Arc::new).collect();
    // Each watcher picks its games at random; `pickers` counts them per game.
    let mut pickers = vec![0usize; games.len()];
    let picks: Vec<Vec<String>> = (0..o.watchers)
        .map(|i| {
            let mut order: Vec<usize> = (0..games.len()).collect();
            order.shuffle(&mut StdRng::seed_from_u64(i as u64));
            order.truncate(o.games_per_watcher.clamp(1, games.len()));
            order.iter().for_each(|g| pickers[*g] += 1);
            order.iter().map(|g| games[*g].id.clone()).collect()
        })
        .collect();
    let sent: Sent = Arc::default();
    let phases = Phases::new(&pids);
    let grace = Duration::from_millis(2 * o.hold_ms) + Duration::from_secs(5);
    let ramp = Duration::from_secs(o.ramp_seconds);
    let (ready_tx, ready_rx) = mpsc::unbounded_channel();
    let ((outcomes, lags), measured) = runtime.block_on(async {
        let mut watchers = Vec::new();
        for (i, picked) in picks.into_iter().enumerate() {
            let delay = ramp.mul_f64(i as f64 / o.watchers.max(1) as f64);
            let task = watcher(
                server.base.clone(),
                i,
                picked,
                sent.clone(),
                phases.clock(),
                grace,
                ready_tx.clone(),
            );
            watchers.push(tokio::spawn(async move {
                tokio::time::sleep(delay).await;
                task.await
            }));
        }
        drop(ready_tx);
        let clock = phases.clock();
        let done = async {
            let outcomes = post_seeks(&o, &server.base, clock, &games, sent.clone()).await;
            let mut lags = Vec::new();
            for w in watchers {
                lags.extend(w.await.expect("a watcher"));
            }
            (outcomes, lags)
        };
        phases.run(o.watchers, ready_rx, o.seconds, done).await
    });
    if o.timeline {
        let requests: Vec<Sample> = outcomes
            .iter()
            .flat_map(|(_, out)| out.requests.iter().copied())
            .collect();
        print_timeline(measured.window.start, &lags, &requests);
    }
    report(&o, &outcomes, &pickers, &lags, &measured);
}

/// Per change (its deliveries share the send time): the lag of its first
/// delivery, and the spread from its first to its last (the fan-out), in
/// microseconds, each sorted.
fn first_and_spread(lags: &[Sample]) -> (Vec<u64>, Vec<u64>) {
    let mut per_change: HashMap<Instant, (u64, u64)> = HashMap::new();
    for s in lags {
        let e = per_change.entry(s.at).or_insert((s.micros, s.micros));
        *e = (e.0.min(s.micros), e.1.max(s.micros));
    }
    let mut first: Vec<u64> = per_change.values().map(|(lo, _)| *lo).collect();
    let mut spread: Vec<u64> = per_change.values().map(|(lo, hi)| hi - lo).collect();
    first.sort_unstable();
    spread.sort_unstable();
    (first, spread)
}

/// Prints the run's figures as one JSON line.
fn report(
    o: &Options,
    outcomes: &[(usize, Outcome)],
    pickers: &[usize],
    lags: &[Sample],
    measured: &common::Measured,
) {
    let expected: usize = outcomes
        .iter()
        .map(|(g, out)| out.changes * pickers[*g])
        .sum();
    let accepted = outcomes.iter().filter(|(_, out)| out.accepted).count();
    let failed: usize = outcomes.iter().map(|(_, out)| out.failed).sum();
    let mut requests: Vec<u64> = outcomes
        .iter()
        .flat_map(|(_, out)| out.requests.iter().map(|s| s.micros))
        .collect();
    requests.sort_unstable();
    let (first, spread) = first_and_spread(lags);
    let mut lags: Vec<u64> = lags.iter().map(|s| s.micros).collect();
    lags.sort_unstable();
    let elapsed = measured.elapsed.as_secs_f64();
    let line = json!({
        "watchers": o.watchers,
        "games_per_watcher": o.games_per_watcher,
        "seeks_per_minute": o.seeks_per_minute,
        "ramp_up_s": round1(measured.ramp_up.as_secs_f64()),
        "ramp_up_server_cpu_s": round1(measured.ramp_cpu / 1000.0),
        "watchers_ready": measured.ready,
        "seconds": round1(elapsed),
        "seeks": outcomes.len(),
        "accepted": accepted,
        "withdrawn_or_failed": outcomes.len() - accepted,
        "requests_failed": failed,
        "request_p50_ms": round1(percentile(&requests, 0.5)),
        "request_p99_ms": round1(percentile(&requests, 0.99)),
        "deliveries": lags.len(),
        "deliveries_expected": expected,
        "lag_p50_ms": round1(percentile(&lags, 0.5)),
        "lag_p99_ms": round1(percentile(&lags, 0.99)),
        "lag_max_ms": round1(percentile(&lags, 1.0)),
        "changes": first.len(),
        "first_delivery_p50_ms": round1(percentile(&first, 0.5)),
        "first_delivery_p99_ms": round1(percentile(&first, 0.99)),
        "fan_out_p50_ms": round1(percentile(&spread, 0.5)),
        "fan_out_p99_ms": round1(percentile(&spread, 0.99)),
        "messages": MESSAGES.load(Ordering::Relaxed),
        "mib_received": round1(BYTES.load(Ordering::Relaxed) as f64 / 1048576.0),
        "reconnects": RECONNECTS.load(Ordering::Relaxed),
        "refused": REFUSED.load(Ordering::Relaxed),
        "resnapshots": RESNAPSHOTS.load(Ordering::Relaxed),
        "server_cpu_cores": round2(measured.cpu / 1000.0 / elapsed),
        "bench_cpu_cores": round2(measured.own_cpu / 1000.0 / elapsed),
        "server_rss_mib": measured.middle_rss.round(),
        "server_peak_rss_mib": measured.peak_rss.round(),
        "load_average": load_average(),
    });
    println!("{line}");
}

fn round1(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}
