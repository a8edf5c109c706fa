//! The HTTP listener: accepts connections up to the caps per client and in
//! all (a refused one gets a short `503` and is closed), serves each with
//! hyper under a header-read and keep-alive timeout, and stops gracefully.
//!
//! At accept time only the TCP peer is known: a trusted proxy's connections
//! carry many clients, so they count only towards the total, not against
//! the cap per client.

use crate::limits::{ClientKey, Counter, Full, Held, Limits, RefusalLog};
use axum::Router;
use axum::body::Body;
use axum::extract::ConnectInfo;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::io::AsyncWriteExt;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;

/// The answer to a connection over a cap, written before closing it.
const REFUSED: &[u8] = b"HTTP/1.1 503 Service Unavailable\r\nconnection: close\r\n\
content-type: application/json\r\ncontent-length: 76\r\n\r\n\
{\"error\": {\"code\": \"unavailable\", \"message\": \"too many connections: later\"}}";

/// Serves `app` on `listener` until `stop` turns true; then stops accepting,
/// lets requests in progress finish (at most `grace`) and returns.
pub async fn serve_connections(
    listener: TcpListener,
    app: Router,
    limits: &Limits,
    refusals: Arc<RefusalLog>,
    mut stop: watch::Receiver<bool>,
    grace: Duration,
) {
    let connections: Arc<Counter<ClientKey>> =
        Counter::new(limits.max_connections_per_address, limits.max_connections);
    let header_timeout = limits.header_timeout;
    let (closing, _) = watch::channel(false);
    let mut tasks = tokio::task::JoinSet::new();
    loop {
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            _ = stop.changed() => break,
        };
        let (stream, peer) = match accepted {
            Ok(pair) => pair,
            Err(e) => {
                // Out of file descriptors or similar: wait a little.
                tracing::warn!(error = %e, "cannot accept a connection");
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        };
        while tasks.try_join_next().is_some() {}
        let key = limits.clients.key(peer.ip());
        let taken = if limits.clients.is_trusted(peer.ip()) {
            connections.take_unkeyed()
        } else {
            connections.take(key)
        };
        let held = match taken {
            Ok(held) => held,
            Err(full) => {
                let why = match full {
                    Full::Key => "too many connections from this client",
                    Full::Total => "too many connections",
                };
                if refusals.note(key) {
                    tracing::info!(client = %peer.ip(), %key, why, "connection refused");
                }
                tasks.spawn(refuse(stream));
                continue;
            }
        };
        let _ = stream.set_nodelay(true);
        tasks.spawn(serve_connection(
            stream,
            peer,
            app.clone(),
            header_timeout,
            held,
            closing.subscribe(),
        ));
    }
    drop(listener);
    let _ = closing.send(true);
    let _ = tokio::time::timeout(grace, async { while tasks.join_next().await.is_some() {} }).await;
    tasks.abort_all();
}

/// Serves the requests of one connection from `peer` (HTTP/1.1 with
/// upgrades, holding its place under the caps) until it closes; when
/// `closing` turns, lets the request in progress finish and closes it.
async fn serve_connection(
    stream: TcpStream,
    peer: SocketAddr,
    app: Router,
    header_timeout: Duration,
    held: Held<ClientKey>,
    mut closing: watch::Receiver<bool>,
) {
    let _held = held;
    let service = hyper::service::service_fn(move |request: hyper::Request<Incoming>| {
        let mut request = request.map(Body::new);
        request.extensions_mut().insert(ConnectInfo(peer));
        tower::ServiceExt::oneshot(app.clone(), request)
    });
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(header_timeout)
        .keep_alive(true);
    let connection = builder
        .serve_connection(TokioIo::new(stream), service)
        .with_upgrades();
    tokio::pin!(connection);
    tokio::select! {
        _ = connection.as_mut() => {}
        _ = closing.changed() => {
            connection.as_mut().graceful_shutdown();
            let _ = connection.await;
        }
    }
}

async fn refuse(mut stream: TcpStream) {
    let _ = tokio::time::timeout(Duration::from_secs(2), async {
        let _ = stream.write_all(REFUSED).await;
        let _ = stream.shutdown().await;
    })
    .await;
}

/// Raises the soft open-file limit to the hard one; returns the limit now.
pub fn raise_open_file_limit() -> u64 {
    match rlimit::increase_nofile_limit(u64::MAX) {
        Ok(limit) => limit,
        Err(e) => {
            tracing::warn!(error = %e, "cannot raise the open-file limit");
            rlimit::getrlimit(rlimit::Resource::NOFILE)
                .map(|(soft, _)| soft)
                .unwrap_or(1024)
        }
    }
}

/// The connections to allow with `open_files` descriptors: all but a margin
/// kept for the database, logs and the listener.
pub fn connections_for(open_files: u64) -> usize {
    let margin = (open_files / 20).max(64);
    open_files.saturating_sub(margin).max(16) as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_refusal_is_a_whole_http_answer() {
        let text = std::str::from_utf8(REFUSED).unwrap();
        let (_, body) = text.split_once("\r\n\r\n").unwrap();
        assert!(text.contains(&format!("content-length: {}", body.len())));
        serde_json::from_str::<serde_json::Value>(body).unwrap();
    }

    #[test]
    fn a_margin_of_descriptors_is_kept() {
        assert_eq!(connections_for(1024), 960);
        assert_eq!(connections_for(20_000), 19_000);
    }
}
