//! High-O Gammon rules HG-2, HG-5..HG-16, HG-18 and the worked examples.
//! (HG-1, HG-3, HG-4: `geometry.rs`; HG-17: `cube.rs`.)
//!
//! Two players are Blue (player 0, seat 0) and Yellow (player 1, seat 2);
//! distances are along each player's own track, and Blue's distance d is
//! field d + 1. For four players Red is seat 1, Green seat 3.

use super::*;
use crate::game::{Heuristic, Player, Turn};

const BLUE: usize = 0;

#[test]
fn hg2_nine_stones_each_for_2_3_4_players() {
    for n in 2..=4u8 {
        let s = HgState::new(hg(n));
        assert_eq!(s.num_players(), n as usize);
        for p in 0..n as usize {
            assert_eq!(s.board().stones(p), 9);
            assert_eq!(s.board().on_ring(p), 9);
        }
        let v = s.observation(crate::game::Viewer::Spectator);
        let colours: Vec<&str> = v.players.iter().map(|p| p.colour).collect();
        let want: &[&str] = match n {
            2 => &["Blue", "Yellow"],
            3 => &["Blue", "Red", "Yellow"],
            _ => &["Blue", "Red", "Yellow", "Green"],
        };
        assert_eq!(colours, want);
    }
}

fn legal(s: &HgState) -> Vec<String> {
    let mut out = Vec::new();
    s.legal_actions(&mut out);
    out.iter().map(|&a| s.format_action(a)).collect()
}

fn act(s: &mut HgState, text: &str) {
    let a = s.parse_action(text).unwrap();
    s.try_apply(a).unwrap_or_else(|e| panic!("`{text}`: {e}"));
}

#[test]
fn hg5_highest_starts_ties_roll_again_then_counter_clockwise() {
    let mut s = HgState::new(hg(4));
    assert_eq!(s.turn(), Turn::Chance);
    let mut outcomes = Vec::new();
    s.chance_outcomes(&mut outcomes);
    assert_eq!(outcomes.len(), 6usize.pow(4));
    // Red and Yellow tie for the highest 5: only they roll again
    s.apply(s.parse_action("open B3 R5 Y5 G2").unwrap());
    assert_eq!(
        s.phase(),
        Phase::Opening {
            rolling: 0b0110,
            first: false
        }
    );
    s.chance_outcomes(&mut outcomes);
    assert_eq!(outcomes.len(), 36);
    assert!(s.parse_action("open B3 R5").is_ok());
    s.apply(s.parse_action("open R4 Y6").unwrap());
    // Yellow rolled highest: he chooses a colour (he keeps his own), then
    // rolls two dice; then Green, Blue, Red
    assert_eq!(s.phase(), Phase::ColourChoice);
    assert_eq!(s.turn(), Turn::Player(2));
    act(&mut s, "choose Yellow");
    assert_eq!(s.events(), vec!["Yellow keeps his colour and starts"]);
    assert_eq!(s.phase(), Phase::Rolling { again: false });
    let mut order = vec![s.mover()];
    for _ in 0..4 {
        s.apply(HgAction::Dice([1, 2]));
        let mut acts = Vec::new();
        s.legal_actions(&mut acts);
        s.apply(acts[0]);
        order.push(s.mover());
    }
    assert_eq!(order, vec![2, 3, 0, 1, 2]);
}

#[test]
fn hg5_two_players_tie_rolls_again() {
    let mut s = HgState::new(hg(2));
    s.apply(s.parse_action("open B4 Y4").unwrap());
    assert!(matches!(s.phase(), Phase::Opening { rolling: 0b11, .. }));
    s.apply(s.parse_action("open B2 Y1").unwrap());
    assert_eq!(s.mover(), 0);
    assert_eq!(s.turn(), Turn::Player(0));
    assert_eq!(legal(&s), vec!["choose Blue", "choose Yellow"]);
    // Blue takes Yellow's place: the other player becomes Blue
    act(&mut s, "choose Yellow");
    assert_eq!((s.seat(0), s.seat(1)), (2, 0));
    assert_eq!(s.mover(), 0);
    assert_eq!(s.turn(), Turn::Chance);
}

