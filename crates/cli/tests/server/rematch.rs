//! Rematch: one new table for the finished one, its AI seats filled again,
//! its people's seats kept for the last game's players, who are told on
//! their WebSocket; asked again (also after a restart) it is the same table.

use crate::harness::{Api, Server};
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use std::time::Duration;
use tokio_tungstenite::tungstenite::Message;

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// A WebSocket viewer of `table` as the token's seat (or a spectator), its
/// welcome and first sync read.
async fn viewer(base: &str, table: &str, token: Option<&str>) -> Socket {
    let url = format!("{}/api/tables/{table}/ws", base.replacen("http", "ws", 1));
    let (mut socket, _) = tokio_tungstenite::connect_async(url)
        .await
        .expect("the WebSocket connects");
    let hello = json!({ "type": "hello", "token": token, "since": null });
    socket
        .send(Message::Text(hello.to_string().into()))
        .await
        .expect("hello sent");
    next_of_type(&mut socket, "sync").await;
    socket
}

/// The next message of type `kind` (others are skipped), within 20 s.
async fn next_of_type(socket: &mut Socket, kind: &str) -> Value {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
    loop {
        let message = tokio::time::timeout_at(deadline, socket.next())
            .await
            .unwrap_or_else(|_| panic!("no `{kind}` message within 20 s"))
            .expect("the socket is open")
            .expect("a message");
        if let Message::Text(text) = message {
            let value: Value = serde_json::from_str(&text).expect("JSON");
            if value["type"] == kind {
                return value;
            }
        }
    }
}

async fn join(api: &Api, table: &str, body: Value) -> (u16, Value) {
    api.post(&format!("/api/tables/{table}/join"), &body, None)
        .await
}

async fn rematch(api: &Api, table: &str, token: Option<&str>) -> (u16, Value) {
    api.post(
        &format!("/api/tables/{table}/rematch"),
        &json!({ "player": "rematch-player-key-0123" }),
        token,
    )
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rematch_takes_every_player_of_the_finished_table_along() {
    let mut server = Server::start(&[]);
    let api = server.api();
    let (status, table) = api
        .post(
            "/api/tables",
            &json!({"game": "stortok", "options": {"players": "3"},
                    "seats": ["open", "open", "ai:random"]}),
            None,
        )
        .await;
    assert_eq!(status, 201, "{table}");
    let old = table["id"].as_str().unwrap().to_string();
    let ada = api.join(&old, 0).await;
    let bo = api.join(&old, 1).await;
    let (status, body) = rematch(&api, &old, Some(&ada)).await;
    assert_eq!(
        (status, &body["error"]["code"]),
        (409, &json!("not_finished"))
    );
    let mut bo_socket = viewer(&api.base, &old, Some(&bo)).await;
    let mut spectator = viewer(&api.base, &old, None).await;
    let (status, body) = api
        .post(&format!("/api/tables/{old}/resign"), &json!({}), Some(&ada))
        .await;
    assert_eq!(status, 200, "{body}");

    let (status, body) = rematch(&api, &old, None).await;
    assert_eq!(status, 401, "a seat's token is needed: {body}");
    let (status, made) = rematch(&api, &old, Some(&ada)).await;
    assert_eq!(status, 201, "{made}");
    assert_eq!(made["seat"], 0);
    let new = made["rematch"].as_str().unwrap().to_string();
    assert_ne!(new, old);
    // Asked again, by the same player or the other, it is the same table.
    let (status, again) = rematch(&api, &old, Some(&ada)).await;
    assert_eq!((status, &again["rematch"]), (200, &made["rematch"]));
    let (status, theirs) = rematch(&api, &old, Some(&bo)).await;
    assert_eq!(
        (status, &theirs["rematch"], &theirs["seat"]),
        (200, &made["rematch"], &json!(1))
    );

    // The other player and the spectator are told, once.
    for socket in [&mut bo_socket, &mut spectator] {
        let notice = next_of_type(socket, "rematch").await;
        assert_eq!(
            notice,
            json!({"type": "rematch", "table": old, "rematch": new, "by": 0})
        );
    }
    assert_eq!(api.view(&old, None).await["rematch"], json!(new));

    // The new table: the same game and options, the AI seat again, the
    // people's seats open but kept, no invite links.
    let view = api.view(&new, None).await;
    assert_eq!(view["game"], "stortok");
    assert_eq!(view["options"]["players"], "3");
    assert_eq!(view["rematch_of"], json!(old));
    assert_eq!(view["status"], "waiting");
    assert_eq!(view["seats"][0]["kind"], "open");
    assert_eq!(view["seats"][1]["kind"], "open");
    assert_eq!(
        view["seats"][2],
        json!({"seat": 2, "kind": "ai", "agent": "random"})
    );
    assert_eq!(view["invites"], json!([]));
    let (status, body) = join(&api, &new, json!({"seat": 1})).await;
    assert_eq!(
        (status, &body["error"]["code"]),
        (409, &json!("seat_taken")),
        "a stranger cannot take a kept seat"
    );
    let (status, body) = join(&api, &new, json!({"seat": 1, "rematch_token": ada})).await;
    assert_eq!(status, 409, "nor a player another's seat: {body}");
    let (status, _) = join(
        &api,
        &new,
        json!({"rematch_token": "not-a-token-of-the-table"}),
    )
    .await;
    assert_eq!(status, 401);

    // Each player takes his own seat with his last token; a lost answer is
    // answered again by its key.
    let key = "rematch-join-key-0123456789";
    let (status, first) = join(&api, &new, json!({"rematch_token": ada, "key": key})).await;
    assert_eq!((status, &first["seat"]), (200, &json!(0)), "{first}");
    let (status, retried) = join(&api, &new, json!({"rematch_token": ada, "key": key})).await;
    assert_eq!((status, &retried["token"]), (200, &first["token"]));

    // The rematch is kept across a restart: asked again, it is the same.
    server.restart();
    let api = server.api();
    let (status, after) = rematch(&api, &old, Some(&bo)).await;
    assert_eq!((status, &after["rematch"]), (200, &json!(new)));
    assert_eq!(api.view(&old, None).await["rematch"], json!(new));
    let (status, body) = join(&api, &new, json!({"rematch_token": bo})).await;
    assert_eq!((status, &body["seat"]), (200, &json!(1)), "{body}");
    assert_eq!(api.view(&new, None).await["status"], "playing");
    let (status, body) = rematch(&api, &new, Some(body["token"].as_str().unwrap())).await;
    assert_eq!(
        (status, &body["error"]["code"]),
        (409, &json!("not_finished"))
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_table_that_never_started_has_no_rematch() {
    let server = Server::start(&[]);
    let api = server.api();
    let key = "rematch-creator-key-0123";
    let (status, table) = api
        .post(
            "/api/tables",
            &json!({"game": "tawla", "player": key}),
            None,
        )
        .await;
    assert_eq!(status, 201, "{table}");
    let id = table["id"].as_str().unwrap();
    let token = api.join(id, 0).await;
    let (status, _) = api
        .post_with(
            &format!("/api/tables/{id}/close"),
            &json!({}),
            &[("x-player-key", key)],
        )
        .await;
    assert_eq!(status, 200);
    let (status, body) = rematch(&api, id, Some(&token)).await;
    assert_eq!(
        (status, &body["error"]["code"]),
        (400, &json!("bad_request"))
    );
}
