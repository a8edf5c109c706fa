//! One or more hand-set positions per rule. Diagrams: the far row (North's
//! camp, row 7) first; upper case South (moves first, camp row 1), lower case
//! North; B blue, Y yellow, K black, W white, R/r blockade.

use super::*;
use crate::game::{Returns, Turn};
use crate::options::Options;

fn sq(text: &str) -> Square {
    text.parse().unwrap()
}

#[test]
fn lag_1_board_size_camps_and_forward() {
    // LAG-1: default 5 columns x 7 rows; sizes 3..9 x 4..11; camps are the end rows.
    let specs = Lager::option_specs();
    let game = Lager::from_options(&Options::defaults(specs)).unwrap();
    let g = game.config().geometry;
    assert_eq!((g.columns, g.rows), (5, 7));
    assert_eq!((g.camp_row(0), g.camp_row(1)), (0, 6));
    for (c, r) in [(3, 4), (9, 11), (5, 5), (7, 7)] {
        let o = Options::parse(
            "lager",
            specs,
            &[format!("columns={c}"), format!("rows={r}")],
        )
        .unwrap();
        let s = Lager::from_options(&o).unwrap().initial_state();
        assert_eq!(s.geometry().squares(), c as usize * r as usize);
        // LAG-4: 4 stones x c camp squares.
        assert_eq!(actions(&s).len(), 4 * c as usize);
        // With `opening=any`, also a blockade on any square.
        let config = LagerConfig {
            stone_first: false,
            ..s.config()
        };
        let s = LagerState::new(config);
        assert_eq!(actions(&s).len(), 4 * c as usize + c as usize * r as usize);
    }
    for bad in [
        "columns=2",
        "columns=10",
        "rows=3",
        "rows=12",
        "captured=back",
    ] {
        assert!(Options::parse("lager", specs, &[bad]).is_err(), "{bad}");
    }
    // North's forward is down the board: its blue on c5 goes to c4 and c3.
    let s = pos(".....\n.....\n..b..\n.....\n.....\n.....\n.....", 1);
    assert_eq!(moves(&s), ["c5-c3", "c5-c4"]);
}

#[test]
fn lag_2_blue_moves_one_or_two_straight_forward() {
    let s = pos(".....\n.....\n.....\n.....\n..B..\n.....\n.....", 0);
    assert_eq!(moves(&s), ["c3-c4", "c3-c5"]);
    // Never backward or sideways.
    let back = s.parse_action("c3-c2").unwrap();
    assert!(s.illegal_reason(back).unwrap().contains("straight forward"));
}

#[test]
fn lag_2_yellow_moves_one_or_two_diagonally_forward() {
    let s = pos(".....\n.....\n.....\n.....\n..Y..\n.....\n.....", 0);
    assert_eq!(moves(&s), ["c3-a5", "c3-b4", "c3-d4", "c3-e5"]);
    let s = pos(".....\n.....\n..y..\n.....\n.....\n.....\n.....", 1);
    assert_eq!(moves(&s), ["c5-a3", "c5-b4", "c5-d4", "c5-e3"]);
}

#[test]
fn lag_2_black_moves_one_diagonally_either_way() {
    let s = pos(".....\n.....\n.....\n.....\n..K..\n.....\n.....", 0);
    assert_eq!(moves(&s), ["c3-b2", "c3-b4", "c3-d2", "c3-d4"]);
}

#[test]
fn lag_2_white_moves_one_in_any_direction() {
    let s = pos(".....\n.....\n.....\n.....\n..W..\n.....\n.....", 0);
    assert_eq!(
        moves(&s),
        [
            "c3-b2", "c3-b3", "c3-b4", "c3-c2", "c3-c4", "c3-d2", "c3-d3", "c3-d4"
        ]
    );
    // In a corner only three squares are on the board.
    let s = pos(".....\n.....\n.....\n.....\n.....\n.....\nW....", 0);
    assert_eq!(moves(&s), ["a1-a2", "a1-b1", "a1-b2"]);
}

