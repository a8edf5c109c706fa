//! What the load benchmarks share: their command-line flags, the measured
//! window, WebSocket clients with a small read buffer, the server's CPU time
//! and memory from /proc, and percentiles of latency samples.

use futures_util::StreamExt;
use std::collections::HashMap;
use std::time::{Duration, Instant};
use tokio::sync::{mpsc, watch};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;

/// The benchmark's flags: `--name value`, or `--name` alone (a switch).
pub struct Args(HashMap<String, Option<String>>);

impl Args {
    /// The flags after the program's name (cargo adds `--bench`): a flag
    /// followed by another flag, or last, is a switch.
    pub fn from_env() -> Args {
        let args: Vec<String> = std::env::args().skip(1).collect();
        let mut flags = HashMap::new();
        let mut i = 0;
        while i < args.len() {
            let value = args.get(i + 1).filter(|v| !v.starts_with("--"));
            flags.insert(args[i].clone(), value.cloned());
            i += if value.is_some() { 2 } else { 1 };
        }
        Args(flags)
    }

    /// The value of `--name`, parsed, or `default`; panics on a bad value.
    pub fn get<T: std::str::FromStr>(&self, name: &str, default: T) -> T {
        match self.0.get(name) {
            Some(Some(v)) => v
                .parse()
                .unwrap_or_else(|_| panic!("{name}: bad value {v}")),
            Some(None) => panic!("{name} needs a value"),
            None => default,
        }
    }

    /// The value of `--name`, if given.
    pub fn text(&self, name: &str) -> Option<String> {
        self.0.get(name).cloned().flatten()
    }

    /// Whether the switch `--name` is given.
    pub fn switch(&self, name: &str) -> bool {
        self.0.contains_key(name)
    }
}

/// A latency in microseconds, and when it began.
#[derive(Clone, Copy)]
pub struct Sample {
    pub at: Instant,
    pub micros: u64,
}

/// The measured window: it starts when every client of the ramp-up is ready.
#[derive(Clone, Copy)]
pub struct Window {
    pub start: Instant,
    pub end: Instant,
}

/// The measured window, once the ramp-up is over.
#[derive(Clone)]
pub struct Clock(pub watch::Receiver<Option<Window>>);

impl Clock {
    /// Waits for the end of the ramp-up; returns the measured window.
    pub async fn window(&mut self) -> Window {
        let window = *self.0.wait_for(Option::is_some).await.expect("the clock");
        window.expect("a window")
    }

    /// Waits until `grace` after the end of the measured window.
    pub async fn ended(mut self, grace: Duration) {
        let end = self.window().await.end + grace;
        tokio::time::sleep_until(tokio::time::Instant::from_std(end)).await;
    }

    /// Whether the measured window has begun and is over.
    pub fn over(&self) -> bool {
        self.0.borrow().is_some_and(|w| Instant::now() >= w.end)
    }
}

/// What a run measured apart from its samples: the ramp-up and the
/// measured window (CPU times in milliseconds, memory in MiB).
pub struct Measured {
    pub window: Window,
    pub ready: usize,
    pub ramp_up: Duration,
    pub ramp_cpu: f64,
    pub elapsed: Duration,
    pub cpu: f64,
    pub own_cpu: f64,
    /// The servers' resident memory in the middle of the window.
    pub middle_rss: f64,
    /// The servers' peak resident memory at the end.
    pub peak_rss: f64,
    /// The database's CPU time in the window (0 unless counted, see
    /// [`Phases::count_db_cpu`]).
    pub db_cpu: f64,
}

/// The two phases of a run: the ramp-up (from [`Phases::new`]) while the
/// clients connect, then the measured window, opened for every client at
/// once through [`Phases::clock`].
pub struct Phases {
    pids: Vec<u32>,
    started: Instant,
    ramp_cpu_before: f64,
    window: watch::Sender<Option<Window>>,
    db_cpu: Option<Box<dyn Fn() -> f64 + Send>>,
}

impl Phases {
    /// Starts the ramp-up of a run against the server processes `pids`.
    pub fn new(pids: &[u32]) -> Phases {
        Phases {
            pids: pids.to_vec(),
            started: Instant::now(),
            ramp_cpu_before: cpu_ms_all(pids),
            window: watch::channel(None).0,
            db_cpu: None,
        }
    }

    /// Counts the database's CPU time (milliseconds so far, from `cpu_ms`)
    /// over the measured window too.
    pub fn count_db_cpu(&mut self, cpu_ms: impl Fn() -> f64 + Send + 'static) {
        self.db_cpu = Some(Box::new(cpu_ms));
    }

    /// When the ramp-up began.
    pub fn started(&self) -> Instant {
        self.started
    }

    /// The clock the clients wait on for the measured window.
    pub fn clock(&self) -> Clock {
        Clock(self.window.subscribe())
    }

