//! Property tests and the conformance checks for every option combination:
//! stones are conserved per colour, points never hold two colours (nor more
//! than 3 stones in Tric-Trac), random games end for 2, 3 and 4 players
//! under every option, records replay, and results add up to zero.

use super::*;
use crate::conformance::{Summary, check_random_games};
use crate::game::Turn;
use crate::high_gammon::geometry::is_rest;
use proptest::prelude::*;

/// Checks the invariants of one state.
pub(super) fn invariants(s: &HgState) {
    let n = s.num_players();
    let b = s.board();
    for p in 0..n {
        if s.is_active(p) {
            assert_eq!(b.stones(p), STONES, "player {p}'s stones: {b:?}");
        } else {
            assert_eq!(
                b.stones(p),
                b.off[p],
                "a dropped player has no stones in play"
            );
            assert!(s.dropped_at(p).is_some());
        }
    }
    for (r, f) in b.cnt.iter().enumerate() {
        if !is_rest(r) {
            assert!(
                f.iter().filter(|&&c| c > 0).count() <= 1,
                "two colours on field {}",
                r + 1
            );
            if s.rules().tric {
                assert!(f.iter().all(|&c| c <= 3), "more than 3 on field {}", r + 1);
            }
        }
    }
    assert!(s.cube_value() <= 64);
    if s.turn() == Turn::Over {
        let total: f64 = s.returns().as_slice().iter().sum();
        assert!(total.abs() < 1e-9, "returns add up to {total}");
        assert!(s.winner().is_some());
    }
}

fn options(n: u8, doubles: &str, scoring: Option<&str>) -> Vec<String> {
    let mut o = vec![format!("players={n}"), format!("doubles={doubles}")];
    if let Some(sc) = scoring {
        o.push(format!("scoring={sc}"));
    }
    o
}

fn run(tric: bool, opts: &[String], games: usize, seed: u64) -> Summary {
    let opts: Vec<&str> = opts.iter().map(String::as_str).collect();
    if tric {
        check_random_games::<TricTrac>(&opts, games, seed, invariants)
    } else {
        check_random_games::<HighGammon>(&opts, games, seed, invariants)
    }
}

const DOUBLES: [&str; 3] = ["reroll", "repeat", "underside"];
const SCORING: [&str; 3] = ["points", "cube", "traditional"];

/// Every option combination of High-O Gammon passes the conformance checks.
#[test]
fn conformance_high_gammon_every_option() {
    for n in 2..=4u8 {
        for d in DOUBLES {
            for sc in SCORING {
                let s = run(
                    false,
                    &options(n, d, Some(sc)),
                    4,
                    n as u64 * 31 + sc.len() as u64,
                );
                assert_eq!(s.games, 4);
                assert!(s.total_returns.iter().sum::<f64>().abs() < 1e-9);
            }
        }
    }
}

/// Every option combination of Tric-Trac passes the conformance checks.
#[test]
fn conformance_tric_trac_every_option() {
    for n in 2..=4u8 {
        for d in DOUBLES {
            let s = run(
                true,
                &options(n, d, None),
                4,
                n as u64 * 17 + d.len() as u64,
            );
            assert_eq!(s.games, 4);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    /// Stones conserved per colour, random games end, records replay, for
    /// any number of players and any option.
    #[test]
    fn prop_high_gammon_random_games(seed in any::<u64>(), n in 2u8..=4, d in 0usize..3, sc in 0usize..3) {
        let s = run(false, &options(n, DOUBLES[d], Some(SCORING[sc])), 1, seed);
        prop_assert_eq!(s.games, 1);
    }

    #[test]
    fn prop_tric_trac_random_games(seed in any::<u64>(), n in 2u8..=4, d in 0usize..3) {
        let s = run(true, &options(n, DOUBLES[d], None), 1, seed);
        prop_assert_eq!(s.games, 1);
    }
}
