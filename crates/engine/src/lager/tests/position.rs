//! The position notation: random positions read back from their text and
//! JSON; malformed setups are typed errors; the repetition history read
//! back still draws on the third occurrence (LAG-11).

use super::*;
use crate::PositionError;
use proptest::prelude::*;

fn position_error(text: &str) -> PositionError {
    match text.parse::<LagerState>() {
        Err(crate::Error::BadPosition { reason, .. }) => reason,
        other => panic!("`{text}` gave {other:?}"),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(8))]
    /// LAG-11: the history of reversible actions is part of the position,
    /// under both captured rules and openings.
    #[test]
    fn positions_round_trip_through_text_and_json(seed in any::<u64>(), variant in 0..3usize) {
        let options: &[&str] = match variant {
            0 => &[],
            1 => &["captured=return", "max_plies=60"],
            _ => &["opening=any", "columns=6", "rows=8"],
        };
        crate::conformance::check_position_round_trips::<Lager>(options, 1, seed);
    }
}

#[test]
fn start_position_text() {
    let s = LagerState::new(LagerConfig::default());
    let text = "...../...../...../...../...../...../..... 0";
    assert_eq!(s.to_string(), text);
    assert_eq!(text.parse::<LagerState>().unwrap(), s);
}

#[test]
fn lag_11_a_position_read_with_its_history_draws_on_the_third_time() {
    // The black stones shuffle back and forth: c1-b2 c7-b6 b2-c1 b6-c7
    // twice brings the start of the shuffle a third time.
    let mut s = pos(
        "..k..
         .....
         .....
         .....
         .....
         .....
         ..K..",
        0,
    );
    let shuffle = ["c1-b2", "c7-b6", "b2-c1", "b6-c7"];
    for a in shuffle.iter().chain(&shuffle[..3]) {
        s.try_apply(s.parse_action(a).unwrap()).unwrap();
    }
    assert_eq!(s.end(), None);
    let read: LagerState = s.to_string().parse().unwrap();
    assert_eq!(read, s);
    assert!(s.to_string().contains(" history="), "{s}");
    let mut both = [s, read];
    for t in &mut both {
        t.try_apply(t.parse_action("b6-c7").unwrap()).unwrap();
        assert_eq!(t.end(), Some(End::Repetition), "{t}");
    }
}

#[test]
fn setups_that_break_the_rules_are_typed_errors() {
    let empty = "...../...../...../...../...../...../.....";
    assert!(matches!(
        position_error(&format!("{empty} 0 rows=8")),
        PositionError::Size {
            what: "board's rows",
            expected: 8,
            found: 7
        }
    ));
    assert!(matches!(
        position_error("..../...../...../...../...../...../..... 0"),
        PositionError::Size {
            what: "board's row",
            expected: 5,
            found: 4
        }
    ));
    // one piece in two places
    assert!(matches!(
        position_error("B..../...../...../...../...../...../....B 0"),
        PositionError::Overlap(_)
    ));
    assert!(matches!(
        position_error(&format!("{} 0 out=B", empty.replacen('.', "B", 1))),
        PositionError::Overlap(_)
    ));
    // LAG-5: four stones on the board
    assert!(matches!(
        position_error("...../...../...../...../...../...../BYKW. 1"),
        PositionError::Count {
            player: 0,
            what: "stones on the board",
            ..
        }
    ));
    assert!(matches!(
        position_error(&format!("{} 0", empty.replacen('.', "Z", 1))),
        PositionError::Unreadable { field: "board", .. }
    ));
    // LAG-9: two stones in the far camp and no end
    assert!(matches!(
        position_error("BY.../...../...../...../...../...../..... 1"),
        PositionError::Inconsistent(_)
    ));
    assert!(
        "BY.../...../...../...../...../...../..... 1 end=camp:0 plies=9"
            .parse::<LagerState>()
            .is_ok()
    );
    assert!(matches!(
        position_error(&format!("{empty} 0 history=8")),
        PositionError::Unreadable {
            field: "history",
            ..
        }
    ));
}