/// HG-5: with three players the opening winner picks any colour in play;
/// the others keep their turn order after him and take the next colours
/// counter-clockwise; the stones stand where the new colours start (HG-6).
#[test]
fn hg5_the_opening_winner_chooses_his_colour_the_others_keep_their_order() {
    let mut s = HgState::new(hg(3));
    act(&mut s, "open B2 R6 Y3");
    assert_eq!(s.phase(), Phase::ColourChoice);
    assert_eq!(s.turn(), Turn::Player(1));
    assert_eq!(
        legal(&s),
        vec!["choose Blue", "choose Red", "choose Yellow"]
    );
    // Green is not in play with three; a colour is a name or its letter
    assert!(s.parse_action("choose Green").is_err());
    assert_eq!(s.parse_action("choose b").unwrap(), HgAction::Colour(0));
    assert_eq!(s.parse_action("blue").unwrap(), HgAction::Colour(0));
    act(&mut s, "choose Blue");
    assert!(
        s.events()[0].contains("Red chooses to play Blue"),
        "{:?}",
        s.events()
    );
    // player 1 is Blue now, player 2 Red, player 0 Yellow
    assert_eq!([s.seat(0), s.seat(1), s.seat(2)], [2, 0, 1]);
    let v = s.observation(crate::game::Viewer::Spectator);
    let colours: Vec<&str> = v.players.iter().map(|p| p.colour).collect();
    assert_eq!(colours, ["Yellow", "Blue", "Red"]);
    // the stones: Blue's start 1, 7, 13 now belong to player 1
    let at = |field: usize, p: Player| s.board().cnt[field - 1][p];
    assert_eq!((at(1, 1), at(7, 1), at(13, 1)), (2, 3, 4));
    assert_eq!((at(8, 2), at(14, 2), at(20, 2)), (2, 3, 4));
    assert_eq!((at(15, 0), at(21, 0), at(27, 0)), (2, 3, 4));
    assert_eq!(at(1, 0), 0);
    // he moves first, then the others in their order: 2, 0
    assert_eq!(s.phase(), Phase::Rolling { again: false });
    let mut order = vec![s.mover()];
    for _ in 0..3 {
        act(&mut s, "1-2");
        let first = legal(&s)[0].clone();
        act(&mut s, &first);
        order.push(s.mover());
    }
    assert_eq!(order, vec![1, 2, 0, 1]);
    // Blue's first play is along Blue's track from field 1
    let mut t = HgState::new(hg(3));
    for a in ["open B1 R2 Y6", "choose Red", "2-1"] {
        act(&mut t, a);
    }
    assert_eq!(t.seat(2), 1);
    assert!(
        legal(&t).contains(&"8/9 9/11".to_string()),
        "{:?}",
        legal(&t)
    );
}

/// HG-5: the choice is an action of the opening winner alone, at that
/// moment only; anything else is refused and changes nothing.
#[test]
fn hg5_colour_choice_only_by_the_opening_winner_before_the_first_roll() {
    let mut s = HgState::new(hg(3));
    act(&mut s, "open B2 R6 Y3");
    let before = s;
    for bad in [HgAction::Dice([1, 2]), HgAction::Roll, HgAction::Colour(3)] {
        assert!(s.try_apply(bad).is_err(), "{bad:?}");
        assert_eq!(s, before);
    }
    assert!(s.parse_action("choose Purple").is_err());
    act(&mut s, "choose Yellow");
    act(&mut s, "1-2");
    let moving = s;
    let err = s.try_apply(HgAction::Colour(0)).unwrap_err().to_string();
    assert!(err.contains("only by the opening winner"), "{err}");
    assert_eq!(s, moving);
    // Tric-Trac: the same choice; every stone still waits off the board
    let mut t = HgState::new(tt(3));
    act(&mut t, "open B6 R2 Y3");
    act(&mut t, "choose Yellow");
    assert_eq!([t.seat(0), t.seat(1), t.seat(2)], [2, 0, 1]);
    assert_eq!(t.board().pool[..3], [9, 9, 9]);
}