#[test]
fn lag_2_blockade_is_placed_once_and_never_moves() {
    let mut s = LagerState::new(opening_any());
    play(&mut s, &["R@c4", "B@c7"]);
    // South's blockade is on the board: no more blockade placements for South,
    // and no move from c4.
    assert!(actions(&s).iter().all(|a| !a.starts_with("R@")));
    assert!(moves(&s).is_empty());
    let a = s.parse_action("R@d4").unwrap();
    assert!(s.illegal_reason(a).unwrap().contains("already"));
    let a = s.parse_action("c4-c5").unwrap();
    assert!(s.illegal_reason(a).unwrap().contains("no stone"));
    // North still has his.
    play(&mut s, &["B@c1"]);
    assert!(actions(&s).iter().any(|a| a == "R@d4"));
}

#[test]
fn lag_3_no_move_onto_or_over_a_piece() {
    // Blue: c4 occupied blocks both c4 and c5.
    let s = pos(".....\n.....\n.....\n..r..\n..B..\n.....\n.....", 0);
    assert_eq!(moves(&s), Vec::<String>::new());
    // A piece on c5 leaves only c4.
    let s = pos(".....\n.....\n..k..\n.....\n..B..\n.....\n.....", 0);
    assert_eq!(moves(&s), ["c3-c4"]);
    // Yellow cannot jump d4 to reach e5.
    let s = pos(".....\n.....\n.....\n...R.\n..Y..\n.....\n.....", 0);
    assert_eq!(moves(&s), ["c3-a5", "c3-b4"]);
    let jump = s.parse_action("c3-e5").unwrap();
    assert!(s.illegal_reason(jump).unwrap().contains("jump"));
    // Never onto one's own stone.
    let s = pos(".....\n.....\n.....\n..K..\n..W..\n.....\n.....", 0);
    let own = s.parse_action("c3-c4").unwrap();
    assert!(!s.is_legal(own));
    assert!(s.illegal_reason(own).unwrap().contains("own stone"));
}

#[test]
fn lag_4_start_and_the_three_kinds_of_action() {
    let s = LagerState::new(opening_any());
    // Player 1 (South) starts.
    assert_eq!(s.turn(), Turn::Player(0));
    let all = actions(&s);
    // With `opening=any`: 4 stones x 5 camp squares, and the blockade on any
    // of 35 squares.
    assert_eq!(all.iter().filter(|a| !a.starts_with("R@")).count(), 20);
    assert_eq!(all.iter().filter(|a| a.starts_with("R@")).count(), 35);
    assert!(all.iter().all(|a| a.starts_with("R@") || a.ends_with('1')));
    // Stones are placed in one's own camp only.
    let a = s.parse_action("B@c2").unwrap();
    assert!(s.illegal_reason(a).unwrap().contains("own camp"));
    let mut s = s;
    play(&mut s, &["B@c1"]);
    assert_eq!(s.turn(), Turn::Player(1));
    let north = actions(&s);
    assert!(north.contains(&"B@c7".to_string()));
    assert!(!north.contains(&"B@c1".to_string()));
    // South's next turn: move, place or blockade.
    play(&mut s, &["Y@a7"]);
    let south = actions(&s);
    assert!(south.contains(&"c1-c3".to_string()));
    assert!(south.contains(&"W@a1".to_string()));
    assert!(south.contains(&"R@e4".to_string()));
}

#[test]
fn lag_4_the_seeds_opening_is_the_default() {
    // Each player first places a stone in his own camp; no blockade yet.
    for options in [&[][..], &["opening=stone"][..]] {
        let o = Options::parse("lager", Lager::option_specs(), options).unwrap();
        assert!(o.get("opening") == "stone");
        let s = Lager::from_options(&o).unwrap().initial_state();
        assert_eq!(s, LagerState::new(LagerConfig::default()));
    }
    let mut s = LagerState::new(LagerConfig::default());
    assert_eq!(actions(&s).len(), 20);
    let a = s.parse_action("R@c4").unwrap();
    assert!(s.illegal_reason(a).unwrap().contains("first action"));
    play(&mut s, &["B@c1"]);
    assert_eq!(actions(&s).len(), 20);
    play(&mut s, &["B@c7"]);
    assert!(actions(&s).contains(&"R@c4".to_string()));
}

