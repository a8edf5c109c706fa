//! The information-set sampler against observations that could never occur:
//! it refuses them (`None`), and every state it does return plays on
//! without a panic. Also checks that every reachable state is consistent,
//! which is what the sampler demands.

use super::rules::StortokAction;
use super::*;
use crate::game::{GameState, Heuristic, Notation, Turn, Viewer};
use crate::rng::seeded;
use proptest::prelude::*;
use rand::Rng;
use serde_json::{Value, json};

fn game(version: usize, players: usize) -> Stortok {
    Stortok {
        version: Version::from_name(Version::NAMES[version]).unwrap(),
        players: players as u8,
        cap: if version == 1 { 300 } else { DEFAULT_CAP },
    }
}

/// The states of one random game, in order.
fn states(g: &Stortok, seed: u64) -> Vec<StortokState> {
    let mut rng = seeded(seed);
    let mut s = g.initial_state();
    let mut out = vec![s];
    let mut actions = Vec::new();
    while s.turn() != Turn::Over {
        let a = match s.turn() {
            Turn::Chance => s.sample_chance(&mut rng),
            _ => {
                s.legal_actions(&mut actions);
                actions[rng.random_range(0..actions.len())]
            }
        };
        s.apply(a);
        out.push(s);
    }
    out
}

/// The first state of a random game that `pick` likes.
fn find(g: &Stortok, pick: impl Fn(&StortokState) -> bool) -> StortokState {
    (0..200)
        .flat_map(|seed| states(g, seed))
        .find(|s| pick(s))
        .expect("a random game reaches such a state")
}

#[test]
fn every_reachable_state_is_consistent() {
    for version in 0..4 {
        for n in 2..=5 {
            for seed in 0..4 {
                for s in states(&game(version, n), seed) {
                    assert!(s.is_consistent(), "{s:?}");
                }
            }
        }
    }
}

#[test]
fn sampler_refuses_a_draw_from_an_empty_stock() {
    // The review's first example: a draw with no card to draw, which made
    // `sample_chance` panic.
    let s = find(&game(0, 3), |s| {
        s.phase == Phase::Play && s.stock_len() == 0 && !s.leading()
    });
    let mut obs = s.observation(Viewer::Player(1));
    assert!(obs.sample_state(&mut seeded(1)).is_some());
    obs.phase = Phase::Draw;
    assert!(obs.sample_state(&mut seeded(1)).is_none());
}

#[test]
fn sampler_refuses_a_deal_with_nothing_left_to_deal() {
    // 1858 right after the deal, relabelled as still dealing.
    let s = find(&game(1, 4), |s| s.phase == Phase::Play && s.plies == 0);
    let mut obs = s.observation(Viewer::Player(2));
    assert!(obs.sample_state(&mut seeded(1)).is_some());
    obs.phase = Phase::Deal;
    obs.turned = None;
    obs.high_trump = None;
    obs.low_trump = None;
    assert!(obs.sample_state(&mut seeded(1)).is_none());
}

#[test]
fn sampler_refuses_a_player_to_move_without_cards() {
    let s = find(&game(0, 4), |s| {
        s.phase == Phase::Play && (0..4).any(|p| s.hands[p] == 0)
    });
    let out = (0..4).find(|&p| s.hands[p] == 0).unwrap();
    let mut obs = s.observation(Viewer::Spectator);
    assert!(obs.sample_state(&mut seeded(1)).is_some());
    obs.to_move = out as u8;
    assert!(obs.sample_state(&mut seeded(1)).is_none());
}

#[test]
fn sampler_refuses_a_wrong_deal_count() {
    let s = find(&game(3, 3), |s| s.phase == Phase::Play && s.plies > 5);
    let mut obs = s.observation(Viewer::Player(0));
    assert!(obs.sample_state(&mut seeded(1)).is_some());
    obs.dealt = 3;
    assert!(obs.sample_state(&mut seeded(1)).is_none());
    // Mid-deal, hands that the deal order cannot give.
    let s = find(&game(0, 3), |s| s.phase == Phase::Deal && s.dealt == 4);
    let mut obs = s.observation(Viewer::Spectator);
    assert!(obs.sample_state(&mut seeded(1)).is_some());
    obs.hand_sizes = vec![2, 1, 1];
    assert!(obs.sample_state(&mut seeded(1)).is_none());
}

