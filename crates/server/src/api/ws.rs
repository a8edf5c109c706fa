//! The WebSocket of a table: versioned events filtered for each viewer, and
//! reconnection from the last version seen (see `docs/server.md`).

use super::AppState;
use crate::clock::TimeControl;
use crate::error::ApiError;
use crate::hub::{Notice, TableCell};
use crate::limits::{Client, ClientKey, Full, Held, Limits, TokenBucket};
use crate::table::{CatchUp, Table};
use crate::view;
use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::http::{HeaderMap, header};
use axum::response::Response;
use serde::Deserialize;
use serde_json::{Value, json};
use spelbord_engine::Viewer;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::broadcast;
use tokio::sync::broadcast::error::RecvError;

/// How long a client has to say hello after connecting.
const HELLO_TIMEOUT: Duration = Duration::from_secs(10);

/// Close code: the client broke the protocol or a limit.
pub(super) const POLICY: u16 = 1008;
/// Close code: the viewer stopped answering pings.
pub(super) const GOING_AWAY: u16 = 1001;
/// The largest message the WebSocket layer reads at all; larger ones end
/// the connection without a close code, smaller ones over the server's
/// limit are closed with 1008.
pub(super) const HARD_MESSAGE_LIMIT: usize = 64 * 1024;
/// The read buffer of a connection (the library's default is 128 KiB, held
/// by every viewer); it grows for a larger message, up to the hard limit.
pub(super) const READ_BUFFER: usize = 4 * 1024;
/// Close code: the server is restarting; reconnect later.
pub(super) const RESTART: u16 = 1012;
/// Close code: the seat token is not valid for this table.
const UNAUTHORIZED: u16 = 4401;

/// What a client may send.
#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
enum ClientMessage {
    /// The first message: who is watching, and the last version seen.
    Hello {
        #[serde(default)]
        token: Option<String>,
        #[serde(default)]
        since: Option<u64>,
    },
    /// Asks for a `pong`.
    Ping,
    /// Asks for a full `sync`.
    Sync,
}

/// `GET /api/tables/{id}/ws`: upgrades to the table's event stream. An
/// upgrade from another site's page (an `Origin` that is neither the
/// request's host nor a public origin) is refused with 403; a table with
/// as many viewers as allowed, or the server, answers 503; a client with
/// as many as allowed, 429.
pub async fn upgrade(
    State(app): State<AppState>,
    client: Client,
    Path(id): Path<String>,
    headers: HeaderMap,
    ws: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    let text = |name| headers.get(name).and_then(|v| v.to_str().ok());
    if !app
        .origins
        .allows_ws_origin(text(header::ORIGIN), text(header::HOST))
    {
        tracing::debug!(client = %client.addr, "WebSocket from another site's page");
        return Err(ApiError::Forbidden(
            "WebSocket connections from another site's pages are refused".into(),
        ));
    }
    let cell = app.hub.table(&id).await?;
    let table_full = || ApiError::Capacity("the table has as many viewers as allowed".into());
    if cell.watchers.total() >= app.limits.max_watchers_per_table {
        tracing::debug!(client = %client.addr, "watchers of a table at the cap");
        return Err(table_full());
    }
    let held = match app.watchers.take(client.key) {
        Ok(held) => held,
        Err(full) => {
            tracing::debug!(client = %client.addr, ?full, "watchers at the cap");
            return Err(match full {
                Full::Key => ApiError::RateLimited,
                Full::Total => {
                    ApiError::Capacity("the server has as many viewers as allowed".into())
                }
            });
        }
    };
    let on_table = cell.watchers.take(()).map_err(|_| table_full())?;
    Ok(ws
        .max_message_size(HARD_MESSAGE_LIMIT)
        .max_frame_size(HARD_MESSAGE_LIMIT)
        .read_buffer_size(READ_BUFFER)
        .on_upgrade(move |socket| async move {
            let _held: (Held<ClientKey>, Held<()>) = (held, on_table);
            session(app, cell, socket).await
        }))
}

