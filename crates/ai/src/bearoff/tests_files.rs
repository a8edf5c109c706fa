//! Tests of the shipped bear-off files, of Tawla's bear-off against
//! backgammon's, and of the one-sided estimates' invariants.

use super::build::{all_successors, successors, two_sided};
use super::index::{checkers, position, positions};
use super::*;
use proptest::prelude::*;
use sha2::{Digest, Sha256};
use spelbord_engine::backgammon::BackgammonRules;
use spelbord_engine::tables::{AbsBoard, GameEnd, ROLLS, TablesVariant};
use spelbord_engine::tawla::TawlaRules;

fn sha256(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

#[test]
fn the_shipped_files_load_and_their_checksums_hold() {
    // `spelbord bearoff --one-sided bearoff-one.bo --two-sided bearoff-two.bo`
    assert_eq!(
        (ONE_SIDED.len(), sha256(ONE_SIDED).as_str()),
        (
            1_094_587,
            "a40fc69f14fbdb99d08b1490c59f5f4c67bda7e5c7c060fd52011a55e6a9a1f6"
        )
    );
    assert_eq!(
        (TWO_SIDED.len(), sha256(TWO_SIDED).as_str()),
        (
            1_707_577,
            "95071d019f5070b16ecf4e78be1b0a575da10b016c4f2f17b8e71ccbebad9be6"
        )
    );
    let db = shipped().expect("the shipped files read");
    assert_eq!((db.one.checkers, db.two.checkers), (15, 6));
    // a changed byte is caught by the file's own checksum
    let mut bad = TWO_SIDED.to_vec();
    bad[100] ^= 1;
    assert_eq!(TwoSided::from_bytes(&bad), Err(BearoffFileError::Checksum));
    assert_eq!(
        OneSided::from_bytes(TWO_SIDED),
        Err(BearoffFileError::Kind(2))
    );
    assert_eq!(
        TwoSided::from_bytes(&ONE_SIDED[..40]),
        Err(BearoffFileError::Checksum)
    );
    assert_eq!(
        OneSided::from_bytes(b"SPELNET\0........"),
        Err(BearoffFileError::NotABearoffFile)
    );
}

#[test]
fn the_shipped_two_sided_file_is_what_the_generator_writes() {
    assert_eq!(build::two_sided_file(6).unwrap(), TWO_SIDED);
    // sizes past the databases' are errors, not huge tables
    assert!(build::two_sided_file(9).is_err());
    assert!(build::one_sided_file(16).is_err());
}

#[test]
fn a_smaller_database_holds_the_same_values() {
    // The positions of at most 3 checkers only lead to each other.
    let succ = all_successors(BackgammonRules, 3).unwrap();
    let n = positions(3);
    let small = two_sided(&succ, 3);
    let bytes = file::two_sided_bytes(3, &small);
    let two = TwoSided::from_bytes(&bytes).unwrap();
    let shipped = &shipped().unwrap().two;
    for a in 0..n {
        for b in 0..n {
            assert_eq!(two.win(a, b), shipped.win(a, b));
        }
    }
    let (race, first) = build::one_sided(&succ, 3);
    let one = OneSided::from_bytes(&file::one_sided_bytes(3, &race, &first)).unwrap();
    for i in 0..n {
        assert_eq!(one.race(i), shipped_one().race(i));
    }
}

fn shipped_one() -> &'static OneSided {
    &shipped().unwrap().one
}

/// A board of `V` with both sides home (each in its own numbering).
pub(super) fn board_of<V: TablesVariant>(mover: &Home, other: &Home) -> V::Board {
    let mut abs = AbsBoard {
        off: [15 - checkers(mover) as u8, 15 - checkers(other) as u8],
        ..AbsBoard::default()
    };
    for i in 0..POINTS {
        abs.top[i] = mover[i] as i8;
        abs.top[23 - i] = -(other[i] as i8);
    }
    V::board_from_absolute(&abs).unwrap()
}