#[test]
fn lag_5_at_most_three_stones_on_the_board() {
    let s = pos(".....\n.....\n.....\n.....\n.....\n.....\nBYK..", 0);
    assert!(actions(&s).iter().all(|a| !a.starts_with("W@")));
    let a = s.parse_action("W@e1").unwrap();
    assert!(s.illegal_reason(a).unwrap().contains("3 stones"));
    // The blockade does not count.
    let s = pos(".....\n.....\n.....\n..R..\n.....\n.....\nBY...", 0);
    assert!(actions(&s).contains(&"W@e1".to_string()));
    assert!(actions(&s).contains(&"K@e1".to_string()));
    // A knocked-out stone (captured=out) is not unplayed.
    let s = LagerState::from_diagram(
        LagerConfig::default(),
        ".....\n.....\n.....\n.....\n.....\n.....\nB....",
        0,
        &[(0, Stone::White)],
    )
    .unwrap();
    assert!(actions(&s).iter().all(|a| !a.starts_with("W@")));
}

#[test]
fn lag_6_threat_needs_two_adjacent_stones_that_could_step_there() {
    // Seed picture 1: black and yellow threaten the opponent's white; the
    // blue is not next to the opponent's blue, so that is not threatened.
    let s = pos(".....\n.....\n.....\n..w.b\n.K.Y.\n....B\n.....", 0);
    assert_eq!(s.mask_squares(s.threatened(0)), [sq("c4")]);
    assert_eq!(moves(&s).iter().filter(|m| m.contains('x')).count(), 2);
    // Blue threatens only the square straight ahead: with white on b3 both
    // threaten c4; a blue two squares away does not.
    let s = pos(".....\n.....\n.....\n.....\n.WB..\n.....\n.....", 0);
    assert_eq!(s.mask_squares(s.threatened(0)), [sq("c4")]);
    let s = pos(".....\n.....\n.....\n.....\n.W...\n..B..\n.....", 0);
    assert!(s.threatened(0) & (1 << s.geometry().index(sq("c4"))) == 0);
    // What stands on the square does not matter: South's own stone on c4.
    let s = pos(".....\n.....\n.....\n..W..\n.K.Y.\n.....\n.....", 0);
    assert!(s.mask_squares(s.threatened(0)).contains(&sq("c4")));
    // North's diagonal forward is down the board.
    let s = pos(".....\n.....\n.y.k.\n..W..\n.....\n.....\n.....", 1);
    assert_eq!(s.mask_squares(s.threatened(1)), [sq("c4")]);
    assert_eq!(moves(&s).iter().filter(|m| m.contains('x')).count(), 2);
    // One stone alone threatens nothing.
    let s = pos(".....\n.....\n.....\n..w..\n.K...\n.....\n.....", 0);
    assert_eq!(s.threatened(0), 0);
    let a = s.parse_action("b3xc4").unwrap();
    assert!(s.illegal_reason(a).unwrap().contains("two of your stones"));
}

#[test]
fn lag_7_capture_with_either_stone_and_the_piece_leaves_the_game() {
    let s = pos(".....\n.....\n.....\n..w..\n.K.Y.\n.....\n.....", 0);
    assert_eq!(
        moves(&s)
            .into_iter()
            .filter(|m| m.contains('x'))
            .collect::<Vec<_>>(),
        ["b3xc4", "d3xc4"]
    );
    for capture in ["b3xc4", "d3xc4"] {
        let mut t = s;
        play(&mut t, &[capture]);
        assert_eq!(t.stone_location(1, Stone::White), Location::Out);
        let from = &capture[..2];
        assert_eq!(t.piece_at(sq(from)), None);
        assert_eq!(t.piece_at(sq("c4")).map(|p| p.0), Some(0));
        assert_eq!(t.events(), ["South knocks out North's white on c4"]);
        // Out of the game: North cannot place it again.
        assert!(actions(&t).iter().all(|a| !a.starts_with("W@")));
    }
}

