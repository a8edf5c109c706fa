//! Tests of the bear-off databases: values derived by hand, values computed
//! a second way (through the engine's game, turn by turn), properties that
//! follow from the rules, and the shipped files.

use super::build::successors;
use super::file::ONE;
use super::index::{checkers, index, pips, position, positions};
use super::*;
use spelbord_engine::backgammon::BackgammonRules;
use spelbord_engine::tables::{AbsBoard, ROLLS, TablesOptions, TablesState};

type BgState = TablesState<BackgammonRules>;
use spelbord_engine::{GameState, Turn};
use std::collections::HashMap;

/// One unit of the files' fixed point, with a little room for sums.
const UNIT: f64 = 1.0 / ONE as f64;

fn db() -> &'static Bearoff {
    shipped().expect("the shipped bear-off databases read")
}

/// A home board from (point, checkers) pairs.
fn home(of: &[(usize, u8)]) -> Home {
    let mut h = [0; POINTS];
    for &(point, n) in of {
        h[point - 1] += n;
    }
    h
}

/// The 36 rolls of two dice, each 1/36.
fn all_dice() -> impl Iterator<Item = (u8, u8)> {
    (1..=6).flat_map(|a| (1..=6).map(move |b| (a, b)))
}

#[test]
fn a_lone_checker_bears_off_as_worked_out_by_hand() {
    // A lone checker moves the roll's whole count (a double four times):
    // it is off in one roll unless the count is below its point, and the
    // smallest count (3, or 4 for 1-1) always takes it off on the next.
    for p in 1..=6u8 {
        let fails = all_dice()
            .filter(|&(a, b)| if a == b { 4 * a < p } else { a + b < p })
            .count() as f64;
        let d = db().one.race(index(&home(&[(p as usize, 1)]))).unwrap();
        assert!((d.p(1) - (1.0 - fails / 36.0)).abs() <= UNIT, "point {p}");
        assert!((d.p(2) - fails / 36.0).abs() <= UNIT, "point {p}");
        assert_eq!(d.p(0) + d.p(3), 0.0);
    }
    // point 6: 1-2, 1-3, 1-4, 2-3 either way and 1-1 fail, 9 of 36
    let six = db().one.race(index(&home(&[(6, 1)]))).unwrap();
    assert!((six.mean() - (1.0 + 9.0 / 36.0)).abs() < 1e-4);
}

#[test]
fn two_checkers_bear_off_as_worked_out_by_hand() {
    let race = |h: &[(usize, u8)]| db().one.race(index(&home(h))).unwrap();
    // Two on the 1 point, or on the 1 and 2 points: every roll takes both.
    for h in [&[(1, 2)][..], &[(1, 1), (2, 1)]] {
        assert_eq!((race(h).start, race(h).units), (1, &[ONE][..]), "{h:?}");
    }
    // Two on the 2 point: a roll of a 1 and a higher die leaves one on the
    // 1 point (10 of 36); any other roll takes both.
    let two = race(&[(2, 2)]);
    assert!((two.p(1) - 26.0 / 36.0).abs() <= UNIT);
    assert!((two.p(2) - 10.0 / 36.0).abs() <= UNIT);
    // Two on the 6 point: only doubles of 3 or more take both at once.
    let six = race(&[(6, 2)]);
    assert!((six.p(1) - 4.0 / 36.0).abs() <= UNIT);
}

#[test]
fn a_gammon_as_worked_out_by_hand() {
    // One checker on the 6 point against fifteen on the other's 6 point:
    // the lone checker is off at once in 27 rolls of 36, else surely at the
    // next; the other takes one off only with a 6 or by moving one checker
    // 6 pips to the 1 point first and taking it off (5-1, 4-2, 3-3, 2-2),
    // 17 rolls of 36.
    let p = db().probs(&home(&[(6, 1)]), &home(&[(6, 15)])).unwrap();
    let gammon = 27.0 / 36.0 + 9.0 / 36.0 * 19.0 / 36.0;
    assert_eq!(p[0], 1.0);
    assert!((f64::from(p[1]) - gammon).abs() < 1e-4, "{p:?}");
    let first = db().one.first_off(index(&home(&[(6, 15)]))).unwrap();
    assert!((first.p(1) - 17.0 / 36.0).abs() <= UNIT);
}