#[test]
fn sampler_refuses_a_turned_card_that_does_not_fit_the_trumps() {
    let s = find(&game(2, 3), |s| s.phase == Phase::Play && s.plies == 3);
    let mut obs = s.observation(Viewer::Player(1));
    assert!(obs.sample_state(&mut seeded(1)).is_some());
    obs.high_trump = obs.low_trump;
    assert!(obs.sample_state(&mut seeded(1)).is_none());
}

const PHASES: [&str; 4] = ["deal", "draw", "play", "over"];

/// A random card, in or out of the 36-card deck.
fn any_card(rng: &mut impl Rng) -> Value {
    let rank = b"23456789TJQKA"[rng.random_range(0..13)] as char;
    let suit = b"CDHS"[rng.random_range(0..4)] as char;
    json!(format!("{rank}{suit}"))
}

/// A small random edit somewhere in an observation's JSON.
fn mutate(v: &mut Value, key: &str, rng: &mut impl Rng) {
    match v {
        Value::Number(x) => {
            let old = x.as_u64().unwrap_or(0);
            let new = match rng.random_range(0..4) {
                0 => old.saturating_sub(1),
                1 => old + 1,
                2 => rng.random_range(0..8),
                _ => [0, 5, 16, 35, 36, 51, 52, 53, 255, 5000][rng.random_range(0..10)],
            };
            *v = json!(new);
        }
        Value::Bool(b) => *b = !*b,
        Value::String(_) if key == "phase" => *v = json!(PHASES[rng.random_range(0..4)]),
        Value::String(_) if key == "version" => {
            *v = json!(Version::NAMES[rng.random_range(0..4)]);
        }
        Value::String(_) if key.ends_with("trump") => {
            *v = json!(["C", "D", "H", "S"][rng.random_range(0..4)])
        }
        Value::String(_) => *v = any_card(rng),
        Value::Null => {
            *v = match key {
                "hand" => json!([]),
                "viewer" => json!({ "player": rng.random_range(0..6) }),
                k if k.ends_with("trump") => json!("S"),
                "last" | "loser" => json!(rng.random_range(0..6)),
                _ => any_card(rng),
            }
        }
        Value::Array(a) => {
            let nested = a.first().is_some_and(Value::is_array);
            match rng.random_range(0..5) {
                _ if nested && rng.random_bool(0.7) => {
                    let i = rng.random_range(0..a.len());
                    let mut inner = std::mem::take(&mut a[i]);
                    mutate(&mut inner, key, rng);
                    a[i] = inner;
                }
                0 if !a.is_empty() => {
                    a.remove(rng.random_range(0..a.len()));
                }
                1 if !a.is_empty() => {
                    let i = rng.random_range(0..a.len());
                    let mut x = a[i].clone();
                    mutate(&mut x, key, rng);
                    a[i] = x;
                }
                2 if !a.is_empty() => {
                    let x = a[rng.random_range(0..a.len())].clone();
                    a.push(x);
                }
                3 if a.len() > 1 => {
                    let last = a.len() - 1;
                    a.swap(0, last);
                }
                _ => {
                    if key == "hand_sizes" || key == "trick_played" {
                        a.push(json!(rng.random_range(0..7)));
                    } else if nested {
                        a.push(json!([]));
                    } else {
                        a.push(any_card(rng));
                    }
                }
            }
        }
        Value::Object(o) => {
            if key == "viewer" && rng.random_bool(0.5) {
                *v = json!("spectator");
            } else if let Some((k, inner)) = o.iter_mut().next() {
                let k = k.clone();
                mutate(inner, &k, rng);
            }
        }
    }
    if key == "viewer" && matches!(v, Value::String(_)) && rng.random_bool(0.5) {
        *v = json!({ "player": rng.random_range(0..6) });
    }
}

