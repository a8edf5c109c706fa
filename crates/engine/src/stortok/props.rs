//! Property tests: conservation of cards, termination, record replay, the
//! information-set sampler, and that no observation shows an unseen card.

use super::rules::StortokAction;
use super::*;
use crate::game::{GameState, Heuristic, Notation, Turn, Viewer};
use crate::record::Record;
use crate::rng::seeded;
use proptest::prelude::*;
use rand::Rng;
use serde_json::Value;

fn game(version: usize, players: usize, cap: u32) -> Stortok {
    Stortok {
        version: Version::from_name(Version::NAMES[version]).unwrap(),
        players: players as u8,
        cap,
    }
}

/// A cap that keeps 1858 (which random play rarely finishes) quick.
fn test_cap(version: usize) -> u32 {
    if version == 1 { 400 } else { DEFAULT_CAP }
}

/// Plays a uniformly random game, calling `each` on every state.
fn random_game(
    g: &Stortok,
    seed: u64,
    mut each: impl FnMut(&StortokState),
) -> (StortokState, Vec<StortokAction>) {
    let mut rng = seeded(seed);
    let mut s = g.initial_state();
    let mut history = Vec::new();
    let mut actions = Vec::new();
    loop {
        each(&s);
        let a = match s.turn() {
            Turn::Over => return (s, history),
            Turn::Chance => s.sample_chance(&mut rng),
            Turn::Player(_) => {
                s.legal_actions(&mut actions);
                actions[rng.random_range(0..actions.len())]
            }
        };
        history.push(a);
        s.apply(a);
    }
}

/// Every card is in exactly one place (STO-1: 36 or 52 cards).
fn check_conservation(s: &StortokState) {
    let deck = s.version.deck();
    let mut seen = 0u64;
    let mut parts: Vec<u64> = (0..s.n as usize).map(|p| s.hands[p]).collect();
    parts.push(s.stock);
    parts.push(cards::mask_of(s.table()));
    parts.push(s.discards);
    if s.turned_in_stock {
        parts.push(s.turned.unwrap().bit());
    }
    for part in parts {
        assert_eq!(part & seen, 0, "a card in two places: {s:?}");
        seen |= part;
    }
    assert_eq!(seen, deck, "cards lost: {s:?}");
    assert_eq!(
        cards::mask_of(s.table()).count_ones() as usize,
        s.table().len()
    );
    for p in 0..s.n as usize {
        assert_eq!(s.known[p] & !s.hands[p], 0, "known cards are in the hand");
    }
}

/// Every card string anywhere in a JSON value.
fn json_cards(v: &Value, out: &mut Vec<Card>) {
    match v {
        Value::String(t) => {
            if let Ok(c) = t.parse::<Card>() {
                out.push(c);
            }
        }
        Value::Array(a) => a.iter().for_each(|x| json_cards(x, out)),
        Value::Object(o) => o.values().for_each(|x| json_cards(x, out)),
        Value::Number(n) => {
            // No card set hides in a number: every number is a count, a seat
            // or a turn count.
            assert!(
                n.as_u64().is_some_and(|x| x <= 5000),
                "suspicious number {n}"
            );
        }
        _ => {}
    }
}

/// STO-5: the observation of `viewer` names no card that viewer may not
/// see, and does not change when the unseen cards are dealt differently.
fn check_no_leak(s: &StortokState, viewer: Viewer, rng: &mut impl Rng) {
    let obs = s.observation(viewer);
    let mut visible = cards::mask_of(s.table()) | s.discards;
    visible |= s.turned.map_or(0, |c| c.bit());
    for p in 0..s.n as usize {
        visible |= s.known[p];
    }
    if let Viewer::Player(p) = viewer {
        visible |= s.hands[p];
    }
    let json = serde_json::to_value(&obs).unwrap();
    let mut named = Vec::new();
    json_cards(&json, &mut named);
    for c in named {
        assert_ne!(c.bit() & visible, 0, "{viewer:?} may not see {c}: {json}");
    }
    // The same observation from another deal of the unseen cards.
    let other = obs.sample_state(rng).expect("the sampler accepts it");
    assert_eq!(
        other.observation(viewer),
        obs,
        "observation depends on hidden cards"
    );
}

