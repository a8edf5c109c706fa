//! Full games of every game in the registry, between HTTP clients with
//! WebSocket viewers, and against AI seats.

use crate::harness::{
    Api, Seen, Server, Watcher, check_state, check_stream, play_random, players_of, replay_states,
};
use crate::test_seed;
use rand::SeedableRng;
use rand::rngs::StdRng;
use serde_json::{Value, json};
use spelbord_engine::{DynState, Viewer, games};

/// The AI level the tests play against: the cheapest real level if the AI
/// offers levels, else the random agent.
async fn ai_seat(api: &Api) -> String {
    let (_, catalogue) = api.get("/api/games", None).await;
    let agents: Vec<String> = catalogue["games"][0]["agents"]
        .as_array()
        .expect("agents")
        .iter()
        .map(|a| a.as_str().expect("a name").to_string())
        .collect();
    if agents.iter().any(|a| a == "ai:easy") {
        "ai:easy".into()
    } else {
        "ai:random".into()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_game_is_played_to_the_end_between_http_clients_with_websocket_viewers() {
    let server = Server::start(&[]);
    let api = server.api();
    let mut rng = StdRng::seed_from_u64(test_seed("full games"));
    for game in games() {
        let players = players_of(game.id(), &[]);
        let created = api
            .create(game.id(), json!({}), &vec!["open".to_string(); players])
            .await;
        let id = created["id"].as_str().expect("an id").to_string();
        assert_eq!(created["status"], "waiting");
        assert_eq!(created["invites"].as_array().map(Vec::len), Some(players));
        let mut tokens = Vec::new();
        for seat in 0..players {
            tokens.push(Some(api.join(&id, seat).await));
        }
        let version = api.view(&id, None).await["version"].as_u64();
        let mut watchers = Vec::new();
        for token in &tokens {
            watchers.push(Watcher::start(&api.base, &id, token.clone(), version).await);
        }
        let spectator = Watcher::start(&api.base, &id, None, None).await;
        let mut seen: Vec<Seen> = (0..players).map(|_| Seen::default()).collect();
        let acks = play_random(&api, &id, &tokens, &mut rng, Some(&mut seen))
            .await
            .unwrap_or_else(|e| panic!("{}: {e}", game.id()));
        let record = api.record(&id).await;
        let states = replay_states(&record);
        for ack in &acks {
            assert_eq!(record.actions[ack.version as usize - 1], ack.text);
        }
        for (seat, watcher) in watchers.into_iter().enumerate() {
            check_stream(
                &watcher.messages().await,
                Viewer::Player(seat),
                &record,
                &states,
            );
        }
        let watched = spectator.messages().await;
        check_stream(&watched, Viewer::Spectator, &record, &states);
        let plays = check_play_boards(&watched, &states);
        if game.id() == "tawla" || game.id() == "backgammon" {
            assert!(plays > 0, "{}: plays shown step by step", game.id());
        }
        for (seat, seen) in seen.iter().enumerate() {
            for (version, body) in &seen.messages {
                check_state(
                    &body["state"],
                    Viewer::Player(seat),
                    &*states[*version as usize],
                );
            }
        }
        let end = api.view(&id, None).await;
        assert_eq!(end["status"], "finished");
        assert_eq!(
            end["state"]["returns"],
            json!(record.result.expect("a result"))
        );
        println!(
            "{}: {} actions, {} by the clients",
            game.id(),
            record.actions.len(),
            acks.len()
        );
    }
}

/// Checks that each play of steps among the `event` messages comes with the
/// positions it passed through (`action.boards`) as the engine plays it
/// step by step from the state before it, the first being the position
/// before it and the last the one after it (unless it ended a game of a
/// match, whose next game the state after it shows); gives how many.
fn check_play_boards(messages: &[Value], states: &[Box<dyn DynState>]) -> usize {
    let mut plays = 0;
    for m in messages.iter().filter(|m| m["type"] == "event") {
        let v = m["version"].as_u64().expect("a version") as usize;
        let action = &m["action"];
        let expected = states[v - 1].play_boards(&action["json"]).map(Value::from);
        assert_eq!(action.get("boards"), expected.as_ref(), "{m}");
        let Some(boards) = action["boards"].as_array() else {
            continue;
        };
        plays += 1;
        let steps = action["json"]["play"].as_array().map_or(0, Vec::len);
        assert_eq!(boards.len(), steps + 1, "{m}");
        let before = states[v - 1].observation_json(Viewer::Spectator);
        let after = states[v].observation_json(Viewer::Spectator);
        for key in ["board", "fields"] {
            if let (Some(first), Some(last)) = (boards[0].get(key), boards[steps].get(key)) {
                assert_eq!(Some(first), before.get(key).or(before.get("board")), "{m}");
                if before["score"] == after["score"] {
                    assert_eq!(Some(last), after.get(key).or(after.get("board")), "{m}");
                }
            }
        }
    }
    plays
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_match_games_final_position_comes_with_its_last_play_in_events_and_the_replay() {
    let server = Server::start(&[]);
    let api = server.api();
    let mut rng = StdRng::seed_from_u64(test_seed("match positions"));
    // To 7: at least three games (a game wins at most 3 points).
    let options = json!({ "match": "7", "cube": "off" });
    let created = api
        .create("backgammon", options, &["open".into(), "open".into()])
        .await;
    let id = created["id"].as_str().expect("an id").to_string();
    let tokens = vec![Some(api.join(&id, 0).await), Some(api.join(&id, 1).await)];
    let spectator = Watcher::start(&api.base, &id, None, Some(0)).await;
    play_random(&api, &id, &tokens, &mut rng, None)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let record = api.record(&id).await;
    let states = replay_states(&record);
    let messages = spectator.messages().await;
    check_stream(&messages, Viewer::Spectator, &record, &states);
    check_play_boards(&messages, &states);
    let (_, replay) = api.get(&format!("/api/tables/{id}/replay"), None).await;
    let mut games_ended = 0;
    for m in messages.iter().filter(|m| m["type"] == "event") {
        let v = m["version"].as_u64().expect("a version") as usize;
        let score = |s: &dyn DynState| s.observation_json(Viewer::Spectator)["score"].clone();
        if score(&*states[v - 1]) == score(&*states[v]) {
            continue;
        }
        // A game ended by bearing off (no cube): its last position has the
        // winner's fifteen checkers off, which no later state shows.
        games_ended += 1;
        let last = m["action"]["boards"].as_array().and_then(|b| b.last());
        let off = last.map(|b| b["off"].clone()).expect("the final position");
        assert!(off[0] == 15 || off[1] == 15, "{off}");
        assert_eq!(
            replay["steps"][v]["boards"], m["action"]["boards"],
            "the replay's"
        );
    }
    assert!(games_ended >= 3, "{games_ended} games");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_game_is_played_to_the_end_against_ai_seats() {
    let server = Server::start(&[]);
    let api = server.api();
    let ai = ai_seat(&api).await;
    let mut rng = StdRng::seed_from_u64(test_seed("AI games"));
    for game in games() {
        let players = players_of(game.id(), &[]);
        // One person against the AI, and a table of AI seats only.
        let mixed = crate::harness::seats(players, &ai);
        let created = api.create(game.id(), json!({}), &mixed).await;
        let id = created["id"].as_str().expect("an id").to_string();
        let token = api.join(&id, 0).await;
        let spectator = Watcher::start(&api.base, &id, None, Some(0)).await;
        let mut tokens = vec![None; players];
        tokens[0] = Some(token);
        play_random(&api, &id, &tokens, &mut rng, None)
            .await
            .unwrap_or_else(|e| panic!("{}: {e}", game.id()));
        let record = api.record(&id).await;
        let states = replay_states(&record);
        let messages = spectator.messages().await;
        check_stream(&messages, Viewer::Spectator, &record, &states);
        check_play_boards(&messages, &states);
        let ai_moves = messages
            .iter()
            .filter(|m| m["type"] == "event" && m["action"]["seat"].as_u64().is_some_and(|s| s > 0))
            .count();
        assert!(ai_moves > 0, "{}: the AI seats moved", game.id());

        let bots = vec![ai.clone(); players];
        let created = api.create(game.id(), json!({}), &bots).await;
        let id = created["id"].as_str().expect("an id").to_string();
        let spectator = Watcher::start(&api.base, &id, None, None).await;
        let messages = spectator.messages().await;
        let last: &Value = messages.last().expect("messages");
        assert_eq!(
            last["state"]["turn"]["kind"],
            "over",
            "{}: AI-only table ends",
            game.id()
        );
        let record = api.record(&id).await;
        let states = replay_states(&record);
        check_stream(&messages, Viewer::Spectator, &record, &states);
        println!("{}: against {ai}: done", game.id());
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_auto_forced_off_people_play_their_forced_actions_themselves() {
    let server = Server::start(&[]);
    let api = server.api();
    let mut rng = StdRng::seed_from_u64(test_seed("forced by hand"));
    let mut forced_by_hand = 0;
    for game in games() {
        let players = players_of(game.id(), &[]);
        let body = json!({ "game": game.id(), "auto_forced": false });
        let (status, created) = api.post("/api/tables", &body, None).await;
        assert_eq!(status, 201, "{created}");
        assert_eq!(created["auto_forced"], false);
        let id = created["id"].as_str().expect("an id").to_string();
        let mut tokens = Vec::new();
        for seat in 0..players {
            tokens.push(Some(api.join(&id, seat).await));
        }
        let mut seen: Vec<Seen> = (0..players).map(|_| Seen::default()).collect();
        play_random(&api, &id, &tokens, &mut rng, Some(&mut seen))
            .await
            .unwrap_or_else(|e| panic!("{}: {e}", game.id()));
        let record = api.record(&id).await;
        replay_states(&record);
        forced_by_hand += seen
            .iter()
            .flat_map(|s| &s.messages)
            .filter(|(_, m)| m["state"]["legal"].as_array().is_some_and(|l| l.len() == 1))
            .count();
    }
    // Some game offered a single legal action to a person, who played it.
    assert!(forced_by_hand > 0);
}