pub(super) async fn send(socket: &mut WebSocket, message: &Value) -> bool {
    socket
        .send(Message::Text(message.to_string().into()))
        .await
        .is_ok()
}

pub(super) async fn close(socket: &mut WebSocket, code: u16, reason: &str) {
    let frame = CloseFrame {
        code,
        reason: reason.into(),
    };
    if socket.send(Message::Close(Some(frame))).await.is_err() {
        return;
    }
    // The closing handshake: read (and drop) what the client still sends
    // until its close, so that the connection is not reset under it.
    let drain = async {
        while let Some(Ok(message)) = socket.recv().await {
            if matches!(message, Message::Close(_)) {
                break;
            }
        }
    };
    let _ = tokio::time::timeout(Duration::from_secs(2), drain).await;
}

pub(super) fn error_message(code: &str, message: &str) -> Value {
    json!({ "type": "error", "code": code, "message": message })
}

/// At a ping tick: closes a peer silent for too long, else pings it; false
/// when the socket is done.
pub(super) async fn ping_or_close(socket: &mut WebSocket, heard: Instant, limits: &Limits) -> bool {
    if heard.elapsed() > limits.ws_dead_peer {
        close(socket, GOING_AWAY, "no answer to pings").await;
        return false;
    }
    socket.send(Message::Ping(Default::default())).await.is_ok()
}

/// What a client's frame asks of the socket's loop.
pub(super) enum Frame {
    /// A text message to handle.
    Text(String),
    /// Nothing to do (a ping, a pong, a binary frame answered with an error).
    Skip,
    /// The socket is done (closed, over the rate or size, malformed).
    Stop,
}

/// Reads a frame the client sent: every frame counts against the rate
/// (text, binary, ping, pong); over the rate or the size the socket is
/// closed.
pub(super) async fn read_frame(
    socket: &mut WebSocket,
    incoming: Option<Result<Message, axum::Error>>,
    bucket: &mut TokenBucket,
    limits: &Limits,
) -> Frame {
    if matches!(incoming, Some(Ok(_))) && !bucket.allow() {
        send(socket, &error_message("rate_limited", "too many messages")).await;
        close(socket, POLICY, "rate limit").await;
        return Frame::Stop;
    }
    match incoming {
        Some(Ok(Message::Text(text))) if text.len() > limits.max_ws_message => {
            close(socket, POLICY, "message too large").await;
            Frame::Stop
        }
        Some(Ok(Message::Text(text))) => Frame::Text(text.to_string()),
        Some(Ok(Message::Ping(_) | Message::Pong(_))) => Frame::Skip,
        Some(Ok(Message::Binary(_))) => {
            send(socket, &error_message("bad_message", "text messages only")).await;
            Frame::Skip
        }
        Some(Ok(Message::Close(_))) | None => Frame::Stop,
        Some(Err(e)) => {
            // Over the hard limit, or broken framing.
            tracing::debug!(error = %e, "WebSocket read failed");
            close(socket, POLICY, "message too large or malformed").await;
            Frame::Stop
        }
    }
}

/// The notice that the AI of `seat` stopped after failing to move.
fn ai_failed_message(table: &str, version: u64, seat: usize) -> Value {
    json!({ "type": "ai_failed", "table": table, "version": version, "seat": seat })
}

/// Reads the hello: the viewer's token (none for a spectator) and version.
async fn hello(
    socket: &mut WebSocket,
    max: usize,
) -> Result<(Option<String>, Option<u64>), &'static str> {
    let first = tokio::time::timeout(HELLO_TIMEOUT, socket.recv()).await;
    let Ok(Some(Ok(Message::Text(text)))) = first else {
        return Err("the first message must be a hello, within 10 seconds");
    };
    if text.len() > max {
        return Err("the message is too large");
    }
    match serde_json::from_str::<ClientMessage>(&text) {
        Ok(ClientMessage::Hello { token, since }) => Ok((token, since)),
        _ => Err("the first message must be {\"type\": \"hello\", ...}"),
    }
}