#[test]
fn sto_5_no_observation_ever_shows_an_unseen_card() {
    let mut rng = seeded(77);
    let mut states = 0;
    for version in 0..4 {
        for n in 2..=5 {
            let g = game(version, n, if version == 1 { 150 } else { DEFAULT_CAP });
            for seed in 0..6 {
                random_game(&g, seed * 31 + n as u64, |s| {
                    states += 1;
                    for p in 0..n {
                        check_no_leak(s, Viewer::Player(p), &mut rng);
                    }
                    check_no_leak(s, Viewer::Spectator, &mut rng);
                });
            }
        }
    }
    assert!(states > 10_000);
}

#[test]
fn sampler_reads_only_the_observation_json() {
    // The sampler works from the JSON a client would receive: it deals the
    // unseen cards and keeps everything the player saw.
    let g = game(0, 4, DEFAULT_CAP);
    let mut rng = seeded(8);
    let mut checked = 0;
    random_game(&g, 4, |s| {
        if s.plies % 7 != 3 {
            return;
        }
        for p in 0..4 {
            let json = serde_json::to_string(&s.observation(Viewer::Player(p))).unwrap();
            let obs: StortokObservation = serde_json::from_str(&json).unwrap();
            let sampled = obs.sample_state(&mut rng).unwrap();
            assert_eq!(sampled.hand(p), s.hand(p));
            for q in 0..4 {
                assert_eq!(sampled.hand(q).count_ones(), s.hand(q).count_ones());
                assert_eq!(sampled.known(q), s.known(q));
            }
            assert_eq!(sampled.stock_len(), s.stock_len());
            assert_eq!(sampled.turn(), s.turn());
            let mut a = Vec::new();
            let mut b = Vec::new();
            if s.turn() == Turn::Player(p) {
                s.legal_actions(&mut a);
                sampled.legal_actions(&mut b);
                assert_eq!(a, b, "the player's own choices are the same");
            }
            check_conservation(&sampled);
            checked += 1;
        }
    });
    assert!(checked > 0);
    // A malformed observation is refused, not a panic.
    let s = g.initial_state();
    let mut obs = s.observation(Viewer::Player(0));
    obs.hand_sizes[1] = 40;
    assert!(obs.sample_state(&mut rng).is_none());
    let mut obs = s.observation(Viewer::Player(0));
    obs.players = 9;
    assert!(obs.sample_state(&mut rng).is_none());
    let mut obs = s.observation(Viewer::Player(0));
    obs.phase = Phase::Play;
    assert!(
        obs.sample_state(&mut rng).is_none(),
        "play before the trump is turned"
    );
}

#[test]
fn sampler_spreads_the_unseen_cards() {
    // From forehand's first view, another player's hand is uniformly drawn
    // from the 31 cards forehand does not see: each appears sometimes.
    let g = game(0, 2, DEFAULT_CAP);
    let (s, _) = {
        let mut rng = seeded(2);
        let mut s = g.initial_state();
        while s.turn() == Turn::Chance {
            let a = s.sample_chance(&mut rng);
            s.apply(a);
        }
        (s, ())
    };
    let obs = s.observation(Viewer::Player(1));
    let mut rng = seeded(3);
    let mut union = 0u64;
    for _ in 0..400 {
        let t = obs.sample_state(&mut rng).unwrap();
        assert_eq!(t.hand(1), s.hand(1));
        union |= t.hand(0);
    }
    let unseen = DECK_36 & !s.hand(1) & !s.turned().unwrap().bit();
    assert_eq!(union, unseen);
}

/// A greedy player: the action whose result the heuristic likes best.
fn greedy(s: &StortokState, p: usize, actions: &[StortokAction]) -> StortokAction {
    let mut best = (f64::NEG_INFINITY, actions[0]);
    for &a in actions {
        let mut t = *s;
        t.apply(a);
        let v = t.heuristic(p);
        if v > best.0 {
            best = (v, a);
        }
    }
    best.1
}

