//! How random games end: run with
//! `cargo test -p spelbord-engine --release stumphog_end_counts -- --ignored --nocapture`.

use super::*;
use crate::playout::Playout;
use crate::rng::seeded;

#[test]
#[ignore = "a harness that prints statistics, not a check"]
fn stumphog_end_counts() {
    let games: u64 = std::env::var("GAMES")
        .ok()
        .and_then(|g| g.parse().ok())
        .unwrap_or(5000);
    let state = StumphogState::new(Rules::default());
    let mut playout = Playout::default();
    let (mut past, mut dried, mut both, mut cap) = (0, 0, 0, 0);
    let (mut wins, mut plies, mut turns) = ([0u64; 2], 0u64, 0u64);
    let mut rng = seeded(1);
    for _ in 0..games {
        let mut s = state;
        plies += playout.run(&mut s, &mut rng, |_, _| {});
        turns += s.turns() as u64;
        match s.end() {
            Some(End::PastForty { winner }) => {
                past += 1;
                wins[winner] += 1;
            }
            Some(End::DriedOut { loser }) => {
                dried += 1;
                wins[1 - loser] += 1;
            }
            Some(End::BothDriedOut) => both += 1,
            Some(End::TurnCap) => cap += 1,
            None => panic!("not over"),
        }
    }
    println!(
        "{games} random games: past 40 {past}, dried out {dried}, both dried out {both}, \
         turn cap {cap}; wins {wins:?}; mean {:.1} turns, {:.1} plies",
        turns as f64 / games as f64,
        plies as f64 / games as f64
    );
}