    /// Waits until `expected` clients said they are ready (or every sender
    /// is gone), opens the measured window of `seconds`, and waits for
    /// `done` (the clients' results), measuring the servers' CPU time and
    /// memory and the bench's own CPU time.
    pub async fn run<T>(
        self,
        expected: usize,
        mut ready: mpsc::UnboundedReceiver<()>,
        seconds: u64,
        done: impl Future<Output = T>,
    ) -> (T, Measured) {
        let mut count = 0;
        while count < expected && ready.recv().await.is_some() {
            count += 1;
        }
        let ramp_up = self.started.elapsed();
        let cpu_before = cpu_ms_all(&self.pids);
        let db_cpu = || self.db_cpu.as_ref().map_or(0.0, |f| f());
        let db_before = db_cpu();
        let own_before = cpu_ms(std::process::id()).unwrap_or(0.0);
        let start = Instant::now();
        let window = Window {
            start,
            end: start + Duration::from_secs(seconds),
        };
        self.window.send_replace(Some(window));
        let sampled = self.pids.clone();
        let middle = start + Duration::from_secs(seconds) / 2;
        let sampler = tokio::spawn(async move {
            tokio::time::sleep_until(tokio::time::Instant::from_std(middle)).await;
            memory_all(&sampled)
        });
        let results = done.await;
        let measured = Measured {
            window,
            ready: count,
            ramp_up,
            ramp_cpu: cpu_before - self.ramp_cpu_before,
            elapsed: start.elapsed(),
            cpu: cpu_ms_all(&self.pids) - cpu_before,
            own_cpu: cpu_ms(std::process::id()).unwrap_or(0.0) - own_before,
            middle_rss: sampler.await.unwrap_or_default().0,
            peak_rss: memory_all(&self.pids).1,
            db_cpu: db_cpu() - db_before,
        };
        (results, measured)
    }
}

/// The bench's runtime, with the open-file limit raised to the hard limit
/// (every client is a connection; the server started later inherits it).
pub fn runtime() -> tokio::runtime::Runtime {
    let _ = rlimit::increase_nofile_limit(u64::MAX);
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("a runtime")
}

/// Milliseconds of CPU time (user + system) a process has used, from /proc.
pub fn cpu_ms(pid: u32) -> Option<f64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let fields: Vec<&str> = stat.rsplit(')').next()?.split_whitespace().collect();
    let ticks: f64 = fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?;
    Some(ticks * 10.0)
}

/// Milliseconds of CPU time the processes `pids` have used together.
pub fn cpu_ms_all(pids: &[u32]) -> f64 {
    pids.iter().filter_map(|p| cpu_ms(*p)).sum()
}

/// Memory of a process from /proc: (resident now, peak resident) in MiB.
pub fn memory_mib(pid: u32) -> (f64, f64) {
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

/// Memory of the processes `pids` together: (resident now, peak) in MiB.
pub fn memory_all(pids: &[u32]) -> (f64, f64) {
    pids.iter()
        .map(|p| memory_mib(*p))
        .fold((0.0, 0.0), |a, m| (a.0 + m.0, a.1 + m.1))
}

/// The machine's load average over the last minute.
pub fn load_average() -> String {
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    load.split_whitespace().next().unwrap_or("?").to_string()
}

/// A client WebSocket.
pub type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// Opens a WebSocket with a small read buffer: the library's default (128
/// KiB, cleared at every read) would make the bench's thousands of clients
/// cost more than the server.
pub async fn connect(url: String) -> Result<Socket, tokio_tungstenite::tungstenite::Error> {
    let config = WebSocketConfig::default().read_buffer_size(4 * 1024);
    let (socket, _) =
        tokio_tungstenite::connect_async_with_config(url, Some(config), false).await?;
    Ok(socket)
}

/// What [`next_text`] got.
pub enum Next {
    /// A text message.
    Text(tokio_tungstenite::tungstenite::Utf8Bytes),
    /// The socket closed or failed.
    Closed,
    /// `ended` came first.
    Ended,
}

/// The next text message of `socket` (other frames skipped), unless it
/// closes or `ended` comes first.
pub async fn next_text<F: Future>(socket: &mut Socket, ended: &mut std::pin::Pin<&mut F>) -> Next {
    loop {
        let message = tokio::select! {
            _ = ended.as_mut() => return Next::Ended,
            message = socket.next() => message,
        };
        match message {
            Some(Ok(Message::Text(text))) => return Next::Text(text),
            Some(Ok(_)) => continue,
            Some(Err(_)) | None => return Next::Closed,
        }
    }
}

/// The `p` quantile (0 to 1) of sorted microseconds, in milliseconds.
pub fn percentile(sorted: &[u64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() - 1) as f64 * p).round() as usize;
    sorted[i] as f64 / 1000.0
}

/// The samples' microseconds per second of the run (by when each began,
/// counted from `start`), each second sorted.
pub fn by_second(start: Instant, samples: &[Sample]) -> Vec<Vec<u64>> {
    let mut seconds: Vec<Vec<u64>> = Vec::new();
    for s in samples {
        let i = s.at.saturating_duration_since(start).as_secs() as usize;
        if seconds.len() <= i {
            seconds.resize(i + 1, Vec::new());
        }
        seconds[i].push(s.micros);
    }
    for second in &mut seconds {
        second.sort_unstable();
    }
    seconds
}

/// Per second of the run (by when the request was sent), on standard
/// error: the actions sent, their p50/p99/max latency, and the spectators'
/// p99/max event lag, to tell steady queueing from stalls.
pub fn print_timeline(start: Instant, latencies: &[Sample], lags: &[Sample]) {
    let actions = by_second(start, latencies);
    let lags = by_second(start, lags);
    eprintln!("second actions p50_ms p99_ms max_ms lag_p99_ms lag_max_ms");
    for (i, a) in actions.iter().enumerate() {
        let l = lags.get(i).map_or(&[][..], |l| &l[..]);
        eprintln!(
            "{i} {} {:.1} {:.1} {:.1} {:.1} {:.1}",
            a.len(),
            percentile(a, 0.5),
            percentile(a, 0.99),
            percentile(a, 1.0),
            percentile(l, 0.99),
            percentile(l, 1.0),
        );
    }
}
