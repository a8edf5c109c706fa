//! The test harness: the real `spelbord serve` process on 127.0.0.1 with a
//! temporary database, an HTTP client, WebSocket viewers, and a replay of the
//! record to check what each viewer was sent.

use futures_util::{SinkExt, StreamExt};
use rand::Rng;
use rand::rngs::StdRng;
use serde_json::{Value, json};
use spelbord_engine::{DynState, Record, Turn, Viewer, find_game};
use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, ChildStdout, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};
use tokio_tungstenite::tungstenite::Message;

/// A running server process with its own database folder.
pub struct Server {
    child: Option<Child>,
    _stdout: Option<BufReader<ChildStdout>>,
    /// `http://127.0.0.1:PORT`.
    pub base: String,
    dir: PathBuf,
    args: Vec<String>,
    soft_open_files: Option<u64>,
    /// A PostgreSQL database URL instead of the SQLite file.
    db_url: Option<String>,
    /// Where the server's standard error goes (inherited if `None`).
    log: Option<PathBuf>,
    /// The server's `RUST_LOG` (the test default if `None`).
    log_level: Option<String>,
    /// A command line that runs the server elsewhere (e.g. on a namespace
    /// host, see `netns.rs`); empty: here.
    prefix: Vec<std::ffi::OsString>,
    /// The address it listens on (a free port of it).
    bind: String,
}

static NEXT_DIR: AtomicUsize = AtomicUsize::new(0);

/// The server binary: this build's `spelbord`, or the one named by
/// `SPELBORD_TEST_SERVER_BIN` (to measure an older build with today's tests).
fn server_bin() -> std::ffi::OsString {
    std::env::var_os("SPELBORD_TEST_SERVER_BIN")
        .unwrap_or_else(|| env!("CARGO_BIN_EXE_spelbord").into())
}

impl Server {
    /// Starts `spelbord serve` on a free port with a new database. Request
    /// rates and caps per address are off unless `extra` sets them.
    pub fn start(extra: &[&str]) -> Server {
        let mut server = Server::unstarted(extra);
        server.spawn();
        server
    }

    /// Like [`Server::start`], after `prepare` was given the server's empty
    /// folder (where its database will be), e.g. to mount a file system there.
    #[allow(dead_code)]
    pub fn start_prepared(extra: &[&str], prepare: impl FnOnce(&std::path::Path)) -> Server {
        let mut server = Server::unstarted(extra);
        prepare(&server.dir);
        server.spawn();
        server
    }

    /// Like [`Server::start`], on the PostgreSQL database at `url`, with the
    /// server's standard error in the file [`Server::log`].
    pub fn start_on(url: &str, extra: &[&str]) -> Server {
        let mut server = Server::unstarted(extra);
        server.db_url = Some(url.to_string());
        server.log = Some(server.dir.join("stderr.log"));
        server.spawn();
        server
    }

    /// Like [`Server::start_on`], run by the command line `prefix` (e.g. on
    /// another network namespace) and listening on `bind` (its address).
    #[allow(dead_code)]
    pub fn start_in(
        url: &str,
        extra: &[&str],
        prefix: Vec<std::ffi::OsString>,
        bind: std::net::IpAddr,
    ) -> Server {
        let mut server = Server::unstarted(extra);
        server.db_url = Some(url.to_string());
        server.log = Some(server.dir.join("stderr.log"));
        server.prefix = prefix;
        server.bind = bind.to_string();
        server.spawn();
        server
    }

    /// Like [`Server::start`], logging at `level` (`RUST_LOG`) into the
    /// file [`Server::log`].
    #[allow(dead_code)]
    pub fn start_logged(level: &str, extra: &[&str]) -> Server {
        let mut server = Server::unstarted(extra);
        server.log = Some(server.dir.join("stderr.log"));
        server.log_level = Some(level.to_string());
        server.spawn();
        server
    }

    /// The server's standard error so far (for [`Server::start_on`] and
    /// [`Server::start_logged`]).
    #[allow(dead_code)]
    pub fn log(&self) -> String {
        self.log
            .as_ref()
            .and_then(|p| std::fs::read_to_string(p).ok())
            .unwrap_or_default()
    }

