//! How random games end, game for game the same games as
//! `spelbord selfplay stumphog --games 5000 --seed 1` (game i uses seed
//! 1 + i). Run with `cargo test -p spelbord-engine stumphog_end_counts --
//! --nocapture` (GAMES=5000 in the environment for the full run; SEED changes
//! the first seed). With seed 1, 5000 games: 4982 dried out, 18 both dried
//! out, none past 40 or at the cap; wins 2473 / 2509.
//!
//! Checked on the default 300 games: random play ends well before the turn
//! cap, mostly by drying out (STU-17), and neither seat is favoured (the
//! opening roll decides who lays Stumpen, STU-4/STU-5).

use super::*;
use crate::playout::Playout;
use crate::rng::seeded;

#[test]
fn stumphog_end_counts() {
    let env = |key: &str, default: u64| {
        std::env::var(key)
            .ok()
            .and_then(|g| g.parse().ok())
            .unwrap_or(default)
    };
    let (games, seed) = (env("GAMES", 300), env("SEED", 1));
    let state = StumphogState::new(Rules::default());
    let mut playout = Playout::default();
    let (mut past, mut dried, mut both, mut cap) = (0, 0, 0, 0);
    let (mut wins, mut plies, mut turns) = ([0u64; 2], 0u64, 0u64);
    for i in 0..games {
        let mut rng = seeded(seed.wrapping_add(i));
        let mut s = state;
        plies += playout
            .run(&mut s, &mut rng, |_, _| {})
            .expect("the game ends");
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
            Some(End::Resigned { .. }) => unreachable!("random play does not resign"),
            Some(End::TurnCap) => cap += 1,
            None => panic!("not over"),
        }
    }
    println!(
        "{games} random games from seed {seed}: past 40 {past}, dried out {dried}, both dried out {both}, \
         turn cap {cap}; wins {wins:?}; mean {:.1} turns, {:.1} plies",
        turns as f64 / games as f64,
        plies as f64 / games as f64
    );
    assert_eq!(cap, 0, "random games end long before the turn cap");
    assert!(dried * 10 >= games * 9, "random games end by drying out");
    let decided = wins[0] + wins[1];
    for w in wins {
        assert!(
            (0.35..=0.65).contains(&(w as f64 / decided as f64)),
            "seat balance: {wins:?}"
        );
    }
    assert!(past + both <= games / 20, "rare ends stay rare");
}