#[test]
fn heuristic_greedy_beats_random_play() {
    for version in [0, 2] {
        let g = game(version, 3, DEFAULT_CAP);
        let mut rng = seeded(11);
        let mut losses = [0u32; 3];
        let games = 200;
        for _ in 0..games {
            let mut s = g.initial_state();
            let mut actions = Vec::new();
            while s.turn() != Turn::Over {
                let a = match s.turn() {
                    Turn::Chance => s.sample_chance(&mut rng),
                    Turn::Player(p) => {
                        s.legal_actions(&mut actions);
                        if p == 0 {
                            greedy(&s, 0, &actions)
                        } else {
                            actions[rng.random_range(0..actions.len())]
                        }
                    }
                    Turn::Over => unreachable!(),
                };
                s.apply(a);
            }
            if let Some(l) = s.loser() {
                losses[l] += 1;
            }
            // The heuristic agrees with the result at the end: the
            // stortok lost, the others won.
            if let Some(l) = s.loser() {
                for p in 0..3 {
                    let h = s.heuristic(p);
                    if p == l {
                        assert!(h < 0.0, "the stortok's {h}");
                    } else {
                        assert!(h > 0.0, "a winner's {h}");
                    }
                }
            }
        }
        // Random play loses a third of the time; greedy far less.
        assert!(
            losses[0] * 4 < games,
            "version {version}: losses {losses:?}"
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn prop_cards_are_conserved(seed in any::<u64>(), version in 0..4usize, n in 2..=5usize) {
        random_game(&game(version, n, test_cap(version)), seed, check_conservation);
    }

    #[test]
    fn prop_random_games_end(seed in any::<u64>(), version in 0..4usize, n in 2..=5usize) {
        let g = game(version, n, test_cap(version));
        let mut chance = 0;
        let (s, history) = random_game(&g, seed, |s| chance += (s.turn() == Turn::Chance) as u32);
        prop_assert_eq!(s.turn(), Turn::Over);
        prop_assert!(s.plies() <= g.cap);
        prop_assert_eq!(history.len() as u32, s.plies() + chance);
        // The deal and the draws: every card comes out of the deck once.
        prop_assert!(chance <= 52);
        // STO-4: every game that the safety cap does not stop has a loser.
        prop_assert!(s.loser().is_some() || s.capped(), "a game without a loser");
        if let Some(l) = s.loser() {
            prop_assert_eq!(s.holders(), 1 << l);
        }
    }

    #[test]
    fn prop_hands_never_shrink_while_the_stock_lasts(seed in any::<u64>(), version in prop::sample::select(vec![0usize, 2, 3]), n in 2..=5usize) {
        // STO-9
        random_game(&game(version, n, DEFAULT_CAP), seed, |s| {
            if s.phase == Phase::Play && s.stock_len() > 0 {
                for p in 0..n {
                    assert!(s.hand(p).count_ones() >= 5, "{s:?}");
                }
            }
        });
    }

    #[test]
    fn prop_records_replay(seed in any::<u64>(), version in 0..4usize, n in 2..=5usize) {
        let g = game(version, n, test_cap(version));
        let mut s = g.initial_state();
        let (end, history) = random_game(&g, seed, |_| {});
        let options = crate::options::Options::parse(
            "stortok",
            Stortok::option_specs(),
            &[format!("players={n}"), format!("version={}", Version::NAMES[version]), format!("cap={}", g.cap)],
        ).unwrap();
        let mut record = Record::new("stortok", options, vec![]);
        for a in history {
            record.actions.push(s.format_action(a));
            s.apply(a);
        }
        record.result = Some(end.returns().as_slice().to_vec());
        let json = record.to_json();
        let replayed = Record::from_json(&json).unwrap().replay().unwrap();
        prop_assert_eq!(replayed.state_json(), serde_json::to_value(end).unwrap());
    }

    #[test]
    fn prop_sampled_states_show_the_same_observation(
        seed in any::<u64>(), version in 0..4usize, n in 2..=5usize, at in 0u32..400,
    ) {
        let g = game(version, n, test_cap(version));
        let mut rng = seeded(seed ^ 0x5eed);
        let mut done = false;
        random_game(&g, seed, |s| {
            if done || (s.plies < at && s.phase != Phase::Over) {
                return;
            }
            done = true;
            for v in (0..n).map(Viewer::Player).chain([Viewer::Spectator]) {
                let obs = s.observation(v);
                let t = obs.sample_state(&mut rng).expect("consistent");
                assert_eq!(t.observation(v), obs);
                check_conservation(&t);
            }
        });
    }
}
