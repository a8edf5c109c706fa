//! Tawla tests, named by rule ID (see `shared/rules/tawla.md`).

use super::*;
use crate::conformance::{check_random_games, play_out};
use crate::game::{GameState, Notation, Turn};
use crate::rng::seeded;
use crate::tables::{Phase, Play, TablesAction};
use proptest::prelude::*;

/// A board in the mover's numbering: his checkers, the opponent's (points in
/// the mover's numbering), points with a pinned checker under the top, and
/// borne-off counts. Unlisted checkers are borne off so each side has 15.
fn board(mine: &[(u8, i8)], theirs: &[(u8, i8)], pinned: &[u8]) -> TawlaBoard {
    let mut pts = [0i8; 24];
    for &(p, n) in mine {
        pts[p as usize - 1] += n;
    }
    for &(p, n) in theirs {
        pts[p as usize - 1] -= n;
    }
    let on_board = |sign: i8| -> u8 {
        let top: i32 = pts.iter().map(|&c| (c * sign).max(0) as i32).sum();
        let under = pinned
            .iter()
            .filter(|&&p| pts[p as usize - 1] * sign < 0)
            .count() as i32;
        (top + under) as u8
    };
    let off = [CHECKERS - on_board(1), CHECKERS - on_board(-1)];
    TawlaBoard::from_parts(pts, pinned, off)
}

fn rules(mother: bool) -> TawlaRules {
    TawlaRules { mother }
}

fn state(b: TawlaBoard, dice: [u8; 2]) -> TawlaState {
    TawlaState::with_position(rules(true), TablesOptions::default(), b, 0).with_dice(dice)
}

fn plays(s: &TawlaState) -> Vec<String> {
    let mut out = Vec::new();
    s.legal_actions(&mut out);
    let mut v: Vec<String> = out.iter().map(|&a| s.format_action(a)).collect();
    v.sort();
    v
}

fn apply(s: &mut TawlaState, text: &str) {
    let a = s.parse_action(text).unwrap();
    s.try_apply(a).unwrap_or_else(|e| panic!("{text}: {e}"));
}

fn start_with_dice(dice: [u8; 2]) -> TawlaState {
    state(TawlaBoard::start(), dice)
}

#[test]
fn taw_1_two_players_fifteen_each_opposite_directions() {
    // TAW-1
    let mut s = TawlaState::new(rules(true), TablesOptions::default());
    assert_eq!(s.num_players(), 2);
    let abs = s.absolute();
    assert_eq!((abs.checkers(0), abs.checkers(1)), (15, 15));
    s.apply(TablesAction::Opening([2, 5])); // Black starts
    s.apply(TablesAction::Dice([6, 5]));
    apply(&mut s, "24/18 24/19");
    // Black's 18 and 19 are White's 7 and 6: Black moves the other way round.
    let abs = s.absolute();
    assert_eq!(abs.top[6], -1);
    assert_eq!(abs.top[5], -1);
    assert_eq!(abs.top[0], -13);
}

#[test]
fn taw_2_start_position() {
    // TAW-2: all 15 on each player's own point 24; White's 24 is Black's 1.
    let s = TawlaState::new(rules(true), TablesOptions::default());
    let abs = s.absolute();
    assert_eq!(abs.top[23], 15);
    assert_eq!(abs.top[0], -15);
    assert_eq!(abs.top.iter().filter(|&&c| c != 0).count(), 2);
    assert_eq!(abs.off, [0, 0]);
}

#[test]
fn taw_3_opening_roll_decides_and_is_not_played() {
    // TAW-3
    let s = TawlaState::new(rules(true), TablesOptions::default());
    assert_eq!(s.turn(), Turn::Chance);
    let mut outcomes = Vec::new();
    s.chance_outcomes(&mut outcomes);
    assert_eq!(outcomes.len(), 30, "ties are re-rolled");
    assert!(
        outcomes
            .iter()
            .all(|&(_, p)| (p - 1.0 / 30.0).abs() < 1e-12)
    );
    let mut white = s;
    white.apply(TablesAction::Opening([5, 3]));
    assert_eq!(white.mover(), 0);
    assert_eq!(
        white.phase(),
        Phase::Rolling,
        "the starter rolls both dice anew"
    );
    let mut black = s;
    black.apply(TablesAction::Opening([1, 6]));
    assert_eq!(black.mover(), 1);
    assert_eq!(black.turn(), Turn::Chance);
    assert!(black.try_apply(TablesAction::Opening([3, 3])).is_err());
}