#[test]
fn fifteen_on_the_one_point_leave_two_a_roll_and_four_a_double() {
    // A second way: each roll takes 2 (30 in 36) or 4 (a double, 6 in 36).
    let mut left = HashMap::from([(15i32, 1.0f64)]);
    let mut dist = vec![0.0];
    while !left.is_empty() {
        let mut next = HashMap::new();
        let mut done = 0.0;
        for (&n, &p) in &left {
            for (took, q) in [(2, 30.0 / 36.0), (4, 6.0 / 36.0)] {
                match n - took {
                    m if m <= 0 => done += p * q,
                    m => *next.entry(m).or_insert(0.0) += p * q,
                }
            }
        }
        dist.push(done);
        left = next;
    }
    let d = db().one.race(index(&home(&[(1, 15)]))).unwrap();
    // at least 4 rolls (16 checkers in four doubles), at most 8 (2 a roll)
    assert_eq!((d.start, d.end()), (4, 9));
    for (k, &p) in dist.iter().enumerate() {
        assert!((d.p(k) - p).abs() <= UNIT, "{k} rolls: {} not {p}", d.p(k));
    }
    let mean: f64 = dist.iter().enumerate().map(|(k, p)| k as f64 * p).sum();
    assert!((d.mean() - mean).abs() < 1e-3 && mean > 6.9, "{mean}");
}

#[test]
fn every_position_needs_at_least_what_the_dice_can_carry() {
    // At most four checkers leave a roll, and a roll carries at most its
    // pips (49/6 expected: by Wald's identity the mean is at least pips · 6/49).
    for i in 1..positions(15) {
        let h = position(i).unwrap();
        let d = db().one.race(i).unwrap();
        assert!(d.start >= checkers(&h).div_ceil(4), "{h:?}");
        assert!(d.mean() + 1e-3 >= pips(&h) as f64 * 6.0 / 49.0, "{h:?}");
        assert!(d.end() <= pips(&h) + 1, "{h:?}");
    }
}

/// The states after each legal play of `dice` by the side on roll with
/// `mover` against `other` (each in its own numbering), through the game.
fn after_each_play(mover: &Home, other: &Home, dice: [u8; 2]) -> Vec<BgState> {
    let board = super::tests_files::board_of::<BackgammonRules>(mover, other);
    let rolled = TablesState::with_position(BackgammonRules, TablesOptions::default(), board, 0)
        .with_dice(dice);
    let mut actions = Vec::new();
    rolled.legal_actions(&mut actions);
    actions
        .into_iter()
        .map(|a| {
            let mut s = rolled;
            s.apply(a);
            s
        })
        .collect()
}

/// The side's home board (its own numbering) in an absolute board.
fn home_of(abs: &AbsBoard, player: usize) -> Home {
    let mut h = [0; POINTS];
    for (i, c) in h.iter_mut().enumerate() {
        *c = match player {
            0 => abs.top[i].max(0) as u8,
            _ => (-abs.top[23 - i]).max(0) as u8,
        };
    }
    h
}

/// The second way for one side: the distribution of rolls to bear off,
/// through the engine's game turn by turn (each roll's legal actions
/// applied to the state), playing to the least expected rolls; memoised.
fn by_game_one(h: Home, memo: &mut HashMap<Home, (f64, Vec<f64>)>) -> (f64, Vec<f64>) {
    if checkers(&h) == 0 {
        return (0.0, vec![1.0]);
    }
    if let Some(r) = memo.get(&h) {
        return r.clone();
    }
    let (mut mean, mut dist) = (1.0, vec![0.0; 1]);
    for &(dice, p) in ROLLS.iter() {
        let best = after_each_play(&h, &[0, 0, 0, 0, 0, 15], dice)
            .iter()
            .map(|s| by_game_one(home_of(&s.absolute(), 0), memo))
            .min_by(|a, b| a.0.total_cmp(&b.0))
            .unwrap();
        mean += p * best.0;
        dist.resize(dist.len().max(best.1.len() + 1), 0.0);
        for (k, q) in best.1.iter().enumerate() {
            dist[k + 1] += p * q;
        }
    }
    memo.insert(h, (mean, dist.clone()));
    (mean, dist)
}

