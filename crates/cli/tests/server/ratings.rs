//! Ratings on the real server: rated tables between accounts, played to the
//! end with random legal moves; profiles, histories and leaderboards; three
//! players rated pairwise by places; resignation; rated exactly once.

use crate::accounts::Browser;
use crate::harness::{Api, Server, play_random};
use rand::SeedableRng;
use rand::rngs::StdRng;
use serde_json::{Value, json};
use spelbord_server::rating::{Rating, after_game};
use std::time::{Duration, Instant};

/// Checks `value` against the document's schema `name`.
async fn conforms(api: &Api, name: &str, value: &Value) {
    let (_, doc) = api.get("/api/openapi.json", None).await;
    let schema = json!({ "$ref": format!("#/components/schemas/{name}") });
    if let Err(problem) = crate::openapi::check(&doc, &schema, value, "body") {
        panic!("{name}: {problem}\n{value}");
    }
}

/// Signs up `names`; their session cookies.
async fn accounts(b: &Browser, names: &[&str]) -> Vec<String> {
    let mut cookies = Vec::new();
    for name in names {
        cookies.push(b.sign_up(name, "a good password").await);
    }
    cookies
}

/// A rated table of `game` made by the first cookie's account, every seat
/// joined by one account in order; its id and the seat tokens.
async fn rated_table(
    b: &Browser,
    game: &str,
    options: Value,
    cookies: &[String],
) -> (String, Vec<Option<String>>) {
    let body = json!({ "game": game, "options": options, "rated": true });
    let (status, table, _) = b.post("/api/tables", body, Some(&cookies[0])).await;
    assert_eq!(status, 201, "{table}");
    assert_eq!(table["rated"], true);
    let id = table["id"].as_str().unwrap().to_string();
    let mut tokens = Vec::new();
    for (seat, cookie) in cookies.iter().enumerate() {
        let path = format!("/api/tables/{id}/join");
        let (status, joined, _) = b.post(&path, json!({ "seat": seat }), Some(cookie)).await;
        assert_eq!(status, 200, "{joined}");
        tokens.push(Some(joined["token"].as_str().unwrap().to_string()));
    }
    (id, tokens)
}