#[test]
fn taw_4_one_checker_takes_both_dice_through_an_open_point() {
    // TAW-4: 13 with 6-5: via 8 (open) to 2; via 7 (blocked) impossible.
    let b = board(&[(13, 1), (24, 14)], &[(7, 2), (3, 13)], &[]);
    let s = state(b, [6, 5]);
    let p = plays(&s);
    assert!(p.contains(&"13/8 8/2".to_string()), "{p:?}");
    assert!(!p.iter().any(|t| t.starts_with("13/7")), "{p:?}");
    // both intermediate points closed: the checker cannot make 11 pips
    let b = board(&[(13, 1), (24, 14)], &[(7, 2), (8, 2), (3, 11)], &[]);
    let p = plays(&state(b, [6, 5]));
    assert!(!p.iter().any(|t| t.contains("/2")), "{p:?}");
}

#[test]
fn taw_4_doubles_are_played_four_times() {
    // TAW-4
    let s = start_with_dice([2, 2]);
    let p = plays(&s);
    assert!(p.iter().all(|t| t.split(' ').count() == 4), "{p:?}");
    assert!(p.contains(&"24/22 22/20 20/18 18/16".to_string()));
}

#[test]
fn taw_5_bands_block_blots_and_own_points_do_not() {
    // TAW-5: 20 has two opposing (closed), 19 one (open), 18 own (open), 17 empty.
    let b = board(&[(24, 13), (18, 2)], &[(20, 2), (19, 1), (1, 12)], &[]);
    let s = state(b, [4, 4]);
    let p = plays(&s);
    assert!(p.iter().all(|t| !t.contains("24/20")), "{p:?}");
    for (dice, step) in [([5, 1], "24/19"), ([6, 1], "24/18"), ([1, 1], "18/17")] {
        let p = plays(&state(b, dice));
        assert!(p.iter().any(|t| t.contains(step)), "{dice:?}: {p:?}");
    }
}

/// The (from, to) points of every step of a play written in notation.
fn moves(play: &str) -> Vec<(String, String)> {
    play.split(' ')
        .filter_map(|m| m.split_once('/'))
        .map(|(a, b)| (a.to_string(), b.trim_end_matches('*').to_string()))
        .collect()
}

#[test]
fn taw_6_landing_on_a_blot_pins_it() {
    // TAW-6
    let b = board(&[(24, 15)], &[(19, 1), (17, 1), (1, 13)], &[]);
    let mut s = state(b, [5, 1]);
    // A pin is marked with `*` like a hit, in the list and when typed.
    assert!(plays(&s).contains(&"24/19* 24/23".to_string()));
    let e = s.parse_action("24/19 24/23").unwrap_err().to_string();
    assert!(e.contains("`24/19* 24/23`"), "{e}");
    apply(&mut s, "24/19* 24/23");
    // now Black (the opponent) is to move and his checker on White's 19
    // (Black's 6) is pinned: it cannot move, and the point is closed to him.
    assert_eq!(s.mover(), 1);
    let abs = s.absolute();
    assert_eq!((abs.top[18], abs.under[18]), (1, -1));
    assert_eq!(abs.checkers(1), 15, "a pinned checker is still in play");
    // With 3-2 a free checker on Black's 6 could play 6/3 or 6/4 (White's 22
    // and 21 are empty), and his checker on 8 could land on 6 with the 2.
    let mut blacks = s;
    blacks.apply(TablesAction::Dice([3, 2]));
    let p = plays(&blacks);
    assert!(
        p.iter().any(|t| moves(t).iter().any(|(f, _)| f == "8")),
        "the checker on 8 moves: {p:?}"
    );
    assert!(
        p.iter().all(|t| moves(t).iter().all(|(f, _)| f != "6")),
        "pinned checker moved: {p:?}"
    );
    // Black's point 6 (White's 19) is closed to Black: 8/6 is not a move
    assert!(
        p.iter().all(|t| moves(t).iter().all(|(_, to)| to != "6")),
        "{p:?}"
    );
}

