//! Faults of the database under a real server: a disk that fills up under
//! load and is freed again, and a PostgreSQL server that stops and comes
//! back. Both need root here (to mount a file system; to run PostgreSQL as
//! its own user); without it they say loudly that they were skipped, and
//! under CI (`CI` set) they fail instead.

use crate::harness::{Ack, Api, Server};
use crate::test_seed;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde_json::json;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Skips a test that cannot run here, loudly; fails it under CI.
fn skip(test: &str, why: &str) {
    if std::env::var_os("CI").is_some() {
        panic!("{test} cannot run under CI: {why}");
    }
    spelbord_server::store::say_skipped(test, why);
}

/// A small tmpfs mounted by the test, unmounted when dropped.
struct Tmpfs(PathBuf);

impl Tmpfs {
    fn mount(dir: &Path, size_mib: u32) -> Result<Tmpfs, String> {
        let output = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size_mib}m"), "tmpfs"])
            .arg(dir)
            .output()
            .map_err(|e| format!("cannot run mount: {e}"))?;
        if output.status.success() {
            Ok(Tmpfs(dir.to_path_buf()))
        } else {
            Err(String::from_utf8_lossy(&output.stderr).trim().to_string())
        }
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg("-l").arg(&self.0).status();
    }
}

/// Fills the file system of `dir` with one file until no byte more fits;
/// returns the file.
fn fill(dir: &Path) -> PathBuf {
    use std::io::Write;
    let path = dir.join("filler");
    let mut file = std::fs::File::create(&path).expect("a filler file");
    for chunk in [1 << 20, 4096, 1] {
        let block = vec![0u8; chunk];
        while file.write_all(&block).is_ok() {}
    }
    let _ = file.sync_all();
    path
}

/// What the clients of the full-disk test saw.
#[derive(Default)]
struct Seen {
    acks: Vec<(Instant, Ack)>,
    unavailable: usize,
    other: Vec<String>,
}

/// One table with a token for each of its two seats.
struct Seated {
    id: String,
    tokens: [String; 2],
}

/// Records an answer that is not a success in `seen`; whether it was 503.
fn refused(seen: &Mutex<Seen>, answer: Result<(u16, serde_json::Value), reqwest::Error>) -> bool {
    let mut seen = seen.lock().expect("seen");
    match answer {
        Ok((503, _)) => {
            seen.unavailable += 1;
            return true;
        }
        Ok((status, reply)) => seen.other.push(format!("{status} {reply}")),
        Err(e) => seen.other.push(e.to_string()),
    }
    false
}

/// A new Tawla table for two people, both seats taken; `None` if the
/// server refused (recorded in `seen`).
async fn new_table(api: &Api, seen: &Mutex<Seen>) -> Option<Seated> {
    let body = json!({ "game": "tawla", "seats": ["open", "open"] });
    let id = match api.try_post("/api/tables", &body, None).await {
        Ok((201, created)) => created["id"].as_str().expect("an id").to_string(),
        answer => {
            refused(seen, answer);
            return None;
        }
    };
    let mut tokens = Vec::new();
    for seat in 0..2 {
        let join = json!({ "seat": seat, "name": format!("tester {seat}") });
        match api
            .try_post(&format!("/api/tables/{id}/join"), &join, None)
            .await
        {
            Ok((200, joined)) => {
                tokens.push(joined["token"].as_str().expect("a token").to_string())
            }
            answer => {
                refused(seen, answer);
                return None;
            }
        }
    }
    let tokens = [tokens[0].clone(), tokens[1].clone()];
    Some(Seated { id, tokens })
}