/// Plays on from a sampled state with every part of the API, checking that
/// the rules keep it consistent.
fn play_on(mut s: StortokState, viewer: Viewer, rng: &mut impl Rng) {
    let mut actions = Vec::new();
    let mut chances = Vec::new();
    for _ in 0..300 {
        assert!(s.is_consistent(), "{s:?}");
        let n = s.num_players();
        for p in 0..n {
            assert!(s.heuristic(p).abs() <= 1.0);
        }
        let _ = s.render(viewer, false);
        let _ = s.events();
        let r = s.returns();
        assert!(r.as_slice().iter().all(|x| x.is_finite()));
        s.legal_actions(&mut actions);
        s.chance_outcomes(&mut chances);
        let a = match s.turn() {
            Turn::Over => {
                assert!(actions.is_empty() && chances.is_empty());
                return;
            }
            Turn::Chance => {
                assert!(actions.is_empty() && !chances.is_empty());
                let total: f64 = chances.iter().map(|c| c.1).sum();
                assert!((total - 1.0).abs() < 1e-9);
                s.sample_chance(rng)
            }
            Turn::Player(p) => {
                assert!(p < n && chances.is_empty() && !actions.is_empty());
                actions[rng.random_range(0..actions.len())]
            }
        };
        let text = s.format_action(a);
        assert_eq!(s.parse_action(&text).ok(), Some(a));
        let wrong = StortokAction::Play(Card::new(Suit::Spades, 14));
        if !s.is_legal(wrong) {
            let _ = s.explain_illegal(wrong);
        }
        s.apply(a);
    }
}

/// One try: a random game cut at a random point, one viewer's observation
/// as JSON, `edits` random edits. Returns whether the sampler accepted it.
fn try_edited(seed: u64, version: usize, n: usize, at: usize, edits: usize) -> bool {
    let mut rng = seeded(seed);
    let all = states(&game(version, n), seed);
    let s = all[at % all.len()];
    let viewer = match rng.random_range(0..=n) {
        p if p < n => Viewer::Player(p),
        _ => Viewer::Spectator,
    };
    let mut json = serde_json::to_value(s.observation(viewer)).unwrap();
    let keys: Vec<String> = json.as_object().unwrap().keys().cloned().collect();
    for _ in 0..edits {
        let key = &keys[rng.random_range(0..keys.len())];
        let mut v = json[key].take();
        mutate(&mut v, key, &mut rng);
        json[key] = v;
    }
    let Ok(obs) = serde_json::from_value::<StortokObservation>(json) else {
        return false;
    };
    let Some(t) = obs.sample_state(&mut rng) else {
        assert!(edits > 0, "the sampler refused an untouched observation");
        return false;
    };
    assert_eq!(t.observation(obs.viewer), obs);
    play_on(t, obs.viewer, &mut rng);
    true
}

#[test]
fn sampler_never_returns_a_state_that_panics() {
    // Thousands of edited observations: most are refused, the rest play on.
    let (mut accepted, mut refused) = (0, 0);
    for seed in 0..3000u64 {
        let version = (seed % 4) as usize;
        let n = 2 + (seed / 4 % 4) as usize;
        let at = (seed * 7919 % 1000) as usize;
        let edits = 1 + (seed % 3) as usize;
        if try_edited(seed, version, n, at, edits) {
            accepted += 1;
        } else {
            refused += 1;
        }
    }
    println!("{accepted} accepted, {refused} refused");
    assert!(
        accepted >= 30 && refused >= 1000,
        "{accepted} accepted, {refused} refused"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn prop_edited_observations_are_refused_or_play_on(
        seed in any::<u64>(), version in 0..4usize, n in 2..=5usize, at in 0..2000usize,
        edits in 0..4usize,
    ) {
        try_edited(seed, version, n, at, edits);
    }
}
