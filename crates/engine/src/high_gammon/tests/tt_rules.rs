//! Tric-Trac rules TT-1..TT-4 (with HG-7..HG-13 holding as in High-O Gammon).

use super::*;
use crate::game::Turn;

const BLUE: usize = 0;

#[test]
fn tt1_all_stones_start_off_the_board_and_enter_on_field_n() {
    for n in 2..=4u8 {
        let s = HgState::new(tt(n));
        for p in 0..n as usize {
            assert_eq!(s.board().pool[p], 9);
            assert_eq!(s.board().on_ring(p), 0);
        }
    }
    let r = tt(2);
    let start = *HgState::new(r).board();
    // enter with the 2, then enter another with the 5 or move the new one on
    assert_eq!(
        plays(r, start, BLUE, [5, 2]),
        set(&["in/2 in/5", "in/2 2/7"])
    );
    // a 1 enters on the start point
    assert!(plays(r, start, BLUE, [1, 1]).contains("in/1 in/1"));
}

#[test]
fn tt1_enter_and_move_in_either_order() {
    let r = tt(2);
    let b = board(r, &[&[(3, 1)], &[]]);
    let ps = plays(r, b, BLUE, [2, 5]);
    // move with the smaller number and enter with the larger
    assert!(ps.contains("4/6 in/5"), "{ps:?}");
    // enter with the smaller, then move it or another
    assert!(ps.contains("in/2 2/7") && ps.contains("in/2 4/9"), "{ps:?}");
}

#[test]
fn tt1_a_hit_stone_must_re_enter_before_anything_else() {
    let r = tt(2);
    let mut b = board(r, &[&[(3, 1)], &[]]);
    b.bar[0] = 1;
    b.pool[0] -= 1;
    let ps = plays(r, b, BLUE, [2, 5]);
    assert!(ps.iter().all(|p| p.starts_with("bar/2")), "{ps:?}");
    assert!(ps.contains("bar/2 in/5") && ps.contains("bar/2 2/7"));
}

/// TT-2: an opposing band blocks entering; entering onto a lone opposing stone hits it.
#[test]
fn tt2_entering_is_blocked_by_a_band_and_hits_a_blot() {
    let r = tt(2);
    // Yellow's band on Blue's field 2 (Yellow's distance 15)
    let b = board(r, &[&[], &[(15, 2)]]);
    assert_eq!(plays(r, b, BLUE, [2, 5]), set(&["pass"]));
    // a lone Yellow stone there is hit by entering
    let b2 = board(r, &[&[], &[(15, 1)]]);
    assert!(plays(r, b2, BLUE, [2, 5]).contains("in/2* in/5"));
    let s = after(r, b2, BLUE, [2, 5], "in/2* in/5");
    assert_eq!(s.board().bar[1], 1);
}

#[test]
fn tt3_at_most_three_stones_on_a_point_rest_fields_unlimited() {
    let r = tt(2);
    let b = board(r, &[&[(0, 1), (2, 3)], &[]]);
    let ps = plays(r, b, BLUE, [2, 3]);
    // neither 1/3 with the 2 nor entering on 3 with the 3 while 3 are there
    assert!(!ps.iter().any(|p| p.contains("1/3")), "{ps:?}");
    assert!(!ps.contains("in/2 in/3"), "{ps:?}");
    // once one has left, there is room again (entering on 3 after 3/5 is
    // the same position as in/2 2/5, and may be typed either way)
    assert!(ps.contains("3/5 1/4") && ps.contains("in/2 2/5"), "{ps:?}");
    let s = HgState::with_position(r, b, BLUE, [2, 3]);
    let typed = s.parse_action("3/5 in/3").unwrap();
    assert!(s.is_legal(typed));
    assert_eq!(s.format_action(typed), "in/2 2/5");
    // a rest field takes a fifth stone
    let b2 = board(r, &[&[(6, 4), (4, 1)], &[]]);
    let s = after(r, b2, BLUE, [2, 4], "5/7 7/11");
    assert_eq!(s.board().cnt[6][0], 4);
    let s = after(r, b2, BLUE, [2, 4], "5/7 in/4");
    assert_eq!(s.board().cnt[6][0], 5);
}

#[test]
fn tt4_no_bearing_off_first_with_three_on_each_goal_point_wins() {
    let r = tt(2);
    // stones cannot go beyond the last goal point
    let b = board(r, &[&[(19, 2), (18, 1)], &[]]);
    assert!(plays(r, b, BLUE, [5, 6]).iter().all(|p| !p.contains("off")));
    // 3, 3, 2 and one on 17: a 3 completes 3-3-3 and wins
    let b2 = board(r, &[&[(17, 3), (18, 3), (19, 2), (16, 1)], &[]]);
    let ps = plays(r, b2, BLUE, [3, 6]);
    assert_eq!(ps, set(&["17/20"]));
    let s = after(r, b2, BLUE, [3, 6], "17/20");
    assert_eq!(s.turn(), Turn::Over);
    assert_eq!(s.winner(), Some(BLUE));
    assert_eq!(s.returns().as_slice(), &[1.0, -1.0]);
    // nine on the goal points but not 3-3-3 is impossible (TT-3); eight
    // there is not a win
    let b3 = board(r, &[&[(17, 3), (18, 3), (19, 2), (10, 1)], &[]]);
    let s = after(r, b3, BLUE, [1, 2], "11/12 12/14");
    assert_eq!(s.turn(), Turn::Chance);
}

#[test]
fn tt_rules_hg8_smaller_first_holds() {
    let r = tt(3);
    let start = *HgState::new(r).board();
    for (roll, _) in crate::tables::ROLLS {
        let used = dice_used(r, start, BLUE, roll);
        assert!(
            used.iter()
                .all(|d| d.is_empty() || d[0] == roll[0].min(roll[1]))
        );
    }
}

#[test]
fn tt_four_players_returns() {
    let r = tt(4);
    let b = board(
        r,
        &[&[(17, 3), (18, 3), (19, 2), (16, 1)], &[(0, 1)], &[], &[]],
    );
    let s = after(r, b, BLUE, [3, 6], "17/20");
    assert_eq!(s.returns().as_slice(), &[3.0, -1.0, -1.0, -1.0]);
}
