//! Perft: the generator's counts of legal action sequences from the start
//! agree with the brute-force rule check (the counts themselves are pinned
//! in `perft/lager.txt`, read by `tests/perft.rs`).

use super::*;

/// Leaves at exactly `depth` (a game that ends earlier contributes none).
fn perft(s: &LagerState, depth: u32, buf: &mut Vec<Vec<LagerAction>>) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut actions = buf.pop().unwrap_or_default();
    s.legal_actions(&mut actions);
    let n = if depth == 1 {
        actions.len() as u64
    } else {
        actions
            .iter()
            .map(|&a| {
                let mut t = *s;
                t.apply(a);
                perft(&t, depth - 1, buf)
            })
            .sum()
    };
    buf.push(actions);
    n
}

/// The same count with the brute-force rule check as the generator.
fn perft_brute(s: &LagerState, depth: u32) -> u64 {
    if depth == 0 || s.end().is_some() {
        return (depth == 0) as u64;
    }
    conceivable(s)
        .into_iter()
        .filter(|&a| s.is_legal(a))
        .map(|a| {
            let mut t = *s;
            t.apply(a);
            perft_brute(&t, depth - 1)
        })
        .sum()
}

#[test]
fn perft_agrees_with_the_brute_force_rule_check() {
    // LAG-4: under both openings.
    for stone_first in [true, false] {
        let start = LagerState::new(LagerConfig {
            stone_first,
            ..LagerConfig::default()
        });
        let mut buf = Vec::new();
        for depth in 1..=3 {
            assert_eq!(perft(&start, depth, &mut buf), perft_brute(&start, depth));
        }
    }
}