    fn unstarted(extra: &[&str]) -> Server {
        let dir = std::env::temp_dir().join(format!(
            "spelbord-serve-test-{}-{}",
            std::process::id(),
            NEXT_DIR.fetch_add(1, Ordering::SeqCst)
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a temporary folder");
        let mut args: Vec<String> = Vec::new();
        // Every client of a test is 127.0.0.1: the limits per address are
        // off unless the test sets them.
        for flag in [
            "--rate-limit",
            "--create-limit",
            "--max-open-tables",
            "--max-watchers-per-address",
            "--max-connections-per-address",
        ] {
            if !extra.contains(&flag) {
                args.extend([flag.to_string(), "0".to_string()]);
            }
        }
        args.extend(extra.iter().map(|s| s.to_string()));
        Server {
            child: None,
            _stdout: None,
            base: String::new(),
            dir,
            args,
            soft_open_files: None,
            db_url: None,
            log: None,
            log_level: None,
            prefix: Vec::new(),
            bind: "127.0.0.1".into(),
        }
    }

    /// Like [`Server::start`], but the process starts with a soft open-file
    /// limit of `limit` (the common 1024), as a server started from a shell is.
    pub fn start_with_open_files(limit: u64, extra: &[&str]) -> Server {
        let mut server = Server::start(extra);
        server.kill9();
        server.soft_open_files = Some(limit);
        server.spawn();
        server
    }

    /// The database file.
    pub fn db(&self) -> PathBuf {
        self.dir.join("spelbord.db")
    }

    /// The `--db` argument: the SQLite file or the PostgreSQL URL.
    fn db_arg(&self) -> std::ffi::OsString {
        match &self.db_url {
            Some(url) => url.into(),
            None => self.db().into(),
        }
    }

    /// Runs `spelbord serve` on this server's database until it exits (to
    /// see a second process refused); returns its status and standard error.
    #[allow(dead_code)]
    pub fn run_second(&self) -> (ExitStatus, String) {
        let output = Command::new(server_bin())
            .arg("serve")
            .arg("--addr")
            .arg("127.0.0.1:0")
            .arg("--db")
            .arg(self.db_arg())
            .stdin(Stdio::null())
            .output()
            .expect("spelbord serve runs");
        (
            output.status,
            String::from_utf8_lossy(&output.stderr).into_owned(),
        )
    }

    fn spawn(&mut self) {
        let mut line: Vec<std::ffi::OsString> = self.prefix.clone();
        if let Some(limit) = self.soft_open_files {
            let ulimit = format!("ulimit -Sn {limit} && exec \"$0\" \"$@\"");
            line.extend(["sh".into(), "-c".into(), ulimit.into()]);
        }
        line.push(server_bin());
        let mut child = Command::new(&line[0])
            .args(&line[1..])
            .arg("serve")
            .arg("--addr")
            .arg(format!("{}:0", self.bind))
            .arg("--db")
            .arg(self.db_arg())
            .args(&self.args)
            .env(
                "RUST_LOG",
                self.log_level.clone().unwrap_or_else(|| {
                    std::env::var("SPELBORD_TEST_SERVER_LOG").unwrap_or_else(|_| "warn".into())
                }),
            )
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(match &self.log {
                Some(path) => Stdio::from(
                    std::fs::OpenOptions::new()
                        .create(true)
                        .append(true)
                        .open(path)
                        .expect("a log file"),
                ),
                None => Stdio::inherit(),
            })
            .spawn()
            .expect("spelbord serve starts");
        let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
        let mut line = String::new();
        stdout
            .read_line(&mut line)
            .expect("the server prints its address");
        let base = line
            .trim()
            .strip_prefix("spelbord serve: listening on ")
            .unwrap_or_else(|| panic!("unexpected first line `{line}`"))
            .to_string();
        assert!(
            base.starts_with(&format!("http://{}:", self.bind)),
            "{base}"
        );
        self.base = base;
        self.child = Some(child);
        self._stdout = Some(stdout);
    }

    /// `kill -9`: the process dies at once, whatever it was doing.
    pub fn kill9(&mut self) {
        if let Some(mut child) = self.child.take() {
            child.kill().expect("SIGKILL");
            child.wait().expect("reaped");
        }
    }

    /// Starts the server again on the same database (a new port).
    pub fn restart(&mut self) {
        self.kill9();
        self.spawn();
    }

    /// Sends SIGTERM and waits (up to 20 s) for the process to exit.
    pub fn terminate(&mut self) -> ExitStatus {
        let mut child = self.child.take().expect("running");
        let status = Command::new("kill")
            .arg("-TERM")
            .arg(child.id().to_string())
            .status()
            .expect("kill runs");
        assert!(status.success());
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            if let Some(status) = child.try_wait().expect("wait") {
                return status;
            }
            if Instant::now() > deadline {
                let _ = child.kill();
                panic!("the server did not stop within 20 s of SIGTERM");
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// The server's process id (for the load benchmark's CPU figures).
    #[allow(dead_code)]
    pub fn pid(&self) -> u32 {
        self.child.as_ref().map_or(0, Child::id)
    }

    /// An API client of this server (its address as of now).
    pub fn api(&self) -> Api {
        Api::new(&self.base)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.kill9();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// An HTTP client of the API.
#[derive(Clone)]
pub struct Api {
    http: reqwest::Client,
    /// The server's base address.
    pub base: String,
}

/// A status and a JSON body.
pub type Reply = (u16, Value);

impl Api {
    /// A client (one connection pool of its own).
    pub fn new(base: &str) -> Api {
        Api {
            http: reqwest::Client::builder()
                .timeout(Duration::from_secs(30))
                // Idle connections are dropped before the server's keep-alive
                // limit (`--header-timeout`, 10 s) closes them under a request.
                .pool_idle_timeout(Duration::from_secs(5))
                .build()
                .expect("a client"),
            base: base.to_string(),
        }
    }

    /// A client whose requests give up after `timeout`, and connecting
    /// after 2 s (e.g. to a node cut off from the network).
    #[allow(dead_code)]
    pub fn with_timeout(base: &str, timeout: Duration) -> Api {
        Api {
            http: reqwest::Client::builder()
                .timeout(timeout)
                .connect_timeout(timeout.min(Duration::from_secs(2)))
                .pool_idle_timeout(Duration::from_secs(5))
                .build()
                .expect("a client"),
            base: base.to_string(),
        }
    }

    /// A client whose connections come from `local` (e.g. 127.0.0.2, which
    /// Linux's loopback accepts): to the server, another client address.
    #[allow(dead_code)]
    pub fn from_address(base: &str, local: std::net::IpAddr) -> Api {
        Api {
            http: reqwest::Client::builder()
                .timeout(Duration::from_secs(30))
                .pool_idle_timeout(Duration::from_secs(5))
                .local_address(local)
                .build()
                .expect("a client"),
            base: base.to_string(),
        }
    }

    async fn reply(response: reqwest::Response) -> Reply {
        let status = response.status().as_u16();
        let text = response.text().await.expect("a body");
        let body = serde_json::from_str(&text).unwrap_or(Value::String(text));
        (status, body)
    }

    /// GET with an optional bearer token.
    pub async fn get(&self, path: &str, token: Option<&str>) -> Reply {
        self.try_get(path, token).await.expect("the server answers")
    }

    /// GET that may fail to connect.
    pub async fn try_get(&self, path: &str, token: Option<&str>) -> Result<Reply, reqwest::Error> {
        let mut request = self.http.get(format!("{}{path}", self.base));
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        Ok(Self::reply(request.send().await?).await)
    }

    /// POST of raw bytes (for malformed bodies).
    pub async fn post_raw(&self, path: &str, body: Vec<u8>, token: Option<&str>) -> Reply {
        let mut request = self
            .http
            .post(format!("{}{path}", self.base))
            .header("content-type", "application/json")
            .body(body);
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        Self::reply(request.send().await.expect("the server answers")).await
    }

    /// POST of JSON that may fail to connect.
    pub async fn try_post(
        &self,
        path: &str,
        body: &Value,
        token: Option<&str>,
    ) -> Result<Reply, reqwest::Error> {
        let mut request = self.http.post(format!("{}{path}", self.base)).json(body);
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        Ok(Self::reply(request.send().await?).await)
    }

    /// POST of JSON.
    pub async fn post(&self, path: &str, body: &Value, token: Option<&str>) -> Reply {
        self.try_post(path, body, token)
            .await
            .expect("the server answers")
    }

    /// Creates a table; panics unless 201.
    pub async fn create(&self, game: &str, options: Value, seats: &[String]) -> Value {
        let (status, body) = self
            .post(
                "/api/tables",
                &json!({ "game": game, "options": options, "seats": seats }),
                None,
            )
            .await;
        assert_eq!(status, 201, "create {game}: {body}");
        body
    }

    /// GET with extra headers.
    pub async fn get_with(&self, path: &str, headers: &[(&str, &str)]) -> Reply {
        let mut request = self.http.get(format!("{}{path}", self.base));
        for (k, v) in headers {
            request = request.header(*k, *v);
        }
        Self::reply(request.send().await.expect("the server answers")).await
    }

    /// POST of JSON with extra headers.
    pub async fn post_with(&self, path: &str, body: &Value, headers: &[(&str, &str)]) -> Reply {
        let mut request = self.http.post(format!("{}{path}", self.base)).json(body);
        for (k, v) in headers {
            request = request.header(*k, *v);
        }
        Self::reply(request.send().await.expect("the server answers")).await
    }

    /// DELETE with extra headers, that may fail to connect.
    #[allow(dead_code)]
    pub async fn try_delete_with(
        &self,
        path: &str,
        headers: &[(&str, &str)],
    ) -> Result<Reply, reqwest::Error> {
        let mut request = self.http.delete(format!("{}{path}", self.base));
        for (k, v) in headers {
            request = request.header(*k, *v);
        }
        Ok(Self::reply(request.send().await?).await)
    }

    /// Joins a seat; returns its token.
    pub async fn join(&self, table: &str, seat: usize) -> String {
        let (status, body) = self
            .post(
                &format!("/api/tables/{table}/join"),
                &json!({ "seat": seat, "name": format!("tester {seat}") }),
                None,
            )
            .await;
        assert_eq!(status, 200, "join seat {seat}: {body}");
        body["token"].as_str().expect("a token").to_string()
    }

    /// The table as a seat or a spectator sees it; panics unless 200.
    pub async fn view(&self, table: &str, token: Option<&str>) -> Value {
        let (status, body) = self.get(&format!("/api/tables/{table}"), token).await;
        assert_eq!(status, 200, "view: {body}");
        body
    }

    /// The record of a table; panics unless 200.
    pub async fn record(&self, table: &str) -> Record {
        let (status, body) = self.get(&format!("/api/tables/{table}/record"), None).await;
        assert_eq!(status, 200, "record: {body}");
        serde_json::from_value(body).expect("a record")
    }
}

/// The seats of a new table: seat 0 open, the others `others`.
pub fn seats(players: usize, others: &str) -> Vec<String> {
    (0..players)
        .map(|p| {
            if p == 0 {
                "open".into()
            } else {
                others.to_string()
            }
        })
        .collect()
}

/// The number of seats of a game with these options.
pub fn players_of(game: &str, options: &[(&str, &str)]) -> usize {
    let g = find_game(game).expect("a game");
    let pairs: Vec<String> = options.iter().map(|(k, v)| format!("{k}={v}")).collect();
    let options = g.parse_options(&pairs).expect("options");
    g.new_state(&options).expect("a state").num_players()
}

/// An acknowledged action: table, the version it produced, its text.
#[derive(Clone, Debug, PartialEq)]
pub struct Ack {
    /// The table.
    pub table: String,
    /// The version after the action.
    pub version: u64,
    /// The action as the server wrote it.
    pub text: String,
}

/// Every message one seat or spectator received, with the version it was at.
#[derive(Default, Debug)]
pub struct Seen {
    /// (version the message shows, the message).
    pub messages: Vec<(u64, Value)>,
}

/// Plays random legal actions for the seats whose tokens are given until the
/// game is over (AI seats move by themselves). Returns the acknowledged
/// actions; with `seen`, also what each seat's HTTP answers showed.
/// Stops early (returning what was acknowledged) if the server goes away.
pub async fn play_random(
    api: &Api,
    table: &str,
    tokens: &[Option<String>],
    rng: &mut StdRng,
    mut seen: Option<&mut Vec<Seen>>,
) -> Result<Vec<Ack>, String> {
    let mut acks = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        assert!(
            Instant::now() < deadline,
            "table {table} did not finish in time"
        );
        let (status, view) = api
            .try_get(&format!("/api/tables/{table}"), None)
            .await
            .map_err(|e| e.to_string())?;
        if status != 200 {
            return Err(format!("view: {status} {view}"));
        }
        let turn = &view["state"]["turn"];
        match turn["kind"].as_str() {
            Some("over") => return Ok(acks),
            Some("player") => {}
            other => return Err(format!("unexpected turn {other:?}")),
        }
        let seat = turn["seat"].as_u64().expect("a seat") as usize;
        let Some(token) = tokens[seat].as_deref() else {
            // An AI seat: it moves by itself.
            tokio::time::sleep(Duration::from_millis(2)).await;
            continue;
        };
        let (status, mine) = api
            .try_get(&format!("/api/tables/{table}"), Some(token))
            .await
            .map_err(|e| e.to_string())?;
        if status != 200 {
            return Err(format!("view as seat: {status} {mine}"));
        }
        let version = mine["version"].as_u64().expect("a version");
        if let Some(seen) = seen.as_deref_mut() {
            seen[seat].messages.push((version, mine.clone()));
        }
        let legal = mine["state"]["legal"]
            .as_array()
            .unwrap_or_else(|| panic!("legal actions for seat {seat}: {mine}"));
        assert!(!legal.is_empty(), "no legal action for seat {seat}");
        let pick = &legal[rng.random_range(0..legal.len())];
        // Half the actions go as notation, half as the game's JSON.
        let body = if rng.random_bool(0.5) {
            json!({ "version": version, "action": pick["text"] })
        } else {
            json!({ "version": version, "json": pick["json"] })
        };
        let (status, reply) = api
            .try_post(&format!("/api/tables/{table}/actions"), &body, Some(token))
            .await
            .map_err(|e| e.to_string())?;
        if status != 200 {
            return Err(format!("act {body}: {status} {reply}"));
        }
        let first = &reply["actions"][0];
        assert_eq!(first["seat"].as_u64(), Some(seat as u64));
        assert_eq!(first["text"], pick["text"]);
        acks.push(Ack {
            table: table.to_string(),
            version: first["version"].as_u64().expect("a version"),
            text: pick["text"].as_str().expect("text").to_string(),
        });
        if let Some(seen) = seen.as_deref_mut() {
            let v = reply["version"].as_u64().expect("a version");
            seen[seat].messages.push((v, reply));
        }
    }
}

/// A WebSocket viewer collecting every message until the game is over.
pub struct Watcher {
    task: tokio::task::JoinHandle<Vec<Value>>,
}

impl Watcher {
    /// Connects to a table as the token's seat (or as a spectator) and says hello.
    pub async fn start(
        base: &str,
        table: &str,
        token: Option<String>,
        since: Option<u64>,
    ) -> Watcher {
        let url = format!("{}/api/tables/{table}/ws", base.replacen("http", "ws", 1));
        let (mut socket, _) = tokio_tungstenite::connect_async(url)
            .await
            .expect("the WebSocket connects");
        let hello = json!({ "type": "hello", "token": token, "since": since });
        socket
            .send(Message::Text(hello.to_string().into()))
            .await
            .expect("hello sent");
        let task = tokio::spawn(async move {
            let mut messages = Vec::new();
            let deadline = tokio::time::Instant::now() + Duration::from_secs(180);
            while let Ok(Some(Ok(message))) = tokio::time::timeout_at(deadline, socket.next()).await
            {
                let Message::Text(text) = message else {
                    if matches!(message, Message::Close(_)) {
                        break;
                    }
                    continue;
                };
                let value: Value = serde_json::from_str(&text).expect("JSON messages");
                let over = value["state"]["turn"]["kind"] == "over";
                messages.push(value);
                if over {
                    break;
                }
            }
            messages
        });
        Watcher { task }
    }

    /// The messages received (waits for the end of the game).
    pub async fn messages(self) -> Vec<Value> {
        self.task.await.expect("the watcher ran")
    }
}

/// The states of a game after each version, replayed from its record.
pub fn replay_states(record: &Record) -> Vec<Box<dyn DynState>> {
    let game = find_game(&record.game).expect("a game");
    let pairs: Vec<String> = record
        .options
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    let options = game.parse_options(&pairs).expect("options");
    let mut state = game.new_state(&options).expect("a state");
    let mut states = vec![state.clone_box()];
    for action in &record.actions {
        state.apply_text(action).expect("the record replays");
        states.push(state.clone_box());
    }
    assert!(
        record.replay().is_ok(),
        "the record replays with its result"
    );
    states
}

/// Checks one viewer's WebSocket stream against the replayed game: the
/// welcome, contiguous versions, each state exactly the viewer's observation
/// (nothing hidden from him), legal actions only on his turn, action texts
/// as recorded, and no chance action shown in a game with hidden information.
pub fn check_stream(
    messages: &[Value],
    viewer: Viewer,
    record: &Record,
    states: &[Box<dyn DynState>],
) {
    let hidden = find_game(&record.game).expect("game").hidden_information();
    assert_eq!(
        messages.first().map(|m| &m["type"]),
        Some(&json!("welcome"))
    );
    let mut last: Option<u64> = None;
    for m in &messages[1..] {
        match m["type"].as_str() {
            Some("seats") => continue,
            Some("sync") => {}
            Some("event") => {
                let v = m["version"].as_u64().expect("a version");
                if let Some(last) = last {
                    assert_eq!(v, last + 1, "versions follow each other");
                }
                let action = &m["action"];
                let actor = action["seat"].as_u64();
                let text = &record.actions[v as usize - 1];
                if actor.is_none() && hidden {
                    assert_eq!(action["hidden"], json!(true));
                    assert!(
                        action.get("text").is_none() && action.get("json").is_none(),
                        "{m}"
                    );
                } else {
                    assert_eq!(action["text"].as_str(), Some(text.as_str()));
                }
            }
            other => panic!("unexpected message {other:?}: {m}"),
        }
        let v = m["version"].as_u64().expect("a version");
        last = Some(v);
        check_state(&m["state"], viewer, &*states[v as usize]);
    }
    assert_eq!(
        last,
        Some(record.actions.len() as u64),
        "the stream reaches the end"
    );
}

/// Checks a state view against the replayed state for this viewer.
pub fn check_state(view: &Value, viewer: Viewer, state: &dyn DynState) {
    assert_eq!(
        view["observation"],
        state.observation_json(viewer),
        "observation"
    );
    assert_eq!(
        view["text"].as_str(),
        Some(state.render(viewer, false).as_str())
    );
    let my_turn = matches!((state.turn(), viewer), (Turn::Player(p), Viewer::Player(v)) if p == v);
    assert_eq!(
        view.get("legal").is_some(),
        my_turn,
        "legal only on the viewer's turn"
    );
    if my_turn {
        let texts: Vec<&str> = view["legal"]
            .as_array()
            .expect("legal")
            .iter()
            .map(|a| a["text"].as_str().expect("text"))
            .collect();
        let expected: Vec<String> = state.legal_actions().into_iter().map(|a| a.text).collect();
        assert_eq!(texts, expected);
    }
}

/// A fresh database on the PostgreSQL server that `SPELBORD_TEST_PG` names
/// (its URL), or `None` after saying that the test was skipped.
pub async fn test_database() -> Option<String> {
    spelbord_server::store::test_database()
        .await
        .expect("a PostgreSQL test database")
}

/// The test database's URL and a pool on it (see [`test_database`]).
pub async fn test_database_pool() -> Option<(String, sqlx::PgPool)> {
    let url = test_database().await?;
    let db = sqlx::PgPool::connect(&url)
        .await
        .expect("the test database");
    Some((url, db))
}
