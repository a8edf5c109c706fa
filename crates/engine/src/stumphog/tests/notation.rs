//! Notation, explanations and the drawing.

use super::*;
use crate::error::Error;
use crate::game::Viewer;

#[test]
fn notation_round_trips_and_short_forms() {
    let s = acting(set_up_board(), 0, [2, 1]);
    for text in [
        "3 stones 5 steps from Bortom 4",
        "1 stone 1 step from Hitom 7",
        "bat in 5",
        "bat in 6 from opponent",
        "bat out 8",
        "pass",
        "open 5-3",
        "4-2",
    ] {
        let a = s.parse_action(text).unwrap();
        assert_eq!(s.format_action(a), text);
    }
    let long = s.parse_action("3 stones 5 steps from Bortom 4").unwrap();
    for short in [
        "3x5 b4",
        "3 5 bortom 4",
        "Tre-Fem från Bortom 4",
        "3 stenar 5 steg b 4",
    ] {
        assert_eq!(s.parse_action(short).unwrap(), long, "{short}");
    }
    assert_eq!(s.parse_action("2-4").unwrap(), StumphogAction::Roll([4, 2]));
    assert_eq!(
        s.parse_action("roll 4 2").unwrap(),
        StumphogAction::Roll([4, 2])
    );
    assert_eq!(
        s.parse_action("slå in 3").unwrap(),
        StumphogAction::BatIn(3)
    );
    assert_eq!(
        s.parse_action("slå ut 12").unwrap(),
        StumphogAction::BatOut(12)
    );
    assert_eq!(
        s.parse_action("bat in 6 opp").unwrap(),
        StumphogAction::BatInFromOpponent
    );
}

#[test]
fn bad_notation_is_a_typed_error() {
    let s = acting(set_up_board(), 0, [2, 1]);
    for text in [
        "",
        "3 stones 5 steps",
        "3 stones 5 steps from Bortom 8",
        "7 stones 1 step from Hitom 2",
        "bat in 7",
        "bat out 13",
        "open 3-3",
        "7-1",
        "from Stumpen",
        "hello",
    ] {
        assert!(
            matches!(s.parse_action(text), Err(Error::BadNotation { .. })),
            "{text:?}"
        );
    }
}

#[test]
fn illegal_actions_are_explained_and_change_nothing() {
    let mut b = set_up_board();
    b.rows[1][3] = 3;
    let mut s = acting(b, 0, [3, 2]);
    let before = s;
    for (text, why) in [
        ("3 stones 2 steps from Bortom 4", "at least 4"),
        ("4 stones 2 steps from Bortom 4", "with 3-2"),
        ("2 stones 3 steps from Bortom 6", "Hemma"),
        ("bat in 2", "six"),
        ("bat out 6", "doubles"),
        ("pass", "may not pass"),
        ("4-1", "must act"),
    ] {
        let a = s.parse_action(text).unwrap();
        let err = s.try_apply(a).unwrap_err();
        assert!(err.to_string().contains(why), "{text}: {err}");
        assert_eq!(s, before);
    }
    // Out-of-range values from JSON are rejected without a panic.
    let a: StumphogAction =
        serde_json::from_str(r#"{"move":{"stones":3,"steps":2,"row":"hitom","col":200}}"#).unwrap();
    assert!(s.try_apply(a).is_err());
    assert_eq!(s, before);
}

#[test]
fn drawing_shows_rows_stumpen_hog_ute_and_the_mover() {
    let mut b = set_up_board();
    b.rows[0] = [2, 3, 4, 5, 6, 7, 8];
    b.rows[1] = [12, 13, 14, 15, 16, 17, 18];
    b.stumpen = 9;
    b.hog = [10, 11];
    b.ute = [0, 4];
    let s = acting(b, 1, [6, 6]);
    let mine = s.render(Viewer::Player(1), false);
    assert!(mine.contains("Stumpen  9"), "{mine}");
    assert!(mine.contains("Player 1 (you, to move)"));
    assert!(mine.contains("with 6-6"));
    assert!(mine.contains("bat in 6"));
    assert!(mine.contains("bat out 12"));
    // From player 1's side his row (12..18) is below, the other above.
    let lines: Vec<&str> = mine.lines().collect();
    let bortom = lines.iter().position(|l| l.contains("Bortom")).unwrap();
    let hitom = lines.iter().position(|l| l.contains("Hitom")).unwrap();
    assert!(bortom < hitom);
    assert!(lines[bortom].contains("   2   3   4   5 |   6   7   8"));
    assert!(lines[hitom].contains("  12  13  14  15 |  16  17  18"));
    // Spectators see it from the mover's side; colour only when asked.
    let board_lines = |text: &str| -> Vec<String> {
        text.lines()
            .take(9)
            .filter(|l| !l.contains("Player 1"))
            .map(String::from)
            .collect()
    };
    assert_eq!(
        board_lines(&s.render(Viewer::Spectator, false)),
        board_lines(&mine)
    );
    assert!(!mine.contains('\x1b'));
    assert!(s.render(Viewer::Spectator, true).contains('\x1b'));
    let theirs = s.render(Viewer::Player(0), false);
    assert!(theirs.contains("his Hitom is your Bortom"));
}

#[test]
fn a_moves_json_says_where_its_stones_land_as_the_move_puts_them() {
    for p in 0..2 {
        for row in [Row::Hitom, Row::Bortom] {
            for col in 1..=7 {
                for steps in 1..=6 {
                    let mut b = set_up_board();
                    b.rows = [[6; COLUMNS]; 2];
                    let before = b;
                    let landing =
                        b.apply_move(p, crate::stumphog::board::track_of(row, col), 1, steps);
                    let grew = [Row::Hitom, Row::Bortom].into_iter().find_map(|r| {
                        (1..=7)
                            .find(|&c| b.pile(p, r, c) > before.pile(p, r, c))
                            .map(|c| (r, c))
                    });
                    let expected = match (landing, grew) {
                        (Landing::Pile, Some((row, col))) => Destination::Pile { row, col },
                        (Landing::Stumpen, None) => Destination::Stumpen,
                        (Landing::Over, None) => Destination::Over,
                        other => panic!("{other:?}"),
                    };
                    let action = StumphogAction::Move {
                        stones: 1,
                        steps,
                        row,
                        col,
                    };
                    let json = serde_json::to_value(action).unwrap();
                    assert_eq!(
                        json["move"]["to"],
                        serde_json::to_value(expected).unwrap(),
                        "player {p}: {action:?}"
                    );
                    let read: StumphogAction = serde_json::from_value(json).unwrap();
                    assert_eq!(read, action, "`to` is ignored when read");
                }
            }
        }
    }
    // A pile off the board lands nowhere (and writing it does not panic).
    let off_board = StumphogAction::Move {
        stones: 1,
        steps: 250,
        row: Row::Hitom,
        col: 200,
    };
    let json = serde_json::to_value(off_board).unwrap();
    assert!(json["move"].get("to").is_none(), "{json}");
}