/// A viewer's session on a table's socket: the welcome (with what the
/// viewer missed since the version it last saw), then the table's notices,
/// answers to the client's messages and pings, until either side stops.
async fn session(app: AppState, cell: Arc<TableCell>, mut socket: WebSocket) {
    let mut shutdown = app.hub.shutdown_signal();
    let (token, since) = match hello(&mut socket, app.limits.max_ws_message).await {
        Ok(h) => h,
        Err(reason) => {
            send(&mut socket, &error_message("bad_message", reason)).await;
            close(&mut socket, POLICY, "hello expected").await;
            return;
        }
    };
    let Some((mut watching, mut notices, first)) =
        welcome(cell, token.as_deref(), since, &mut socket).await
    else {
        return;
    };
    for message in &first {
        if !send(&mut socket, message).await {
            return;
        }
    }
    let limits = app.limits.clone();
    let mut bucket = TokenBucket::new(limits.ws_rate, limits.ws_rate * 2.0);
    let mut pinger = tokio::time::interval(limits.ws_ping_interval);
    pinger.tick().await;
    let mut heard = Instant::now();
    loop {
        tokio::select! {
            notice = notices.recv() => {
                let sent = match watching.on_notice(notice).await {
                    Outgoing::Nothing => continue,
                    Outgoing::Stop => break,
                    Outgoing::Shared(text) => socket.send(Message::Text(text)).await.is_ok(),
                    Outgoing::Json(message) => send(&mut socket, &message).await,
                };
                if !sent {
                    break;
                }
            }
            _ = pinger.tick() => {
                if !ping_or_close(&mut socket, heard, &limits).await {
                    break;
                }
            }
            incoming = socket.recv() => {
                heard = Instant::now();
                let text = match read_frame(&mut socket, incoming, &mut bucket, &limits).await {
                    Frame::Text(text) => text,
                    Frame::Skip => continue,
                    Frame::Stop => break,
                };
                let reply = watching.reply(&text).await;
                if !send(&mut socket, &reply).await {
                    break;
                }
            }
            _ = shutdown.changed() => {
                close(&mut socket, RESTART, "server restarting").await;
                break;
            }
        }
    }
}

/// The viewer of `token` (a spectator without one) with the table's
/// notices and its first messages: the welcome and what it missed since
/// version `since`. `None` when the token is not one of the table's seats
/// (the client is told and the socket closed).
async fn welcome(
    cell: Arc<TableCell>,
    token: Option<&str>,
    since: Option<u64>,
    socket: &mut WebSocket,
) -> Option<(Watching, broadcast::Receiver<Notice>, Vec<Value>)> {
    let t = cell.table.lock().await;
    let viewer = match token.map(|tok| t.seat_of_token(tok)) {
        None => Viewer::Spectator,
        Some(Some(seat)) => Viewer::Player(seat),
        Some(None) => {
            drop(t);
            let e = ApiError::Unauthorized;
            send(socket, &error_message(e.code(), &e.to_string())).await;
            close(socket, UNAUTHORIZED, "unauthorized").await;
            return None;
        }
    };
    let notices = cell.notices.subscribe();
    let hidden = t.game.hidden_information();
    let control = t.clock.as_ref().map(|c| c.control);
    let first = first_messages(&t, viewer, since, hidden, control);
    let (last, table_id) = (t.version, t.id.clone());
    drop(t);
    let watching = Watching {
        cell,
        viewer,
        table_id,
        hidden,
        control,
        last,
    };
    Some((watching, notices, first))
}