/// The profile of `name` once its pool `pool` counts `games` games.
pub async fn profile_after(api: &Api, name: &str, pool: &str, games: u64) -> Value {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let (status, profile) = api.get(&format!("/api/players/{name}"), None).await;
        assert_eq!(status, 200, "{profile}");
        if profile["ratings"][pool]["games"].as_u64() == Some(games) {
            return profile;
        }
        assert!(Instant::now() < deadline, "not rated in time: {profile}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The returns of a finished table.
async fn returns(api: &Api, id: &str) -> Vec<f64> {
    let view = api.view(id, None).await;
    let returns = view["state"]["returns"].as_array().cloned();
    let returns = returns.or_else(|| view["ending"]["returns"].as_array().cloned());
    returns
        .expect("returns")
        .iter()
        .map(|r| r.as_f64().unwrap())
        .collect()
}

/// Places from returns (0 first, ties share), computed here on their own.
fn places(returns: &[f64]) -> Vec<usize> {
    let mut sorted: Vec<f64> = returns.to_vec();
    sorted.sort_by(|a, b| b.partial_cmp(a).unwrap());
    returns
        .iter()
        .map(|r| sorted.iter().position(|s| s == r).unwrap())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rated_tawla_game_shows_on_both_profiles_and_the_leaderboard_once() {
    let mut server = Server::start(&[]);
    let api = server.api();
    let b = Browser::of(&server);
    let cookies = accounts(&b, &["alva", "bruno"]).await;

    // Refusals: no account, AI seats, a game without a pool, a second seat.
    let (status, body, _) = b
        .post(
            "/api/tables",
            json!({ "game": "tawla", "rated": true }),
            None,
        )
        .await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (401, Some("rated_needs_account"))
    );
    let ai = json!({ "game": "tawla", "rated": true, "seats": ["open", "ai:random"] });
    let (status, body, _) = b.post("/api/tables", ai, Some(&cookies[0])).await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (400, Some("not_rateable"))
    );
    let wide = json!({ "game": "lager", "rated": true, "options": { "columns": "6" } });
    let (status, body, _) = b.post("/api/tables", wide, Some(&cookies[0])).await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (400, Some("not_rateable"))
    );
    let body = json!({ "game": "tawla", "rated": true });
    let (status, table, _) = b.post("/api/tables", body, Some(&cookies[0])).await;
    assert_eq!(status, 201, "{table}");
    let id = table["id"].as_str().unwrap().to_string();
    let join = format!("/api/tables/{id}/join");
    let (status, body) = api.post(&join, &json!({ "name": "guest" }), None).await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (401, Some("rated_needs_account"))
    );
    let (status, first, _) = b.post(&join, json!({ "seat": 0 }), Some(&cookies[0])).await;
    assert_eq!(status, 200, "{first}");
    let (status, body, _) = b.post(&join, json!({ "seat": 1 }), Some(&cookies[0])).await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (409, Some("already_seated"))
    );
    let (status, second, _) = b.post(&join, json!({ "seat": 1 }), Some(&cookies[1])).await;
    assert_eq!(status, 200, "{second}");
    let tokens = vec![
        first["token"].as_str().map(String::from),
        second["token"].as_str().map(String::from),
    ];

    let mut rng = StdRng::seed_from_u64(crate::test_seed("rated tawla"));
    play_random(&api, &id, &tokens, &mut rng, None)
        .await
        .unwrap();
    let places = places(&returns(&api, &id).await);
    let winner = places.iter().position(|p| *p == 0).unwrap();
    let names = ["alva", "bruno"];
    for (seat, name) in names.iter().enumerate() {
        let profile = profile_after(&api, name, "tawla", 1).await;
        conforms(&api, "Profile", &profile).await;
        assert_eq!(profile["ratings"]["tawla"]["provisional"], true);
        assert_eq!(profile["history"]["tawla"].as_array().unwrap().len(), 1);
        assert_eq!(profile["history"]["tawla"][0]["table"], id.as_str());
        let game = &profile["games"][0];
        assert_eq!(game["table"], id.as_str());
        assert_eq!(game["pool"], "tawla");
        assert_eq!(game["seat"], seat);
        assert_eq!(game["opponents"], json!([names[1 - seat]]));
        assert_eq!(game["place"], places[seat] + 1);
        let change = game["rating_change"].as_f64().unwrap();
        let expected = after_game(&[NEW, NEW], &places)[seat].rating - NEW.rating;
        assert!((change - expected).abs() < 1e-6, "{change} {expected}");
        // A random Tawla game may be drawn (both mothers pinned at once).
        if places[0] == places[1] {
            assert!(
                change.abs() < 1e-9,
                "a draw between equals changes nothing: {change}"
            );
        } else {
            assert_eq!(change > 0.0, seat == winner);
        }
        assert_eq!(profile["playing"], json!([]));
    }
    let (status, board) = api.get("/api/ratings/tawla", None).await;
    assert_eq!(status, 200);
    conforms(&api, "Leaderboard", &board).await;
    assert_eq!(board["players"], json!([]));
    let listed: Vec<&str> = board["provisional"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(listed, vec![names[winner], names[1 - winner]]);
    let view = api.view(&id, None).await;
    assert_eq!(view["seats"][0]["rating"]["provisional"], true);
    conforms(&api, "Table", &view).await;

    // Rated exactly once: a restart (which rates what is not rated yet)
    // changes nothing.
    server.restart();
    let api = server.api();
    tokio::time::sleep(Duration::from_secs(2)).await;
    for name in names {
        let (_, profile) = api.get(&format!("/api/players/{name}"), None).await;
        assert_eq!(profile["ratings"]["tawla"]["games"], 1, "{profile}");
        assert_eq!(profile["history"]["tawla"].as_array().unwrap().len(), 1);
    }
}