/// HG-5: the heuristic tells the places apart: with three players Yellow's
/// goal points start free, Blue's and Red's last one under a band of four;
/// with two or four players every place is alike.
#[test]
fn hg5_the_heuristic_values_the_places_at_the_table() {
    let value_of = |n: u8, open: &str, colour: &str| {
        let mut s = HgState::new(hg(n));
        act(&mut s, open);
        act(&mut s, colour);
        s.heuristic(s.mover())
    };
    let three = |c| value_of(3, "open B6 R1 Y2", c);
    assert!(three("choose Yellow") > three("choose Red"));
    assert!(three("choose Yellow") > three("choose Blue"));
    let s = HgState::new(hg(3));
    assert_eq!(
        [0, 1, 2].map(|p| s.blocked_goal_points(p)),
        [1, 1, 0],
        "Blue's last goal point under Red's band, Red's under Yellow's"
    );
    let two = |c| value_of(2, "open B6 Y1", c);
    assert_eq!(two("choose Blue"), two("choose Yellow"));
    let four = |c| value_of(4, "open B6 R1 Y2 G3", c);
    assert_eq!(four("choose Blue"), four("choose Green"));
}

/// HG-5: games with the colour choice replay exactly from their notation.
#[test]
fn hg5_records_with_the_colour_choice_replay_exactly() {
    use crate::playout::Playout;
    use crate::rng::seeded;
    let mut rng = seeded(55);
    let mut playout = Playout::default();
    for r in [hg(2), hg(3), hg(4), tt(3)] {
        for _ in 0..5 {
            let mut live = HgState::new(r);
            let mut texts = Vec::new();
            playout
                .run(&mut live, &mut rng, |st, a| texts.push(st.format_action(a)))
                .expect("the game ends");
            assert!(texts.iter().any(|t| t.starts_with("choose ")), "{texts:?}");
            let mut replay = HgState::new(r);
            for t in &texts {
                act(&mut replay, t);
            }
            assert_eq!(replay, live);
        }
    }
}

/// HG-6: 2 on the start point, 3 on the rest field to the right, 4 on the
/// last goal point of the player to the left.
#[test]
fn hg6_starting_position() {
    let s = HgState::new(hg(4));
    let at = |field: usize, p: Player| s.board().cnt[field - 1][p];
    // Blue: 1, 7, 13 (Green's last goal point)
    assert_eq!((at(1, 0), at(7, 0), at(13, 0)), (2, 3, 4));
    // Red: 8, 14, 20 (Blue's last goal point)
    assert_eq!((at(8, 1), at(14, 1), at(20, 1)), (2, 3, 4));
    // Yellow: 15, 21, 27 (Red's last goal point)
    assert_eq!((at(15, 2), at(21, 2), at(27, 2)), (2, 3, 4));
    // Green: 22, 28, 6 (Yellow's last goal point)
    assert_eq!((at(22, 3), at(28, 3), at(6, 3)), (2, 3, 4));
    // with two players Blue and Yellow sit opposite, same placement
    let s2 = HgState::new(hg(2));
    assert_eq!(s2.board().cnt[0][0], 2);
    assert_eq!(s2.board().cnt[14][1], 2);
    assert_eq!(s2.board().cnt[26][1], 4);
}

#[test]
fn hg7_two_separate_moves_one_stone_may_take_both() {
    let r = hg(2);
    let b = board(r, &[&[(0, 1)], &[(10, 9)]]);
    assert_eq!(plays(r, b, BLUE, [5, 2]), set(&["1/3 3/8"]));
    // the same stone may be written in one go
    let s = HgState::with_position(r, b, BLUE, [2, 5]);
    assert!(s.is_legal(s.parse_action("1/8").unwrap()));
    // never one added jump: with field 3 closed the stone cannot reach 8
    let b2 = board(r, &[&[(0, 1)], &[(16, 2), (10, 7)]]);
    assert_eq!(plays(r, b2, BLUE, [2, 5]), set(&["pass"]));
}

