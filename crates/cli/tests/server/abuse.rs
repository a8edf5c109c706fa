//! What strangers can do to the server, and the limits that stop them: agent
//! specs, request and creation rates per address, open tables, connections,
//! silent and half-open sockets, content types, names, WebSocket frames.

use crate::harness::{Api, Server};
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;

fn addr(server: &Server) -> String {
    server.base.trim_start_matches("http://").to_string()
}

/// Reads until the server closes the connection (or 30 s pass); returns
/// what was read and whether the connection was closed.
async fn read_until_closed(stream: &mut TcpStream) -> (String, bool) {
    let mut got = Vec::new();
    let mut buf = [0u8; 4096];
    let closed = tokio::time::timeout(Duration::from_secs(30), async {
        loop {
            match stream.read(&mut buf).await {
                Ok(0) | Err(_) => return,
                Ok(n) => got.extend_from_slice(&buf[..n]),
            }
        }
    })
    .await
    .is_ok();
    (String::from_utf8_lossy(&got).into_owned(), closed)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn agents_other_than_the_levels_are_refused() {
    let server = Server::start(&[]);
    let api = server.api();
    for seat in [
        "mcts:iters=4000000000",
        "alphabeta:tt=26",
        "mcts",
        "random",
        "ai:hard:iters=9",
    ] {
        let (status, body) = api
            .post(
                "/api/tables",
                &json!({"game": "tawla", "seats": ["open", seat]}),
                None,
            )
            .await;
        assert_eq!(status, 400, "{seat}: {body}");
        assert_eq!(body["error"]["code"], "bad_request");
    }
    for seat in ["ai:easy", "ai:medium", "ai:hard", "ai:expert", "ai:random"] {
        api.create("tawla", json!({}), &["open".into(), seat.into()])
            .await;
    }
    let (_, games) = api.get("/api/games/tawla", None).await;
    assert_eq!(
        games["agents"],
        json!(["ai:easy", "ai:medium", "ai:hard", "ai:expert", "ai:random"])
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_new_connection_per_request_does_not_escape_the_rate_limit() {
    let server = Server::start(&["--rate-limit", "0.5", "--rate-burst", "5"]);
    let mut limited = 0;
    for _ in 0..30 {
        // A fresh client each time: a new TCP connection (and port).
        let (status, _) = Api::new(&server.base).get("/api/health", None).await;
        if status == 429 {
            limited += 1;
        }
    }
    // At most 5 + 0.5 a second get through, however slow the machine.
    assert!(limited >= 10, "only {limited} of 30 refused");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn table_creation_is_limited_per_address_and_open_tables_are_capped() {
    let server = Server::start(&[
        "--create-limit",
        "0.001",
        "--create-burst",
        "4",
        "--max-open-tables",
        "2",
    ]);
    let api = server.api();
    let key = "creator-key-0123456789";
    let body = json!({"game": "tawla", "player": key});
    let (status, first) = api.post("/api/tables", &body, None).await;
    assert_eq!(status, 201);
    let (status, _) = api.post("/api/tables", &body, None).await;
    assert_eq!(status, 201);
    let (status, refused) = api.post("/api/tables", &body, None).await;
    assert_eq!(status, 429, "{refused}");
    assert_eq!(refused["error"]["code"], "too_many_tables");
    // Closing one frees a place; the burst of four (refused tries count) is
    // then spent.
    let id = first["id"].as_str().unwrap();
    let (status, closed) = api
        .post_with(
            &format!("/api/tables/{id}/close"),
            &json!({}),
            &[("x-player-key", key)],
        )
        .await;
    assert_eq!(status, 200, "{closed}");
    let (status, _) = api.post("/api/tables", &body, None).await;
    assert_eq!(status, 201);
    let (status, limited) = api.post("/api/tables", &body, None).await;
    assert_eq!(status, 429);
    assert_eq!(limited["error"]["code"], "rate_limited");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connections_beyond_the_cap_of_an_address_are_refused_cleanly() {
    let server = Server::start(&["--max-connections-per-address", "4"]);
    let mut held = Vec::new();
    for _ in 0..4 {
        held.push(TcpStream::connect(addr(&server)).await.unwrap());
    }
    let mut fifth = TcpStream::connect(addr(&server)).await.unwrap();
    let (answer, closed) = read_until_closed(&mut fifth).await;
    assert!(closed);
    assert!(answer.starts_with("HTTP/1.1 503"), "{answer}");
    drop(held);
    // The places are given back once those connections close.
    let mut ok = false;
    for _ in 0..100 {
        if let Ok((200, _)) = Api::new(&server.base).try_get("/api/health", None).await {
            ok = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(ok, "a new connection is served once the others closed");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_half_sent_and_kept_alive_connections_are_closed() {
    let server = Server::start(&["--header-timeout", "1"]);
    // Silent from the start.
    let mut silent = TcpStream::connect(addr(&server)).await.unwrap();
    // Half a request line and no more.
    let mut half = TcpStream::connect(addr(&server)).await.unwrap();
    half.write_all(b"GET /api/health HTTP/1.1\r\nHost: x\r\n")
        .await
        .unwrap();
    // One whole request, then idle on the kept-alive connection.
    let mut kept = TcpStream::connect(addr(&server)).await.unwrap();
    kept.write_all(b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n")
        .await
        .unwrap();
    for (name, stream) in [
        ("silent", &mut silent),
        ("half", &mut half),
        ("kept", &mut kept),
    ] {
        let (answer, closed) = read_until_closed(stream).await;
        assert!(closed, "the {name} connection is still open");
        if name == "kept" {
            assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
        }
    }
}

/// A whole game of Tawla against `ai:random`, played by seat 0.
async fn play_one_game(api: &Api) {
    let table = api
        .create("tawla", json!({}), &["open".into(), "ai:random".into()])
        .await;
    let id = table["id"].as_str().unwrap().to_string();
    let token = api.join(&id, 0).await;
    let mut rng = <rand::rngs::StdRng as rand::SeedableRng>::seed_from_u64(1);
    crate::harness::play_random(api, &id, &[Some(token), None], &mut rng, None)
        .await
        .expect("the game is played");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn many_silent_sockets_do_not_stop_a_normal_client() {
    // The server starts with the usual soft limit of 1024 open files and
    // raises it; 1,500 silent sockets would otherwise exhaust it.
    const SILENT: usize = 1_500;
    let limit = rlimit::increase_nofile_limit(u64::MAX).unwrap_or(0);
    assert!(
        limit >= SILENT as u64 + 200,
        "the test needs {SILENT} sockets; the open-file limit is {limit}"
    );
    let server = Server::start_with_open_files(1024, &[]);
    let mut silent = Vec::with_capacity(SILENT);
    for _ in 0..SILENT {
        silent.push(TcpStream::connect(addr(&server)).await.unwrap());
    }
    play_one_game(&server.api()).await;
    drop(silent);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn json_endpoints_require_the_json_content_type() {
    let server = Server::start(&[]);
    let http = reqwest::Client::new();
    // What a form or a text/plain post from another site looks like.
    for content_type in [
        None,
        Some("text/plain"),
        Some("application/x-www-form-urlencoded"),
    ] {
        let mut request = http
            .post(format!("{}/api/tables", server.base))
            .body(r#"{"game": "tawla"}"#);
        if let Some(t) = content_type {
            request = request.header("content-type", t);
        }
        let response = request.send().await.unwrap();
        assert_eq!(response.status().as_u16(), 415, "{content_type:?}");
        let body: Value = response.json().await.unwrap();
        assert_eq!(body["error"]["code"], "unsupported_media_type");
    }
    let ok = http
        .post(format!("{}/api/tables", server.base))
        .header("content-type", "application/json; charset=utf-8")
        .body(r#"{"game": "tawla"}"#)
        .send()
        .await
        .unwrap();
    assert_eq!(ok.status().as_u16(), 201);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_answer_has_the_security_headers() {
    let server = Server::start(&[]);
    let http = reqwest::Client::new();
    for path in ["/", "/js/app.js", "/api/games", "/api/nothing"] {
        let response = http
            .get(format!("{}{path}", server.base))
            .send()
            .await
            .unwrap();
        let h = response.headers();
        let csp = h["content-security-policy"].to_str().unwrap();
        assert!(csp.contains("script-src 'self'") && !csp.contains("script-src 'self' 'unsafe"));
        assert!(csp.contains("frame-ancestors 'none'"), "{csp}");
        assert_eq!(h["x-content-type-options"], "nosniff");
        assert_eq!(h["referrer-policy"], "no-referrer");
    }
    // The page has no inline script for the policy to block.
    let page = http
        .get(&server.base)
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    for tag in page.split("<script").skip(1) {
        assert!(tag.contains("src="), "an inline script: <script{tag}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn names_with_control_invisible_or_direction_characters_are_refused() {
    let server = Server::start(&[]);
    let api = server.api();
    let table = api
        .create("tawla", json!({}), &["open".into(), "open".into()])
        .await;
    let id = table["id"].as_str().unwrap();
    for name in [
        "Ada\u{202E}nimda",
        "A\u{200B}da",
        "Ada\u{2066}",
        "\u{FEFF}Ada",
        "A\nda",
    ] {
        let (status, body) = api
            .post(
                &format!("/api/tables/{id}/join"),
                &json!({"name": name}),
                None,
            )
            .await;
        assert_eq!(status, 400, "{name:?}: {body}");
    }
    let (status, _) = api
        .post(
            &format!("/api/tables/{id}/join"),
            &json!({"name": "Åsa Ödegård"}),
            None,
        )
        .await;
    assert_eq!(status, 200);
}

async fn socket(
    server: &Server,
    id: &str,
) -> tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<TcpStream>> {
    let url = format!(
        "{}/api/tables/{id}/ws",
        server.base.replacen("http", "ws", 1)
    );
    let (mut ws, _) = tokio_tungstenite::connect_async(url)
        .await
        .expect("connects");
    ws.send(Message::Text(
        json!({"type": "hello", "token": null}).to_string().into(),
    ))
    .await
    .unwrap();
    ws
}

/// The close code the server ends the socket with (reading everything before).
async fn close_code(
    ws: &mut tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<TcpStream>>,
) -> Option<CloseCode> {
    let read = tokio::time::timeout(Duration::from_secs(30), async {
        while let Some(message) = ws.next().await {
            match message {
                Ok(Message::Close(frame)) => return frame.map(|f| f.code),
                Ok(_) => continue,
                Err(_) => return None,
            }
        }
        None
    });
    read.await.expect("the server closes the socket")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn websocket_abuse_is_closed_with_1008() {
    let server = Server::start(&[]);
    let api = server.api();
    let table = api
        .create("tawla", json!({}), &["open".into(), "open".into()])
        .await;
    let id = table["id"].as_str().unwrap();

    let mut big = socket(&server, id).await;
    big.send(Message::Text("x".repeat(5_000).into()))
        .await
        .unwrap();
    assert_eq!(close_code(&mut big).await, Some(CloseCode::Policy));

    let mut binary = socket(&server, id).await;
    for _ in 0..40 {
        if binary
            .send(Message::Binary(vec![0u8; 10].into()))
            .await
            .is_err()
        {
            break;
        }
    }
    assert_eq!(close_code(&mut binary).await, Some(CloseCode::Policy));

    let mut pings = socket(&server, id).await;
    for _ in 0..40 {
        if pings.send(Message::Ping(vec![1u8].into())).await.is_err() {
            break;
        }
    }
    assert_eq!(close_code(&mut pings).await, Some(CloseCode::Policy));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_websocket_viewer_that_answers_no_ping_is_closed() {
    let server = Server::start(&["--ws-ping-interval", "1", "--ws-dead-peer", "2"]);
    let api = server.api();
    let table = api
        .create("tawla", json!({}), &["open".into(), "open".into()])
        .await;
    let id = table["id"].as_str().unwrap();
    // A client written by hand that reads every frame but never answers a
    // ping (a WebSocket library answers pings whenever it reads, so it could
    // not play a dead peer without racing the server's timers).
    let addr = server.base.trim_start_matches("http://").to_string();
    let mut tcp = TcpStream::connect(&addr).await.unwrap();
    let request = format!(
        "GET /api/tables/{id}/ws HTTP/1.1\r\nHost: {addr}\r\nUpgrade: websocket\r\n\
         Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\
         Sec-WebSocket-Version: 13\r\n\r\n"
    );
    tcp.write_all(request.as_bytes()).await.unwrap();
    let mut buf = Vec::new();
    let header_end = loop {
        let mut chunk = [0u8; 1024];
        let n = tcp.read(&mut chunk).await.unwrap();
        assert!(n > 0, "the server answers the upgrade");
        buf.extend_from_slice(&chunk[..n]);
        if let Some(i) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            break i + 4;
        }
    };
    assert!(buf.starts_with(b"HTTP/1.1 101"), "upgraded");
    let mut frames = buf.split_off(header_end);
    // The hello, as a masked text frame (a zero mask leaves it as it is).
    let hello = json!({"type": "hello"}).to_string();
    let mut frame = vec![0x81, 0x80 | hello.len() as u8, 0, 0, 0, 0];
    frame.extend_from_slice(hello.as_bytes());
    tcp.write_all(&frame).await.unwrap();
    let read_close_code = async {
        loop {
            // One whole frame from `frames`, reading more as needed.
            let need = |f: &[u8]| -> Option<(u8, usize, usize)> {
                if f.len() < 2 {
                    return None;
                }
                let (mut start, len) = match f[1] & 0x7f {
                    126 if f.len() >= 4 => (4, usize::from(u16::from_be_bytes([f[2], f[3]]))),
                    126 => return None,
                    127 if f.len() >= 10 => (
                        10,
                        u64::from_be_bytes(f[2..10].try_into().unwrap()) as usize,
                    ),
                    127 => return None,
                    n => (2, usize::from(n)),
                };
                if f[1] & 0x80 != 0 {
                    start += 4;
                }
                (f.len() >= start + len).then_some((f[0] & 0x0f, start, len))
            };
            if let Some((opcode, start, len)) = need(&frames) {
                if opcode == 0x8 {
                    assert!(len >= 2, "a close frame with a code");
                    return u16::from_be_bytes([frames[start], frames[start + 1]]);
                }
                frames.drain(..start + len);
                continue;
            }
            let mut chunk = [0u8; 4096];
            let n = tcp
                .read(&mut chunk)
                .await
                .expect("the server closes cleanly");
            assert!(n > 0, "the connection ended without a close frame");
            frames.extend_from_slice(&chunk[..n]);
        }
    };
    let code = tokio::time::timeout(Duration::from_secs(30), read_close_code)
        .await
        .expect("the server closes the socket");
    assert_eq!(CloseCode::from(code), CloseCode::Away);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn watchers_of_a_table_and_of_an_address_are_capped() {
    let server = Server::start(&[
        "--max-watchers-per-table",
        "3",
        "--max-watchers-per-address",
        "5",
    ]);
    let api = server.api();
    let a = api
        .create("tawla", json!({}), &["open".into(), "open".into()])
        .await;
    let b = api
        .create("tawla", json!({}), &["open".into(), "open".into()])
        .await;
    let (a, b) = (a["id"].as_str().unwrap(), b["id"].as_str().unwrap());
    let url = |id: &str| {
        format!(
            "{}/api/tables/{id}/ws",
            server.base.replacen("http", "ws", 1)
        )
    };
    let mut open = Vec::new();
    for _ in 0..3 {
        open.push(
            tokio_tungstenite::connect_async(url(a))
                .await
                .expect("within the cap"),
        );
    }
    // The table is full: 503 (not 429, which is the client's own cap).
    assert_eq!(
        refused_status(tokio_tungstenite::connect_async(url(a)).await),
        503,
        "a fourth on one table"
    );
    for _ in 0..2 {
        open.push(
            tokio_tungstenite::connect_async(url(b))
                .await
                .expect("within the cap"),
        );
    }
    assert_eq!(
        refused_status(tokio_tungstenite::connect_async(url(b)).await),
        429,
        "a sixth from one address"
    );
}

/// The HTTP status of a refused WebSocket upgrade.
fn refused_status<T>(result: Result<T, tokio_tungstenite::tungstenite::Error>) -> u16 {
    match result {
        Err(tokio_tungstenite::tungstenite::Error::Http(response)) => response.status().as_u16(),
        Err(e) => panic!("not refused with a status: {e}"),
        Ok(_) => panic!("upgraded"),
    }
}
