//! The lobby WebSocket (a snapshot, then events, see `docs/server.md`) and
//! the lobby's round each tick: owners and queued players seen, seeks
//! withdrawn, a pairing round, the table lists and players online.

use super::AppState;
use super::seeks::{asker, removed_event, seek_json, viewer_of, visible};
use super::ws::{
    Frame, HARD_MESSAGE_LIMIT, READ_BUFFER, RESTART, close, error_message, ping_or_close,
    read_frame, send,
};
use crate::error::ApiError;
use crate::limits::{Client, ClientKey, Full, Held, TokenBucket};
use crate::lobby::{LobbyEvent, LobbyViewer, Presence};
use crate::store::unix_now_ms;
use axum::extract::State;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::http::{HeaderMap, header};
use axum::response::Response;
use serde::Deserialize;
use serde_json::{Value, json};
use std::time::{Duration, Instant};
use tokio::sync::broadcast::error::RecvError;

/// The most games a lobby socket may pick.
const MAX_GAMES: usize = 16;

/// What a lobby client may send.
#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
enum LobbyMessage {
    /// Who is watching (a guest's key) and the games picked.
    Hello {
        #[serde(default)]
        player_key: Option<String>,
        #[serde(default)]
        games: Option<Vec<String>>,
    },
    /// The games picked (none: every game).
    Filter { games: Vec<String> },
    /// Asks for a `pong`.
    Ping,
}

/// `GET /api/lobby/ws`: the lobby's live stream. Refused as a table's
/// socket is: 403 from another site's page, 429 over the address's
/// sockets, 503 over the server's.
pub async fn upgrade(
    State(app): State<AppState>,
    client: Client,
    headers: HeaderMap,
    ws: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    let text = |name| headers.get(name).and_then(|v| v.to_str().ok());
    if !app
        .origins
        .allows_ws_origin(text(header::ORIGIN), text(header::HOST))
    {
        return Err(ApiError::Forbidden(
            "WebSocket connections from another site's pages are refused".into(),
        ));
    }
    let held = app.watchers.take(client.key).map_err(|full| match full {
        Full::Key => ApiError::RateLimited,
        Full::Total => ApiError::Capacity("the server has as many viewers as allowed".into()),
    })?;
    let who = asker(&app, &headers, None, None).await?;
    let viewer = viewer_of(&app, who.as_ref()).await?;
    Ok(ws
        .max_message_size(HARD_MESSAGE_LIMIT)
        .max_frame_size(HARD_MESSAGE_LIMIT)
        .read_buffer_size(READ_BUFFER)
        .on_upgrade(move |socket| async move {
            let _held: Held<ClientKey> = held;
            session(app, viewer, socket).await
        }))
}

/// The snapshot for `viewer`: the seeks he may see, the tables, players online.
async fn snapshot(app: &AppState, viewer: &LobbyViewer) -> Value {
    let seeks = app
        .lobby
        .store
        .open_seeks(unix_now_ms())
        .await
        .unwrap_or_default();
    let seeks: Vec<Value> = seeks
        .iter()
        .filter(|s| visible(viewer, s))
        .map(seek_json)
        .collect();
    let latest = app.lobby.latest.lock().expect("lobby");
    json!({ "type": "snapshot", "seeks": seeks, "tables": latest.tables.clone(),
        "online": latest.online.clone() })
}

fn games_of(games: Vec<String>) -> Result<Vec<String>, &'static str> {
    if games.len() > MAX_GAMES || games.iter().any(|g| g.len() > 32) {
        return Err("at most 16 games");
    }
    Ok(games)
}