/// Plays random legal actions at tables of its own, one after another,
/// until `until`, through refusals, recording every answer in `seen`.
async fn play_through(api: Api, until: Instant, seed: u64, seen: Arc<Mutex<Seen>>) {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut table = None;
    while Instant::now() < until {
        let Some(at) = &table else {
            table = new_table(&api, &seen).await;
            if table.is_none() {
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
            continue;
        };
        let Ok((200, view)) = api.try_get(&format!("/api/tables/{}", at.id), None).await else {
            tokio::time::sleep(Duration::from_millis(20)).await;
            continue;
        };
        if view["state"]["turn"]["kind"] == "over" {
            table = None;
            continue;
        }
        let Some(seat) = view["state"]["turn"]["seat"].as_u64() else {
            tokio::time::sleep(Duration::from_millis(5)).await;
            continue;
        };
        let token = &at.tokens[seat as usize];
        let Ok((200, mine)) = api
            .try_get(&format!("/api/tables/{}", at.id), Some(token))
            .await
        else {
            continue;
        };
        let Some(legal) = mine["state"]["legal"].as_array().filter(|l| !l.is_empty()) else {
            continue;
        };
        let pick = legal[rng.random_range(0..legal.len())]["text"]
            .as_str()
            .expect("an action's text")
            .to_string();
        let body = json!({ "version": mine["version"], "action": pick });
        match api
            .try_post(
                &format!("/api/tables/{}/actions", at.id),
                &body,
                Some(token),
            )
            .await
        {
            Ok((200, reply)) => seen.lock().expect("seen").acks.push((
                Instant::now(),
                Ack {
                    table: at.id.clone(),
                    version: reply["actions"][0]["version"].as_u64().expect("a version"),
                    text: pick,
                },
            )),
            answer => {
                if refused(&seen, answer) {
                    tokio::time::sleep(Duration::from_millis(20)).await;
                }
            }
        }
    }
}

/// The fault the issue measured: a SQLite database whose disk fills up for
/// seconds while people play, then is freed. Every action answered 200 must
/// be in the database after `kill -9` and a restart; actions during the
/// fault get 503; play resumes by itself once there is room again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_disk_acknowledges_only_what_is_stored() {
    let _heavy = crate::heavy().await;
    const TEST: &str = "a_full_disk_acknowledges_only_what_is_stored";
    let seed = test_seed("full disk");
    let mut mounted = Err(String::new());
    let mut server = Server::start_prepared(&[], |dir| mounted = Tmpfs::mount(dir, 64));
    let _tmpfs = match mounted {
        Ok(tmpfs) => tmpfs,
        Err(why) => return skip(TEST, &format!("cannot mount a tmpfs ({why}); needs root")),
    };
    let api = server.api();
    let seen = Arc::new(Mutex::new(Seen::default()));
    let until = Instant::now() + Duration::from_secs(9);
    let mut clients = Vec::new();
    for i in 0..8 {
        let (api, seen) = (api.clone(), seen.clone());
        let seed = seed.wrapping_add(i);
        clients.push(tokio::spawn(play_through(api, until, seed, seen)));
    }
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let dir = server
        .db()
        .parent()
        .expect("the database's folder")
        .to_path_buf();
    let filler = fill(&dir);
    let full_at = Instant::now();
    let health_when_full = api.try_get("/api/health", None).await.map(|r| r.0);
    tokio::time::sleep(Duration::from_secs(3)).await;
    std::fs::remove_file(&filler).expect("the filler removed");
    let freed_at = Instant::now();
    for client in clients {
        client.await.expect("a client");
    }
    let seen = Arc::try_unwrap(seen)
        .ok()
        .expect("the clients are done")
        .into_inner()
        .expect("seen");
    let during = seen
        .acks
        .iter()
        .filter(|(at, _)| *at >= full_at && *at < freed_at)
        .count();
    let after = seen.acks.iter().filter(|(at, _)| *at >= freed_at).count();
    println!(
        "{} actions acknowledged ({during} while the disk was full, {after} after), {} answered 503, \
         health while full: {health_when_full:?}",
        seen.acks.len(),
        seen.unavailable
    );
    assert!(
        seen.other.is_empty(),
        "unexpected answers: {:?}",
        seen.other
    );
    assert!(
        seen.unavailable > 0,
        "the full disk refused some actions (503)"
    );
    assert!(after > 0, "play resumed by itself once the disk had room");
    let (status, health) = api.get("/api/health", None).await;
    assert_eq!(status, 200, "healthy again once writes commit: {health}");
    server.kill9();
    server.restart();
    let api = server.api();
    let mut tables: Vec<&str> = seen.acks.iter().map(|(_, a)| a.table.as_str()).collect();
    tables.sort_unstable();
    tables.dedup();
    for table in tables {
        let (status, body) = api.get(&format!("/api/tables/{table}/record"), None).await;
        assert_eq!(
            status, 200,
            "table {table}, with acknowledged actions, survived kill -9: {body}"
        );
        let record: spelbord_engine::Record = serde_json::from_value(body).expect("a record");
        for (_, ack) in seen.acks.iter().filter(|(_, a)| a.table == table) {
            assert_eq!(
                record.actions.get(ack.version as usize - 1),
                Some(&ack.text),
                "table {table}: acknowledged action {} survived kill -9",
                ack.version
            );
        }
    }
}

/// A private PostgreSQL cluster in a temporary folder, stopped and started
/// by the test (run as the `postgres` user under root).
struct PrivatePg {
    bin: PathBuf,
    dir: PathBuf,
    port: u16,
    as_postgres: bool,
}