#[test]
fn lag_7_option_captured_return() {
    let config = LagerConfig {
        captured: Captured::Return,
        ..LagerConfig::default()
    };
    let mut s = LagerState::from_diagram(
        config,
        ".....\n.....\n.....\n..w..\n.K.Y.\n.....\n.....",
        0,
        &[],
    )
    .unwrap();
    play(&mut s, &["b3xc4"]);
    assert_eq!(s.stone_location(1, Stone::White), Location::Unplayed);
    assert!(actions(&s).contains(&"W@a7".to_string()));
}

#[test]
fn lag_7_either_blockade_can_be_knocked_out() {
    for (diagram, owner) in [
        (".....\n.....\n.....\n..R..\n.K.Y.\n.....\n.....", 0),
        (".....\n.....\n.....\n..r..\n.K.Y.\n.....\n.....", 1),
    ] {
        let mut s = pos(diagram, 0);
        play(&mut s, &["d3xc4"]);
        assert_eq!(s.blockade_location(owner), Location::Out);
        assert_eq!(s.piece_at(sq("c4")), Some((0, Piece::Stone(Stone::Yellow))));
        assert_eq!(
            s.events(),
            [format!(
                "South knocks out {}'s blockade on c4",
                ["South", "North"][owner]
            )]
        );
        // A knocked-out blockade is gone: it cannot be placed again.
        if owner == 0 {
            play(&mut s, &["W@a7"]);
            assert!(actions(&s).iter().all(|a| !a.starts_with("R@")));
        }
    }
    // A lone blockade is never knocked out by one stone.
    let s = pos(".....\n.....\n.....\n..r..\n.K...\n.....\n.....", 0);
    assert!(moves(&s).iter().all(|m| !m.contains('x')));
}

#[test]
fn lag_8_stone_in_opponents_camp_is_safe() {
    // North's white on c1 (South's camp) is threatened by K b2 and W d2 but safe.
    let s = pos(".....\n.....\n.....\n.....\n.....\n.K.W.\n..w..", 0);
    assert!(s.mask_squares(s.threatened(0)).contains(&sq("c1")));
    assert!(moves(&s).iter().all(|m| !m.contains('x')));
    let a = s.parse_action("b2xc1").unwrap();
    assert!(s.illegal_reason(a).unwrap().contains("safe"));
    // A stone in its own camp is not safe: North knocks out South's white on c1.
    let mut s = pos(".....\n.....\n.....\n.....\n.....\n.k.w.\n..W..", 1);
    assert_eq!(
        moves(&s)
            .into_iter()
            .filter(|m| m.contains('x'))
            .collect::<Vec<_>>(),
        ["b2xc1", "d2xc1"]
    );
    play(&mut s, &["b2xc1"]);
    assert_eq!(s.stones_in_camp(1, 0), 1);
    // A blockade in a camp is not a stone: it is never safe.
    let s = pos(".....\n.....\n.....\n.....\n.....\n.K.W.\n..r..", 0);
    assert!(moves(&s).contains(&"b2xc1".to_string()));
}

#[test]
fn lag_8_moving_in_and_out_of_the_opponents_camp() {
    // Seed picture 2: black may move back out, white out or within; blue and
    // yellow have no move left there.
    let s = pos("..K..\n.....\n.....\n.....\n.....\n.....\n.....", 0);
    assert_eq!(moves(&s), ["c7-b6", "c7-d6"]);
    let s = pos("..W..\n.....\n.....\n.....\n.....\n.....\n.....", 0);
    assert_eq!(moves(&s), ["c7-b6", "c7-b7", "c7-c6", "c7-d6", "c7-d7"]);
    for diagram in ["B....\n.....", "....Y\n....."] {
        let s = pos(&format!("{diagram}\n.....\n.....\n.....\n.....\n....."), 0);
        assert!(moves(&s).is_empty(), "{diagram}");
    }
    // One's stones threaten the opponent's stones in her own camp (picture 2):
    // white on c7 and black on e6 both threaten North's blue on d7.
    let s = pos("..Wb.\n....K\n.....\n.....\n.....\n.....\n.....", 0);
    let captures: Vec<String> = moves(&s).into_iter().filter(|m| m.contains('x')).collect();
    assert_eq!(captures, ["c7xd7", "e6xd7"]);
}