#[test]
fn taw_6_pinner_may_add_and_leaving_frees_the_pinned() {
    // TAW-6: point 19 holds my checker over a pinned opponent.
    let b = board(&[(24, 13), (19, 1)], &[(1, 13)], &[19]);
    let p = plays(&state(b, [5, 3]));
    assert!(
        p.iter().any(|t| t.contains("24/19")),
        "the pinner's side may add: {p:?}"
    );
    let mut s = state(b, [6, 5]);
    // Typed in the other order nothing is pinned on the way, so no `*`.
    assert_eq!(
        s.parse_action("24/19 19/13").unwrap(),
        s.parse_action("19/13 24/19*").unwrap()
    );
    assert!(s.parse_action("19/13 24/19").is_err());
    apply(&mut s, "19/13 24/19*");
    let abs = s.absolute();
    assert_eq!(
        (abs.top[18], abs.under[18]),
        (1, -1),
        "re-pinned by the second checker"
    );
    let mut s = state(b, [6, 4]);
    apply(&mut s, "19/13 13/9");
    let abs = s.absolute();
    assert_eq!(
        (abs.top[18], abs.under[18]),
        (-1, 0),
        "freed when the pinner left"
    );
}

#[test]
fn taw_6_a_point_holding_a_pin_cannot_be_pinned_by_the_other_side() {
    // TAW-6: the opponent's lone checker on 19 sits on my pinned checker.
    let b = board(&[(24, 14)], &[(19, 1), (1, 14)], &[19]);
    let p = plays(&state(b, [5, 2]));
    assert!(p.iter().all(|t| !t.contains("/19")), "{p:?}");
}

#[test]
fn taw_7_both_dice_must_be_used_when_possible() {
    // TAW-7: 6-1 with a checker on 8 and 24. 24/18 blocked, 24/23 open;
    // playing 8/2 then 24/23 uses both; 8/7 alone would waste the 6.
    let b = board(&[(24, 14), (8, 1)], &[(18, 2), (1, 13)], &[]);
    let p = plays(&state(b, [6, 1]));
    assert!(p.iter().all(|t| t.split(' ').count() == 2), "{p:?}");
}

#[test]
fn taw_7_the_higher_die_when_only_one_can_be_played() {
    // TAW-7: one checker on 10, everything else locked; 6-2: 10/4 or 10/8,
    // but not both (4/2 and 8/2 closed). The 6 must be played.
    let b = board(
        &[(10, 1), (24, 14)],
        &[(2, 2), (22, 2), (18, 2), (16, 2), (1, 7)],
        &[],
    );
    let p = plays(&state(b, [6, 2]));
    assert_eq!(p, vec!["10/4".to_string()]);
}

#[test]
fn taw_7_the_lower_die_when_only_it_can_be_played() {
    // TAW-7: only the 2 can be played anywhere (10/8), and after it no 6.
    let b = board(
        &[(10, 1), (24, 14)],
        &[(18, 2), (22, 2), (4, 2), (2, 2), (1, 7)],
        &[],
    );
    let p = plays(&state(b, [6, 2]));
    assert_eq!(p, vec!["10/8".to_string()]);
}

#[test]
fn taw_7_as_many_doubles_as_can_be_played_and_pass() {
    // TAW-7: 5-5 with one checker that can make two steps only.
    let b = board(
        &[(11, 1), (24, 14)],
        &[(19, 2), (1, 2), (6, 2), (13, 9)],
        &[],
    );
    let p = plays(&state(b, [5, 5]));
    assert!(p.iter().all(|t| t.split(' ').count() == 1), "{p:?}");
    // nothing at all can be played: the one empty play
    let b = board(&[(24, 15)], &[(18, 2), (19, 2), (1, 11)], &[]);
    let mut s = state(b, [6, 5]);
    assert_eq!(plays(&s), vec!["pass".to_string()]);
    apply(&mut s, "pass");
    assert_eq!(s.mover(), 1);
}

#[test]
fn taw_8_bear_off_only_with_all_home_and_none_pinned() {
    // TAW-8: one checker still on 7, 3-1: it must come home before any
    // checker is borne off (7/6 then 3/off is legal; 3/off first is not).
    let b = board(&[(7, 1), (3, 14)], &[(24, 15)], &[]);
    let p = plays(&state(b, [3, 1]));
    assert!(p.contains(&"7/6 3/off".to_string()), "{p:?}");
    for t in &p {
        if let Some(off) = t.find("off") {
            assert!(
                t.find("7/").is_some_and(|home| home < off),
                "bore off too early: {t}"
            );
        }
    }
    // all home but one of mine pinned on 5: no bearing off
    let b = board(&[(3, 14)], &[(5, 1), (24, 14)], &[5]);
    let p = plays(&state(b, [3, 3]));
    assert!(p.iter().all(|t| !t.contains("off")), "{p:?}");
    // bearing off stops when a checker is pinned later, and resumes when freed
    let mut s = state(b, [3, 3]);
    assert!(plays(&s).iter().all(|t| !t.contains("off")));
    s = TawlaState::with_position(
        rules(true),
        TablesOptions::default(),
        board(&[(3, 14), (5, 1)], &[(24, 15)], &[]),
        0,
    )
    .with_dice([3, 3]);
    assert!(plays(&s).iter().any(|t| t.contains("off")));
}

