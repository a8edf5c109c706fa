//! Seeks, quick pairing and the lobby socket on the real server: a seek
//! seen live on another client's lobby socket, accepted, both players
//! seated at one table; withdrawn when its owner leaves the lobby; rated
//! seeks only for accounts in range; two accounts of close rating paired
//! within 2 s; two nodes on PostgreSQL share seeks and one accept wins.

use crate::accounts::Browser;
use crate::harness::Server;
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use std::time::Duration;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// A lobby socket.
pub struct Lobby {
    socket: Socket,
}

impl Lobby {
    /// Connects (with a session cookie, if any), says hello and reads the snapshot.
    pub async fn open(base: &str, cookie: Option<&str>, hello: Value) -> (Lobby, Value) {
        let url = format!("{}/api/lobby/ws", base.replacen("http", "ws", 1));
        let mut request = url.into_client_request().expect("a request");
        if let Some(cookie) = cookie {
            let value = format!("spelbord_session={cookie}")
                .parse()
                .expect("a header");
            request.headers_mut().insert("cookie", value);
        }
        let (socket, _) = tokio_tungstenite::connect_async(request)
            .await
            .expect("the lobby socket connects");
        let mut lobby = Lobby { socket };
        lobby
            .next(|m| m["type"] == "snapshot")
            .await
            .expect("a snapshot");
        lobby
            .socket
            .send(Message::Text(hello.to_string().into()))
            .await
            .expect("hello sent");
        let snapshot = lobby
            .next(|m| m["type"] == "snapshot")
            .await
            .expect("a snapshot");
        (lobby, snapshot)
    }

    /// The next message that `wanted` picks, within 5 s.
    pub async fn next(&mut self, wanted: impl Fn(&Value) -> bool) -> Option<Value> {
        self.within(Duration::from_secs(5), wanted).await
    }

    /// The next message that `wanted` picks, within `limit`.
    pub async fn within(
        &mut self,
        limit: Duration,
        wanted: impl Fn(&Value) -> bool,
    ) -> Option<Value> {
        let deadline = tokio::time::Instant::now() + limit;
        while let Ok(Some(Ok(message))) =
            tokio::time::timeout_at(deadline, self.socket.next()).await
        {
            if let Message::Text(text) = message {
                let value: Value = serde_json::from_str(&text).expect("JSON");
                if wanted(&value) {
                    return Some(value);
                }
            }
        }
        None
    }
}

/// Queues each (browser, session cookie) for quick pairing in `pool`; then
/// each of `lobbies` must be told its table and seat in `pool` within
/// `limit`: (table, seat) for each.
pub async fn quick_pair<const N: usize>(
    queued: &[(&Browser, &str)],
    pool: &str,
    lobbies: [&mut Lobby; N],
    limit: Duration,
) -> Vec<(Value, Value)> {
    for (browser, cookie) in queued {
        let (status, answer, _) = browser
            .post("/api/pairing", json!({ "pool": pool }), Some(cookie))
            .await;
        assert_eq!(status, 202, "{answer}");
    }
    let mut tables = Vec::new();
    for lobby in lobbies {
        let paired = lobby
            .within(limit, |m| m["type"] == "paired" && m["pool"] == pool)
            .await
            .unwrap_or_else(|| panic!("paired in {pool} within {limit:?}"));
        tables.push((paired["table"].clone(), paired["seat"].clone()));
    }
    tables
}

fn key(who: &str) -> String {
    format!("{who}-lobby-test-key-0123456789")
}

