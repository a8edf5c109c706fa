//! The API's description, the front page, the WebSocket protocol
//! (hello, catch-up, resync, errors), a player's tables, and shutdown.

use crate::harness::{Api, Server};
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use spelbord_engine::games;
use std::time::Duration;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;

/// A WebSocket client.
pub type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// A WebSocket to table `table` through `api`'s node.
pub async fn connect(api: &Api, table: &str) -> Socket {
    let url = format!(
        "{}/api/tables/{table}/ws",
        api.base.replacen("http", "ws", 1)
    );
    tokio_tungstenite::connect_async(url)
        .await
        .expect("connects")
        .0
}

/// Sends `message`.
pub async fn say(socket: &mut Socket, message: Value) {
    socket
        .send(Message::Text(message.to_string().into()))
        .await
        .expect("sent");
}

/// The next text message as JSON, or the close frame's code.
pub async fn next(socket: &mut Socket) -> Result<Value, Option<CloseCode>> {
    loop {
        let message = tokio::time::timeout(Duration::from_secs(20), socket.next())
            .await
            .expect("an answer within 20 s");
        match message {
            Some(Ok(Message::Text(text))) => return Ok(serde_json::from_str(&text).expect("JSON")),
            Some(Ok(Message::Close(frame))) => return Err(frame.map(|f| f.code)),
            Some(Ok(_)) => continue,
            _ => return Err(None),
        }
    }
}

async fn two_seats(api: &Api) -> (String, String, String) {
    let created = api
        .create(
            "tawla",
            json!({}),
            &["open".to_string(), "open".to_string()],
        )
        .await;
    let id = created["id"].as_str().expect("id").to_string();
    let a = api.join(&id, 0).await;
    let b = api.join(&id, 1).await;
    (id, a, b)
}

