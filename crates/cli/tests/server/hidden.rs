//! Stortok over many games: no message to a seat or a spectator ever holds a
//! card that viewer has not been shown.

use crate::harness::{
    Seen, Server, Watcher, check_state, check_stream, play_random, replay_states,
};
use crate::test_seed;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde_json::{Value, json};
use spelbord_engine::{DynState, Viewer};
use std::collections::BTreeSet;

/// The hints of Stortok's table text, whose example cards are no cards.
const HINTS: [&str; 2] = ["rank and suit letter: 10H, QS", "type e.g. 10H, QS"];

/// The cards written in `text` (`10S`, `QH`, `A♠` ...), as rank and suit
/// letter, leaving out the examples of the input hints.
fn cards_in(text: &str) -> BTreeSet<String> {
    let mut text = text.to_string();
    for hint in HINTS {
        text = text.replace(hint, "");
    }
    let mut cards = BTreeSet::new();
    let is_part = |c: char| c.is_ascii_alphanumeric() || "♣♦♥♠".contains(c);
    for word in text.split(|c: char| !is_part(c)) {
        let mut chars: Vec<char> = word.chars().collect();
        let Some(suit) = chars.pop() else { continue };
        let suit = match suit {
            'C' | '♣' => 'C',
            'D' | '♦' => 'D',
            'H' | '♥' => 'H',
            'S' | '♠' => 'S',
            _ => continue,
        };
        let rank: String = chars.into_iter().collect();
        let rank = if rank == "T" { "10".to_string() } else { rank };
        let ranks = [
            "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A",
        ];
        if ranks.contains(&rank.as_str()) {
            cards.insert(format!("{rank}{suit}"));
        }
    }
    cards
}

/// Per version, every card the viewer has been shown up to then: the cards
/// of his observations (the engine's filtered view), nothing else.
fn shown_so_far(states: &[Box<dyn DynState>], viewer: Viewer) -> Vec<BTreeSet<String>> {
    let mut shown = BTreeSet::new();
    states
        .iter()
        .map(|s| {
            shown.extend(cards_in(&s.observation_json(viewer).to_string()));
            shown.clone()
        })
        .collect()
}

/// Checks that no message shows a card the viewer was not shown by then;
/// returns how many card mentions were checked.
fn check_cards(messages: &[(u64, &Value)], shown: &[BTreeSet<String>], who: &str) -> usize {
    let mut checked = 0;
    for (version, message) in messages {
        let cards = cards_in(&message.to_string());
        let allowed = &shown[*version as usize];
        let leaked: Vec<&String> = cards.difference(allowed).collect();
        assert!(
            leaked.is_empty(),
            "{who} at version {version} was sent {leaked:?}: {message}"
        );
        checked += cards.len();
    }
    checked
}

#[test]
fn the_card_scanner_finds_cards_in_all_notations() {
    let found = cards_in(r#"{"hand":["10S","QH"],"text":"A♠ T♦ | 7C","words":"PASS AS"}"#);
    let expected: BTreeSet<String> = ["10S", "QH", "AS", "10D", "7C"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    assert_eq!(found, expected);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stortok_never_sends_a_card_its_viewer_may_not_see() {
    let server = Server::start(&[]);
    let api = server.api();
    let mut rng = StdRng::seed_from_u64(test_seed("stortok leaks"));
    let versions = ["1847", "1858", "schenkmanis", "helmfrid"];
    let mut checked = 0;
    for game in 0..8 {
        let players = 2 + game % 4;
        let version = versions[(game / 2 + game) % 4];
        // Some tables seat an AI for the last seat.
        let with_ai = rng.random_bool(0.5);
        let seats: Vec<String> = (0..players)
            .map(|p| {
                if with_ai && p == players - 1 {
                    "ai:random".into()
                } else {
                    "open".into()
                }
            })
            .collect();
        let options = json!({ "players": players, "version": version, "cap": 600 });
        let created = api.create("stortok", options, &seats).await;
        let id = created["id"].as_str().expect("id").to_string();
        let spectator = Watcher::start(&api.base, &id, None, Some(0)).await;
        let mut tokens = Vec::new();
        let mut watchers = Vec::new();
        for (seat, kind) in seats.iter().enumerate() {
            if kind == "open" {
                let token = api.join(&id, seat).await;
                // Half the viewers catch up from the start, half get a sync.
                let since = if rng.random_bool(0.5) { Some(0) } else { None };
                watchers.push((
                    seat,
                    Watcher::start(&api.base, &id, Some(token.clone()), since).await,
                ));
                tokens.push(Some(token));
            } else {
                tokens.push(None);
            }
        }
        let mut seen: Vec<Seen> = (0..players).map(|_| Seen::default()).collect();
        play_random(&api, &id, &tokens, &mut rng, Some(&mut seen))
            .await
            .unwrap_or_else(|e| panic!("game {game}: {e}"));
        let record = api.record(&id).await;
        let states = replay_states(&record);

        let messages = spectator.messages().await;
        check_stream(&messages, Viewer::Spectator, &record, &states);
        // STO-5: a person's action, forced or not, is his own: never played
        // for him, never marked as played by the server.
        let mut people_acted = 0;
        for m in &messages {
            let action = &m["action"];
            if let Some(seat) = action["seat"].as_u64()
                && seats[seat as usize] == "open"
            {
                assert_eq!(action["auto"], false, "a forced action shown: {m}");
                people_acted += 1;
            }
        }
        assert!(people_acted > 0);
        let shown = shown_so_far(&states, Viewer::Spectator);
        let versioned: Vec<(u64, &Value)> = messages
            .iter()
            .filter_map(|m| m["version"].as_u64().map(|v| (v, m)))
            .collect();
        checked += check_cards(&versioned, &shown, "the spectator");
        // A spectator's view over HTTP as well.
        let end = api.view(&id, None).await;
        checked += check_cards(
            &[(record.actions.len() as u64, &end)],
            &shown,
            "the spectator",
        );

        for (seat, watcher) in watchers {
            let viewer = Viewer::Player(seat);
            let messages = watcher.messages().await;
            check_stream(&messages, viewer, &record, &states);
            let shown = shown_so_far(&states, viewer);
            let mut versioned: Vec<(u64, &Value)> = messages
                .iter()
                .filter_map(|m| m["version"].as_u64().map(|v| (v, m)))
                .collect();
            for (v, body) in &seen[seat].messages {
                check_state(&body["state"], viewer, &*states[*v as usize]);
                versioned.push((*v, body));
            }
            let who = format!("seat {seat}");
            let n = check_cards(&versioned, &shown, &who);
            assert!(n > 0, "{who} was shown its own cards");
            checked += n;
        }
        println!(
            "stortok game {game} ({players} players, {version}): {} actions",
            record.actions.len()
        );
    }
    println!("{checked} card mentions checked");
}
