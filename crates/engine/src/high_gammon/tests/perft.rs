//! Perft-style tables: the number of distinct legal plays of every roll for
//! the first player (Blue) from the starting position, cross-checked by the
//! naive reference generator, which is also run on positions from random
//! games.
//!
//! Rolls are in the order of `tables::ROLLS`: 1-1, 2-1, 2-2, 3-1, 3-2, 3-3,
//! 4-1, 4-2, 4-3, 4-4, 5-1, 5-2, 5-3, 5-4, 5-5, 6-1, 6-2, 6-3, 6-4, 6-5, 6-6.

use super::reference::cross_check;
use super::*;
use crate::game::Turn;
use crate::playout::Playout;
use crate::rng::seeded;
use crate::tables::ROLLS;

fn table(r: HgRules) -> Vec<usize> {
    let s = HgState::new(r);
    ROLLS
        .iter()
        .map(|&(roll, _)| {
            let st = HgState::with_position(r, *s.board(), 0, roll);
            let mut acts = Vec::new();
            st.legal_actions(&mut acts);
            acts.len()
        })
        .collect()
}

const DOUBLES: [Doubles; 3] = [Doubles::Reroll, Doubles::Repeat, Doubles::Underside];

/// HG-6..HG-13: plays from the High-O Gammon start. By hand for two players
/// and 1-1 (two ones): Blue has 2 on 1, 3 on 7, 4 on 13 and Yellow's band
/// closes 15, so 1/2(2), 1/3, 1/2 7/8, 1/2 13/14, 7/8(2), 7/9, 7/8 13/14,
/// 13/14(2): 8. With three or four players Red's band on 8 and Green's on
/// 6 close more fields.
#[test]
fn perft_high_gammon_start() {
    let want: [[[usize; 21]; 3]; 3] = [
        [
            [
                8, 9, 5, 12, 8, 9, 12, 8, 12, 7, 12, 8, 10, 11, 8, 10, 6, 9, 9, 9, 6,
            ],
            [
                33, 9, 14, 12, 8, 34, 12, 8, 12, 20, 12, 8, 10, 11, 28, 10, 6, 9, 9, 9, 11,
            ],
            [
                51, 9, 57, 12, 8, 93, 12, 8, 12, 90, 12, 8, 10, 11, 66, 10, 6, 9, 9, 9, 51,
            ],
        ],
        [
            [
                4, 6, 5, 8, 8, 9, 8, 8, 10, 7, 8, 7, 10, 11, 8, 6, 6, 9, 9, 9, 6,
            ],
            [
                9, 6, 14, 8, 8, 34, 8, 8, 10, 20, 8, 7, 10, 11, 28, 6, 6, 9, 9, 9, 11,
            ],
            [
                22, 6, 48, 8, 8, 68, 8, 8, 10, 68, 8, 7, 10, 11, 47, 6, 6, 9, 9, 9, 19,
            ],
        ],
        [
            [
                4, 6, 5, 8, 7, 9, 7, 8, 10, 7, 6, 5, 7, 8, 4, 6, 6, 9, 9, 6, 6,
            ],
            [
                9, 6, 14, 8, 7, 34, 7, 8, 10, 20, 6, 5, 7, 8, 8, 6, 6, 9, 9, 6, 11,
            ],
            [
                22, 6, 30, 8, 7, 68, 7, 8, 10, 68, 6, 5, 7, 8, 28, 6, 6, 9, 9, 6, 19,
            ],
        ],
    ];
    for (i, n) in (2..=4u8).enumerate() {
        for (j, d) in DOUBLES.into_iter().enumerate() {
            let r = rules(n, false, d, Scoring::Points);
            assert_eq!(table(r), want[i][j].to_vec(), "{n} players, {d:?}");
            cross_check(&HgState::with_position(
                r,
                Board::high_gammon(seats(n as usize)),
                0,
                [1, 2],
            ));
        }
    }
}

/// TT-1: from the start every stone waits off the board: a roll enters a
/// stone with the smaller number and then enters another or moves it on
/// (2 plays; 6-6 under `repeat`: enter or move on, up to 3 on a point).
#[test]
fn perft_tric_trac_start() {
    let two = [2usize; 21];
    let repeat = [
        4, 2, 4, 2, 2, 4, 2, 2, 2, 4, 2, 2, 2, 2, 4, 2, 2, 2, 2, 2, 3,
    ];
    let underside = [
        9, 2, 9, 2, 2, 9, 2, 2, 2, 9, 2, 2, 2, 2, 9, 2, 2, 2, 2, 2, 9,
    ];
    for n in 2..=4u8 {
        for (d, want) in DOUBLES.into_iter().zip([two, repeat, underside]) {
            let r = rules(n, true, d, Scoring::Points);
            assert_eq!(table(r), want.to_vec(), "{n} players, {d:?}");
            cross_check(&HgState::with_position(
                r,
                Board::tric_trac(n as usize),
                0,
                [1, 2],
            ));
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
