//! Random games: the conformance check for every board size and option,
//! property tests of invariants, notation, hashing and the heuristic.

use super::*;
use crate::conformance::check_random_games;
use crate::game::{Heuristic, Turn, Viewer};
use crate::lager::zobrist::{OUT, UNPLAYED};
use crate::rng::seeded;
use proptest::prelude::*;
use rand::Rng;

/// Checks the invariants of one state.
fn invariants(s: &LagerState) {
    let g = s.geometry();
    let mut occupied = 0u128;
    for p in 0..2 {
        // Four stones, each unplayed, on the board or out; at most three on
        // the board (LAG-5); the out ones only when captured stones stay out.
        let on = s.stones[p].iter().filter(|&&l| l < UNPLAYED).count();
        assert!(on <= MAX_ON_BOARD);
        if s.config.captured == Captured::Return {
            assert!(!s.stones[p].contains(&OUT));
        }
        for &l in s.stones[p].iter().chain([&s.blockades[p]]) {
            if l < UNPLAYED {
                assert!((l as usize) < g.squares());
                assert_eq!(occupied >> l & 1, 0, "two pieces on one square");
                occupied |= 1u128 << l;
            } else {
                assert!(l == UNPLAYED || l == OUT);
            }
        }
        if s.end().is_none() {
            assert!(s.stones_in_camp(p, 1 - p) < 2);
        }
    }
    assert_eq!(occupied, s.occupied, "occupancy mask");
    assert_eq!(s.zobrist(), s.compute_hash(), "incremental hash");
    match s.end() {
        Some(End::Camp { winner }) => assert_eq!(s.stones_in_camp(winner, 1 - winner), 2),
        Some(End::NoAction { winner }) => assert!(!s.has_action(1 - winner)),
        Some(End::PlyCap) => assert_eq!(s.plies(), s.config.max_plies),
        Some(End::Repetition) => assert_eq!(s.occurrences(), 3),
        Some(End::Resigned { .. }) => {}
        None => {
            assert!(s.plies() < s.config.max_plies);
            assert!(s.occurrences() < 3);
        }
    }
}

const OPTION_SETS: [&[&str]; 9] = [
    &[],
    &["captured=return"],
    &["columns=3", "rows=4"],
    &["columns=9", "rows=11"],
    &["columns=5", "rows=5"],
    &["columns=7", "rows=7"],
    &["columns=3", "rows=11", "captured=return"],
    &["max_plies=20"],
    &["opening=stone", "columns=4", "rows=6"],
];

#[test]
fn random_games_conform_on_every_size_and_option() {
    // LAG-1, LAG-7 option, LAG-11: every game ends, notation and JSON round
    // trip, bad input changes nothing, records replay.
    for (i, options) in OPTION_SETS.iter().enumerate() {
        let s = check_random_games::<Lager>(options, 60, 100 + i as u64, invariants);
        assert_eq!(s.games, 60);
    }
}

fn options_config(options: &[&str]) -> LagerConfig {
    let o = Options::parse("lager", Lager::option_specs(), options).unwrap();
    Lager::from_options(&o).unwrap().config()
}

use crate::options::Options;

/// Plays a random game, calling `each` on every state and action.
fn random_game(
    config: LagerConfig,
    seed: u64,
    mut each: impl FnMut(&LagerState, LagerAction),
) -> LagerState {
    let mut rng = seeded(seed);
    let mut s = LagerState::new(config);
    let mut buf = Vec::new();
    while s.turn() != Turn::Over {
        s.legal_actions(&mut buf);
        let a = buf[rng.random_range(0..buf.len())];
        each(&s, a);
        s.apply(a);
    }
    s
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn random_games_keep_the_pieces_and_end(seed in any::<u64>(), set in 0..OPTION_SETS.len()) {
        let config = options_config(OPTION_SETS[set]);
        let mut knocked_out = [0usize; 2];
        let end = random_game(config, seed, |s, a| {
            invariants(s);
            let mut t = *s;
            t.apply(a);
            if let Some(Knockout { owner, piece: Piece::Stone(_), .. }) = t.last_knockout() {
                knocked_out[owner] += 1;
            }
        });
        invariants(&end);
        prop_assert!(end.plies() <= config.max_plies);
        if config.captured == Captured::Out {
            for (p, &n) in knocked_out.iter().enumerate() {
                prop_assert_eq!(end.stones[p].iter().filter(|&&l| l == OUT).count(), n);
            }
        }
    }

    #[test]
    fn generator_agrees_with_the_rule_check(seed in any::<u64>(), set in 0..OPTION_SETS.len()) {
        let config = options_config(OPTION_SETS[set]);
        let mut n = 0;
        random_game(config, seed, |s, _| {
            // Every few plies, to keep the test quick.
            if n % 3 == 0 {
                check_generator(s);
            }
            n += 1;
        });
    }

    #[test]
    fn records_replay_to_the_same_state(seed in any::<u64>(), set in 0..OPTION_SETS.len()) {
        let config = options_config(OPTION_SETS[set]);
        let mut record = Vec::new();
        let end = random_game(config, seed, |s, a| record.push(s.format_action(a)));
        let mut replay = LagerState::new(config);
        for text in &record {
            let a = replay.parse_action(text).unwrap();
            replay.try_apply(a).unwrap();
        }
        prop_assert_eq!(replay, end);
        prop_assert_eq!(replay.zobrist(), end.zobrist());
    }
}