/// Plays one random legal action for whoever is to move.
async fn one_action(api: &Api, id: &str, tokens: &[&str]) {
    let view = api.view(id, None).await;
    let seat = view["state"]["turn"]["seat"].as_u64().expect("a player") as usize;
    let mine = api.view(id, Some(tokens[seat])).await;
    let pick = &mine["state"]["legal"][0];
    let body = json!({ "version": mine["version"], "json": pick["json"] });
    let reply = api
        .post(
            &format!("/api/tables/{id}/actions"),
            &body,
            Some(tokens[seat]),
        )
        .await;
    assert_eq!(reply.0, 200, "{reply:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_api_is_described_and_the_front_page_lists_the_games() {
    let server = Server::start(&[]);
    let api = server.api();
    let (status, doc) = api.get("/api/openapi.json", None).await;
    assert_eq!(status, 200);
    assert_eq!(doc["openapi"], "3.1.0");
    for path in [
        "/api/games",
        "/api/games/{game}",
        "/api/tables",
        "/api/tables/{id}",
        "/api/tables/{id}/join",
        "/api/tables/{id}/actions",
        "/api/tables/{id}/record",
        "/api/tables/{id}/ws",
        "/api/players/me/tables",
        "/api/tables/{id}/replay",
        "/api/tables/{id}/hints",
    ] {
        assert!(doc["paths"].get(path).is_some(), "{path} is described");
    }
    let (status, catalogue) = api.get("/api/games", None).await;
    assert_eq!(status, 200);
    let ids: Vec<&str> = catalogue["games"]
        .as_array()
        .expect("games")
        .iter()
        .map(|g| g["id"].as_str().expect("id"))
        .collect();
    let expected: Vec<&str> = games().iter().map(|g| g.id()).collect();
    assert_eq!(ids, expected);
    let (status, one) = api.get("/api/games/stortok", None).await;
    assert_eq!(status, 200);
    assert_eq!(one["hidden_information"], true);
    assert!(one["rules"].as_str().is_some_and(|r| !r.is_empty()));
    let (status, page) = api.get("/", None).await;
    assert_eq!(status, 200);
    // The browser client: its page loads the modules (which read /api/games).
    assert!(page.as_str().is_some_and(|p| p.contains("/js/app.js")));
    let (status, _) = api.get("/t/0123456789abcdef01234567?seat=1", None).await;
    assert_eq!(status, 200, "invite links open the front page");
    assert_eq!(api.get("/favicon.ico", None).await.0, 404);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reconnecting_viewer_gets_what_it_missed_or_a_resync() {
    let server = Server::start(&[]);
    let api = server.api();
    let (id, a, b) = two_seats(&api).await;
    let tokens = [a.as_str(), b.as_str()];

    let mut socket = connect(&api, &id).await;
    say(
        &mut socket,
        json!({ "type": "hello", "token": a, "since": null }),
    )
    .await;
    let welcome = next(&mut socket).await.expect("welcome");
    assert_eq!(welcome["type"], "welcome");
    assert_eq!(welcome["viewer"], json!({ "seat": 0 }));
    let sync = next(&mut socket).await.expect("sync");
    assert_eq!(sync["type"], "sync");
    let seen = sync["version"].as_u64().expect("version");
    say(&mut socket, json!({ "type": "ping" })).await;
    assert_eq!(next(&mut socket).await.expect("pong")["type"], "pong");
    drop(socket);

    // Three actions while away.
    for _ in 0..3 {
        one_action(&api, &id, &tokens).await;
    }
    let now = api.view(&id, None).await["version"]
        .as_u64()
        .expect("version");
    assert!(now >= seen + 3);

    let mut socket = connect(&api, &id).await;
    say(
        &mut socket,
        json!({ "type": "hello", "token": a, "since": seen }),
    )
    .await;
    assert_eq!(
        next(&mut socket).await.expect("welcome")["version"],
        json!(now)
    );
    for version in seen + 1..=now {
        let event = next(&mut socket).await.expect("a missed event");
        assert_eq!(event["type"], "event");
        assert_eq!(event["version"], json!(version));
    }
    // Live events follow.
    one_action(&api, &id, &tokens).await;
    let live = next(&mut socket).await.expect("a live event");
    assert_eq!(live["version"], json!(now + 1));
    // Asking for a sync gives the whole view.
    say(&mut socket, json!({ "type": "sync" })).await;
    let sync = loop {
        let m = next(&mut socket).await.expect("messages");
        if m["type"] == "sync" {
            break m;
        }
    };
    assert!(sync["state"]["observation"].is_object() || sync["state"]["observation"].is_array());

    // A version from the future gets a resync.
    let mut socket = connect(&api, &id).await;
    say(&mut socket, json!({ "type": "hello", "since": 1_000_000 })).await;
    assert_eq!(
        next(&mut socket).await.expect("welcome")["viewer"],
        "spectator"
    );
    assert_eq!(next(&mut socket).await.expect("sync")["type"], "sync");

    // Someone joining is announced.
    let created = api
        .create(
            "tawla",
            json!({}),
            &["open".to_string(), "open".to_string()],
        )
        .await;
    let other = created["id"].as_str().expect("id").to_string();
    let mut socket = connect(&api, &other).await;
    say(&mut socket, json!({ "type": "hello" })).await;
    next(&mut socket).await.expect("welcome");
    next(&mut socket).await.expect("sync");
    api.join(&other, 1).await;
    let seats = next(&mut socket).await.expect("seats");
    assert_eq!(seats["type"], "seats");
    assert_eq!(seats["seats"][1]["kind"], "human");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn websocket_protocol_errors_are_answered_and_closed() {
    let server = Server::start(&[]);
    let api = server.api();
    let (id, _, _) = two_seats(&api).await;

    // The first message must be a hello.
    let mut socket = connect(&api, &id).await;
    say(&mut socket, json!({ "type": "ping" })).await;
    assert_eq!(
        next(&mut socket).await.expect("an error")["code"],
        "bad_message"
    );
    assert_eq!(next(&mut socket).await.err(), Some(Some(CloseCode::Policy)));

    // A token that is not this table's.
    let mut socket = connect(&api, &id).await;
    say(
        &mut socket,
        json!({ "type": "hello", "token": "f".repeat(64) }),
    )
    .await;
    assert_eq!(
        next(&mut socket).await.expect("an error")["code"],
        "unauthorized"
    );
    assert_eq!(
        next(&mut socket).await.err(),
        Some(Some(CloseCode::from(4401)))
    );

    // Junk after the hello is answered, not fatal.
    let mut socket = connect(&api, &id).await;
    say(&mut socket, json!({ "type": "hello" })).await;
    next(&mut socket).await.expect("welcome");
    next(&mut socket).await.expect("sync");
    socket
        .send(Message::Text("not json".into()))
        .await
        .expect("sent");
    assert_eq!(
        next(&mut socket).await.expect("an error")["code"],
        "bad_message"
    );
    // Too large a message closes the connection.
    let big = json!({ "type": "ping", "pad": "x".repeat(10_000) });
    let _ = socket.send(Message::Text(big.to_string().into())).await;
    assert!(
        next(&mut socket).await.is_err(),
        "closed after an oversized message"
    );

    // Flooding closes the connection.
    let mut socket = connect(&api, &id).await;
    say(&mut socket, json!({ "type": "hello" })).await;
    next(&mut socket).await.expect("welcome");
    next(&mut socket).await.expect("sync");
    for _ in 0..100 {
        if socket
            .send(Message::Text(json!({ "type": "ping" }).to_string().into()))
            .await
            .is_err()
        {
            break;
        }
    }
    let mut closed = false;
    let mut told = false;
    for _ in 0..200 {
        match next(&mut socket).await {
            Ok(m) if m["type"] == "pong" => continue,
            Ok(m) => {
                assert_eq!(m["code"], "rate_limited");
                told = true;
            }
            Err(code) => {
                assert_eq!(code, Some(CloseCode::Policy));
                closed = true;
                break;
            }
        }
    }
    assert!(told, "the client is told why");
    assert!(closed, "a flooding client is disconnected");
    // An unknown table has no WebSocket.
    let url = format!(
        "{}/api/tables/0123456789abcdef01234567/ws",
        api.base.replacen("http", "ws", 1)
    );
    assert!(tokio_tungstenite::connect_async(url).await.is_err());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_finds_his_open_tables() {
    let server = Server::start(&[]);
    let api = server.api();
    let key = "player-key-0123456789";
    let body = json!({ "game": "lager", "player": key });
    let (status, created) = api.post("/api/tables", &body, None).await;
    assert_eq!(status, 201);
    let mine = created["id"].as_str().expect("id").to_string();
    let other = api
        .create(
            "tawla",
            json!({}),
            &["open".to_string(), "open".to_string()],
        )
        .await;
    let other = other["id"].as_str().expect("id").to_string();
    let reply = api
        .post(
            &format!("/api/tables/{other}/join"),
            &json!({ "seat": 1, "player": key }),
            None,
        )
        .await;
    assert_eq!(reply.0, 200);
    let list = |key: &'static str| {
        let api = api.clone();
        async move {
            let request = reqwest::Client::new()
                .get(format!("{}/api/players/me/tables", api.base))
                .header("X-Player-Key", key);
            let response = request.send().await.expect("answers");
            (
                response.status().as_u16(),
                response.json::<Value>().await.expect("JSON"),
            )
        }
    };
    let (status, tables) = list(key).await;
    assert_eq!(status, 200);
    let ids: Vec<&str> = tables["tables"]
        .as_array()
        .expect("tables")
        .iter()
        .map(|t| t["id"].as_str().expect("id"))
        .collect();
    assert!(
        ids.contains(&mine.as_str()) && ids.contains(&other.as_str()),
        "{tables}"
    );
    let joined = tables["tables"]
        .as_array()
        .expect("tables")
        .iter()
        .find(|t| t["id"] == other.as_str())
        .expect("joined");
    assert_eq!(joined["your_seats"], json!([1]));
    let (_, nothing) = list("somebody-else-entirely").await;
    assert_eq!(nothing["tables"], json!([]));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_closes_viewers_and_stops_cleanly_and_tables_come_back() {
    let mut server = Server::start(&[]);
    let api = server.api();
    let (id, a, b) = two_seats(&api).await;
    one_action(&api, &id, &[a.as_str(), b.as_str()]).await;
    let version = api.view(&id, None).await["version"].clone();
    let mut socket = connect(&api, &id).await;
    say(&mut socket, json!({ "type": "hello" })).await;
    next(&mut socket).await.expect("welcome");
    next(&mut socket).await.expect("sync");
    let status = server.terminate();
    assert!(status.success(), "exit status {status}");
    assert_eq!(
        next(&mut socket).await.err(),
        Some(Some(CloseCode::Restart))
    );
    server.restart();
    let api = server.api();
    assert_eq!(api.view(&id, None).await["version"], version);
    // The same seat token still acts for the seat after a restart.
    one_action(&api, &id, &[a.as_str(), b.as_str()]).await;
}
