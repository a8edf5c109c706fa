//! Starting and stopping the server: arguments, logging, database, reload of
//! unfinished tables, the HTTP listener and graceful shutdown.

use crate::api::{AppState, router};
use crate::cluster::Cluster;
use crate::hub::Hub;
use crate::limits::{Clients, Counter, ForwardedHeader, Limits, RateLimiter, RefusalLog};
use crate::listen::{connections_for, raise_open_file_limit, serve_connections};
use crate::origin::{Origins, PublicOrigin};
use crate::store::{
    AccountStore, LobbyStore, PgStore, RatingStore, SqliteStore, Store, is_postgres_url,
};
use anyhow::{Context, Result};
use std::io::Write;
use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpListener;
use tokio::task::JoinHandle;

/// How long tables nobody watches or touches stay in memory.
const IDLE_EVICTION: Duration = Duration::from_secs(600);

/// The interval of a client's refusals counted into one log line.
const REFUSAL_LOG_INTERVAL: Duration = Duration::from_secs(10);

/// How long shutdown waits for requests and AI moves in progress.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(3);

/// The format of the log lines (on standard error).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum LogFormat {
    /// Human-readable lines with key=value fields.
    Text,
    /// One JSON object per line.
    Json,
}

/// Options of `spelbord serve`.
#[derive(clap::Args, Debug, Clone)]
pub struct ServeArgs {
    /// Address to listen on (port 0: any free port; the address is printed).
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub addr: SocketAddr,
    /// The database: a SQLite file (created and migrated on first start) or
    /// a PostgreSQL URL, `postgres://USER@HOST:PORT/DATABASE` (migrated on start).
    #[arg(long, default_value = "spelbord.db")]
    pub db: String,
    /// HTTP requests (WebSocket upgrades included) per second allowed from
    /// one client address (0: no limit).
    #[arg(long, default_value_t = 20.0)]
    pub rate_limit: f64,
    /// Requests one address may make in a burst.
    #[arg(long, default_value_t = 40.0)]
    pub rate_burst: f64,
    /// Tables one address may create per second (0: no limit).
    #[arg(long, default_value_t = 0.2)]
    pub create_limit: f64,
    /// Tables one address may create in a burst.
    #[arg(long, default_value_t = 10.0)]
    pub create_burst: f64,
    /// Unfinished tables one address may have created (0: no limit).
    #[arg(long, default_value_t = 20)]
    pub max_open_tables: usize,
    /// WebSocket viewers of one table.
    #[arg(long, default_value_t = 64)]
    pub max_watchers_per_table: usize,
    /// WebSocket viewers from one address (0: no limit).
    #[arg(long, default_value_t = 64)]
    pub max_watchers_per_address: usize,
    /// WebSocket viewers in all.
    #[arg(long, default_value_t = 20_000)]
    pub max_watchers: usize,
    /// Open connections from one address (0: no limit); the total is set by
    /// the open-file limit.
    #[arg(long, default_value_t = 256)]
    pub max_connections_per_address: usize,
    /// Bits of an IPv6 address that make one client for the limits per
    /// address: every address of one network of this prefix shares them
    /// (0..=128; IPv4 addresses are limited one by one).
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u8).range(0..=128))]
    pub ipv6_prefix: u8,
    /// A reverse proxy (an address, or a network like 10.0.0.0/8; repeat
    /// for several) whose forwarded client address is believed; from any
    /// other peer the forwarded headers are ignored.
    #[arg(long = "trusted-proxy", value_name = "ADDRESS_OR_NETWORK", value_parser = crate::limits::parse_network)]
    pub trusted_proxies: Vec<ipnet::IpNet>,
    /// The header the trusted proxies put the client's address in (the
    /// other one is ignored: a client could have sent it).
    #[arg(long, value_enum, default_value_t = ForwardedHeader::XForwardedFor)]
    pub forwarded_header: ForwardedHeader,
    /// An origin the server is reached at, e.g. `https://example.org`
    /// (repeat for several): requests naming another `Host` are refused
    /// (421), and WebSocket upgrades from its pages are allowed. Unset: any
    /// `Host` is answered.
    #[arg(long = "public-origin", value_name = "ORIGIN")]
    pub public_origins: Vec<PublicOrigin>,
    /// Marks the session cookie `Secure` on every answer (the server is
    /// reached over HTTPS only); without it, only when a trusted proxy says
    /// the request came over HTTPS.
    #[arg(long)]
    pub secure_cookies: bool,
    /// Seconds a client has to send a request's headers, and the longest
    /// idle time between requests on one connection.
    #[arg(long, default_value_t = 10)]
    pub header_timeout: u64,
    /// Seconds between the server's pings to a WebSocket viewer.
    #[arg(long, default_value_t = 20)]
    pub ws_ping_interval: u64,
    /// Seconds after which a WebSocket viewer that sent nothing (not even a
    /// pong) is closed.
    #[arg(long, default_value_t = 60)]
    pub ws_dead_peer: u64,
    /// AI moves computed at once (default: the number of cores).
    #[arg(long)]
    pub ai_workers: Option<usize>,
    /// The most of those AI workers (and hint searches) one client address
    /// holds at once (default: half of `--ai-workers`, rounded up).
    #[arg(long)]
    pub ai_workers_per_address: Option<usize>,
    /// Games analysed at once in the background (one core each).
    #[arg(long, default_value_t = 1)]
    pub analysis_workers: usize,
    /// Games that may wait for an analysis worker; more are refused
    /// (`analysis_busy`).
    #[arg(long, default_value_t = 16)]
    pub analysis_queue: usize,
    /// The analyser of every game's analyses (a level or an agent spec; by
    /// default `expert` in backgammon and Tawla, `hard` elsewhere).
    #[arg(long)]
    pub analysis_level: Option<String>,
    /// With PostgreSQL: the address other nodes reach this one at, e.g.
    /// `http://10.0.0.5:8080` (default: `http://` and the listening address,
    /// 127.0.0.1 for an unspecified one).
    #[arg(long)]
    pub node_addr: Option<String>,
    /// A route name (1 to 16 lower-case letters and digits, e.g. `n1`) put
    /// into the ids of the tables this node makes (`n1-…`), so that a proxy
    /// can send their requests to this node; distinct for every node.
    #[arg(long)]
    pub route: Option<crate::token::Route>,
    /// With PostgreSQL: seconds after a node's last heartbeat when other
    /// nodes take its tables over (it renews the heartbeat four times as often).
    #[arg(long, default_value_t = 3.0)]
    pub lease: f64,
    /// Milliseconds a seek's owner (or a queued player) may be without a
    /// lobby socket before the seek is withdrawn (the player leaves the queue).
    #[arg(long, default_value_t = 20_000, hide = true)]
    pub lobby_grace_ms: u64,
    /// Seconds a seek stays open at most.
    #[arg(long, default_value_t = 1800, hide = true)]
    pub seek_lifetime: u64,
    /// Log format; the level comes from RUST_LOG (default `info`).
    #[arg(long, value_enum, default_value_t = LogFormat::Text)]
    pub log_format: LogFormat,
}