/// Worked example: a 5-2 where the 2 cannot be played loses the whole roll,
/// even though a 5 could be played.
#[test]
fn hg8_five_two_where_the_two_cannot_be_played_loses_the_whole_roll() {
    let r = hg(2);
    // Yellow's band on Blue's field 3 (Yellow's distance 16); field 6 is open
    let b = board(r, &[&[(0, 1)], &[(16, 2), (10, 7)]]);
    assert_eq!(plays(r, b, BLUE, [5, 2]), set(&["pass"]));
    let mut s = HgState::with_position(r, b, BLUE, [5, 2]);
    s.apply(s.parse_action("pass").unwrap());
    assert_eq!(s.board().cnt[0][0], 1, "nothing moved");
    assert_eq!(s.mover(), 1);
}

/// Worked example: a 5-2 where only the 2 can be played loses the 5.
#[test]
fn hg8_five_two_where_only_the_two_can_be_played_loses_the_five() {
    let r = hg(4);
    // Blue's only stone on field 1; after the 2 it stands on 3 and the 5
    // would reach 8, Red's start point, closed by Red's band; a 5 from 1
    // would reach 6, closed by Yellow's band.
    let b = board(r, &[&[(0, 1)], &[(0, 2)], &[(19, 2)], &[]]);
    assert_eq!(plays(r, b, BLUE, [5, 2]), set(&["1/3"]));
    assert_eq!(dice_used(r, b, BLUE, [5, 2]), BTreeSet::from([vec![2]]));
}

/// HG-8: the player may play the smaller number in a way that leaves the
/// larger unplayable; every play starts with the smaller number.
#[test]
fn hg8_smaller_first_and_free_choice_of_the_smaller() {
    let r = hg(4);
    // Blue on 1 and 10. Red's bands on 8 (its start) and 17; Yellow's on 6.
    let b = board(r, &[&[(0, 1), (9, 1)], &[(0, 2), (9, 2)], &[(19, 2)], &[]]);
    // 1/3 lets the 5 play 10/15; 10/12 leaves no 5 (12→17 and 1→6 closed)
    assert_eq!(plays(r, b, BLUE, [2, 5]), set(&["1/3 10/15", "10/12"]));
    assert!(dice_used(r, b, BLUE, [5, 2]).iter().all(|d| d[0] == 2));
    // from the start: every play of every roll begins with the smaller die
    let s = HgState::new(hg(4));
    for (roll, _) in crate::tables::ROLLS {
        let used = dice_used(hg(4), *s.board(), BLUE, roll);
        assert!(
            used.iter()
                .all(|d| d.is_empty() || d[0] == roll[0].min(roll[1]))
        );
    }
}

#[test]
fn hg9_a_blot_is_hit_and_goes_to_the_bar() {
    let r = hg(2);
    // Yellow's lone stone on Blue's field 3 (Yellow's distance 16)
    let b = board(r, &[&[(0, 1)], &[(16, 1), (10, 8)]]);
    assert!(plays(r, b, BLUE, [2, 5]).contains("1/3* 3/8"));
    let s = after(r, b, BLUE, [2, 5], "1/3* 3/8");
    assert_eq!(s.board().bar[1], 1);
    assert_eq!(s.board().cnt[2][1], 0);
    assert_eq!(s.board().cnt[7][0], 1);
}

#[test]
fn hg10_a_band_cannot_be_landed_on_but_can_be_jumped() {
    let r = hg(2);
    // Yellow's band on Blue's field 4 (distance 3)
    let b = board(r, &[&[(0, 1)], &[(17, 2), (10, 7)]]);
    // 1-5: 1/2 then 2/7 jumps over the band
    assert_eq!(plays(r, b, BLUE, [1, 5]), set(&["1/2 2/7"]));
    // 3-4: the 3 would land on the band: the whole roll is lost
    assert_eq!(plays(r, b, BLUE, [3, 4]), set(&["pass"]));
    // any number of own stones on one point
    let b2 = board(r, &[&[(0, 1), (1, 8)], &[(10, 9)]]);
    let s = after(r, b2, BLUE, [1, 6], "1/2 2/8");
    assert_eq!(s.board().cnt[1][0], 8);
    let b3 = board(r, &[&[(0, 2), (2, 7)], &[(10, 9)]]);
    let s = after(r, b3, BLUE, [2, 2], "1/3(2)");
    assert_eq!(s.board().cnt[2][0], 9);
}

