//! One or more tests per rule, STU-1..STU-18.

use super::*;
use crate::game::{Turn, Viewer};
use crate::options::Options;

fn rolled(text: &str) -> StumphogState {
    let mut s = Stumphog::from_options(&Options::defaults(Stumphog::option_specs()))
        .unwrap()
        .initial_state();
    play(&mut s, text);
    s
}

#[test]
fn stu1_seventy_stones_two_players_two_dice() {
    let s = Stumphog::from_options(&Options::defaults(Stumphog::option_specs()))
        .unwrap()
        .initial_state();
    assert_eq!(s.total_stones(), STONES);
    assert_eq!(s.num_players(), 2);
    let s = rolled("open 4-1");
    assert_eq!(s.total_stones(), STONES);
    // The turn's roll: two six-sided dice, 21 outcomes.
    let mut outcomes = Vec::new();
    s.chance_outcomes(&mut outcomes);
    assert_eq!(outcomes.len(), 21);
    let total: f64 = outcomes.iter().map(|o| o.1).sum();
    assert!((total - 1.0).abs() < 1e-12);
    for (a, _) in outcomes {
        let StumphogAction::Roll([x, y]) = a else {
            panic!("{a:?}")
        };
        assert!((1..=6).contains(&x) && (1..=6).contains(&y) && x >= y);
    }
}

#[test]
fn stu2_rows_hitom_bortom_hemma_borta_port() {
    let mut b = set_up_board();
    b.rows[0] = [1, 2, 3, 4, 5, 6, 7];
    b.rows[1] = [11, 12, 13, 14, 15, 16, 17];
    for c in 1..=7u8 {
        assert_eq!(b.pile(0, Row::Hitom, c), c);
        assert_eq!(b.pile(0, Row::Bortom, c), 10 + c);
        assert_eq!(b.pile(1, Row::Hitom, c), 10 + c);
        assert_eq!(b.pile(1, Row::Bortom, c), c);
    }
    // Hemma: columns 5..7 of both rows; Borta: 1..4.
    assert_eq!(
        (1..=7).filter(|&c| board::is_hemma(c)).collect::<Vec<_>>(),
        [5, 6, 7]
    );
    // The track: Hitom 7 -> 1 (the Port), Bortom 1 -> 7, Stumpen.
    assert_eq!(board::pile_of(0), (Row::Hitom, 7));
    assert_eq!(board::pile_of(6), (Row::Hitom, 1));
    assert_eq!(board::pile_of(7), (Row::Bortom, 1));
    assert_eq!(board::pile_of(13), (Row::Bortom, 7));
    for t in 0..STUMPEN {
        let (row, col) = board::pile_of(t);
        assert_eq!(board::track_of(row, col), t);
    }
}

#[test]
fn stu3_hog_and_ute_are_each_players_own_side_piles() {
    let mut b = set_up_board();
    b.hog = [20, 21];
    b.ute = [3, 4];
    b.rows[0][3] = 4; // Hitom 4
    let mut s = acting(b, 0, [2, 1]);
    // An ordinary move stays on the board: no side pile changes.
    play(&mut s, "2 stones 1 step from Hitom 4");
    assert_eq!((s.board().hog, s.board().ute), ([20, 21], [3, 4]));
    assert_eq!(s.board().total(), b.total());
    // Both players' Hög and Ute are drawn.
    let text = s.render(Viewer::Spectator, false);
    for part in ["Hög 20", "Hög 21", "Ute  3", "Ute  4"] {
        assert!(text.contains(part), "{part} in\n{text}");
    }
}