fn init_logging(format: LogFormat) {
    use tracing_subscriber::EnvFilter;
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr);
    // A second initialisation (tests, embedding) is harmless: keep the first.
    let _ = match format {
        LogFormat::Text => builder.try_init(),
        LogFormat::Json => builder.json().try_init(),
    };
}

/// Runs the server until Ctrl-C or SIGTERM (blocking; builds its runtime).
pub fn run(args: ServeArgs) -> Result<()> {
    init_logging(args.log_format);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    let result = runtime.block_on(async {
        let listener = TcpListener::bind(args.addr)
            .await
            .with_context(|| format!("cannot listen on {}", args.addr))?;
        serve(args, listener, shutdown_signal()).await
    });
    // An AI move still thinking in a blocking thread is not waited for: its
    // result could no longer be stored anyway.
    runtime.shutdown_timeout(Duration::from_millis(200));
    result
}

/// Resolves on Ctrl-C or SIGTERM.
async fn shutdown_signal() {
    let interrupt = tokio::signal::ctrl_c();
    #[cfg(unix)]
    {
        let mut term =
            tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()).ok();
        let terminate = async {
            match term.as_mut() {
                Some(t) => {
                    t.recv().await;
                }
                None => std::future::pending().await,
            }
        };
        tokio::select! {
            _ = interrupt => {}
            _ = terminate => {}
        }
    }
    #[cfg(not(unix))]
    {
        let _ = interrupt.await;
    }
}