#[test]
fn taw_9_higher_die_bears_off_from_the_highest_point_only() {
    // TAW-9: checkers on 4 and 2, roll 6-5: both come off from the highest.
    let b = board(&[(4, 1), (2, 1)], &[(24, 15)], &[]);
    let p = plays(&state(b, [6, 5]));
    assert_eq!(p, vec!["4/off 2/off".to_string()]);
    // checker on 6 and 3, roll 5-4: no 5-point checker and 6 stands higher,
    // so the 5 must move inside: 6/1; 4 from... 6/2 or 3/off? no (3 < 4 but 6 higher)
    let b = board(&[(6, 1), (3, 1)], &[(24, 15)], &[]);
    let p = plays(&state(b, [5, 4]));
    assert!(
        p.iter()
            .all(|t| !t.starts_with("3/off") || t.contains("6/")),
        "{p:?}"
    );
    assert!(
        p.contains(&"6/1 3/off".to_string()) || p.contains(&"6/2 3/off".to_string()),
        "{p:?}"
    );
}

#[test]
fn taw_10_single_and_double_wins() {
    // TAW-10: the last checker off; opponent has borne off some: 1 point.
    let b = board(&[(1, 1)], &[(24, 10)], &[]);
    let mut s = state(b, [2, 1]);
    apply(&mut s, "1/off");
    assert_eq!(s.turn(), Turn::Over);
    assert_eq!(s.returns().as_slice(), &[1.0, -1.0]);
    // opponent has borne off none: 2 points
    let mut pts = [0i8; 24];
    pts[0] = 1;
    pts[23] = -15;
    let b = TawlaBoard::from_parts(pts, &[], [14, 0]);
    let mut s = state(b, [2, 1]);
    apply(&mut s, "1/off");
    assert_eq!(s.returns().as_slice(), &[2.0, -2.0]);
}

#[test]
fn taw_11_pinning_the_mother_wins_two_when_own_start_is_empty() {
    // TAW-11: the opponent's mother on my point 1; I have nothing on my 24.
    let b = board(&[(3, 14)], &[(1, 1), (20, 14)], &[]);
    let mut s = state(b, [2, 1]);
    apply(&mut s, "3/1* 3/2");
    assert_eq!(s.turn(), Turn::Over);
    assert_eq!(s.returns().as_slice(), &[2.0, -2.0]);
    // The view names the ending, for the result screen.
    let view = s.observation(crate::game::Viewer::Spectator);
    assert_eq!(view.last_ending, Some(crate::outcome::Ending::Mother));
}

#[test]
fn taw_11_mother_pin_with_checkers_left_at_home_waits() {
    // TAW-11: I pin the mother but still have checkers on my 24: play goes
    // on; I win as soon as my 24 empties while the pin holds.
    let b = board(&[(3, 13), (24, 2)], &[(1, 1), (20, 14)], &[]);
    let mut s = state(b, [2, 1]);
    apply(&mut s, "3/1* 3/2");
    assert_ne!(s.turn(), Turn::Over);
    // Black passes (blocked), then White moves the two off his 24
    let mut s = TawlaState::with_position(rules(true), TablesOptions::default(), *s.board(), 1);
    s.apply(TablesAction::Dice([6, 6]));
    let mut acts = Vec::new();
    s.legal_actions(&mut acts);
    s.apply(acts[0]);
    assert_eq!(s.mover(), 0);
    s.apply(TablesAction::Dice([6, 5]));
    apply(&mut s, "24/18 24/19");
    assert_eq!(s.returns().as_slice(), &[2.0, -2.0]);
}

#[test]
fn taw_11_both_mothers_pinned_is_a_draw_and_option_off_ignores_mothers() {
    // TAW-11: my mother is pinned by the opponent; I pin his: a draw.
    let b = board(&[(3, 13)], &[(1, 1), (24, 1), (20, 12)], &[24]);
    let mut s = state(b, [2, 1]);
    apply(&mut s, "3/1* 3/2");
    assert_eq!(s.turn(), Turn::Over);
    assert_eq!(s.returns().as_slice(), &[0.0, 0.0]);
    assert_eq!(s.last_game(), Some((None, 0)));
    // with mother=off nothing happens
    let b = board(&[(3, 14)], &[(1, 1), (20, 14)], &[]);
    let mut s =
        TawlaState::with_position(rules(false), TablesOptions::default(), b, 0).with_dice([2, 1]);
    apply(&mut s, "3/1* 3/2");
    assert_ne!(s.turn(), Turn::Over);
}