#[test]
fn stu4_roll_for_stumpen_sets_up_27_and_28() {
    let s = Stumphog::from_options(&Options::defaults(Stumphog::option_specs()))
        .unwrap()
        .initial_state();
    assert_eq!(s.turn(), Turn::Chance);
    let mut outcomes = Vec::new();
    s.chance_outcomes(&mut outcomes);
    assert_eq!(outcomes.len(), 30);
    assert!(outcomes.iter().all(|&(a, p)| {
        matches!(a, StumphogAction::Opening([x, y]) if x != y) && (p - 1.0 / 30.0).abs() < 1e-12
    }));
    let s = rolled("open 5-3");
    assert_eq!(s.board().stumpen, 1);
    assert_eq!(s.board().hog, [27, 28]);
    assert_eq!(s.board().ute, [0, 0]);
    assert_eq!(s.board().rows, [[1; 7]; 2]);
    let s = rolled("open 2-6");
    assert_eq!(s.board().hog, [28, 27]);
    assert_eq!(s.board().stumpen, 1);
    // Ties are not outcomes: they are rolled again.
    let fresh = Stumphog::from_options(&Options::defaults(Stumphog::option_specs()))
        .unwrap()
        .initial_state();
    assert!(!fresh.is_legal(StumphogAction::Opening([3, 3])));
}

#[test]
fn stu5_layer_begins_then_turns_alternate() {
    let mut s = rolled("open 2-5");
    assert_eq!(s.mover(), 1);
    play(&mut s, "5-4");
    assert_eq!(s.turn(), Turn::Player(1));
    play(&mut s, "pass");
    assert_eq!(s.turn(), Turn::Chance);
    assert_eq!(s.mover(), 0);
    play(&mut s, "2-1");
    assert_eq!(s.turn(), Turn::Player(0));
    let s = rolled("open 6-1");
    assert_eq!(s.mover(), 0);
}

#[test]
fn stu6_track_hitom_away_across_the_ports_bortom_towards_stumpen() {
    let mut b = set_up_board();
    b.rows[0][3] = 3; // player 0's Hitom 4
    b.rows[1][1] = 3; // player 0's Bortom 2 = player 1's Hitom 2
    b.rows[0][1] = 3; // player 0's Hitom 2
    // Away from Stumpen along Hitom.
    let mut s = acting(b, 0, [2, 1]);
    play(&mut s, "1 stone 2 steps from Hitom 4");
    assert_eq!((s.board().rows[0][3], s.board().rows[0][1]), (2, 4));
    // Across from the own Port to the opposite Port and on along Bortom.
    let mut s = acting(b, 0, [3, 1]);
    play(&mut s, "1 stone 3 steps from Hitom 2");
    assert_eq!((s.board().rows[0][1], s.board().rows[1][1]), (2, 4));
    // Towards Stumpen along Bortom.
    let mut s = acting(b, 0, [2, 1]);
    play(&mut s, "1 stone 2 steps from Bortom 2");
    assert_eq!((s.board().rows[1][1], s.board().rows[1][3]), (2, 2));
    // The opponent circles the other way: the same pile is his Hitom 2,
    // and two steps take it across to his Bortom 1 (my Hitom 1).
    let mut s = acting(b, 1, [2, 1]);
    play(&mut s, "1 stone 2 steps from Hitom 2");
    assert_eq!((s.board().rows[1][1], s.board().rows[0][0]), (2, 2));
}

// STU-7
#[test]
fn stu7_stones_in_stumpen_never_move_along_the_track() {
    let mut b = set_up_board();
    b.stumpen = 20;
    b.rows = [[7; 7]; 2];
    for dice in [[4, 1], [2, 1], [6, 5], [3, 2]] {
        let s = acting(b, 0, dice);
        let mut actions = Vec::new();
        s.legal_actions(&mut actions);
        for a in actions {
            let mut t = s;
            t.apply(a);
            assert!(t.board().stumpen >= 20, "{a:?} took stones from Stumpen");
        }
    }
    let s = acting(b, 0, [2, 1]);
    assert!(s.parse_action("1 stone 2 steps from Stumpen").is_err());
}

#[test]
fn stu8_one_die_stones_other_steps_all_from_one_pile() {
    let mut b = set_up_board();
    b.rows[0][2] = 6; // Hitom 3
    let s = acting(b, 0, [4, 2]);
    let t = texts(&s);
    assert!(t.contains(&"4 stones 2 steps from Hitom 3".to_string()));
    assert!(t.contains(&"2 stones 4 steps from Hitom 3".to_string()));
    // Only these two readings of 4-2: no 4 stones 4 steps, no 6 steps.
    assert!(!legal(&s, "4 stones 4 steps from Hitom 3"));
    assert!(!legal(&s, "1 stone 6 steps from Hitom 3"));
    let mut s2 = s;
    play(&mut s2, "4 stones 2 steps from Hitom 3");
    assert_eq!(s2.board().rows[0][2], 2);
    assert_eq!(s2.board().rows[0][0], 5); // Hitom 1: all four together
}