/// Serves on `listener` until `stop` resolves, then shuts down gracefully:
/// no new changes, viewers told to reconnect, AI moves finished, store closed.
pub async fn serve(
    args: ServeArgs,
    listener: TcpListener,
    stop: impl Future<Output = ()> + Send + 'static,
) -> Result<()> {
    let addr = listener.local_addr()?;
    let stores = open_stores(&args, addr).await?;
    let accounts = Arc::new(
        crate::accounts::Accounts::new(stores.accounts, args.secure_cookies)
            .context("cannot set up password hashing")?,
    );
    let analyses = crate::analysis::AnalysisPool::start(
        stores.tables.clone(),
        args.analysis_workers,
        args.analysis_queue,
        args.analysis_level.clone(),
    );
    let lobby = crate::lobby::Lobby::new(
        stores.lobby,
        stores.cluster.as_ref().map(|c| c.pool().clone()),
        Duration::from_millis(args.lobby_grace_ms.max(100)),
        Duration::from_secs(args.seek_lifetime.max(1)),
        stores.node,
    );
    let hub = Hub::new(stores.tables, thinking_workers(&args));
    if let Some(route) = args.route.clone() {
        hub.set_route(route);
    }
    let node_tasks = start_node(&hub, stores.cluster);
    let reloaded = hub
        .reload(IDLE_EVICTION)
        .await
        .context("cannot reload the tables")?;
    // Finished rated tables not rated yet (this node or another stopped
    // before rating them) are rated now, then each second those of the
    // last hour, and all of them again each hour.
    let rating_store = stores.ratings;
    crate::rated::rate_pending(&**hub.store(), &*rating_store, 0).await;
    let open_files = raise_open_file_limit();
    let limits = limits_of(&args, open_files);
    hub.set_max_open_tables(limits.max_open_tables_per_address);
    let state = AppState {
        hub: hub.clone(),
        analyses,
        rate: Arc::new(RateLimiter::new(limits.rate, limits.burst)),
        creates: Arc::new(RateLimiter::new(limits.create_rate, limits.create_burst)),
        watchers: Counter::new(limits.max_watchers_per_address, limits.max_watchers),
        limits: Arc::new(limits),
        refusals: Arc::new(RefusalLog::new(REFUSAL_LOG_INTERVAL)),
        origins: Arc::new(Origins(args.public_origins.clone())),
        accounts,
        ratings: rating_store.clone(),
        lobby,
    };
    let lobby_tasks = crate::api::start_lobby(state.clone());
    tracing::info!(%addr, db = %db_label(&args.db), reloaded, open_files, "spelbord server listening");
    // One line on standard output says where to connect (tests read it).
    println!("spelbord serve: listening on http://{addr}");
    let _ = std::io::stdout().flush();
    let timers = start_timers(&hub, &state.refusals, rating_store);
    let stop_rx = begin_shutdown_on(stop, &hub);
    let app = router(state.clone());
    serve_connections(
        listener,
        app,
        &state.limits,
        state.refusals.clone(),
        stop_rx,
        SHUTDOWN_GRACE,
    )
    .await;
    for task in timers.into_iter().chain(node_tasks).chain(lobby_tasks) {
        task.abort();
    }
    hub.shut_down(SHUTDOWN_GRACE).await;
    tracing::info!("stopped");
    Ok(())
}

/// The stores of one database (SQLite, or PostgreSQL shared by a group
/// of nodes), and the group this node joined there.
struct Stores {
    tables: Arc<dyn Store>,
    accounts: Arc<dyn AccountStore>,
    ratings: Arc<dyn RatingStore>,
    lobby: Arc<dyn LobbyStore>,
    /// The group of nodes (PostgreSQL only).
    cluster: Option<Arc<Cluster>>,
    /// This node's name in the group (`local` on SQLite).
    node: String,
}

/// Opens the database of `args`; on PostgreSQL joins its group of nodes,
/// as the node reached at `--node-addr` (else at `addr`, the listener's).
async fn open_stores(args: &ServeArgs, addr: SocketAddr) -> Result<Stores> {
    if !is_postgres_url(&args.db) {
        let store = SqliteStore::open(Path::new(&args.db))
            .await
            .with_context(|| format!("cannot open the database {}", args.db))?;
        return Ok(Stores {
            accounts: Arc::new(store.clone()),
            ratings: Arc::new(store.clone()),
            lobby: Arc::new(store.clone()),
            tables: Arc::new(store),
            cluster: None,
            node: "local".to_string(),
        });
    }
    let lease = Duration::from_secs_f64(args.lease.clamp(0.5, 600.0));
    let store = PgStore::open_leased(&args.db, Some(lease))
        .await
        .context("cannot open the PostgreSQL database")?;
    let node_addr = args.node_addr.clone().unwrap_or_else(|| {
        let ip = if addr.ip().is_unspecified() {
            std::net::IpAddr::from([127, 0, 0, 1])
        } else {
            addr.ip()
        };
        format!("http://{}", SocketAddr::new(ip, addr.port()))
    });
    let cluster = Arc::new(
        Cluster::join(&store, node_addr, args.route.as_ref(), lease)
            .await
            .context("cannot join the nodes of the database")?,
    );
    Ok(Stores {
        accounts: Arc::new(store.clone()),
        ratings: Arc::new(store.clone()),
        lobby: Arc::new(store.clone()),
        node: store.node().to_string(),
        tables: Arc::new(store),
        cluster: Some(cluster),
    })
}