#[test]
fn hg11_rest_fields_are_shared_and_safe() {
    let r = hg(4);
    // Green's three stones on rest field 7 (Green's distance 13)
    let b = board(r, &[&[(4, 1)], &[], &[], &[(13, 3)]]);
    // 2-3: 5/7 lands among Green's three, then 7/10
    assert_eq!(plays(r, b, BLUE, [2, 3]), set(&["5/7 7/10"]));
    let s = after(r, b, BLUE, [2, 3], "5/7 7/10");
    assert_eq!(s.board().cnt[6][3], 3);
    // a lone stone on a rest field is not hit: Red's single stone on rest
    // field 14 (Red's distance 6); Blue lands there from 9 and stays
    let b2 = board(r, &[&[(8, 1), (0, 1)], &[(6, 1)], &[], &[]]);
    let s = after(r, b2, BLUE, [5, 6], "9/14 1/7");
    assert_eq!(s.board().bar[1], 0);
    assert_eq!(s.board().cnt[13][1], 1);
    assert_eq!(s.board().cnt[13][0], 1);
    assert!(plays(r, b2, BLUE, [5, 6]).contains("9/14 14/20"));
}

#[test]
fn hg12_the_bar_enters_first_on_field_n() {
    let r = hg(2);
    let mut b = board(r, &[&[(10, 1)], &[(10, 9)]]);
    b.bar[0] = 1;
    b.off[0] -= 1;
    // 2-5: the 2 enters on field 2, then the 5 is free
    let ps = plays(r, b, BLUE, [2, 5]);
    assert!(ps.iter().all(|p| p.starts_with("bar/2 ")), "{ps:?}");
    assert!(ps.contains("bar/2 11/16") && ps.contains("bar/2 2/7"));
    // a 1 enters on the start point
    assert!(
        plays(r, b, BLUE, [1, 3])
            .iter()
            .all(|p| p.starts_with("bar/1 "))
    );
    // field 2 closed (Yellow's distance 15): the whole roll is lost although
    // the 5 could enter
    let mut b2 = b;
    put(&mut b2, r, 1, 15, 2);
    b2.cnt[field(2, 10)][1] = 7;
    assert_eq!(plays(r, b2, BLUE, [2, 5]), set(&["pass"]));
    // two on the bar: both numbers enter; only one enters: the other is lost
    let mut b3 = b;
    b3.bar[0] = 2;
    b3.cnt[10][0] = 0;
    assert_eq!(plays(r, b3, BLUE, [2, 5]), set(&["bar/2 bar/5"]));
    let mut b4 = b3;
    put(&mut b4, r, 1, 18, 2); // Blue's field 5 closed
    b4.cnt[field(2, 10)][1] = 7;
    assert_eq!(plays(r, b4, BLUE, [2, 5]), set(&["bar/2"]));
}

fn spread(r: HgRules) -> Board {
    board(r, &[&[(0, 2), (3, 2), (7, 2), (9, 3)], &[(10, 9)]])
}

#[test]
fn hg13_reroll_plays_twice_then_rolls_again() {
    let r = rules(2, false, Doubles::Reroll, Scoring::Points);
    let used = dice_used(r, spread(r), BLUE, [3, 3]);
    assert!(used.iter().all(|d| d == &vec![3, 3]));
    let mut s = HgState::with_position(r, spread(r), BLUE, [3, 3]);
    let mut acts = Vec::new();
    s.legal_actions(&mut acts);
    s.apply(acts[0]);
    assert_eq!(s.phase(), Phase::Rolling { again: true });
    assert_eq!(s.mover(), BLUE);
    s.apply(HgAction::Dice([1, 2]));
    s.legal_actions(&mut acts);
    s.apply(acts[0]);
    assert_eq!(s.mover(), 1, "no third roll after a non-double");
}

#[test]
fn hg13_repeat_plays_four_times() {
    let r = rules(2, false, Doubles::Repeat, Scoring::Points);
    let used = dice_used(r, spread(r), BLUE, [3, 3]);
    assert_eq!(used, BTreeSet::from([vec![3, 3, 3, 3]]));
    let mut s = HgState::with_position(r, spread(r), BLUE, [3, 3]);
    let mut acts = Vec::new();
    s.legal_actions(&mut acts);
    s.apply(acts[0]);
    assert_eq!(s.mover(), 1);
}