#[test]
fn stu9_every_board_pile_keeps_one_stone_hog_and_ute_may_empty() {
    let mut b = set_up_board();
    b.rows[1][3] = 3; // Bortom 4
    let s = acting(b, 0, [3, 2]);
    assert!(!legal(&s, "3 stones 2 steps from Bortom 4"));
    assert!(legal(&s, "2 stones 3 steps from Bortom 4"));
    b.rows[1][3] = 4;
    assert!(legal(
        &acting(b, 0, [3, 2]),
        "3 stones 2 steps from Bortom 4"
    ));
    // Stumpen keeps its last stone when batted out.
    let mut b = set_up_board();
    b.stumpen = 5;
    b.hog[0] = 0;
    b.ute[0] = 1;
    let mut s = acting(b, 0, [6, 6]);
    play(&mut s, "bat out 12");
    assert_eq!((s.board().stumpen, s.board().ute[0]), (1, 5));
    // The Hög may be emptied.
    let mut b = set_up_board();
    b.hog[0] = 3;
    b.ute[0] = 2;
    let mut s = acting(b, 0, [6, 3]);
    play(&mut s, "bat in 3");
    assert_eq!(s.board().hog[0], 0);
    // The Ute may be emptied (by the opponent batting in from it).
    let mut b = set_up_board();
    b.hog = [0, 10];
    b.ute = [4, 2];
    let mut s = acting(b, 0, [6, 2]);
    play(&mut s, "bat in 2");
    assert_eq!(s.board().ute[1], 0);
    assert_eq!(s.board().hog[1], 10);
}

#[test]
fn stu10_hemma_only_one_step_borta_may_reach_hemma_and_stumpen() {
    let mut b = set_up_board();
    b.rows[0][5] = 6; // Hitom 6 (Hemma)
    b.rows[1][6] = 6; // Bortom 7 (Hemma)
    b.rows[0][3] = 6; // Hitom 4 (Borta)
    b.rows[1][2] = 6; // Bortom 3 (Borta)
    b.rows[1][3] = 6; // Bortom 4 (Borta)
    let s = acting(b, 0, [4, 2]);
    let t = texts(&s);
    assert!(
        !t.iter()
            .any(|a| a.contains("Hitom 6") || a.contains("Bortom 7"))
    );
    let s = acting(b, 0, [4, 1]);
    assert!(legal(&s, "4 stones 1 step from Hitom 6"));
    assert!(!legal(&s, "1 stone 4 steps from Hitom 6"));
    assert!(legal(&s, "1 stone 4 steps from Hitom 4"));
    // One step out of Bortom 7 is into Stumpen.
    let mut t = s;
    play(&mut t, "4 stones 1 step from Bortom 7");
    assert_eq!((t.board().stumpen, t.board().ute[0]), (1 + 3, 1));
    // From Borta through Hemma: land in Hemma, or reach Stumpen.
    let mut t = s;
    play(&mut t, "1 stone 4 steps from Bortom 3");
    assert_eq!(t.board().rows[1][6], 7);
    let mut t = s;
    play(&mut t, "1 stone 4 steps from Bortom 4");
    assert_eq!(t.board().ute[0], 1);
}

#[test]
fn stu11_past_stumpen_slagna_over_to_the_opponents_hog() {
    let mut b = set_up_board();
    b.rows[1][3] = 5; // Bortom 4: 4 steps is Stumpen
    let mut s = acting(b, 0, [5, 3]);
    assert!(legal(&s, "3 stones 5 steps from Bortom 4"));
    play(&mut s, "3 stones 5 steps from Bortom 4");
    assert_eq!(s.board().hog, [27, 28 + 3]);
    assert_eq!(s.board().rows[1][3], 2);
    assert_eq!((s.board().stumpen, s.board().ute[0]), (1, 0));
    assert!(s.events().iter().any(|e| e.contains("Slagna över")));
}