/// Makes `hub` a node of `cluster` (if the database has a group of nodes)
/// and starts the node's tasks there.
fn start_node(hub: &Arc<Hub>, cluster: Option<Arc<Cluster>>) -> Vec<JoinHandle<()>> {
    match cluster {
        Some(cluster) => {
            hub.set_cluster(cluster.clone());
            crate::cluster::start(cluster, hub.clone(), IDLE_EVICTION)
        }
        None => Vec::new(),
    }
}

/// The slots for AI moves and hints: `--ai-workers` (else one per CPU),
/// at most `--ai-workers-per-address` of them for one address.
fn thinking_workers(args: &ServeArgs) -> crate::thinking::Workers {
    let workers = args.ai_workers.unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(2)
    });
    let mut thinking = crate::thinking::Workers::new(workers);
    if let Some(per_address) = args.ai_workers_per_address {
        thinking.per_owner = per_address.clamp(1, thinking.expensive);
    }
    thinking
}

/// The limits `args` set; the connections are capped by `open_files`.
fn limits_of(args: &ServeArgs, open_files: u64) -> Limits {
    Limits {
        rate: args.rate_limit,
        burst: args.rate_burst,
        create_rate: args.create_limit,
        create_burst: args.create_burst,
        max_open_tables_per_address: args.max_open_tables,
        max_watchers_per_table: args.max_watchers_per_table,
        max_watchers_per_address: args.max_watchers_per_address,
        max_watchers: args.max_watchers,
        max_connections_per_address: args.max_connections_per_address,
        max_connections: connections_for(open_files),
        header_timeout: Duration::from_secs(args.header_timeout.max(1)),
        body_timeout: Duration::from_secs(args.header_timeout.max(1)),
        ws_ping_interval: Duration::from_secs(args.ws_ping_interval.max(1)),
        ws_dead_peer: Duration::from_secs(args.ws_dead_peer.max(1)),
        clients: Clients {
            ipv6_prefix: args.ipv6_prefix,
            trusted_proxies: args.trusted_proxies.clone(),
            header: args.forwarded_header,
        },
        ..Limits::default()
    }
}

/// Starts the node's timers: each second the refusal log, the inactivity
/// rules and the rating of finished tables (a minute: idle tables leave
/// memory); each tenth of a second fallen flags; the health probe.
fn start_timers(
    hub: &Arc<Hub>,
    refusals: &Arc<RefusalLog>,
    ratings: Arc<dyn RatingStore>,
) -> Vec<JoinHandle<()>> {
    let sweeper = {
        let hub = hub.clone();
        let refusals = refusals.clone();
        tokio::spawn(async move {
            let mut tick = 0u64;
            loop {
                tokio::time::sleep(Duration::from_secs(1)).await;
                refusals.flush();
                hub.enforce_inactivity().await;
                let since = if tick.is_multiple_of(3600) {
                    0
                } else {
                    crate::store::unix_now() - 3600
                };
                crate::rated::rate_pending(&**hub.store(), &*ratings, since).await;
                tick += 1;
                if tick.is_multiple_of(60) {
                    hub.evict_idle(IDLE_EVICTION).await;
                }
            }
        })
    };
    // Flags fall within a tenth of a second of their time (only the tables
    // past their deadline are locked).
    let flags = {
        let hub = hub.clone();
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(Duration::from_millis(100)).await;
                if hub.stopping() {
                    return;
                }
                hub.enforce_clocks().await;
            }
        })
    };
    let prober = {
        let hub = hub.clone();
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(crate::health::PROBE_INTERVAL).await;
                if hub.stopping() {
                    return;
                }
                hub.health().probe(&**hub.store()).await;
            }
        })
    };
    vec![sweeper, flags, prober]
}

/// When `stop` resolves, the hub stops taking changes and the returned
/// receiver turns `true` (the listener then stops).
fn begin_shutdown_on(
    stop: impl Future<Output = ()> + Send + 'static,
    hub: &Arc<Hub>,
) -> tokio::sync::watch::Receiver<bool> {
    let (stopped, stop_rx) = tokio::sync::watch::channel(false);
    let hub = hub.clone();
    tokio::spawn(async move {
        stop.await;
        tracing::info!("shutting down");
        hub.begin_shutdown();
        let _ = stopped.send(true);
    });
    stop_rx
}

/// The database for the log: a file's path, or a URL without its password.
fn db_label(db: &str) -> String {
    match db.split_once("://") {
        Some((scheme, rest)) => match rest.rsplit_once('@') {
            Some((_, host)) => format!("{scheme}://{host}"),
            None => db.to_string(),
        },
        None => db.to_string(),
    }
}