/// A new player's rating.
const NEW: Rating = spelbord_server::rating::NEW_PLAYER;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rated_three_player_high_gammon_game_rates_everyone_pairwise_by_places() {
    let server = Server::start(&[]);
    let api = server.api();
    let b = Browser::of(&server);
    let names = ["carin", "dag", "edvin"];
    let cookies = accounts(&b, &names).await;
    let pool = "high-gammon-3-points";

    // A first game gives them different ratings before the second.
    let mut before = vec![NEW; 3];
    let mut rng = StdRng::seed_from_u64(crate::test_seed("rated high-gammon"));
    for game in 1..=2u64 {
        let options = json!({ "players": "3" });
        let (id, tokens) = rated_table(&b, "high-gammon", options, &cookies).await;
        play_random(&api, &id, &tokens, &mut rng, None)
            .await
            .unwrap();
        let places = places(&returns(&api, &id).await);
        let expected = after_game(&before, &places);
        for (seat, name) in names.iter().enumerate() {
            let profile = profile_after(&api, name, pool, game).await;
            let r = &profile["ratings"][pool];
            let got = Rating {
                rating: r["rating"].as_f64().unwrap(),
                deviation: r["deviation"].as_f64().unwrap(),
                volatility: r["volatility"].as_f64().unwrap(),
            };
            assert!(
                (got.rating - expected[seat].rating).abs() < 1e-6,
                "{got:?} {expected:?}"
            );
            assert!((got.deviation - expected[seat].deviation).abs() < 1e-6);
            assert!((got.volatility - expected[seat].volatility).abs() < 1e-9);
            // This game in the profile's list (two games ending in the same
            // second may be listed in either order).
            let this = profile["games"]
                .as_array()
                .unwrap()
                .iter()
                .find(|g| g["table"] == id.as_str())
                .unwrap_or_else(|| panic!("{id} in {profile}"));
            assert_eq!(this["place"], places[seat] + 1);
            assert_eq!(this["players"], 3);
            before[seat] = got;
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn resigning_a_rated_game_is_a_loss() {
    let server = Server::start(&[]);
    let api = server.api();
    let b = Browser::of(&server);
    let cookies = accounts(&b, &["frida", "gote"]).await;
    let (id, tokens) = rated_table(&b, "backgammon", json!({}), &cookies).await;
    let path = format!("/api/tables/{id}/resign");
    let (status, body) = api.post(&path, &json!({}), tokens[1].as_deref()).await;
    assert_eq!(status, 200, "{body}");
    let winner = profile_after(&api, "frida", "backgammon", 1).await;
    let loser = profile_after(&api, "gote", "backgammon", 1).await;
    let expected = after_game(&[NEW, NEW], &[0, 1]);
    let rating = |p: &Value| p["ratings"]["backgammon"]["rating"].as_f64().unwrap();
    assert!((rating(&winner) - expected[0].rating).abs() < 1e-6);
    assert!((rating(&loser) - expected[1].rating).abs() < 1e-6);
    assert!(rating(&winner) > 1500.0 && rating(&loser) < 1500.0);
    assert_eq!(loser["games"][0]["place"], 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_whose_node_dies_after_the_last_action_is_rated_once() {
    let Some(url) = crate::harness::test_database().await else {
        return;
    };
    let mut a = Server::start_on(&url, &[]);
    let b = Server::start_on(&url, &[]);
    let on_a = Browser::of(&a);
    let cookies = accounts(&on_a, &["hanna", "ivar"]).await;
    let (id, tokens) = rated_table(&on_a, "tawla", json!({}), &cookies).await;
    let mut rng = StdRng::seed_from_u64(crate::test_seed("rated on nodes"));
    play_random(&a.api(), &id, &tokens, &mut rng, None)
        .await
        .unwrap();
    // The owner dies right after the last action, before or after rating.
    a.kill9();
    let api = b.api();
    for name in ["hanna", "ivar"] {
        profile_after(&api, name, "tawla", 1).await;
    }
    // Both nodes rating what is not rated yet changes nothing.
    a.restart();
    tokio::time::sleep(Duration::from_secs(2)).await;
    for name in ["hanna", "ivar"] {
        let (_, profile) = api.get(&format!("/api/players/{name}"), None).await;
        assert_eq!(profile["ratings"]["tawla"]["games"], 1, "{profile}");
        assert_eq!(profile["history"]["tawla"].as_array().unwrap().len(), 1);
    }
}