fn has_seek(list: &Value, id: &str) -> bool {
    list.as_array()
        .is_some_and(|seeks| seeks.iter().any(|s| s["id"] == id))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seek_is_seen_live_accepted_and_both_seated_and_withdrawn_when_its_owner_leaves() {
    let server = Server::start(&["--lobby-grace-ms", "1500"]);
    let api = server.api();
    let (mut owner, _) = Lobby::open(
        &api.base,
        None,
        json!({ "type": "hello", "player_key": key("a") }),
    )
    .await;
    let (mut other, _) = Lobby::open(
        &api.base,
        None,
        json!({ "type": "hello", "player_key": key("b"), "games": ["tawla"] }),
    )
    .await;
    let clock = json!({ "initial_s": 60, "increment_s": 2 });
    let (status, posted) = api
        .post(
            "/api/seeks",
            &json!({ "game": "tawla", "clock": clock, "seat": 1, "name": "Ann", "player_key": key("a") }),
            None,
        )
        .await;
    assert_eq!(status, 201, "{posted}");
    let id = posted["seek"]["id"].as_str().expect("an id").to_string();
    assert_eq!(posted["seek"]["clock"], clock);
    let added = other
        .next(|m| m["type"] == "seek_added")
        .await
        .expect("the seek appears on the other lobby socket");
    assert_eq!(added["seek"]["id"], id.as_str());
    assert_eq!(added["seek"]["owner"]["name"], "Ann");

    let (status, own) = api
        .post(
            &format!("/api/seeks/{id}/accept"),
            &json!({ "player_key": key("a") }),
            None,
        )
        .await;
    assert_eq!(
        (status, own["error"]["code"].clone()),
        (409, json!("own_seek"))
    );
    let (status, joined) = api
        .post(
            &format!("/api/seeks/{id}/accept"),
            &json!({ "name": "Bo", "player_key": key("b") }),
            None,
        )
        .await;
    assert_eq!(status, 200, "{joined}");
    let table = joined["table"].as_str().expect("a table").to_string();
    assert_eq!(joined["seat"], 0, "the owner asked for seat 1");
    let paired = owner
        .next(|m| m["type"] == "paired")
        .await
        .expect("the owner is told his seat");
    assert_eq!(paired["table"], table.as_str());
    assert_eq!(paired["seat"], 1);
    assert_eq!(paired["seek"], id.as_str());
    let (_, read) = api
        .get(&format!("/api/seeks/{id}?player_key={}", key("a")), None)
        .await;
    assert_eq!(read["paired"]["token"], paired["token"]);
    for (token, seat) in [(joined["token"].as_str(), 0), (paired["token"].as_str(), 1)] {
        let (status, view) = api.get(&format!("/api/tables/{table}"), token).await;
        assert_eq!(status, 200);
        assert_eq!(view["viewer"]["seat"], seat, "{view}");
    }
    let (status, again) = api
        .post(
            &format!("/api/seeks/{id}/accept"),
            &json!({ "player_key": key("c") }),
            None,
        )
        .await;
    assert_eq!(
        (status, again["error"]["code"].clone()),
        (409, json!("seek_gone"))
    );

    // The owner leaves the lobby: his next seek is withdrawn.
    let (status, posted) = api
        .post(
            "/api/seeks",
            &json!({ "game": "tawla", "player_key": key("a") }),
            None,
        )
        .await;
    assert_eq!(status, 201);
    let id = posted["seek"]["id"].as_str().expect("an id").to_string();
    other
        .next(|m| m["type"] == "seek_added")
        .await
        .expect("seen");
    drop(owner);
    let removed = other
        .within(Duration::from_secs(6), |m| m["type"] == "seek_removed")
        .await
        .expect("the seek is withdrawn");
    assert_eq!(removed["id"], id.as_str());
    let (_, list) = api.get("/api/seeks", None).await;
    assert!(!has_seek(&list["seeks"], &id), "{list}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rated_seeks_are_for_accounts_in_range_and_close_ratings_pair_within_2_s() {
    let server = Server::start(&[]);
    let api = server.api();
    let b = Browser::of(&server);
    let mut cookies = Vec::new();
    for name in ["owner35", "near35", "far35"] {
        cookies.push(b.sign_up(name, "a good password").await);
    }
    let (mut owner, _) =
        Lobby::open(&api.base, Some(&cookies[0]), json!({ "type": "hello" })).await;
    let (mut far, _) = Lobby::open(&api.base, Some(&cookies[2]), json!({ "type": "hello" })).await;
    // New accounts are rated 1500: outside 1600..2000.
    let body =
        json!({ "game": "tawla", "rated": true, "rating_range": { "min": 1600, "max": 2000 } });
    let (status, posted, _) = b.post("/api/seeks", body, Some(&cookies[0])).await;
    assert_eq!(status, 201, "{posted}");
    let id = posted["seek"]["id"].as_str().expect("an id").to_string();
    assert_eq!(posted["seek"]["owner"]["rating"], 1500.0);
    owner
        .next(|m| m["type"] == "seek_added")
        .await
        .expect("the owner sees it");
    assert!(
        far.within(Duration::from_secs(2), |m| m["type"] == "seek_added")
            .await
            .is_none(),
        "an account out of range saw the seek"
    );
    let (_, list, _) = b.get("/api/seeks", Some(&cookies[2])).await;
    assert!(!has_seek(&list["seeks"], &id), "{list}");
    let (_, list, _) = b.get("/api/seeks", Some(&cookies[0])).await;
    assert!(has_seek(&list["seeks"], &id), "{list}");
    let (status, refused, _) = b
        .post(
            &format!("/api/seeks/{id}/accept"),
            json!({}),
            Some(&cookies[2]),
        )
        .await;
    assert_eq!(status, 404, "{refused}");
    let (status, _) = api
        .post(
            &format!("/api/seeks/{id}/accept"),
            &json!({ "player_key": key("g") }),
            None,
        )
        .await;
    assert_eq!(status, 401, "a guest accepts no rated seek");
    let (_, snapshot) = Lobby::open(&api.base, Some(&cookies[2]), json!({ "type": "hello" })).await;
    assert!(!has_seek(&snapshot["seeks"], &id), "{snapshot}");

    // Quick pairing: two accounts of the same (new) rating.
    let (mut near, _) = Lobby::open(&api.base, Some(&cookies[1]), json!({ "type": "hello" })).await;
    let started = std::time::Instant::now();
    let queued = [(&b, cookies[1].as_str()), (&b, cookies[2].as_str())];
    let lobbies = [&mut near, &mut far];
    let tables = quick_pair(&queued, "tawla-1-fast", lobbies, Duration::from_secs(2)).await;
    assert!(started.elapsed() < Duration::from_secs(2));
    assert_eq!(tables[0].0, tables[1].0, "one table");
    assert_ne!(tables[0].1, tables[1].1, "two seats");
    let (_, view) = api
        .get(
            &format!("/api/tables/{}", tables[0].0.as_str().unwrap()),
            None,
        )
        .await;
    assert_eq!(view["rated"], true, "{view}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_nodes_share_seeks_live_and_one_of_two_racing_accepts_wins() {
    let _heavy = crate::heavy().await;
    let Some(url) = crate::harness::test_database().await else {
        return;
    };
    let nodes: Vec<Server> = (0..2)
        .map(|_| Server::start_on(&url, &["--lease", "2"]))
        .collect();
    let (a, b) = (nodes[0].api(), nodes[1].api());
    for round in 0..3 {
        let owner_key = key(&format!("owner{round}"));
        let (_owner, _) = Lobby::open(
            &a.base,
            None,
            json!({ "type": "hello", "player_key": owner_key }),
        )
        .await;
        let (mut watcher, _) = Lobby::open(&b.base, None, json!({ "type": "hello" })).await;
        let (status, posted) = a
            .post(
                "/api/seeks",
                &json!({ "game": "tawla", "player_key": owner_key }),
                None,
            )
            .await;
        assert_eq!(status, 201, "{posted}");
        let id = posted["seek"]["id"].as_str().expect("an id").to_string();
        let added = watcher
            .next(|m| m["type"] == "seek_added")
            .await
            .expect("a seek posted on node A appears on node B's lobby socket");
        assert_eq!(added["seek"]["id"], id.as_str());
        let path = format!("/api/seeks/{id}/accept");
        let (x, y) = (
            json!({ "player_key": key(&format!("x{round}")) }),
            json!({ "player_key": key(&format!("y{round}")) }),
        );
        let (one, two) = tokio::join!(a.post(&path, &x, None), b.post(&path, &y, None));
        let mut statuses = [one.0, two.0];
        statuses.sort();
        assert_eq!(statuses, [200, 409], "{one:?} {two:?}");
    }
}

/// A seek for three players fills when two have accepted: the first accept
/// waits (202), the second makes the table, and every player, the owner
/// and the first acceptor on their lobby sockets, holds a seat of it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seek_for_three_fills_when_two_have_accepted() {
    let server = Server::start(&[]);
    let api = server.api();
    let mut lobbies = Vec::new();
    for who in ["a", "b"] {
        let hello = json!({ "type": "hello", "player_key": key(who), "games": ["stortok"] });
        lobbies.push(Lobby::open(&api.base, None, hello).await.0);
    }
    let (status, posted) = api
        .post(
            "/api/seeks",
            &json!({ "game": "stortok", "options": { "players": 3 }, "name": "Ann", "player_key": key("a") }),
            None,
        )
        .await;
    assert_eq!(status, 201, "{posted}");
    let id = posted["seek"]["id"].as_str().expect("an id").to_string();
    let accept = |who: &'static str| {
        let (api, path) = (&api, format!("/api/seeks/{id}/accept"));
        async move {
            api.post(&path, &json!({ "name": who, "player_key": key(who) }), None)
                .await
        }
    };
    let (status, waiting) = accept("b").await;
    assert_eq!(status, 202, "{waiting}");
    assert_eq!(
        (&waiting["waiting"], &waiting["needed"]),
        (&json!(1), &json!(3))
    );
    let (status, again) = accept("b").await;
    assert_eq!(
        (status, &again["error"]["code"]),
        (409, &json!("already_accepted"))
    );
    let (status, joined) = accept("c").await;
    assert_eq!(status, 200, "{joined}");
    let table = joined["table"].as_str().expect("a table").to_string();
    let mut seats = vec![joined["seat"].as_u64().expect("a seat")];
    for lobby in &mut lobbies {
        let paired = lobby
            .next(|m| m["type"] == "paired")
            .await
            .expect("each earlier player is told his seat");
        assert_eq!(paired["table"], table.as_str());
        let (status, view) = api
            .get(&format!("/api/tables/{table}"), paired["token"].as_str())
            .await;
        assert_eq!(status, 200);
        assert_eq!(view["viewer"]["seat"], paired["seat"], "{view}");
        seats.push(paired["seat"].as_u64().expect("a seat"));
    }
    seats.sort();
    assert_eq!(seats, [0, 1, 2], "three players, three seats");
}
