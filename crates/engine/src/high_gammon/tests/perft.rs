//! The plays from the start and from positions of random games,
//! cross-checked by the naive reference generator. The counts of plays of
//! every roll from the start are pinned in `perft/high-gammon.txt` and
//! `perft/tric-trac.txt` (read by `tests/perft.rs`).

use super::reference::cross_check;
use super::*;
use crate::game::Turn;
use crate::playout::Playout;
use crate::rng::seeded;

const DOUBLES: [Doubles; 3] = [Doubles::Reroll, Doubles::Repeat, Doubles::Underside];

/// HG-6..HG-13, TT-1: every roll's plays from the start equal the
/// reference's, for every number of players and doubles rule, whichever
/// colour the starter chose (HG-5).
#[test]
fn plays_from_the_start_match_reference() {
    for tric in [false, true] {
        for n in 2..=4u8 {
            for d in DOUBLES {
                let r = rules(n, tric, d, Scoring::Points);
                for &seat in seats(n as usize) {
                    let mut s = HgState::new(r);
                    s.apply(HgAction::Opening([6, 1, 1, 1]));
                    s.apply(HgAction::Colour(seat));
                    assert_eq!(s.seat(0), seat);
                    cross_check(&s);
                }
            }
        }
    }
}

/// The engine's plays equal the reference's on positions from random
/// games, for every number of players and doubles rule, both games.
#[test]
fn plays_match_reference_on_random_positions() {
    let mut rng = seeded(5);
    let mut playout = Playout::default();
    let mut checked = 0;
    for tric in [false, true] {
        for n in 2..=4u8 {
            for d in DOUBLES {
                let r = rules(n, tric, d, Scoring::Points);
                let mut s = HgState::new(r);
                let mut positions = Vec::new();
                playout
                    .run(&mut s, &mut rng, |st, _| {
                        if st.turn() != Turn::Chance && matches!(st.phase(), Phase::Moving { .. }) {
                            positions.push(*st);
                        }
                    })
                    .expect("the game ends");
                for st in positions.iter().step_by(9) {
                    cross_check(st);
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 100, "{checked}");
}
