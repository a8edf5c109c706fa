//! Generating the databases. The plays come from the engine: a side's home
//! board is set up as a backgammon position with the other side's 15
//! checkers parked on its own 1 point (the mover's 24, where they cannot
//! meet), and the engine's play generator gives every play of each roll.
//!
//! - One-sided: for each position, the distribution of the number of rolls
//!   to bear off every checker when each roll is played to minimise the
//!   expected number of rolls; for each position of all 15 checkers, the
//!   distribution of the rolls until the first checker is off when each
//!   roll is played to minimise the expected number of those rolls.
//! - Two-sided: for each pair of positions, the chance that the side on
//!   roll bears off first when both sides play to maximise it.
//!
//! Every play lowers the pip count (each die can always be played in a
//! bear-off, and each step moves a checker down or off), so the positions
//! are solved in order of pips: a position's successors are solved first.

use super::index::{Home, MAX_CHECKERS, POINTS, checkers, index, pips, position, positions};
use spelbord_engine::PositionError;
use spelbord_engine::backgammon::BackgammonRules;
use spelbord_engine::tables::{
    AbsBoard, ROLLS, StepBoard, TablesOptions, TablesState, TablesVariant,
};

/// The distinct positions (indices, ascending) after each play of `dice`
/// from `home` under `variant`'s rules; empty for an empty home board.
pub fn successors<V: TablesVariant>(
    variant: V,
    home: &Home,
    dice: [u8; 2],
) -> Result<Vec<usize>, PositionError> {
    let on = checkers(home);
    if on > MAX_CHECKERS {
        return Err(too_many(on, MAX_CHECKERS));
    }
    if on == 0 {
        return Ok(Vec::new());
    }
    let mut abs = AbsBoard {
        off: [(MAX_CHECKERS - on) as u8, 0],
        ..AbsBoard::default()
    };
    for (t, &c) in abs.top.iter_mut().zip(home) {
        *t = c as i8;
    }
    abs.top[23] = -(MAX_CHECKERS as i8);
    let board = V::board_from_absolute(&abs)?;
    let state = TablesState::with_position(variant, TablesOptions::default(), board, 0);
    let mut out: Vec<usize> = state.with_plays(dice, |plays| {
        plays
            .map(|play| {
                let mut after = board;
                for &step in play.steps() {
                    after.apply_step(step);
                }
                let top = V::absolute(&after).top;
                let mut next = [0u8; POINTS];
                for (n, &c) in next.iter_mut().zip(&top) {
                    *n = c.max(0) as u8;
                }
                index(&next)
            })
            .collect()
    });
    out.sort_unstable();
    out.dedup();
    Ok(out)
}

/// The successors of every position of at most `max` checkers, by roll.
type Successors = Vec<[Vec<usize>; 21]>;

/// The error for a database of more than `most` checkers a side.
fn too_many(max: usize, most: usize) -> PositionError {
    PositionError::Count {
        player: 0,
        what: "checkers of a bear-off database at most",
        expected: most as u32,
        found: max as u32,
    }
}

/// The successors of the positions of at most `max` checkers for every roll.
pub fn all_successors<V: TablesVariant>(
    variant: V,
    max: usize,
) -> Result<Successors, PositionError> {
    if max > MAX_CHECKERS {
        return Err(too_many(max, MAX_CHECKERS));
    }
    (0..positions(max))
        .map(|i| {
            let home = position(i).ok_or_else(|| too_many(max, MAX_CHECKERS))?;
            let mut by_roll: [Vec<usize>; 21] = Default::default();
            for (s, &(dice, _)) in by_roll.iter_mut().zip(ROLLS.iter()) {
                *s = successors(variant, &home, dice)?;
            }
            Ok(by_roll)
        })
        .collect()
}

/// The indices below `count`, fewest pips first.
fn by_pips(count: usize) -> Vec<usize> {
    let mut order: Vec<usize> = (0..count).collect();
    order.sort_by_key(|&i| position(i).map_or(0, |h| pips(&h)));
    order
}

/// A distribution over numbers of rolls (index k: exactly k rolls) with its mean.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Exact {
    /// The probability of each number of rolls.
    pub probs: Vec<f64>,
    /// The expected number of rolls.
    pub mean: f64,
}

impl Exact {
    /// Adds `p` times this distribution one roll later to `sum`.
    fn add_later(&self, p: f64, sum: &mut Vec<f64>) {
        if sum.len() < self.probs.len() + 1 {
            sum.resize(self.probs.len() + 1, 0.0);
        }
        for (s, &q) in sum[1..].iter_mut().zip(&self.probs) {
            *s += p * q;
        }
    }
}

