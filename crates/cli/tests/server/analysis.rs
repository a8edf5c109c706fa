//! The analysis of finished games on the server's bounded pool, stored with
//! the table; the hints of a position given as text (GNU Backgammon's IDs).

use crate::harness::{Api, Server, play_random};
use crate::test_seed;
use rand::SeedableRng;
use rand::rngs::StdRng;
use serde_json::{Value, json};
use std::time::{Duration, Instant};

/// Polls the table's analysis until its status is `want` (at most 5 minutes).
async fn wait_for(api: &Api, id: &str, want: &str) -> Value {
    let deadline = Instant::now() + Duration::from_secs(300);
    loop {
        let (status, body) = api.get(&format!("/api/tables/{id}/analysis"), None).await;
        assert_eq!(status, 200, "{body}");
        if body["status"] == want {
            return body;
        }
        assert!(body["status"] != "failed", "{body}");
        assert!(Instant::now() < deadline, "still {body} after 5 minutes");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// A finished backgammon game: seat 0 played at random against `ai:random`.
async fn finished_game(api: &Api, rng: &mut StdRng) -> String {
    let seats = ["open".to_string(), "ai:random".to_string()];
    let created = api.create("backgammon", json!({}), &seats).await;
    let id = created["id"].as_str().expect("an id").to_string();
    let token = api.join(&id, 0).await;
    play_random(api, &id, &[Some(token), None], rng, None)
        .await
        .expect("the game is played out");
    id
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_game_is_analysed_in_the_background_and_stored_with_its_table() {
    // The quick judge: the deep one took 92 s of a quiet core on a long game
    // of random play, and over 5 minutes beside the other tests on 2 cores.
    // The default (deep) judge is the browser's analysis test's.
    let mut server = Server::start(&["--analysis-level", "hard"]);
    let api = server.api();
    let mut rng = StdRng::seed_from_u64(test_seed("analysis"));
    let id = finished_game(&api, &mut rng).await;
    let path = format!("/api/tables/{id}/analysis");
    let (status, body) = api.get(&path, None).await;
    assert_eq!((status, &body["status"]), (200, &json!("none")), "{body}");
    let (status, body) = api.post(&path, &json!({}), None).await;
    assert!(status == 202 || status == 200, "{status} {body}");
    let done = wait_for(&api, &id, "done").await;
    let record = api.record(&id).await;
    assert_eq!(done["version"], json!(record.actions.len()));
    let analysis = &done["analysis"];
    assert_eq!(analysis["game"], "backgammon");
    // The quick judge searches two plies over three candidates; said in words.
    assert_eq!(analysis["analyser"], "net:ply=2,filter=3");
    assert_eq!(analysis["judge"], "quick");
    assert_eq!(analysis["thresholds"], json!([0.03, 0.06, 0.12]));
    assert_eq!(analysis["cube"], json!(false));
    let decisions = analysis["decisions"].as_array().unwrap();
    assert!(!decisions.is_empty(), "{analysis}");
    for d in decisions {
        // Each decision names the action the record played there.
        let index = d["index"].as_u64().unwrap() as usize;
        assert_eq!(d["played"], json!(record.actions[index]), "{d}");
        let chance = d["chance"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&chance), "{d}");
    }
    let players = analysis["players"].as_array().unwrap();
    assert_eq!(players.len(), 2);
    assert_eq!(players[1]["name"], json!(record.players[1]));
    // Other thresholds mark the same losses again.
    let (status, strict) = api
        .get(&format!("{path}?thresholds=0.001,0.002,0.004"), None)
        .await;
    assert_eq!(status, 200, "{strict}");
    assert_eq!(
        strict["analysis"]["thresholds"],
        json!([0.001, 0.002, 0.004])
    );
    let marked = |a: &Value| {
        a["analysis"]["decisions"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|d| !d["mark"].is_null())
            .count()
    };
    assert!(marked(&strict) > marked(&done), "{strict}");
    for bad in ["0.06,0.03,0.12", "x", "0.1,0.2"] {
        let (status, body) = api.get(&format!("{path}?thresholds={bad}"), None).await;
        assert_eq!(
            (status, &body["error"]["code"]),
            (400, &json!("bad_request")),
            "{bad}: {body}"
        );
    }
    let (status, body) = api.post(&path, &json!({ "thresholds": [0.1] }), None).await;
    assert_eq!(status, 400, "{body}");
    // Asking again answers the stored analysis at once.
    let (status, again) = api.post(&path, &json!({}), None).await;
    assert_eq!((status, &again), (200, &done));
    // It is stored with the table: a restarted server has it.
    server.restart();
    let api = server.api();
    let (status, stored) = api.get(&path, None).await;
    assert_eq!((status, &stored), (200, &done));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unfinished_game_is_refused_and_a_full_queue_is_busy() {
    // One worker, room for one more game, and an analyser slow enough that
    // the first game keeps the worker busy for the whole test.
    let server = Server::start(&[
        "--analysis-workers",
        "1",
        "--analysis-queue",
        "1",
        "--analysis-level",
        "mcts:iters=50000000",
    ]);
    let api = server.api();
    let mut rng = StdRng::seed_from_u64(test_seed("analysis queue"));
    let seats = ["open".to_string(), "open".to_string()];
    let created = api.create("backgammon", json!({}), &seats).await;
    let open = created["id"].as_str().unwrap().to_string();
    let (status, body) = api
        .post(&format!("/api/tables/{open}/analysis"), &json!({}), None)
        .await;
    assert_eq!(
        (status, &body["error"]["code"]),
        (409, &json!("not_finished"))
    );
    let (status, _) = api
        .post(
            "/api/tables/0123456789abcdef01234567/analysis",
            &json!({}),
            None,
        )
        .await;
    assert_eq!(status, 404);

    let games = [
        finished_game(&api, &mut rng).await,
        finished_game(&api, &mut rng).await,
        finished_game(&api, &mut rng).await,
    ];
    let ask = |id: &str| {
        let (api, path) = (api.clone(), format!("/api/tables/{id}/analysis"));
        async move { api.post(&path, &json!({}), None).await }
    };
    assert_eq!(ask(&games[0]).await.0, 202);
    wait_for(&api, &games[0], "running").await;
    let (status, queued) = ask(&games[1]).await;
    assert_eq!((status, &queued["status"]), (202, &json!("queued")));
    let (status, busy) = ask(&games[2]).await;
    assert_eq!(
        (status, &busy["error"]["code"]),
        (429, &json!("analysis_busy"))
    );
    // A game already queued is not queued twice, and is no refusal.
    let (status, again) = ask(&games[1]).await;
    assert_eq!((status, &again["status"]), (202, &json!("queued")));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hints_are_given_for_a_gnu_backgammon_position() {
    let server = Server::start(&[]);
    let api = server.api();
    // GNU Backgammon 1.07's position and match ID of root to play 3-1
    // after its opening 24/23 13/11 (`set seed 5`, `new game`, `set dice 3
    // 1`, `show board`); its hint: 8/5 6/5.
    let (status, body) = api
        .get("/api/hints?position=4HPkASjgc%2FABMA%3AcIkFAAAAAAAA", None)
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["game"], "backgammon");
    assert_eq!(body["hints"][0]["text"], "8/5 6/5", "{body}");
    assert_eq!(body["hints"][0]["equity"]["kind"], "cubeless", "{body}");
    assert!(body["hints"].as_array().unwrap().len() > 1);
    // The same position in spelbord's notation gives the same hints.
    let position = body["position"].as_str().unwrap();
    let query: String = position
        .bytes()
        .map(|b| match b {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'-' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect();
    let (status, same) = api
        .get(
            &format!("/api/hints?game=backgammon&position={query}"),
            None,
        )
        .await;
    assert_eq!(status, 200, "{same}");
    assert_eq!(same["hints"], body["hints"]);
    for (query, code) in [
        ("position=4HPkASjgc%2FABMA", "bad_request"), // before the roll: nothing to decide
        ("position=nonsense", "bad_request"),
        (
            "game=chess&position=4HPkASjgc%2FABMA%3AcIkFAAAAAAAA",
            "unknown_game",
        ),
        (
            "game=tawla&position=4HPkASjgc%2FABMA%3AcIkFAAAAAAAA",
            "bad_request",
        ),
        (&format!("position={}", "A".repeat(401)), "bad_request"),
        ("", "bad_request"),
    ] {
        let (status, body) = api.get(&format!("/api/hints?{query}"), None).await;
        assert_eq!(
            (status, &body["error"]["code"]),
            (400, &json!(code)),
            "{query}: {body}"
        );
    }
}