#[test]
fn lag_9_two_stones_in_the_opponents_camp_win() {
    let mut s = pos(".K...\n..W..\n.....\n.....\n.....\n.....\n.....", 0);
    assert_eq!(s.turn(), Turn::Player(0));
    play(&mut s, &["c6-c7"]);
    assert_eq!(s.turn(), Turn::Over);
    assert_eq!(s.end(), Some(End::Camp { winner: 0 }));
    assert_eq!(s.returns(), Returns::two_player(0, 1.0));
    assert_eq!(s.events(), ["South wins: two stones in North's camp"]);
    // Also by a capture into the camp.
    let mut s = pos(".K.b.\n..W.Y\n.....\n.....\n.....\n.....\n.....", 0);
    play(&mut s, &["e6xd7"]);
    assert_eq!(s.end(), Some(End::Camp { winner: 0 }));
    // And for North, in South's camp.
    let mut s = pos(".....\n.....\n.....\n.....\n.....\n.y...\n...w.", 1);
    play(&mut s, &["b2-a1"]);
    assert_eq!(s.end(), Some(End::Camp { winner: 1 }));
    assert_eq!(s.returns(), Returns::two_player(1, 1.0));
}

#[test]
fn lag_10_no_action_loses() {
    // South has only his blue (the rest knocked out) and his blockade is on
    // the board; North blocks the blue, and South cannot act.
    let mut s = LagerState::from_diagram(
        LagerConfig::default(),
        "...w.\n.....\n..B..\n.....\nR....\n.....\n.....",
        1,
        &[(0, Stone::Yellow), (0, Stone::Black), (0, Stone::White)],
    )
    .unwrap();
    play(&mut s, &["d7-c6"]);
    assert_eq!(s.end(), Some(End::NoAction { winner: 1 }));
    assert_eq!(s.returns(), Returns::two_player(1, 1.0));
    assert_eq!(s.events(), ["North wins: South has no action"]);
    // The limit of three stones can leave a player without action: South's
    // three stones are blocked, his blockade is down and his white may not
    // be placed (LAG-5).
    let mut s = pos(".....\nb..y.\nB...Y\n.....\n..w..\n...R.\n..K..", 1);
    assert_eq!(s.stone_location(0, Stone::White), Location::Unplayed);
    play(&mut s, &["c3-b2"]);
    assert_eq!(s.end(), Some(End::NoAction { winner: 1 }));
    assert!(!s.has_action(0));
}

#[test]
fn lag_11_third_repetition_is_a_draw() {
    let cycle = ["b1-b2", "b7-b6", "b2-b1", "b6-b7"];
    let mut s = pos(".w...\n.....\n.....\n.....\n.....\n.....\n.W...", 0);
    assert_eq!(s.occurrences(), 1);
    play(&mut s, &cycle);
    assert_eq!(s.occurrences(), 2);
    assert_eq!(s.turn(), Turn::Player(0));
    play(&mut s, &cycle[..3]);
    assert_eq!(s.turn(), Turn::Player(1));
    play(&mut s, &cycle[3..]);
    assert_eq!(s.end(), Some(End::Repetition));
    assert_eq!(s.returns(), Returns::zeros(2));
    assert_eq!(s.plies(), 8);
    // The same squares with the other player to move do not count.
    let mut s = pos(".w...\n.....\n.....\n.....\n.....\n.....\n.W...", 0);
    play(&mut s, &["b1-b2", "b7-b6", "b2-c1", "b6-b7", "c1-b1"]);
    assert_eq!(s.occurrences(), 1);
    // An irreversible action in between starts the count afresh.
    let mut s = pos(".w...\n.....\n.....\n.....\n.....\n.....\n.W...", 0);
    play(&mut s, &cycle);
    play(&mut s, &["R@e4", "R@e3"]);
    assert_eq!(s.occurrences(), 1);
    play(&mut s, &cycle);
    play(&mut s, &cycle);
    assert_eq!(s.turn(), Turn::Over);
}

fn returning() -> LagerConfig {
    LagerConfig {
        captured: Captured::Return,
        ..LagerConfig::default()
    }
}