#[test]
fn stu12_bat_in_on_a_six_own_hog_then_opponents_ute_then_hog() {
    // Enough in the own Hög.
    let mut b = set_up_board();
    b.hog = [10, 10];
    let mut s = acting(b, 0, [6, 5]);
    play(&mut s, "bat in 5");
    assert_eq!((s.board().hog[0], s.board().rows[0][0]), (5, 6));
    // Short: own Hög, then opponent's Ute, then his Hög.
    b.hog = [1, 10];
    b.ute = [1, 2];
    let mut s = acting(b, 0, [6, 5]);
    play(&mut s, "bat in 5");
    assert_eq!(s.board().hog, [0, 8]);
    assert_eq!(s.board().ute, [1, 0]);
    assert_eq!(s.board().rows[0][0], 6);
    // As far as they go.
    b.hog = [1, 2];
    b.ute = [3, 0];
    let mut s = acting(b, 0, [6, 5]);
    play(&mut s, "bat in 5");
    assert_eq!(s.board().rows[0][0], 4);
    // Double six: six from the opponent, Ute first, or the ordinary bat in.
    b.hog = [10, 10];
    b.ute = [0, 4];
    let s = acting(b, 0, [6, 6]);
    let mut t = s;
    play(&mut t, "bat in 6 from opponent");
    assert_eq!((t.board().hog, t.board().ute), ([10, 8], [0, 0]));
    assert_eq!(t.board().rows[0][0], 7);
    let mut t = s;
    play(&mut t, "bat in 6");
    assert_eq!((t.board().hog, t.board().ute), ([4, 10], [0, 4]));
    // An alternative, not an addition: the turn is over.
    assert_eq!(t.turn(), Turn::Chance);
    assert_eq!(t.mover(), 1);
    // No six, no batting in.
    assert!(!legal(&acting(b, 0, [5, 4]), "bat in 4"));
    assert!(!legal(&acting(b, 0, [6, 4]), "bat in 6"));
}

#[test]
fn stu12_stu15_after_a_double_six_the_opponents_bat_in_may_be_declined() {
    // Nothing to move, nothing to bat out, an empty own Hög: batting in six
    // of the opponent's stones is the only action, and he may pass instead.
    let mut b = set_up_board();
    b.stumpen = 1;
    b.hog = [0, 10];
    b.ute = [1, 3];
    let s = acting(b, 0, [6, 6]);
    assert_eq!(texts(&s), ["bat in 6", "pass"]);
    let mut t = s;
    play(&mut t, "pass");
    assert_eq!((t.mover(), t.board()), (1, s.board()));
    let mut t = s;
    play(&mut t, "bat in 6");
    assert_eq!((t.board().hog, t.board().ute), ([0, 7], [1, 0]));
    // With stones of his own in Hög he bats in his own or the opponent's
    // (or bats out): no pass.
    b.hog[0] = 2;
    let s = acting(b, 0, [6, 6]);
    assert_eq!(
        texts(&s),
        ["bat in 6", "bat in 6 from opponent", "bat out 12"]
    );
    assert!(!legal(&s, "pass"));
    // Only after a double six: a 6-5 taking the opponent's stones is owed.
    b.hog[0] = 0;
    assert_eq!(texts(&acting(b, 0, [6, 5])), ["bat in 5"]);
}

#[test]
fn stu15_menu_texts_say_what_moves_from_the_viewers_side() {
    use crate::game::Viewer;
    let mut b = set_up_board();
    b.rows[1][1] = 3; // the mover's Bortom 2: six steps to Stumpen
    b.rows[1][3] = 3; // Bortom 4: four steps to Stumpen, six overshoot
    let s = acting(b, 0, [6, 2]);
    let into = s.parse_action("2 stones 6 steps from Bortom 2").unwrap();
    let over = s.parse_action("2 stones 6 steps from Bortom 4").unwrap();
    let me = Viewer::Player(0);
    assert_eq!(
        s.describe_action(into, me),
        "2 stones 6 steps from Bortom 2, into Stumpen"
    );
    assert!(s.describe_action(over, me).contains("past Stumpen"));
    // The mover's Bortom is the other player's Hitom.
    assert_eq!(
        s.describe_action(into, Viewer::Player(1)),
        "2 stones 6 steps from your Hitom 2, into Stumpen"
    );
    // A bat out that cannot take all it names says how many go.
    let mut b = set_up_board();
    b.stumpen = 3;
    b.hog[0] = 2;
    let s = acting(b, 0, [4, 4]);
    let out = s.parse_action("bat out 8").unwrap();
    assert_eq!(
        s.describe_action(out, me),
        "bat out 8 (only 4 stones there)"
    );
    assert_eq!(s.format_action(out), "bat out 8", "the notation stays");
}