#[test]
fn taw_12_match_play_winner_starts_next_game_and_crawford() {
    // TAW-12: a match to 3 with the cube; White wins a gammon (2), then the
    // next game is the Crawford game (no doubling), started by White.
    let options = TablesOptions {
        cube: true,
        match_to: 3,
    };
    let mut pts = [0i8; 24];
    pts[0] = 1;
    pts[23] = -15;
    let b = TawlaBoard::from_parts(pts, &[], [14, 0]);
    let mut s = TawlaState::with_position(rules(true), options, b, 0).with_dice([2, 1]);
    apply(&mut s, "1/off");
    assert_eq!(s.score(), [2, 0]);
    assert_ne!(s.turn(), Turn::Over);
    assert_eq!(s.mover(), 0, "the winner starts the next game");
    assert_eq!(s.phase(), Phase::Rolling, "Crawford game: no cube decision");
    assert_eq!(s.absolute(), TawlaBoard::start().absolute());
    assert_eq!(s.returns().as_slice(), &[0.0, 0.0]);
}

#[test]
fn taw_12_match_ends_at_the_target_with_returns_one() {
    // TAW-12
    let options = TablesOptions {
        cube: false,
        match_to: 1,
    };
    let b = board(&[(1, 1)], &[(24, 10)], &[]);
    let mut s = TawlaState::with_position(rules(true), options, b, 0).with_dice([2, 1]);
    apply(&mut s, "1/off");
    assert_eq!(s.turn(), Turn::Over);
    assert_eq!(s.returns().as_slice(), &[1.0, -1.0]);
}

#[test]
fn taw_10_cube_double_take_drop() {
    // TAW-10 option `cube`: double, take (owner changes), drop loses the stake.
    let st = play_out::<Tawla>(&["cube=on"], &["open 5-3", "double", "take"]);
    let v = st.observation_json(crate::Viewer::Spectator);
    assert_eq!(v["cube"], 2);
    assert_eq!(v["cube_owner"], 1);
    let st = play_out::<Tawla>(
        &["cube=on"],
        &["open 5-3", "double", "take", "6-5", "24/18 24/19"],
    );
    let legal: Vec<String> = st.legal_actions().into_iter().map(|a| a.text).collect();
    assert_eq!(legal, vec!["roll", "double"], "the owner may redouble");
    let st = play_out::<Tawla>(
        &["cube=on"],
        &[
            "open 5-3",
            "double",
            "take",
            "6-5",
            "24/18 24/19",
            "double",
            "drop",
        ],
    );
    assert_eq!(st.turn(), Turn::Over);
    assert_eq!(st.returns(), vec![-2.0, 2.0]);
    // without the cube option there is no cube decision
    let st = play_out::<Tawla>(&[], &["open 5-3"]);
    assert_eq!(st.turn(), Turn::Chance);
}

#[test]
fn plays_reaching_the_same_position_are_offered_once() {
    // 24/18 24/23 and 24/23 24/18 reach the same position: one play.
    let p = plays(&start_with_dice([6, 1]));
    assert_eq!(p.len(), 2);
    // and the play lists its single steps in order
    let s = start_with_dice([6, 1]);
    let mut acts = Vec::new();
    s.legal_actions(&mut acts);
    for a in acts {
        let TablesAction::Play(play) = a else {
            panic!()
        };
        assert_eq!(play.len(), 2);
    }
}

#[test]
fn state_is_a_small_copy_value() {
    fn is_copy<T: Copy>() {}
    is_copy::<TawlaState>();
    assert!(
        std::mem::size_of::<TawlaState>() <= 64,
        "{}",
        std::mem::size_of::<TawlaState>()
    );
}

#[test]
fn typed_plays_are_resolved_against_the_legal_plays() {
    let s = start_with_dice([6, 5]);
    for text in ["24/13", "24/18/13", "24/19 19/13", "24/18 18/13"] {
        let a = s.parse_action(text).unwrap();
        assert!(s.is_legal(a), "{text}");
    }
    let mut t = s;
    let bad = t.parse_action("24/17").unwrap();
    let before = t;
    let err = t.try_apply(bad).unwrap_err();
    assert!(err.to_string().contains("legal plays of 6-5"), "{err}");
    assert_eq!(t, before);
    assert!(t.parse_action("24/x").is_err());
}