#[test]
fn lag_11_with_captured_return_repetition_counts_through_captures_and_placements() {
    // LAG-11, LAG-7 option `return`: a knocked-out stone can be placed again,
    // so captures and placements do not make a position new. The review's
    // record on the 3x4 board: the position at ply 12 (South W b3, K a3;
    // North b b4, w c4; South to move) comes back at plies 20 and 28.
    let config = LagerConfig {
        geometry: Geometry {
            columns: 3,
            rows: 4,
        },
        ..returning()
    };
    let mut s = LagerState::new(config);
    play(
        &mut s,
        &[
            "W@b1", "W@c4", "K@a1", "B@b4", "a1-b2", "c4-c3", "b2-a3", "c3-c4", "b1-b2", "c4-c3",
            "b2-b3", "c3-c4",
        ],
    );
    assert_eq!(s.occurrences(), 1);
    let cycle = [
        "b3xb4", "c4-c3", "b4-b3", "B@b4", "b3xb4", "c3-c4", "b4-b3", "B@b4",
    ];
    play(&mut s, &cycle);
    assert_eq!(s.plies(), 20);
    assert_eq!(s.occurrences(), 2);
    assert_eq!(s.turn(), Turn::Player(0));
    play(&mut s, &cycle[..7]);
    assert_eq!(s.turn(), Turn::Player(1));
    play(&mut s, &cycle[7..]);
    assert_eq!(s.plies(), 28);
    assert_eq!(s.occurrences(), 3);
    assert_eq!(s.end(), Some(End::Repetition));
    assert_eq!(s.returns(), Returns::zeros(2));
}

#[test]
fn lag_11_with_captured_return_blue_and_yellow_moves_can_repeat() {
    // LAG-11: with `return` even a forward-only stone can come back to its
    // square: South's blue steps out of its camp, is knocked out, and is
    // placed again while North's black steps back.
    let start = ".....\n.....\n.....\n.....\n.k...\n.w...\nB....";
    let cycle = ["a1-a2", "b3xa2", "B@a1", "a2-b3"];
    let mut s = LagerState::from_diagram(returning(), start, 0, &[]).unwrap();
    play(&mut s, &cycle);
    assert_eq!(s.occurrences(), 2);
    play(&mut s, &cycle[..3]);
    assert_eq!(s.turn(), Turn::Player(1));
    play(&mut s, &cycle[3..]);
    assert_eq!(s.end(), Some(End::Repetition));
    assert_eq!(s.plies(), 8);
    // With stones knocked out for good the blue stone cannot come back.
    let mut s = pos(start, 0);
    play(&mut s, &cycle[..2]);
    assert_eq!(s.stone_location(0, Stone::Blue), Location::Out);
}

#[test]
fn lag_11_with_captured_return_only_blockade_actions_start_afresh() {
    // LAG-11: placing a blockade or knocking one out cannot be undone.
    let start = ".....\n.....\n.....\n.....\n.k...\n.w...\nB....";
    let cycle = ["a1-a2", "b3xa2", "B@a1", "a2-b3"];
    let mut s = LagerState::from_diagram(returning(), start, 0, &[]).unwrap();
    play(&mut s, &cycle);
    assert_eq!(s.occurrences(), 2);
    play(&mut s, &["R@e4", "r@e5"]);
    assert_eq!(s.occurrences(), 1);
    play(&mut s, &cycle);
    assert_eq!(s.occurrences(), 2);
    play(&mut s, &cycle);
    assert_eq!(s.end(), Some(End::Repetition));
    // After a blockade is knocked out the count goes on from there.
    let start = ".....\n.....\n.....\n.k...\nR....\n.w...\nB...W";
    let mut s = LagerState::from_diagram(returning(), start, 1, &[]).unwrap();
    play(&mut s, &["b2xa3"]);
    assert_eq!(s.blockade_location(0), Location::Out);
    assert_eq!(s.occurrences(), 1);
    play(&mut s, &["e1-e2", "a3-b2", "e2-e1", "b2-a3"]);
    assert_eq!(s.occurrences(), 2);
    play(&mut s, &["e1-e2", "a3-b2", "e2-e1", "b2-a3"]);
    assert_eq!(s.end(), Some(End::Repetition));
}

