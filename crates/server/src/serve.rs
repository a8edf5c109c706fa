//! Starting and stopping the server: arguments, logging, database, reload of
//! unfinished tables, the HTTP listener and graceful shutdown.

use crate::api::{AppState, router};
use crate::hub::Hub;
use crate::limits::{Limits, RateLimiter};
use crate::store::SqliteStore;
use anyhow::{Context, Result};
use std::io::Write;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpListener;

/// How long finished tables nobody watches stay in memory.
const IDLE_EVICTION: Duration = Duration::from_secs(600);

/// How long shutdown waits for AI moves in progress.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(5);

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
    /// The SQLite database file, created and migrated on first start.
    #[arg(long, default_value = "spelbord.db")]
    pub db: PathBuf,
    /// HTTP requests per second allowed on one connection (0: no limit).
    #[arg(long, default_value_t = 20.0)]
    pub rate_limit: f64,
    /// Requests one connection may make in a burst.
    #[arg(long, default_value_t = 40.0)]
    pub rate_burst: f64,
    /// AI moves computed at once (default: the number of cores).
    #[arg(long)]
    pub ai_workers: Option<usize>,
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
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?
        .block_on(async {
            let listener = TcpListener::bind(args.addr)
                .await
                .with_context(|| format!("cannot listen on {}", args.addr))?;
            serve(args, listener, shutdown_signal()).await
        })
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
    let store = SqliteStore::open(&args.db)
        .await
        .with_context(|| format!("cannot open the database {}", args.db.display()))?;
    let workers = args.ai_workers.unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(2)
    });
    let hub = Hub::new(Arc::new(store), workers);
    let reloaded = hub.reload().await.context("cannot reload the tables")?;
    let limits = Limits {
        rate: args.rate_limit,
        burst: args.rate_burst,
        ..Limits::default()
    };
    let state = AppState {
        hub: hub.clone(),
        rate: Arc::new(RateLimiter::new(limits.rate, limits.burst)),
        limits: Arc::new(limits),
    };
    let addr = listener.local_addr()?;
    tracing::info!(%addr, db = %args.db.display(), reloaded, "spelbord server listening");
    // One line on standard output says where to connect (tests read it).
    println!("spelbord serve: listening on http://{addr}");
    let _ = std::io::stdout().flush();
    let sweeper = {
        let hub = hub.clone();
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(Duration::from_secs(60)).await;
                hub.evict_idle(IDLE_EVICTION).await;
            }
        })
    };
    let stopping = {
        let hub = hub.clone();
        async move {
            stop.await;
            tracing::info!("shutting down");
            hub.begin_shutdown();
        }
    };
    axum::serve(
        listener,
        router(state).into_make_service_with_connect_info::<SocketAddr>(),
    )
    .with_graceful_shutdown(stopping)
    .await
    .context("the HTTP server failed")?;
    sweeper.abort();
    hub.shut_down(SHUTDOWN_GRACE).await;
    tracing::info!("stopped");
    Ok(())
}
