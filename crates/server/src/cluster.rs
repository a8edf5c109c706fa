//! Several server nodes on one PostgreSQL database.
//!
//! Every node registers itself in `nodes` with its address and renews a
//! heartbeat there. Each unfinished table has one owner node
//! (`game_tables.owner`): only the owner keeps the table live, runs its AI
//! and inactivity rule, and writes it (the store refuses writes of any other
//! node). Any node takes any request: a request for a table owned by a live
//! node is forwarded to it over HTTP; a table whose owner's heartbeat has
//! lapsed (or that has none) is taken over by the node the request reached.
//! Every node also takes over the tables of dead nodes every second, so
//! their AI seats play on. Every write announces the table on its own
//! LISTEN/NOTIFY channel ([`table_channel`]), on which only the nodes that
//! hold the table in memory listen: those that keep a copy for WebSocket
//! viewers bring it up to date from the database. (With one channel for
//! all tables every node read every other node's writes: the CPU per
//! action grew with the number of nodes.)

use crate::api::AppState;
use crate::error::ApiError;
use crate::hub::{Held, Hub};
use crate::store::{PgStore, StoreError, table_channel};
use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderValue, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::TokioExecutor;
use sqlx::Row;
use sqlx::postgres::{PgListener, PgPool};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};
use tokio::sync::mpsc;

/// The header that marks a request forwarded by another node (its value is
/// the nodes' shared secret).
const FORWARDED: &str = "x-spelbord-forwarded";

/// The header in which a forwarding node names the request's client
/// (believed only with the `FORWARDED` secret).
pub const NODE_CLIENT: &str = "x-spelbord-client";

/// Tables of dead nodes taken over at once by one node.
const TAKEOVER_BATCH: i64 = 200;

/// This node's part in a group of nodes on one database.
pub struct Cluster {
    pool: PgPool,
    node: String,
    addr: String,
    secret: String,
    lease: Duration,
    client: Client<HttpConnector, Body>,
    /// This node's route (`--route`), if it has one.
    route: Option<String>,
    /// Requests forwarded to another node (a second hop) since the start.
    forwarded: AtomicU64,
    /// Table notifications received since the start.
    notices: AtomicU64,
}

/// Who owns a table.
struct Owner {
    /// The owner's node id (`None`: nobody).
    node: Option<String>,
    /// The owner's address.
    addr: Option<String>,
    /// Whether the owner's heartbeat is fresh.
    alive: bool,
    /// Whether the table is over (then any node may answer from its copy).
    finished: bool,
}

impl Cluster {
    /// Joins the group: registers this node (reachable at `addr`, e.g.
    /// `http://10.0.0.5:8080`, with the route `route`) with a lease of `lease`.
    pub async fn join(
        store: &PgStore,
        addr: String,
        route: Option<&crate::token::Route>,
        lease: Duration,
    ) -> Result<Self, StoreError> {
        let pool = store.pool().clone();
        sqlx::query(
            "INSERT INTO cluster_secret (id, secret) VALUES (1, $1) ON CONFLICT (id) DO NOTHING",
        )
        .bind(crate::token::new_token())
        .execute(&pool)
        .await?;
        let secret: String = sqlx::query("SELECT secret FROM cluster_secret WHERE id = 1")
            .fetch_one(&pool)
            .await?
            .try_get(0)?;
        // An owner cut off from this node is given up on (and tried again
        // until its lease would have lapsed) rather than waited for.
        let mut connector = HttpConnector::new();
        connector.set_connect_timeout(Some(lease));
        let cluster = Cluster {
            pool,
            node: store.node().to_string(),
            addr,
            secret,
            lease,
            client: Client::builder(TokioExecutor::new())
                .pool_idle_timeout(Duration::from_secs(5))
                .build(connector),
            route: route.map(|r| r.name().to_string()),
            forwarded: AtomicU64::new(0),
            notices: AtomicU64::new(0),
        };
        cluster.heartbeat().await?;
        Ok(cluster)
    }

    /// The database's connection pool.
    pub fn pool(&self) -> &PgPool {
        &self.pool
    }

    /// This node's id.
    pub fn node(&self) -> &str {
        &self.node
    }

    /// Requests this node forwarded to another one since it started.
    pub fn forwarded(&self) -> u64 {
        self.forwarded.load(Ordering::Relaxed)
    }

    /// Table notifications this node received since it started.
    pub fn notices(&self) -> u64 {
        self.notices.load(Ordering::Relaxed)
    }

    fn lease_secs(&self) -> f64 {
        self.lease.as_secs_f64()
    }