/// Worked example: 3-3 under `underside` moves 3, 3, 4, 4.
#[test]
fn hg13_underside_three_three_moves_3_3_4_4() {
    let r = rules(2, false, Doubles::Underside, Scoring::Points);
    let used = dice_used(r, spread(r), BLUE, [3, 3]);
    assert_eq!(used, BTreeSet::from([vec![3, 3, 4, 4]]));
    assert!(plays(r, spread(r), BLUE, [3, 3]).contains("1/4 1/4 4/8 4/8"));
    // 14 fields in all: one stone alone goes 1 → 15
    let single = board(r, &[&[(0, 1)], &[(10, 9)]]);
    assert_eq!(plays(r, single, BLUE, [3, 3]), set(&["1/4 4/7 7/11 11/15"]));
    // the first number that cannot be played ends the turn: field 15
    // (Yellow's start) closed for the last 4
    let blocked = board(r, &[&[(0, 1)], &[(0, 2), (10, 7)]]);
    assert_eq!(plays(r, blocked, BLUE, [3, 3]), set(&["1/4 4/7 7/11"]));
}

#[test]
fn hg14_bearing_off_third_last_point_first() {
    let r = hg(2);
    let y = &[(10u8 as usize, 9u8)][..];
    // one each on the third-last (18) and last (20) goal point
    let b = board(r, &[&[(17, 1), (19, 1)], y]);
    // 5-6: the 5 takes the third-last off; only then may the last bear off
    assert_eq!(plays(r, b, BLUE, [5, 6]), set(&["18/off 20/off"]));
    // 1-2: no bearing off from the third-last with 1 or 2, moves inside stay
    let b2 = board(r, &[&[(17, 2)], y]);
    assert_eq!(plays(r, b2, BLUE, [1, 2]), set(&["18/19 18/20"]));
    // the second-last bears off with a 2 only once the third-last is empty
    let b3 = board(r, &[&[(18, 2)], y]);
    assert_eq!(plays(r, b3, BLUE, [2, 3]), set(&["19/off 19/off"]));
    let b4 = board(r, &[&[(17, 1), (18, 1)], y]);
    assert!(!plays(r, b4, BLUE, [2, 4]).contains("19/off 18/off"));
    assert_eq!(plays(r, b4, BLUE, [2, 4]), set(&["18/20 19/off"]));
    // not all on the goal points: no bearing off until the last one arrives
    let b5 = board(r, &[&[(16, 1), (17, 1)], y]);
    assert_eq!(plays(r, b5, BLUE, [3, 4]), set(&["17/20 18/off"]));
    // a stone on the bar also prevents it
    let mut b6 = board(r, &[&[(17, 1)], y]);
    b6.bar[0] = 1;
    b6.off[0] -= 1;
    assert!(
        plays(r, b6, BLUE, [3, 4])
            .iter()
            .all(|p| !p.contains("off"))
    );
}

#[test]
fn hg15_first_to_bear_off_all_nine_wins() {
    let r = hg(2);
    let b = board(r, &[&[(19, 1)], &[(10, 9)]]);
    let s = after(r, b, BLUE, [1, 2], "20/off");
    assert_eq!(s.turn(), Turn::Over);
    assert_eq!(s.winner(), Some(BLUE));
    assert_eq!(s.board().off[0], 9);
}

#[test]
fn hg15_a_win_paying_zero_points_is_still_a_win() {
    // Red's stones are all on his goal points: Blue's win pays nothing.
    let r = hg(2);
    let b = board(r, &[&[(19, 1)], &[(17, 3), (18, 3), (19, 3)]]);
    let s = after(r, b, BLUE, [1, 2], "20/off");
    assert_eq!(s.turn(), Turn::Over);
    assert_eq!(s.returns().as_slice(), &[0.0, 0.0]);
    assert!(s.returns().as_slice().iter().all(|v| v.is_sign_positive()));
    let outcome = s.outcome().unwrap();
    assert_eq!(outcome.sole_winner(), Some(BLUE));
    assert!(!outcome.is_draw());
    assert_eq!(outcome.ending(), crate::outcome::Ending::BorneOff);
    assert_eq!(s.heuristic(BLUE), 1.0);
    let text = crate::high_gammon::render::plain(&s);
    assert!(text.contains("wins, 0 points ("), "{text}");
    assert!(text.contains(" pays 0)"), "{text}");
    assert!(!text.contains("-0"));
}