#[test]
fn positions_of_up_to_three_checkers_match_the_engines_game_turn_by_turn() {
    let mut memo = HashMap::new();
    for i in 0..positions(3) {
        let (mean, dist) = by_game_one(position(i).unwrap(), &mut memo);
        let d = db().one.race(i).unwrap();
        assert!((d.mean() - mean).abs() < 1e-3, "{:?}", position(i).unwrap());
        for (k, &p) in dist.iter().enumerate() {
            assert!(
                (d.p(k) - p).abs() <= 2.0 * UNIT,
                "{:?} {k}",
                position(i).unwrap()
            );
        }
    }
}

/// The second way for both sides: the chance that the side on roll wins,
/// through the engine's game with both sides on the board, turn by turn.
fn by_game_two(mover: Home, other: Home, memo: &mut HashMap<(Home, Home), f64>) -> f64 {
    if let Some(&w) = memo.get(&(mover, other)) {
        return w;
    }
    let mut win = 0.0;
    for &(dice, p) in ROLLS.iter() {
        let best = after_each_play(&mover, &other, dice)
            .iter()
            .map(|s| match s.turn() {
                Turn::Over => 1.0,
                _ => {
                    let abs = s.absolute();
                    1.0 - by_game_two(home_of(&abs, 1), home_of(&abs, 0), memo)
                }
            })
            .fold(0.0, f64::max);
        win += p * best;
    }
    memo.insert((mover, other), win);
    win
}

#[test]
fn two_sided_values_of_up_to_two_checkers_match_the_engines_game() {
    let mut memo = HashMap::new();
    for a in 1..positions(2) {
        for b in 1..positions(2) {
            let w = by_game_two(position(a).unwrap(), position(b).unwrap(), &mut memo);
            let stored = db().two.win(a, b).unwrap();
            assert!(
                (stored - w).abs() <= UNIT,
                "{:?} {:?}",
                position(a).unwrap(),
                position(b).unwrap()
            );
        }
    }
}

#[test]
fn two_sided_values_are_consistent() {
    let two = &db().two;
    let n = two.positions();
    assert_eq!((n, two.checkers), (924, 6));
    let one = &db().one;
    // One checker on the 1 point is off at the next roll: the side on roll
    // must finish now, which the one-sided distribution says directly.
    let ace = index(&home(&[(1, 1)]));
    for a in 0..n {
        assert_eq!(two.win(0, a), Some(1.0));
        if a > 0 {
            assert_eq!(two.win(a, 0), Some(0.0));
            let now = one.race(a).unwrap().p(1);
            assert!((two.win(a, ace).unwrap() - now).abs() <= UNIT);
        }
    }
    for a in 1..n {
        for b in 1..n {
            let w = two.win(a, b).unwrap();
            // being on roll never hurts
            assert!(w + two.win(b, a).unwrap() >= 1.0 - 2.0 * UNIT);
            // a checker more for the other side never hurts the side on roll
            let hb = position(b).unwrap();
            for p in 0..POINTS {
                let mut more = hb;
                more[p] += 1;
                if checkers(&more) <= 6 {
                    assert!(two.win(a, index(&more)).unwrap() + UNIT >= w);
                }
            }
        }
    }
}

#[test]
fn two_sided_values_satisfy_their_equation() {
    // Each value is the mean over the rolls of the best play's value.
    let two = &db().two;
    let n = two.positions();
    let succ: Vec<Vec<Vec<usize>>> = (0..n)
        .map(|a| {
            ROLLS
                .iter()
                .map(|&(d, _)| successors(BackgammonRules, &position(a).unwrap(), d).unwrap())
                .collect()
        })
        .collect();
    for a in (1..n).step_by(7) {
        for b in 1..n {
            let mut w = 0.0;
            for (s, &(_, p)) in succ[a].iter().zip(ROLLS.iter()) {
                let best = s
                    .iter()
                    .map(|&s| 1.0 - two.win(b, s).unwrap())
                    .fold(0.0, f64::max);
                w += p * best;
            }
            assert!((two.win(a, b).unwrap() - w).abs() <= 2.0 * UNIT, "{a} {b}");
        }
    }
}
