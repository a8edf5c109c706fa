//! Crash safety: play, `kill -9` the server at random moments, restart it,
//! and check that every acknowledged action is there.

use crate::harness::{Ack, Api, Server, Watcher, play_random, players_of, replay_states};
use crate::test_seed;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde_json::json;
use spelbord_engine::games;
use std::sync::{Arc, Mutex};
use std::time::Duration;

struct Seated {
    id: String,
    tokens: Vec<Option<String>>,
}

/// Plays every table with random moves until the server goes away or the
/// games end; returns every acknowledged action.
async fn play_until_killed(api: &Api, tables: &[Seated], seed: u64) -> Vec<Ack> {
    let acks = Arc::new(Mutex::new(Vec::new()));
    let mut tasks = Vec::new();
    for (i, table) in tables.iter().enumerate() {
        let api = api.clone();
        let id = table.id.clone();
        let tokens = table.tokens.clone();
        let acks = acks.clone();
        tasks.push(tokio::spawn(async move {
            let mut rng = StdRng::seed_from_u64(seed.wrapping_add(i as u64));
            // Errors are expected: the server is killed under the client.
            let mut mine = Vec::new();
            let _ = play_random_collecting(&api, &id, &tokens, &mut rng, &mut mine).await;
            acks.lock().expect("acks").extend(mine);
        }));
    }
    for task in tasks {
        task.await.expect("a client task");
    }
    Arc::try_unwrap(acks)
        .expect("all tasks done")
        .into_inner()
        .expect("acks")
}

/// Like [`play_random`], but keeps the acknowledgements made before a failure.
async fn play_random_collecting(
    api: &Api,
    id: &str,
    tokens: &[Option<String>],
    rng: &mut StdRng,
    acks: &mut Vec<Ack>,
) -> Result<(), String> {
    // One action at a time, so that each acknowledgement is kept at once.
    loop {
        let view = api
            .try_get(&format!("/api/tables/{id}"), None)
            .await
            .map_err(|e| e.to_string())?;
        if view.1["state"]["turn"]["kind"] == "over" {
            return Ok(());
        }
        let one_step = step(api, id, tokens, rng).await?;
        acks.extend(one_step);
    }
}

/// One action of the seat to move (if it is a person), acknowledged or not.
async fn step(
    api: &Api,
    id: &str,
    tokens: &[Option<String>],
    rng: &mut StdRng,
) -> Result<Vec<Ack>, String> {
    let (_, view) = api
        .try_get(&format!("/api/tables/{id}"), None)
        .await
        .map_err(|e| e.to_string())?;
    let Some(seat) = view["state"]["turn"]["seat"].as_u64() else {
        return Ok(Vec::new());
    };
    let Some(token) = tokens[seat as usize].as_deref() else {
        tokio::time::sleep(Duration::from_millis(2)).await;
        return Ok(Vec::new());
    };
    let (_, mine) = api
        .try_get(&format!("/api/tables/{id}"), Some(token))
        .await
        .map_err(|e| e.to_string())?;
    let legal = mine["state"]["legal"]
        .as_array()
        .ok_or("no legal actions")?;
    let pick = &legal[rng.random_range(0..legal.len())];
    let body = json!({ "version": mine["version"], "action": pick["text"] });
    let (status, reply) = api
        .try_post(&format!("/api/tables/{id}/actions"), &body, Some(token))
        .await
        .map_err(|e| e.to_string())?;
    if status != 200 {
        return Err(format!("{status} {reply}"));
    }
    Ok(vec![Ack {
        table: id.to_string(),
        version: reply["actions"][0]["version"].as_u64().ok_or("a version")?,
        text: pick["text"].as_str().ok_or("text")?.to_string(),
    }])
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn acknowledged_actions_survive_kill_9() {
    let _heavy = crate::heavy().await;
    let seed = test_seed("crash safety");
    let mut rng = StdRng::seed_from_u64(seed);
    let mut server = Server::start(&[]);
    let api = server.api();
    // Two tables of every game: people only, and a person against the AI.
    let mut tables = Vec::new();
    for game in games() {
        let players = players_of(game.id(), &[]);
        for others in ["open", "ai:random"] {
            let seats = crate::harness::seats(players, others);
            let created = api.create(game.id(), json!({}), &seats).await;
            let id = created["id"].as_str().expect("id").to_string();
            let mut tokens = Vec::new();
            for (seat, kind) in seats.iter().enumerate() {
                tokens.push((kind == "open").then_some(()).map(|_| seat));
            }
            let mut seated = Vec::new();
            for t in tokens {
                seated.push(match t {
                    Some(seat) => Some(api.join(&id, seat).await),
                    None => None,
                });
            }
            tables.push(Seated { id, tokens: seated });
        }
    }
    let mut acks: Vec<Ack> = Vec::new();
    for round in 0..4 {
        let api = server.api();
        let kill_after = Duration::from_millis(rng.random_range(150..900));
        let playing = {
            let api = api.clone();
            let tables: Vec<Seated> = tables
                .iter()
                .map(|t| Seated {
                    id: t.id.clone(),
                    tokens: t.tokens.clone(),
                })
                .collect();
            let seed = rng.random();
            tokio::spawn(async move { play_until_killed(&api, &tables, seed).await })
        };
        tokio::time::sleep(kill_after).await;
        server.kill9();
        let round_acks = playing.await.expect("the clients ran");
        println!(
            "round {round}: killed after {kill_after:?}, {} actions acknowledged",
            round_acks.len()
        );
        acks.extend(round_acks);
        server.restart();
        // Right after the restart, every table is at least where it was acknowledged.
        let api = server.api();
        for table in &tables {
            let version = api.view(&table.id, None).await["version"]
                .as_u64()
                .expect("version");
            let acked = acks
                .iter()
                .filter(|a| a.table == table.id)
                .map(|a| a.version)
                .max();
            assert!(
                acked.is_none_or(|a| version >= a),
                "table {} lost actions: at {version}, acked {acked:?}",
                table.id
            );
        }
    }
    assert!(!acks.is_empty(), "some actions were acknowledged");
    // A reconnecting viewer catches up from the reloaded history.
    let api = server.api();
    let first = &tables[0].id;
    let now = api.view(first, None).await["version"]
        .as_u64()
        .expect("version");
    let since = now.saturating_sub(3);
    let watcher = Watcher::start(&api.base, first, None, Some(since)).await;
    // Play every game to its end, then compare the records with the acknowledgements.
    for table in &tables {
        let more = play_random(&api, &table.id, &table.tokens, &mut rng, None)
            .await
            .unwrap_or_else(|e| panic!("table {}: {e}", table.id));
        acks.extend(more);
    }
    for table in &tables {
        let record = api.record(&table.id).await;
        replay_states(&record);
        for ack in acks.iter().filter(|a| a.table == table.id) {
            assert_eq!(
                record.actions.get(ack.version as usize - 1),
                Some(&ack.text),
                "table {} ({}): acknowledged action {} is in the record",
                table.id,
                record.game,
                ack.version
            );
        }
    }
    let messages = watcher.messages().await;
    assert_eq!(messages[0]["type"], "welcome");
    assert!(
        messages
            .iter()
            .any(|m| m["type"] == "event" && m["version"] == since + 1),
        "caught up from version {since}"
    );
}
