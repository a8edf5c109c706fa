//! The position notation: random positions of both games read back from
//! their text and JSON; set-ups that break the rules are typed errors.

use super::*;
use crate::PositionError;
use proptest::prelude::*;

fn position_error(text: &str) -> PositionError {
    match text.parse::<HgState>() {
        Err(crate::Error::BadPosition { reason, .. }) => reason,
        other => panic!("`{text}` gave {other:?}"),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(6))]
    #[test]
    fn positions_round_trip_through_text_and_json(
        seed in any::<u64>(),
        players in 2..=4u8,
        variant in 0..3usize,
    ) {
        let players = format!("players={players}");
        match variant {
            0 => crate::conformance::check_position_round_trips::<HighGammon>(&[&players], 1, seed),
            1 => crate::conformance::check_position_round_trips::<HighGammon>(
                &[&players, "scoring=cube", "doubles=underside"], 1, seed),
            _ => crate::conformance::check_position_round_trips::<TricTrac>(&[&players], 1, seed),
        };
    }
}

#[test]
fn hg_6_the_start_as_text() {
    let s = HgState::new(hg(2));
    let text = s.to_string();
    assert!(text.ends_with(" 0 opening:0,1:first players=2"), "{text}");
    assert_eq!(text.parse::<HgState>().unwrap(), s);
    let t = HgState::new(rules(3, true, Doubles::Reroll, Scoring::Points));
    assert!(t.to_string().contains(" pool=9,9,9 game=tric-trac"), "{t}");
    assert_eq!(t.to_string().parse::<HgState>().unwrap(), t);
}

#[test]
fn set_ups_that_break_the_rules_are_typed_errors() {
    let text = HgState::new(hg(2)).to_string();
    let fields: Vec<&str> = text.split(' ').next().unwrap().split(',').collect();
    let with_fields = |f: &[&str]| text.replacen(&fields.join(","), &f.join(","), 1);
    let first = fields.iter().position(|f| *f != "0").unwrap();
    let empty = fields.iter().position(|f| *f == "0").unwrap();
    // a stone short
    let mut f = fields.clone();
    assert_eq!(f[first], "2B");
    f[first] = "1B";
    assert!(matches!(
        position_error(&with_fields(&f)),
        PositionError::Count {
            what: "stones",
            player: 0,
            expected: 9,
            found: 8
        }
    ));
    // two colours on one field that is no rest field (HG-3)
    let mut f = fields.clone();
    let shared = format!("{}1Y", fields[first]);
    f[first] = &shared;
    assert!(matches!(
        position_error(&with_fields(&f)),
        PositionError::Overlap(_)
    ));
    // 27 fields
    let mut f = fields.clone();
    f.remove(empty);
    assert!(matches!(
        position_error(&with_fields(&f)),
        PositionError::Size {
            what: "fields",
            expected: 28,
            found: 27
        }
    ));
    // no such colour with two players (Blue and Yellow sit opposite)
    let mut f = fields.clone();
    f[empty] = "1G";
    assert!(matches!(
        position_error(&with_fields(&f)),
        PositionError::Unreadable { field: "field", .. }
    ));
    // a stake without the cube
    assert!(matches!(
        position_error(&format!("{text} stake=2")),
        PositionError::Inconsistent(_)
    ));
    assert!(
        format!("{text} stake=2 scoring=cube")
            .parse::<HgState>()
            .is_ok()
    );
}
