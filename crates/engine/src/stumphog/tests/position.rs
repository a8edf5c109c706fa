//! The position notation: random positions read back from their text and
//! JSON; set-ups that break the rules are typed errors.

use super::*;
use crate::PositionError;
use proptest::prelude::*;

fn position_error(text: &str) -> PositionError {
    match text.parse::<StumphogState>() {
        Err(crate::Error::BadPosition { reason, .. }) => reason,
        other => panic!("`{text}` gave {other:?}"),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(6))]
    #[test]
    fn positions_round_trip_through_text_and_json(seed in any::<u64>(), low_win in any::<bool>()) {
        let options: &[&str] = if low_win { &["win=20", "turns=300"] } else { &[] };
        crate::conformance::check_position_round_trips::<Stumphog>(options, 1, seed);
    }
}

#[test]
fn stu_4_the_set_up_as_text() {
    let s = acting(set_up_board(), 1, [6, 5]);
    let text = "1,1,1,1,1,1,1/1,1,1,1,1,1,1 1 27,28 0,0 1 6-5";
    assert_eq!(s.to_string(), text);
    assert_eq!(text.parse::<StumphogState>().unwrap(), s);
    let start = StumphogState::new(Rules::default());
    assert_eq!(
        start.to_string(),
        "1,1,1,1,1,1,1/1,1,1,1,1,1,1 0 27,27 0,0 0 opening"
    );
}

#[test]
fn set_ups_that_break_the_rules_are_typed_errors() {
    let rows = "1,1,1,1,1,1,1/1,1,1,1,1,1,1";
    // STU-1: 70 stones
    assert!(matches!(
        position_error(&format!("{rows} 1 27,27 0,0 1 6-5")),
        PositionError::Count {
            expected: 70,
            found: 69,
            ..
        }
    ));
    assert!(matches!(
        position_error("1,1,1,1,1,1/1,1,1,1,1,1,1 1 28,28 0,0 1 6-5"),
        PositionError::Size {
            what: "row",
            expected: 7,
            found: 6
        }
    ));
    assert!(matches!(
        position_error(&format!("{rows} 1 27,28 0 1 6-5")),
        PositionError::Size {
            what: "Ute",
            expected: 2,
            found: 1
        }
    ));
    assert!(matches!(
        position_error(&format!("{rows} 1 27,28 0,0 1 7-5")),
        PositionError::Unreadable { field: "phase", .. }
    ));
    // STU-16: past forty, yet the game goes on; over without an end
    assert!(matches!(
        position_error(&format!("{rows} 1 0,0 41,14 1 rolling warned=1,0")),
        PositionError::Inconsistent(_)
    ));
    assert!(matches!(
        position_error(&format!("{rows} 1 0,0 41,14 1 over warned=1,0")),
        PositionError::Inconsistent(_)
    ));
    assert!(
        format!("{rows} 1 0,0 41,14 1 over played=90 warned=1,0 end=past_forty:0")
            .parse::<StumphogState>()
            .is_ok()
    );
    assert!(matches!(
        position_error(&format!("{rows} 1 27,28 0,0 1 6-5 colour=red")),
        PositionError::Option(_)
    ));
}