#[test]
fn zobrist_hash_identifies_transpositions() {
    let mut a = LagerState::new(opening_any());
    let mut b = a;
    play(&mut a, &["B@a1", "W@c7", "R@c4"]);
    play(&mut b, &["R@c4", "W@c7", "B@a1"]);
    assert_eq!(a.zobrist(), b.zobrist());
    let mut c = LagerState::new(opening_any());
    play(&mut c, &["B@a1", "W@c7", "R@c4", "B@a7"]);
    assert_ne!(a.zobrist(), c.zobrist());
    // The player to move is part of the position.
    let x = pos(".....\n.....\n.....\n.....\n.....\n.....\nW....", 0);
    let y = pos(".....\n.....\n.....\n.....\n.....\n.....\nW....", 1);
    assert_ne!(x.zobrist(), y.zobrist());
}

#[test]
fn notation_forms() {
    let s = pos(".....\n.....\n.....\n..w..\n.K.Y.\n.....\n.....", 0);
    let place = LagerAction::Place {
        stone: Stone::White,
        to: "a1".parse().unwrap(),
    };
    assert_eq!(s.format_action(place), "W@a1");
    for text in ["W@a1", "w@A1", "white a1", "W @ a1", " vit a1 "] {
        assert_eq!(s.parse_action(text).unwrap(), place, "{text}");
    }
    let block = LagerAction::Blockade {
        to: "e5".parse().unwrap(),
    };
    assert_eq!(s.format_action(block), "R@e5");
    for text in ["R@e5", "r@e5", "block e5", "blockade e5"] {
        assert_eq!(s.parse_action(text).unwrap(), block, "{text}");
    }
    let capture = s.parse_action("b3xc4").unwrap();
    assert_eq!(s.format_action(capture), "b3xc4");
    for text in ["b3-c4", "b3 c4", "b3:c4", "B3xC4", "b3c4"] {
        assert_eq!(s.parse_action(text).unwrap(), capture, "{text}");
    }
    let step = s.parse_action("d3-d4").unwrap();
    assert_eq!(s.format_action(step), "d3-d4");
    for bad in [
        "", "Q@a1", "R@z9", "a0-a1", "b3-", "b3-c4-d5", "hello", "W@a12",
    ] {
        assert!(s.parse_action(bad).is_err(), "{bad}");
    }
    // JSON names the squares as in notation.
    let json = serde_json::to_value(capture).unwrap();
    assert_eq!(
        json,
        serde_json::json!({"move": {"from": "b3", "to": "c4"}})
    );
    let json = serde_json::to_value(place).unwrap();
    assert_eq!(
        json,
        serde_json::json!({"place": {"stone": "white", "to": "a1"}})
    );
}

#[test]
fn illegal_input_is_rejected_with_a_reason_and_changes_nothing() {
    let mut s = pos(".....\n.....\n.....\n..w..\n.K...\n.....\n.....", 0);
    let before = s;
    for text in ["b3xc4", "B@a2", "c4-c3", "b3-b5", "R@c4", "b3-f9"] {
        let a = s.parse_action(text).unwrap();
        let err = s.try_apply(a).unwrap_err().to_string();
        assert!(err.contains("illegal"), "{text}: {err}");
        assert_eq!(s, before);
    }
}

#[test]
fn render_shows_the_grid_camps_threats_and_pieces_off_board() {
    let s = LagerState::from_diagram(
        LagerConfig::default(),
        ".....\n.....\n.....\n..w.r\n.K.Y.\n.....\nB....",
        0,
        &[(1, Stone::Yellow)],
    )
    .unwrap();
    let text = s.render(Viewer::Spectator, false);
    assert!(text.contains("North's camp"), "{text}");
    assert!(text.contains("South's camp"), "{text}");
    assert!(text.contains("(w)"), "{text}");
    assert!(text.contains(" K "), "{text}");
    assert!(text.contains("out y"), "{text}");
    assert!(text.contains("South to move"), "{text}");
    assert!(text.contains("blockade on e4"), "{text}");
    // The row labels run from the top row down to 1.
    let first_row = text.lines().find(|l| l.contains('|')).unwrap();
    assert!(first_row.trim_start().starts_with("7 |"), "{text}");
    let colored = s.render(Viewer::Player(0), true);
    assert!(colored.contains("\x1b["));
    let mut over = pos(".K...\n..W..\n.....\n.....\n.....\n.....\n.....", 0);
    play(&mut over, &["c6-c7"]);
    assert!(
        over.render(Viewer::Spectator, false)
            .contains("game over: South wins")
    );
}