impl PrivatePg {
    fn start() -> Result<PrivatePg, String> {
        let bin = std::fs::read_dir("/usr/lib/postgresql")
            .map_err(|e| format!("no PostgreSQL in /usr/lib/postgresql ({e})"))?
            .filter_map(|e| e.ok().map(|e| e.path().join("bin")))
            .filter(|p| p.join("pg_ctl").exists())
            .max_by_key(|p| {
                p.parent()
                    .and_then(|v| v.file_name()?.to_str()?.parse::<u32>().ok())
                    .unwrap_or(0)
            })
            .ok_or("no PostgreSQL server binaries")?;
        let dir = std::env::temp_dir().join(format!(
            "spelbord-pg-fault-{}-{}",
            std::process::id(),
            rand::random::<u32>()
        ));
        std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
        let as_postgres = Command::new("id")
            .arg("-u")
            .output()
            .is_ok_and(|o| o.stdout.starts_with(b"0\n"));
        if as_postgres {
            let chown = Command::new("chown").arg("postgres:").arg(&dir).status();
            if !chown.is_ok_and(|s| s.success()) {
                return Err("cannot give the folder to the postgres user".into());
            }
        }
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .map_err(|e| e.to_string())?
            .port();
        let pg = PrivatePg {
            bin,
            dir,
            port,
            as_postgres,
        };
        pg.run(
            "initdb",
            &[
                "-D",
                &pg.data(),
                "-U",
                "spelbord",
                "--auth=trust",
                "-E",
                "UTF8",
            ],
        )?;
        pg.start_again()?;
        Ok(pg)
    }

    fn data(&self) -> String {
        self.dir.join("data").display().to_string()
    }

    fn run(&self, tool: &str, args: &[&str]) -> Result<(), String> {
        let program = self.bin.join(tool);
        let mut command = if self.as_postgres {
            let mut c = Command::new("runuser");
            c.args(["-u", "postgres", "--"]).arg(&program);
            c
        } else {
            Command::new(&program)
        };
        let output = command
            .args(args)
            .output()
            .map_err(|e| format!("{tool}: {e}"))?;
        if output.status.success() {
            Ok(())
        } else {
            Err(format!(
                "{tool}: {}",
                String::from_utf8_lossy(&output.stderr).trim()
            ))
        }
    }

    fn start_again(&self) -> Result<(), String> {
        let options = format!(
            "-p {} -k {} -c listen_addresses=127.0.0.1",
            self.port,
            self.dir.display()
        );
        let log = self.dir.join("log").display().to_string();
        self.run(
            "pg_ctl",
            &[
                "-D",
                &self.data(),
                "-l",
                &log,
                "-w",
                "-o",
                &options,
                "start",
            ],
        )
    }

    fn stop(&self) -> Result<(), String> {
        self.run("pg_ctl", &["-D", &self.data(), "-m", "fast", "-w", "stop"])
    }

    fn url(&self) -> String {
        format!("postgres://spelbord@127.0.0.1:{}/postgres", self.port)
    }
}

impl Drop for PrivatePg {
    fn drop(&mut self) {
        let _ = self.run("pg_ctl", &["-D", &self.data(), "-m", "immediate", "stop"]);
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Waits up to `limit` for `/api/health` to answer `status`; returns how long it took.
async fn health_turns(api: &Api, status: u16, limit: Duration) -> Option<Duration> {
    let started = Instant::now();
    while started.elapsed() < limit {
        if let Ok((s, _)) = api.try_get("/api/health", None).await
            && s == status
        {
            return Some(started.elapsed());
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    None
}

/// `/api/health` tells a load balancer the truth: 503 within 5 s of the
/// node's PostgreSQL stopping, 200 within 5 s of it coming back.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn health_follows_postgresql_stopping_and_coming_back() {
    const TEST: &str = "health_follows_postgresql_stopping_and_coming_back";
    let pg = match PrivatePg::start() {
        Ok(pg) => pg,
        Err(why) => return skip(TEST, &format!("no private PostgreSQL: {why}")),
    };
    let server = Server::start_on(&pg.url(), &[]);
    let api = server.api();
    let up = health_turns(&api, 200, Duration::from_secs(10)).await;
    assert!(up.is_some(), "healthy at the start: {}", server.log());
    pg.stop().expect("PostgreSQL stops");
    let down = health_turns(&api, 503, Duration::from_secs(5)).await;
    println!("503 after {down:?}");
    assert!(down.is_some(), "503 within 5 s of PostgreSQL stopping");
    let (_, body) = api.get("/api/health", None).await;
    assert_eq!(body["ok"], false, "{body}");
    pg.start_again().expect("PostgreSQL starts again");
    let back = health_turns(&api, 200, Duration::from_secs(5)).await;
    println!("200 again after {back:?}");
    assert!(
        back.is_some(),
        "200 within 5 s of PostgreSQL coming back: {}",
        server.log()
    );
}