#[test]
fn random_games_conform_with_every_option() {
    for options in [
        &[][..],
        &["mother=off"],
        &["cube=on"],
        &["match=5", "cube=on"],
        &["match=3"],
    ] {
        let s = check_random_games::<Tawla>(options, 60, 11, |st| {
            let abs = st.absolute();
            assert_eq!((abs.checkers(0), abs.checkers(1)), (15, 15));
        });
        assert_eq!(s.games, 60);
    }
}

#[test]
fn same_seed_same_game() {
    let run = |seed| {
        let mut rng = seeded(seed);
        let mut s = TawlaState::new(rules(true), TablesOptions::default());
        let mut p = crate::playout::Playout::default();
        let mut actions = Vec::new();
        p.run(&mut s, &mut rng, |_, a| actions.push(a))
            .expect("the game ends");
        (actions, s.returns())
    };
    assert_eq!(run(5), run(5));
    assert_ne!(run(5).0, run(6).0);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Checkers are conserved (15 a side, on points, pinned or off) and a
    /// random game always ends; replaying its actions gives the same state.
    #[test]
    fn random_games_conserve_checkers_and_replay(seed in any::<u64>(), mother in any::<bool>()) {
        let mut rng = seeded(seed);
        let start = TawlaState::new(rules(mother), TablesOptions::default());
        let mut s = start;
        let mut acts = Vec::new();
        let mut history = Vec::new();
        let mut p = crate::playout::Playout::default();
        let plies = p.run(&mut s, &mut rng, |st, a| {
            let abs = st.absolute();
            assert_eq!((abs.checkers(0), abs.checkers(1)), (15, 15));
            history.push(a);
        }).expect("the game ends");
        prop_assert!(plies < 5000);
        prop_assert_eq!(s.turn(), Turn::Over);
        let mut r = start;
        for &a in &history {
            r.legal_actions(&mut acts);
            prop_assert!(r.is_legal(a));
            r.apply(a);
        }
        prop_assert_eq!(r, s);
    }

    /// No legal play ever lands on a closed point: after any legal play the
    /// mover's checkers never sit on top of two or more opposing ones.
    #[test]
    fn plays_never_land_on_closed_points(seed in any::<u64>()) {
        let mut rng = seeded(seed);
        let mut s = TawlaState::new(rules(true), TablesOptions::default());
        let mut p = crate::playout::Playout::default();
        p.run(&mut s, &mut rng, |st, a| {
            if let TablesAction::Play(play) = a {
                let b = st.board();
                for step in play.steps() {
                    if step.to != 0 {
                        assert!(b.top(step.to) >= -1, "landing on a band: {play:?}");
                    }
                }
            }
        }).expect("the game ends");
    }
}

#[test]
fn empty_play_round_trips() {
    // TAW-7: with no possible move the only play is the empty one, `pass`.
    // White's 24 with 6-5 faces Black's bands on 18 and 19.
    let b = board(&[(24, 15)], &[(18, 2), (19, 2), (1, 11)], &[]);
    let mut s = state(b, [6, 5]);
    let mut legal = Vec::new();
    s.legal_actions(&mut legal);
    assert_eq!(legal, vec![TablesAction::Play(Play::EMPTY)]);
    let text = s.format_action(legal[0]);
    assert_eq!(text, "pass");
    assert_eq!(s.parse_action(&text).unwrap(), legal[0]);
    let json = serde_json::to_value(legal[0]).unwrap();
    assert_eq!(
        serde_json::from_value::<TablesAction>(json).unwrap(),
        legal[0]
    );
    apply(&mut s, &text);
    assert_eq!(s.mover(), 1, "the pass ends White's turn");
}

/// An independent, slow generator written straight from TAW-4..TAW-9: every
/// order of the dice, no pruning; returns the set of resulting positions
/// (signed top counts and pinned flags per point, borne-off count).
mod naive {
    use std::collections::BTreeSet;

    #[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
    pub struct Pos {
        /// per point 1..24 (index 0..23): mover's free, opponent's top, pinned under
        pub mine: [u8; 24],
        pub theirs: [u8; 24],
        /// 1: a mover checker is pinned there; 2: an opponent checker is pinned
        pub pin: [u8; 24],
        pub off: u8,
    }