/// The one-sided distributions: the rolls to bear off all checkers of each
/// position of at most `max` checkers (`succ` from [`all_successors`]), and
/// the rolls to bear off the first checker of each position of exactly
/// `max` checkers (in index order, from `positions(max - 1)`).
pub fn one_sided(succ: &Successors, max: usize) -> (Vec<Exact>, Vec<Exact>) {
    let count = positions(max);
    let mut race = vec![Exact::default(); count];
    race[0] = Exact {
        probs: vec![1.0],
        mean: 0.0,
    };
    let full = if max == 0 { 0 } else { positions(max - 1) };
    let mut first = vec![Exact::default(); count - full];
    for i in by_pips(count).into_iter().filter(|&i| i > 0) {
        race[i] = solve(&succ[i], |s| Some(&race[s]));
        if i >= full {
            // a play that bears a checker off ends the wait (None)
            first[i - full] = solve(&succ[i], |s| (s >= full).then(|| &first[s - full]));
        }
    }
    (race, first)
}

/// One position's distribution: each roll played to the successor of the
/// least expected rolls (`dist` of a successor; `None`: done, 0 rolls).
fn solve<'a>(by_roll: &[Vec<usize>; 21], dist: impl Fn(usize) -> Option<&'a Exact>) -> Exact {
    let mut sum = vec![0.0];
    let mut mean = 1.0;
    for (succ, &(_, p)) in by_roll.iter().zip(ROLLS.iter()) {
        let best = succ
            .iter()
            .map(|&s| dist(s))
            .min_by(|a, b| {
                let m = |d: &Option<&Exact>| d.map_or(0.0, |e| e.mean);
                m(a).total_cmp(&m(b))
            })
            .flatten();
        match best {
            Some(e) => {
                e.add_later(p, &mut sum);
                mean += p * e.mean;
            }
            None => {
                sum.resize(sum.len().max(2), 0.0);
                sum[1] += p;
            }
        }
    }
    Exact { probs: sum, mean }
}

/// The two-sided table of the positions of at most `max` checkers: entry
/// `a * n + b` (n = `positions(max)`) is the chance that the side on roll
/// with `a` bears off before the other with `b` when both play to maximise
/// it; 1 when `a` is empty (the side on roll has won), 0 when only `b` is.
pub fn two_sided(succ: &Successors, max: usize) -> Vec<f64> {
    let n = positions(max);
    let mut w = vec![0.0; n * n];
    w[..n].fill(1.0);
    // positions by pips, to visit the pairs by their pip sum
    let pip: Vec<usize> = (0..n)
        .map(|i| position(i).map_or(0, |h| pips(&h)))
        .collect();
    let most = pip.iter().copied().max().unwrap_or(0);
    let mut at_pips = vec![Vec::new(); most + 1];
    for (i, &p) in pip.iter().enumerate().skip(1) {
        at_pips[p].push(i);
    }
    for total in 2..=2 * most {
        for pa in 1..total.min(most + 1) {
            let pb = total - pa;
            if pb > most {
                continue;
            }
            for &a in &at_pips[pa] {
                for &b in &at_pips[pb] {
                    let mut win = 0.0;
                    for (succ, &(_, p)) in succ[a].iter().zip(ROLLS.iter()) {
                        let best = succ.iter().map(|&s| 1.0 - w[b * n + s]).fold(0.0, f64::max);
                        win += p * best;
                    }
                    w[a * n + b] = win;
                }
            }
        }
    }
    w
}

/// The one-sided file of the positions of at most `checkers` (backgammon's
/// rules; 15 for the shipped one).
pub fn one_sided_file(checkers: usize) -> Result<Vec<u8>, PositionError> {
    let succ = all_successors(BackgammonRules, checkers)?;
    let (race, first) = one_sided(&succ, checkers);
    Ok(super::file::one_sided_bytes(checkers, &race, &first))
}

/// The two-sided file of the positions of at most `checkers` (backgammon's
/// rules; 6 for the shipped one, at most 8).
pub fn two_sided_file(checkers: usize) -> Result<Vec<u8>, PositionError> {
    if checkers > usize::from(super::file::MAX_TWO_SIDED) {
        return Err(too_many(checkers, super::file::MAX_TWO_SIDED.into()));
    }
    let succ = all_successors(BackgammonRules, checkers)?;
    Ok(super::file::two_sided_bytes(
        checkers,
        &two_sided(&succ, checkers),
    ))
}
