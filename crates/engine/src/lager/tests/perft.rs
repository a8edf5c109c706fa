//! Perft: the number of legal action sequences of each length from the start
//! on the default board, pinned in `perft.txt`, and of the variant opening.

use super::*;

const PINNED: &str = include_str!("../perft.txt");

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

fn pinned() -> Vec<(u32, u64)> {
    PINNED
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            let (d, n) = l.split_once(char::is_whitespace).expect("depth count");
            (d.parse().unwrap(), n.trim().parse().unwrap())
        })
        .collect()
}

#[test]
fn perft_from_the_start_matches_the_pinned_counts() {
    // LAG-4, LAG-2, LAG-5: the counts follow from the start and the actions.
    let start = LagerState::new(LagerConfig::default());
    let pinned = pinned();
    assert_eq!(pinned.iter().map(|p| p.0).collect::<Vec<_>>(), [1, 2, 3, 4]);
    let mut buf = Vec::new();
    for (depth, count) in pinned {
        assert_eq!(perft(&start, depth, &mut buf), count, "depth {depth}");
    }
}

#[test]
fn perft_agrees_with_the_brute_force_rule_check() {
    let start = LagerState::new(LagerConfig::default());
    let mut buf = Vec::new();
    for depth in 1..=3 {
        assert_eq!(perft(&start, depth, &mut buf), perft_brute(&start, depth));
    }
}

#[test]
fn perft_of_the_variant_opening_any() {
    // LAG-4 with `opening=any`: the first actions may also be the blockade.
    // Depth 2 by hand: 20 placements x 54 + 5 blockades in North's camp x 50
    // + 30 other blockades x 54 = 2950.
    let start = LagerState::new(LagerConfig {
        stone_first: false,
        ..LagerConfig::default()
    });
    let mut buf = Vec::new();
    let counts: Vec<u64> = (1..=3).map(|d| perft(&start, d, &mut buf)).collect();
    assert_eq!(counts, [55, 2950, 86798]);
}