#[test]
fn tawla_bears_off_as_backgammon() {
    // TAW-8/TAW-9 against BG-7, the dice rules (TAW-7) and the game's end
    // (TAW-10: 2 points when the loser bore off none) on every position of
    // a side's home board and every roll.
    let mother = TawlaRules { mother: true };
    for i in 0..positions(15) {
        let h = position(i).unwrap();
        for &(dice, _) in ROLLS.iter() {
            let bg = successors(BackgammonRules, &h, dice).unwrap();
            assert_eq!(successors(mother, &h, dice).unwrap(), bg, "{h:?} {dice:?}");
        }
    }
    for (other, points) in [([0, 0, 0, 0, 0, 15], 2), ([0, 0, 1, 0, 0, 0], 1)] {
        let bg = board_of::<BackgammonRules>(&[0; 6], &other);
        let taw = board_of::<TawlaRules>(&[0; 6], &other);
        let (Some(GameEnd::MoverWins(b, _)), Some(GameEnd::MoverWins(t, _))) =
            (BackgammonRules.game_end(&bg), mother.game_end(&taw))
        else {
            panic!("both games are over");
        };
        assert_eq!((b, t), (points, points));
    }
}

/// A random home board of at most `max` checkers.
fn any_home(max: usize) -> impl Strategy<Value = Home> {
    (0..positions(max)).prop_map(|i| position(i).unwrap())
}

proptest! {
    #[test]
    fn estimates_are_probabilities_and_being_on_roll_helps(a in any_home(15), b in any_home(15)) {
        prop_assume!(checkers(&a) > 0 && checkers(&b) > 0);
        let db = shipped().unwrap();
        let p = db.probs(&a, &b).unwrap();
        let q = db.probs(&b, &a).unwrap();
        prop_assert!(p.iter().all(|x| (0.0..=1.0).contains(x)));
        prop_assert!(p[1] <= p[0] && p[3] <= 1.0 - p[0] && p[2] == 0.0 && p[4] == 0.0);
        // with the other on roll the side wins no more often
        prop_assert!(p[0] + q[0] >= 1.0 - 1e-4);
        // gammons only against a side that has borne off none
        prop_assert!(checkers(&b) == 15 || p[1] == 0.0);
        prop_assert!(checkers(&a) == 15 || p[3] == 0.0);
    }

    #[test]
    fn race_homes_finds_the_home_boards_of_both_games(a in any_home(15), b in any_home(15)) {
        let bg = board_of::<BackgammonRules>(&a, &b);
        prop_assert_eq!(race_homes::<BackgammonRules>(&bg), Some([a, b]));
        let taw = board_of::<TawlaRules>(&a, &b);
        prop_assert_eq!(race_homes::<TawlaRules>(&taw), Some([a, b]));
        prop_assert_eq!(index::index(&a) < positions(15), true);
    }
}

#[test]
fn race_homes_refuses_contact_the_bar_and_pins() {
    let start = BackgammonRules.start_board();
    assert_eq!(race_homes::<BackgammonRules>(&start), None);
    // a checker of the mover on his 7 point
    let mut abs = AbsBoard::default();
    abs.top[6] = 15;
    abs.top[23] = -15;
    let b = BackgammonRules::board_from_absolute(&abs).unwrap();
    assert_eq!(race_homes::<BackgammonRules>(&b), None);
    // the other's checker on the mover's 6 point, where they can still meet
    abs.top[6] = 0;
    abs.top[0] = 15;
    abs.top[23] = -14;
    abs.top[5] = -1;
    let b = BackgammonRules::board_from_absolute(&abs).unwrap();
    assert_eq!(race_homes::<BackgammonRules>(&b), None);
    // a Tawla checker pinned under the other's on his home point
    let mut abs = AbsBoard::default();
    abs.top[0] = 14;
    abs.top[18] = -15;
    abs.under[18] = 1;
    let t = TawlaRules::board_from_absolute(&abs).unwrap();
    assert_eq!(race_homes::<TawlaRules>(&t), None);
    assert_eq!(index::index(&[0; 6]), 0);
}
