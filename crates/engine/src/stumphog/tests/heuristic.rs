//! The heuristic: sensible signs, and a one-ply greedy player on it beats
//! random play clearly.

use super::*;
use crate::game::{Heuristic, Turn};
use crate::rng::seeded;
use rand::Rng;

fn greedy(s: &StumphogState, buf: &mut Vec<StumphogAction>) -> StumphogAction {
    let Turn::Player(p) = s.turn() else {
        panic!("not a decision")
    };
    s.legal_actions(buf);
    let mut best = (f64::NEG_INFINITY, buf[0]);
    for &a in buf.iter() {
        let mut t = *s;
        t.apply(a);
        let v = t.heuristic(p);
        if v > best.0 {
            best = (v, a);
        }
    }
    best.1
}

#[test]
fn heuristic_signs() {
    let mut b = set_up_board();
    let even = acting(b, 0, [2, 1]);
    assert_eq!(even.heuristic(0), -even.heuristic(1));
    b.ute = [20, 5];
    let s = acting(b, 0, [2, 1]);
    assert!(s.heuristic(0) > 0.3 && s.heuristic(1) < -0.3);
    assert!(s.heuristic(0) < 1.0);
    // Nearly dried out is bad.
    b.ute = [0, 0];
    b.hog = [1, 27];
    assert!(acting(b, 0, [2, 1]).heuristic(0) < -0.5);
    // At the end it agrees with the returns.
    b.hog = [0, 0];
    b.ute = [5, 2];
    let mut s = acting(b, 0, [6, 2]);
    play(&mut s, "bat in 2");
    assert_eq!((s.heuristic(0), s.heuristic(1)), (1.0, -1.0));
}

#[test]
fn heuristic_greedy_beats_random() {
    let mut rng = seeded(3);
    let mut buf = Vec::new();
    let games = 200;
    let mut greedy_points = 0.0;
    for g in 0..games {
        let seat = g % 2;
        let mut s = StumphogState::new(Rules::default());
        while let Some(a) = match s.turn() {
            Turn::Over => None,
            Turn::Chance => Some(s.sample_chance(&mut rng)),
            Turn::Player(p) if p == seat => Some(greedy(&s, &mut buf)),
            Turn::Player(_) => {
                s.legal_actions(&mut buf);
                Some(buf[rng.random_range(0..buf.len())])
            }
        } {
            s.apply(a);
        }
        greedy_points += (s.returns().get(seat) + 1.0) / 2.0;
    }
    let share = greedy_points / games as f64;
    assert!(share > 0.75, "greedy scored {share}");
}
