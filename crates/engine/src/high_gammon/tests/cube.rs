//! HG-17: stakes with the doubling cube; players may drop out.

use super::*;
use crate::game::{Turn, Viewer};

fn cube(players: u8) -> HgRules {
    rules(players, false, Doubles::Reroll, Scoring::Cube)
}

fn act(s: &mut HgState, text: &str) {
    let a = s.parse_action(text).unwrap();
    s.try_apply(a).unwrap_or_else(|e| panic!("`{text}`: {e}"));
}

fn legal(s: &HgState) -> Vec<String> {
    let mut out = Vec::new();
    s.legal_actions(&mut out);
    out.iter().map(|&a| s.format_action(a)).collect()
}

#[test]
fn hg17_equal_numbers_in_the_opening_double_the_stake_once() {
    let mut s = HgState::new(cube(4));
    act(&mut s, "open B2 R5 Y2 G6");
    assert_eq!(s.cube_value(), 2);
    assert!(s.opening_doubled());
    assert_eq!(s.mover(), 3);
    // a tie for the highest: the re-roll does not double again
    let mut t = HgState::new(cube(4));
    act(&mut t, "open B6 R6 Y1 G2");
    assert_eq!(t.cube_value(), 2);
    act(&mut t, "open B3 R3");
    assert_eq!(t.cube_value(), 2);
    act(&mut t, "open B1 R4");
    assert_eq!(t.mover(), 1);
    // all different: no doubling; and never without cube scoring
    let mut u = HgState::new(cube(3));
    act(&mut u, "open B1 R2 Y3");
    assert_eq!(u.cube_value(), 1);
    let mut v = HgState::new(hg(4));
    act(&mut v, "open B2 R5 Y2 G6");
    assert!(!v.opening_doubled());
}

#[test]
fn hg17_double_before_rolling_others_answer_in_turn_order() {
    let mut s = HgState::new(cube(4));
    act(&mut s, "open B1 R6 Y2 G3");
    act(&mut s, "choose Red");
    // Red may double before rolling
    assert_eq!(s.phase(), Phase::CubeDecision);
    assert_eq!(s.turn(), Turn::Player(1));
    assert_eq!(legal(&s), vec!["roll", "double"]);
    act(&mut s, "double");
    // Yellow, Green, Blue answer in turn order
    assert_eq!(s.turn(), Turn::Player(2));
    act(&mut s, "take");
    assert_eq!(s.turn(), Turn::Player(3));
    act(&mut s, "drop");
    // Green dropped at the stake before the double and left the board
    assert_eq!(s.dropped_at(3), Some(1));
    assert!(!s.is_active(3));
    assert_eq!(s.board().stones(3), 0);
    assert_eq!(s.turn(), Turn::Player(0));
    act(&mut s, "take");
    assert_eq!(s.cube_value(), 2);
    // the doubler now rolls
    assert_eq!(s.phase(), Phase::Rolling { again: false });
    assert_eq!(s.mover(), 1);
    // Green is skipped in the turn order from now on
    act(&mut s, "1-2");
    let first = legal(&s)[0].clone();
    act(&mut s, &first);
    assert_eq!(s.mover(), 2);
    act(&mut s, "roll");
    act(&mut s, "1-2");
    let first = legal(&s)[0].clone();
    act(&mut s, &first);
    assert_eq!(s.mover(), 0, "Green is out");
    let v = s.observation(Viewer::Spectator);
    assert_eq!(v.players[3].dropped_at, Some(1));
    assert_eq!(v.cube, Some(2));
}

#[test]
fn hg17_if_all_others_drop_the_doubler_wins_at_once() {
    let mut s = HgState::new(cube(3));
    act(&mut s, "open B5 R5 Y6");
    act(&mut s, "choose Yellow");
    assert_eq!(s.cube_value(), 2);
    act(&mut s, "double");
    act(&mut s, "drop");
    act(&mut s, "drop");
    assert_eq!(s.turn(), Turn::Over);
    assert_eq!(s.winner(), Some(2));
    // each pays the stake before the double: 2
    assert_eq!(s.returns().as_slice(), &[-2.0, -2.0, 4.0]);
}

#[test]
fn hg17_losers_pay_the_cube_droppers_their_stake_to_the_final_winner() {
    let r = cube(4);
    let mut s = HgState::new(r);
    act(&mut s, "open B6 R1 Y2 G3");
    act(&mut s, "choose Blue");
    act(&mut s, "double");
    act(&mut s, "drop"); // Red at 1
    act(&mut s, "take");
    act(&mut s, "take");
    assert_eq!(s.cube_value(), 2);
    // put Yellow one roll from winning, then let it win at stake 4
    let mut b = *s.board();
    for f in b.cnt.iter_mut() {
        f[2] = 0;
    }
    b.cnt[field(2, 19)][2] = 1;
    b.off[2] = 8;
    s.board = b;
    s.mover = 2;
    s.phase = Phase::CubeDecision;
    act(&mut s, "double");
    act(&mut s, "take"); // Green
    act(&mut s, "take"); // Blue
    assert_eq!(s.cube_value(), 4);
    act(&mut s, "1-2");
    act(&mut s, "6/off");
    assert_eq!(s.turn(), Turn::Over);
    assert_eq!(s.returns().as_slice(), &[-4.0, -1.0, 9.0, -4.0]);
    assert_eq!(s.returns().as_slice().iter().sum::<f64>(), 0.0);
}

#[test]
fn hg17_doubling_stops_at_64() {
    let mut s = HgState::new(cube(2));
    act(&mut s, "open B6 Y1");
    act(&mut s, "choose Blue");
    for k in 1..=6u32 {
        assert_eq!(s.phase(), Phase::CubeDecision, "turn {k}");
        act(&mut s, "double");
        act(&mut s, "take");
        assert_eq!(s.cube_value(), 1 << k);
        act(&mut s, "1-2");
        let first = legal(&s)[0].clone();
        act(&mut s, &first);
    }
    assert_eq!(s.cube_value(), 64);
    // no more doubling: straight to the roll
    assert_eq!(s.phase(), Phase::Rolling { again: false });
    assert!(s.parse_action("double").is_ok_and(|a| !s.is_legal(a)));
}

#[test]
fn hg17_no_double_before_a_roll_again() {
    let mut s = HgState::new(cube(2));
    act(&mut s, "open B6 Y1");
    act(&mut s, "choose Blue");
    act(&mut s, "roll");
    act(&mut s, "2-2");
    let first = legal(&s)[0].clone();
    act(&mut s, &first);
    assert_eq!(s.phase(), Phase::Rolling { again: true });
    assert_eq!(s.turn(), Turn::Chance);
}