/// A viewer's session on the lobby's socket: a snapshot, then the lobby's
/// events it gets, answers to its messages and pings, until either side
/// stops.
async fn session(app: AppState, mut viewer: LobbyViewer, mut socket: WebSocket) {
    let mut shutdown = app.hub.shutdown_signal();
    let mut events = app.lobby.subscribe();
    let mut presence = app.lobby.enter(viewer.player, Vec::new());
    if !send(&mut socket, &snapshot(&app, &viewer).await).await {
        return;
    }
    let limits = app.limits.clone();
    let mut bucket = TokenBucket::new(limits.ws_rate, limits.ws_rate * 2.0);
    let mut pinger = tokio::time::interval(limits.ws_ping_interval);
    pinger.tick().await;
    let mut heard = Instant::now();
    loop {
        tokio::select! {
            event = events.recv() => {
                match event {
                    Ok(shared) => {
                        if viewer.gets(&shared.event)
                            && socket.send(Message::Text(shared.text.clone())).await.is_err()
                        {
                            break;
                        }
                    }
                    Err(RecvError::Lagged(_)) => {
                        if !send(&mut socket, &snapshot(&app, &viewer).await).await {
                            break;
                        }
                    }
                    Err(RecvError::Closed) => break,
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
                let reply = match answer(&app, &mut viewer, &mut presence, &text).await {
                    Ok(reply) => reply,
                    Err(refusal) => {
                        send(&mut socket, &refusal).await;
                        continue;
                    }
                };
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

/// The answer to a client's message: a `pong`, or after a hello or a
/// filter (which change the viewer, and its presence) a new snapshot.
/// `Err`: the hello's player key is refused (the session goes on).
async fn answer(
    app: &AppState,
    viewer: &mut LobbyViewer,
    presence: &mut Presence,
    text: &str,
) -> Result<Value, Value> {
    Ok(match serde_json::from_str::<LobbyMessage>(text) {
        Ok(LobbyMessage::Ping) => json!({ "type": "pong" }),
        Ok(LobbyMessage::Hello { player_key, games }) => {
            if !viewer.account
                && let Some(key) = player_key
            {
                match crate::api::tables::player_hash(Some(&key)) {
                    Ok(hash) => {
                        viewer.player = hash;
                        presence.set_player(hash);
                    }
                    Err(e) => return Err(error_message(e.code(), &e.to_string())),
                }
            }
            match games.map(games_of).transpose() {
                Ok(games) => {
                    if let Some(games) = games {
                        viewer.games = games.clone();
                        presence.set_games(games);
                    }
                    snapshot(app, viewer).await
                }
                Err(e) => error_message("bad_message", e),
            }
        }
        Ok(LobbyMessage::Filter { games }) => match games_of(games) {
            Ok(games) => {
                viewer.games = games.clone();
                presence.set_games(games);
                snapshot(app, viewer).await
            }
            Err(e) => error_message("bad_message", e),
        },
        Err(e) => error_message("bad_message", &e.to_string()),
    })
}

/// Starts the lobby's rounds (and, with several nodes, its notifications).
pub fn start(app: AppState) -> Vec<tokio::task::JoinHandle<()>> {
    let tick = (app.lobby.grace / 4).clamp(Duration::from_millis(100), Duration::from_secs(1));
    let mut tasks = Vec::new();
    if let Some(cluster) = app.hub.cluster() {
        let (lobby, pool) = (app.lobby.clone(), cluster.pool().clone());
        tasks.push(tokio::spawn(async move {
            loop {
                if let Err(e) = crate::lobby::listen(&lobby, &pool).await {
                    tracing::warn!(error = %e, "lobby notifications stopped; listening again");
                }
                tokio::time::sleep(Duration::from_millis(500)).await;
            }
        }));
    }
    tasks.push(tokio::spawn(async move {
        loop {
            tokio::time::sleep(tick).await;
            if app.hub.stopping() {
                return;
            }
            if let Err(e) = round(&app).await {
                tracing::warn!(error = %e, "lobby round failed");
            }
        }
    }));
    tasks
}

/// One lobby round of this node.
async fn round(app: &AppState) -> Result<(), ApiError> {
    let lobby = &app.lobby;
    let now = unix_now_ms();
    let open = lobby.store.open_seeks(now).await?;
    let here: Vec<String> = open
        .iter()
        .filter(|s| lobby.is_present(&s.owner))
        .map(|s| s.id.clone())
        .collect();
    let queued = lobby.queued_here();
    lobby.store.touch(&here, &queued, now).await?;
    let seen = now - lobby.grace.as_millis() as i64;
    for (id, game) in lobby.store.sweep(now, seen).await? {
        lobby.publish(removed_event(&id, &game)).await;
    }
    super::pairing::pair_round(app).await;
    let (mut tables, _) = super::tables::listed_rows(app, false, 0).await?;
    tables.extend(super::tables::listed_rows(app, true, 0).await?.0);
    let tables = Value::Array(tables);
    let games: Vec<&str> = spelbord_engine::games().iter().map(|g| g.id()).collect();
    let counts = serde_json::to_string(&lobby.counts(&games)).unwrap_or_default();
    lobby.store.online_put(&lobby.node, &counts, now).await?;
    let since = now - 3 * lobby.grace.as_millis().min(3000) as i64;
    let mut online = serde_json::Map::new();
    for row in lobby.store.online_all(since).await? {
        let Ok(counts) = serde_json::from_str::<serde_json::Map<String, Value>>(&row) else {
            continue;
        };
        for (game, n) in counts {
            let sum = online.get(&game).and_then(Value::as_i64).unwrap_or(0);
            online.insert(game, json!(sum + n.as_i64().unwrap_or(0)));
        }
    }
    let online = Value::Object(online);
    let mut send = Vec::new();
    {
        let mut latest = lobby.latest.lock().expect("lobby");
        if latest.tables != tables {
            send.push(json!({ "type": "tables", "tables": tables }));
            latest.tables = tables;
        }
        if latest.online != online {
            send.push(json!({ "type": "online", "online": online }));
            latest.online = online;
        }
    }
    for message in send {
        lobby.send_here(LobbyEvent {
            message: message.to_string(),
            game: None,
            range: None,
            owner: None,
            to: None,
        });
    }
    Ok(())
}