/// The welcome, then the events since version `since` (with the clocks
/// now, on a table with a clock) or a full `sync`, and the AI's failure.
fn first_messages(
    t: &Table,
    viewer: Viewer,
    since: Option<u64>,
    hidden: bool,
    control: Option<TimeControl>,
) -> Vec<Value> {
    let mut first = vec![json!({
        "type": "welcome",
        "table": t.id,
        "viewer": view::viewer_json(viewer),
        "version": t.version,
        "status": view::status(t),
        "seats": view::seats_json(&t.seats),
        "clock": view::table_clock_json(t),
    })];
    match t.catch_up(since) {
        CatchUp::Events(events) => {
            first.extend(
                events
                    .iter()
                    .map(|e| view::event_message(&t.id, e, viewer, hidden, control)),
            );
            // The clocks now (the stored events' stamps run nothing).
            if control.is_some() && !events.is_empty() {
                first.push(view::seats_message(t));
            }
        }
        CatchUp::Sync => first.push(view::sync_message(t, viewer)),
    }
    if let Some(seat) = t.ai_failed {
        first.push(ai_failed_message(&t.id, t.version, seat));
    }
    first
}

/// A session's viewer and table, and the last version it was sent.
struct Watching {
    cell: Arc<TableCell>,
    viewer: Viewer,
    table_id: String,
    hidden: bool,
    control: Option<TimeControl>,
    last: u64,
}

/// What a notice of the table sends the viewer.
enum Outgoing {
    /// An event's message, made once per event and kind of viewer.
    Shared(Utf8Bytes),
    /// A message for this viewer.
    Json(Value),
    /// Nothing (an event it was sent already).
    Nothing,
    /// Nothing more: the table's channel closed.
    Stop,
}

impl Watching {
    /// What `notice` sends the viewer: the next event, the seats, a
    /// rematch, the AI's failure; after missed events (a slow reader), a
    /// gap, or an early end, a full resync.
    async fn on_notice(&mut self, notice: Result<Notice, RecvError>) -> Outgoing {
        let (viewer, table_id) = (self.viewer, self.table_id.as_str());
        let message = match notice {
            Ok(Notice::Event(a)) if a.event.version <= self.last => return Outgoing::Nothing,
            Ok(Notice::Event(a)) if a.event.version == self.last + 1 => {
                self.last = a.event.version;
                // Made once per event and viewer, shared by every
                // spectator (and every device of a seat).
                let (hidden, control) = (self.hidden, self.control);
                return Outgoing::Shared(a.message_for(viewer, || {
                    view::event_text(table_id, &a.event, viewer, hidden, control).into()
                }));
            }
            Ok(Notice::Seats) => view::seats_message(&*self.cell.table.lock().await),
            Ok(Notice::Rematch(rematch, by)) => json!({
                "type": "rematch", "table": table_id, "rematch": &*rematch, "by": by,
            }),
            Ok(Notice::AiFailed(seat)) => ai_failed_message(table_id, self.last, seat),
            Ok(Notice::Event(_) | Notice::Ended) | Err(RecvError::Lagged(_)) => self.sync().await,
            Err(RecvError::Closed) => return Outgoing::Stop,
        };
        Outgoing::Json(message)
    }

    /// The answer to a client's message after the hello.
    async fn reply(&mut self, text: &str) -> Value {
        match serde_json::from_str::<ClientMessage>(text) {
            Ok(ClientMessage::Ping) => json!({ "type": "pong", "version": self.last }),
            Ok(ClientMessage::Sync) => self.sync().await,
            Ok(ClientMessage::Hello { .. }) => error_message(
                "bad_message",
                "hello is said once; reconnect to change viewer",
            ),
            Err(e) => error_message("bad_message", &e.to_string()),
        }
    }

    /// A full `sync` of the table as it is now.
    async fn sync(&mut self) -> Value {
        let t = self.cell.table.lock().await;
        self.last = t.version;
        view::sync_message(&t, self.viewer)
    }
}