#[test]
fn lag_11_ply_cap_is_a_draw() {
    let config = LagerConfig {
        max_plies: 20,
        ..LagerConfig::default()
    };
    let mut s = LagerState::from_diagram(
        config,
        ".w...\n.....\n.....\n.....\n.....\n.....\n.W...",
        0,
        &[],
    )
    .unwrap();
    // A tour that never repeats a position three times.
    let south = [
        "b1-c1", "c1-d1", "d1-e1", "e1-e2", "e2-d2", "d2-c2", "c2-b2", "b2-a2", "a2-a1", "a1-b1",
    ];
    let north = [
        "b7-c7", "c7-d7", "d7-e7", "e7-e6", "e6-d6", "d6-c6", "c6-b6", "b6-a6", "a6-a7", "a7-b7",
    ];
    for i in 0..10 {
        assert_eq!(s.turn(), Turn::Player(0), "ply {}", s.plies());
        play(&mut s, &[south[i], north[i]]);
    }
    assert_eq!(s.plies(), 20);
    assert_eq!(s.end(), Some(End::PlyCap));
    assert_eq!(s.returns(), Returns::zeros(2));
}

#[test]
fn seed_picture_1_black_and_yellow_threaten_white_not_blue() {
    // LAG-6, LAG-7: "Svart och gul hotar motståndarens vita sten. Din blå
    // ligger inte i en närliggande ruta och därför hotas ej motståndarens blå."
    let s = pos(".....\n.....\n.....\n..w.b\n.K.Y.\n....B\n.....", 0);
    let captures: Vec<String> = moves(&s).into_iter().filter(|m| m.contains('x')).collect();
    assert_eq!(captures, ["b3xc4", "d3xc4"]);
    assert_eq!(
        s.mask_squares(s.capturable(0) & s.threatened(0)),
        [sq("c4")]
    );
}

#[test]
fn seed_picture_2_stones_in_and_around_the_opponents_camp() {
    // LAG-8: South's white is already in North's camp; it may move within
    // or out, black may step back out, and South threatens North's stone in
    // North's own camp.
    let s = pos("..Wb.\n.K...\n.....\n.....\n.....\n.....\n.....", 0);
    let all = moves(&s);
    for m in ["c7-b7", "c7-c6", "c7-d6", "b6-a5", "b6-c5", "b6-a7"] {
        assert!(all.contains(&m.to_string()), "{m} in {all:?}");
    }
    // Black on b6 and white on c7 do not both reach d7; with black on e6 they do.
    assert!(all.iter().all(|m| !m.contains('x')));
    let s = pos("..Wb.\n....K\n.....\n.....\n.....\n.....\n.....", 0);
    assert!(moves(&s).contains(&"e6xd7".to_string()));
    // North cannot knock out South's white in North's camp.
    let s = pos("..Wb.\n.k.w.\n.....\n.....\n.....\n.....\n.....", 1);
    assert!(s.mask_squares(s.threatened(1)).contains(&sq("c7")));
    assert!(moves(&s).iter().all(|m| !m.contains('x')));
}

#[test]
fn lag_10_opening_stone_with_nowhere_to_place_is_no_action() {
    // LAG-10 with `opening=stone`: on the first turn the blockade does not
    // count as an action. South's camp is full (his blue, North's white,
    // North's blockade) and his blue is blocked by North's black: no action.
    let config = LagerConfig {
        geometry: Geometry {
            columns: 3,
            rows: 4,
        },
        stone_first: true,
        ..LagerConfig::default()
    };
    let s = LagerState::from_diagram(config, "...\n...\nk..\nBwr", 0, &[]).unwrap();
    let mut out = Vec::new();
    s.legal_actions(&mut out);
    assert!(out.is_empty());
    assert!(!s.has_action(0));
    assert_eq!(s.end(), Some(End::NoAction { winner: 1 }));
}

#[test]
fn state_is_a_small_plain_value() {
    // LAG-11 needs the window since the last irreversible action: one byte
    // per ply up to the largest ply cap (500), plus a 32-byte filter; the
    // board masks live in a static table. Was 688 bytes.
    let size = std::mem::size_of::<LagerState>();
    println!("LagerState: {size} bytes");
    assert!(size <= 592, "LagerState is {size} bytes");
}