    fn try_move(p: &Pos, from: usize, die: usize) -> Option<Pos> {
        if p.mine[from - 1] == 0 {
            return None;
        }
        let mut n = *p;
        let all_home = (7..=24).all(|q| p.mine[q - 1] == 0) && !p.pin.contains(&1);
        if from > die {
            let t = from - die - 1;
            let closed = p.theirs[t] >= 2 || (p.theirs[t] == 1 && p.pin[t] == 1);
            if closed {
                return None;
            }
            n.mine[from - 1] -= 1;
            if n.mine[from - 1] == 0 && n.pin[from - 1] == 2 {
                n.pin[from - 1] = 0;
                n.theirs[from - 1] = 1;
            }
            if n.theirs[t] == 1 {
                n.theirs[t] = 0;
                n.pin[t] = 2;
            }
            n.mine[t] += 1;
        } else {
            if !all_home {
                return None;
            }
            if from < die && (from + 1..=6).any(|q| p.mine[q - 1] > 0) {
                return None;
            }
            n.mine[from - 1] -= 1;
            if n.mine[from - 1] == 0 && n.pin[from - 1] == 2 {
                n.pin[from - 1] = 0;
                n.theirs[from - 1] = 1;
            }
            n.off += 1;
        }
        Some(n)
    }

    fn extend(p: Pos, dice: &[usize], used: Vec<usize>, out: &mut Vec<(Pos, Vec<usize>)>) {
        let mut any = false;
        if let Some((&d, rest)) = dice.split_first() {
            for from in 1..=24 {
                if let Some(n) = try_move(&p, from, d) {
                    any = true;
                    let mut u = used.clone();
                    u.push(d);
                    extend(n, rest, u, out);
                }
            }
        }
        if !any {
            out.push((p, used));
        }
    }

    pub fn positions(p: Pos, dice: [u8; 2]) -> BTreeSet<Pos> {
        let (a, b) = (dice[0] as usize, dice[1] as usize);
        let orders: Vec<Vec<usize>> = if a == b {
            vec![vec![a; 4]]
        } else {
            vec![vec![a, b], vec![b, a]]
        };
        let mut all = Vec::new();
        for o in orders {
            extend(p, &o, vec![], &mut all);
        }
        let max = all.iter().map(|(_, u)| u.len()).max().unwrap_or(0);
        all.retain(|(_, u)| u.len() == max);
        if max == 1 && a != b && all.iter().any(|(_, u)| u[0] == a.max(b)) {
            all.retain(|(_, u)| u[0] == a.max(b));
        }
        all.into_iter().map(|(p, _)| p).collect()
    }
}

fn naive_pos(b: &TawlaBoard) -> naive::Pos {
    let mut p = naive::Pos {
        mine: [0; 24],
        theirs: [0; 24],
        pin: [0; 24],
        off: b.off(0),
    };
    for n in 1..=24u8 {
        let i = n as usize - 1;
        let c = b.top(n);
        if c > 0 {
            p.mine[i] = c as u8;
        } else {
            p.theirs[i] = (-c) as u8;
        }
        if b.opponent_pinned_at(n) {
            p.pin[i] = 2;
        } else if b.mover_pinned_at(n) {
            p.pin[i] = 1;
        }
    }
    p
}

#[test]
fn matches_naive_generator() {
    // TAW-4..TAW-9 and TAW-7's dice rule, against the slow reference, on
    // positions from random games: the same set of resulting positions,
    // each offered once.
    use crate::tables::StepBoard;
    let mut rng = seeded(99);
    let mut acts = Vec::new();
    let mut checked = 0;
    for _ in 0..60 {
        let mut s = TawlaState::new(rules(true), TablesOptions::default());
        while s.turn() != Turn::Over {
            if s.turn() == Turn::Chance {
                let a = s.sample_chance(&mut rng);
                s.apply(a);
                continue;
            }
            s.legal_actions(&mut acts);
            if let Phase::Moving(dice) = s.phase() {
                let want = naive::positions(naive_pos(s.board()), dice);
                let mut got = std::collections::BTreeSet::new();
                for &a in &acts {
                    let TablesAction::Play(play) = a else {
                        panic!()
                    };
                    let mut b = *s.board();
                    for &st in play.steps() {
                        b.apply_step(st);
                    }
                    assert!(got.insert(naive_pos(&b)), "position offered twice");
                }
                assert_eq!(got, want, "dice {dice:?}");
                checked += 1;
            }
            let a = acts[rand::Rng::random_range(&mut rng, 0..acts.len())];
            s.apply(a);
        }
    }
    assert!(checked > 3000);
}