#[test]
fn stu13_landing_in_stumpen_bats_one_out_to_ute() {
    let mut b = set_up_board();
    b.rows[1][1] = 2; // Bortom 2: six steps to Stumpen
    let mut s = acting(b, 0, [6, 1]);
    play(&mut s, "1 stone 6 steps from Bortom 2");
    assert_eq!((s.board().stumpen, s.board().ute[0]), (1, 1));
    b.rows[1][6] = 4; // Bortom 7
    let mut s = acting(b, 0, [3, 1]);
    play(&mut s, "3 stones 1 step from Bortom 7");
    assert_eq!((s.board().stumpen, s.board().ute[0]), (3, 1));
    assert!(s.events().iter().any(|e| e.contains("Slå ut")));
}

#[test]
fn stu14_doubles_bat_out_the_sum_keeping_one_in_stumpen() {
    let mut b = set_up_board();
    b.stumpen = 20;
    let mut s = acting(b, 0, [3, 3]);
    play(&mut s, "bat out 6");
    assert_eq!(
        (s.board().stumpen, s.board().ute[0], s.board().hog[0]),
        (14, 6, 27)
    );
    // Both short: as many as there are.
    b.stumpen = 2;
    b.hog[0] = 3;
    let mut s = acting(b, 0, [5, 5]);
    play(&mut s, "bat out 10");
    assert_eq!(
        (s.board().stumpen, s.board().ute[0], s.board().hog[0]),
        (1, 4, 0)
    );
    // Nothing to give: no bat out; no doubles: no bat out.
    b.stumpen = 1;
    b.hog[0] = 0;
    b.ute[0] = 1;
    assert!(!legal(&acting(b, 0, [5, 5]), "bat out 10"));
    b.stumpen = 9;
    assert!(!legal(&acting(b, 0, [5, 4]), "bat out 9"));
    assert!(!legal(&acting(b, 0, [4, 4]), "bat out 4"));
}

#[test]
fn stu15_pass_only_without_a_legal_action_and_no_duplicates() {
    let s = acting(set_up_board(), 0, [5, 4]);
    assert_eq!(texts(&s), ["pass"]);
    let mut t = s;
    play(&mut t, "pass");
    assert_eq!((t.mover(), t.turns()), (1, 1));
    assert_eq!(t.board(), s.board());
    let mut b = set_up_board();
    b.rows[0][2] = 2;
    let s = acting(b, 0, [2, 1]);
    assert_eq!(texts(&s), ["1 stone 2 steps from Hitom 3"]);
    assert!(!legal(&s, "pass"));
    // Doubles: stones and steps the same way round, listed once.
    let mut b = set_up_board();
    b.rows[0][2] = 9;
    let s = acting(b, 0, [3, 3]);
    assert_eq!(
        texts(&s).iter().filter(|a| a.ends_with("Hitom 3")).count(),
        1
    );
    // Double six with an empty own Hög: both bat-ins take the same stones.
    b.hog[0] = 0;
    b.ute[0] = 5;
    let t = texts(&acting(b, 0, [6, 6]));
    assert!(t.contains(&"bat in 6".to_string()));
    assert!(!t.contains(&"bat in 6 from opponent".to_string()));
    b.hog[0] = 1;
    assert!(texts(&acting(b, 0, [6, 6])).contains(&"bat in 6 from opponent".to_string()));
}