#[test]
fn heuristic_is_sensible_and_greedy_play_beats_random() {
    // Ahead in the race is good; a stone in the camp is better.
    let a = pos("....b\n.....\n..B..\n.....\n.....\n.....\n.....", 1);
    assert!(a.heuristic(0) > 0.0 && a.heuristic(1) < 0.0);
    let b = pos("..W.b\n.....\n.....\n.....\n.....\n.....\n.....", 1);
    assert!(b.heuristic(0) > a.heuristic(0));
    // A greedy player (best heuristic after his own action) beats random play.
    let mut rng = seeded(5);
    let mut score = 0.0;
    let games = 200;
    let mut buf = Vec::new();
    for g in 0..games {
        let greedy = g % 2;
        let mut s = LagerState::new(LagerConfig::default());
        while let Turn::Player(p) = s.turn() {
            s.legal_actions(&mut buf);
            let a = if p == greedy {
                let mut best = (f64::MIN, buf[0]);
                for &a in &buf {
                    let mut t = s;
                    t.apply(a);
                    let v = t.heuristic(p) + rng.random::<f64>() * 1e-6;
                    if v > best.0 {
                        best = (v, a);
                    }
                }
                best.1
            } else {
                buf[rng.random_range(0..buf.len())]
            };
            s.apply(a);
        }
        score += (s.returns().get(greedy) + 1.0) / 2.0;
    }
    let rate = score / games as f64;
    assert!(rate > 0.85, "greedy scored {rate}");
}

/// A position for the repetition rule: every piece's place and the player
/// to move.
fn position(s: &LagerState) -> ([[u8; 4]; 2], [u8; 2], usize) {
    (s.stones, s.blockades, s.mover())
}

#[test]
fn lag_11_occurrences_agree_with_counting_the_whole_game() {
    // LAG-11: the repetition window only forgets positions that can never
    // come back. Checked against counting every position of the game, with
    // players that like to go back to positions they have seen, so that
    // repetitions through moves, captures and placements are common.
    let mut repetitions = [0; 2];
    let sets: [&[&str]; 4] = [
        &["columns=3", "rows=4", "max_plies=500"],
        &["columns=3", "rows=4", "max_plies=500", "captured=return"],
        &["columns=4", "rows=5", "max_plies=300", "captured=return"],
        &["max_plies=300", "captured=return", "opening=stone"],
    ];
    for (i, options) in sets.iter().enumerate() {
        let config = options_config(options);
        let returning = (config.captured == Captured::Return) as usize;
        for seed in 0..60 {
            let mut rng = seeded(1000 * i as u64 + seed);
            let mut s = LagerState::new(config);
            let mut seen = vec![position(&s)];
            let mut buf = Vec::new();
            while s.turn() != Turn::Over {
                s.legal_actions(&mut buf);
                let back: Vec<LagerAction> = buf
                    .iter()
                    .copied()
                    .filter(|&a| {
                        let mut t = s;
                        t.apply(a);
                        seen.contains(&position(&t))
                    })
                    .collect();
                let calm: Vec<LagerAction> = buf
                    .iter()
                    .copied()
                    .filter(|a| !matches!(a, LagerAction::Blockade { .. }))
                    .collect();
                let a = if !back.is_empty() && rng.random_bool(0.6) {
                    back[rng.random_range(0..back.len())]
                } else if !calm.is_empty() && rng.random_bool(0.95) {
                    calm[rng.random_range(0..calm.len())]
                } else {
                    buf[rng.random_range(0..buf.len())]
                };
                s.apply(a);
                let here = position(&s);
                let count = seen.iter().filter(|&&p| p == here).count() + 1;
                seen.push(here);
                match s.end() {
                    None => assert_eq!(s.occurrences(), count, "{options:?} seed {seed}"),
                    Some(End::Repetition) => {
                        assert_eq!(count, 3, "{options:?} seed {seed}");
                        repetitions[returning] += 1;
                    }
                    Some(End::PlyCap) => assert!(count < 3, "{options:?} seed {seed}"),
                    Some(_) => {}
                }
            }
        }
    }
    // Both options really reach the rule.
    assert!(
        repetitions[0] >= 10 && repetitions[1] >= 30,
        "{repetitions:?}"
    );
}