/// HG-16: 4 per stone short of its goal points, 8 per stone on the bar;
/// stones on the goal points or off count nothing.
#[test]
fn hg16_points_scoring() {
    let r = hg(3);
    let mut b = Board::EMPTY;
    put(&mut b, r, 0, 19, 1);
    b.off[0] = 8;
    // Red: five short of the goal, two on the bar, two off
    put(&mut b, r, 1, 3, 3);
    put(&mut b, r, 1, 11, 2);
    b.bar[1] = 2;
    b.off[1] = 2;
    // Yellow: two on its goal points, three short, one on the bar, three off
    put(&mut b, r, 2, 17, 1);
    put(&mut b, r, 2, 19, 1);
    put(&mut b, r, 2, 15, 3);
    b.bar[2] = 1;
    b.off[2] = 3;
    let s = after(r, b, BLUE, [1, 2], "20/off");
    assert_eq!(s.turn(), Turn::Over);
    assert_eq!(s.returns().as_slice(), &[56.0, -36.0, -20.0]);
    // The view gives each loser's count and payment, for the result's breakdown.
    let v = s.observation(crate::game::Viewer::Spectator);
    let shown: Vec<(u32, u8, Option<u32>)> = v
        .players
        .iter()
        .map(|p| (p.short_of_goal, p.bar, p.pays))
        .collect();
    assert_eq!(shown, [(0, 0, Some(0)), (5, 2, Some(36)), (3, 1, Some(20))]);
}

/// HG-18: single (some stone off), double (none off), triple (none off and
/// a stone on the bar or short of the home stretch, distance 14..19).
#[test]
fn hg18_traditional_single_double_triple() {
    let r = rules(4, false, Doubles::Reroll, Scoring::Traditional);
    let mut b = Board::EMPTY;
    put(&mut b, r, 0, 19, 1);
    b.off[0] = 8;
    // Red: one borne off → single, even with a stone far back
    put(&mut b, r, 1, 3, 8);
    b.off[1] = 1;
    // Yellow: none off, all on the home stretch (14..19) → double
    put(&mut b, r, 2, 14, 4);
    put(&mut b, r, 2, 18, 5);
    // Green: none off, one stone at distance 13 → triple
    put(&mut b, r, 3, 13, 1);
    put(&mut b, r, 3, 16, 8);
    let s = after(r, b, BLUE, [1, 2], "20/off");
    assert_eq!(s.returns().as_slice(), &[6.0, -1.0, -2.0, -3.0]);
    // a stone on the bar also makes it triple
    let mut b2 = b;
    b2.cnt[field(3, 13)][3] = 0;
    b2.bar[3] = 1;
    let s = after(r, b2, BLUE, [1, 2], "20/off");
    assert_eq!(s.returns().get(3), -3.0);
}

#[test]
fn returns_add_up_to_zero_and_are_zero_before_the_end() {
    // Random games of every size, track and scoring: the returns are zero
    // until the end, then add up to zero with somebody paid.
    let mut rng = crate::rng::seeded(5);
    let mut playout = crate::playout::Playout::default();
    let mut paid = 0;
    for n in 2..=4u8 {
        for tric in [false, true] {
            for scoring in [Scoring::Points, Scoring::Cube, Scoring::Traditional] {
                let mut s = HgState::new(rules(n, tric, Doubles::Reroll, scoring));
                playout
                    .run(&mut s, &mut rng, |st, _| {
                        assert_eq!(st.returns().as_slice(), &[0.0; 4][..n as usize]);
                    })
                    .expect("the game ends");
                let r = s.returns();
                let sum: f64 = r.as_slice().iter().sum();
                assert_eq!(sum, 0.0, "{n} players, {scoring:?}: {r:?}");
                paid += r.as_slice().iter().any(|&x| x != 0.0) as usize;
            }
        }
    }
    assert!(paid >= 12, "only {paid} of 18 games paid anything");
}