    /// Renews this node's heartbeat.
    async fn heartbeat(&self) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO nodes (id, addr, heartbeat_at, route) \
             VALUES ($1, $2, clock_timestamp(), $3) \
             ON CONFLICT (id) DO UPDATE SET addr = $2, heartbeat_at = clock_timestamp(), route = $3",
        )
        .bind(&self.node)
        .bind(&self.addr)
        .bind(&self.route)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Who owns table `id`; `None` if there is no such table.
    async fn owner_of(&self, id: &str) -> Result<Option<Owner>, StoreError> {
        let row = sqlx::query(
            "SELECT g.owner, g.finished, n.addr, \
             COALESCE(n.heartbeat_at > clock_timestamp() - make_interval(secs => $2), FALSE) AS alive \
             FROM game_tables g LEFT JOIN nodes n ON n.id = g.owner WHERE g.id = $1",
        )
        .bind(id)
        .bind(self.lease_secs())
        .fetch_optional(&self.pool)
        .await?;
        row.map(|r| {
            Ok(Owner {
                node: r.try_get("owner")?,
                addr: r.try_get("addr")?,
                alive: r.try_get("alive")?,
                finished: r.try_get("finished")?,
            })
        })
        .transpose()
    }

    /// Whether this node owns table `id` in the database now.
    pub async fn owns(&self, id: &str) -> Result<bool, StoreError> {
        Ok(self
            .owner_of(id)
            .await?
            .and_then(|o| o.node)
            .is_some_and(|n| n == self.node))
    }

    /// Takes table `id` over from `previous` (a dead node, or nobody);
    /// false if another node was quicker.
    async fn take_over(&self, id: &str, previous: Option<&str>) -> Result<bool, StoreError> {
        let updated = sqlx::query(
            "UPDATE game_tables SET owner = $1 \
             WHERE id = $2 AND owner IS NOT DISTINCT FROM $3 AND NOT finished",
        )
        .bind(&self.node)
        .bind(id)
        .bind(previous)
        .execute(&self.pool)
        .await?;
        Ok(updated.rows_affected() == 1)
    }

    /// Takes over unfinished tables without a live owner, those routed to
    /// this node first, leaving those routed to another live node to it;
    /// returns those changed since `recent_since` (Unix seconds), to be
    /// loaded now.
    async fn take_over_orphans(&self, recent_since: i64) -> Result<Vec<String>, StoreError> {
        let rows = sqlx::query(
            "UPDATE game_tables SET owner = $1 WHERE id IN ( \
               SELECT g.id FROM game_tables g LEFT JOIN nodes n ON n.id = g.owner \
               WHERE NOT g.finished AND g.owner IS DISTINCT FROM $1 AND (n.id IS NULL \
                 OR n.heartbeat_at < clock_timestamp() - make_interval(secs => $2)) \
               AND (starts_with(g.id, $4 || '-') OR NOT EXISTS (SELECT 1 FROM nodes r \
                 WHERE r.route IS NOT NULL AND starts_with(g.id, r.route || '-') \
                 AND r.heartbeat_at >= clock_timestamp() - make_interval(secs => $2))) \
               ORDER BY starts_with(g.id, $4 || '-') DESC NULLS LAST \
               LIMIT $3 FOR UPDATE OF g SKIP LOCKED) \
             RETURNING id, updated_at",
        )
        .bind(&self.node)
        .bind(self.lease_secs())
        .bind(TAKEOVER_BATCH)
        .bind(&self.route)
        .fetch_all(&self.pool)
        .await?;
        let mut recent = Vec::new();
        for row in rows {
            let updated_at: i64 = row.try_get("updated_at")?;
            if updated_at >= recent_since {
                recent.push(row.try_get("id")?);
            }
        }
        Ok(recent)
    }

    /// Gives up this node's tables and leaves the group (on shutdown), so
    /// that other nodes take them over at once.
    pub async fn leave(&self) {
        let released = sqlx::query("UPDATE game_tables SET owner = NULL WHERE owner = $1")
            .bind(&self.node)
            .execute(&self.pool)
            .await;
        let left = sqlx::query("DELETE FROM nodes WHERE id = $1")
            .bind(&self.node)
            .execute(&self.pool)
            .await;
        if let Err(e) = released.and(left) {
            tracing::warn!(error = %e, "could not leave the group of nodes");
        }
    }

    /// Whether a request was forwarded by another node of the group.
    pub fn is_forwarded(&self, headers: &HeaderMap) -> bool {
        headers
            .get(FORWARDED)
            .is_some_and(|v| crate::token::same_secret(v.as_bytes(), self.secret.as_bytes()))
    }

    /// Sends a request to the node at `addr` and returns its answer.
    async fn forward(
        &self,
        addr: &str,
        parts: &axum::http::request::Parts,
        body: Bytes,
    ) -> Result<Response, String> {
        let path = parts
            .uri
            .path_and_query()
            .map_or("/", |p| p.as_str())
            .to_string();
        let uri: axum::http::Uri = format!("{addr}{path}")
            .parse()
            .map_err(|e| format!("bad node address {addr}: {e}"))?;
        let mut request = axum::http::Request::builder()
            .method(parts.method.clone())
            .uri(uri)
            .body(Body::from(body))
            .map_err(|e| e.to_string())?;
        for name in [header::CONTENT_TYPE, header::AUTHORIZATION] {
            if let Some(value) = parts.headers.get(&name) {
                request.headers_mut().insert(name, value.clone());
            }
        }
        if let Some(value) = parts.headers.get("x-player-key") {
            request.headers_mut().insert("x-player-key", value.clone());
        }
        if let Some(client) = parts.extensions.get::<crate::limits::Client>()
            && let Ok(value) = HeaderValue::from_str(&client.addr.to_string())
        {
            request.headers_mut().insert(NODE_CLIENT, value);
        }
        request.headers_mut().insert(
            FORWARDED,
            HeaderValue::from_str(&self.secret).map_err(|e| e.to_string())?,
        );
        let answer = tokio::time::timeout(Duration::from_secs(30), self.client.request(request))
            .await
            .map_err(|_| "the owner node did not answer in 30 s".to_string())?
            .map_err(|e| e.to_string())?;
        self.forwarded.fetch_add(1, Ordering::Relaxed);
        Ok(answer.map(Body::new))
    }
}