#[test]
fn dead_positions_are_drawn() {
    // Our reading (the seed and brief are silent): with mother=off both
    // players can pin each other's last checker at home with everything
    // else on their point 1; nobody can ever move again, so it is a draw.
    let b = board(&[(1, 14)], &[(1, 0), (24, 1)], &[24]);
    let mut pts = [0i8; 24];
    pts[0] = 14; // mine on my 1, over the opponent's pinned mother
    pts[23] = -14; // theirs on my 24 (their 1), over my pinned mother
    let b2 = TawlaBoard::from_parts(pts, &[1, 24], [0, 0]);
    assert_eq!(b.off(0), 0);
    let mut s =
        TawlaState::with_position(rules(false), TablesOptions::default(), b2, 0).with_dice([6, 5]);
    apply(&mut s, "pass");
    assert_eq!(s.turn(), Turn::Over);
    assert_eq!(s.returns().as_slice(), &[0.0, 0.0]);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(8))]
    /// Positions of random games (with and without the mother rule, cube
    /// and match play) read back from their text and their JSON as equal
    /// states.
    #[test]
    fn positions_round_trip_through_text_and_json(seed in any::<u64>(), variant in 0..3usize) {
        let options: &[&str] = match variant {
            0 => &[],
            1 => &["mother=off"],
            _ => &["cube=on", "match=3"],
        };
        crate::conformance::check_position_round_trips::<Tawla>(options, 1, seed);
    }
}

/// The position text with point `n` (1..24, the first player's numbering)
/// replaced by `entry`, from the start with the first player to play 6-5.
fn start_text_with(n: usize, entry: &str) -> String {
    let mut points = vec!["0"; 24];
    points[0] = "-15";
    points[23] = "15";
    points[n - 1] = entry;
    format!("{} 0 6-5", points.join(","))
}

fn position_error(text: &str) -> crate::PositionError {
    match text.parse::<TawlaState>() {
        Err(crate::Error::BadPosition { reason, .. }) => reason,
        other => panic!("`{text}` gave {other:?}"),
    }
}

#[test]
fn position_of_a_pin_reads_and_plays() {
    // TAW-6: a White checker pinned under two Black ones on White's point
    // 10 (Black's 15): it cannot move; everything else can.
    let text = "-13,0,0,0,0,0,0,0,0,-2/1,0,0,0,0,0,0,0,0,0,0,0,0,0,14 0 6-5 mother=off";
    let s: TawlaState = text.parse().unwrap();
    assert_eq!(s.to_string(), text);
    assert!(!s.variant().mother);
    assert!(s.board().mover_pinned_at(10));
    assert!(
        plays(&s).iter().all(|p| !p.contains("10/")),
        "{:?}",
        plays(&s)
    );
}

#[test]
fn positions_that_break_the_rules_are_typed_errors() {
    use crate::PositionError::*;
    // a checker short
    assert_eq!(
        position_error(&start_text_with(24, "14")),
        Count {
            player: 0,
            what: "checkers",
            expected: 15,
            found: 14
        }
    );
    // both sides on one point: a pinned checker of the same colour, or two
    assert!(matches!(
        position_error(&start_text_with(24, "14/1")),
        Overlap(_)
    ));
    assert!(matches!(
        position_error(&start_text_with(24, "13/-2")),
        Overlap(_)
    ));
    // 23 points
    let short = start_text_with(24, "15").replacen("-15,0,", "-15,", 1);
    assert!(matches!(
        position_error(&short),
        Size {
            what: "points",
            expected: 24,
            found: 23
        }
    ));
    // no bar in Tawla, no seven on a die, no third player, no such option
    let start = start_text_with(24, "15");
    assert!(matches!(
        position_error(&format!("{start} bar=1,0")),
        Inconsistent(_)
    ));
    assert!(matches!(
        position_error(&start.replace("6-5", "7-5")),
        Unreadable { field: "phase", .. }
    ));
    assert!(matches!(
        position_error(&start.replace(" 0 6-5", " 2 6-5")),
        Unreadable { field: "mover", .. }
    ));
    assert!(matches!(
        position_error(&format!("{start} colour=red")),
        Option(_)
    ));
    assert!(matches!(
        position_error(&format!("{start} extra")),
        FieldCount { found: 4, .. }
    ));
    // a cube decision without the cube; a finished game without its result
    assert!(matches!(
        position_error(&start.replace("6-5", "cube_decision")),
        Inconsistent(_)
    ));
    assert!(matches!(
        position_error(&start.replace("6-5", "over")),
        Inconsistent(_)
    ));
    assert!(
        start
            .replace("6-5", "cube_decision cube=on")
            .parse::<TawlaState>()
            .is_ok()
    );
}