#[test]
fn stu16_past_forty_wins_and_stumpvarning_at_thirty() {
    let mut b = set_up_board();
    b.rows[1][6] = 5; // Bortom 7
    b.ute[0] = 39;
    let mut s = acting(b, 0, [1, 1]);
    play(&mut s, "1 stone 1 step from Bortom 7");
    assert_eq!(s.board().ute[0], 40);
    assert_ne!(s.turn(), Turn::Over, "40 is not past 40");
    b.ute[0] = 40;
    let mut s = acting(b, 0, [1, 1]);
    play(&mut s, "1 stone 1 step from Bortom 7");
    assert_eq!(s.turn(), Turn::Over);
    assert_eq!(s.end(), Some(End::PastForty { winner: 0 }));
    assert_eq!(s.returns().as_slice(), [1.0, -1.0]);
    // The threshold is an option.
    let rules = Rules {
        win: 31,
        ..Rules::default()
    };
    b.ute[0] = 30;
    let mut s = StumphogState::with_position(rules, b, 0, Some([1, 1]));
    play(&mut s, "1 stone 1 step from Bortom 7");
    assert_eq!(s.end(), Some(End::PastForty { winner: 0 }));
    // Stumpvarning when the Ute first reaches 30, once.
    b.ute[0] = 29;
    let mut s = acting(b, 0, [1, 1]);
    play(&mut s, "1 stone 1 step from Bortom 7");
    assert!(s.events().iter().any(|e| e.starts_with("Stumpvarning")));
    assert!(s.stumpvarning()[0]);
    assert!(s.render(Viewer::Player(1), false).contains("STUMPVARNING"));
    play(&mut s, "1-1");
    assert!(!s.events().iter().any(|e| e.starts_with("Stumpvarning")));
    play(&mut s, "1 stone 1 step from Hitom 7"); // player 1: his Hitom 7 is my Bortom 7
    play(&mut s, "1-1");
    play(&mut s, "1 stone 1 step from Bortom 7");
    assert_eq!(s.board().ute[0], 31);
    assert!(!s.events().iter().any(|e| e.starts_with("Stumpvarning")));
}

#[test]
fn stu17_uttorkad_loses_checked_for_both_players() {
    // The mover dries out the opponent.
    let mut b = set_up_board();
    b.hog = [0, 0];
    b.ute = [5, 2];
    let mut s = acting(b, 0, [6, 2]);
    play(&mut s, "bat in 2");
    assert_eq!(s.end(), Some(End::DriedOut { loser: 1 }));
    assert_eq!(s.returns().as_slice(), [1.0, -1.0]);
    // The mover dries himself out.
    b.hog = [3, 10];
    b.ute = [0, 2];
    let mut s = acting(b, 0, [6, 3]);
    play(&mut s, "bat in 3");
    assert_eq!(s.end(), Some(End::DriedOut { loser: 0 }));
    assert_eq!(s.returns().as_slice(), [-1.0, 1.0]);
    // Both at once (our reading): a draw.
    b.hog = [3, 0];
    b.ute = [0, 2];
    let mut s = acting(b, 0, [6, 5]);
    play(&mut s, "bat in 5");
    assert_eq!(s.end(), Some(End::BothDriedOut));
    assert_eq!(s.returns().as_slice(), [0.0, 0.0]);
    // Stones on the board do not save a player.
    b.hog = [0, 1];
    b.ute = [3, 0];
    b.rows[0][0] = 9;
    let mut s = acting(b, 0, [6, 1]);
    play(&mut s, "bat in 1");
    assert_eq!(s.end(), Some(End::DriedOut { loser: 1 }));
}

#[test]
fn stu18_turn_cap_is_a_draw() {
    let options = Options::parse(ID, Stumphog::option_specs(), &["turns=3"]).unwrap();
    let mut s = Stumphog::from_options(&options).unwrap().initial_state();
    play(&mut s, "open 3-1");
    for turn in 0..3 {
        assert_ne!(s.turn(), Turn::Over, "over after {turn} turns");
        play(&mut s, "5-4");
        play(&mut s, "pass");
    }
    assert_eq!(s.turn(), Turn::Over);
    assert_eq!(s.end(), Some(End::TurnCap));
    assert_eq!(s.returns().as_slice(), [0.0, 0.0]);
    assert!(Options::parse(ID, Stumphog::option_specs(), &["turns=0"]).is_err());
    assert!(Options::parse(ID, Stumphog::option_specs(), &["win=56"]).is_err());
}