/// The table id of a table route other than its WebSocket.
fn table_of(path: &str) -> Option<&str> {
    let rest = path.strip_prefix("/api/tables/")?;
    let (id, tail) = rest.split_once('/').unwrap_or((rest, ""));
    (crate::token::is_table_id(id) && tail != "ws").then_some(id)
}

/// Middleware: runs a table's request on its owner node (here, or
/// forwarded), taking the table over when its owner is gone.
pub async fn route_to_owner(State(app): State<AppState>, request: Request, next: Next) -> Response {
    let Some(cluster) = app.hub.cluster() else {
        return next.run(request).await;
    };
    let Some(id) = table_of(request.uri().path()).map(str::to_string) else {
        return next.run(request).await;
    };
    if app.hub.owns_live(&id) {
        return next.run(request).await;
    }
    let forwarded = cluster.is_forwarded(request.headers());
    let (parts, body) = request.into_parts();
    let read = tokio::time::timeout(
        app.limits.body_timeout,
        axum::body::to_bytes(body, app.limits.max_body),
    )
    .await;
    let body = match read {
        Err(_) => return ApiError::RequestTimeout.into_response(),
        Ok(Err(_)) => return ApiError::TooLarge.into_response(),
        Ok(Ok(body)) => body,
    };
    // A dead owner is seen as dead once its lease has lapsed: wait that long.
    let deadline = Instant::now() + cluster.lease + Duration::from_secs(2);
    loop {
        let owner = match cluster.owner_of(&id).await {
            Ok(owner) => owner,
            Err(e) => return ApiError::from(e).into_response(),
        };
        let Some(owner) = owner else {
            break; // no such table: the handler answers 404
        };
        if owner.finished {
            break;
        }
        let mine = owner.node.as_deref() == Some(cluster.node());
        if mine {
            if let Err(e) = app.hub.adopt(&id).await {
                return e.into_response();
            }
            break;
        }
        if !owner.alive {
            match cluster.take_over(&id, owner.node.as_deref()).await {
                Ok(true) => {
                    tracing::info!(
                        node = cluster.node(),
                        "took over a table of a node that is gone"
                    );
                    if let Err(e) = app.hub.adopt(&id).await {
                        return e.into_response();
                    }
                    break;
                }
                Ok(false) => continue,
                Err(e) => return ApiError::from(e).into_response(),
            }
        }
        if forwarded {
            // The other node thought this one owns the table: it moved meanwhile.
            return ApiError::Unavailable("the table is moving between nodes: try again".into())
                .into_response();
        }
        let addr = owner.addr.unwrap_or_default();
        match cluster.forward(&addr, &parts, body.clone()).await {
            Ok(answer) => return answer,
            Err(e) if Instant::now() < deadline => {
                tracing::debug!(error = %e, "the owner node did not answer; trying again");
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
            Err(e) => {
                tracing::warn!(error = %e, "the owner node did not answer");
                return ApiError::Unavailable("the table's node does not answer".into())
                    .into_response();
            }
        }
    }
    next.run(Request::from_parts(parts, Body::from(body))).await
}

/// Runs this node's part: heartbeats, taking over the tables of dead
/// nodes, and the notifications that keep viewers' copies up to date.
pub fn start(
    cluster: Arc<Cluster>,
    hub: Arc<Hub>,
    recent: Duration,
) -> Vec<tokio::task::JoinHandle<()>> {
    let beats = {
        let (cluster, hub) = (cluster.clone(), hub.clone());
        tokio::spawn(async move {
            let mut last = Instant::now();
            loop {
                tokio::time::sleep(cluster.lease / 4).await;
                if hub.stopping() {
                    return;
                }
                match cluster.heartbeat().await {
                    Ok(()) => {
                        if last.elapsed() >= cluster.lease {
                            // Others may have taken this node's tables meanwhile.
                            tracing::warn!(
                                "the heartbeat lapsed: checking which tables are still ours"
                            );
                            hub.recheck_ownership().await;
                        }
                        last = Instant::now();
                    }
                    Err(e) => tracing::warn!(error = %e, "heartbeat failed"),
                }
            }
        })
    };
    let takeovers = {
        let (cluster, hub) = (cluster.clone(), hub.clone());
        tokio::spawn(async move {
            loop {
                if hub.stopping() {
                    return;
                }
                let since = crate::table::now() - recent.as_secs() as i64;
                match cluster.take_over_orphans(since).await {
                    Ok(ids) => {
                        if !ids.is_empty() {
                            tracing::info!(
                                tables = ids.len(),
                                "took over tables of nodes that are gone"
                            );
                        }
                        for id in ids {
                            if let Err(e) = hub.adopt(&id).await {
                                tracing::warn!(error = %e, "cannot load a table taken over");
                            }
                        }
                    }
                    Err(e) => tracing::warn!(error = %e, "cannot take over tables"),
                }
                tokio::time::sleep(Duration::from_secs(1)).await;
            }
        })
    };
    let mut held = hub.follow_held();
    let notices = tokio::spawn(async move {
        loop {
            if let Err(e) = listen(&cluster, &hub, held.as_mut()).await {
                hub.health().set_notifications(false);
                tracing::warn!(error = %e, "table notifications stopped; listening again");
            }
            if hub.stopping() {
                return;
            }
            tokio::time::sleep(Duration::from_millis(500)).await;
        }
    });
    vec![beats, takeovers, notices]
}

/// Follows the changes of the tables in memory here announced by other
/// nodes, listening on each held table's channel (`held` tells of tables
/// coming and going).
async fn listen(
    cluster: &Cluster,
    hub: &Arc<Hub>,
    mut held: Option<&mut mpsc::UnboundedReceiver<Held>>,
) -> Result<(), StoreError> {
    // Connects at once (a connection the pool has checked).
    let mut listener = PgListener::connect_with(&cluster.pool).await?;
    let channels: Vec<String> = hub.held_ids().iter().map(|id| table_channel(id)).collect();
    if !channels.is_empty() {
        listener
            .listen_all(channels.iter().map(String::as_str))
            .await?;
    }
    hub.health().set_notifications(true);
    // Changes made while not listening are read from the database.
    hub.refresh_mirrors().await;
    let refresh = |id: String| {
        // Copies of different tables are brought up to date at once;
        // those of one table in turn (under its lock).
        let hub = hub.clone();
        tokio::spawn(async move { hub.refresh_mirror(&id).await });
    };
    loop {
        tokio::select! {
            // Cancel-safe: sqlx reads a message whole or leaves it buffered.
            notice = listener.try_recv() => match notice? {
                Some(notice) => {
                    cluster.notices.fetch_add(1, Ordering::Relaxed);
                    refresh(notice.payload().to_string());
                }
                None => {
                    // The connection was lost: listen again on a new one
                    // (and catch up), saying so in the health until it is up.
                    return Err(StoreError::Database(
                        "the notification connection was lost".into(),
                    ));
                }
            },
            Some(change) = next_held(&mut held) => match change {
                Held::Came(id) => {
                    listener.listen(&table_channel(&id)).await?;
                    // A write between its loading and now was not heard.
                    refresh(id);
                }
                Held::Left(id) => listener.unlisten(&table_channel(&id)).await?,
            },
        }
    }
}

/// The next table to come or go (never, without a receiver).
async fn next_held(held: &mut Option<&mut mpsc::UnboundedReceiver<Held>>) -> Option<Held> {
    match held {
        Some(receiver) => receiver.recv().await,
        None => std::future::pending().await,
    }
}
